package throttle

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"stwb/model"
)

// clock is a fake clock a test moves by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time      { return c.t }
func (c *clock) add(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *clock               { return &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }
func onDemand() model.Table {
	return model.Table{Name: "t", Key: model.KeySchema{Partition: "PK", Sort: "SK"}, Billing: model.Billing{Mode: model.OnDemand}}
}
func provisioned(r, w int64) model.Table {
	t := onDemand()
	t.Billing = model.Billing{Mode: model.Provisioned, Read: r, Write: w}
	return t
}

const arn = "arn:aws:dynamodb:us-east-1:000000000000:table/t"

// drive sends perSecond requests a second, evenly, for secs seconds, each taking
// the charges next gives it, and counts the refusals by reason.
func drive(l *Limiter, c *clock, def *model.Table, perSecond, secs int, next func(i int) []Charge) (admitted, refused int, reasons map[string]int, codes map[string]int) {
	reasons, codes = map[string]int{}, map[string]int{}
	step := time.Second / time.Duration(perSecond)
	for i := 0; i < perSecond*secs; i++ {
		if r := l.Admit(def, arn, next(i)); r != nil {
			refused++
			codes[r.Code]++
			for _, x := range r.Reasons {
				reasons[x.Reason+" "+x.Resource]++
			}
		} else {
			admitted++
		}
		c.add(step)
	}
	return
}

func write(index, key, item string, units float64, splits bool) Charge {
	return Charge{Index: index, Key: key, Item: item, Splits: splits, Write: units}
}

// TestLimits: each limit DynamoDB enforces, at --scale 100 (a key value 10 WCU and
// 30 RCU a second), with the reason and the exception DynamoDB gives.
func TestLimits(t *testing.T) {
	gsiTable := provisioned(100000, 100000)
	gsiTable.Indexes = []model.Index{{Name: "byStatus", Key: model.KeySchema{Partition: "GSI1PK"}, Write: 300, Read: 100000}}
	cases := []struct {
		name      string
		def       model.Table
		perSecond int
		next      func(i int) []Charge
		// admitted is the share of requests let through over 20 s, within 5 points.
		admitted float64
		reason   string
		code     string
	}{
		// bp-partition-key-design.html: 1,000 WCU a second per partition key value;
		// 15 a second on one key at scale 100 (10 a second): a third refused.
		{"per key, writes", onDemand(), 15, func(int) []Charge { return []Charge{write("", "S:COUNTER", "", 1, false)} },
			2.0 / 3, "TableWriteKeyRangeThroughputExceeded " + arn, ThrottlingException},
		// 3,000 RCU: 60 reads of 1 RCU a second on one key at scale 100 (30): half.
		{"per key, reads", onDemand(), 60, func(int) []Charge { return []Charge{{Key: "S:HOT", Read: 1}} },
			0.5, "TableReadKeyRangeThroughputExceeded " + arn, ThrottlingException},
		// Every request on its own key: no key limit, the table's provisioned 500
		// WCU (5 at scale 100) with its burst starting at one second.
		{"table provisioned", provisioned(100000, 500), 10, func(i int) []Charge { return []Charge{write("", fmt.Sprint("S:K", i), "", 1, false)} },
			0.5, "TableWriteProvisionedThroughputExceeded " + arn, ProvisionedThroughputExceededException},
		// GSI.html: a GSI short of write capacity throttles writes to its table; the
		// reason names the index.
		{"GSI back-pressure", gsiTable, 6, func(i int) []Charge {
			return []Charge{write("", fmt.Sprint("S:K", i), "", 1, false), write("byStatus", fmt.Sprint("S:G", i), "", 1, false)}
		}, 0.5, "IndexWriteProvisionedThroughputExceeded " + arn + "/index/byStatus", ProvisionedThroughputExceededException},
		// ServiceQuotas.html: 40,000 WRU a second per on-demand table; at scale
		// 10,000 that is 4, and 8 a second on distinct keys pass half.
		{"account quota", onDemand(), 8, func(i int) []Charge { return []Charge{write("", fmt.Sprint("S:K", i), "", 1, false)} },
			0.5, "TableWriteAccountLimitExceeded " + arn, RequestLimitExceeded},
	}
	maxed := onDemand()
	maxed.Billing.MaxWrite = 500
	// on-demand-capacity-mode-max-throughput.html: past the table's maximum,
	// MaxOnDemandThroughputExceeded; 500 WRU at scale 100 is 5 a second.
	cases = append(cases, struct {
		name      string
		def       model.Table
		perSecond int
		next      func(i int) []Charge
		admitted  float64
		reason    string
		code      string
	}{"on-demand maximum", maxed, 10, func(i int) []Charge { return []Charge{write("", fmt.Sprint("S:K", i), "", 1, false)} },
		0.5, "TableWriteMaxOnDemandThroughputExceeded " + arn, ThrottlingException})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newClock()
			scale := 100.0
			if tc.name == "account quota" {
				scale = 10000
			}
			l := New(Options{Scale: scale, Now: c.now})
			def := tc.def
			adm, ref, reasons, codes := drive(l, c, &def, tc.perSecond, 20, tc.next)
			share := float64(adm) / float64(adm+ref)
			if share < tc.admitted-0.05 || share > tc.admitted+0.05 {
				t.Errorf("admitted %d of %d (%.2f), want %.2f", adm, adm+ref, share, tc.admitted)
			}
			if len(reasons) != 1 || reasons[tc.reason] != ref {
				t.Errorf("reasons %v, want %d x %q", reasons, ref, tc.reason)
			}
			if len(codes) != 1 || codes[tc.code] != ref {
				t.Errorf("exceptions %v, want %s", codes, tc.code)
			}
		})
	}
}

// TestBurst: a provisioned table keeps up to 300 seconds of unused capacity
// (burst-adaptive-capacity.html, "Burst capacity") and spends it on a burst above
// its rate; but never above a key value's own limit.
func TestBurst(t *testing.T) {
	c := newClock()
	l := New(Options{Scale: 100, Now: c.now})
	def := provisioned(100000, 500) // 5 WCU a second at scale 100
	key := 0
	distinct := func(int) []Charge { key++; return []Charge{write("", fmt.Sprint("S:K", key), "", 1, false)} }
	l.Admit(&def, arn, distinct(0)) // the table's buckets start now
	c.add(60 * time.Second)         // 60 s idle: 300 units saved, beside the second's 5
	adm, _, _, _ := drive(l, c, &def, 100, 3, distinct)
	if adm < 295 || adm > 315 {
		t.Errorf("a burst after 60 s idle admitted %d, want about 305", adm)
	}
	c.add(time.Hour) // idle far past 300 s: the saving stops at 300 s (1,500 units)
	adm, _, _, _ = drive(l, c, &def, 1000, 3, distinct)
	if adm < 1495 || adm > 1520 {
		t.Errorf("a burst after an hour idle admitted %d, want about 1,505 (300 s saved)", adm)
	}
	// The same saved capacity does not lift one key value over its 10 WCU.
	c.add(time.Hour)
	adm, _, reasons, _ := drive(l, c, &def, 100, 3, func(int) []Charge { return []Charge{write("", "S:ONE", "", 1, false)} })
	if adm > 40 {
		t.Errorf("one key during a burst admitted %d in 3 s, want at most about 30 (10 a second)", adm)
	}
	if reasons["TableWriteKeyRangeThroughputExceeded "+arn] == 0 {
		t.Errorf("reasons %v, want the key range", reasons)
	}
}

// TestSplitForHeat: a key value whose items can split (cost.SplitFor) takes
// its limit per item once it has been throttled for SplitAfter without a break;
// one that cannot split stays throttled.
func TestSplitForHeat(t *testing.T) {
	for _, splits := range []bool{true, false} {
		t.Run(fmt.Sprint("splits=", splits), func(t *testing.T) {
			c := newClock()
			l := New(Options{Scale: 100, Now: c.now, SplitAfter: time.Minute})
			def := onDemand()
			four := func(i int) []Charge {
				return []Charge{write("", "S:ROOM", fmt.Sprint("S:ROOM\x00S:MSG", i%4), 1, splits)}
			}
			// 20 a second over 4 items of one key value: 10 over the key's limit.
			_, before, _, _ := drive(l, c, &def, 20, 30, four)
			if before < 250 {
				t.Fatalf("before the split %d of 600 refused, want about 300", before)
			}
			drive(l, c, &def, 20, 40, four) // past the minute of throttling
			_, after, _, _ := drive(l, c, &def, 20, 30, four)
			if splits && after > 5 {
				t.Errorf("after the split %d of 600 refused, want none (5 a second an item)", after)
			}
			if !splits && after < 250 {
				t.Errorf("a key that cannot split: %d of 600 refused, want about 300", after)
			}
		})
	}
}

// TestNothingTakenWhenRefused: a refused request takes no units: its table's
// other keys are unaffected.
func TestNothingTakenWhenRefused(t *testing.T) {
	c := newClock()
	l := New(Options{Scale: 100, Now: c.now})
	def := onDemand()
	for i := 0; i < 50; i++ {
		l.Admit(&def, arn, []Charge{write("", "S:HOT", "", 1, false), write("", "S:COLD", "", 0.1, false)})
	}
	// COLD took 0.1 per admitted request only (about 10), so it still has units.
	if r := l.Admit(&def, arn, []Charge{write("", "S:COLD", "", 1, false)}); r != nil {
		t.Errorf("COLD refused after HOT's refusals: %+v", r)
	}
}

// TestSixteenReasons: the resolution guide's sixteen reasons, each once.
func TestSixteenReasons(t *testing.T) {
	all := AllReasons()
	if len(all) != 16 {
		t.Fatalf("%d reasons, want 16: %v", len(all), all)
	}
	for _, want := range []string{"TableReadKeyRangeThroughputExceeded", "TableWriteKeyRangeThroughputExceeded",
		"IndexReadKeyRangeThroughputExceeded", "IndexWriteKeyRangeThroughputExceeded",
		"TableReadProvisionedThroughputExceeded", "TableWriteProvisionedThroughputExceeded",
		"IndexReadProvisionedThroughputExceeded", "IndexWriteProvisionedThroughputExceeded",
		"TableReadAccountLimitExceeded", "TableWriteAccountLimitExceeded",
		"IndexReadAccountLimitExceeded", "IndexWriteAccountLimitExceeded",
		"TableReadMaxOnDemandThroughputExceeded", "TableWriteMaxOnDemandThroughputExceeded",
		"IndexReadMaxOnDemandThroughputExceeded", "IndexWriteMaxOnDemandThroughputExceeded"} {
		if !slices.Contains(all, want) {
			t.Errorf("%s missing", want)
		}
	}
}
