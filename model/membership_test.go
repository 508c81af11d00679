package model

import "testing"

// membershipTable has a GSI whose key is four attributes a side (the most
// GSI.DesignPattern.MultiAttributeKeys.html allows), p2 and s3 numbers, a
// one-attribute GSI and an LSI.
func membershipTable() Table {
	return Table{Key: KeySchema{Partition: "PK", Sort: "SK"},
		Attributes: map[string]Type{"PK": TypeS, "SK": TypeS, "p2": TypeN, "s3": TypeN, "at": TypeN},
		Indexes: []Index{
			{Name: "multi", Key: NewKeySchema([]string{"p1", "p2", "p3", "p4"}, []string{"s1", "s2", "s3", "s4"})},
			{Name: "single", Key: KeySchema{Partition: "g", Sort: "s1"}},
			{Name: "local", Local: true, Key: KeySchema{Sort: "at"}},
		}}
}

// fullItem has every key attribute of membershipTable's indexes.
func fullItem() Item {
	return Item{"PK": Str("C#1"), "SK": Str("O#1"), "p1": Str("t"), "p2": Num("7"), "p3": Str("r"), "p4": Str("x"),
		"s1": Str("a"), "s2": Str("b"), "s3": Num("3"), "s4": Str("d"), "g": Str("G"), "at": Num("5")}
}

// An index holds an item only when the item has every one of its key attributes
// of its declared type, and not empty (GSI.html "A global secondary index only
// tracks data items where its key attributes actually exist" and "Multi-attribute
// key schema"; GSI.DesignPattern.MultiAttributeKeys.html;
// bp-indexes-general-sparse-indexes.html; HowItWorks.NamingRulesDataTypes.html).
// A multi-attribute key's second to fourth attributes count as much as the first,
// on either side.
func TestInIndex(t *testing.T) {
	tab := membershipTable()
	without := func(names ...string) Item {
		it := fullItem()
		for _, n := range names {
			delete(it, n)
		}
		return it
	}
	with := func(name string, v Value) Item {
		it := fullItem()
		it[name] = v
		return it
	}
	cases := []struct {
		name  string
		index string
		item  Item
		want  bool
	}{
		{"every key attribute", "multi", fullItem(), true},
		{"no 1st partition attribute", "multi", without("p1"), false},
		{"no 2nd partition attribute", "multi", without("p2"), false},
		{"no 3rd partition attribute", "multi", without("p3"), false},
		{"no 4th partition attribute", "multi", without("p4"), false},
		{"no 1st sort attribute", "multi", without("s1"), false},
		{"no 2nd sort attribute", "multi", without("s2"), false},
		{"no 3rd sort attribute", "multi", without("s3"), false},
		{"no 4th sort attribute", "multi", without("s4"), false},
		{"2nd partition attribute a string, declared N", "multi", with("p2", Str("7")), false},
		{"3rd sort attribute a string, declared N", "multi", with("s3", Str("3")), false},
		{"4th partition attribute a number, undeclared so S", "multi", with("p4", Num("1")), false},
		{"4th sort attribute an empty string", "multi", with("s4", Str("")), false},
		{"2nd sort attribute an empty binary", "multi", with("s2", Value{Type: TypeB}), false},
		{"an empty string is not a key", "single", with("g", Str("")), false},
		{"one attribute a side, both there", "single", fullItem(), true},
		{"one attribute a side, no sort", "single", without("s1"), false},
		{"one attribute a side, no partition", "single", without("g"), false},
		{"one attribute a side, the other index's attributes missing", "single", without("p2", "s4"), true},
		{"LSI: the table's partition and its sort", "local", fullItem(), true},
		{"LSI without its sort key", "local", without("at"), false},
		{"LSI sort key of another type", "local", with("at", Str("5")), false},
	}
	for _, c := range cases {
		ix, ok := tab.IndexByName(c.index)
		if !ok {
			t.Fatalf("%s: no index %s", c.name, c.index)
		}
		if got := tab.InIndex(&ix, c.item); got != c.want {
			t.Errorf("%s: InIndex(%s) = %v, want %v", c.name, c.index, got, c.want)
		}
	}
}
