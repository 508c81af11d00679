package cost

import (
	"fmt"
	"slices"
	"testing"

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
	if chunkCount(len(items)/2) < 2 {
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
