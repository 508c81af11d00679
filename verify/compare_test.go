package verify

import (
	"strings"
	"testing"

	"stwb/engine"
	"stwb/model"
)

func key(pk, sk string) model.Item {
	return model.Item{"PK": model.Str(pk), "SK": model.Str(sk)}
}

func gsiItem(g, sk string) model.Item {
	it := key("T", sk)
	it["G"] = model.Str(g)
	return it
}

// TestCompare covers what verify and the differential suite compare: error types
// (not messages), items in order, Count, ScannedCount and LastEvaluatedKey; equal
// index keys in any order (GSI.html: no defined order among them); BatchGetItem as
// a set (API_BatchGetItem.html).
func TestCompare(t *testing.T) {
	a, b, c := key("A", "1"), key("A", "2"), key("A", "3")
	res := func(items ...model.Item) *engine.Result {
		return &engine.Result{Items: items, Count: len(items), ScannedCount: len(items)}
	}
	withLEK := func(r *engine.Result, k model.Item) *engine.Result { r.LastEvaluatedKey = k; return r }
	validation := &engine.Result{Err: &engine.Error{Type: "ValidationException", Message: "one wording"}}
	cases := []struct {
		name       string
		pred, got  *engine.Result
		opts       CompareOptions
		wantFields []string
	}{
		{"same", res(a, b), res(a, b), CompareOptions{}, nil},
		{"order", res(a, b), res(b, a), CompareOptions{}, []string{"items"}},
		{"missing item", res(a, b), res(a), CompareOptions{}, []string{"items", "count", "scannedCount"}},
		{"extra item", res(a), res(a, b), CompareOptions{}, []string{"items", "count", "scannedCount"}},
		{"changed attribute", res(a), res(func() model.Item { x := a.Clone(); x["n"] = model.Num("1"); return x }()),
			CompareOptions{}, []string{"items"}},
		{"numbers by value", res(model.Item{"n": model.Num("1.50")}), res(model.Item{"n": model.Num("1.5")}), CompareOptions{}, nil},
		{"scanned differs", &engine.Result{Items: []model.Item{a}, Count: 1, ScannedCount: 3}, res(a), CompareOptions{}, []string{"scannedCount"}},
		{"lek differs", withLEK(res(a), a), res(a), CompareOptions{}, []string{"lastEvaluatedKey"}},
		{"error types equal, messages differ", validation,
			&engine.Result{Err: &engine.Error{Type: "ValidationException", Message: "another"}}, CompareOptions{}, nil},
		{"error versus none", validation, res(), CompareOptions{}, []string{"error"}},
		{"ties in any order", res(gsiItem("x", "1"), gsiItem("x", "2"), gsiItem("y", "3")),
			res(gsiItem("x", "2"), gsiItem("x", "1"), gsiItem("y", "3")), CompareOptions{TieKey: []string{"G"}}, nil},
		{"ties do not excuse other order", res(gsiItem("x", "1"), gsiItem("y", "2")),
			res(gsiItem("y", "2"), gsiItem("x", "1")), CompareOptions{TieKey: []string{"G"}}, []string{"items"}},
		{"tie run of different members", res(gsiItem("x", "1"), gsiItem("x", "2")),
			res(gsiItem("x", "1"), gsiItem("x", "3")), CompareOptions{TieKey: []string{"G"}}, []string{"items"}},
		{"lek compared on the tie key only", withLEK(res(gsiItem("x", "1")), gsiItem("x", "1")),
			withLEK(res(gsiItem("x", "1")), gsiItem("x", "9")), CompareOptions{TieKey: []string{"G"}}, nil},
		{"unordered", res(a, b, c), res(c, a, b), CompareOptions{Unordered: true}, nil},
		{"unordered but different", res(a, b), res(a, c), CompareOptions{Unordered: true}, []string{"items"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ms := Compare(c.pred, c.got, c.opts)
			var fields []string
			for _, m := range ms {
				fields = append(fields, m.Field)
			}
			if strings.Join(fields, ",") != strings.Join(c.wantFields, ",") {
				t.Fatalf("mismatched fields %v, want %v (%v)", fields, c.wantFields, ms)
			}
		})
	}
}

func TestFormatItem(t *testing.T) {
	cases := []struct {
		it   model.Item
		want string
	}{
		{nil, "null"},
		{model.Item{}, "{}"},
		{model.Item{"b": model.Num("1"), "a": model.Str("é")}, `{"a":{"S":"é"},"b":{"N":"1"}}`},
		{model.Item{"x": model.List(model.Bool(true), model.Null(), model.Bin([]byte{0xff})),
			"s": model.StrSet("p"), "m": model.Map(map[string]model.Value{"k": model.NumSet("2")})},
			`{"m":{"M":{"k":{"NS":["2"]}}},"s":{"SS":["p"]},"x":{"L":[{"BOOL":true},{"NULL":true},{"B":"/w=="}]}}`},
	}
	for _, c := range cases {
		if got := FormatItem(c.it); got != c.want {
			t.Errorf("FormatItem(%v) = %s, want %s", c.it, got, c.want)
		}
	}
}
