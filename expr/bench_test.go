package expr

import "testing"

// typicalFilter is a filter as a pattern writes one: a placeholder name, a range, an
// existence test and a size.
const typicalFilter = "#st = :active AND n BETWEEN :n1 AND :n100 AND attribute_exists(s) AND size(l) > :n2"

// BenchmarkCompileEvalFilter compiles a typical filter and evaluates it on one item,
// as the engine does once per request. Target: a few microseconds and a few dozen
// allocations, so that compiling per request never shows next to a Query.
func BenchmarkCompileEvalFilter(b *testing.B) {
	item := testItem()
	names := map[string]string{"#st": "status"}
	b.ReportAllocs()
	for b.Loop() {
		ctx := NewContext(names, testValues)
		c, err := CompileFilter(typicalFilter, ctx)
		if err != nil || !c.Eval(item) {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvalFilter is the per-item cost of a compiled filter. Target: well under
// a microsecond and no allocations, since a Scan evaluates it on every item read.
func BenchmarkEvalFilter(b *testing.B) {
	item := testItem()
	c, err := CompileFilter(typicalFilter, NewContext(map[string]string{"#st": "status"}, testValues))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if !c.Eval(item) {
			b.Fatal("filter should hold")
		}
	}
}

// BenchmarkCompileApplyUpdate compiles and applies a typical update.
func BenchmarkCompileApplyUpdate(b *testing.B) {
	item := testItem()
	b.ReportAllocs()
	for b.Loop() {
		u, err := CompileUpdate("SET #st = :active, n = n + :n1 REMOVE s ADD ns :ns3", newTestContext())
		if err != nil {
			b.Fatal(err)
		}
		if _, err := u.Apply(item); err != nil {
			b.Fatal(err)
		}
	}
}
