package ui

import (
	"strings"
	"testing"
)

// The Patterns preview of a fan-out shows the merged result of its requests and
// says how many it ran, and its cost line sums them (docs/FORMAT.md "Fan-out
// patterns"): daily-orders-sharded's pattern 2 is ten Queries of 0.5 RCU each on
// the samples, and in production ten pages of 19 RCU (each shard holds a day's
// 2,000 writes a second over ten shards; Limit 1000 ends its page), each named.
func TestPreviewShowsFanout(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		doc, err := OpenSample("daily-orders-sharded")
		if err != nil {
			t.Fatal(err)
		}
		m := testModel(t, doc, size[0], size[1])
		send(t, m, keys("j")...)
		if scr := screen(m); !strings.Contains(scr, "10 queries over shard 0..9, merged: Count 21, ScannedCount 21") ||
			!strings.Contains(scr, "fanout      shard over 0..9: 10 requests") {
			t.Errorf("%dx%d: the preview does not head the merged result with its queries:\n%s", size[0], size[1], scr)
		}
		// Scroll the detail to its end, where the preview's last lines are.
		send(t, m, keys("]", "]", "]", "]", "]", "]", "]", "]")...)
		scr := screen(m)
		for _, want := range []string{
			"capacity, 10 queries over shard 0..9 summed: 5 RCU (table 5) on the sample",
			"one call: 10 queries, each billed on its own, 190 RCU summed",
			"capacity per request: 5 RCU on the sample items (10 requests summed); 190 RCU",
			"at 1/s on the production page: 190 RCU/s, 0 WCU/s",
		} {
			if !strings.Contains(scr, want) {
				t.Errorf("%dx%d: the preview lacks %q:\n%s", size[0], size[1], want, scr)
			}
		}
		for _, l := range strings.Split(scr, "\n") {
			if w := len([]rune(l)); w > size[0] {
				t.Errorf("%dx%d: a line of %d cells: %q", size[0], size[1], w, l)
			}
		}
	}
}
