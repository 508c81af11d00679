package expr

import (
	"reflect"
	"testing"

	"stwb/model"
)

func TestDisjunction(t *testing.T) {
	values := map[string]model.Value{":a": model.Num("1"), ":b": model.Str("x"), ":c": model.Str("y"), ":t": model.Bool(true)}
	names := map[string]string{"#n": "number"}
	path := func(n string) Path { return Path{{Name: n}} }
	cases := []struct {
		src  string
		want [][]Test
		ok   bool
	}{
		{"seats > :a", [][]Test{{{path("seats"), ">", []model.Value{model.Num("1")}}}}, true},
		{"(seats > :a AND #n IN (:b, :c)) OR isFull = :t", [][]Test{
			{{path("seats"), ">", []model.Value{model.Num("1")}}, {path("number"), "IN", []model.Value{model.Str("x"), model.Str("y")}}},
			{{path("isFull"), "=", []model.Value{model.Bool(true)}}}}, true},
		{"a BETWEEN :b AND :c AND begins_with(d, :b)", [][]Test{{
			{path("a"), "BETWEEN", []model.Value{model.Str("x"), model.Str("y")}},
			{path("d"), "begins_with", []model.Value{model.Str("x")}}}}, true},
		{"attribute_exists(a.b)", [][]Test{{{Path{{Name: "a"}, {Name: "b"}}, "attribute_exists", nil}}}, true},
		{"NOT a = :a", nil, false},
		{"a = :a AND (b = :b OR c = :c)", nil, false},
		{":a = a", nil, false},
		{"a = b", nil, false},
		{"size(a) > :a", nil, false},
	}
	for _, c := range cases {
		cond, err := CompileFilter(c.src, NewContext(names, values))
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		got, ok := cond.Disjunction()
		if ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %+v %v, want %+v %v", c.src, got, ok, c.want, c.ok)
		}
	}
}
