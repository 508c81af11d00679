package model

import (
	"reflect"
	"strings"
	"testing"
)

// Key templates, FORMAT.md "Items and entities".

func TestExpandTemplate(t *testing.T) {
	it := Item{"customerId": Str("42"), "placedAt": Str("2026-08-03"), "seq": Num("7"), "flag": Bool(true), "bin": Bin([]byte("b"))}
	cases := []struct {
		tmpl string
		want Value
		ok   bool
	}{
		{"CUST#{customerId}", Str("CUST#42"), true},
		{"PROFILE", Str("PROFILE"), true},
		{"{placedAt}", Str("2026-08-03"), true},
		{"{seq}", Num("7"), true}, // a lone variable keeps its type
		{"SEQ#{seq}", Str("SEQ#7"), true},
		{"{customerId}#{seq}#{customerId}", Str("42#7#42"), true},
		{"CUST#{missing}", Value{}, false},
		{"X#{flag}", Value{}, false}, // a BOOL cannot be part of a key
		{"{bin}", Bin([]byte("b")), true},
		{"CUST#{customerId", Value{}, false},
	}
	for _, c := range cases {
		got, ok := ExpandTemplate(c.tmpl, it)
		if ok != c.ok || (ok && (!got.Equal(c.want) || got.Type != c.want.Type)) {
			t.Errorf("ExpandTemplate(%q) = %+v, %v; want %+v, %v", c.tmpl, got, ok, c.want, c.ok)
		}
	}
	// A template of an N key attribute gives an N value.
	if v, ok := ExpandKey("{customerId}", it, TypeN); !ok || v.Type != TypeN || v.Str != "42" {
		t.Errorf("ExpandKey N = %+v", v)
	}
	if v, ok := ExpandKey("1{seq}", it, TypeN); !ok || !v.Equal(Num("17")) {
		t.Errorf("ExpandKey N concat = %+v", v)
	}
}

func TestMatchAndExtractTemplate(t *testing.T) {
	cases := []struct {
		tmpl, value string
		match       bool
		vars        map[string]string // nil: ambiguous or no match
	}{
		{"CUST#{id}", "CUST#42", true, map[string]string{"id": "42"}},
		{"CUST#{id}", "ORDER#42", false, nil},
		{"PROFILE", "PROFILE", true, map[string]string{}},
		{"PROFILE", "PROFILEX", false, nil},
		{"{a}#{b}", "x#y", true, map[string]string{"a": "x", "b": "y"}},
		{"{a}#{b}", "x#y#z", true, nil}, // two ways to split: ambiguous
		{"A#{a}#B#{b}", "A#1#B#2", true, map[string]string{"a": "1", "b": "2"}},
		{"{a}-{a}", "x-x", true, map[string]string{"a": "x"}},
		{"{a}-{a}", "x-y", false, nil},
		{"{a}{b}", "xy", true, nil},
		{"ORDER#{id}", "ORDER#", true, map[string]string{"id": ""}},
		{"中文#{x}", "中文#é", true, map[string]string{"x": "é"}},
	}
	for _, c := range cases {
		if got := MatchTemplate(c.tmpl, Str(c.value)); got != c.match {
			t.Errorf("MatchTemplate(%q, %q) = %v", c.tmpl, c.value, got)
		}
		vars, ok := ExtractTemplate(c.tmpl, Str(c.value))
		if ok != (c.vars != nil) || (ok && !reflect.DeepEqual(vars, c.vars)) {
			t.Errorf("ExtractTemplate(%q, %q) = %v, %v; want %v", c.tmpl, c.value, vars, ok, c.vars)
		}
	}
	if MatchTemplate("{a}", Bool(true)) {
		t.Errorf("a BOOL matched a template")
	}
}

// TestTemplateMatchIsBounded: a template of many adjacent variables against a long key
// must answer at once, not search every split.
func TestTemplateMatchIsBounded(t *testing.T) {
	tmpl := "{a}{b}{c}{d}{e}{f}#X"
	v := Str(strings.Repeat("#", 400))
	if MatchTemplate(tmpl, v) {
		t.Errorf("matched without the trailing literal")
	}
	if _, ok := ExtractTemplate(tmpl, v); ok {
		t.Errorf("extracted without the trailing literal")
	}
	if _, ok := ExtractTemplate("{a}-{a}-{b}{c}{d}", Str(strings.Repeat("x", 300))); ok {
		t.Errorf("extracted an ambiguous value")
	}
}

// TemplateParts is the split interop's generated key modules spell out; it must agree
// with ExpandTemplate on what is a variable and what is malformed.
func TestTemplateParts(t *testing.T) {
	cases := []struct {
		tmpl string
		want []TemplatePart
		ok   bool
	}{
		{"PROFILE", []TemplatePart{{Literal: "PROFILE"}}, true},
		{"CUST#{customerId}", []TemplatePart{{Literal: "CUST#"}, {Var: "customerId"}}, true},
		{"{State}#{Date}", []TemplatePart{{Var: "State"}, {Literal: "#"}, {Var: "Date"}}, true},
		{"{a}{b}", []TemplatePart{{Var: "a"}, {Var: "b"}}, true},
		{"O#{id}#LINE", []TemplatePart{{Literal: "O#"}, {Var: "id"}, {Literal: "#LINE"}}, true},
		{"", []TemplatePart{}, true},
		{"CUST#{customerId", nil, false},
		{"CUST#}x{", nil, false},
		{"A{}B", nil, false},
		{"A{{b}}", nil, false},
	}
	for _, c := range cases {
		got, ok := TemplateParts(c.tmpl)
		if ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("TemplateParts(%q) = %#v, %v; want %#v, %v", c.tmpl, got, ok, c.want, c.ok)
		}
	}
}

// FuzzTemplateParts: a well-formed template is its parts written back with braces
// around the variables, and every variable is one TemplateVars lists.
func FuzzTemplateParts(f *testing.F) {
	for _, s := range []string{"CUST#{customerId}", "{a}{b}", "A{}B", "{", "}{", "x{y}z{w}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tmpl string) {
		parts, ok := TemplateParts(tmpl)
		if !ok {
			if parts != nil {
				t.Fatalf("TemplateParts(%q) not ok but gave parts %#v", tmpl, parts)
			}
			return
		}
		var b strings.Builder
		var vars []string
		for _, p := range parts {
			if (p.Var == "") == (p.Literal == "") {
				t.Fatalf("TemplateParts(%q): part %#v must be a literal or a variable", tmpl, p)
			}
			if p.Var != "" {
				b.WriteString("{" + p.Var + "}")
				vars = append(vars, p.Var)
			} else {
				b.WriteString(p.Literal)
			}
		}
		if b.String() != tmpl {
			t.Fatalf("TemplateParts(%q) writes back as %q", tmpl, b.String())
		}
		if got := TemplateVars(tmpl); !reflect.DeepEqual(got, vars) {
			t.Fatalf("TemplateVars(%q) = %q, parts name %q", tmpl, got, vars)
		}
	})
}

// KeyAttributeNames orders the key columns and the item form's key fields
// (GSI.html, LSI.html: an LSI shares the table's partition key).
func TestKeyAttributeNames(t *testing.T) {
	cases := []struct {
		name string
		tbl  Table
		want []string
	}{
		{"partition only", Table{Key: KeySchema{Partition: "PK"}}, []string{"PK"}},
		{"table then indexes", Table{Key: KeySchema{Partition: "PK", Sort: "SK"}, Indexes: []Index{
			{Name: "GSI1", Key: KeySchema{Partition: "GSI1PK", Sort: "GSI1SK"}},
			{Name: "GSI2", Key: KeySchema{Partition: "GSI1PK", Sort: "SK"}},
		}}, []string{"PK", "SK", "GSI1PK", "GSI1SK"}},
		{"an inverted index repeats nothing", Table{Key: KeySchema{Partition: "PK", Sort: "SK"}, Indexes: []Index{
			{Name: "Inverted", Key: KeySchema{Partition: "SK", Sort: "PK"}},
		}}, []string{"PK", "SK"}},
		{"an LSI adds its sort key only", Table{Key: KeySchema{Partition: "PK", Sort: "SK"}, Indexes: []Index{
			{Name: "LSI1", Local: true, Key: KeySchema{Partition: "PK", Sort: "LSI1SK"}},
			{Name: "LSI2", Local: true, Key: KeySchema{Sort: "LSI2SK"}},
		}}, []string{"PK", "SK", "LSI1SK", "LSI2SK"}},
	}
	for _, c := range cases {
		if got := KeyAttributeNames(&c.tbl); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: KeyAttributeNames = %q, want %q", c.name, got, c.want)
		}
	}
}

// KeyTemplate.Var reads a variable back as ExtractTemplate does, on templates with
// one variable (read off the ends) and with several (ExtractTemplate itself).
func TestKeyTemplateVarIsExtractTemplate(t *testing.T) {
	templates := []string{"CUST#{customerId}", "{placedAt}", "ORDER#{id}#LINE", "A#{x}#B#{y}", "{a}{b}", "#{x}#", "P{x}", "{x}#{x}", "PROFILE"}
	values := []Value{Str("CUST#42"), Str("CUST#"), Str("ORDER#9#LINE"), Str("ORDER##LINE"), Str("A#1#B#2"), Str("#x#"),
		Str("##"), Str("#"), Num("12"), Str("P"), Str("Px"), Str("2026-08-03"), {Type: TypeBOOL, Bool: true}, Str("CUST#42#x"),
		Str("7#7"), Str("7#8"), Str("PROFILE"), Bin([]byte("CUST#\x00"))}
	for _, tmpl := range templates {
		k := NewKeyTemplate(tmpl, TypeS)
		for _, v := range values {
			for _, name := range append(TemplateVars(tmpl), "other") {
				got, gotOK := k.Var(v, name)
				vars, ok := ExtractTemplate(tmpl, v)
				want, has := vars[name]
				if gotOK != (ok && has) || gotOK && got != want {
					t.Errorf("%s on %v, %s: got %q %v, ExtractTemplate %q %v", tmpl, v, name, got, gotOK, want, ok && has)
				}
			}
		}
	}
}
