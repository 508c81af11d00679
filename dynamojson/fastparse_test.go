package dynamojson

import (
	"reflect"
	"strings"
	"testing"
)

// fastCases are items the fast path reads itself, and items it must leave to the
// slow path (an error with its path, or a shape it does not read).
var fastCases = []struct {
	in   string
	fast bool // the fast path reads it
}{
	{`{"PK":{"S":"x"},"n":{"N":"1.5"}}`, true},
	{` { "PK" : { "S" : "x" } } `, true},
	{`{}`, true},
	{`{"b":{"B":"AAE="},"t":{"BOOL":true},"f":{"BOOL":false},"z":{"NULL":true}}`, true},
	{`{"l":{"L":[]},"m":{"M":{}},"x":{"L":[{"S":"a"},{"M":{"k":{"N":"-0.5e3"}}}]}}`, true},
	{`{"u":{"S":"ünïcødé ✓"}}`, true},
	{`{"e":{"S":""}}`, true},
	// Left to the slow path, which gives the same error as before.
	{`{"s":{"S":"a\"b"}}`, false},            // an escape: the slow path unquotes it
	{`{"s":{"SS":["a","b"]}}`, false},        // sets
	{`{"n":{"N":"1e200"}}`, false},           // out of range
	{`{"n":{"N":"x"}}`, false},               // not a number
	{`{"n":{"N":1}}`, false},                 // a bare JSON number
	{`{"z":{"NULL":false}}`, false},          // DynamoDB refuses it
	{`{"a":{"S":"x","N":"1"}}`, false},       // two members
	{`{"a":{"S":"x"},"a":{"S":"y"}}`, false}, // a name twice
	{`{"a":{"Q":"x"}}`, false},               // no such type
	{`{"a":{"B":"!!"}}`, false},              // not base64
	{`{"a":{"S":"x"}} {}`, false},            // more after the item
	{`{"a":{"S":"x"}`, false},                // cut short
	{"{\"a\":{\"S\":\"\xff\"}}", false},      // invalid UTF-8, which encoding/json replaces
	{`[]`, false},
	{``, false},
	{`{"d":` + strings.Repeat(`{"L":[`, 40) + strings.Repeat(`]}`, 40) + `}`, false}, // deeper than 32
}

// TestFastParseAgreesWithSlow: where the fast path reads an item, the slow path
// reads the same item; where it gives up, ParseItem answers as the slow path does.
func TestFastParseAgreesWithSlow(t *testing.T) {
	for _, c := range fastCases {
		fast, ok := parseItemFast([]byte(c.in))
		if ok != c.fast {
			t.Errorf("%s: fast path read it: %v, want %v", c.in, ok, c.fast)
		}
		slow, serr := parseItemSlow([]byte(c.in))
		got, gerr := ParseItem([]byte(c.in))
		if ok && (serr != nil || !reflect.DeepEqual(fast, slow)) {
			t.Errorf("%s: fast %#v, slow %#v (%v)", c.in, fast, slow, serr)
		}
		if !reflect.DeepEqual(got, slow) || !reflect.DeepEqual(gerr, serr) {
			t.Errorf("%s: ParseItem %#v %v, slow path %#v %v", c.in, got, gerr, slow, serr)
		}
	}
}

// FuzzFastParse holds the fast path to the slow one on any input: when it reads
// an item or a value, the slow path reads the same without error.
func FuzzFastParse(f *testing.F) {
	for _, c := range fastCases {
		f.Add([]byte(c.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if fast, ok := parseItemFast(data); ok {
			slow, err := parseItemSlow(data)
			if err != nil || !reflect.DeepEqual(fast, slow) {
				t.Fatalf("item %q: fast %#v, slow %#v (%v)", data, fast, slow, err)
			}
		}
		if fast, ok := parseValueFast(data); ok {
			slow, err := parseValueSlow(data)
			if err != nil || !reflect.DeepEqual(fast, slow) {
				t.Fatalf("value %q: fast %#v, slow %#v (%v)", data, fast, slow, err)
			}
		}
	})
}
