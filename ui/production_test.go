package ui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"stwb/designfile"
)

// The production model's verdicts in the workbench, as `stwb check` and `stwb cost`
// give them: AWS's status-code key (testdata/badkeys, variable names that say
// nothing) and a GSI provisioned at 10 WCU that takes 500. The Review pane's open
// finding shows the figure and, on its own, what it assumed; the Cost pane shows the
// verdict and the cost report's `assumed` lines. At 120x40 and 80x24.
func TestWorkbenchShowsWhatWasAssumed(t *testing.T) {
	cases := []struct {
		file     string
		inDetail []string // in the open first finding
		inCost   []string // in the Cost pane's lines
	}{
		{"badkeys/status-code.yaml",
			[]string{"[hot-partition]", "4,000 WCU a second", `"S#PENDING"`, "assumed: 2 distinct values of y in 6 order samples"},
			[]string{"HOT", "assumed (GSI1): S#PENDING; 2 distinct values of y in 6 order samples", "page in production"}},
		{"prodmodel/gsi-short.yaml",
			[]string{"[under-provisioned]", "500 WCU at 100% utilisation", "assumed: capacity = load at 100% utilisation"},
			[]string{"under-provisioned: GSI1 needs 1 RCU 500 WCU at 100% utilisation", "throttles base-table writes"}},
	}
	for _, c := range cases {
		for _, size := range [][2]int{{120, 40}, {80, 24}} {
			t.Run(fmt.Sprintf("%s/%dx%d", c.file, size[0], size[1]), func(t *testing.T) {
				f, err := designfile.Load(filepath.Join("..", "cmd", "stwb", "testdata", c.file))
				if err != nil {
					t.Fatal(err)
				}
				m := testModel(t, &Doc{D: f.Design, ItemPos: f.ItemPos, Path: c.file}, size[0], size[1])
				send(t, m, keys("5", "enter")...)
				// The detail wraps at the pane's width: compare with line breaks undone.
				scr := strings.Join(strings.Fields(screen(m)), " ")
				for _, w := range c.inDetail {
					if !strings.Contains(scr, w) {
						t.Errorf("the open finding does not show %q:\n%s", w, screen(m))
					}
				}
				if strings.Contains(scr, "Assumed: ") {
					t.Errorf("the open finding repeats its assumptions inside the message:\n%s", screen(m))
				}
				send(t, m, keys("esc", "4")...)
				// Prose wraps at the pane's width: compare with line breaks undone.
				lines := strings.Join(strings.Fields(strings.Join(m.panes[paneCost].(*costPane).lines(), "\n")), " ")
				for _, w := range c.inCost {
					if !strings.Contains(lines, w) {
						t.Errorf("the Cost pane does not show %q:\n%s", w, lines)
					}
				}
			})
		}
	}
}
