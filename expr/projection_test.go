package expr

import (
	"reflect"
	"testing"

	"stwb/model"
)

// Projections, following
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.ProjectionExpressions.html
// and dynalite's mapPaths (db/index.js) for how nested paths build the result: maps
// keep the selected keys, lists keep the selected elements in index order.
func TestProjectionApply(t *testing.T) {
	m := func(kv ...any) model.Value {
		mm := map[string]model.Value{}
		for i := 0; i < len(kv); i += 2 {
			mm[kv[i].(string)] = kv[i+1].(model.Value)
		}
		return model.Map(mm)
	}
	cases := []struct {
		src  string
		want model.Item
	}{
		{"s", model.Item{"s": model.Str("héllo")}},
		{"s, n, gone", model.Item{"s": model.Str("héllo"), "n": model.Num("10")}},
		{"#st, #dot", model.Item{"status": model.Str("active"), "a.b": model.Str("dotted")}},
		{"m.a.b[2].c", model.Item{"m": m("a", m("b", model.List(m("c", model.Str("deep")))))}},
		{"m.a.b[1], m.e", model.Item{"m": m("a", m("b", model.List(model.Num("2"))), "e", model.Map(nil))}},
		// Elements come back in index order whatever the order written.
		{"l[2].x, l[0]", model.Item{"l": model.List(model.Str("a"), m("x", model.Num("1")))}},
		{"l[9], m.gone, s.x", model.Item{}},
		{"ss, ns, bs", model.Item{"ss": model.StrSet("a", "b"), "ns": model.NumSet("1", "2"),
			"bs": model.BinSet([]byte{9}, []byte{8})}},
	}
	item := testItem()
	for _, c := range cases {
		p, err := CompileProjection(c.src, newTestContext())
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		got := p.Apply(item)
		if !got.Equal(c.want) {
			t.Errorf("%q:\n got %v\nwant %v", c.src, got, c.want)
		}
	}
	// The result shares nothing with the item it came from.
	p, _ := CompileProjection("l", newTestContext())
	got := p.Apply(item)
	got["l"].List[0] = model.Str("changed")
	if item["l"].List[0].Str != "a" {
		t.Fatal("Apply's result shares a list with the item")
	}
}

// Projection errors with DynamoDB's wording (dynalite db/projectionParser.pegjs).
func TestProjectionErrors(t *testing.T) {
	cases := []struct {
		src  string
		want string
	}{
		{"", "Invalid ProjectionExpression: The expression can not be empty;"},
		{"a, a.b", "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a, b]"},
		{"a.b, a", "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a, b], path two: [a]"},
		{"s, s", "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [s], path two: [s]"},
		{"l[1], l[1].x", "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [l, [1]], path two: [l, [1], x]"},
		{"a.b, a[0]", "Invalid ProjectionExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, b], path two: [a, [0]]"},
		{"name", "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: name"},
		{"#nope", "Invalid ProjectionExpression: An expression attribute name used in the document path is not defined; attribute name: #nope"},
		{"s,", `Invalid ProjectionExpression: Syntax error; token: "<EOF>", near: ","`},
		{"first-name", `Invalid ProjectionExpression: Syntax error; token: "-", near: "first-name"`},
		{"l[x]", `Invalid ProjectionExpression: Syntax error; token: "x", near: "[x]"`},
		{"s n", `Invalid ProjectionExpression: Syntax error; token: "n", near: "s n"`},
		{":v", `Invalid ProjectionExpression: Syntax error; token: ":v", near: ":v"`},
		// A reserved word wins over an overlap, as in DynamoDB.
		{"a, a, size", "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: size"},
	}
	for _, c := range cases {
		_, err := CompileProjection(c.src, newTestContext())
		checkErr(t, c.src, err, c.want)
	}
}

func TestProjectionAttributes(t *testing.T) {
	cases := []struct {
		src  string
		want []string
	}{
		{"s", []string{"s"}},
		{"m.a, #st, l[0], m.e", []string{"l", "m", "status"}},
	}
	for _, c := range cases {
		p, err := CompileProjection(c.src, newTestContext())
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Attributes(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %v, want %v", c.src, got, c.want)
		}
	}
}
