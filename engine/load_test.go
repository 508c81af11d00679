package engine

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"stwb/dynamojson"
	"stwb/model"
)

// treeRows lists a tree's entries in order as comparable text: key, size, and the
// item's attributes, so two engines can be compared entry by entry.
func treeRows(e *Engine) map[string][]string {
	rows := map[string][]string{}
	dump := func(name string, en *entry) bool {
		var b strings.Builder
		b.WriteString(en.pk + "|" + en.sk)
		if en.base != nil {
			b.WriteString("|" + en.base.pk + "|" + en.base.sk)
		}
		b.WriteString("|" + strconv.Itoa(int(en.size)) + "|")
		b.Write(dynamojson.AppendItem(nil, en.item))
		rows[name] = append(rows[name], b.String())
		return true
	}
	e.tree.Ascend(func(en *entry) bool { return dump("table", en) })
	for _, ix := range e.indexes {
		ix.tree.Ascend(func(en *entry) bool { return dump(ix.def.Name, en) })
	}
	return rows
}

// FromDesign's bulk load must leave exactly what putting the items one by one
// leaves (API_PutItem.html: a put replaces the item with the same key, entirely,
// and its index entries with it; GSI.html "Sparse indexes": an item without an
// index's key attributes has no entry in it), and must refuse the same item.
func TestBulkLoadMatchesPuts(t *testing.T) {
	for _, tc := range []struct {
		name    string
		items   []model.Item
		wantErr string // the first refused item's place, when one is refused
	}{
		{name: "no items"},
		{name: "distinct keys, every index", items: []model.Item{
			item("PK", "a", "SK", "1", "GSI1PK", "g", "GSI1SK", "x", "G2", "k", "G3", "s", "n", model.Num("1.50"), "placedAt", "2026", "status", "NEW"),
			item("PK", "a", "SK", "2", "GSI1PK", "g", "GSI1SK", "x", "placedAt", "2025"),
			item("PK", "b", "SK", "1", "G3", "s", "n", model.Num("-3")),
		}},
		{name: "a later item with the same key replaces the earlier, index entries too", items: []model.Item{
			item("PK", "a", "SK", "1", "GSI1PK", "old", "GSI1SK", "x", "G2", "k"),
			item("PK", "b", "SK", "1", "GSI1PK", "g", "GSI1SK", "y"),
			item("PK", "a", "SK", "1", "GSI1PK", "new", "GSI1SK", "z", "placedAt", "2026"),
			item("PK", "a", "SK", "1", "GSI1PK", "newest", "GSI1SK", "z"),
		}},
		{name: "a number key written two ways is one key", items: []model.Item{
			item("PK", "a", "SK", "1", "G3", "s", "n", model.Num("2.0")),
			item("PK", "a", "SK", "2", "G3", "s", "n", model.Num("2")),
		}},
		{name: "a refused item is named by its index", items: []model.Item{
			item("PK", "a", "SK", "1"),
			item("PK", "a"),
		}, wantErr: "items[1]: One or more parameter values were invalid: Missing the key SK in the item"},
		// Enough items to be loaded on several goroutines, with the replaced and
		// the refused items in different chunks.
		{name: "many items, a key repeated across chunks", items: manyItems(9000, map[int]model.Item{
			8500: item("PK", "p1", "SK", "00001", "GSI1PK", "moved", "GSI1SK", "z"),
			8999: item("PK", "p1", "SK", "00001", "G2", "last"),
		})},
		{name: "many items, the first of two refused is named", items: manyItems(9000, map[int]model.Item{
			// The later refusal is the last item the last chunk reads, so only
			// keeping the first in item order names item 10.
			8999: item("PK", "late"),
			10:   item("PK", "early"),
		}), wantErr: "items[10]: One or more parameter values were invalid: Missing the key SK in the item"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &model.Design{Table: testTable(), Items: tc.items}
			bulk, err := FromDesign(d)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			one := newTestEngine(t, tc.items...)
			got, want := treeRows(bulk), treeRows(one)
			for _, name := range []string{"table", "GSI1", "G2", "G3", "LSI1"} {
				if strings.Join(got[name], "\n") != strings.Join(want[name], "\n") {
					t.Errorf("%s after the bulk load:\n%s\nafter puts one by one:\n%s",
						name, strings.Join(got[name], "\n"), strings.Join(want[name], "\n"))
				}
			}
			if bulk.Len() != one.Len() {
				t.Errorf("Len %d, want %d", bulk.Len(), one.Len())
			}
		})
	}
}

// The load's hash memo gives every value the hash scanHash gives it (the order of
// a Scan, dynalite's md5 hash), whichever values came before it in the same slot.
func TestHashMemoMatchesScanHash(t *testing.T) {
	var memo hashMemo
	for _, tc := range []struct {
		name string
		v    model.Value
	}{
		{"first string", model.Str("CUST#42")},
		{"the same again", model.Str("CUST#42")},
		{"binary with the same bytes", model.Value{Type: model.TypeB, Str: "CUST#42"}},
		{"same length, same middle and last byte", model.Str("XUST#42")},
		{"back to the first", model.Str("CUST#42")},
		{"a number, never memoised", model.Num("42")},
		{"an equal number written otherwise", model.Num("42.0")},
		{"one byte", model.Str("a")},
		{"multi-byte text", model.Str("顧客#42")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, want := memo.scanHash(tc.v), scanHash(tc.v); got != want {
				t.Errorf("memo %06x, scanHash %06x", got, want)
			}
			want, wantOK := encodeKey(tc.v)
			if _, got, ok := memo.partitionKey(tc.v); got != want || ok != wantOK {
				t.Errorf("memo's key %q %v, encodeKey %q %v", got, ok, want, wantOK)
			}
		})
	}
	var none *hashMemo
	if got, want := none.scanHash(model.Str("x")), scanHash(model.Str("x")); got != want {
		t.Errorf("nil memo %06x, scanHash %06x", got, want)
	}
}

// A load gives the entries of one partition one string for their partition key,
// in the table's tree and an index's, where each item brought its own: a Query
// then reads one string, not one an entry (hashMemo).
func TestLoadSharesPartitionKeys(t *testing.T) {
	table := model.Table{Name: "t", Key: model.KeySchema{Partition: "PK", Sort: "SK"},
		Indexes: []model.Index{{Name: "GSI1", Key: model.KeySchema{Partition: "GSI1PK", Sort: "GSI1SK"}}}}
	items := manyItems(1000, nil)
	e, err := Load(table, ItemSlice{Items: items})
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, tree *entryTree) {
		first := map[string]*byte{}
		shared := 0
		tree.Ascend(func(en *entry) bool {
			p := unsafe.StringData(en.pk)
			if q, ok := first[en.pk]; !ok {
				first[en.pk] = p
			} else if q != p {
				t.Errorf("%s: partition %q has two strings", name, en.pk)
				return false
			} else {
				shared++
			}
			return true
		})
		if shared == 0 {
			t.Errorf("%s: no partition with two entries", name)
		}
	}
	check("table", e.tree)
	check("GSI1", e.indexes[0].tree)
}

// manyItems makes n items in partitions of 100, half of them in GSI1, with the
// items of at replacing those at their places.
func manyItems(n int, at map[int]model.Item) []model.Item {
	items := make([]model.Item, n)
	for i := range items {
		items[i] = item("PK", fmt.Sprintf("p%d", i/100), "SK", fmt.Sprintf("%05d", i))
		if i%2 == 0 {
			items[i]["GSI1PK"], items[i]["GSI1SK"] = model.Str(fmt.Sprintf("g%d", i%7)), model.Str(fmt.Sprint(i))
		}
		if it, ok := at[i]; ok {
			items[i] = it
		}
	}
	return items
}

// An item over 400 KB among a design's items is left out of the engine, as
// DynamoDB never stores it (PutItem refuses it); the load goes on with the rest.
// Review's item-too-large names it. The same through the bulk (lazy) load.
func TestLoadLeavesOutItemsOverTheLimit(t *testing.T) {
	table := model.Table{Name: "t", Key: model.KeySchema{Partition: "PK"},
		Indexes: []model.Index{{Name: "GSI1", Key: model.KeySchema{Partition: "G"}}}}
	items := []model.Item{
		{"PK": model.Str("a"), "G": model.Str("x")},
		{"PK": model.Str("big"), "G": model.Str("x"), "blob": model.Str(strings.Repeat("b", model.MaxItemSize))},
		{"PK": model.Str("c"), "G": model.Str("x")},
	}
	e, err := Load(table, ItemSlice{Items: items})
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewBulk(table, ItemSlice{Items: items})
	if err != nil {
		t.Fatal(err)
	}
	w := b.Worker()
	for i, it := range items {
		if _, err := w.Put(i, it); err != nil {
			t.Fatalf("bulk put %d: %v", i, err)
		}
	}
	lazy, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	for name, e := range map[string]*Engine{"load": e, "bulk": lazy} {
		if e.Len() != 2 {
			t.Errorf("%s: %d items stored, want 2", name, e.Len())
		}
		out, err := e.Query(QueryInput{IndexName: "GSI1", KeyConditionExpression: "G = :g", ExpressionAttributeValues: map[string]model.Value{":g": model.Str("x")}})
		if err != nil || out.Count != 2 {
			t.Errorf("%s: the index holds %v items (%v), want 2", name, out, err)
		}
	}
}
