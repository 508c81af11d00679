package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"stwb/model"
)

// / searches the focused list (patterns, items, table, findings); n and N go to the
// next and previous match, wrapping; a search with no match says so and moves nothing.
func TestSearchEveryList(t *testing.T) {
	m := testModel(t, fixtureDoc(), 120, 40)
	search := func(q string) {
		send(t, m, keys("/")...)
		send(t, m, typeText(q))
		send(t, m, keys("enter")...)
	}
	search("orders")
	if m.w.selPattern != 1 {
		t.Fatalf("/orders selected pattern %d; status %q", m.w.selPattern, m.status)
	}
	send(t, m, keys("n")...)
	if m.w.selPattern != 2 {
		t.Errorf("n went to pattern %d, want 2 (Orders in a status)", m.w.selPattern)
	}
	send(t, m, keys("n")...)
	if m.w.selPattern != 1 {
		t.Errorf("n did not wrap to pattern 1: %d", m.w.selPattern)
	}
	send(t, m, keys("N")...)
	if m.w.selPattern != 2 {
		t.Errorf("N went to %d", m.w.selPattern)
	}
	search("no such thing")
	if m.w.selPattern != 2 || !m.statusErr || !strings.Contains(m.status, "no match") {
		t.Errorf("a search with no match moved to %d or said %q", m.w.selPattern, m.status)
	}

	send(t, m, keys("2")...)
	search("ada")
	if got := m.panes[paneItems].(*itemsPane).selected(); got != 3 {
		t.Errorf("/ada in the Items pane selected item %d, want 3", got)
	}
	send(t, m, keys("3")...)
	search("invoice")
	search("order")
	tp := m.panes[paneTable].(*tablePane)
	if k, i := tp.row(tp.l.cur); k != rowTable {
		// orders-data is the table's name: the first row holding "order".
		t.Errorf("/order in the Table pane is on row kind %d/%d", k, i)
	}
	send(t, m, keys("n")...)
	if k, i := tp.row(tp.l.cur); k != rowEntity || i != 1 {
		t.Errorf("n in the Table pane is on row kind %d/%d, want the order entity", k, i)
	}
}

// The expanded finding: the whole message, fix and source, at 80x24 and 120x40,
// plain and under NO_COLOR, the cursor marked either way.
func TestExpandedFindingGoldens(t *testing.T) {
	for _, noColor := range []bool{false, true} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			name := fmt.Sprintf("finding_open_%dx%d", size[0], size[1])
			if noColor {
				t.Setenv("NO_COLOR", "1")
				name += "_nocolor"
			}
			path := filepath.Join(t.TempDir(), "courses.yaml")
			if err := os.WriteFile(path, []byte(courseYAML), 0o644); err != nil {
				t.Fatal(err)
			}
			doc, err := OpenFile(path)
			if err != nil {
				t.Fatal(err)
			}
			doc.Path = "courses.yaml" // the header is the same in every run
			m := testModel(t, doc, size[0], size[1])
			send(t, m, keys("5")...)
			send(t, m, typeText("/uniqueness"))
			send(t, m, keys("enter")...)
			list := screen(m)
			if !strings.Contains(m.status, "/uniqueness: match") {
				t.Fatalf("/ in the Review pane found nothing: %q", m.status)
			}
			send(t, m, keys("enter")...)
			scr := screen(m)
			if !strings.Contains(scr, "fix:") || !strings.Contains(scr, "source:") {
				t.Fatalf("%s: the open finding lacks its fix or source:\n%s\nlist:\n%s", name, scr, list)
			}
			checkGolden(t, name, scr)
		}
	}
}

// The inspector: one item whole (every attribute with type and size, the indexes it
// is in and not in, the patterns that return it), at 80x24 and 120x40, NO_COLOR too.
func TestInspectorGoldens(t *testing.T) {
	for _, noColor := range []bool{false, true} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			name := fmt.Sprintf("inspector_%dx%d", size[0], size[1])
			if noColor {
				t.Setenv("NO_COLOR", "1")
				name += "_nocolor"
			}
			m := testModel(t, fixtureDoc(), size[0], size[1])
			send(t, m, selectItem{index: 1})
			send(t, m, keys("i")...)
			scr := screen(m)
			for _, want := range []string{"Item 1 · order", "total", "N", "GSI1: GSI1PK=STATUS#SHIPPED GSI1SK=001", "pattern 3 Orders in a status (item 1 of 1 returned)"} {
				if !strings.Contains(scr, want) {
					t.Fatalf("%s lacks %q:\n%s", name, want, scr)
				}
			}
			checkGolden(t, name, scr)
			send(t, m, keys("esc")...)
			if strings.Contains(screen(m), "Returned by") {
				t.Fatal("esc did not close the inspector")
			}
		}
	}
}

// The grouped grid (a bracket down each partition), the facet (f: one entity's items
// alone) and a widened column (+), at 80x24 and 120x40, NO_COLOR too.
func TestGroupedGridFacetAndWiden(t *testing.T) {
	for _, noColor := range []bool{false, true} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			name := fmt.Sprintf("grid_grouped_%dx%d", size[0], size[1])
			if noColor {
				t.Setenv("NO_COLOR", "1")
				name += "_nocolor"
			}
			d := fixture()
			long := d.Items[0].Clone()
			long["name"] = model.Str("Tarō Yamada of the very long name that the grid cuts at twenty cells")
			d.Items[0] = long
			m := testModel(t, &Doc{D: d, Sample: "fixture"}, size[0], size[1])
			send(t, m, keys("2")...)
			scr := screen(m)
			if !strings.Contains(scr, "┌CUST#1") || !strings.Contains(scr, "└ ") || !strings.Contains(scr, "[CUST#2") {
				t.Fatalf("%s: partitions not drawn as groups:\n%s", name, scr)
			}
			checkGolden(t, name, scr)
			send(t, m, keys("f")...) // customer only
			scr = screen(m)
			if !strings.Contains(scr, "entity customer only") || strings.Contains(scr, "ORDER#001") || !strings.Contains(scr, "[CUST#1") {
				t.Fatalf("%s: the customer facet:\n%s", name, scr)
			}
			checkGolden(t, name+"_facet", scr)
			ip := m.panes[paneItems].(*itemsPane)
			g, _, _ := ip.shownGrid()
			for ip.col < slices.Index(g.Columns, "name") { // the column cursor to the name column
				send(t, m, keys("l")...)
			}
			send(t, m, keys("+")...)
			if scr := screen(m); !strings.Contains(scr, "of the very long name") {
				t.Errorf("%s: + did not widen the name column:\n%s", name, scr)
			}
			send(t, m, keys("f", "f", "f")...) // order, untyped, every item
			if ip.facet != facetAll {
				t.Errorf("f did not cycle back to every item: %d", ip.facet)
			}
		}
	}
}

// The Cost pane at 80 columns keeps each table's first column and its verdict on
// screen; → scrolls the columns between, ← back. Goldens scrolled, NO_COLOR too.
func TestCostPaneScrollsSideways(t *testing.T) {
	for _, noColor := range []bool{false, true} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			name := fmt.Sprintf("cost_scrolled_%dx%d", size[0], size[1])
			if noColor {
				t.Setenv("NO_COLOR", "1")
				name += "_nocolor"
			}
			m := testModel(t, fixtureDoc(), size[0], size[1])
			send(t, m, keys("4")...)
			for range 12 {
				send(t, m, keys("j")...)
			}
			before := screen(m)
			send(t, m, keys("l", "l")...)
			scr := screen(m)
			if !strings.Contains(scr, "verdict") || !strings.Contains(scr, "read/req") && size[0] == 80 && scr == before {
				t.Fatalf("%s: no verdict column, or nothing scrolled:\n%s", name, scr)
			}
			if size[0] == 80 && !strings.Contains(scr, "◀") {
				t.Errorf("%s: the scrolled table does not say columns are off to the left:\n%s", name, scr)
			}
			checkGolden(t, name, scr)
		}
	}
}

// The overlay stack: the top dialog takes the keys and the mouse and names the
// footer's keys; a question drawn in the status line leaves the dialog below it on
// screen.
func TestOverlayStack(t *testing.T) {
	m := testModel(t, fixtureDoc(), 120, 40)
	send(t, m, keys("1", "enter", "tab")...)
	send(t, m, typeText(" changed"))
	f, ok := m.top().(*formDialog)
	if !ok {
		t.Fatalf("top is %T, want the form", m.top())
	}
	send(t, m, keys("esc")...)
	if _, ok := m.top().(*confirmDialog); !ok || len(m.dialogs) != 2 || m.dialogs[0] != f {
		t.Fatalf("top is %T over %d dialogs, want the question over the form", m.top(), len(m.dialogs))
	}
	scr := screen(m)
	lines := strings.Split(scr, "\n")
	if !strings.Contains(scr, "Edit access pattern 1") || !strings.Contains(lines[len(lines)-2], "Discard the changes") ||
		!strings.Contains(lines[len(lines)-1], "y yes • esc cancel") {
		t.Fatalf("the form, the question and its keys are not all on screen:\n%s", scr)
	}
	// Keys go to the question, not the form below it: typing leaves the form's text.
	field := f.f.fields[f.f.focus].input.Value()
	send(t, m, typeText("zz"))
	if v := f.f.fields[f.f.focus].input.Value(); v != field || m.top() != dialog(m.dialogs[1]) {
		t.Fatalf("typing under the question reached the form: %q (was %q)", v, field)
	}
	// n closes the question; the form below it is the top again and takes the keys.
	send(t, m, keys("n")...)
	if m.top() != dialog(f) || len(m.dialogs) != 1 {
		t.Fatalf("after n the top is %T over %d dialogs, want the same form", m.top(), len(m.dialogs))
	}
	send(t, m, typeText("!"))
	if v := f.f.fields[f.f.focus].input.Value(); v != field+"!" {
		t.Fatalf("the form got %q after the question closed, want %q", v, field+"!")
	}
	send(t, m, keys("esc", "y")...)
	if len(m.dialogs) != 0 {
		t.Fatalf("%d dialogs left open", len(m.dialogs))
	}
	// The wheel scrolls the help, not the pane below (at 80x24 the help scrolls).
	m = testModel(t, fixtureDoc(), 80, 24)
	send(t, m, keys("?")...)
	before := m.w.selPattern
	send(t, m, tea.MouseMsg{Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	if h := topOf[*helpDialog](m); h == nil || h.top == 0 || m.w.selPattern != before {
		t.Errorf("the wheel in the help: help %v, pattern %d (was %d)", h, m.w.selPattern, before)
	}
}
