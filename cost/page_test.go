package cost

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"stwb/model"
	"stwb/samples"
)

// A Query is priced on the page production would serve: the orders sample's
// status dashboard (pattern 4, GSI1 = STATUS#SHIPPED, Limit 100) reads 3 sample
// entries for 0.5 RCU, but STATUS#SHIPPED holds about 25,000,000 orders in
// production (50,000,000 over 2 statuses), so the page is 100 entries of the orders'
// average size: ceil(100 x 192 / 4096) x 0.5 = 2.5 RCU. With no Limit the page ends
// at 1 MB: 128 RCU (Query.html: a page reads up to 1 MB).
func TestProductionPage(t *testing.T) {
	f, err := samples.Load("orders")
	if err != nil {
		t.Fatal(err)
	}
	d := f.Design
	status := func(d *model.Design) *PatternCost {
		r := mustCompute(t, d)
		for i := range r.Patterns {
			if r.Patterns[i].ID == 4 {
				return &r.Patterns[i]
			}
		}
		t.Fatal("no pattern 4")
		return nil
	}
	pc := status(d)
	if !pc.Page.Known || pc.Page.Items != 100 || pc.Page.CappedBy != "Limit" || !pc.Page.More {
		t.Errorf("page %+v, want 100 items ended by Limit", pc.Page)
	}
	if pc.PerRequest.Read != 2.5 || pc.Sample.Read != 0.5 {
		t.Errorf("per request %v RCU (sample %v), want 2.5 (sample 0.5)", pc.PerRequest.Read, pc.Sample.Read)
	}
	for i := range d.Patterns {
		if d.Patterns[i].ID == 4 {
			d.Patterns[i].Limit = 0
		}
	}
	pc = status(d)
	if pc.Page.CappedBy != "1 MB" || math.Abs(pc.PerRequest.Read-128) > 0.5 {
		t.Errorf("no Limit: %v RCU ended by %q, want about 128 at 1 MB", pc.PerRequest.Read, pc.Page.CappedBy)
	}
}

// Every page priced, each on its own (`pages: all`, --all-pages): the orders
// sample's pattern 2 reads CUST#{customerId}, about 50 customerOrder items of 123.7
// bytes. Pages are Limit items, the last one what is left, and each costs
// ceil(bytes / 4 KB) x 0.5, at least 0.5 (Query.html; read-write-operations.html).
func TestAllPagesPricing(t *testing.T) {
	cases := []struct {
		limit int
		pages float64
		rcu   float64
	}{
		{25, 2, 1},   // 2 x 25 items (3,092 B): 2 x 0.5
		{40, 2, 1.5}, // 40 items (4,947 B): 1, then 10 items: 0.5
		{7, 8, 4},    // 7 x 7 items: 7 x 0.5, then 1 item: 0.5
		{0, 1, 1},    // all 50 items (6,184 B) in one page: ceil(1.51) x 0.5
	}
	for _, c := range cases {
		f, err := samples.Load("orders")
		if err != nil {
			t.Fatal(err)
		}
		d := f.Design
		for i := range d.Patterns {
			if d.Patterns[i].ID == 2 {
				d.Patterns[i].Limit, d.Patterns[i].AllPages = c.limit, true
			}
		}
		r := mustCompute(t, d)
		pc := r.Patterns[1]
		if pc.ID != 2 || !pc.Page.AllPages || pc.Page.Pages != c.pages || pc.PerRequest.Read != c.rcu || math.Round(pc.Page.Items) != 50 {
			t.Errorf("limit %d: %v pages, %v RCU, %v items (all %v); want %v pages, %v RCU, 50 items", c.limit, pc.Page.Pages, pc.PerRequest.Read, pc.Page.Items, pc.Page.AllPages, c.pages, c.rcu)
		}
	}
}

// A period key's page is sized from the rate its items are written at (issue 21):
// the day's shard of daily-orders-sharded holds a day of its tenth of 2,000 writes
// a second, not the samples' two or three.
func TestPeriodLength(t *testing.T) {
	for _, c := range []struct {
		vals []string
		secs float64
	}{
		{[]string{"2026-08-03", "2026-08-02"}, 86400},
		{[]string{"2026-08"}, 30.44 * 86400},
		{[]string{"2026-08-03T14"}, 3600},
		{[]string{"20260803"}, 86400},
		{[]string{"2026-08-03", "2026-08"}, 0}, // they disagree
		{[]string{"PENDING"}, 0},
	} {
		if got, _ := periodLength(c.vals); got != c.secs {
			t.Errorf("periodLength(%v) = %v, want %v", c.vals, got, c.secs)
		}
	}
}

// BatchGetItem's keys are distinct (BatchGetItem.html), so a key value takes at most
// one read of each request: page-view-poor's 20 keys at 500 requests a second put at
// most 500 x 0.5 = 250 RCU on one key, not a Zipf share of the batch's 5,000.
func TestBatchKeyTakesOneReadARequest(t *testing.T) {
	src := neutralTable + `entities:
  - {name: o, keys: {PK: "C#{x}", SK: P}, attributes: {x: S}, count: 1000000}
items:
` + func() string {
		s := ""
		for i := 0; i < 20; i++ {
			s += "  - {type: o, x: \"" + strconv.Itoa(i) + "\"}\n"
		}
		return s
	}() + `patterns:
  - id: 1
    rate: 500
    operation: BatchGetItem
    keys:
` + func() string {
		s := ""
		for i := 0; i < 20; i++ {
			s += "      - {PK: \"C#" + strconv.Itoa(i) + "\", SK: P}\n"
		}
		return s
	}()
	k := keyLoad(t, loadDesign(t, src, nil), "table", "C#{x}")
	if k.Read != 250 || k.TotalRead != 5000 {
		t.Errorf("hottest key %v RCU of %v, want 250 of 5,000", k.Read, k.TotalRead)
	}
}

// A fan-out's page is described for any of its key values, its variable left as
// {shard}, not as the first request's (ORDERS#{orderDay:current}#0): each of the
// ten requests reads a shard of its own (bp-write-sharding.html: a query per
// suffix). A few-valued variable the fan-out does not set keeps its value.
func TestFanoutPageNamesTheVariable(t *testing.T) {
	f, err := samples.Load("daily-orders-sharded")
	if err != nil {
		t.Fatal(err)
	}
	r := mustCompute(t, f.Design)
	for _, pc := range r.Patterns {
		if pc.ID != 2 {
			continue
		}
		if pc.Requests != 10 || !pc.Page.Known {
			t.Fatalf("pattern 2: %d requests, page %+v; want a fan-out of 10 with its page sized", pc.Requests, pc.Page)
		}
		if !strings.Contains(pc.Page.Because, "one ORDERS#{orderDay:current}#{shard} holds") || strings.Contains(pc.Page.Because, "#0") {
			t.Errorf("page assumed %q; want it said of ORDERS#{orderDay:current}#{shard}", pc.Page.Because)
		}
		return
	}
	t.Fatal("no pattern 2")
}

// A key's shape fills in a few-valued variable's value unless it is shown; a period
// is always the current one.
func TestKeyShapeShowingVars(t *testing.T) {
	ki := KeyInfo{Template: "S#{status}#{day}#{shard}", vals: map[string]string{"status": "PENDING", "day": "2026-08-03", "shard": "4"},
		Vars: []VarInfo{{Name: "status", Kind: VarFew}, {Name: "day", Kind: VarPeriod}, {Name: "shard", Kind: VarFew}}}
	for _, tc := range []struct {
		shown []string
		want  string
	}{
		{nil, "S#PENDING#{day:current}#4"},
		{[]string{"shard"}, "S#PENDING#{day:current}#{shard}"},
		{[]string{"shard", "day", "status"}, "S#{status}#{day:current}#{shard}"},
	} {
		if got := ki.shape(tc.shown); got != tc.want {
			t.Errorf("showing %v: %q, want %q", tc.shown, got, tc.want)
		}
	}
}
