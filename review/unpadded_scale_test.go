package review

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"stwb/model"
)

// TestUnpaddedNumberIsNotPairwise: the unpadded-number rule on 200,000 siblings in
// one partition finishes well inside the limit. Sorting once and comparing
// neighbours takes a fraction of a second; the pairwise loop it replaced (issue 15:
// 36 s for 10,000 items) would run for hours. The margin is a factor of thousands,
// so a loaded machine does not make this flaky, while a quadratic loop cannot pass.
// The cmd/stwb attack corpus's 10,000-item class cannot tell: a pairwise loop of
// the current helpers takes about 13 s there, inside its 20 s limit.
func TestUnpaddedNumberIsNotPairwise(t *testing.T) {
	const n = 200_000
	d := &model.Design{Table: model.Table{Name: "one-partition", Key: model.KeySchema{Partition: "PK", Sort: "SK"}}}
	d.Items = make([]model.Item, n)
	for i := range n {
		d.Items[i] = model.Item{"PK": model.Str("P"), "SK": model.Str(fmt.Sprintf("ITEM#%d", i))}
	}
	c := newChecker(Input{Design: d})
	for _, r := range rules {
		if r.ID == "unpadded-number" {
			c.rule = r
		}
	}
	done := make(chan []Finding, 1)
	go func() {
		checkUnpaddedNumber(c)
		done <- c.findings
	}()
	const limit = 20 * time.Second
	select {
	case fs := <-done:
		if len(fs) != 1 || !strings.Contains(fs[0].Message, "sorts before") {
			t.Errorf("findings %v, want the one unpadded-number finding", fs)
		}
	case <-time.After(limit):
		t.Fatalf("unpadded-number on %d items in one partition took over %v: a pairwise loop over the partition", n, limit)
	}
}
