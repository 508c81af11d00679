package expr

import (
	"fmt"
	"testing"

	"stwb/model"
)

// TestKeptKeyConditionAgrees checks the key conditions kept by their text
// (keyConds): a text first compiled cleanly with one request's maps, then compiled
// with another's, must give what a fresh parse with the other maps gives, the same
// KeyCondition or the same error, and mark the same names and values used. The
// other maps are those that change what the parse decides: a placeholder left
// undefined, a value of another type, BETWEEN's bounds out of order or of two
// types, two #names naming one attribute, a #name naming another attribute.
func TestKeptKeyConditionAgrees(t *testing.T) {
	s, n := model.Str, model.Num
	type maps struct {
		names  map[string]string
		values map[string]model.Value
	}
	cases := []struct {
		src    string
		schema KeySchema
		primer maps // a request that compiles cleanly
		others []maps
	}{
		{"#p = :a AND #s = :b", schemaSN,
			maps{map[string]string{"#p": "pk", "#s": "sk"}, map[string]model.Value{":a": s("x"), ":b": s("y")}},
			[]maps{
				{map[string]string{"#p": "pk", "#s": "sk"}, map[string]model.Value{":a": s("q"), ":b": s("r")}},
				{map[string]string{"#p": "pk", "#s": "pk"}, map[string]model.Value{":a": s("q"), ":b": s("r")}},
				{map[string]string{"#p": "pk", "#s": "other"}, map[string]model.Value{":a": s("q"), ":b": s("r")}},
				{map[string]string{"#p": "pk"}, map[string]model.Value{":a": s("q"), ":b": s("r")}},
				{map[string]string{"#p": "pk", "#s": "sk"}, map[string]model.Value{":a": s("q")}},
				{map[string]string{"#p": "pk", "#s": "sk"}, map[string]model.Value{":a": s("q"), ":b": n("1")}},
				{map[string]string{"#p": "pk", "#s": "sk", "#x": "x"}, map[string]model.Value{":a": s("q"), ":b": s("r"), ":c": s("c")}},
				{nil, nil},
			}},
		{"pk = :a AND n BETWEEN :lo AND :hi", schemaNN,
			maps{nil, map[string]model.Value{":a": s("x"), ":lo": n("1"), ":hi": n("5")}},
			[]maps{
				{nil, map[string]model.Value{":a": s("x"), ":lo": n("2"), ":hi": n("30")}},
				{nil, map[string]model.Value{":a": s("x"), ":lo": n("30"), ":hi": n("2")}},
				{nil, map[string]model.Value{":a": s("x"), ":lo": n("3"), ":hi": s("4")}},
				{nil, map[string]model.Value{":a": s("x"), ":lo": s("3"), ":hi": s("4")}},
				{nil, map[string]model.Value{":a": n("1"), ":lo": n("3"), ":hi": n("4")}},
			}},
		{":b <= sk AND pk = :a", schemaSN,
			maps{nil, map[string]model.Value{":a": s("x"), ":b": s("y")}},
			[]maps{
				{nil, map[string]model.Value{":a": s("q"), ":b": s("r")}},
				{nil, map[string]model.Value{":a": s("q"), ":b": model.Value{Type: model.TypeSS, List: []model.Value{s("r")}}}},
				{nil, map[string]model.Value{":b": s("r")}},
			}},
		{"pk = :a AND begins_with(#s, :b)", schemaSN,
			maps{map[string]string{"#s": "sk"}, map[string]model.Value{":a": s("x"), ":b": s("y")}},
			[]maps{
				{map[string]string{"#s": "sk"}, map[string]model.Value{":a": s("q"), ":b": s("r")}},
				{map[string]string{"#s": "sk"}, map[string]model.Value{":a": s("q"), ":b": n("7")}},
				{map[string]string{"#s": "pk"}, map[string]model.Value{":a": s("q"), ":b": s("r")}},
				{map[string]string{"#s": ""}, map[string]model.Value{":a": s("q"), ":b": s("r")}},
			}},
	}
	compile := func(src string, m maps, schema KeySchema) string {
		var ctx *Context
		if m.names != nil || m.values != nil {
			ctx = NewContext(m.names, m.values)
		}
		kc, err := CompileKeyCondition(src, ctx, schema)
		unused := "<nil context>"
		if ctx != nil {
			unused = fmt.Sprint(ctx.CheckUnused())
		}
		if err != nil {
			return fmt.Sprintf("error %v; unused %s", err, unused)
		}
		return fmt.Sprintf("%#v; unused %s", *kc, unused)
	}
	forget := func() { keptKeyConds.kept = map[string][]keyCond{} }
	for _, c := range cases {
		for i, other := range c.others {
			forget()
			want := compile(c.src, other, c.schema)
			forget()
			if primed := compile(c.src, c.primer, c.schema); len(keptKeyConds.kept) != 1 {
				t.Fatalf("%q: the primer was not kept: %s", c.src, primed)
			}
			if got := compile(c.src, other, c.schema); got != want {
				t.Errorf("%q, maps %d: kept parse gives\n  %s\nfresh parse gives\n  %s", c.src, i, got, want)
			}
		}
	}
	forget()
}

// TestKeptKeyConditionsBounded checks that texts beyond maxKept are parsed
// and answered but not kept.
func TestKeptKeyConditionsBounded(t *testing.T) {
	keptKeyConds.kept = map[string][]keyCond{}
	defer func() { keptKeyConds.kept = map[string][]keyCond{} }()
	values := map[string]model.Value{":a": model.Str("x")}
	for i := range maxKept + 10 {
		src := fmt.Sprintf("pk = :a AND sk%d = :a", i) // refused by the schema, kept as parsed
		_, _ = CompileKeyCondition(src, NewContext(nil, values), schemaSN)
	}
	if n := len(keptKeyConds.kept); n != maxKept {
		t.Fatalf("kept %d texts, want %d", n, maxKept)
	}
}
