package review_test

import (
	"strings"
	"testing"

	"stwb/analysis"
	"stwb/designfile"
)

// A transaction's ConditionCheck reads its item and writes nothing
// (transaction-apis.html), so it adds no write rate to the checked item's entity:
// a constant index key of an entity only ever checked draws no low-cardinality-key
// finding; the same transaction updating the item does.
func TestConditionCheckWritesNothing(t *testing.T) {
	src := `version: 1
name: t
table:
  name: t-data
  key: {partition: PK, sort: SK}
  indexes:
    - {name: GSI1, key: {partition: GSI1PK, sort: GSI1SK}, projection: keys-only}
entities:
  - {name: e1, keys: {PK: "A#{x}", SK: P, GSI1PK: C, GSI1SK: "A#{x}"}, attributes: {x: S, n: N}, count: 1000000}
  - {name: e2, keys: {PK: "A#{x}", SK: "L#{y}"}, attributes: {x: S, y: S}, count: 5000000}
items:
  - {type: e1, x: "1", n: 0}
patterns:
  - id: 1
    rate: 500
    operation: TransactWriteItems
    actions:
      - {ACTION: {key: {PK: "A#1", SK: P}, BODY}}
      - {put: {type: e2, x: "1", y: "9", PK: "A#1", SK: "L#9"}}
  - {id: 2, operation: Query, index: GSI1, key: "GSI1PK = :c", values: {":c": C}, limit: 10}
  - {id: 3, operation: Query, key: "PK = :a", values: {":a": "A#1"}, limit: 10}
`
	for _, c := range []struct {
		action, body string
		want         bool
	}{
		{"check", `condition: "attribute_exists(PK)"`, false},
		{"update", `update: "SET n = :n", values: {":n": 1}`, true},
	} {
		s := strings.NewReplacer("ACTION", c.action, "BODY", c.body).Replace(src)
		f, err := designfile.Parse("t.yaml", []byte(s))
		if err != nil {
			t.Fatal(err)
		}
		a, _ := analysis.Run(f.Design, analysis.Options{Review: true})
		got := false
		for _, fd := range a.Findings {
			got = got || fd.Rule == "low-cardinality-key" && fd.Entity == "e1"
		}
		if got != c.want {
			t.Errorf("%s: low-cardinality-key on e1 %v, want %v; %+v", c.action, got, c.want, a.Findings)
		}
	}
}
