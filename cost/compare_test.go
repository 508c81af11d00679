package cost

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"stwb/engine"
	"stwb/model"
)

func TestNewRatio(t *testing.T) {
	cases := []struct {
		a, b    float64
		x       float64
		defined bool
	}{
		{11, 2.5, 4.4, true},
		{2.5, 11, 2.5 / 11, true},
		{0, 0, 1, true},
		{1, 0, 0, false},
		{0, 3, 0, true},
	}
	for _, c := range cases {
		r := NewRatio(c.a, c.b)
		if r.Defined != c.defined || math.Abs(r.X-c.x) > 1e-12 {
			t.Errorf("NewRatio(%v, %v) = %+v, want %v defined=%v", c.a, c.b, r, c.x, c.defined)
		}
	}
}

// The seeds' worked example, side by side: the poor design serves a page view with
// a GSI query (1 RCU) and 20 GetItems (batched: 20 x 0.5 RCU); the good one with one
// Query of 20 ~1 KB items (2.5 RCU). 11 against 2.5 per page view, 4.4x; at 500 page
// views a second, 5,500 against 1,250 RCU.
func TestCompareSeedsPageView(t *testing.T) {
	poor := testDesign()
	poor.Patterns = []model.Pattern{
		{ID: 1, Name: "List a customer's orders", Rate: 500, Operation: model.OpQuery, Index: "GSI1"},
		{ID: 2, Name: "Fetch the orders", Rate: 500, Operation: model.OpBatchGetItem},
	}
	good := testDesign()
	good.Patterns = []model.Pattern{{ID: 1, Name: "List a customer's orders", Rate: 500, Operation: model.OpQuery}}
	a, err := Compute(Input{Design: poor, Results: resultsByID{
		1: {Pages: []engine.Page{{Consumed: engine.Capacity{Indexes: map[string]engine.Units{"GSI1": {Read: 1}}}}}},
		2: {Consumed: capOf(10, 0, nil)}}.of(poor)})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Compute(Input{Design: good, Results: resultsByID{1: {Pages: []engine.Page{{Consumed: capOf(2.5, 0, nil)}}}}.of(good)})
	if err != nil {
		t.Fatal(err)
	}
	c := Compare(a, b)
	if len(c.Rows) != 2 || c.Rows[0].ID != 1 || c.Rows[1].B != nil || c.Rows[1].A == nil {
		t.Fatalf("rows %+v", c.Rows)
	}
	if r := c.Rows[0].Read; !near(r.X, 0.4) {
		t.Errorf("pattern 1: %v against %v, ratio %v; want 0.4", r.A, r.B, r.X)
	}
	if r := c.Rows[1].Read; r.Defined {
		t.Errorf("pattern 2 only in A: ratio %+v, want undefined", r)
	}
	if r := c.PerRequestRead; !near(r.A, 11) || !near(r.B, 2.5) || !near(r.X, 4.4) {
		t.Errorf("per page view %v against %v = %vx, want 11 against 2.5 = 4.4x", r.A, r.B, r.X)
	}
	if r := c.PerSecondRead; !near(r.A, 5500) || !near(r.B, 1250) {
		t.Errorf("per second %v against %v, want 5,500 against 1,250", r.A, r.B)
	}
	// 5,500 RCU of eventually consistent reads on-demand: 5,500 RRU/s x 2,628,000 s x
	// $0.125/M = $1,806.75 (not "provisioned", as the seeds label it).
	if !near(a.Totals.Monthly.OnDemand, 1806.75) {
		t.Errorf("poor on-demand %v, want 1,806.75", a.Totals.Monthly.OnDemand)
	}
	// Provisioned: the table needs 5,000 RCU and GSI1 500, together 5,500 x 730 h x $0.00013.
	if !near(a.Totals.Monthly.Provisioned, 521.95) {
		t.Errorf("poor provisioned %v, want 521.95", a.Totals.Monthly.Provisioned)
	}
	js, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"perRequestRead":{"a":11,"b":2.5,"ratio":4.4`) {
		t.Errorf("JSON lacks the per-request ratio: %s", js)
	}
}
