package designfile

import (
	"strings"
	"testing"

	"stwb/model"
)

// An ExecuteStatement pattern's statement and parameters are read, and saved so
// that reading the file again gives the same pattern.
func TestStatementPatternRoundTrips(t *testing.T) {
	src := `version: 1
name: shop
table:
  name: shop-data
  key: {partition: PK, sort: SK}
patterns:
  - id: 1
    name: a customer's orders
    operation: ExecuteStatement
    statement: 'SELECT * FROM "shop-data" WHERE PK = ? AND begins_with(SK, ''ORDER#'')'
    parameters: ["CUST#42", 7, {b: true}]
    limit: 25
  - id: 2
    name: no parameters
    operation: ExecuteStatement
    statement: DELETE FROM "shop-data" WHERE PK = 'a' AND SK = 'b'
    parameters: []
`
	f, err := Parse("shop.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p := f.Design.Patterns[0]
	want := []model.Value{model.Str("CUST#42"), model.Num("7"), model.Map(map[string]model.Value{"b": model.Bool(true)})}
	if p.Statement != `SELECT * FROM "shop-data" WHERE PK = ? AND begins_with(SK, 'ORDER#')` || len(p.Parameters) != 3 {
		t.Fatalf("read %q %v", p.Statement, p.Parameters)
	}
	for i := range want {
		if !p.Parameters[i].Equal(want[i]) {
			t.Errorf("parameter %d: %v, want %v", i, p.Parameters[i], want[i])
		}
	}
	if q := f.Design.Patterns[1]; q.Parameters == nil || len(q.Parameters) != 0 || !q.IsWrite() || p.IsWrite() {
		t.Errorf("pattern 2: parameters %#v, writes %v; pattern 1 writes %v", q.Parameters, q.IsWrite(), p.IsWrite())
	}
	out, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "statement:") {
		t.Fatalf("saved without the statement:\n%s", out)
	}
	g, err := Parse("shop.yaml", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for i := range f.Design.Patterns {
		a, b := f.Design.Patterns[i].WithoutPos(), g.Design.Patterns[i].WithoutPos()
		if a.Statement != b.Statement || len(a.Parameters) != len(b.Parameters) || (a.Parameters == nil) != (b.Parameters == nil) {
			t.Errorf("pattern %d after saving: %q %v, was %q %v", a.ID, b.Statement, b.Parameters, a.Statement, a.Parameters)
		}
	}
}

// A statement on another operation, and an ExecuteStatement without one, are
// refused with where and what to do.
func TestStatementFieldErrors(t *testing.T) {
	for _, c := range []struct{ pattern, want string }{
		{"operation: ExecuteStatement", "pattern 1: ExecuteStatement needs a statement"},
		{"operation: Scan\n    statement: SELECT * FROM t", "pattern 1: Scan has no statement"},
	} {
		src := "version: 1\nname: x\ntable:\n  name: tbl\n  key: {partition: PK}\npatterns:\n  - id: 1\n    " + c.pattern + "\n"
		_, err := Parse("x.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.pattern, err, c.want)
		}
	}
}
