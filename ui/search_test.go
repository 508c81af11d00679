package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
			if !strings.Contains(m.status, "/uniqueness: row") {
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
