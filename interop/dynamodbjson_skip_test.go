package interop

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestReadDynamoDBJSONSkipInvalid: with SkipInvalid, an item holding a byte that is
// not UTF-8, or a value that does not decode, is left out and listed with its line,
// JSON path and the byte's place, in every layout; the other items are read. A bad
// byte outside any item still fails the read. (DynamoDB strings are UTF-8:
// HowItWorks.NamingRulesDataTypes.html "String"; the Workbench importer's
// --skip-invalid does the same for a model's items.)
func TestReadDynamoDBJSONSkipInvalid(t *testing.T) {
	cases := []struct {
		name, in string
		keep     []string // the PK values read
		skipped  []string // each skipped item's message
		err      string
	}{
		{"scan value", "{\"Items\": [\n{\"PK\":{\"S\":\"a\"}},\n{\"PK\":{\"S\":\"b\"}, \"name\": {\"S\": \"Z\xfcrich\"}},\n{\"PK\":{\"S\":\"c\"}}\n]}",
			[]string{"a", "c"}, []string{"line 3: $.Items[1]: byte 0xfc at line 3, column 34 ($.Items[1].name.S) is not UTF-8"}, ""},
		{"export lines, key and value", "{\"Item\":{\"PK\":{\"S\":\"\xff\"}}}\n{\"Item\":{\"PK\":{\"S\":\"a\"}}}\n{\"Item\":{\"PK\":{\"S\":\"b\"},\"n\":{\"N\":\"x1\"}}}\n",
			[]string{"a"}, []string{"line 1: $: byte 0xff at line 1, column 21 ($.Item.PK.S) is not UTF-8", "line 3: $.Item.n.N"}, ""},
		{"batch write attribute name", "{\"t\": [\n{\"PutRequest\": {\"Item\": {\"PK\":{\"S\":\"a\"}, \"n\xc3\": {\"N\": \"1\"}}}},\n{\"PutRequest\": {\"Item\": {\"PK\":{\"S\":\"b\"}}}}]}",
			[]string{"b"}, []string{"line 2: $.t[0]: byte 0xc3 at line 2, column 44 ($.t[0].PutRequest.Item"}, ""},
		{"two bad bytes, one item", "{\"Items\": [{\"PK\":{\"S\":\"\xff\xfe\"}}, {\"PK\":{\"S\":\"a\"}}]}",
			[]string{"a"}, []string{"line 1: $.Items[0]: byte 0xff"}, ""},
		{"bad byte in a table name", "{\"t\xff\": [{\"PutRequest\": {\"Item\": {\"PK\":{\"S\":\"a\"}}}}]}",
			nil, nil, "byte 0xff at column 4 is not UTF-8; DynamoDB strings are UTF-8, so fix the file's encoding (iconv -f LATIN1 -t UTF-8); it is in no item"},
	}
	for _, c := range cases {
		items, facts, err := ReadDynamoDBJSONWith(strings.NewReader(c.in), DataOptions{SkipInvalid: true})
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		var got []string
		for _, it := range items {
			got = append(got, it.Item["PK"].Str)
		}
		if strings.Join(got, ",") != strings.Join(c.keep, ",") {
			t.Errorf("%s: read %v, want %v", c.name, got, c.keep)
		}
		if len(facts.Skipped) != len(c.skipped) {
			t.Errorf("%s: skipped %v, want %d", c.name, facts.Skipped, len(c.skipped))
			continue
		}
		for i, want := range c.skipped {
			if !strings.Contains(facts.Skipped[i].Error(), want) {
				t.Errorf("%s: skipped[%d] = %q, want %q", c.name, i, facts.Skipped[i], want)
			}
		}
		// Without SkipInvalid the same file is refused.
		if _, _, err := ReadDynamoDBJSON(strings.NewReader(c.in), nil); err == nil {
			t.Errorf("%s: read without SkipInvalid", c.name)
		}
	}
}

// FuzzReadDynamoDBJSONSkipInvalid: skipping never panics, every skipped item and
// every error has a line, and no item read holds a string that is not UTF-8.
func FuzzReadDynamoDBJSONSkipInvalid(f *testing.F) {
	f.Add([]byte("{\"Items\":[{\"PK\":{\"S\":\"\xff\"}},{\"PK\":{\"S\":\"a\"}}]}"))
	f.Add([]byte("{\"Item\":{\"PK\":{\"S\":\"a\xc3\"}}}\n{\"Item\":{\"PK\":{\"N\":\"x\"}}}\n"))
	f.Add([]byte("{\"t\xfe\":[{\"PutRequest\":{\"Item\":{\"PK\":{\"S\":\"a\"}}}}]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		items, facts, err := ReadDynamoDBJSONWith(bytes.NewReader(data), DataOptions{SkipInvalid: true})
		if err != nil {
			if le, ok := err.(*LineError); !ok || le.Line < 1 {
				t.Fatalf("error without a line: %T %v", err, err)
			}
			return
		}
		for _, e := range facts.Skipped {
			if e.Line < 1 {
				t.Fatalf("skipped item without a line: %v", e)
			}
		}
		for _, s := range items {
			for name, v := range s.Item {
				if !utf8.ValidString(name) || !utf8.ValidString(v.Str) {
					t.Fatalf("item at line %d holds text that is not UTF-8: %q", s.Line, name)
				}
			}
		}
	})
}
