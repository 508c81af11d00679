package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"stwb/model"
)

func startFixture(t *testing.T, w, h int) *terminal {
	m := New(fixtureDoc(), Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
	tt := startTerminal(t, m, w, h)
	tt.waitFor("capacity per request")
	return tt
}

// The footer fits the mode (issue 25, item 11): in a form it shows the form's keys,
// not "q quit" and "? help", which type into the field there.
func TestFormFooterShowsFormKeys(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		tt := startFixture(t, w, h)
		tt.write("a")
		tt.waitFor("Add an access pattern")
		m := tt.stop()
		foot := lastLine(screen(m))
		if strings.Contains(foot, "quit") || strings.Contains(foot, "? help") || !strings.Contains(foot, "esc") {
			t.Errorf("the footer in a form is %q, want the form's keys alone", foot)
		}
	})
}

// The help does not cut descriptions (issue 25, item 11: at 120 columns every
// column was 32 cells, "edit as YAML in $EDITOR" among those cut).
func TestHelpShowsWholeDescriptions(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		tt := startFixture(t, w, h)
		tt.write("?")
		tt.waitFor("Help: Patterns pane")
		m := tt.stop()
		help := strings.Join(m.helpLines(), "\n")
		for _, g := range m.panes[paneItems].FullHelp() {
			_ = g
		}
		for _, g := range m.panes[panePatterns].FullHelp() {
			for _, b := range g {
				if d := b.Help().Desc; b.Enabled() && !strings.Contains(help, d) {
					t.Errorf("the help cuts %q (%s)", d, b.Help().Key)
				}
			}
		}
	})
}

// Search counts the matches, not the rows, and highlights them (issue 25, item 10).
func TestSearchCountsAndHighlightsMatches(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		tt := startFixture(t, w, h)
		tt.write("/orders\r")
		tt.waitFor("match 1 of 2")
		tt.write("n")
		tt.waitFor("match 2 of 2")
		m := tt.stop()
		if !strings.Contains(m.View(), m.w.st.Match.Render("Orders")) {
			t.Error("the match is not highlighted")
		}
	})
}

// Saving under a missing directory names the directory and offers to create it
// (issue 25, item 13: the error named the atomic writer's temporary file).
func TestSaveOffersToCreateTheDirectory(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		tt := startFixture(t, w, h)
		dir := filepath.Join(t.TempDir(), "new", "designs")
		path := filepath.Join(dir, "shop.yaml")
		tt.write("\x13") // ctrl+s: a sample has no file, so the palette asks
		tt.write(path + "\r")
		tt.waitFor("the directory " + dir[:min(len(dir), 30)])
		tt.write("y")
		tt.waitFor("saved ")
		tt.stop()
		if _, err := os.Stat(path); err != nil {
			t.Errorf("not saved after y: %v", err)
		}
	})
}

// The palette completes with tab (commands, entities, attributes), keeps a history
// that up and down walk, and names a wrong entity (issue 25, item 8).
func TestPaletteCompletesAndRemembers(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		tt := startFixture(t, w, h)
		tt.write(":it\t")
		tt.write("cu\t")
		tt.write("custo\t")
		tt.write("7 na\t")
		tt.write("Zed\r")
		tt.waitFor("added item CUST#7")
		tt.write(":item custmer customerId=8\r")
		tt.waitFor(`there is no entity "custmer"`)
		tt.write("\x1b") // esc closes the palette
		tt.settle()
		tt.write(":\x1b[A") // up: the last command that ran
		m := tt.stop()
		p := m.palette()
		if p == nil || p.in.Value() != "item customer customerId=7 name=Zed" {
			got := ""
			if p != nil {
				got = p.in.Value()
			}
			t.Errorf("up in the palette gives %q, want the item command that ran", got)
		}
		if n := len(m.Doc().D.Items); n != 5 {
			t.Errorf("%d items, want the fixture's 4 and the one added", n)
		}
	})
}

// Layout after a resize (issue 25, item 12): a list scrolled to its end shows the
// patterns above it when the window grows, not blank rows; tables scrolled
// sideways come back to their first columns when they fit.
func TestLayoutAfterGrowing(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		doc := fortyPatterns()
		m := New(doc, Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
		tt := startTerminal(t, m, w, h)
		tt.waitFor("capacity per request")
		tt.write("G")     // the last pattern: the list scrolled to its end
		tt.write("4llll") // the Cost pane, its tables scrolled right
		tt.settle()
		tt.p.Send(tea.WindowSizeMsg{Width: 200, Height: 120})
		tt.settle()
		m = tt.stop()
		scr := screen(m)
		if strings.Contains(scr, "◀") {
			t.Errorf("at 200 columns a table still hides its first columns:\n%s", scr)
		}
		p := m.panes[panePatterns].(*patternsPane)
		if rows := p.listHeight() - 1; p.l.top > len(doc.D.Patterns)-rows {
			t.Errorf("the list shows from row %d with room for %d of %d: blank rows below", p.l.top, rows, len(doc.D.Patterns))
		}
	})
}

// The Items pane after a resize (issue 25, item 12): columns scrolled off to the left
// come back once the grown window fits every column.
func TestItemsColumnsAfterGrowing(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		doc := fixtureDoc()
		for _, n := range []string{"carrier", "channel", "currency", "discount", "giftNote", "warehouse"} {
			doc.D.Items[1][n] = model.Str(n + " value") // more columns than 120 cells show
		}
		m := New(doc, Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
		tt := startTerminal(t, m, w, h)
		tt.waitFor("capacity per request")
		tt.write("2")
		tt.write(strings.Repeat("l", 14)) // the Items pane, its columns scrolled right
		tt.waitFor("◀")
		tt.settle()
		tt.p.Send(tea.WindowSizeMsg{Width: 240, Height: h})
		tt.settle()
		m = tt.stop()
		if scr := screen(m); strings.Contains(scr, "◀") || strings.Contains(scr, "▶") {
			t.Errorf("at 240 columns the grid still hides columns:\n%s", scr)
		}
	})
}

// fortyPatterns is the fixture with patterns 4 to 40 added, copies of the first.
func fortyPatterns() *Doc {
	doc := fixtureDoc()
	for i := 4; i <= 40; i++ {
		p := doc.D.Patterns[0]
		p.ID, p.Name = i, fmt.Sprintf("Profile again %d", i)
		doc.D.Patterns = append(doc.D.Patterns, p)
	}
	return doc
}

// Going to a pattern by its number from the Patterns pane (issue 25, item 9): # then
// the digits and enter, in one burst or key by key; the digits alone still switch
// panes.
func TestGotoPatternByNumber(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		doc := fortyPatterns()
		m := New(doc, Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
		tt := startTerminal(t, m, w, h)
		tt.waitFor("capacity per request")
		tt.write("#27\r") // one burst, as a script or a paste sends it
		tt.waitFor("Profile again 27")
		tt.each("#8")
		tt.p.Send(tea.KeyMsg{Type: tea.KeyEnter})
		tt.settle()
		tt.write("#99\r")
		tt.waitFor("no pattern 99")
		tt.write("?")
		tt.waitFor("go to pattern by number")
		tt.write("\x1b")
		tt.settle()
		m = tt.stop()
		if m.focus != panePatterns {
			t.Errorf("the digits after # switched to pane %d", m.focus+1)
		}
		if got := doc.D.Patterns[m.w.selPattern].ID; got != 8 {
			t.Errorf("selected pattern %d, want 8:\n%s", got, screen(m))
		}
		if scr := screen(m); !strings.Contains(scr, "no pattern 99") {
			t.Errorf("going to a missing pattern says nothing:\n%s", scr)
		}

		// The digits alone still switch panes.
		m = New(fortyPatterns(), Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
		tt = startTerminal(t, m, w, h)
		tt.waitFor("capacity per request")
		tt.write("2")
		tt.settle()
		if m = tt.stop(); m.focus != paneItems {
			t.Errorf("2 went to pane %d, not Items", m.focus+1)
		}
	})
}
