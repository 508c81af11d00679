package ui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"stwb/designfile"
)

// The production model's verdicts in the workbench, as `stwb check` and `stwb cost`
// give them (cmd/stwb TestProductionModelExamples holds the commands to the same
// examples): AWS's three bad keys and the other examples, under variable
// names that say nothing. Every finding is opened in turn in the Review pane; the
// ones the example is about show their figure and, on their own, what they
// assumed. The Cost pane shows the verdict with its figure and the cost report's
// `assumed` lines. At 120x40 and 80x24.
func TestWorkbenchShowsWhatWasAssumed(t *testing.T) {
	cases := []struct {
		file     string
		inReview []string // in some open finding
		inCost   []string // in the Cost pane's lines
	}{
		{"badkeys/creation-date.yaml",
			[]string{"[hot-partition]", "5,000 WCU a second", "assumed: 2 values of p in 2 event samples read as dates or times"},
			[]string{"HOT: 5,000 WCU/s > 1,000", "assumed (table): EV#{p:current}"}},
		{"badkeys/status-code.yaml",
			[]string{"[hot-partition]", "4,000 WCU a second", `"S#PENDING"`, "assumed: 2 distinct values of y in 6 order samples",
				"[low-cardinality-key]", "the write rate sums pattern 1 at 2,000/s, pattern 2 at 2,000/s",
				"[page-overflow]", "assumed: one S#SHIPPED holds about 25,000,000 order items"},
			[]string{"HOT: 4,000 WCU/s > 1,000", "assumed (GSI1): S#PENDING; 2 distinct values of y in 6 order samples", "page in production"}},
		{"badkeys/popular-key.yaml",
			[]string{"[hot-partition]", "1,389.59 WCU a second", "assumed: one device item per x (a constant sort key): 1,000,000 values; Zipf s=1 over 1,000,000 values: hottest 6.9%"},
			[]string{"HOT: 1,389.59 WCU/s > 1,000", "Zipf s=1 over 1,000,000 values: hottest 6.9%"}},
		{"prodmodel/summed-load.yaml",
			[]string{"patterns 1, 2, 3 together", "1,200 WCU a second", "assumed: a constant key"},
			[]string{"HOT: 1,200 WCU/s > 1,000"}},
		{"prodmodel/tally-transaction.yaml",
			[]string{`key "G"`, "4,000 WCU a second", "assumed: a constant key"},
			[]string{"HOT: 4,000 WCU/s > 1,000"}},
		{"prodmodel/key-move.yaml",
			[]string{`"S#PENDING"`, "pattern 1 put 0 RCU and 1,500 WCU a second", "assumed: 2 distinct values of y"},
			[]string{"HOT: 1,500 WCU/s > 1,000", "assumed (GSI1): S#PENDING"}},
		{"prodmodel/partitions-per-index.yaml",
			[]string{"index GSI1's key", "2,000 WCU a second", "assumed: the pattern's partitions: 1 value"},
			[]string{"HOT: >= 2,000 WCU/s > 1,000", "even over 1,000,000 values (the pattern's partitions)"}},
		{"prodmodel/gsi-short.yaml",
			[]string{"[under-provisioned]", "500 WCU at 100% utilisation", "assumed: capacity = load at 100% utilisation"},
			[]string{"under-provisioned: GSI1 needs 1 RCU 500 WCU at 100% utilisation", "throttles base-table writes"}},
		{"prodmodel/type-mismatch.yaml",
			[]string{"[attribute-type-mismatch]", `write w: "4e10"`},
			nil},
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
				// Each finding opened in turn; the detail wraps at the pane's width,
				// so compare with line breaks undone.
				var seen []string
				for range m.w.allFindings() {
					scr := strings.Join(strings.Fields(screen(m)), " ")
					if strings.Contains(scr, "Assumed: ") {
						t.Errorf("an open finding repeats its assumptions inside the message:\n%s", screen(m))
					}
					seen = append(seen, scr)
					send(t, m, keys("down")...)
				}
				all := strings.Join(seen, "\n")
				for _, w := range c.inReview {
					if !strings.Contains(all, w) {
						t.Errorf("no open finding shows %q:\n%s", w, all)
					}
				}
				send(t, m, keys("esc", "4")...)
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
