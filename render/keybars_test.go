package render

import (
	"strings"
	"testing"
	"unicode/utf8"

	"stwb/analysis"
	"stwb/designfile"
)

func keyLines(t *testing.T, path string, w int) ([]string, []bool) {
	t.Helper()
	f, err := designfile.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	a, err := analysis.Run(f.Design, analysis.Options{})
	if err != nil || a.Cost == nil {
		t.Fatalf("analysis: %v", err)
	}
	return KeyLoadLines(a.Cost, w, 8)
}

// TestKeyLoadLines: the counter's key at 1,500 WCU draws past the limit's mark
// (150%, over); the same load over 10,000 keys draws a sliver under it. Every
// line fits its width.
func TestKeyLoadLines(t *testing.T) {
	for _, w := range []int{120, 80, 40} {
		lines, over := keyLines(t, "../throttle/testdata/counter.yaml", w)
		if len(lines) != 2 || !over[1] {
			t.Fatalf("width %d: %q over %v", w, lines, over)
		}
		for _, l := range lines {
			if n := utf8.RuneCountInString(l); n > w {
				t.Errorf("width %d: line of %d: %q", w, n, l)
			}
		}
		if w >= 80 && (!strings.Contains(lines[1], "150%") || !strings.Contains(lines[1], "▓") || !strings.Contains(lines[1], "1,500/1,000 WCU")) {
			t.Errorf("width %d: counter line %q: want 150%%, the part past the limit, 1,500/1,000 WCU", w, lines[1])
		}
	}
	lines, over := keyLines(t, "../throttle/testdata/counter-sharded.yaml", 120)
	if len(lines) != 2 || over[1] || strings.Contains(lines[1], "▓") || !strings.Contains(lines[1], "│") {
		t.Errorf("sharded counter: %q over %v; want a bar under the limit's mark", lines, over)
	}
}
