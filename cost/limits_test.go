package cost

import "testing"

// TestSplitFor holds split for heat to burst-adaptive-capacity.html ("Isolate
// frequently accessed items": an isolated item still gets at most 3,000 RCU /
// 1,000 WCU; no split of item collections with an LSI) and the guide's exclusion
// of traffic that follows a monotonically increasing or decreasing sort key.
func TestSplitFor(t *testing.T) {
	cases := []struct {
		name string
		c    SplitCase
		can  bool
	}{
		{"random sort key, no LSI: may split", SplitCase{SortKey: true}, true},
		{"no sort key: the key value is one item", SplitCase{}, false},
		{"one hot item: isolated, never divided", SplitCase{SortKey: true, OneItem: true}, false},
		{"an LSI on the table", SplitCase{SortKey: true, LSI: true}, false},
		{"a ULID or timestamp sort key", SplitCase{SortKey: true, Monotonic: true}, false},
		{"provisioned with Streams", SplitCase{SortKey: true, ProvisionedStreams: true}, false},
	}
	for _, c := range cases {
		s := SplitFor(c.c)
		if s.Can != c.can || (!s.Can && s.Why == "") {
			t.Errorf("%s: SplitFor = %+v, want can=%v with a reason when not", c.name, s, c.can)
		}
	}
}

// TestOverLimitsAndNeedsSplit: reads and writes are throttled independently at
// 3,000 RCU and 1,000 WCU a partition (burst-adaptive-capacity.html); a key value
// over them whose split would bring it under throttles until the split.
func TestOverLimitsAndNeedsSplit(t *testing.T) {
	cases := []struct {
		read, write float64
		over        bool
	}{
		{3000, 1000, false}, {3000.1, 0, true}, {0, 1000.1, true}, {2999, 999, false},
		// bp-partition-key-design.html: a 20 KB item read strongly takes 5 RCU, so
		// 600 such reads a second reach the 3,000 RCU limit; 700 pass it.
		{600 * 5, 0, false}, {700 * 5, 0, true},
	}
	for _, c := range cases {
		if got := OverLimits(c.read, c.write); got != c.over {
			t.Errorf("OverLimits(%v, %v) = %v, want %v", c.read, c.write, got, c.over)
		}
	}
	r, w := AfterSplit(100, 200, 5, 1)
	if r != 105 || w != 201 {
		t.Errorf("AfterSplit = %v, %v", r, w)
	}
	if !NeedsSplit(0, 20000, 0, 1) || NeedsSplit(0, 20000, 0, 1400) || NeedsSplit(0, 900, 0, 1) {
		t.Error("NeedsSplit: a key over the limits that a split brings under, and only that")
	}
}
