package ui

import (
	"regexp"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
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
