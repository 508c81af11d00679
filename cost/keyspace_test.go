package cost

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"stwb/internal/chunks"
	"stwb/model"
)

// An index entry may leave the type attribute out: EntityOf names its entity from
// the sample item with the same table key (the last one when two share it).
func TestEntityOfIndexEntryFromSamples(t *testing.T) {
	d := &model.Design{Table: model.Table{Key: model.KeySchema{Partition: "PK", Sort: "SK"}},
		Entities: []model.Entity{{Name: "customer"}, {Name: "order"}}}
	items := []model.Item{
		{"type": model.Str("customer"), "PK": model.Str("C#1"), "SK": model.Str("PROFILE")},
		{"type": model.Str("order"), "PK": model.Str("C#1"), "SK": model.Str("O#1")},
		{"type": model.Str("nobody"), "PK": model.Str("C#2"), "SK": model.Str("O#9")},
		{"type": model.Str("customer"), "PK": model.Str("C#3"), "SK": model.Str("O#3")},
		{"type": model.Str("order"), "PK": model.Str("C#3"), "SK": model.Str("O#3")},
		{"type": model.Str("order"), "PK": model.Num("7"), "SK": model.Str("O#7")},
	}
	ks := NewKeySpace(d, items, declaredCount)
	cases := []struct {
		entry model.Item
		want  string // "" for none
	}{
		{model.Item{"PK": model.Str("C#1"), "SK": model.Str("PROFILE"), "total": model.Num("1")}, "customer"},
		{model.Item{"PK": model.Str("C#1"), "SK": model.Str("O#1")}, "order"},
		{model.Item{"PK": model.Str("C#2"), "SK": model.Str("O#9")}, ""}, // its type names no entity
		{model.Item{"PK": model.Str("C#3"), "SK": model.Str("O#3")}, "order"},
		{model.Item{"PK": model.Num("7"), "SK": model.Str("O#7")}, "order"},
		{model.Item{"PK": model.Str("7"), "SK": model.Str("O#7")}, ""}, // a string, not the number 7
		{model.Item{"PK": model.Str("C#1"), "SK": model.Str("O#2")}, ""},
		{model.Item{"type": model.Str("customer"), "PK": model.Str("C#1"), "SK": model.Str("O#1")}, "customer"},
	}
	// The same answers when every key's hash clashes, or those of one partition.
	indexes := map[string]*sampleIndex{
		"all hashes clash":         newSampleIndex(ks, func(tableKey) uint32 { return 7 }),
		"a partition's keys clash": newSampleIndex(ks, func(k tableKey) uint32 { return uint32(len(k.p)) }),
	}
	for _, c := range cases {
		got := ""
		if e := ks.EntityOf(c.entry); e != nil {
			got = e.Name
		}
		if got != c.want {
			t.Errorf("EntityOf(%v) = %q, want %q", c.entry, got, c.want)
		}
		if _, typed := c.entry["type"]; typed {
			continue
		}
		for name, x := range indexes {
			got := ""
			if e := x.entityOf(tableKeyOf(d, c.entry)); e != nil {
				got = e.Name
			}
			if got != c.want {
				t.Errorf("%s: entityOf(%v) = %q, want %q", name, c.entry, got, c.want)
			}
		}
	}
}

func TestDistinctValues(t *testing.T) {
	many := make([]string, 0, 1000)
	for i := range 1000 {
		many = append(many, fmt.Sprint(i%400))
	}
	sixteen := make([]string, 0, 32)
	for i := range 32 {
		sixteen = append(sixteen, fmt.Sprint(i%16))
	}
	seventeen := make([]string, 0, 34)
	for i := range 34 {
		seventeen = append(seventeen, fmt.Sprint(i%17))
	}
	cases := []struct {
		vals     []string
		distinct int
		repeated bool
	}{
		{[]string{"A", "B", "A", "B"}, 2, true},
		{[]string{"A", "B", "A"}, 2, false},
		{[]string{"A"}, 1, false},
		{sixteen, 16, true},
		{sixteen[:31], 16, false},
		{seventeen, 17, false}, // past lowCardinalityValues: not few, whatever the repeats
		{many, 400, false},
	}
	for _, c := range cases {
		// The same counts when the values come in order (counted by their runs).
		for _, vals := range [][]string{c.vals, slices.Sorted(slices.Values(c.vals))} {
			n, rep := distinctValues(vals)
			if n != c.distinct || rep != c.repeated {
				t.Errorf("distinctValues(%d values, sorted %v) = %d, %v; want %d, %v", len(vals), slices.IsSorted(vals), n, rep, c.distinct, c.repeated)
			}
		}
	}
}

// Every sample of a design large enough to be read a chunk a core (chunkedFrom)
// is found by its key (the index's sort orders hashes over their whole range),
// and its variables' values come in the samples' order, those it lacks left out.
func TestManySamples(t *testing.T) {
	d := &model.Design{Table: model.Table{Key: model.KeySchema{Partition: "PK", Sort: "SK"}},
		Entities: []model.Entity{{Name: "customer", Keys: map[string]string{"PK": "C#{id}", "SK": "S#{n}"}}, {Name: "order"}}}
	var items []model.Item
	var wantIDs, wantTiers []string
	for i := range 3 * chunkedFrom {
		it := model.Item{"type": model.Str([]string{"customer", "order"}[i%2]),
			"PK": model.Str(fmt.Sprintf("C#%d", i/3)), "SK": model.Str(fmt.Sprintf("S#%d", i))}
		if i%2 == 0 {
			wantIDs = append(wantIDs, fmt.Sprint(i/3))
			if i%3 == 0 {
				it["tier"] = model.Str(fmt.Sprint(i))
				wantTiers = append(wantTiers, fmt.Sprint(i))
			}
		}
		items = append(items, it)
	}
	if chunks.Count(len(items)/2, chunkedFrom) < 2 {
		t.Logf("one core: the samples are read in one chunk")
	}
	ks := NewKeySpace(d, items, declaredCount)
	for i, it := range items {
		e := ks.EntityOf(model.Item{"PK": it["PK"], "SK": it["SK"]})
		if want := it["type"].Str; e == nil || e.Name != want {
			t.Fatalf("EntityOf(item %d's key) = %v, want %s", i, e, want)
		}
	}
	if e := ks.EntityOf(model.Item{"PK": model.Str("C#0"), "SK": model.Str("S#3")}); e != nil {
		t.Errorf("EntityOf(a key no sample has) = %s, want none", e.Name)
	}
	customer := d.EntityByName("customer")
	if got := ks.sampleValues(customer, "id"); !slices.Equal(got, wantIDs) {
		t.Errorf("sample values of id: %d values, want %d in the samples' order", len(got), len(wantIDs))
	}
	if got := ks.sampleValues(customer, "tier"); !slices.Equal(got, wantTiers) {
		t.Errorf("sample values of tier: %d values, want %d in the samples' order", len(got), len(wantTiers))
	}
}

// Compute reads what the key space asks of each item in its storage pass
// (readItems): the same samples, the same values of every template variable and
// the same entity of each table key as the key space reads for itself, for items
// of every kind (a type naming no entity, a number type, no type, a variable
// given as an attribute, one read from a second template, one missing), in one
// chunk and in several.
func TestReadItemsIsTheKeySpace(t *testing.T) {
	d := &model.Design{Table: model.Table{Key: model.KeySchema{Partition: "PK", Sort: "SK"},
		Indexes: []model.Index{{Name: "GSI1", Key: model.KeySchema{Partition: "GSI1PK", Sort: "GSI1SK"}}}},
		Entities: []model.Entity{
			{Name: "customer", Keys: map[string]string{"PK": "C#{id}", "SK": "PROFILE"}},
			{Name: "order", Keys: map[string]string{"PK": "C#{id}", "SK": "O#{oid}#{day}", "GSI1PK": "S#{status}", "GSI1SK": "{oid}"}},
			{Name: "order", Keys: map[string]string{"PK": "X#{other}"}}, // a second of the name: the first is the one
			{Name: "unused", Keys: map[string]string{"PK": "U#{u}"}},
		}}
	for _, n := range []int{40, 3 * chunkedFrom} {
		var items []model.Item
		for i := range n {
			it := model.Item{"PK": model.Str(fmt.Sprintf("C#%d", i/4)), "SK": model.Str(fmt.Sprintf("O#%d#2026-01-%02d", i, i%28+1))}
			switch i % 7 {
			case 0:
				it["type"], it["SK"] = model.Str("customer"), model.Str("PROFILE")
			case 1:
				it["type"], it["status"] = model.Str("order"), model.Str([]string{"NEW", "PAID"}[i%2])
			case 2:
				it["type"], it["GSI1SK"], it["SK"] = model.Str("order"), model.Str(fmt.Sprint("g", i)), model.Str("bad")
			case 3:
				it["type"], it["id"], it["PK"] = model.Str("order"), model.Num(fmt.Sprint(i)), model.Str(fmt.Sprint("X#", i))
			case 4:
				it["type"] = model.Str("nobody")
			case 5:
				it["type"] = model.Num("1")
			}
			items = append(items, it)
		}
		want := NewKeySpace(d, items, declaredCount)
		for _, index := range []bool{false, true} {
			_, got := readItems(d, model.ItemMaps(items), nil, declaredCount, true, index)
			if !maps.EqualFunc(got.samples, want.samples, slices.Equal) || len(got.samples) != 2 {
				t.Fatalf("%d items: samples of %d entities, want those of %d", n, len(got.samples), len(want.samples))
			}
			for _, e := range []*model.Entity{&d.Entities[0], &d.Entities[1], &d.Entities[3]} {
				for _, v := range []string{"id", "oid", "day", "status", "other", "u"} {
					if g, w := got.sampleValues(e, v), want.sampleValues(e, v); !slices.Equal(g, w) {
						t.Errorf("%d items: %s's %s: %d values, want %d", n, e.Name, v, len(g), len(w))
					}
				}
			}
			if index != (got.byKey != nil) {
				t.Errorf("%d items: sample index built %v, want %v", n, got.byKey != nil, index)
			}
			for i, it := range items {
				key := model.Item{"PK": it["PK"], "SK": it["SK"]}
				if g, w := got.EntityOf(key), want.EntityOf(key); g != w {
					t.Fatalf("%d items: EntityOf(item %d's key) = %v, want %v", n, i, g, w)
				}
			}
		}
	}
}
