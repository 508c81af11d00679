package ui

import (
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// Pane goldens: drive Update, compare View() with the colour profile forced to
// Ascii (TestMain). The fixture holds CJK and emoji values (山田太郎 🍣, Ada 🚀), so
// the Items goldens check that columns line up in terminal cells.
func TestPaneGoldens(t *testing.T) {
	cases := []struct {
		name string
		w, h int
		keys []tea.Msg
	}{
		{"patterns_120x40", 120, 40, nil},
		{"patterns_query_filter_120x40", 120, 40, keys("j")},
		{"patterns_80x24", 80, 24, keys("j")},
		{"items_table_120x40", 120, 40, keys("j", "2")},
		{"items_gsi_80x24", 80, 24, keys("2", "v")},
		{"items_scrolled_right_80x24", 80, 24, keys("2", "l", "l", "l", "l", "l", "j")},
		{"table_120x40", 120, 40, keys("3", "j")},
		{"cost_120x40", 120, 40, keys("4")},
		{"review_80x24", 80, 24, keys("5")},
		{"help_80x24", 80, 24, keys("?")},
		{"open_palette_80x24", 80, 24, keys("ctrl+o")},
		{"pattern_form_error_120x40", 120, 40, keys("e", "j", "enter", "tab", "tab", "tab", "tab", "ctrl+u", "PK = :nope")},
		{"item_form_80x24", 80, 24, keys("2", "a", "tab", `{customerId: "3", name: "李小龍 🐉"}`)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := testModel(t, fixtureDoc(), c.w, c.h)
			// "e" is not a binding; it proves unbound keys are ignored.
			send(t, m, c.keys...)
			scr := screen(m)
			lines := strings.Split(scr, "\n")
			if len(lines) != c.h {
				t.Errorf("screen has %d lines, want %d", len(lines), c.h)
			}
			checkGolden(t, c.name, scr)
		})
	}
}

// The preview is in DynamoDB's order with the filtered-out item dimmed and the page
// end marked (Query.html "Filter expressions for Query": the filter is applied after
// the items are read, and they still count as read).
func TestPreviewShowsFilteredAndPageEnd(t *testing.T) {
	m := testModel(t, fixtureDoc(), 120, 40)
	send(t, m, keys("j")...)
	scr := screen(m)
	for _, want := range []string{
		"page 1: Count 1, ScannedCount 2",
		"✗ PK=CUST#1 SK=ORDER#001",
		"(dropped by filter)",
		"end of results · no LastEvaluatedKey",
		"capacity per request: 0.5 RCU",
		"/month on-demand",
		"/month provisioned",
	} {
		if !strings.Contains(scr, want) {
			t.Errorf("preview lacks %q:\n%s", want, scr)
		}
	}
	// Descending (forward: false): ORDER#002 comes before ORDER#001.
	if strings.Index(scr, "SK=ORDER#002") > strings.Index(scr, "SK=ORDER#001") {
		t.Errorf("descending query shows ORDER#001 before ORDER#002:\n%s", scr)
	}
}

// The items the selected pattern returns are marked in the Items pane.
func TestItemsHighlightSelectedPattern(t *testing.T) {
	m := testModel(t, fixtureDoc(), 120, 40)
	send(t, m, keys("j", "2")...) // pattern 2 returns ORDER#002 (total 99 > 50)
	scr := screen(m)
	l := lineWith(scr, "ORDER#002")
	if !strings.HasPrefix(l, " *") && !strings.HasPrefix(l, ">*") {
		t.Errorf("returned item not marked: %q", l)
	}
	if l := lineWith(scr, "ORDER#001"); strings.Contains(l[:2], "*") {
		t.Errorf("filtered-out item marked as returned: %q", l)
	}
}

// Bindings that do not apply are disabled (key.Binding.SetEnabled), so the footer
// and the help leave them out and the key does nothing.
func TestDisabledBindings(t *testing.T) {
	doc, err := OpenFile(t.TempDir() + "/new.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m := testModel(t, doc, 120, 40)
	foot := lastLine(screen(m))
	if strings.Contains(foot, "delete") || !strings.Contains(foot, "a add") {
		t.Errorf("empty design's Patterns footer: %q", foot)
	}
	if !strings.Contains(screen(m), "No access patterns yet") {
		t.Error("empty design has no hint to add a pattern")
	}
	send(t, m, keys("2")...)
	if foot := lastLine(screen(m)); strings.Contains(foot, "table/index view") || strings.Contains(foot, "duplicate") {
		t.Errorf("empty Items footer offers what does not apply: %q", foot)
	}
	m = testModel(t, fixtureDoc(), 120, 40)
	if foot := lastLine(screen(m)); strings.Contains(foot, "move up") || !strings.Contains(foot, "move down") {
		t.Errorf("first pattern selected: footer %q", foot)
	}
}

func lastLine(s string) string { return s[strings.LastIndex(s, "\n")+1:] }

// Any terminal size, however small, draws without a panic and with no line wider
// than the terminal; the layout follows a live resize.
func TestTinyAndResizedTerminals(t *testing.T) {
	m := testModel(t, fixtureDoc(), 120, 40)
	for _, size := range [][2]int{{1, 1}, {10, 5}, {30, 8}, {80, 24}, {200, 60}} {
		send(t, m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		for _, k := range []string{"1", "2", "v", "3", "4", "5", "?", "esc", "1", "a"} {
			send(t, m, keys(k)...)
			for i, l := range strings.Split(screen(m), "\n") {
				if w := lipgloss.Width(l); w > size[0] {
					t.Fatalf("%dx%d after %q: line %d is %d cells", size[0], size[1], k, i, w)
				}
			}
		}
		send(t, m, keys("esc")...)
	}
}

// TestFollow: a list scrolls only as far as its cursor needs (bubbles' table and
// list keep the cursor in view the same way), in both directions.
func TestFollow(t *testing.T) {
	cases := []struct {
		top, cur, rows, want int
	}{
		{0, 0, 5, 0},   // in view
		{0, 4, 5, 0},   // last visible line
		{0, 5, 5, 1},   // one past: scroll by one
		{0, 20, 5, 16}, // far below: cursor on the last line
		{10, 9, 5, 9},  // one above: scroll up to it
		{10, 0, 5, 0},  // far above: cursor on the first line
		{3, 3, 1, 3},   // one-line window
		{3, 4, 1, 4},
	}
	for _, c := range cases {
		if got := follow(c.top, c.cur, c.rows); got != c.want {
			t.Errorf("follow(top %d, cur %d, rows %d) = %d, want %d", c.top, c.cur, c.rows, got, c.want)
		}
	}
}

// The help scrolls to its last line at 80x24, closes on esc without passing it to
// the pane below, and the footer keeps ? help and q quit at every width.
func TestHelpScrollsAndFooter(t *testing.T) {
	m := testModel(t, fixtureDoc(), 80, 24)
	send(t, m, keys("?", "G")...)
	scr := screen(m)
	if !strings.Contains(scr, "Mouse: the wheel scrolls") || !strings.Contains(scr, "quit (asks when there are unsaved changes)") {
		t.Fatalf("the end of the help is not reachable:\n%s", scr)
	}
	send(t, m, keys("esc")...)
	if m.showHelp() || m.focus != panePatterns || m.Doc().Dirty {
		t.Fatal("esc did not just close the help")
	}
	send(t, m, keys("?", "d")...)
	if !m.showHelp() || m.confirm() != nil {
		t.Fatal("a key in the help reached the pane below")
	}
	for _, w := range []int{40, 60, 80, 120} {
		m := testModel(t, fixtureDoc(), w, 24)
		lines := strings.Split(screen(m), "\n")
		if f := lines[len(lines)-1]; !strings.HasSuffix(strings.TrimRight(f, " "), "? help • q quit") {
			t.Errorf("at width %d the footer is %q", w, f)
		}
	}
}

// View never changes state: after keys that move the selections (so that the
// panes' drawn rows must follow), drawing the Patterns and Items panes leaves them
// as they were; their caches are kept in Update and SetSize, View only reads them.
func TestViewChangesNothing(t *testing.T) {
	m := testModel(t, fixtureDoc(), 120, 40)
	type snap struct {
		pat patternsPane
		it  itemsPane
	}
	take := func() snap {
		s := snap{*m.panes[panePatterns].(*patternsPane), *m.panes[paneItems].(*itemsPane)}
		s.pat.w, s.it.w = nil, nil // the shared world is not the pane's own state
		return s
	}
	for _, ks := range [][]string{{"1", "j"}, {"2", "j", "j"}, {"2", "f"}, {"2", "l"}, {"1", "k"}} {
		send(t, m, keys(ks...)...)
		before := take()
		_ = m.View()
		_ = m.panes[panePatterns].View()
		_ = m.panes[paneItems].View()
		if after := take(); !reflect.DeepEqual(before, after) {
			t.Errorf("after %v, View changed the panes:\nbefore %+v\nafter  %+v", ks, before, after)
		}
	}
}
