package ui

import (
	"strings"
	"testing"
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
