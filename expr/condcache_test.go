package expr

import (
	"fmt"
	"strings"
	"testing"

	"stwb/model"
)

// forgetKept empties the caches of conditions, filters and projections kept by
// their text.
func forgetKept() {
	keptConditions.kept = map[string]*keptCondition{}
	keptFilters.kept = map[string]*keptCondition{}
	keptProjections.kept = map[string]*keptProjection{}
}

// TestKeptConditionAgrees checks the conditions, filters and projections kept by
// their text (condcache.go, CompileProjection): a text first compiled cleanly with
// one request's maps, then compiled with another's, must give what a fresh parse
// with the other maps gives: the same attributes and the same verdict on every item
// (so the other request's values, not the primer's), or the same projected items,
// or the same error, and the same names and values marked used. The other maps
// change the values, and what the parse decides: a placeholder left undefined, a
// value of another type, a #name naming another attribute, attribute_type's type
// name, BETWEEN's bounds out of order. The first other maps of each case differ
// only in values (for a projection: are the same), and must be bound without a
// parse.
func TestKeptConditionAgrees(t *testing.T) {
	s, n := model.Str, model.Num
	ss := model.StrSet
	type maps struct {
		names  map[string]string
		values map[string]model.Value
	}
	items := []model.Item{nil,
		{"pk": s("p"), "status": s("A"), "other": s("B"), "n": n("4"), "s": s("ORDER#1"), "tags": ss("a", "b"),
			"l": model.List(s("w"), s("x"), s("y")), "m": model.Map(map[string]model.Value{"k": s("v")})},
		{"pk": s("q"), "status": s("B"), "n": n("40"), "s": s("CUST#1"), "tags": ss("c"), "l": model.List(s("w")),
			"m": s("not a map"), "x": n("2")},
		{"status": s("C"), "n": n("7"), "x": s("2"), "l": model.List()},
	}
	statusA := map[string]string{"#s": "status"}
	cases := []struct {
		kind   string // condition, filter or projection
		src    string
		primer maps // a request that compiles cleanly
		others []maps
	}{
		{"condition", "attribute_not_exists(pk) OR #s = :old", maps{statusA, map[string]model.Value{":old": s("A")}},
			[]maps{
				{statusA, map[string]model.Value{":old": s("B")}},
				{map[string]string{"#s": "other"}, map[string]model.Value{":old": s("B")}},
				{map[string]string{"#s": "pk"}, map[string]model.Value{":old": s("B")}},
				{statusA, map[string]model.Value{":old": n("3")}},
				{statusA, nil},
				{nil, map[string]model.Value{":old": s("B")}},
				{map[string]string{"#s": "status", "#x": "x"}, map[string]model.Value{":old": s("B"), ":y": s("y")}},
				{nil, nil},
			}},
		{"filter", "#s = :st AND n BETWEEN :lo AND :hi AND attribute_type(#m, :t) AND begins_with(s, :p) AND size(l) > :two",
			maps{map[string]string{"#s": "status", "#m": "m"}, map[string]model.Value{":st": s("A"), ":lo": n("1"), ":hi": n("10"),
				":t": s("M"), ":p": s("ORDER#"), ":two": n("2")}},
			[]maps{
				{map[string]string{"#s": "status", "#m": "m"}, map[string]model.Value{":st": s("B"), ":lo": n("30"), ":hi": n("50"),
					":t": s("S"), ":p": s("CUST#"), ":two": n("0")}},
				{map[string]string{"#s": "status", "#m": "m"}, map[string]model.Value{":st": s("A"), ":lo": n("10"), ":hi": n("1"),
					":t": s("M"), ":p": s("ORDER#"), ":two": n("2")}},
				{map[string]string{"#s": "status", "#m": "m"}, map[string]model.Value{":st": s("A"), ":lo": n("1"), ":hi": n("10"),
					":t": s("MAP"), ":p": s("ORDER#"), ":two": n("2")}},
				{map[string]string{"#s": "status", "#m": "m"}, map[string]model.Value{":st": s("A"), ":lo": n("1"), ":hi": n("10"),
					":t": s("M"), ":p": n("1"), ":two": n("2")}},
				{map[string]string{"#s": "status", "#m": "m"}, map[string]model.Value{":st": s("A"), ":lo": n("1"), ":hi": s("10"),
					":t": s("M"), ":p": s("ORDER#"), ":two": n("2")}},
				{map[string]string{"#s": "other", "#m": "status"}, map[string]model.Value{":st": s("A"), ":lo": n("1"), ":hi": n("10"),
					":t": s("S"), ":p": s("ORDER#"), ":two": n("2")}},
				{map[string]string{"#s": "status", "#m": "m"}, map[string]model.Value{":st": s("A"), ":lo": n("1"), ":hi": n("10"),
					":t": s("M"), ":p": s("ORDER#")}},
			}},
		{"condition", "x IN (:a, :b, :c) AND contains(tags, :t) AND NOT (n < :n)",
			maps{nil, map[string]model.Value{":a": n("1"), ":b": n("2"), ":c": s("2"), ":t": s("a"), ":n": n("5")}},
			[]maps{
				{nil, map[string]model.Value{":a": n("7"), ":b": n("4"), ":c": s("1"), ":t": s("c"), ":n": n("50")}},
				{nil, map[string]model.Value{":a": s("1"), ":b": s("2"), ":c": n("2"), ":t": s("c"), ":n": n("50")}},
				{nil, map[string]model.Value{":a": n("1"), ":b": n("2"), ":c": s("2"), ":t": ss("a"), ":n": n("5")}},
				{nil, map[string]model.Value{":a": n("1"), ":b": n("2"), ":t": s("a"), ":n": n("5")}},
			}},
		{"projection", "#a, l[1], #m.k", maps{map[string]string{"#a": "status", "#m": "m"}, nil},
			[]maps{
				{map[string]string{"#a": "status", "#m": "m"}, nil},
				{map[string]string{"#a": "n", "#m": "m"}, nil},
				{map[string]string{"#a": "l", "#m": "m"}, nil},
				{map[string]string{"#a": "status"}, nil},
				{map[string]string{"#a": "status", "#m": "m", "#z": "z"}, nil},
				{map[string]string{"#a": "status", "#m": "m"}, map[string]model.Value{":v": s("v")}},
				{nil, nil},
			}},
	}
	compile := func(kind, src string, m maps) string {
		var ctx *Context
		if m.names != nil || m.values != nil {
			ctx = NewContext(m.names, m.values)
		}
		unused := func() string {
			if ctx == nil {
				return "<nil context>"
			}
			return fmt.Sprint(ctx.CheckUnused())
		}
		var b strings.Builder
		if kind == "projection" {
			p, err := CompileProjection(src, ctx)
			if err != nil {
				return fmt.Sprintf("error %v; unused %s", err, unused())
			}
			fmt.Fprintf(&b, "attributes %v, paths %v; unused %s", p.Attributes(), p.Paths(), unused())
			for _, it := range items {
				fmt.Fprintf(&b, "\n    %v", p.Apply(it))
			}
			return b.String()
		}
		compile := CompileCondition
		if kind == "filter" {
			compile = CompileFilter
		}
		c, err := compile(src, ctx)
		if err != nil {
			return fmt.Sprintf("error %v; unused %s", err, unused())
		}
		ors, ok := c.Disjunction()
		fmt.Fprintf(&b, "attributes %v; unused %s; disjunction %v %v", c.Attributes(), unused(), ors, ok)
		for _, it := range items {
			fmt.Fprintf(&b, "\n    %v", c.Eval(it))
		}
		return b.String()
	}
	kept := func(kind, src string) (bind func(*Context) bool, ok bool) {
		switch kind {
		case "projection":
			k, ok := keptProjections.kept[src]
			return func(ctx *Context) bool { return placeholdersAgree(k.phs, ctx) }, ok
		case "filter":
			k, ok := keptFilters.kept[src]
			return func(ctx *Context) bool { _, ok := k.bind(ctx); return ok }, ok
		}
		k, ok := keptConditions.kept[src]
		return func(ctx *Context) bool { _, ok := k.bind(ctx); return ok }, ok
	}
	for _, c := range cases {
		for i, other := range c.others {
			forgetKept()
			want := compile(c.kind, c.src, other)
			forgetKept()
			primed := compile(c.kind, c.src, c.primer)
			bind, ok := kept(c.kind, c.src)
			if !ok {
				t.Fatalf("%s %q: the primer was not kept: %s", c.kind, c.src, primed)
			}
			if i == 0 && !bind(NewContext(other.names, other.values)) {
				t.Errorf("%s %q: maps that differ only in values were not bound", c.kind, c.src)
			}
			if got := compile(c.kind, c.src, other); got != want {
				t.Errorf("%s %q, maps %d: kept parse gives\n  %s\nfresh parse gives\n  %s", c.kind, c.src, i, got, want)
			}
		}
	}
	forgetKept()
}

// TestKeptConditionOwnsItsStrings checks that a kept condition and a kept
// projection share no memory with the request that primed them: a server reuses
// the buffer a request's text, names and values lie in.
func TestKeptConditionOwnsItsStrings(t *testing.T) {
	forgetKept()
	defer forgetKept()
	text := "#s = :v AND begins_with(plain, :v) OR attribute_type(#s, :t)"
	name := strings.Clone("status")
	ctx := NewContext(map[string]string{"#s": name}, map[string]model.Value{":v": model.Str("x"), ":t": model.Str("S")})
	if _, err := CompileCondition(text, ctx); err != nil {
		t.Fatal(err)
	}
	ptext := "#s, plain.deep[2]"
	if _, err := CompileProjection(ptext, NewContext(map[string]string{"#s": name}, nil)); err != nil {
		t.Fatal(err)
	}
	k, kp := keptConditions.kept[text], keptProjections.kept[ptext]
	if k == nil || kp == nil {
		t.Fatal("the condition or the projection was not kept")
	}
	var kept []string
	var walk func(c *cond)
	var operands func(o *operand)
	operands = func(o *operand) {
		kept = append(kept, o.ph, o.fn, o.val.Str)
		for _, e := range o.path {
			kept = append(kept, e.Name)
		}
		for _, a := range o.args {
			operands(a)
		}
	}
	walk = func(c *cond) {
		kept = append(kept, c.cmp, c.fn)
		for _, kid := range c.kids {
			walk(kid)
		}
		for _, a := range c.args {
			operands(a)
		}
	}
	walk(k.c.root)
	kept = append(kept, k.c.attrs...)
	kept = append(kept, kp.p.attrs...)
	for _, p := range kp.p.paths {
		for _, e := range p {
			kept = append(kept, e.Name)
		}
	}
	for _, ph := range append(k.phs, kp.phs...) {
		kept = append(kept, ph.ph, ph.name)
	}
	for _, str := range kept {
		if within(text, str) || within(ptext, str) || within(name, str) {
			t.Errorf("kept string %q lies in the request's memory", str)
		}
	}
}
