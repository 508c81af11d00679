package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"stwb/analysis"
	"stwb/designfile"
	"stwb/model"
	"stwb/review"
)

// courseYAML is the design issue 13 tripped over: courses indexed by department.
const courseYAML = `version: 1
name: courses
table:
  name: courses
  key: {partition: PK, sort: SK}
  indexes:
    - name: GSI1
      key: {partition: GSI1PK, sort: GSI1SK}
entities:
  - name: student
    keys: {PK: "STUDENT#{studentId}", SK: PROFILE}
    attributes: {studentId: S, email: {type: S, unique: true}}
  - name: course
    keys: {PK: "COURSE#{courseId}", SK: META, GSI1PK: "DEPT#{dept}", GSI1SK: "{courseId}"}
    attributes: {courseId: S, dept: S}
items:
  - {type: student, studentId: s-009, email: ada@example.com}
  - {type: course, courseId: c-1, dept: CS}
`

// openCourses writes courseYAML to a temporary file and opens the workbench on it.
func openCourses(t testing.TB) (*Model, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "courses.yaml")
	if err := os.WriteFile(path, []byte(courseYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return testModel(t, doc, 120, 40), path
}

// itemRow is the Items pane's row of design item i.
func selectDesignItem(t testing.TB, m *Model, i int) {
	t.Helper()
	send(t, m, keys("2")...)
	send(t, m, selectItem{index: i})
	if got := m.panes[paneItems].(*itemsPane).selected(); got != i {
		t.Fatalf("selected item %d, want %d", got, i)
	}
}

// The stale key of issue 13: editing a course's dept moves its GSI1PK with it, since
// the template derives it; the edit saves, and the file loads.
func TestStaleKeyEditFollowsTheTemplate(t *testing.T) {
	m, path := openCourses(t)
	selectDesignItem(t, m, 1)
	send(t, m, keys("enter")...)
	if f := m.form().field("key:GSI1PK"); f == nil || f.input.Value() != "" {
		t.Fatalf("the derived GSI1PK is pre-filled as a literal: %q", f.input.Value())
	}
	send(t, m, keys("tab", "ctrl+u")...)
	send(t, m, typeText(`{courseId: c-1, dept: MATH}`))
	if !strings.Contains(screen(m), "derived: DEPT#MATH") {
		t.Errorf("the form does not show the key the new dept derives:\n%s", screen(m))
	}
	send(t, m, keys("ctrl+s")...)
	if m.form() != nil {
		t.Fatalf("form still open: %s", m.form().err)
	}
	if got := m.Doc().D.Items[1]["GSI1PK"].Str; got != "DEPT#MATH" {
		t.Fatalf("GSI1PK = %q after the dept changed to MATH", got)
	}
	send(t, m, keys("ctrl+s")...)
	if _, err := designfile.Load(path); err != nil {
		t.Fatalf("the saved design does not load: %v", err)
	}
}

// An override that does not match the template is refused at its field with the
// loader's message, and the form stays open (issue 13: PK STUDENT#s-999 for
// studentId s-009); typing the stale GSI1PK back is refused the same way.
func TestNonMatchingOverrideRefused(t *testing.T) {
	for _, c := range []struct {
		item         int
		field, value string
		want         string
	}{
		{0, "key:PK", "STUDENT#s-999", `PK "STUDENT#s-999" does not match the template "STUDENT#{studentId}"`},
		{1, "key:GSI1PK", "DEPT#CS", `GSI1PK "DEPT#CS" does not match the template "DEPT#{dept}"`},
	} {
		m, path := openCourses(t)
		before, _ := os.ReadFile(path)
		selectDesignItem(t, m, c.item)
		send(t, m, keys("enter")...)
		if c.item == 1 {
			send(t, m, keys("tab", "ctrl+u")...)
			send(t, m, typeText(`{courseId: c-1, dept: MATH}`))
		}
		for m.form().fields[m.form().focus].name != c.field {
			send(t, m, keys("tab")...)
		}
		send(t, m, keys("ctrl+u")...)
		send(t, m, typeText(c.value))
		send(t, m, keys("ctrl+s")...)
		if m.form() == nil {
			t.Fatalf("%s %s: the form closed on an override the loader refuses", c.field, c.value)
		}
		if f := m.form().field(c.field); !strings.Contains(f.err, c.want) {
			t.Errorf("%s: error %q, want the loader's %q", c.field, f.err, c.want)
		}
		if !strings.Contains(screen(m), "✗ "+c.want[:20]) {
			t.Errorf("the refusal is not shown at the field:\n%s", screen(m))
		}
		// Whatever way the edit comes (palette, undo), the design never takes it.
		send(t, m, keys("esc", "y", "ctrl+s")...)
		after, _ := os.ReadFile(path)
		if string(after) != string(before) {
			t.Errorf("the file changed")
		}
	}
}

// The root refuses an edit the loader would refuse whatever sends it, and says why.
func TestRefusedEditFromAnywhere(t *testing.T) {
	m, _ := openCourses(t)
	d := m.Doc().D
	bad := d.Items[1].Clone()
	bad["GSI1PK"] = model.Str("DEPT#XX")
	send(t, m, applyEdit{e: itemEdit("bad", opSet, 1, d.Items[1], bad)})
	if m.Doc().D.Items[1]["GSI1PK"].Str != "DEPT#CS" || !m.statusErr || !strings.Contains(m.status, "does not match the template") {
		t.Fatalf("the edit went in, or the refusal is not said: %q", m.status)
	}
	if m.Doc().Dirty {
		t.Error("a refused edit marked the design unsaved")
	}
}

// ctrl+s reads back what it is about to write: a design the loader refuses is not
// written, and the file keeps its bytes.
func TestSaveRefusesADesignTheLoaderRefuses(t *testing.T) {
	m, path := openCourses(t)
	before, _ := os.ReadFile(path)
	// Put a second item with the first one's key in behind the edits' back, as a
	// bug elsewhere might: DynamoDB keeps one item per key, so the loader refuses it.
	items := append([]model.Item(nil), m.Doc().D.Items...)
	items = append(items, items[0].Clone())
	m.Doc().D.Items = items
	m.Doc().Dirty = true
	send(t, m, keys("ctrl+s")...)
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("a design the loader refuses was written")
	}
	if !m.statusErr || !strings.Contains(m.status, "not written") {
		t.Errorf("status %q", m.status)
	}
}

// :export onto the open design's own file is refused, whatever the format; the file
// keeps its bytes and the design is still unsaved where it was.
func TestExportOntoTheDesignRefused(t *testing.T) {
	for _, cmd := range []string{"export cloudformation ", "export ", "export markdown "} {
		m, path := openCourses(t)
		before, _ := os.ReadFile(path)
		send(t, m, keys(":")...)
		send(t, m, typeText(cmd+path))
		send(t, m, keys("enter")...)
		if after, _ := os.ReadFile(path); string(after) != string(before) {
			t.Fatalf("%q overwrote the design file", cmd)
		}
		if m.palette() == nil || !strings.Contains(m.palette().err, "is the open design") {
			t.Errorf("%q: no refusal in the palette (%v)", cmd, m.palette())
		}
	}
}

// :save and :export onto a file that exists ask first; n keeps it, y replaces it.
func TestWritesOntoAnExistingFileAsk(t *testing.T) {
	for _, cmd := range []string{"save ", "export ", "export markdown "} {
		m, _ := openCourses(t)
		other := filepath.Join(t.TempDir(), "other.yaml")
		if strings.Contains(cmd, "markdown") {
			other = filepath.Join(t.TempDir(), "other.md")
		}
		const theirs = "version: 1\nname: someone-elses\n"
		if err := os.WriteFile(other, []byte(theirs), 0o644); err != nil {
			t.Fatal(err)
		}
		send(t, m, keys(":")...)
		send(t, m, typeText(cmd+other))
		send(t, m, keys("enter")...)
		if m.confirm() == nil || !strings.Contains(m.confirm().question, "exists. Replace it") {
			t.Fatalf("%q onto an existing file did not ask", cmd)
		}
		send(t, m, keys("n")...)
		if b, _ := os.ReadFile(other); string(b) != theirs {
			t.Fatalf("%q replaced the file after no", cmd)
		}
		send(t, m, keys(":")...)
		send(t, m, typeText(cmd+other))
		send(t, m, keys("enter", "y")...)
		b, _ := os.ReadFile(other)
		if string(b) == theirs {
			t.Fatalf("%q did not replace the file after yes; status %q", cmd, m.status)
		}
		if cmd != "export markdown " {
			if _, err := designfile.Load(other); err != nil {
				t.Errorf("%q wrote a design that does not load: %v", cmd, err)
			}
		}
		// No temporary file is left beside it (the write is a rename).
		ents, _ := os.ReadDir(filepath.Dir(other))
		if len(ents) != 1 {
			t.Errorf("%q left files beside the target: %v", cmd, ents)
		}
	}
}

// :save refuses a name that is not a design file's (it would write YAML into it).
func TestSaveRefusesAnotherFormat(t *testing.T) {
	m, _ := openCourses(t)
	out := filepath.Join(t.TempDir(), "stack.json")
	send(t, m, keys(":")...)
	send(t, m, typeText("save "+out))
	send(t, m, keys("enter")...)
	if _, err := os.Stat(out); err == nil || m.palette() == nil || !strings.Contains(m.palette().err, "export FORMAT FILE") {
		t.Fatalf("save wrote %s, or said nothing", out)
	}
}

// esc on a form with changes asks; n goes back to the form with the changes, y
// drops them. esc on an unchanged form closes it at once.
func TestEscOnAChangedFormAsks(t *testing.T) {
	m, _ := openCourses(t)
	selectDesignItem(t, m, 0)
	send(t, m, keys("enter", "esc")...)
	if m.form() != nil || m.confirm() != nil {
		t.Fatal("esc on an unchanged form did not just close it")
	}
	send(t, m, keys("enter", "tab", "ctrl+u")...)
	send(t, m, typeText(`{studentId: s-010}`))
	send(t, m, keys("esc")...)
	if m.form() == nil || m.confirm() == nil || !strings.Contains(m.confirm().question, "Discard the changes") {
		t.Fatal("esc on a changed form did not ask")
	}
	send(t, m, keys("n")...)
	if m.form() == nil || m.form().field("attributes").input.Value() != `{studentId: s-010}` {
		t.Fatal("n did not go back to the form with its changes")
	}
	send(t, m, keys("esc", "y")...)
	if m.form() != nil || m.Doc().Dirty {
		t.Fatal("y did not drop the form")
	}
}

// Add item pre-fills the entity of the row under the cursor; typing replaces it.
func TestAddItemSuggestionIsReplaced(t *testing.T) {
	m, _ := openCourses(t)
	selectDesignItem(t, m, 0)
	send(t, m, keys("a")...)
	if v := m.form().field("type").input.Value(); v != "student" {
		t.Fatalf("type pre-filled %q", v)
	}
	send(t, m, keys("course")...)
	if v := m.form().field("type").input.Value(); v != "course" {
		t.Errorf("typing over the suggestion gave %q, want course", v)
	}
}

// An empty design takes its first entity: the Entities heading is a row, a on it
// opens the entity form, and the key templates show the key they build.
func TestFirstEntityInAnEmptyDesign(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.yaml")
	doc, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := testModel(t, doc, 120, 40)
	send(t, m, keys("3", "j", "a")...)
	if m.form() == nil || m.form().title != "Add an entity" {
		t.Fatalf("a on the Entities row did not open the entity form:\n%s", screen(m))
	}
	send(t, m, typeText("student"))
	send(t, m, keys("tab")...)
	send(t, m, typeText(`{PK: "STUDENT#{studentId}", SK: PROFILE}`))
	if !strings.Contains(screen(m), "example with stand-ins: PK=STUDENT#<studentId> SK=PROFILE") {
		t.Errorf("no live example of the key:\n%s", screen(m))
	}
	send(t, m, keys("tab")...)
	send(t, m, typeText(`{studentId: S, email: {type: S, unique: true}}`))
	send(t, m, keys("ctrl+s")...)
	d := m.Doc().D
	if !strings.Contains(screen(m), "email:S (unique)") {
		t.Errorf("the Table pane does not show the unique attribute:\n%s", screen(m))
	}
	if len(d.Entities) != 1 || d.Entities[0].Keys["PK"] != "STUDENT#{studentId}" || !d.Entities[0].Attributes[0].Unique {
		t.Fatalf("entity not added as typed: %+v; status %q", d.Entities, m.status)
	}
	send(t, m, keys("ctrl+s")...)
	if _, err := designfile.Load(path); err != nil {
		t.Fatalf("saved design does not load: %v", err)
	}
}

// The fast check of an item edit (the item alone, its key in the grid) refuses
// exactly what the whole-design check refuses, in the loader's words.
func TestScopedCheckAgreesWithValidate(t *testing.T) {
	m, _ := openCourses(t)
	d := m.Doc().D
	set := func(i int, kv ...any) model.Item {
		it := d.Items[i].Clone()
		for j := 0; j+1 < len(kv); j += 2 {
			it[kv[j].(string)] = kv[j+1].(model.Value)
		}
		return it
	}
	big := strings.Repeat("x", 400*1024)
	for name, e := range map[string]edit{
		"a valid change":          itemEdit("", opSet, 1, d.Items[1], set(1, "title", model.Str("Compilers"))),
		"a stale derived key":     itemEdit("", opSet, 1, d.Items[1], set(1, "dept", model.Str("MATH"))),
		"a duplicate key":         itemEdit("", opInsert, 2, nil, d.Items[0].Clone()),
		"a key of the wrong type": itemEdit("", opSet, 0, d.Items[0], set(0, "SK", model.Num("1"))),
		"an item over 400 KB":     itemEdit("", opSet, 0, d.Items[0], set(0, "bio", model.Str(big))),
		"a new valid item":        itemEdit("", opInsert, 2, nil, model.Item{"type": model.Str("student"), "studentId": model.Str("s-10"), "email": model.Str("x@y"), "PK": model.Str("STUDENT#s-10"), "SK": model.Str("PROFILE")}),
		"a removal":               itemEdit("", opDelete, 0, d.Items[0], nil),
	} {
		fast, ok := m.w.scopedProblems(e.scoped, e.puts)
		if !ok {
			t.Fatalf("%s: no fast check (grid not built?)", name)
		}
		whole := m.Doc().refusal(e)
		if (len(fast) > 0) != (len(whole) > 0) {
			t.Errorf("%s: fast check %q, whole design %q", name, fast, whole)
		}
		if len(whole) > 0 && len(fast) > 0 && !strings.Contains(whole[0], fast[0][:min(30, len(fast[0]))]) {
			t.Errorf("%s: fast check says %q, the loader %q", name, fast[0], whole[0])
		}
	}
}

// A design whose file holds what DynamoDB would refuse of a request, a table or an
// item (a key its template does not build, an item over 400 KB, 21 GSIs) opens in
// the workbench, saves after an edit, and the saved file opens again with the same
// findings: a file stwb writes, stwb opens (issue 14).
func TestDesignWithFindingsSavesAndReopens(t *testing.T) {
	src := coursesWith(21, "  - {type: course, courseId: c-2, dept: CS, GSI1PK: DEPT#XX}\n"+
		"  - {type: student, studentId: s-010, email: big@example.com, blob: "+strings.Repeat("x", 410_000)+"}\n", "")
	path := filepath.Join(t.TempDir(), "findings.yaml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := OpenFile(path)
	if err != nil {
		t.Fatalf("the workbench refuses the design: %v", err)
	}
	m := testModel(t, doc, 120, 40)
	selectDesignItem(t, m, 0)
	send(t, m, keys("enter")...)
	send(t, m, keys("tab", "ctrl+u")...)
	send(t, m, typeText(`{studentId: s-009, email: ada.okafor@example.com}`))
	send(t, m, keys("ctrl+s")...)
	if m.form() != nil {
		t.Fatalf("the edit was refused: %s", m.form().field("attributes").err)
	}
	send(t, m, keys("ctrl+s")...)
	if m.statusErr || m.Doc().Dirty {
		t.Fatalf("not saved: %q", m.status)
	}
	saved, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(saved), "ada.okafor@example.com") || !strings.Contains(string(saved), "DEPT#XX") {
		t.Fatalf("the save did not write the edit and keep the mismatched key: %v", err)
	}
	f, err := designfile.Load(path)
	if err != nil {
		t.Fatalf("the saved design does not open: %v", err)
	}
	a, err := analysis.Run(f.Design, analysis.Options{Review: true, ItemPos: f.ItemPos})
	if err != nil {
		t.Fatal(err)
	}
	for _, rule := range []string{"template-mismatch", "item-too-large", "too-many-indexes"} {
		if !slices.ContainsFunc(a.Findings, func(f review.Finding) bool { return f.Rule == rule }) {
			t.Errorf("the reopened design has no %s finding", rule)
		}
	}
}

// Each design the loader once refused for what DynamoDB refuses only at request or
// CreateTable time opens in the workbench at 120x40 and 80x24: Review lists the
// finding, and a refused pattern's preview in Patterns shows DynamoDB's error.
func TestWorkbenchOpensDesignsWithRefusals(t *testing.T) {
	var actions strings.Builder
	for i := range 101 {
		fmt.Fprintf(&actions, "      - {put: {PK: \"STUDENT#x%d\", SK: PROFILE}}\n", i)
	}
	query := "patterns:\n  - {id: 1, name: by dept, operation: Query, index: GSI1, key: \"GSI1PK = :d\", values: {\":d\": DEPT#CS}}\n"
	cases := []struct {
		name          string
		gsis          int
		items         string
		patterns      string
		rule, preview string
		cost          string // on the Cost pane, when set
	}{
		{name: "21 GSIs", gsis: 20, rule: "too-many-indexes"},
		{name: "item over 400 KB", items: "  - {type: student, studentId: s-010, blob: " + strings.Repeat("x", 410_000) + "}\n", rule: "item-too-large",
			cost: "d.yaml:19:5: item 2 is over 400 KB: DynamoDB would refuse to store it, so the storage and every pattern leave it out"},
		{name: "key off its template", items: "  - {type: course, courseId: c-2, dept: CS, GSI1PK: DEPT#XX}\n", rule: "template-mismatch"},
		{name: "101 actions", patterns: query + "  - id: 2\n    operation: TransactWriteItems\n    actions:\n" + actions.String(),
			rule: "transaction-too-large", preview: "✗ DynamoDB refuses this request: ValidationException: 1 validation error detected"},
		{name: "consistent GSI read", patterns: query + "  - {id: 2, name: consistent, operation: Query, index: GSI1, key: \"GSI1PK = :d\", values: {\":d\": DEPT#CS}, consistent: true}\n",
			rule: "consistent-read-on-gsi", preview: "✗ DynamoDB refuses this request: ValidationException: Consistent reads are not supported"},
	}
	for _, c := range cases {
		src := coursesWith(c.gsis, c.items, c.patterns)
		path := filepath.Join(t.TempDir(), "d.yaml")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, size := range [][2]int{{120, 40}, {80, 24}} {
			doc, err := OpenFile(path)
			if err != nil {
				t.Fatalf("%s: the workbench refuses the design: %v", c.name, err)
			}
			m := testModel(t, doc, size[0], size[1])
			if c.preview != "" {
				send(t, m, keys("1")...)
				send(t, m, selectPattern{index: 1})
				want := c.preview
				if size[0] == 80 {
					want = want[:60] // the line is cut at the pane's width
				}
				if scr := screen(m); !strings.Contains(scr, want) {
					t.Errorf("%s at %dx%d: pattern 2's preview does not show %q:\n%s", c.name, size[0], size[1], want, scr)
				}
			}
			send(t, m, keys("5")...)
			if scr := screen(m); !strings.Contains(scr, "["+c.rule+"]") {
				t.Errorf("%s at %dx%d: Review does not list %s:\n%s", c.name, size[0], size[1], c.rule, scr)
			}
			if c.cost != "" {
				// As `stwb cost` names it, wrapped at the pane's width, on the first screen.
				send(t, m, keys("4")...)
				scr := screen(m)
				if flat := strings.Join(strings.Fields(scr), " "); !strings.Contains(flat, c.cost) {
					t.Errorf("%s at %dx%d: the Cost pane does not say %q:\n%s", c.name, size[0], size[1], c.cost, scr)
				}
			}
		}
	}
}

// A pattern or an index that came from the file as DynamoDB would refuse it (a
// consistent read on a GSI; a table over 20 GSIs) stays editable: its form saves an
// edit of another field, and the finding stays in Review. Adding one more GSI to
// such a table is still refused in the form.
func TestRefusedPartsStayEditable(t *testing.T) {
	src := coursesWith(20, "", "patterns:\n  - {id: 1, name: consistent, operation: Query, index: GSI1, key: \"GSI1PK = :d\", values: {\":d\": DEPT#CS}, consistent: true}\n")
	path := filepath.Join(t.TempDir(), "d.yaml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := testModel(t, doc, 120, 40)
	send(t, m, keys("1")...)
	send(t, m, selectPattern{index: 0})
	send(t, m, keys("enter")...)
	for i := 0; m.form().fields[m.form().focus].name != "name"; i++ {
		if i > 40 {
			t.Fatal("the pattern form has no name field")
		}
		send(t, m, keys("tab")...)
	}
	send(t, m, keys("ctrl+u")...)
	send(t, m, typeText("renamed"))
	send(t, m, keys("ctrl+s")...)
	if m.form() != nil || m.Doc().D.Patterns[0].Name != "renamed" {
		t.Fatalf("the pattern's edit was refused: %v", m.form().fields)
	}

	send(t, m, keys("3")...)
	send(t, m, selectIndex{name: "GSI5"})
	send(t, m, keys("enter")...)
	if m.form() == nil {
		t.Fatal("no index form")
	}
	for i := 0; m.form().fields[m.form().focus].name != "name"; i++ {
		if i > 40 {
			t.Fatal("the index form has no name field")
		}
		send(t, m, keys("tab")...)
	}
	send(t, m, keys("ctrl+u")...)
	send(t, m, typeText("GSI5b"))
	send(t, m, keys("ctrl+s")...)
	if m.form() != nil || m.Doc().D.Table.Indexes[4].Name != "GSI5b" {
		t.Fatalf("the index's edit was refused: %+v", m.form())
	}
	send(t, m, keys("5")...)
	if scr := screen(m); !strings.Contains(scr, "[too-many-indexes]") || !strings.Contains(scr, "[consistent-read-on-gsi]") {
		t.Errorf("the findings are gone from Review:\n%s", scr)
	}
	if _, _, errs := indexFromForm(m.Doc().D, false, -1, map[string]string{"name": "GSI99", "pk": "G99"}); !strings.Contains(errs["name"], "at most 20 global secondary indexes") {
		t.Errorf("a 22nd GSI is not refused in the form: %v", errs)
	}
}

// coursesWith is courseYAML with GSI2 to GSI<1+gsis> after GSI1, then more items
// and a patterns section, for the designs issue 14's refusals became findings of.
func coursesWith(gsis int, items, patterns string) string {
	var b strings.Builder
	for i := 2; i <= 1+gsis; i++ {
		fmt.Fprintf(&b, "    - {name: GSI%d, key: {partition: G%d}}\n", i, i)
	}
	const gsi1 = "      key: {partition: GSI1PK, sort: GSI1SK}\n"
	return strings.Replace(courseYAML, gsi1, gsi1+b.String(), 1) + items + patterns
}

// The status line after opening counts in words: "1 pattern, 1 item", not
// "1 patterns" (seen in a tmux walk-through).
func TestOpenedStatusCounts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.yaml")
	src := courseYAML + "patterns:\n  - {id: 1, name: by dept, operation: Query, index: GSI1, key: \"GSI1PK = :d\", values: {\":d\": DEPT#CS}}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := doc.openedStatus(), ": 1 pattern, 2 items · "; !strings.Contains(got, want) {
		t.Errorf("status %q, want %q in it", got, want)
	}
}

// :export says what DynamoDB would refuse of the export, as stwb export does
// (interop.Exportable), and writes it: an item over 400 KB is left out of a
// dynamodb-json export, which failed before ("export failed: item 2: Item size has
// exceeded the maximum allowed size").
func TestExportWarnsOfAnItemOverTheLimit(t *testing.T) {
	src := coursesWith(0, "  - {type: student, studentId: s-010, blob: "+strings.Repeat("x", 410_000)+"}\n", "")
	path := filepath.Join(t.TempDir(), "d.yaml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := testModel(t, doc, 120, 40)
	out := filepath.Join(t.TempDir(), "items.json")
	send(t, m, keys(":")...)
	send(t, m, typeText("export dynamodb-json "+out))
	send(t, m, keys("enter")...)
	if m.statusErr || !strings.Contains(m.status, "warning: "+path+":19:5: item 2 is 410,05") || !strings.Contains(m.status, "it is left out of the export") {
		t.Fatalf("status %q", m.status)
	}
	b, err := os.ReadFile(filepath.Join(filepath.Dir(out), "courses-001.json"))
	if err != nil || strings.Contains(string(b), "s-010") || !strings.Contains(string(b), "s-009") {
		t.Errorf("the export does not hold just the stored items (%v):\n%.300s", err, b)
	}
}
