package render

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Wrap breaks s into lines of at most w cells, at spaces where it can and inside a
// long word where it must: a mismatch's item is DynamoDB JSON without a space in it,
// and it must still be readable in full on a narrow terminal. Cells are measured as
// lipgloss.Width does, so CJK and emoji take two. A width under 5 leaves s whole
// (there is no room to wrap into).
func Wrap(s string, w int) []string {
	if w <= 4 {
		return []string{s}
	}
	return strings.Split(ansi.Wrap(s, w, ""), "\n")
}
