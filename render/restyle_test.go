package render

import (
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Over sets its style again after every reset inside the text, so a selection bar
// runs the whole line over cells with colours of their own; HighlightMatches
// highlights the match alone and gives the line its styles back after it.
func TestStylesOverStyledText(t *testing.T) {
	defer lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetColorProfile(termenv.ANSI)
	rev := lipgloss.NewStyle().Reverse(true)
	under := lipgloss.NewStyle().Underline(true)
	const bold, red, reset = "\x1b[1m", "\x1b[31m", "\x1b[0m"
	ul, _ := sgrOf(under)
	for _, c := range []struct {
		name, got, want string
	}{
		{"over plain text", Over(rev, "abc"), "\x1b[7mabc" + reset},
		{"over a reset", Over(rev, "a"+bold+"b"+reset+"c"), "\x1b[7ma" + bold + "b" + reset + "\x1b[7mc" + reset},
		// lipgloss underlines rune by rune, cutting "\x1b[1m" into visible "[1m".
		{"underline over a style", Over(under, bold+"k"+reset+" v"), ul + bold + "k" + reset + ul + " v" + reset},
		{"no match", HighlightMatches(red+"abc"+reset, "x", rev), red + "abc" + reset},
		{"a match in plain text", HighlightMatches("xaby", "AB", rev), "x\x1b[7mab" + reset + "y"},
		// The match inside a coloured cell: the highlight again after the cell's own
		// sequence, the cell's colour again after the highlight.
		{"a match across styles", HighlightMatches(red+"xa"+reset+"by", "ab", rev),
			red + "x\x1b[7ma" + reset + "\x1b[7mb" + reset + "y"},
		{"the colour in force after the match", HighlightMatches(red+"abc"+reset, "b", rev),
			red + "a\x1b[7mb" + reset + red + "c" + reset},
		{"every match, any case", HighlightMatches("aBxab", "ab", rev), "\x1b[7maB" + reset + "x\x1b[7mab" + reset},
		{"lines apart", HighlightMatches("ab\nab", "b", rev), "a\x1b[7mb" + reset + "\na\x1b[7mb" + reset},
	} {
		if c.got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, c.got, c.want)
		}
	}
	lipgloss.SetColorProfile(termenv.Ascii)
	if got := Over(rev, "a"+bold+"b"); got != "a"+bold+"b" {
		t.Errorf("a terminal without attributes gets %q", got)
	}
}
