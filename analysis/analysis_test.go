package analysis

import (
	"strings"
	"testing"

	"stwb/engine"
	"stwb/samples"
)

// The cost report and the review read the results they are given and run no
// pattern again: a result made by hand, which the engine would never give for the
// pattern, shows in both.
func TestCostAndReviewReadTheGivenResults(t *testing.T) {
	f, err := samples.Load("orders")
	if err != nil {
		t.Fatal(err)
	}
	d := f.Design
	e, err := engine.FromDesign(d)
	if err != nil {
		t.Fatal(err)
	}
	results := e.RunAll(d.Patterns, engine.RunOptions{})
	refused := &engine.Error{Type: "ValidationException", Message: "made by the test"}
	results[0] = &engine.Result{PatternID: d.Patterns[0].ID, Operation: d.Patterns[0].Operation, Err: refused}

	a := Of(d, results, Options{Review: true})
	if a.CostErr != nil {
		t.Fatal(a.CostErr)
	}
	if got := a.Cost.Patterns[0].Err; got != refused {
		t.Errorf("cost priced pattern %d from its own run (err %v), not from the result given", d.Patterns[0].ID, got)
	}
	found := false
	for _, f := range a.Findings {
		if f.Rule == "pattern-error" && f.Pattern == d.Patterns[0].ID && strings.Contains(f.Message, "made by the test") {
			found = true
		}
	}
	if !found {
		t.Errorf("the review did not read the result given: %+v", a.Findings)
	}
	if !a.Reviewed || a.Results[0] != results[0] {
		t.Error("the analysis does not hold what it read")
	}
}

// Without prices for the region the design is unpriced, and still reviewed.
func TestUnpricedRegionIsStillReviewed(t *testing.T) {
	f, err := samples.Load("orders")
	if err != nil {
		t.Fatal(err)
	}
	d := f.Design
	a, err := Run(d, Options{Region: "xx-nowhere-1", Review: true})
	if err != nil {
		t.Fatal(err)
	}
	if a.Cost != nil || a.CostErr == nil {
		t.Errorf("an unknown region was priced: %v %v", a.Cost, a.CostErr)
	}
	if !a.Reviewed || len(a.Results) != len(d.Patterns) {
		t.Errorf("reviewed %v, %d results for %d patterns", a.Reviewed, len(a.Results), len(d.Patterns))
	}
}
