package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// → in the Items pane stops once the last column shows, and ← at the first: past
// the last, → used to go on scrolling, the grid lost its columns one by one and ←
// seemed dead for as many presses (issue 25).
func TestItemsScrollStopsAtTheEdges(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		tt := startFixture(t, w, h)
		tt.write("2")
		tt.write(strings.Repeat("l", 10)) // a burst
		tt.each(strings.Repeat("l", 10))  // key by key
		tt.settle()
		m := tt.stop()
		p := m.panes[paneItems].(*itemsPane)
		g, d, _ := p.shownGrid()
		scr := screen(m)
		last := g.Columns[len(g.Columns)-1]
		if !strings.Contains(lineWith(scr, "bytes"), last) || strings.Contains(scr, "▶") {
			t.Fatalf("after 20 → the last column %s is not shown, or ▶ says more are right:\n%s", last, scr)
		}
		if p.left > 0 {
			o := p.gridOptions()
			o.Left = p.left - 1
			if !g.MoreRight(d, o) {
				t.Errorf("→ went on past the last column: left %d, and at %d every column to the last already showed:\n%s", p.left, p.left-1, scr)
			}
		}

		tt = startTerminal(t, m, w, h)
		tt.write("2")
		tt.write(strings.Repeat("h", 30))
		tt.settle()
		m = tt.stop()
		if p := m.panes[paneItems].(*itemsPane); p.left != 0 || strings.Contains(screen(m), "◀") {
			t.Errorf("after 30 ← the grid is not at its first column (left %d):\n%s", p.left, screen(m))
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
