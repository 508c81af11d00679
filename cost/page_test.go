package cost

import (
	"math"
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
