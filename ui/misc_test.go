package ui

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"stwb/designfile"
	"stwb/model"
	"stwb/samples"
)

// → in the Items pane stops once the last column shows, and ← at the first: past
// the last, → used to go on scrolling, the grid lost its columns one by one and ←
// seemed dead for as many presses (issue 25).
func TestItemsScrollStopsAtTheEdges(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		tt := startFixture(t, w, h)
		tt.write("2")
		tt.write(strings.Repeat("l", 10)) // a burst
		// write goes through the terminal's input and each straight to the program:
		// let the burst be read first, so that the keys below come after it.
		tt.settle()
		tt.each(strings.Repeat("l", 10)) // key by key
		tt.settle()
		m := tt.stop()
		p := m.panes[paneItems].(*itemsPane)
		g, d, _ := p.shownGrid()
		scr := screen(m)
		last := g.Columns[len(g.Columns)-1]
		if !strings.Contains(lineWith(scr, "bytes"), last) || strings.Contains(scr, "▶") {
			t.Fatalf("after 20 → the last column %s is not shown, or ▶ says more are right:\n%s", last, scr)
		}
		if p.col != len(g.Columns)-1 {
			t.Errorf("after 20 → the column cursor is on column %d of %d", p.col+1, len(g.Columns))
		}
		if p.left > 0 {
			o := p.gridOptions()
			o.Left = p.left - 1
			if _, to := g.Shown(d, o); to == len(g.Columns) {
				t.Errorf("→ went on past the last column: left %d, and at %d every column to the last already showed:\n%s", p.left, p.left-1, scr)
			}
		}

		tt = startTerminal(t, m, w, h)
		tt.write("2")
		tt.write(strings.Repeat("h", 30))
		tt.settle()
		m = tt.stop()
		if p := m.panes[paneItems].(*itemsPane); p.left != 0 || p.col != 0 || strings.Contains(screen(m), "◀") {
			t.Errorf("after 30 ← the grid is not at its first column (left %d, cursor %d):\n%s", p.left, p.col, screen(m))
		}
	})
}

// A status a key sets is in the status line before the next key is handled: as a
// command's message it arrived after the keys that followed and overwrote what
// they said (issue 25). f says which entity the Items pane shows; the search
// typed right after it says it found nothing, and that is what must stay.
func TestStatusBeforeTheNextKey(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		for _, how := range []string{"burst", "key by key"} {
			tt := startFixture(t, w, h)
			tt.write("2")
			tt.settle()
			if how == "burst" {
				tt.write("f/zzz\r")
			} else {
				tt.each("f/zzz")
				tt.p.Send(tea.KeyMsg{Type: tea.KeyEnter})
			}
			m := tt.stop()
			if !strings.Contains(m.status, "/zzz: no match") {
				t.Errorf("%s: the status is %q, not the search's answer", how, m.status)
			}
			if p := m.panes[paneItems].(*itemsPane); p.facet != 0 {
				t.Errorf("%s: f did not show the first entity alone (facet %d)", how, p.facet)
			}
		}
	})
}

// A search's matches are highlighted over the line's own styles (issue 25: a line
// with a match was drawn from its plain text and lost its colours): in colour and
// under NO_COLOR, every escape sequence of the line is still there, the text is the
// same, and the match is drawn with the Match style.
func TestSearchHighlightKeepsTheLineStyles(t *testing.T) {
	defer lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetColorProfile(termenv.TrueColor)
	for _, noColor := range []bool{false, true} {
		if noColor {
			t.Setenv("NO_COLOR", "1")
		}
		forSizes(t, func(t *testing.T, w, h int) {
			for _, c := range []struct{ keys, query string }{{"/orders\r", "orders"}, {"2/cust#2\r", "cust#2"}, {"5/index\r", "index"}} {
				m := New(fixtureDoc(), Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
				tt := startTerminal(t, m, w, h)
				tt.waitFor("capacity per request")
				tt.write(c.keys)
				tt.waitFor("/" + c.query + ": match 1 of")
				m = tt.stop()
				lit := m.View()
				m.highlight = false
				plain := m.View()
				litLines, plainLines := strings.Split(lit, "\n"), strings.Split(plain, "\n")
				if len(litLines) != len(plainLines) {
					t.Fatalf("%s: %d lines highlighted, %d not", c.keys, len(litLines), len(plainLines))
				}
				on := m.w.st.Match.Render("x")
				on = on[:strings.Index(on, "x")]
				matched := 0
				for i, pl := range plainLines {
					ll := litLines[i]
					if ansi.Strip(ll) != ansi.Strip(pl) {
						t.Fatalf("%s: line %d's text changed:\n%q\n%q", c.keys, i, ansi.Strip(pl), ansi.Strip(ll))
					}
					if !strings.Contains(strings.ToLower(ansi.Strip(pl)), c.query) || i < 2 || i >= len(plainLines)-2 {
						continue
					}
					matched++
					if !strings.Contains(ll, on) {
						t.Errorf("%s: line %d's match is not highlighted: %q", c.keys, i, ll)
					}
					for _, seq := range sgrSequences(pl) {
						if !strings.Contains(ll, seq) {
							t.Errorf("%s: line %d lost %q while highlighted:\n%q\n%q", c.keys, i, seq, pl, ll)
						}
					}
				}
				if matched == 0 {
					t.Errorf("%s: no line shows a match:\n%s\n%q", c.keys, ansi.Strip(lit), lit)
				}
			}
		})
	}
}

// sgrSequences are the escape sequences that set styles in s.
func sgrSequences(s string) []string { return sgrRE.FindAllString(s, -1) }

var sgrRE = regexp.MustCompile("\x1b\\[[0-9;]*m")

// The selection bar runs the whole row, over cells that have colours of their own,
// and a row the selected pattern returns is drawn without cutting the cells' own
// escape sequences into text: lipgloss ended the bar at the first coloured cell's
// reset, and under NO_COLOR drew the returned row's underline rune by rune, which
// showed "[1m" in the row.
func TestSelectionBarRunsTheRow(t *testing.T) {
	defer lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetColorProfile(termenv.TrueColor)
	for _, noColor := range []bool{false, true} {
		if noColor {
			t.Setenv("NO_COLOR", "1")
		}
		forSizes(t, func(t *testing.T, w, h int) {
			m := New(fixtureDoc(), Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
			tt := startTerminal(t, m, w, h)
			tt.waitFor("capacity per request")
			on := m.w.st.Render.Selected.Render("x")
			on = on[:strings.Index(on, "x")]
			for _, pane := range []string{"1", "2", "3j", "5"} {
				tt.write(pane)
				tt.settle()
				m := tt.stop()
				view := m.View()
				if strings.Contains(ansi.Strip(view), "[1m") || strings.Contains(ansi.Strip(view), "[0m") {
					t.Errorf("pane %s: escape sequences drawn as text:\n%s", pane, ansi.Strip(view))
				}
				for _, l := range strings.Split(view, "\n") {
					if !strings.HasPrefix(ansi.Strip(l), "> ") {
						continue
					}
					resets := strings.Count(l, "\x1b[0m")
					if again := strings.Count(l, "\x1b[0m"+on); again < resets-1 {
						t.Errorf("pane %s: the selection bar ends at a cell's reset (%d of %d set again):\n%q", pane, again, resets-1, l)
					}
				}
				tt = startTerminal(t, m, w, h)
			}
		})
	}
}

// withWrites is the fixture with two patterns that write customers: a PutItem and a
// transaction's put, their keys built from the customer template as the loader
// builds them.
func withWrites() *Doc {
	doc := fixtureDoc()
	s := model.Str
	cust := func(id, name string) model.Item {
		return model.Item{"type": s("customer"), "PK": s("CUST#" + id), "SK": s("PROFILE"), "customerId": s(id), "name": s(name)}
	}
	doc.D.Patterns = append(doc.D.Patterns,
		model.Pattern{ID: 4, Name: "Sign up", Operation: model.OpPutItem, Item: cust("9", "Zed"), Condition: "attribute_not_exists(PK)"},
		model.Pattern{ID: 5, Name: "Sign up in a transaction", Operation: model.OpTransactWriteItems,
			Actions: []model.Action{{Kind: model.ActionPut, Item: cust("8", "Yun")}}})
	return doc
}

// A template edited in the workbench rebuilds the keys of the items the patterns
// write, as it does the Items pane's (issue 25, item 6): the pattern writes the new
// key, not the old one with a template-mismatch finding; undo takes both back.
func TestTemplateEditRebuildsPatternItems(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		m := New(withWrites(), Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
		tt := startTerminal(t, m, w, h)
		tt.waitFor("capacity per request")
		tt.write("3jjj\r") // the Table pane, the customer entity, its form
		tt.waitFor("Edit entity customer")
		tt.write("\t\x15") // the key templates, cleared (ctrl+u)
		tt.write(`{PK: "CUSTOMER#{customerId}", SK: PROFILE}`)
		tt.write("\x13") // ctrl+s applies
		tt.waitFor("edited entity customer and the keys of its items")
		m = tt.stop()
		d := m.Doc().D
		if got := d.Patterns[3].Item["PK"].Str; got != "CUSTOMER#9" {
			t.Errorf("the PutItem writes PK %q, want CUSTOMER#9", got)
		}
		if got := d.Patterns[4].Actions[0].Item["PK"].Str; got != "CUSTOMER#8" {
			t.Errorf("the transaction's put writes PK %q, want CUSTOMER#8", got)
		}
		if got := d.Items[0]["PK"].Str; got != "CUSTOMER#1" {
			t.Errorf("the item's PK is %q, want CUSTOMER#1", got)
		}
		for _, f := range m.w.allFindings() {
			if f.Rule == "template-mismatch" {
				t.Errorf("after the template edit: %s", f.Message)
			}
		}
		tt = startTerminal(t, m, w, h)
		tt.write("\x1a") // ctrl+z
		tt.waitFor("undid")
		m = tt.stop()
		d = m.Doc().D
		if d.Patterns[3].Item["PK"].Str != "CUST#9" || d.Patterns[4].Actions[0].Item["PK"].Str != "CUST#8" || d.Entities[0].Keys["PK"] != "CUST#{customerId}" {
			t.Errorf("undo did not take the pattern items back: %v %v", d.Patterns[3].Item, d.Patterns[4].Actions[0].Item)
		}
	})
}

// Opening a sample and saving it without edits writes the sample as it is, every
// sample (issue 25: the first save rewrote the patterns' puts without the keys the
// sample wrote, a diff the user did not make).
func TestSampleSavedUnchanged(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		for _, name := range samples.Names() {
			doc, err := OpenSample(name)
			if err != nil {
				t.Fatal(err)
			}
			m := New(doc, Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
			tt := startTerminal(t, m, w, h)
			tt.waitFor("ctrl+s asks where to save it")
			path := filepath.Join(t.TempDir(), name+".yaml")
			tt.write("\x13") // ctrl+s: a sample has no file, so the palette asks
			tt.write(path + "\r")
			tt.waitFor("saved " + path[:min(len(path), 20)])
			tt.stop()
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("..", "samples", name+".yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				a, b := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
				for i := range min(len(a), len(b)) {
					if a[i] != b[i] {
						t.Errorf("%s saved without edits changes line %d:\n  was %s\n  now %s", name, i+1, a[i], b[i])
						break
					}
				}
			}
		}
	})
}

// The table's TTL attribute and an entity's expires (issue 21's ttl and expires)
// have fields in the table and entity forms and show in the Table pane; an entity
// that expires items needs the TTL, as the loader says; editing an entity keeps
// what its form does not show (its template variables' values).
func TestTTLInTheForms(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		doc := fixtureDoc()
		doc.D.Entities[0].Values = map[string]model.VarValues{"customerId": {N: 1000}}
		m := New(doc, Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
		tt := startTerminal(t, m, w, h)
		tt.waitFor("capacity per request")
		tt.write("3\r") // the Table pane, the table's form
		tt.waitFor("Edit the table")
		tt.write(strings.Repeat("\t", 9) + "expiresAt\x13") // the ttl field, then ctrl+s
		tt.waitFor("TTL expiresAt")
		tt.write("jjj\r") // the customer entity's form
		tt.waitFor("Edit entity customer")
		tt.write("\t\t\t\t12.5\x13") // expires
		tt.waitFor("12.5 a second expire by TTL")
		tt.write("kkk\r") // the table's form again: clearing the TTL is refused
		tt.waitFor("Edit the table")
		tt.write(strings.Repeat("\t", 9) + "\x15\x13")
		tt.waitFor("has no ttl")
		m = tt.stop()
		d := m.Doc().D
		if d.Table.TTL != "expiresAt" {
			t.Errorf("the table's TTL is %q after the refused edit, want expiresAt", d.Table.TTL)
		}
		if e := d.Entities[0]; e.Expires != 12.5 || e.Values["customerId"].N != 1000 {
			t.Errorf("the customer entity after its form: expires %v, values %v", e.Expires, e.Values)
		}
	})
}

// loopingEdit is a message that queues itself for ever: an edit that changes
// nothing, whose after queues it again. No real message does that; this one stands
// for the bug settle's limit is there for.
func loopingEdit(m *Model) applyEdit {
	var msg applyEdit
	msg = applyEdit{e: edit{label: "nothing", apply: func(*model.Design) {}, revert: func(*model.Design) {}},
		after: func() tea.Cmd { return m.w.now(msg) }}
	return msg
}

// settle's limit fails loudly in a test (no CrashDir): the panic names it, and the
// queue is dropped so that the next message does not run the loop again.
func TestSettleLimitFailsLoudlyInTests(t *testing.T) {
	m := testModel(t, fixtureDoc(), 80, 24)
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "never settle") {
				t.Errorf("a message that queues itself: recovered %v, want settle's panic", r)
			}
		}()
		m.Update(loopingEdit(m))
	}()
	if len(m.w.posted) != 0 {
		t.Errorf("%d messages left queued after the limit", len(m.w.posted))
	}
}

// In the program (CrashDir set), the same loop never ends the session: the status
// says what happened and where the crash file is, the unsaved changes are copied
// to the recovery copy at once, and the next keys work.
func TestSettleLimitKeepsTheSession(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		dir := t.TempDir()
		path := filepath.Join(dir, "shop.yaml")
		doc, err := OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		crashes := t.TempDir()
		m := New(doc, Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1, CrashDir: crashes})
		tt := startTerminal(t, m, w, h)
		tt.waitFor("new design")
		tt.write(":gsi GSI1 GSI1PK GSI1SK\r") // an unsaved change
		tt.waitFor("added GSI GSI1")
		tt.p.Send(loopingEdit(m))
		tt.waitFor("internal error")
		tt.write("3")
		tt.waitFor("GSI GSI1")
		m = tt.stop()
		if !strings.Contains(m.status, "never settle") || !strings.Contains(m.status, RecoveryPath(path)) {
			t.Errorf("the status after the loop: %q", m.status)
		}
		if files, _ := os.ReadDir(crashes); len(files) != 1 {
			t.Errorf("crash files: %v, want one", files)
		}
		if Recovery(path) == "" {
			t.Fatal("no recovery copy of the unsaved change")
		}
		back, err := designfile.Load(RecoveryPath(path))
		if err != nil || len(back.Design.Table.Indexes) != 1 {
			t.Errorf("the recovery copy does not hold the unsaved GSI: %v", err)
		}
	})
}

// A panic Bubble Tea catches outside Update (here in a command) ends the program;
// the unsaved changes are copied to the recovery copy before Run returns, and its
// error says where.
func TestRecoveryWrittenBeforeACrashExit(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		path := filepath.Join(t.TempDir(), "shop.yaml")
		doc, err := OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m := New(doc, Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1, CrashDir: t.TempDir()})
		tt := startTerminal(t, m, w, h)
		tt.waitFor("new design")
		tt.write(":gsi GSI1 GSI1PK GSI1SK\r")
		tt.waitFor("added GSI GSI1")
		tt.p.Send(applyEdit{e: edit{label: "boom", apply: func(*model.Design) {}, revert: func(*model.Design) {}},
			after: func() tea.Cmd { return func() tea.Msg { panic("boom") } }})
		select {
		case <-tt.done:
		case <-time.After(5 * time.Second):
			t.Fatal("the program did not end on the panic")
		}
		if !errors.Is(tt.err, tea.ErrProgramPanic) || !strings.Contains(fmt.Sprint(tt.err), RecoveryPath(path)) {
			t.Errorf("Run's error: %v", tt.err)
		}
		back, err := designfile.Load(RecoveryPath(path))
		if err != nil || len(back.Design.Table.Indexes) != 1 {
			t.Errorf("the recovery copy does not hold the unsaved GSI: %v", err)
		}
	})
}

// No real message path comes near settle's limit: every key of every pane, form,
// question, palette and overlay, typed at random in bursts and one by one, from an
// empty file and from the fixture, never makes settle panic (in a test it is not
// recovered: the program would end with Bubble Tea's ErrProgramPanic). q, ctrl+c
// (which end it) and e ($EDITOR takes the terminal) are left out; what the keys
// save or export goes to a temporary directory.
func TestNoMessagePathLoops(t *testing.T) {
	t.Chdir(t.TempDir())
	named := []string{"\r", "\x1b", "\t", "\x1b[Z", "\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D", "\x1a", "\x19", "\x0f", "\x05", "\x13", "\x7f", "\x1b[6~", "\x15"}
	const runes = "abcdfghijklmnoprstuvwxyzABKJGNP0123456789/:#?+-[] ={}\"_.,"
	forSizes(t, func(t *testing.T, w, h int) {
		for seed := int64(1); seed <= 3; seed++ {
			r := rand.New(rand.NewSource(seed*100 + int64(w)))
			doc := fixtureDoc()
			if seed == 2 {
				doc, _ = OpenFile("new.yaml")
			}
			m := New(doc, Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
			tt := startTerminal(t, m, w, h)
			ended := false
			for k := 0; k < 150; k++ {
				var b strings.Builder
				burst := r.Intn(2) == 0 // else one message a key
				for n := 1 + r.Intn(8); n > 0; n-- {
					key := string(runes[r.Intn(len(runes))])
					if r.Intn(4) == 0 {
						key = named[r.Intn(len(named))]
					}
					b.WriteString(key)
					if !burst && len(key) == 1 && key[0] >= ' ' {
						tt.each(key)
					} else if !burst {
						ended = ended || !tt.writeUnlessEnded(key)
					}
				}
				if burst {
					ended = ended || !tt.writeUnlessEnded(b.String())
				}
				if ended {
					tt.done <- m // for the select below
				}
				select {
				case <-tt.done:
					if errors.Is(tt.err, tea.ErrProgramPanic) {
						t.Fatalf("seed %d: the program panicked after %q", seed, b.String())
					}
					t.Fatalf("seed %d: the program ended (%v) after %q", seed, tt.err, b.String())
				default:
				}
			}
			tt.stop()
		}
	})
}

// esc on the recovery question does not discard the copy, which holds the user's
// unsaved work: the question stays until y restores it or n discards it, and the
// footer says which is which.
func TestRecoveryQuestionEscKeepsTheCopy(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		path := filepath.Join(t.TempDir(), "d.yaml")
		if err := (&designfile.File{Design: fixture()}).Save(path); err != nil {
			t.Fatal(err)
		}
		if err := (&designfile.File{Design: fixture()}).Save(RecoveryPath(path)); err != nil {
			t.Fatal(err)
		}
		later := time.Now().Add(time.Second)
		os.Chtimes(RecoveryPath(path), later, later)
		doc, err := OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m := New(doc, Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
		tt := startTerminal(t, m, w, h)
		tt.waitFor("Restore it?", "n discard the copy")
		tt.write("\x1b")
		m = tt.stop()
		if m.confirm() == nil {
			t.Error("esc took the question away")
		}
		if Recovery(path) == "" {
			t.Fatal("esc discarded the recovery copy")
		}
		tt = startTerminal(t, m, w, h)
		tt.write("n")
		tt.waitFor("discarded the recovery copy")
		tt.stop()
		if Recovery(path) != "" {
			t.Error("n kept the recovery copy")
		}
	})
}
