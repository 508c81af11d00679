package dynamojson

import (
	"encoding/json"
	"strings"
	"testing"

	"stwb/model"
)

// The wire form follows API_AttributeValue.html (DynamoDB API reference); the error
// wording for NULL false, empty sets and duplicates follows dynalite's
// validations/index.js, which mirrors DynamoDB's ValidationException messages.

func TestItemRoundTrip(t *testing.T) {
	cases := []struct {
		name string
		in   model.Item
		want string
	}{
		{"scalars", model.Item{"PK": model.Str("CUST#42"), "n": model.Num("12.5"), "t": model.Bool(true), "z": model.Null()},
			`{"PK":{"S":"CUST#42"},"n":{"N":"12.5"},"t":{"BOOL":true},"z":{"NULL":true}}`},
		{"canonical number", model.Item{"n": model.Num("1e3"), "m": model.Num("-0.50")},
			`{"m":{"N":"-0.5"},"n":{"N":"1000"}}`},
		{"binary", model.Item{"b": model.Bin([]byte{0, 1, 0xff})}, `{"b":{"B":"AAH/"}}`},
		{"sets keep order", model.Item{"ss": model.StrSet("b", "a"), "ns": model.NumSet("2", "1.0"), "bs": model.BinSet([]byte("x"))},
			`{"bs":{"BS":["eA=="]},"ns":{"NS":["2","1"]},"ss":{"SS":["b","a"]}}`},
		{"nested sorted", model.Item{"m": model.Map(map[string]model.Value{"z": model.Str("1"), "a": model.List(model.Num("1"), model.Str("<&>"))})},
			`{"m":{"M":{"a":{"L":[{"N":"1"},{"S":"<&>"}]},"z":{"S":"1"}}}}`},
		{"escapes", model.Item{"s": model.Str("a\"b\\c\n\x01\u2028é")}, `{"s":{"S":"a\"b\\c\n\u0001\u2028é"}}`},
		{"empty list and map", model.Item{"l": model.List(), "m": model.Map(map[string]model.Value{})}, `{"l":{"L":[]},"m":{"M":{}}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := MarshalItem(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Fatalf("got  %s\nwant %s", got, c.want)
			}
			if !json.Valid(got) {
				t.Fatalf("not valid JSON: %s", got)
			}
			back, err := ParseItem(got)
			if err != nil {
				t.Fatal(err)
			}
			if !back.Equal(c.in) {
				t.Fatalf("round trip changed the item: %#v", back)
			}
		})
	}
}

func TestExactKeepsNumberText(t *testing.T) {
	it := model.Item{"n": model.Num("4e10"), "ns": model.NumSet("1.50", "-0"), "m": model.Map(map[string]model.Value{"x": model.Num("0.10")})}
	cases := []struct {
		name string
		got  []byte
		want string
	}{
		{"canonical", AppendItem(nil, it), `{"m":{"M":{"x":{"N":"0.1"}}},"n":{"N":"40000000000"},"ns":{"NS":["1.5","0"]}}`},
		{"exact", AppendItemExact(nil, it), `{"m":{"M":{"x":{"N":"0.10"}}},"n":{"N":"4e10"},"ns":{"NS":["1.50","-0"]}}`},
	}
	for _, c := range cases {
		if string(c.got) != c.want {
			t.Errorf("%s: got %s, want %s", c.name, c.got, c.want)
		}
	}
	b, _ := ItemExact(it).MarshalJSON()
	if string(b) != cases[1].want {
		t.Errorf("ItemExact: %s", b)
	}
}

func TestParseKeepsNumberText(t *testing.T) {
	it, err := ParseItem([]byte(`{"n":{"N":"12.50"},"big":{"N":"12345678901234567890123456789012345678"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if it["n"].Str != "12.50" || it["big"].Str != "12345678901234567890123456789012345678" {
		t.Fatalf("number text changed: %#v", it)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		in, path, msg string
	}{
		{`[]`, "$", "must be a JSON object"},
		{`{"a": "x"}`, "$.a", "must be an object"},
		{`{"a": {}}`, "$.a", "has 0 members"},
		{`{"a": {"S": "x", "N": "1"}}`, "$.a", "has 2 members"},
		{`{"a": {"Q": "x"}}`, "$.a", `unknown attribute value type "Q"`},
		{`{"a": {"N": 12}}`, "$.a.N", `write {"N": "12"}`},
		{`{"a": {"N": "abc"}}`, "$.a.N", "The parameter cannot be converted to a numeric value: abc"},
		{`{"a": {"N": "1e200"}}`, "$.a.N", "overflow"},
		{`{"a": {"B": "!!"}}`, "$.a.B", "base64"},
		{`{"a": {"NULL": false}}`, "$.a.NULL", "must have the value of true"},
		{`{"a": {"SS": []}}`, "$.a.SS", "may not be empty"},
		{`{"a": {"SS": ["x", "x"]}}`, "$.a.SS[1]", "duplicates"},
		{`{"a": {"NS": ["1", "1.0"]}}`, "$.a.NS[1]", "duplicates"},
		{`{"a": {"L": [{"S": "x"}, {"BOOL": 1}]}}`, "$.a.L[1].BOOL", "true or false"},
		{`{"a": {"M": {"odd key": {"S": 1}}}}`, `$.a.M["odd key"].S`, "a string"},
		{`{"a": {"S": "x"}} {}`, "$", "more data"},
		{`{"a": `, "$", "not valid JSON"},
		{strings.Repeat(`{"L":[`, 40) + strings.Repeat(`]}`, 40), "$", "deeper than 32"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			var err error
			if strings.HasPrefix(c.in, `{"L"`) {
				_, err = ParseValue([]byte(c.in))
			} else {
				_, err = ParseItem([]byte(c.in))
			}
			we, ok := err.(*PathError)
			if !ok {
				t.Fatalf("want *PathError, got %T %v", err, err)
			}
			if !strings.HasPrefix(we.Path, c.path) || !strings.Contains(we.Msg, c.msg) {
				t.Fatalf("got %q, want path %q and message containing %q", err, c.path, c.msg)
			}
		})
	}
}

func TestItemJSONMarshaler(t *testing.T) {
	doc := map[string]any{"Item": Item(model.Item{"PK": model.Str("a&b")})}
	got, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	// encoding/json re-escapes & inside a Marshaler's output; what matters is that the
	// value reads back the same.
	var back struct{ Item Item }
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if !model.Item(back.Item).Equal(model.Item{"PK": model.Str("a&b")}) {
		t.Fatalf("got %#v", back.Item)
	}
}

func FuzzParseItem(f *testing.F) {
	f.Add([]byte(`{"PK":{"S":"x"},"n":{"N":"1.5"},"l":{"L":[{"M":{"a":{"BS":["AA=="]}}}]}}`))
	f.Add([]byte(`{"a":{"NS":["1","2"]}}`))
	f.Add([]byte(`{"a":{"NULL":true}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		it, err := ParseItem(data)
		if err != nil {
			if _, ok := err.(*PathError); !ok {
				t.Fatalf("error without a path: %T %v", err, err)
			}
			return
		}
		out, _ := MarshalItem(it)
		back, err := ParseItem(out)
		if err != nil {
			t.Fatalf("canonical output does not parse: %v\n%s", err, out)
		}
		if !back.Equal(it) {
			t.Fatalf("round trip changed the item\n%s", out)
		}
	})
}
