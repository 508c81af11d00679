package engine

import (
	"strings"
	"testing"

	"stwb/model"
)

// Read and write unit rounding (CapacityUnitCalculations.html: "4 KB" read units,
// "1 KB" write units, eventually consistent reads at half).
func TestUnitRounding(t *testing.T) {
	for _, tc := range []struct {
		bytes      int
		consistent bool
		read       float64
		write      float64
	}{
		{1, true, 1, 1},
		{1, false, 0.5, 1},
		{1024, true, 1, 1},
		{1025, true, 1, 2},
		{4096, true, 1, 4},
		{4096, false, 0.5, 4},
		{4097, true, 2, 5},
		{4097, false, 1, 5},
		{8192, false, 1, 8},
		{409600, true, 100, 400},
	} {
		if got := readUnits(tc.bytes, tc.consistent); got != tc.read {
			t.Errorf("readUnits(%d, %v) = %v, want %v", tc.bytes, tc.consistent, got, tc.read)
		}
		if got := writeUnits(tc.bytes); got != tc.write {
			t.Errorf("writeUnits(%d) = %v, want %v", tc.bytes, got, tc.write)
		}
	}
}

// Per-operation rules (read-write-operations.html; transaction-apis.html).
func TestOperationUnits(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  float64
		want float64
	}{
		{"GetItem found 4 KB consistent", getUnits(4096, true, true), 1},
		{"GetItem found 4097 eventual", getUnits(4097, true, false), 1},
		{"GetItem missing consistent", getUnits(0, false, true), 1},
		{"GetItem missing eventual", getUnits(0, false, false), 0.5},
		{"Query page 0 bytes eventual", pageUnits(0, false), 0.5},
		{"Query page 10 x 500 B eventual", pageUnits(5000, false), 1},
		{"Query page 1 MB consistent", pageUnits(1<<20, true), 256},
		{"LSI fetch 5000 B", lsiFetchUnits(5000, true), 2},
		{"LSI fetch 5000 B eventual", lsiFetchUnits(5000, false), 1},
		{"TransactGet 4 KB", transactReadUnits(4096), 2},
		{"TransactGet 4097 B", transactReadUnits(4097), 4},
		{"TransactGet missing", transactReadUnits(0), 2},
		{"Put new 1 KB", putUnits(0, 1024), 1},
		{"Put new 1025 B", putUnits(0, 1025), 2},
		{"Put over larger old", putUnits(3000, 100), 3},
		{"Update grows", putUnits(500, 2049), 3},
		{"Delete 2 KB", deleteUnits(2048), 2},
		{"Delete missing", deleteUnits(0), 1},
		{"ConditionCheck 1 KB", transactCheckUnits(1024), 2},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

// The index write table of DYNAMODB.md (GSI.html and LSI.html "Writes"), row by row.
func TestIndexWriteUnitsRows(t *testing.T) {
	for _, tc := range []struct {
		name string
		w    indexWrite
		want float64
	}{
		{"absent -> absent", indexWrite{}, 0},
		{"absent -> N", indexWrite{After: true, AfterSize: 1500}, 2},
		{"O -> absent", indexWrite{Before: true, BeforeSize: 2049}, 3},
		{"same key, view unchanged", indexWrite{Before: true, After: true, BeforeSize: 3000, AfterSize: 3000, SameKey: true, SameView: true}, 0},
		{"same key, view changed", indexWrite{Before: true, After: true, BeforeSize: 3000, AfterSize: 900, SameKey: true}, 3},
		{"same key, view changed, grows", indexWrite{Before: true, After: true, BeforeSize: 900, AfterSize: 1025, SameKey: true}, 2},
		{"key changed", indexWrite{Before: true, After: true, BeforeSize: 1500, AfterSize: 100}, 3},
		{"key changed, view same", indexWrite{Before: true, After: true, BeforeSize: 10, AfterSize: 10, SameView: true}, 2},
	} {
		if got := indexWriteUnits(tc.w); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The same rows through the engine: a write's index units come from the entries the
// index held before and after, sized as table keys + index keys + projected
// attributes (GSI.html "Storage", "Writes").
func TestIndexWritesThroughEngine(t *testing.T) {
	big := strings.Repeat("é", 600) // 1200 bytes of UTF-8
	base := func(kv ...any) model.Item { return item(append([]any{"PK", "p", "SK", "s"}, kv...)...) }
	for _, tc := range []struct {
		name   string
		before model.Item // nil: no item
		after  model.Item // nil: delete
		want   map[string]float64
	}{
		{"absent -> absent on every index", nil, base("x", "1"),
			map[string]float64{"GSI1": 0, "G2": 0, "G3": 0, "LSI1": 0}},
		{"absent -> N", nil, base("G2", "g", "big", big),
			// G2 is KEYS_ONLY: PK(3) + SK(3) + G2(3) = 9 bytes -> 1; big is not projected.
			map[string]float64{"GSI1": 0, "G2": 1, "G3": 0, "LSI1": 0}},
		{"absent -> N, ALL index sized on the whole item", nil, base("GSI1PK", "a", "GSI1SK", "b", "big", big),
			map[string]float64{"GSI1": 2, "G2": 0, "G3": 0, "LSI1": 0}},
		{"O -> absent (delete)", base("GSI1PK", "a", "GSI1SK", "b", "big", big), nil,
			map[string]float64{"GSI1": 2, "G2": 0, "G3": 0, "LSI1": 0}},
		{"O -> absent (key attribute removed)", base("GSI1PK", "a", "GSI1SK", "b", "big", big), base("big", big),
			map[string]float64{"GSI1": 2, "G2": 0, "G3": 0, "LSI1": 0}},
		{"same key, unprojected attribute changed", base("G2", "g", "big", big), base("G2", "g", "big", big+"x"),
			map[string]float64{"GSI1": 0, "G2": 0, "G3": 0, "LSI1": 0}},
		{"same key, projected attribute changed", base("G3", "g", "n", model.Num("1"), "status", big), base("G3", "g", "n", model.Num("1"), "status", "short"),
			// before: PK 3 + SK 3 + G3 3 + n 1+2 + status 6+1200 = 1218 -> 2; after small -> 1: max 2
			map[string]float64{"GSI1": 0, "G2": 0, "G3": 2, "LSI1": 0}},
		{"key changed", base("G3", "g", "n", model.Num("1"), "status", big), base("G3", "g", "n", model.Num("2"), "status", big),
			map[string]float64{"GSI1": 0, "G2": 0, "G3": 4, "LSI1": 0}},
		{"LSI key changed", base("placedAt", "1"), base("placedAt", "2"),
			map[string]float64{"GSI1": 0, "G2": 0, "G3": 0, "LSI1": 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newTestEngine(t)
			if tc.before != nil {
				if err := e.load(tc.before); err != nil {
					t.Fatal(err)
				}
			}
			var iu indexUnits
			if tc.after != nil {
				it, size, err := e.checkItem(tc.after)
				if err != nil {
					t.Fatal(err)
				}
				_, iu = e.store(it, size, true)
			} else {
				_, iu = e.remove(e.probe(item("PK", "p", "SK", "s")))
			}
			idx := iu.units
			for name, want := range tc.want {
				if idx[name] != want {
					t.Errorf("%s: %v WCU, want %v (all %v)", name, idx[name], want, idx)
				}
			}
		})
	}
}

// Item sizes at the 1 KB and 4 KB boundaries with multi-byte strings and every value
// type, as GetItem and PutItem bill them (CapacityUnitCalculations.html;
// HowItWorks.NamingRulesDataTypes.html for the sizes of each type).
func TestCapacityBoundariesByType(t *testing.T) {
	key := item("PK", "k", "SK", "s") // 2 + 1 + 2 + 1 = 6 bytes
	for _, tc := range []struct {
		name  string
		attr  string
		value model.Value
		size  int // expected item size
		wcu   float64
		rcu   float64 // consistent GetItem
	}{
		{"S ascii to 1024", "a", model.Str(strings.Repeat("x", 1024-6-1)), 1024, 1, 1},
		{"S ascii 1025", "a", model.Str(strings.Repeat("x", 1024-6)), 1025, 2, 1},
		{"S two-byte runes to 1024", "a", model.Str(strings.Repeat("é", 508) + "x"), 1024, 1, 1},
		{"S three-byte runes cross 1024", "a", model.Str(strings.Repeat("中", 340) + "x"), 1028, 2, 1},
		{"S four-byte runes to 4096", "a", model.Str(strings.Repeat("😀", 1022) + "x"), 4096, 4, 1},
		{"S four-byte runes 4097", "a", model.Str(strings.Repeat("😀", 1022) + "xx"), 4097, 5, 2},
		{"B to 4096", "b", model.Bin([]byte(strings.Repeat("\xff", 4096-6-1))), 4096, 4, 1},
		{"N 38 digits", "n", model.Num("12345678901234567890123456789012345678"), 6 + 1 + 20, 1, 1},
		{"BOOL", "b", model.Bool(true), 8, 1, 1},
		{"NULL", "z", model.Null(), 8, 1, 1},
		{"L of S", "l", model.List(model.Str("ab"), model.Str("中")), 6 + 1 + 3 + 1 + 2 + 1 + 3, 1, 1},
		{"M", "m", model.Map(map[string]model.Value{"k": model.Str("v")}), 6 + 1 + 3 + 1 + 1 + 1, 1, 1},
		{"SS", "s2", model.StrSet("a", "é"), 6 + 2 + 1 + 2, 1, 1},
		{"NS", "ns", model.NumSet("1", "100.5"), 6 + 2 + 2 + 4, 1, 1},
		{"BS", "bs", model.BinSet([]byte{1, 2}, []byte{3}), 6 + 2 + 3, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			it := key.Clone()
			it[tc.attr] = tc.value
			if got := model.ItemSize(it); got != tc.size {
				t.Fatalf("size %d, want %d", got, tc.size)
			}
			e := newTestEngine(t)
			out, err := e.PutItem(PutItemInput{Item: it})
			if err != nil {
				t.Fatal(err)
			}
			if out.Consumed.Table.Write != tc.wcu {
				t.Errorf("PutItem %v WCU, want %v", out.Consumed.Table.Write, tc.wcu)
			}
			g, err := e.GetItem(GetItemInput{Key: key, ConsistentRead: true})
			if err != nil {
				t.Fatal(err)
			}
			if g.Consumed.Table.Read != tc.rcu {
				t.Errorf("GetItem %v RCU, want %v", g.Consumed.Table.Read, tc.rcu)
			}
			d, err := e.DeleteItem(DeleteItemInput{Key: key})
			if err != nil {
				t.Fatal(err)
			}
			if d.Consumed.Table.Write != tc.wcu {
				t.Errorf("DeleteItem %v WCU, want %v", d.Consumed.Table.Write, tc.wcu)
			}
		})
	}
}
