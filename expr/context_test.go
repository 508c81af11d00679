package expr

import (
	"fmt"
	"strings"
	"testing"

	"stwb/model"
)

// Names and values are checked across all the expressions of one request
// (Expressions.ExpressionAttributeNames.html, Expressions.ExpressionAttributeValues.html;
// messages from dynalite validations/index.js, validateExpressions).
func TestCheckUnused(t *testing.T) {
	type compile func(ctx *Context) error
	key := func(src string) compile {
		return func(ctx *Context) error { _, err := CompileKeyCondition(src, ctx, schemaSN); return err }
	}
	filter := func(src string) compile {
		return func(ctx *Context) error { _, err := CompileFilter(src, ctx); return err }
	}
	proj := func(src string) compile {
		return func(ctx *Context) error { _, err := CompileProjection(src, ctx); return err }
	}
	update := func(src string) compile {
		return func(ctx *Context) error { _, err := CompileUpdate(src, ctx); return err }
	}
	cases := []struct {
		names  map[string]string
		values map[string]model.Value
		exprs  []compile
		want   string
	}{
		{nil, nil, []compile{proj("s")}, ""},
		{map[string]string{"#a": "a"}, map[string]model.Value{":v": model.Str("x")},
			[]compile{key("pk = :v"), proj("#a")}, ""},
		{map[string]string{"#a": "a"}, map[string]model.Value{":v": model.Str("x")},
			[]compile{key("pk = :v"), filter("#a = :v")}, ""},
		{map[string]string{"#a": "a", "#b": "b", "#c": "c"}, map[string]model.Value{":v": model.Str("x")},
			[]compile{key("pk = :v"), proj("#b")},
			"Value provided in ExpressionAttributeNames unused in expressions: keys: {#a, #c}"},
		{map[string]string{"#a": "a"}, map[string]model.Value{":v": model.Str("x"), ":w": model.Str("y")},
			[]compile{update("SET #a = :v")},
			"Value provided in ExpressionAttributeValues unused in expressions: keys: {:w}"},
		// Names are reported before values.
		{map[string]string{"#a": "a"}, map[string]model.Value{":w": model.Str("y")},
			[]compile{proj("s")},
			"Value provided in ExpressionAttributeNames unused in expressions: keys: {#a}"},
	}
	// More placeholders than placeholderSet lists before it turns to a map: the
	// values used before and after the change are all marked.
	many := map[string]model.Value{}
	var in []string
	for i := range 20 {
		ph := fmt.Sprintf(":v%d", i)
		many[ph] = model.Str(ph)
		if i < 18 {
			in = append(in, ph)
		}
	}
	cases = append(cases, struct {
		names  map[string]string
		values map[string]model.Value
		exprs  []compile
		want   string
	}{nil, many, []compile{key("pk = :v3"), filter("s IN (" + strings.Join(in, ", ") + ") OR s = :v2")},
		"Value provided in ExpressionAttributeValues unused in expressions: keys: {:v18, :v19}"})
	for i, c := range cases {
		ctx := NewContext(c.names, c.values)
		for _, e := range c.exprs {
			if err := e(ctx); err != nil {
				t.Fatalf("case %d: %v", i, err)
			}
		}
		checkErr(t, "case", ctx.CheckUnused(), c.want)
	}
}

func TestContextValidate(t *testing.T) {
	cases := []struct {
		names  map[string]string
		values map[string]model.Value
		want   string
	}{
		{nil, nil, ""},
		{map[string]string{"#a_1": "a"}, map[string]model.Value{":V9": model.Str("x")}, ""},
		{map[string]string{}, nil, "ExpressionAttributeNames must not be empty"},
		{nil, map[string]model.Value{}, "ExpressionAttributeValues must not be empty"},
		{map[string]string{"a": "a"}, nil, `ExpressionAttributeNames contains invalid key: Syntax error; key: "a"`},
		{map[string]string{"#": "a"}, nil, `ExpressionAttributeNames contains invalid key: Syntax error; key: "#"`},
		{nil, map[string]model.Value{":a-b": model.Str("x")}, `ExpressionAttributeValues contains invalid key: Syntax error; key: ":a-b"`},
		// DynamoDB refuses an empty name (API_Query.html "ExpressionAttributeNames";
		// the message is DynamoDB's as applications match it, issue 15).
		{map[string]string{"#n": ""}, nil, "ExpressionAttributeNames contains invalid value: Empty attribute name for key #n"},
		{map[string]string{"#a": "a", "#b": ""}, nil, "ExpressionAttributeNames contains invalid value: Empty attribute name for key #b"},
		// With several at fault, the message names the least key, on every run.
		{map[string]string{"#z": "", "#c": "", "#a": "a", "#m": ""}, nil, "ExpressionAttributeNames contains invalid value: Empty attribute name for key #c"},
		{nil, map[string]model.Value{":ok": model.Str("x"), "z": model.Str("x"), "b": model.Str("x"), ":-": model.Str("x")},
			`ExpressionAttributeValues contains invalid key: Syntax error; key: ":-"`},
	}
	for _, c := range cases {
		checkErr(t, "Validate", NewContext(c.names, c.values).Validate(), c.want)
	}
}

// ValueString writes values as DynamoDB's messages show them, e.g. the BETWEEN
// bounds message of Query.KeyConditionExpressions.html.
func TestValueString(t *testing.T) {
	cases := []struct {
		v    model.Value
		want string
	}{
		{model.Num("5"), "{N:5}"},
		{model.Num("5.50E1"), "{N:55}"},
		{model.Str("abc"), "{S:abc}"},
		{model.Bin([]byte("hi")), "{B:aGk=}"},
		{model.Bool(false), "{BOOL:false}"},
		{model.Null(), "{NULL:true}"},
		{model.StrSet("a", "b"), "{SS:[a, b]}"},
		{model.NumSet("1", "2"), "{NS:[1, 2]}"},
		{model.List(model.Str("a"), model.Num("1")), "{L:[{S:a}, {N:1}]}"},
		{mapOf("b", model.Num("2"), "a", model.Str("x")), "{M:{a={S:x}, b={N:2}}}"},
	}
	for _, c := range cases {
		if got := ValueString(c.v); got != c.want {
			t.Errorf("ValueString = %q, want %q", got, c.want)
		}
	}
}

// Reserved words are matched in any case, and only whole names
// (ReservedWords.html).
func TestReservedWords(t *testing.T) {
	cases := []struct {
		name string
		want bool
	}{
		{"status", true}, {"STATUS", true}, {"Status", true}, {"abort", true}, {"zone", true},
		{"size", true}, {"name", true}, {"data", true}, {"ttl", true},
		{"statuses", false}, {"stat", false}, {"pk", false}, {"gsi1pk", false}, {"_status", false},
		{"a", false}, {"zzz", false}, {"", false},
	}
	for _, c := range cases {
		if got := isReserved(c.name); got != c.want {
			t.Errorf("isReserved(%q) = %v, want %v", c.name, got, c.want)
		}
	}
	if n := len(reservedSorted); n != 573 {
		t.Errorf("%d reserved words, want the 573 of ReservedWords.html", n)
	}
}
