package model

import (
	"strings"
	"testing"
)

// Validation of designs built in code; the rules as the design file's reader
// applies them are tested with it (designfile/validate_test.go).

// TestValidateCodeBuilt checks what the loader checks for a file, on a design built in
// code: numbers, sets, pattern ids, operations.
func TestValidateCodeBuilt(t *testing.T) {
	base := func() *Design {
		return &Design{Version: 1, Table: Table{Name: "tbl", Key: KeySchema{Partition: "PK"}, TypeAttribute: "type"},
			Items:    []Item{{"PK": Str("a")}},
			Patterns: []Pattern{{ID: 1, Operation: OpScan}}}
	}
	cases := []struct {
		name   string
		change func(d *Design)
		want   string
	}{
		{"valid", func(d *Design) {}, ""},
		{"bad number", func(d *Design) { d.Items[0]["n"] = Num("1e999") }, "item 0: n: number 1e999: number overflow"},
		{"empty set", func(d *Design) { d.Items[0]["s"] = Value{Type: TypeSS} }, "item 0: s: empty SS set"},
		{"set duplicate", func(d *Design) { d.Items[0]["s"] = NumSet("1", "1.0") }, "duplicate element"},
		{"pattern id twice", func(d *Design) { d.Patterns = append(d.Patterns, d.Patterns[0]) }, "pattern id 1 is used twice"},
		{"pattern id zero", func(d *Design) { d.Patterns[0].ID = 0 }, "pattern 0: id must be a positive number"},
		{"unknown operation", func(d *Design) { d.Patterns[0].Operation = "Get" }, `operation "Get" is not known`},
		{"version", func(d *Design) { d.Version = 2 }, "version must be 1, not 2"},
		{"table name", func(d *Design) { d.Table.Name = "ab" }, `table name "ab" is not a valid DynamoDB table name`},
		{"review reason", func(d *Design) { d.Review = []ReviewSetting{{Rule: "r", Severity: "off"}} }, "review.r: a reason is required"},
		{"alias of a key", func(d *Design) {
			d.Entities = []Entity{{Name: "song", Aliases: map[string]string{"PK": "SongId"}}}
		}, ""},
		{"alias of no key", func(d *Design) {
			d.Entities = []Entity{{Name: "song", Aliases: map[string]string{"title": "Name"}}}
		}, "entity song: aliases.title is not a key attribute of the table or any index"},
		{"empty alias", func(d *Design) { d.Entities = []Entity{{Name: "song", Aliases: map[string]string{"PK": ""}}} }, "entity song: aliases.PK is empty"},
		{"value in pattern", func(d *Design) { d.Patterns[0].Values = map[string]Value{":v": Num("x")} }, `pattern 1: values :v: "x" is not a DynamoDB number`},
	}
	for _, c := range cases {
		d := base()
		c.change(d)
		err := Validate(d)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
		if err != nil {
			for _, e := range err.(ErrorList) {
				if !e.WholeFile || e.Pos.Line != 0 {
					t.Errorf("%s: a code-built design's error %v is not marked whole-file", c.name, e)
				}
			}
		}
	}
}

// TableNameFrom always gives a name the table-name rule accepts
// (HowItWorks.NamingRulesDataTypes.html: 3 to 255 of a-z A-Z 0-9 _ . -).
func TestTableNameFrom(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"orders", "orders"},
		{"e5", "e5-data"},
		{"", "-data"},
		{"my design", "my-design"},
		{"café", "caf--"},
		{strings.Repeat("x", 300), strings.Repeat("x", 255)},
	} {
		got := TableNameFrom(c.in)
		if got != c.want || !nameOK(got) {
			t.Errorf("TableNameFrom(%q) = %q (valid %v), want %q", c.in, got, nameOK(got), c.want)
		}
	}
}
