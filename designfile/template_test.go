package designfile

import (
	"strings"
	"testing"

	"stwb/model"
)

// Key templates as the design file's reader applies them (FORMAT.md "Items and
// entities"); the templates themselves are tested in package model.

// userHead is a design whose items follow the next lines: users keyed by template.
const userHead = `version: 1
table:
  name: tbl
  key: {partition: PK, sort: SK}
  attributes: {SK: N}
entities:
  - name: user
    keys: {PK: "USER#{userId}", SK: "{seq}"}
items:
`

func TestTemplatesOnLoad(t *testing.T) {
	cases := []struct {
		item string
		err  string     // "" for success
		want model.Item // the attributes to check
	}{
		{"{type: user, userId: u1, seq: 3}", "", model.Item{"PK": model.Str("USER#u1"), "SK": model.Num("3")}},
		{"{type: user, userId: u1, seq: 3, PK: USER#u1}", "", model.Item{"PK": model.Str("USER#u1")}},
		// A key the template does not build is kept as given (DynamoDB stores any
		// key): the design opens, and TemplateMismatches (review's
		// template-mismatch) says so; TestMismatchedKeysOpen.
		{"{type: user, userId: u1, seq: 3, PK: USER#u2}", "", model.Item{"PK": model.Str("USER#u2")}},
		{"{type: user, PK: USER#u9, SK: 1}", "", model.Item{"PK": model.Str("USER#u9")}},
		{"{type: user, PK: OTHER#u9, SK: 1}", "", model.Item{"PK": model.Str("OTHER#u9")}},
		{"{type: user, seq: 1}", `t.yaml:10:5: item 0 (user) has no PK and cannot build it from "USER#{userId}". give PK, or the attribute(s) userId`, nil},
		{"{type: stranger, PK: x, SK: 1}", "", model.Item{"PK": model.Str("x")}}, // no such entity: allowed
		{"{type: user, userId: u1, seq: x}", `t.yaml:10:5: item 0: SK (the table's sort key) "x" is not a DynamoDB number`, nil},
	}
	for _, c := range cases {
		d, err := Parse("t.yaml", []byte(userHead+"  - "+c.item+"\n"))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %s", c.item, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.item, err)
			continue
		}
		for k, v := range c.want {
			if got := d.Items[0][k]; !got.Equal(v) || got.Type != v.Type {
				t.Errorf("%s: %s = %+v, want %+v", c.item, k, got, v)
			}
		}
	}
}

// TestMismatchedKeysOpen: an item whose given key its template would not build
// opens, read whole and lazily, with its key as given; model.TemplateMismatches
// names it at its line with the template and the key the template builds.
func TestMismatchedKeysOpen(t *testing.T) {
	for _, c := range []struct{ item, want string }{
		{"{type: user, userId: u1, seq: 3, PK: USER#u2}", `t.yaml:10:5: item 0 (user): PK "USER#u2" does not match the template "USER#{userId}". make PK "USER#u1", or leave it out so the template builds it`},
		{"{type: user, PK: OTHER#u9, SK: 1}", `t.yaml:10:5: item 0 (user): PK "OTHER#u9" does not match the template "USER#{userId}". make the key follow the template, or give the item another type`},
	} {
		data := []byte(userHead + "  - " + c.item + "\n")
		f, err := Parse("t.yaml", data)
		if err != nil {
			t.Fatalf("%s: %v", c.item, err)
		}
		if _, err := ParseLazily("t.yaml", data); err != nil {
			t.Fatalf("%s: read lazily: %v", c.item, err)
		}
		got := model.TemplateMismatches(f.Design, f.ItemPos)
		if len(got) != 1 || got[0].Error() != c.want {
			t.Errorf("%s: %v, want %s", c.item, got, c.want)
		}
	}
}
