package cost

import (
	"strings"
	"testing"

	"stwb/model"
)

// Index entries: table keys + index keys + projected attributes, each once
// (CapacityUnitCalculations.html "For storage billing"; GSI.html and LSI.html,
// "Storage considerations"); absent from the index without its keys (sparse).
func TestIndexEntrySize(t *testing.T) {
	tab := model.Table{Key: model.KeySchema{Partition: "PK", Sort: "SK"}, Attributes: map[string]model.Type{"total": model.TypeN}}
	item := model.Item{
		"PK": model.Str("ORDER#1"), "SK": model.Str("M"), // 2+7, 2+1
		"G": model.Str("S#X"), "GS": model.Str("2026"), // 1+3, 2+4
		"total": model.Num("12"), "note": model.Str("hello"), // 5+2, 4+5
	}
	full := model.ItemSize(item)
	cases := []struct {
		name string
		ix   model.Index
		want int
		ok   bool
	}{
		{"keys-only", model.Index{Key: model.KeySchema{Partition: "G", Sort: "GS"}, Projection: model.Projection{Type: model.ProjectKeysOnly}}, 9 + 3 + 4 + 6, true},
		{"include adds the listed, once", model.Index{Key: model.KeySchema{Partition: "G", Sort: "GS"}, Projection: model.Projection{Type: model.ProjectInclude, Include: []string{"total", "PK", "missing"}}}, 9 + 3 + 4 + 6 + 7, true},
		{"all is the whole item", model.Index{Key: model.KeySchema{Partition: "G"}, Projection: model.Projection{Type: model.ProjectAll}}, full, true},
		{"index key is a table key: counted once", model.Index{Key: model.KeySchema{Partition: "G", Sort: "SK"}, Projection: model.Projection{Type: model.ProjectKeysOnly}}, 9 + 3 + 4, true},
		{"LSI: the table's partition key", model.Index{Local: true, Key: model.KeySchema{Partition: "PK", Sort: "total"}, Projection: model.Projection{Type: model.ProjectKeysOnly}}, 9 + 3 + 7, true},
		{"sparse: no partition key attribute", model.Index{Key: model.KeySchema{Partition: "G2"}, Projection: model.Projection{Type: model.ProjectAll}}, 0, false},
		{"sparse: no sort key attribute", model.Index{Key: model.KeySchema{Partition: "G", Sort: "G2SK"}, Projection: model.Projection{Type: model.ProjectAll}}, 0, false},
	}
	for _, c := range cases {
		got, ok := IndexEntrySize(&tab, &c.ix, item)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: %d %v, want %d %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// A multi-attribute GSI holds only the items with every one of its key attributes,
// each of its declared type (GSI.html "Multi-attribute key schema";
// GSI.DesignPattern.MultiAttributeKeys.html; the rule and its cases:
// model.Table.InIndex): storage counts and sizes no entry for a match that lacks
// its region, its round or its bracket, or whose round is not a number, though it
// has the first attribute of each side.
func TestStorageMultiAttributeKeys(t *testing.T) {
	std, _ := Builtin().For("", model.ClassStandard)
	d := &model.Design{Table: model.Table{Name: "t", Key: model.KeySchema{Partition: "PK", Sort: "SK"},
		Attributes: map[string]model.Type{"round": model.TypeN},
		Indexes: []model.Index{{Name: "ByRegion", Key: model.NewKeySchema([]string{"tournament", "region"}, []string{"round", "bracket"}),
			Projection: model.Projection{Type: model.ProjectAll}}}},
		Entities: []model.Entity{{Name: "match", Keys: map[string]string{"PK": "M#{id}", "SK": "M"}, Count: 1000}}}
	match := func(id string, drop string, round model.Value) model.Item {
		it := model.Item{"type": model.Str("match"), "PK": model.Str("M#" + id), "SK": model.Str("M"),
			"tournament": model.Str("W26"), "region": model.Str("NA"), "round": round, "bracket": model.Str("upper")}
		delete(it, drop)
		return it
	}
	held := match("1", "", model.Num("2"))
	items := []model.Item{held,
		match("2", "region", model.Num("2")),     // no 2nd partition attribute
		match("3", "bracket", model.Num("2")),    // no 2nd sort attribute
		match("4", "", model.Str("2")),           // round of another type
		match("5", "tournament", model.Num("2")), // no 1st partition attribute
	}
	s := ComputeStorage(d, items, nil, std)
	line := s.Indexes["ByRegion"]
	// One sample in five is in the index: 1000 x 1/5 entries of its size.
	if want := int64(200); line.Items != want {
		t.Errorf("ByRegion holds %d entries, want %d (1 sample in 5 has every key attribute)", line.Items, want)
	}
	if want := int64(200 * (model.ItemSize(held) + ItemOverhead)); line.Bytes != want {
		t.Errorf("ByRegion stores %d bytes, want %d", line.Bytes, want)
	}
}

// Storage: count x (average sample size + 100 bytes), decimal GB, the class's rate,
// the free tier on its own (DYNAMODB.md "Storage").
func TestComputeStorage(t *testing.T) {
	std, _ := Builtin().For("", model.ClassStandard)
	ia, _ := Builtin().For("", model.ClassStandardIA)
	d := testDesign()
	d.Table.Indexes[1].Projection = model.Projection{Type: model.ProjectKeysOnly}
	order := func(id string, pad int, status bool) model.Item {
		it := model.Item{"type": model.Str("order"), "PK": model.Str("ORDER#" + id), "SK": model.Str("METADATA"),
			"placedAt": model.Str("2026-08-03"), "pad": model.Str(strings.Repeat("x", pad))}
		if status {
			it["GSI1PK"] = model.Str("STATUS#NEW")
			it["GSI1SK"] = model.Str("2026-08-03")
		}
		return it
	}
	o1, o2 := order("1", 100, true), order("2", 300, false) // half of the orders carry GSI1's keys
	cust := model.Item{"type": model.Str("customer"), "PK": model.Str("CUST#1"), "SK": model.Str("PROFILE")}
	loose := model.Item{"PK": model.Str("X"), "SK": model.Str("Y")}                             // untyped: no type
	stray := model.Item{"type": model.Str("ghost"), "PK": model.Str("X"), "SK": model.Str("Z")} // untyped: names no entity
	items := []model.Item{o1, o2, cust, loose, stray}

	s := ComputeStorage(d, items, nil, std)
	orderAvg := float64(model.ItemSize(o1)+model.ItemSize(o2)) / 2
	wantOrder := int64(50_000_000 * (orderAvg + 100))
	wantCust := int64(1_000_000) * int64(model.ItemSize(cust)+100)
	wantUntyped := int64(model.ItemSize(loose) + model.ItemSize(stray) + 200)

	cases := []struct {
		name      string
		got, want int64
	}{
		{"order bytes", s.Entities[1].Bytes, wantOrder},
		{"customer bytes", s.Entities[0].Bytes, wantCust},
		{"config has no samples: unsized", s.Entities[2].Bytes, 0},
		{"untyped counted once each", s.Entities[3].Bytes, wantUntyped},
		{"table items", s.Table.Items, 50_000_000 + 1_000_000 + 1 + 2},
		{"table bytes", s.Table.Bytes, wantOrder + wantCust + wantUntyped},
		// GSI1: half of the orders (count x 1/2), each its whole item (ALL) + 100.
		{"GSI1 entries", s.Indexes["GSI1"].Items, 25_000_000},
		{"GSI1 bytes", s.Indexes["GSI1"].Bytes, 25_000_000 * int64(model.ItemSize(o1)+100)},
		// LSI1 keys on placedAt: only orders carry it (customers lack it).
		{"LSI1 entries", s.Indexes["LSI1"].Items, 50_000_000},
		// Keys only: PK (2+7), SK (2+8), placedAt (8+10), + 100.
		{"LSI1 bytes", s.Indexes["LSI1"].Bytes, 50_000_000 * int64(2+7+2+8+8+10+100)},
		{"all bytes", s.Bytes, s.Table.Bytes + s.Indexes["GSI1"].Bytes + s.Indexes["LSI1"].Bytes},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d", c.name, c.got, c.want)
		}
	}
	// A count the design gives is production's; the untyped items' is the samples'.
	if s.Entities[1].FromSamples || !s.Entities[3].FromSamples {
		t.Errorf("order from samples %v, untyped %v; want false, true", s.Entities[1].FromSamples, s.Entities[3].FromSamples)
	}
	if len(s.Unsized) != 1 || s.Unsized[0] != "config" {
		t.Errorf("unsized %v, want [config]", s.Unsized)
	}
	if !near(s.GB, float64(s.Bytes)/1e9) || !near(s.Monthly, s.GB*0.25) {
		t.Errorf("GB %v monthly %v: want decimal GB at $0.25", s.GB, s.Monthly)
	}
	if s.FreeGB != 25 || !near(s.FreeMonthly, 25*0.25) {
		t.Errorf("free tier %v GB worth %v; want 25 GB worth $6.25 (not subtracted)", s.FreeGB, s.FreeMonthly)
	}
	si := ComputeStorage(d, items, nil, ia)
	if !near(si.Monthly, si.GB*0.10) || si.FreeGB != 0 || si.FreeMonthly != 0 {
		t.Errorf("Standard-IA: monthly %v free %v/%v; want $0.10/GB, no free tier", si.Monthly, si.FreeGB, si.FreeMonthly)
	}
	// Under the free tier, the free line is worth what the design stores.
	small := ComputeStorage(&model.Design{Table: d.Table}, []model.Item{loose}, nil, std)
	if !near(small.FreeMonthly, small.Monthly) || small.Monthly == 0 {
		t.Errorf("small design: free %v, monthly %v", small.FreeMonthly, small.Monthly)
	}
	// An entity without a count counts its samples.
	d.Entities[0].Count = 0
	if got := ComputeStorage(d, items, nil, std).Entities[0].Count; got != 1 {
		t.Errorf("customer without count: %d, want its 1 sample", got)
	}
}

// IndexEntrySize is the billed size of an item's entry in an index, without the
// 100-byte overhead: table keys, index keys and projected attributes, each once.
// ok is false when the item lacks one of the index's key attributes (sparse index).
func IndexEntrySize(t *model.Table, ix *model.Index, it model.Item) (size int, ok bool) {
	if !t.InIndex(ix, it) {
		return 0, false
	}
	if ix.Projection.Type == model.ProjectAll {
		return model.ItemSize(it), true
	}
	return attrsSize(t.IndexEntryAttributes(ix), it), true
}
