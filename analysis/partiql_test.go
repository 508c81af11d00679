package analysis_test

import (
	"reflect"
	"testing"

	"stwb/analysis"
	"stwb/model"
	"stwb/samples"
)

// A PartiQL pattern is run, priced and reviewed as the request its statement
// stands for: each statement below says what one of the orders sample's patterns
// says with expressions, and must get the same items, capacity, cost and load.
func TestPartiQLPatternsAreTheirStandIns(t *testing.T) {
	f, err := samples.Load("orders")
	if err != nil {
		t.Fatal(err)
	}
	d := f.Design
	byID := map[int]model.Pattern{}
	for _, p := range d.Patterns {
		byID[p.ID] = p
	}
	statements := []struct {
		twin      int
		statement string
		params    []model.Value
		op        model.Operation
	}{
		{2, `SELECT * FROM "orders-service-data" WHERE PK = ? AND begins_with(SK, ?) ORDER BY SK DESC`,
			[]model.Value{model.Str("CUST#42"), model.Str("ORDER#")}, model.OpQuery},
		{4, `SELECT * FROM "orders-service-data"."GSI1" WHERE GSI1PK = 'STATUS#SHIPPED' ORDER BY GSI1SK DESC`, nil, model.OpQuery},
		{7, `UPDATE "orders-service-data" SET status = 'SHIPPED' SET GSI1PK = 'STATUS#SHIPPED' SET version = version + 1 WHERE PK = 'ORDER#e51f' AND SK = 'METADATA' AND version = 3`, nil, model.OpUpdateItem},
	}
	for i, s := range statements {
		twin := byID[s.twin]
		d.Patterns = append(d.Patterns, model.Pattern{ID: 100 + i, Name: "PartiQL twin of " + twin.Name, Rate: twin.Rate,
			Operation: model.OpExecuteStatement, Statement: s.statement, Parameters: s.params, Limit: twin.Limit})
	}
	d.Patterns = append(d.Patterns, model.Pattern{ID: 200, Name: "orders over 30", Operation: model.OpExecuteStatement,
		Statement: `SELECT * FROM "orders-service-data" WHERE total > 30`},
		// Two partition key values: a Query each, not a scan.
		model.Pattern{ID: 300, Name: "an order and a payment", Operation: model.OpExecuteStatement,
			Statement: `SELECT * FROM "orders-service-data" WHERE PK IN ['ORDER#9f2a', ?] AND SK <> 'ITEM#002'`, Parameters: []model.Value{model.Str("PAY#ch_3Ab")}})
	a, err := analysis.Run(d, analysis.Options{Review: true})
	if err != nil {
		t.Fatal(err)
	}
	at := map[int]int{}
	for i, p := range d.Patterns {
		at[p.ID] = i
	}
	for i, s := range statements {
		got, want := a.Results[at[100+i]], a.Results[at[s.twin]]
		if got.Err != nil || want.Err != nil {
			t.Fatalf("pattern %d: %v; twin %d: %v", 100+i, got.Err, s.twin, want.Err)
		}
		if got.Operation != s.op || got.StandIn == nil || got.StandIn.Operation != s.op {
			t.Errorf("pattern %d ran as %s, want %s", 100+i, got.Operation, s.op)
		}
		if len(got.Items) != len(want.Items) || got.Consumed.Total() != want.Consumed.Total() || len(got.Changes) != len(want.Changes) {
			t.Errorf("pattern %d: %d items, %g units, %d changes; its twin %d: %d items, %g units, %d changes", 100+i,
				len(got.Items), got.Consumed.Total(), len(got.Changes), s.twin, len(want.Items), want.Consumed.Total(), len(want.Changes))
		}
		for j := range min(len(got.Items), len(want.Items)) {
			if !got.Items[j].Equal(want.Items[j]) {
				t.Errorf("pattern %d item %d: %v, twin's %v", 100+i, j, got.Items[j], want.Items[j])
			}
		}
		pc, tc := a.Cost.Patterns[at[100+i]], a.Cost.Patterns[at[s.twin]]
		if !reflect.DeepEqual(pc.PerRequest, tc.PerRequest) || pc.Monthly != tc.Monthly || pc.Operation != s.op {
			t.Errorf("pattern %d priced %+v %+v as %s; its twin %d %+v %+v", 100+i, pc.PerRequest, pc.Monthly, pc.Operation, s.twin, tc.PerRequest, tc.Monthly)
		}
	}
	scan := a.Results[at[200]]
	if scan.Err != nil || scan.Operation != model.OpScan || scan.ScannedCount <= scan.Count {
		t.Errorf("pattern 200: %v as %s, %d of %d scanned", scan.Err, scan.Operation, scan.Count, scan.ScannedCount)
	}
	in := a.Results[at[300]]
	if in.Err != nil || in.Operation != model.OpQuery || len(in.Requests) != 2 || in.Count != 3 || in.StandIn.Fanout == nil {
		t.Errorf("pattern 300: %v as %s, %d requests, %d items", in.Err, in.Operation, len(in.Requests), in.Count)
	}
	if pc := a.Cost.Patterns[at[300]]; pc.Requests != 2 || pc.PerRequest.Read != 1 {
		t.Errorf("pattern 300 priced as %d requests, %g RCU; want 2 Queries of 0.5", pc.Requests, pc.PerRequest.Read)
	}
	rules := map[string][]int{}
	for _, fd := range a.Findings {
		rules[fd.Rule] = append(rules[fd.Rule], fd.Pattern)
	}
	if got := rules["partiql-full-scan"]; len(got) != 1 || got[0] != 200 {
		t.Errorf("partiql-full-scan on %v, want pattern 200 alone", got)
	}
	for _, id := range rules["scan-in-request-path"] {
		if id == 200 {
			t.Error("scan-in-request-path also names the PartiQL scan")
		}
	}
	for _, id := range rules["pattern-error"] {
		t.Errorf("pattern %d is an error", id)
	}
}
