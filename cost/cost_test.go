package cost

import (
	"math"
	"testing"

	"stwb/engine"
	"stwb/model"
)

// resultsByID answers each pattern id with a result made by hand, so that the pricing
// rules are tested apart from the engine's capacity arithmetic.
type resultsByID map[int]*engine.Result

// of lays the results out as Input.Results holds them: Patterns[i]'s at i.
func (m resultsByID) of(d *model.Design) []*engine.Result {
	rs := make([]*engine.Result, len(d.Patterns))
	for i, p := range d.Patterns {
		rs[i] = m[p.ID]
	}
	return rs
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// testDesign is the orders table of FORMAT.md: a GSI on status, an LSI on placedAt.
func testDesign() *model.Design {
	return &model.Design{
		Name: "orders",
		Table: model.Table{
			Name: "t", Key: model.KeySchema{Partition: "PK", Sort: "SK"},
			Indexes: []model.Index{
				{Name: "GSI1", Key: model.KeySchema{Partition: "GSI1PK", Sort: "GSI1SK"}, Projection: model.Projection{Type: model.ProjectAll}},
				{Name: "LSI1", Local: true, Key: model.KeySchema{Partition: "PK", Sort: "placedAt"}, Projection: model.Projection{Type: model.ProjectKeysOnly}},
			},
		},
		Entities: []model.Entity{
			{Name: "customer", Keys: map[string]string{"PK": "CUST#{customerId}", "SK": "PROFILE"}, Count: 1_000_000},
			{Name: "order", Keys: map[string]string{"PK": "ORDER#{orderId}", "SK": "METADATA", "GSI1PK": "STATUS#{status}", "GSI1SK": "{placedAt}"}, Count: 50_000_000},
			{Name: "config", Keys: map[string]string{"PK": "CONFIG", "SK": "GLOBAL"}, Count: 1},
		},
	}
}

func capOf(tr, tw float64, idx map[string]engine.Units) engine.Capacity {
	return engine.Capacity{Table: engine.Units{Read: tr, Write: tw}, Indexes: idx}
}

// Per request, per second and per month, from the engine's consumed capacity
// (DYNAMODB.md "Capacity" and "Prices"; pricing pages on-demand/ and provisioned/).
func TestPatternPricing(t *testing.T) {
	key := func(pk string) model.Item { return model.Item{"PK": model.Str(pk), "SK": model.Str("PROFILE")} }
	cases := []struct {
		name    string
		p       model.Pattern
		res     *engine.Result
		billing model.Billing
		// per request and per second, read and write (table and indexes)
		reqR, reqW, secR, secW float64
		onDemand, provisioned  float64
		atTarget               float64
		pools                  []Pool // Name, NeedRead, NeedWrite checked
	}{
		{
			name: "issue example: GetItem 0.5 RCU at 200/s",
			p:    model.Pattern{ID: 1, Rate: 200, Operation: model.OpGetItem, Key: key("CUST#42")},
			res:  &engine.Result{Consumed: capOf(0.5, 0, nil)},
			reqR: 0.5, secR: 100, onDemand: 32.85, provisioned: 9.49,
			pools: []Pool{{Name: "table", NeedRead: 100}},
		},
		{
			name: "rate defaults to 1; half a unit still needs one whole RCU provisioned",
			p:    model.Pattern{ID: 1, Operation: model.OpGetItem, Key: key("CUST#42")},
			res:  &engine.Result{Consumed: capOf(0.5, 0, nil)},
			reqR: 0.5, secR: 0.5, onDemand: 0.5 * 2.628 * 0.125, provisioned: 730 * 0.00013,
			pools: []Pool{{Name: "table", NeedRead: 1}},
		},
		{
			name: "a Query is priced on its first page only (one request = one page)",
			p:    model.Pattern{ID: 2, Rate: 10, Operation: model.OpQuery, KeyCondition: "PK = :p", Values: map[string]model.Value{":p": model.Str("CUST#42")}},
			res: &engine.Result{Consumed: capOf(128+64, 0, nil), Pages: []engine.Page{
				{Consumed: capOf(128, 0, nil), Visits: []engine.Visit{{Item: key("CUST#42")}}},
				{Consumed: capOf(64, 0, nil)}}},
			reqR: 128, secR: 1280, onDemand: 1280 * 2.628 * 0.125, provisioned: 1280 * 730 * 0.00013,
			pools: []Pool{{Name: "table", NeedRead: 1280}},
		},
		{
			name: "a write with GSI and LSI amplification: GSI its own pool, LSI on the table's",
			p:    model.Pattern{ID: 6, Rate: 20, Operation: model.OpUpdateItem, Key: model.Item{"PK": model.Str("ORDER#9f2a"), "SK": model.Str("METADATA")}},
			res: &engine.Result{Consumed: capOf(0, 1, map[string]engine.Units{"GSI1": {Write: 2}, "LSI1": {Write: 1}}),
				Changes: []engine.Change{{Key: model.Item{"PK": model.Str("ORDER#9f2a")}, After: model.Item{"GSI1PK": model.Str("STATUS#SHIPPED")}}}},
			reqW: 4, secW: 80, onDemand: 80 * 2.628 * 0.625, provisioned: (40*0.00065 + 40*0.00065) * 730,
			pools: []Pool{{Name: "table", NeedWrite: 40}, {Name: "GSI1", NeedWrite: 40}},
		},
		{
			name: "a failed condition is still billed (read-write-operations.html, conditional writes)",
			p:    model.Pattern{ID: 7, Rate: 10, Operation: model.OpPutItem, Item: key("CUST#1")},
			res:  &engine.Result{Consumed: capOf(0, 1, nil), Err: &engine.Error{Type: "ConditionalCheckFailedException", Message: "The conditional request failed"}},
			reqW: 1, secW: 10, onDemand: 10 * 2.628 * 0.625, provisioned: 10 * 730 * 0.00065,
			pools: []Pool{{Name: "table", NeedWrite: 10}},
		},
		{
			name:  "a ValidationException is refused before any work: unpriced",
			p:     model.Pattern{ID: 8, Rate: 10, Operation: model.OpGetItem, Key: key("CUST#1")},
			res:   &engine.Result{Consumed: capOf(0.5, 0, nil), Err: &engine.Error{Type: "ValidationException", Message: "bad"}},
			pools: []Pool{{Name: "table"}},
		},
		{
			name:    "autoscaling target 0.7: capacity / 0.7, rounded up",
			p:       model.Pattern{ID: 1, Rate: 200, Operation: model.OpGetItem, Key: key("CUST#42")},
			res:     &engine.Result{Consumed: capOf(0.5, 0, nil)},
			billing: model.Billing{Mode: model.Provisioned, Read: 50, Write: 5, Target: 0.7},
			reqR:    0.5, secR: 100, onDemand: 32.85, provisioned: 9.49, atTarget: 143 * 730 * 0.00013,
			pools: []Pool{{Name: "table", NeedRead: 100, TargetRead: 143, ConfiguredRead: 50, ConfiguredWrite: 5}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := testDesign()
			d.Table.Billing = c.billing
			d.Patterns = []model.Pattern{c.p}
			r, err := Compute(Input{Design: d, Results: resultsByID{c.p.ID: c.res}.of(d)})
			if err != nil {
				t.Fatal(err)
			}
			pc := r.Patterns[0]
			if !near(pc.PerRequest.Read, c.reqR) || !near(pc.PerRequest.Write, c.reqW) {
				t.Errorf("per request %v/%v, want %v/%v", pc.PerRequest.Read, pc.PerRequest.Write, c.reqR, c.reqW)
			}
			if !near(pc.PerSecond.Read, c.secR) || !near(pc.PerSecond.Write, c.secW) {
				t.Errorf("per second %v/%v, want %v/%v", pc.PerSecond.Read, pc.PerSecond.Write, c.secR, c.secW)
			}
			if !near(pc.Monthly.OnDemand, c.onDemand) || !near(pc.Monthly.Provisioned, c.provisioned) || !near(pc.Monthly.AtTarget, c.atTarget) {
				t.Errorf("monthly %+v, want on-demand %v provisioned %v at target %v", pc.Monthly, c.onDemand, c.provisioned, c.atTarget)
			}
			if len(pc.Pools) != len(c.pools) {
				t.Fatalf("pools %+v, want %+v", pc.Pools, c.pools)
			}
			for i, w := range c.pools {
				g := pc.Pools[i]
				if g.Name != w.Name || g.NeedRead != w.NeedRead || g.NeedWrite != w.NeedWrite || g.TargetRead != w.TargetRead ||
					g.ConfiguredRead != w.ConfiguredRead || g.ConfiguredWrite != w.ConfiguredWrite {
					t.Errorf("pool %d: %+v, want %+v", i, g, w)
				}
			}
			// The design's totals of a one-pattern design are the pattern's.
			if !near(r.Totals.Monthly.OnDemand, pc.Monthly.OnDemand) || !near(r.Totals.Monthly.Provisioned, pc.Monthly.Provisioned) {
				t.Errorf("totals %+v differ from the only pattern %+v", r.Totals.Monthly, pc.Monthly)
			}
		})
	}
}

// Totals add per-second load first and round the capacity up once per pool, as a
// table is provisioned once: three patterns of 0.5 RCU/s need 2 RCU, not 3.
func TestTotalsRoundOncePerPool(t *testing.T) {
	d := testDesign()
	run := resultsByID{}
	for id := 1; id <= 3; id++ {
		d.Patterns = append(d.Patterns, model.Pattern{ID: id, Operation: model.OpGetItem,
			Key: model.Item{"PK": model.Str("CUST#1"), "SK": model.Str("PROFILE")}})
		run[id] = &engine.Result{Consumed: capOf(0.5, 0, nil)}
	}
	d.Table.Billing = model.Billing{Mode: model.Provisioned, Read: 10, Write: 10}
	r, err := Compute(Input{Design: d, Results: run.of(d)})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Totals.Pools[0].NeedRead; got != 2 {
		t.Errorf("need %d RCU, want 2", got)
	}
	if !near(r.Totals.PerRequestRead, 1.5) {
		t.Errorf("per-request sum %v, want 1.5", r.Totals.PerRequestRead)
	}
	// The table and GSI1, which has no figures of its own and so the table's.
	if want := 2 * (10*0.00013 + 10*0.00065) * 730; !near(r.Totals.Configured, want) {
		t.Errorf("configured %v, want %v", r.Totals.Configured, want)
	}
	if sum := r.Patterns[0].Monthly.Provisioned * 3; near(sum, r.Totals.Monthly.Provisioned) {
		t.Errorf("totals are the sum of rounded patterns (%v); want rounding once", sum)
	}
}

// Recomputing one pattern replaces it and redoes the totals.
func TestReportPattern(t *testing.T) {
	d := testDesign()
	d.Patterns = []model.Pattern{{ID: 1, Operation: model.OpGetItem, Rate: 10}, {ID: 2, Operation: model.OpGetItem, Rate: 10}}
	run := resultsByID{1: {Consumed: capOf(0.5, 0, nil)}, 2: {Consumed: capOf(1, 0, nil)}}
	r, err := Compute(Input{Design: d, Results: run.of(d)})
	if err != nil {
		t.Fatal(err)
	}
	if !near(r.Totals.PerSecond.Read, 15) {
		t.Fatalf("before: %v RCU/s", r.Totals.PerSecond.Read)
	}
	d.Patterns[1].Rate = 100
	pc, err := r.Pattern(d, 1, run[2])
	if err != nil {
		t.Fatal(err)
	}
	if !near(pc.PerSecond.Read, 100) || !near(r.Totals.PerSecond.Read, 105) {
		t.Errorf("after: pattern %v, totals %v RCU/s; want 100 and 105", pc.PerSecond.Read, r.Totals.PerSecond.Read)
	}
	if _, err := r.Pattern(d, 2, run[2]); err == nil {
		t.Error("pattern index out of range accepted")
	}
}

func TestComputeRegion(t *testing.T) {
	d := testDesign()
	cases := []struct {
		design, flag string
		prices       Prices
		wantErr      bool
		wantRegion   string
	}{
		{"", "", nil, false, "us-east-1"},
		{"eu-west-1", "", nil, true, ""},
		{"eu-west-1", "us-east-1", nil, false, "us-east-1"},
		{"", "eu-west-1", Prices{"eu-west-1": {model.ClassStandard: {ReadRequestUnitPerMillion: 1}}}, false, "eu-west-1"},
	}
	for _, c := range cases {
		d.Region = c.design
		r, err := Compute(Input{Design: d, Region: c.flag, Prices: c.prices})
		if (err != nil) != c.wantErr {
			t.Errorf("design %q flag %q: error %v", c.design, c.flag, err)
			continue
		}
		if err == nil && r.Region != c.wantRegion {
			t.Errorf("design %q flag %q: region %s, want %s", c.design, c.flag, r.Region, c.wantRegion)
		}
	}
}

// Read and write autoscale to their own targets, on the table and on each GSI
// (AutoScaling.html: one target-tracking policy per scalable dimension). Each pool
// side is priced at its own target; a GSI side without one takes the table's; a
// side without any target is priced at 100% when another side has one.
func TestAtTargetPerSide(t *testing.T) {
	sc := func(target float64) *model.Scaling { return &model.Scaling{Min: 1, Max: 1000, Target: target} }
	// 7 RCU/s and 5 WCU/s on the table, 3 RCU/s and 4 WCU/s on GSI1.
	run := resultsByID{1: {Consumed: capOf(7, 5, map[string]engine.Units{"GSI1": {Read: 3, Write: 4}})}}
	cases := []struct {
		name     string
		billing  model.Billing
		gsi      model.Autoscaling
		table    [2]int64 // want TargetRead, TargetWrite of the table's pool
		gsiUnits [2]int64 // and of GSI1's
	}{
		{"one target for both", model.Billing{Target: 0.5}, model.Autoscaling{}, [2]int64{14, 10}, [2]int64{6, 8}},
		{"read and write apart", model.Billing{Target: 0.7, Autoscaling: model.Autoscaling{Read: sc(0.7), Write: sc(0.5)}}, model.Autoscaling{},
			[2]int64{10, 10}, [2]int64{5, 8}},
		{"GSI with its own", model.Billing{Target: 0.7, Autoscaling: model.Autoscaling{Read: sc(0.7), Write: sc(0.5)}}, model.Autoscaling{Read: sc(0.25), Write: sc(0.8)},
			[2]int64{10, 10}, [2]int64{12, 5}},
		{"write not autoscaled", model.Billing{Autoscaling: model.Autoscaling{Read: sc(0.7)}}, model.Autoscaling{},
			[2]int64{10, 5}, [2]int64{5, 4}},
		{"autoscaling without billing.target", model.Billing{Autoscaling: model.Autoscaling{Read: sc(0.5), Write: sc(0.5)}}, model.Autoscaling{},
			[2]int64{14, 10}, [2]int64{6, 8}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := testDesign()
			d.Patterns = []model.Pattern{{ID: 1, Operation: model.OpGetItem, Key: model.Item{"PK": model.Str("CUST#1"), "SK": model.Str("PROFILE")}}}
			c.billing.Mode, c.billing.Read, c.billing.Write = model.Provisioned, 100, 100
			d.Table.Billing = c.billing
			d.Table.Indexes[0].Autoscaling = c.gsi
			r, err := Compute(Input{Design: d, Results: run.of(d)})
			if err != nil {
				t.Fatal(err)
			}
			pools := r.Totals.Pools
			if len(pools) != 2 {
				t.Fatalf("pools %+v", pools)
			}
			if got := [2]int64{pools[0].TargetRead, pools[0].TargetWrite}; got != c.table {
				t.Errorf("table at target %v, want %v", got, c.table)
			}
			if got := [2]int64{pools[1].TargetRead, pools[1].TargetWrite}; got != c.gsiUnits {
				t.Errorf("GSI1 at target %v, want %v", got, c.gsiUnits)
			}
			want := ProvisionedMonthly(float64(c.table[0]+c.gsiUnits[0]), float64(c.table[1]+c.gsiUnits[1]), r.Prices)
			if !near(r.Totals.Monthly.AtTarget, want) {
				t.Errorf("at target %v/month, want %v", r.Totals.Monthly.AtTarget, want)
			}
		})
	}
}

// A provisioned pool is short when its configured capacity is below what the peak
// requires at its autoscaling targets (load / target, rounded up), or at 100%
// without one: the under-provisioned rule and the cost report both ask Short.
func TestPoolShortAtTarget(t *testing.T) {
	cases := []struct {
		name  string
		p     Pool
		short bool
		at    string
	}{
		{"no target, enough", Pool{NeedWrite: 500, ConfiguredRead: 1, ConfiguredWrite: 600}, false, "at 100% utilisation (no autoscaling target)"},
		{"no target, short", Pool{NeedWrite: 500, ConfiguredRead: 1, ConfiguredWrite: 10}, true, "at 100% utilisation (no autoscaling target)"},
		{"70% target: 500 needs 715", Pool{NeedWrite: 500, TargetWrite: 715, ReadTarget: 0.7, WriteTarget: 0.7, ConfiguredRead: 1, ConfiguredWrite: 600}, true, "at the 70% autoscaling target"},
		{"per side", Pool{NeedRead: 10, TargetRead: 20, ReadTarget: 0.5, WriteTarget: 0.7, ConfiguredRead: 20, ConfiguredWrite: 1}, false, "at the 50% read and 70% write autoscaling targets"},
		{"on-demand is never short", Pool{NeedWrite: 500}, false, "at 100% utilisation (no autoscaling target)"},
	}
	for _, c := range cases {
		if got := c.p.Short(); got != c.short {
			t.Errorf("%s: short %v, want %v", c.name, got, c.short)
		}
		if got := c.p.SizedAt(); got != c.at {
			t.Errorf("%s: %q, want %q", c.name, got, c.at)
		}
	}
}
