package designfile

import (
	"strings"
	"testing"

	"stwb/model"
)

const productionFields = `version: 1
name: t
skew: {zipf: 1.2}
table:
  name: t-data
  key: {partition: PK, sort: SK}
  indexes:
    - {name: GSI1, key: {partition: GSI1PK, sort: GSI1SK}, projection: all}
entities:
  - name: e
    keys: {PK: "O#{x}", SK: M, GSI1PK: "S#{y}#{d}", GSI1SK: "{x}"}
    attributes: {x: S, y: S}
    values: {y: 4, d: period}
patterns:
  - id: 1
    operation: GetItem
    key: {PK: "O#1", SK: M}
    partitions: {table: 100, GSI1: 4}
    skew: {hottest: 0.25}
  - id: 2
    operation: GetItem
    key: {PK: "O#1", SK: M}
    partitions: 7
`

// The production model's fields (values, partitions per index, skew) are read,
// checked and written back as they were read.
func TestProductionFieldsRoundTrip(t *testing.T) {
	f, err := Parse("t.yaml", []byte(productionFields))
	if err != nil {
		t.Fatal(err)
	}
	check := func(d *model.Design) {
		t.Helper()
		e := d.Entities[0]
		if e.Values["y"] != (model.VarValues{N: 4}) || e.Values["d"] != (model.VarValues{Period: true}) {
			t.Errorf("values %v", e.Values)
		}
		if d.Skew.Zipf == nil || *d.Skew.Zipf != 1.2 {
			t.Errorf("design skew %+v", d.Skew)
		}
		p := d.Patterns[0]
		if p.PartitionsOn["table"] != 100 || p.PartitionsOn["GSI1"] != 4 || p.Partitions != 0 || p.Skew.Hottest != 0.25 {
			t.Errorf("pattern 1: %+v %+v", p.PartitionsOn, p.Skew)
		}
		if d.Patterns[1].Partitions != 7 || d.Patterns[1].PartitionsOn != nil {
			t.Errorf("pattern 2: %d %v", d.Patterns[1].Partitions, d.Patterns[1].PartitionsOn)
		}
	}
	check(f.Design)
	out, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	f2, err := Parse("t.yaml", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	check(f2.Design)
	// Written from the values alone, not from what was read.
	out, err = (&File{Design: f.Design}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if f3, err := Parse("t.yaml", out); err != nil {
		t.Fatalf("%v\n%s", err, out)
	} else {
		check(f3.Design)
	}
}

// Each mistake in them is an error naming the field and the fix.
func TestProductionFieldErrors(t *testing.T) {
	cases := []struct{ from, to, want string }{
		{"values: {y: 4, d: period}", "values: {y: 0}", "values.y must be a count or period"},
		{"values: {y: 4, d: period}", "values: {z: 4}", "values.z is not a variable of its key templates"},
		{"skew: {zipf: 1.2}", "skew: {zipf: 11}", "skew.zipf 11 is out of range"},
		{"skew: {zipf: 1.2}", "skew: {zipf: 1, hottest: 0.5}", "zipf and hottest both given"},
		{"skew: {hottest: 0.25}", "skew: {hottest: 1.5}", "skew.hottest 1.5 is out of range"},
		{"partitions: {table: 100, GSI1: 4}", "partitions: {table: 100, GSI9: 4}", "partitions.GSI9 names no GSI"},
		{"partitions: {table: 100, GSI1: 4}", "partitions: {table: 0}", "partitions.table must be a whole number of at least 1"},
	}
	for _, c := range cases {
		src := strings.Replace(productionFields, c.from, c.to, 1)
		_, err := Parse("t.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.to, err, c.want)
		}
	}
}
