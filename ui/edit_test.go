package ui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"stwb/designfile"
	"stwb/model"
)

// Every edit can be undone and redone, and undoing back to the saved state clears
// the unsaved marker.
func TestUndoRedoEveryEdit(t *testing.T) {
	cases := []struct {
		name  string
		keys  []tea.Msg
		check func(d *model.Design) bool // true when the edit is in effect
	}{
		{"delete pattern", keys("d", "y"), func(d *model.Design) bool { return len(d.Patterns) == 2 }},
		{"copy pattern", keys("c"), func(d *model.Design) bool { return len(d.Patterns) == 4 && d.Patterns[1].ID == 4 }},
		{"move pattern down", keys("J"), func(d *model.Design) bool { return d.Patterns[1].ID == 1 }},
		{"move pattern up", keys("j", "K"), func(d *model.Design) bool { return d.Patterns[0].ID == 2 }},
		{"edit pattern name", append(keys("enter", "ctrl+u", "Profile by id"), keys("ctrl+s")...),
			func(d *model.Design) bool { return d.Patterns[0].Name == "Profile by id" }},
		{"delete item", keys("2", "d", "y"), func(d *model.Design) bool { return len(d.Items) == 3 }},
		{"add item from templates", append(keys("2", "G", "a", "tab", `{customerId: "3", name: "李小龍"}`), keys("ctrl+s")...),
			func(d *model.Design) bool {
				return len(d.Items) == 5 && d.Items[4]["PK"].Str == "CUST#3" && d.Items[4]["SK"].Str == "PROFILE"
			}},
		// y: the copy's keys are derived from its attributes, not kept from the original.
		{"duplicate item with a new id", append(keys("2", "G", "y", "tab", "ctrl+u", `{customerId: "9", name: x}`), keys("ctrl+s")...),
			func(d *model.Design) bool { return len(d.Items) == 5 && d.Items[4]["PK"].Str == "CUST#9" }},
		{"add GSI", append(keys("3", "a", "GSI2", "tab", "GSI2PK"), keys("ctrl+s")...),
			func(d *model.Design) bool { return len(d.Table.Indexes) == 2 && d.Table.Indexes[1].Name == "GSI2" }},
		{"edit table billing", append(keys("3", "enter", "tab", "tab", "tab", "tab", "tab", "tab", "tab", "ctrl+u", "provisioned 10 5"), keys("ctrl+s")...),
			func(d *model.Design) bool {
				return d.Table.Billing.Mode == model.Provisioned && d.Table.Billing.Read == 10
			}},
		{"add entity", append(keys("3", "G", "a", "invoice", "tab", `{PK: "INV#{id}", SK: META}`), keys("ctrl+s")...),
			func(d *model.Design) bool { return len(d.Entities) == 3 && d.Entities[2].Keys["PK"] == "INV#{id}" }},
		{"palette adds a GSI", append(keys(":", "gsi GSI9 a b"), keys("enter")...),
			func(d *model.Design) bool { return len(d.Table.Indexes) == 2 && d.Table.Indexes[1].Key.Sort == "b" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := testModel(t, fixtureDoc(), 120, 40)
			send(t, m, c.keys...)
			d := m.Doc().D
			if !c.check(d) {
				t.Fatalf("edit not in effect; status %q\n%s", m.status, screen(m))
			}
			if !m.Doc().Dirty || !strings.Contains(screen(m), "● unsaved") {
				t.Error("an edit did not mark the design unsaved")
			}
			send(t, m, keys("ctrl+z")...)
			if c.check(m.Doc().D) {
				t.Fatal("undo did not revert the edit")
			}
			if m.Doc().Dirty {
				t.Error("undoing back to the opened state left the design marked unsaved")
			}
			send(t, m, keys("ctrl+y")...)
			if !c.check(m.Doc().D) {
				t.Fatal("redo did not re-apply the edit")
			}
		})
	}
}

// Bad values get a message under the field and the form stays open
// (API_Query.html for Limit and ConsistentRead; Query.KeyConditionExpressions.html).
func TestPatternFormChecks(t *testing.T) {
	d := fixture()
	base := d.Patterns[1]
	cases := []struct {
		field, value, want string
	}{
		{"id", "1", "pattern 1 already exists"},
		{"id", "x", "whole number"},
		{"operation", "Querry", "must be one of"},
		{"index", "GSI7", "no index \"GSI7\""},
		{"limit", "0", "minimum"},
		{"forward", "maybe", "true, false or empty"},
		{"values", "{:pk: [", "not a YAML mapping"},
		{"names", `{"t": total}`, "must start with #"},
		{"key", "", "needs a KeyConditionExpression"},
		{"rate", "-3", "0 or more"},
		{"item", "{PK: x}", "only a PutItem takes an item"},
	}
	for _, c := range cases {
		t.Run(c.field+"="+c.value, func(t *testing.T) {
			v := patternFormValues(&base)
			v[c.field] = c.value
			_, errs := patternFromForm(d, base, 1, v)
			if !strings.Contains(errs[c.field], c.want) {
				t.Errorf("error on %s = %q, want one containing %q (all: %v)", c.field, errs[c.field], c.want, errs)
			}
		})
	}
	// Consistent reads on a GSI are refused (API_Query.html: "Strongly consistent
	// reads are not supported on global secondary indexes").
	v := patternFormValues(&d.Patterns[2])
	v["consistent"] = "true"
	if _, errs := patternFromForm(d, d.Patterns[2], 2, v); errs["consistent"] == "" {
		t.Error("ConsistentRead on a GSI accepted")
	}
	// The unchanged pattern has no errors.
	if _, errs := patternFromForm(d, base, 1, patternFormValues(&base)); len(errs) > 0 {
		t.Errorf("unchanged pattern has errors: %v", errs)
	}
}

// Key templates fill the key fields of a typed item (FORMAT.md "Items and entities").
func TestItemFormTemplates(t *testing.T) {
	m := testModel(t, fixtureDoc(), 120, 40)
	cases := []struct {
		name   string
		vals   map[string]string
		field  string // field expected to hold an error; "" for none
		wantPK string
	}{
		{"filled from template", map[string]string{"type": "customer", "attributes": `{customerId: "7"}`}, "", "CUST#7"},
		{"given key must match", map[string]string{"type": "customer", "attributes": `{customerId: "7"}`, "key:PK": "USER#7"}, "key:PK", ""},
		{"missing template variable", map[string]string{"type": "order", "attributes": `{customerId: "7", status: X}`}, "key:SK", ""},
		{"duplicate key", map[string]string{"type": "customer", "attributes": `{customerId: "1"}`}, "key:PK", ""},
		{"untyped needs keys", map[string]string{"attributes": `{a: 1}`}, "key:PK", ""},
		// FORMAT.md: an item whose type names no entity is allowed (untyped).
		{"unknown entity", map[string]string{"type": "cutsomer", "key:PK": "A", "key:SK": "B"}, "", "A"},
		// The loader's rule: where the template can be built, a given key must be it.
		{"override differs from the derived key", map[string]string{"type": "customer", "attributes": `{customerId: "7"}`, "key:PK": "CUST#8"}, "key:PK", ""},
		{"key attribute in attributes", map[string]string{"attributes": `{PK: A}`, "key:PK": "A", "key:SK": "B"}, "attributes", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			it, errs := itemFromForm(m.w, -1, c.vals)
			if c.field == "" {
				if len(errs) > 0 {
					t.Fatalf("errors %v", errs)
				}
				if it["PK"].Str != c.wantPK {
					t.Errorf("PK = %q, want %q", it["PK"].Str, c.wantPK)
				}
				return
			}
			if errs[c.field] == "" {
				t.Errorf("no error on %s (errors: %v)", c.field, errs)
			}
		})
	}
}

// LSI.html: an LSI can only be created with its table.
func TestLSIRefusedOnExistingTable(t *testing.T) {
	m := testModel(t, fixtureDoc(), 120, 40)
	send(t, m, keys("3", "L")...)
	if !m.statusErr || !strings.Contains(m.status, "existing table") {
		t.Errorf("status %q, want the LSI refusal", m.status)
	}
	if m.form() != nil {
		t.Error("a form opened for an LSI on an existing table")
	}
	// A new design (no file yet) may still take an LSI.
	doc, err := OpenFile(filepath.Join(t.TempDir(), "new.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	m = testModel(t, doc, 120, 40)
	send(t, m, keys("3", "L", "LSI1", "tab", "placedAt")...)
	send(t, m, keys("ctrl+s")...)
	if ix := m.Doc().D.Table.Indexes; len(ix) != 1 || !ix[0].Local {
		t.Errorf("LSI not added to a new design: %+v (status %q)", ix, m.status)
	}
}

func TestQuitAsksWhenUnsaved(t *testing.T) {
	m := testModel(t, fixtureDoc(), 80, 24)
	send(t, m, keys("J")...)
	_, cmd := m.Update(keys("q")[0])
	run(t, m, cmd)
	if m.confirm() == nil || !strings.Contains(screen(m), "Quit without saving?") {
		t.Fatalf("q with unsaved changes did not ask:\n%s", screen(m))
	}
	send(t, m, keys("n")...)
	if m.confirm() != nil {
		t.Error("n did not cancel the question")
	}
	_, cmd = m.Update(keys("q")[0])
	run(t, m, cmd)
	_, cmd = m.Update(keys("y")[0])
	if cmd == nil {
		t.Fatal("y did not quit")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("y did not quit")
	}
}

// Saving is atomic (writeDesign); a file changed on disk since it was loaded is
// not overwritten without asking; the save round-trips.
func TestSaveReloadAndChangedOnDisk(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "d.yaml")
	if err := (&designfile.File{Design: fixture()}).Save(path); err != nil {
		t.Fatal(err)
	}
	doc, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := testModel(t, doc, 120, 40)
	send(t, m, keys("c", "ctrl+s")...)
	if m.Doc().Dirty {
		t.Fatalf("still unsaved after ctrl+s: %q", m.status)
	}
	back, err := designfile.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Patterns) != 4 || back.Patterns[1].ID != 4 {
		t.Fatalf("reloaded patterns %d, want the copy as pattern 4", len(back.Patterns))
	}
	// Someone else writes the file; the next save asks.
	time.Sleep(10 * time.Millisecond)
	if err := os.WriteFile(path, append(mustRead(t, path), []byte("# edited elsewhere\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	send(t, m, keys("J", "ctrl+s")...)
	if m.confirm() == nil || !strings.Contains(m.confirm().question, "changed on disk") {
		t.Fatalf("no question about the changed file; status %q", m.status)
	}
	send(t, m, keys("n")...)
	if !strings.Contains(string(mustRead(t, path)), "edited elsewhere") {
		t.Fatal("the file was overwritten after the user said no")
	}
	send(t, m, keys("ctrl+s", "y")...)
	if strings.Contains(string(mustRead(t, path)), "edited elsewhere") && m.Doc().Dirty {
		t.Fatalf("y did not save: %q", m.status)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A recovery copy is written while there are unsaved changes and offered on reopen.
func TestRecoveryCopy(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "d.yaml")
	if err := (&designfile.File{Design: fixture()}).Save(path); err != nil {
		t.Fatal(err)
	}
	doc, _ := OpenFile(path)
	m := testModel(t, doc, 120, 40)
	send(t, m, keys("c")...)
	time.Sleep(10 * time.Millisecond)
	run(t, m, m.Doc().recoverCmd()) // what each recovery tick does
	rp := RecoveryPath(path)
	if _, err := os.Stat(rp); err != nil {
		t.Fatalf("no recovery copy after a tick with unsaved changes: %v", err)
	}
	// Reopen: the copy is offered; y restores the unsaved copy.
	doc2, _ := OpenFile(path)
	m2 := testModel(t, doc2, 120, 40)
	if m2.confirm() == nil || !strings.Contains(m2.confirm().question, "recovery copy") {
		t.Fatalf("recovery copy not offered:\n%s", screen(m2))
	}
	send(t, m2, keys("y")...)
	if len(m2.Doc().D.Patterns) != 4 || !m2.Doc().Dirty {
		t.Errorf("restored design has %d patterns (dirty %v), want the unsaved 4", len(m2.Doc().D.Patterns), m2.Doc().Dirty)
	}
	// Saving removes the copy.
	send(t, m2, keys("ctrl+s")...)
	if _, err := os.Stat(rp); err == nil {
		t.Error("recovery copy left after saving")
	}
}

// A result computed for an older revision is dropped, not shown.
func TestStaleResultsDropped(t *testing.T) {
	m := testModel(t, fixtureDoc(), 120, 40)
	w := m.w
	old := w.preview
	stale := previewMsg{rev: w.doc.Rev - 1, dataRev: w.doc.DataRev, idx: w.selPattern, res: nil}
	if w.handle(stale) {
		t.Error("a stale preview was taken")
	}
	if w.preview != old {
		t.Error("a stale preview replaced the current one")
	}
	if w.handle(gridMsg{rev: w.doc.DataRev + 5, view: ""}) {
		t.Error("a grid for another revision was taken")
	}
}

// Validation errors show in the Review pane; enter jumps to what they name.
func TestReviewShowsValidationAndJumps(t *testing.T) {
	d := fixture()
	d.Patterns[2].Index = "NOPE"
	d.Patterns[2].Pos = model.Pos{File: "x.yaml", Line: 40, Col: 5}
	m := testModel(t, &Doc{D: d, Sample: "fixture"}, 120, 40)
	send(t, m, keys("5")...)
	scr := screen(m)
	if !strings.Contains(scr, "NOPE") {
		t.Fatalf("review pane lacks the validation error:\n%s", scr)
	}
	checkGolden(t, "review_error_120x40", scr)
	send(t, m, keys("enter")...)
	if scr := screen(m); m.focus != paneReview || !strings.Contains(scr, "enter goes to the pattern") {
		t.Fatalf("enter did not show the finding whole:\n%s", scr)
	}
	send(t, m, keys("enter")...)
	if m.focus != panePatterns || m.w.selPattern != 2 {
		t.Errorf("enter on a finding about pattern 3: focus %d, selected %d", m.focus, m.w.selPattern)
	}
	send(t, m, keys("5", "j", "j", "enter", "enter")...) // the unused-index finding
	tp := m.panes[paneTable].(*tablePane)
	if m.focus != paneTable || tp.l.cur != 1 {
		t.Errorf("enter on a finding about GSI1: focus %d, table cursor %d", m.focus, tp.l.cur)
	}
}

// The mouse: a click on a tab switches pane; a click on a row selects it.
func TestMouse(t *testing.T) {
	m := testModel(t, fixtureDoc(), 120, 40)
	send(t, m, tea.MouseMsg{X: 14, Y: 1, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	if m.focus != paneItems {
		t.Fatalf("click on the Items tab: focus %d", m.focus)
	}
	send(t, m, tea.MouseMsg{X: 5, Y: 2 + 2 + 2, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	ip := m.panes[paneItems].(*itemsPane)
	if ip.l.cur != 2 {
		t.Errorf("click on the third item row: cursor %d", ip.l.cur)
	}
	send(t, m, tea.MouseMsg{Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	if ip.l.cur != 3 {
		t.Errorf("wheel down: cursor %d, want 3", ip.l.cur)
	}
}

// A design file is read in the background; a bad one ends the workbench with the
// loader's errors (the command line prints them and exits 2).
func TestLoadingInBackground(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	if err := (&designfile.File{Design: fixture()}).Save(good); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("version: 1\nname: x\ntable: {name: t, key: {partition: PK}}\npaterns: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := Loading(good)
	if err != nil {
		t.Fatal(err)
	}
	m := New(doc, Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if !strings.Contains(screen(m), "reading and checking") {
		t.Fatalf("first frame does not say the file is being read:\n%s", screen(m))
	}
	run(t, m, m.Init())
	if len(m.Doc().D.Patterns) != 3 || m.Doc().Dirty {
		t.Fatalf("loaded design has %d patterns (dirty %v)", len(m.Doc().D.Patterns), m.Doc().Dirty)
	}
	doc, _ = Loading(bad)
	m = New(doc, Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
	run(t, m, m.Init())
	if m.LoadErr() == nil || !strings.Contains(m.LoadErr().Error(), "bad.yaml:4") {
		t.Errorf("load error %v, want one naming bad.yaml:4", m.LoadErr())
	}
}

// While the grid of a changed design is rebuilt off the event loop, the previous
// grid stays on screen, drawn from the snapshot it indexes, marked as updating, and
// nothing can be edited through it.
func TestStaleGridShownWhileRebuilding(t *testing.T) {
	m := testModel(t, fixtureDoc(), 120, 40)
	send(t, m, keys("2")...)
	d := m.Doc().D
	// Apply an edit but do not run the background work it starts.
	m.Update(applyEdit{e: itemEdit("deleted", opDelete, 0, d.Items[0], nil)})
	scr := screen(m)
	if !strings.Contains(scr, "updating…") || !strings.Contains(scr, "山田太郎") {
		t.Fatalf("stale grid not shown as updating:\n%s", scr)
	}
	ip := m.panes[paneItems].(*itemsPane)
	if km := ip.keys(); km.Delete.Enabled() || km.Edit.Enabled() || km.Duplicate.Enabled() {
		t.Error("editing offered on a stale grid")
	}
	if _, cmd := ip.Update(keys("d")[0]); cmd != nil {
		t.Error("d on a stale grid did something")
	}
}

// Editing an entity keeps the attributes' order in the file, and reads the unique
// flag in FORMAT.md's long form ("Other top-level keys"), which the form shows.
func TestEntityEditKeepsOrderAndUnique(t *testing.T) {
	d := fixture()
	d.Entities[0].Attributes = []model.EntityAttribute{{Name: "name", Type: model.TypeS}, {Name: "email", Type: model.TypeS, Unique: true}, {Name: "customerId", Type: model.TypeS}}
	v := map[string]string{"name": "customer", "keys": `{PK: "CUST#{customerId}", SK: PROFILE}`,
		"attributes": "{customerId: S, email: {type: S, unique: true}, name: S, age: N}", "count": "10"}
	e, errs := entityFromForm(d, 0, v)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, a := range e.Attributes {
		got = append(got, fmt.Sprintf("%s:%s:%v", a.Name, a.Type, a.Unique))
	}
	want := "name:S:false email:S:true customerId:S:false age:N:false"
	if strings.Join(got, " ") != want {
		t.Errorf("attributes %v, want %s", got, want)
	}
	if s := entityAttrsText(d.Entities[0].Attributes); !strings.Contains(s, "email: {type: S, unique: true}") {
		t.Errorf("the form shows %s, without email's unique flag", s)
	}
}

// Removing an index is held to the loader's rules: refused while a pattern reads it
// (the loader refuses a pattern naming an index that does not exist); once no pattern
// does, the index goes with the entity templates of its keys, and undo brings both back.
func TestRemoveIndex(t *testing.T) {
	m := testModel(t, fixtureDoc(), 120, 40)
	send(t, m, keys("3", "j", "d", "y")...)
	if len(m.Doc().D.Table.Indexes) != 1 || !m.statusErr || !strings.Contains(m.status, `pattern 3: index "GSI1" does not exist`) {
		t.Fatalf("index removed while pattern 3 reads it; status %q", m.status)
	}
	send(t, m, keys("1", "G", "d", "y", "3", "g", "j", "d")...)
	if !strings.Contains(m.confirm().question, "order.GSI1PK, order.GSI1SK go with it") {
		t.Errorf("question %q does not name the templates that go", m.confirm().question)
	}
	send(t, m, keys("y")...)
	d := m.Doc().D
	if len(d.Table.Indexes) != 0 || d.Entities[1].Keys["GSI1PK"] != "" || d.Items[1]["GSI1PK"].Str != "STATUS#SHIPPED" {
		t.Fatalf("after removing: indexes %v, order keys %v, item %v; status %q", d.Table.Indexes, d.Entities[1].Keys, d.Items[1], m.status)
	}
	send(t, m, keys("ctrl+z")...)
	if d := m.Doc().D; len(d.Table.Indexes) != 1 || d.Entities[1].Keys["GSI1PK"] != "STATUS#{status}" {
		t.Fatalf("undo did not bring back the index and its templates")
	}
}

// TestChangedOnDiskSameSizeAndTime: an outside edit that keeps the file's size and
// modification time (a tool that restores times, or two writes within the file
// system's clock tick) is still noticed by the content hash before ctrl+s
// overwrites it. Before, a matching size and time skipped the hash.
func TestChangedOnDiskSameSizeAndTime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.yaml")
	if err := (&designfile.File{Design: fixture()}).Save(path); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	doc, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := testModel(t, doc, 120, 40)
	data := mustRead(t, path)
	i := bytes.Index(data, []byte("orders"))
	if i < 0 {
		t.Fatal("fixture has no 'orders' to edit")
	}
	copy(data[i:], "ORDERS") // same size
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil { // same time
		t.Fatal(err)
	}
	send(t, m, keys("c", "ctrl+s")...)
	if m.confirm() == nil || !strings.Contains(m.confirm().question, "changed on disk") {
		t.Fatalf("an edit of the same size and time was overwritten without asking; status %q", m.status)
	}
	send(t, m, keys("n")...)
	if !bytes.Contains(mustRead(t, path), []byte("ORDERS")) {
		t.Fatal("the outside edit was lost")
	}
	// A touch (same content, new time) is not a change.
	m2 := testModel(t, mustOpen(t, path), 120, 40)
	now := time.Now().Add(time.Hour)
	os.Chtimes(path, now, now)
	send(t, m2, keys("c", "ctrl+s")...)
	if m2.confirm() != nil || m2.Doc().Dirty {
		t.Fatalf("a touch asked or did not save: confirm %v status %q", m2.confirm(), m2.status)
	}
}

func mustOpen(t *testing.T, path string) *Doc {
	t.Helper()
	doc, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestRecoveryCopyKeepsPermissions: the recovery copy of a 0600 design is 0600 too,
// not 0644 (it holds the same data as the design).
func TestRecoveryCopyKeepsPermissions(t *testing.T) {
	for _, mode := range []os.FileMode{0o600, 0o640} {
		path := filepath.Join(t.TempDir(), "d.yaml")
		if err := (&designfile.File{Design: fixture()}).Save(path); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		m := testModel(t, mustOpen(t, path), 120, 40)
		send(t, m, keys("c")...)
		run(t, m, m.Doc().recoverCmd())
		st, err := os.Stat(RecoveryPath(path))
		if err != nil || st.Mode().Perm() != mode {
			t.Errorf("recovery copy of a %o design: %v %v, want mode %o", mode, st.Mode(), err, mode)
		}
		send(t, m, keys("c")...)
		run(t, m, m.Doc().recoverCmd()) // the second copy replaces the first, same mode
		if st, err := os.Stat(RecoveryPath(path)); err != nil || st.Mode().Perm() != mode {
			t.Errorf("second recovery copy: %v %v, want %o", st.Mode(), err, mode)
		}
	}
}
