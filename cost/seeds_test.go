package cost

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"stwb/engine"
	"stwb/model"
	"stwb/samples"
)

// The seeds' sums, recomputed through the real engine: per-request units come from
// engine.Result.Consumed, never from this package.

func mustCompute(t *testing.T, d *model.Design) *Report {
	t.Helper()
	e, err := engine.FromDesign(d)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Compute(Input{Design: d, Results: e.RunAll(d.Patterns, engine.RunOptions{})})
	if err != nil {
		t.Fatal(err)
	}
	for _, pc := range r.Patterns {
		if pc.Err != nil {
			t.Fatalf("pattern %d: %v", pc.ID, pc.Err)
		}
	}
	return r
}

func sample(t *testing.T, name string) *model.Design {
	t.Helper()
	d, err := samples.Load(name)
	if err != nil {
		t.Fatalf("sample %s: %v", name, err)
	}
	return d.Design
}

func byID(t *testing.T, r *Report, id int) PatternCost {
	t.Helper()
	for _, pc := range r.Patterns {
		if pc.ID == id {
			return pc
		}
	}
	t.Fatalf("no pattern %d", id)
	return PatternCost{}
}

// readDesign is a table of n items of itemBytes each under one partition key, and
// the patterns given; built in code because a 1 MB page of 4 KB items is 256 items.
func readDesign(n, itemBytes int, patterns ...model.Pattern) *model.Design {
	d := &model.Design{Name: "reads", Table: model.Table{Key: model.KeySchema{Partition: "PK", Sort: "SK"}},
		Patterns: patterns}
	for i := range n {
		it := model.Item{"PK": model.Str("P"), "SK": model.Str(fmt.Sprintf("S%04d", i))}
		// PK (2+1), SK (2+5), pad (3 + the rest): exactly itemBytes.
		it["pad"] = model.Str(strings.Repeat("x", itemBytes-3-7-3))
		d.Items = append(d.Items, it)
	}
	return d
}

func query(id int, rate float64, consistent bool) model.Pattern {
	return model.Pattern{ID: id, Rate: rate, Operation: model.OpQuery, KeyCondition: "PK = :p",
		Values: map[string]model.Value{":p": model.Str("P")}, Consistent: consistent}
}

// read-write-operations.html ("Query": the sum of item sizes, rounded up to 4 KB
// once; eventually consistent reads cost half) and the seeds' sums.
func TestSeedsReadSums(t *testing.T) {
	cases := []struct {
		name      string
		d         *model.Design
		perReq    []float64 // per pattern, in order
		sumPerReq float64
	}{
		{"one query for two items under 4 KB: 0.5 RCU eventually consistent",
			readDesign(2, 1000, query(1, 1, false)), []float64{0.5}, 0.5},
		{"two queries cost 1",
			readDesign(2, 1000, query(1, 1, false), query(2, 1, false)), []float64{0.5, 0.5}, 1},
		{"strongly consistent, the same two items: 1 RCU",
			readDesign(2, 1000, query(1, 1, true)), []float64{1}, 1},
		{"a 1 MB page of 4 KB items: 128 RCU eventually consistent",
			readDesign(300, 4096, query(1, 1, false)), []float64{128}, 128},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mustCompute(t, c.d)
			for i, w := range c.perReq {
				if got := r.Patterns[i].PerRequest.Read; !near(got, w) {
					t.Errorf("pattern %d: %v RCU, want %v", i+1, got, w)
				}
			}
			if !near(r.Totals.PerRequestRead, c.sumPerReq) {
				t.Errorf("together %v RCU, want %v", r.Totals.PerRequestRead, c.sumPerReq)
			}
		})
	}
}

// 5,500 RCU of sustained strongly consistent reads (a 4 KB GetItem, 1 RCU, 5,500
// times a second): $521.95 a month provisioned (5,500 x 730 h x $0.00013) and
// $1,806.75 on-demand (5,500 RRU x 2,628,000 s x $0.125/M). The seeds call the
// second figure "provisioned"; the report labels it on-demand.
func TestSeedsStronglyConsistent5500(t *testing.T) {
	get := model.Pattern{ID: 1, Rate: 5500, Operation: model.OpGetItem, Consistent: true,
		Key: model.Item{"PK": model.Str("P"), "SK": model.Str("S0000")}}
	r := mustCompute(t, readDesign(1, 4096, get))
	pc := r.Patterns[0]
	cases := []struct {
		what      string
		got, want float64
	}{
		{"RCU per request", pc.PerRequest.Read, 1},
		{"RCU per second", pc.PerSecond.Read, 5500},
		{"provisioned $/month", pc.Monthly.Provisioned, 521.95},
		{"on-demand $/month", pc.Monthly.OnDemand, 1806.75},
		{"totals provisioned", r.Totals.Monthly.Provisioned, 521.95},
		{"totals on-demand", r.Totals.Monthly.OnDemand, 1806.75},
	}
	for _, c := range cases {
		if math.Abs(c.got-c.want) > 1e-6 {
			t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
		}
	}
}

// The seeds' video counter (split items by write rate): 1 WCU once split from the
// ~2 KB metadata, 2 WCU on the unsplit item (samples/video-views.yaml, patterns 2
// and 4).
func TestSeedsVideoCounter(t *testing.T) {
	r := mustCompute(t, sample(t, "video-views"))
	cases := []struct {
		id    int
		write float64
	}{{2, 1}, {4, 2}}
	for _, c := range cases {
		if got := byID(t, r, c.id).PerRequest.Write; got != c.write {
			t.Errorf("pattern %d: %v WCU, want %v", c.id, got, c.write)
		}
	}
}

// The seeds' worked example (samples/page-view-poor.yaml against page-view-good.yaml):
// a GSI query (1 RCU) and 20 GetItems batched (20 x 0.5 RCU) = 11 RCU per page view,
// against one Query of 20 ~1 KB items = 2.5 RCU; 4.4x; 5,500 against 1,250 RCU at
// 500 page views a second. The patterns are found by what they do, not by id, so
// that renumbering the samples does not break the sums.
func TestSeedsPageView(t *testing.T) {
	poor := mustCompute(t, sample(t, "page-view-poor"))
	good := mustCompute(t, sample(t, "page-view-good"))
	pq := find(t, poor, model.OpQuery, "GSI1")
	pb := find(t, poor, model.OpBatchGetItem, "")
	gq := find(t, good, model.OpQuery, "")
	poorView := pq.PerRequest.Read + pb.PerRequest.Read
	cases := []struct {
		what      string
		got, want float64
	}{
		{"poor: the GSI query", pq.PerRequest.Read, 1},
		{"poor: the 20 GetItems", pb.PerRequest.Read, 10},
		{"poor: per page view", poorView, 11},
		{"good: per page view", gq.PerRequest.Read, 2.5},
		{"ratio", NewRatio(poorView, gq.PerRequest.Read).X, 4.4},
		{"poor: RCU/s at 500 views/s", pq.PerSecond.Read + pb.PerSecond.Read, 5500},
		{"good: RCU/s at 500 views/s", gq.PerSecond.Read, 1250},
		{"poor: on-demand $/month", pq.Monthly.OnDemand + pb.Monthly.OnDemand, 1806.75},
		{"poor: provisioned $/month", pq.Monthly.Provisioned + pb.Monthly.Provisioned, 521.95},
	}
	for _, c := range cases {
		if math.Abs(c.got-c.want) > 1e-9 {
			t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
		}
	}
	// Side by side, the design totals carry the page view's ratio when the designs
	// hold only the page view's patterns.
	if len(poor.Patterns) == 2 && len(good.Patterns) == 1 {
		if r := Compare(poor, good).PerRequestRead; !near(r.X, 4.4) {
			t.Errorf("--vs per request: %v against %v = %vx, want 4.4x", r.A, r.B, r.X)
		}
	}
}

func find(t *testing.T, r *Report, op model.Operation, index string) PatternCost {
	t.Helper()
	for _, pc := range r.Patterns {
		if pc.Operation == op && pc.IndexName == index {
			return pc
		}
	}
	t.Fatalf("%s has no %s on %q", r.Design, op, index)
	return PatternCost{}
}

// `stwb cost` works on every sample design: every pattern priced, nothing negative,
// the storage of every entity with samples sized.
func TestEverySample(t *testing.T) {
	for _, s := range samples.List() {
		t.Run(s.Name, func(t *testing.T) {
			d := sample(t, s.Name)
			e, err := engine.FromDesign(d)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Compute(Input{Design: d, Results: e.RunAll(d.Patterns, engine.RunOptions{})})
			if err != nil {
				t.Fatal(err)
			}
			for _, pc := range r.Patterns {
				if pc.Err != nil && pc.Err.Type == "ValidationException" {
					t.Errorf("pattern %d: %v", pc.ID, pc.Err)
				}
				if pc.PerRequest.Read < 0 || pc.PerRequest.Write < 0 || pc.Monthly.OnDemand < 0 {
					t.Errorf("pattern %d: negative %+v", pc.ID, pc)
				}
			}
			if r.Storage.Bytes <= 0 {
				t.Errorf("storage %d bytes", r.Storage.Bytes)
			}
		})
	}
}
