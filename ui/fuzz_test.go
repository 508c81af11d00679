package ui

import (
	"testing"
)

// The form fields parse what the user types; no input may panic, and a value the
// parser accepts must be one that formats and parses back the same.
func FuzzParseMapping(f *testing.F) {
	for _, s := range []string{`{PK: "CUST#42", SK: PROFILE}`, `{":n": 12.5, ":s": !ss [a, b]}`, `{a: [1, {b: null}]}`, `{`, `[1]`, `{"#s": status}`, "{a: !!binary aGk=}", "{a: 1e400}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, err := parseMapping(src)
		if err != nil {
			return
		}
		back, err := parseMapping(formatMapping(m))
		if err != nil {
			t.Fatalf("formatMapping(%q) = %q does not parse back: %v", src, formatMapping(m), err)
		}
		if len(back) != len(m) {
			t.Fatalf("round trip of %q lost entries: %d -> %d", src, len(m), len(back))
		}
		for k, v := range m {
			if !back[k].Equal(v) {
				t.Fatalf("round trip of %q changed %s", src, k)
			}
		}
		_, _ = parseNames(src)
	})
}

// The pattern form's check runs on every keystroke over arbitrary text: it must
// never panic, whatever the expressions hold.
func FuzzPatternForm(f *testing.F) {
	f.Add("Query", "PK = :pk AND begins_with(SK, :o)", "#t > :min", `{":pk": "CUST#1", ":o": "ORDER#", ":min": 50}`, `{"#t": total}`, "", "")
	f.Add("Query", "GSI1PK = :s", "", `{":s": x}`, "", "GSI1", "")
	f.Add("UpdateItem", "{PK: a, SK: b}", "", `{":v": 1}`, "", "", "SET a = :v")
	f.Add("PutItem", "", "attribute_not_exists(PK)", "", "", "", "")
	f.Add("Scan", "", "size(a) > :n OR contains(b, :n)", `{":n": 3}`, "", "", "")
	d := fixture()
	base := d.Patterns[1]
	f.Fuzz(func(t *testing.T, op, key, filter, values, names, index, update string) {
		v := patternFormValues(&base)
		v["operation"], v["key"], v["filter"], v["values"], v["names"], v["index"], v["update"] = op, key, filter, values, names, index, update
		v["condition"], v["projection"] = filter, filter
		p, errs := patternFromForm(d, base, 1, v)
		if len(errs) == 0 && p.Name == "" {
			t.Fatal("accepted a pattern without a name")
		}
	})
}

// The item form's check: never a panic, and an accepted item always has the table's
// key attributes.
func FuzzItemForm(f *testing.F) {
	f.Add("customer", `{customerId: "7"}`, "", "")
	f.Add("order", `{customerId: "7", orderId: x, status: S}`, "", "")
	f.Add("", `{a: 1}`, "A", "B")
	f.Add("nope", "{", "", "")
	m := testModel(f, fixtureDoc(), 80, 24)
	f.Fuzz(func(t *testing.T, typ, attrs, pk, sk string) {
		it, errs := itemFromForm(m.w, -1, map[string]string{"type": typ, "attributes": attrs, "key:PK": pk, "key:SK": sk})
		if len(errs) == 0 {
			if _, ok := it["PK"]; !ok {
				t.Fatal("accepted an item without PK")
			}
			if _, ok := it["SK"]; !ok {
				t.Fatal("accepted an item without SK")
			}
		}
	})
}
