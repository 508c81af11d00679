package analysis

import (
	"reflect"
	"testing"

	"stwb/designfile"
	"stwb/model"
)

// The columns give back every value exactly as it was put, of every type (a list,
// a map or a set kept whole beside its cell), and nothing for an attribute an
// item did not keep.
func TestItemColumnsGiveBackWhatWasPut(t *testing.T) {
	items := []model.Item{
		{"PK": model.Str("A#1"), "n": model.Num("1.50"), "ok": model.Bool(true), "none": model.Null(),
			"tags": {Type: model.TypeSS, List: []model.Value{model.Str("a"), model.Str("b")}},
			"m":    model.Map(map[string]model.Value{"x": model.Num("1")}), "l": model.List(model.Str("x")), "b": model.Bin([]byte{0, 1})},
		{"PK": model.Str("A#2"), "empty": model.List()},
		{},
	}
	c := newItemColumns(&model.Design{}, nil, []string{"PK", "b", "empty", "l", "m", "n", "none", "ok", "tags", "unused"}, len(items))
	for i, it := range items {
		for name, v := range it {
			c.put(i, name, v)
		}
	}
	if c.Len() != len(items) {
		t.Fatalf("Len %d, want %d", c.Len(), len(items))
	}
	for i, want := range items {
		if got := c.Item(i); !reflect.DeepEqual(got, want) {
			t.Errorf("item %d: got %v, want %v", i, got, want)
		}
		for name, v := range want {
			if got, ok := c.Attr(i, name); !ok || !reflect.DeepEqual(got, v) {
				t.Errorf("item %d's %s: got %v %v, want %v", i, name, got, ok, v)
			}
		}
		for _, name := range []string{"unused", "not-a-column"} {
			if v, ok := c.Attr(i, name); ok {
				t.Errorf("item %d has %s: %v", i, name, v)
			}
		}
	}
	// A column (model.ColumnOf) reads what Attr reads, item by item, on the
	// columns themselves and on a list that leaves an item out (model.StoredList).
	sub, _, _ := model.StoredList(c, []int{1, model.MaxItemSize + 1, 1})
	for _, name := range []string{"PK", "b", "empty", "l", "m", "n", "none", "ok", "tags", "unused", "not-a-column"} {
		for _, l := range []model.ItemList{c, sub} {
			col := model.ColumnOf(l, name)
			for i := range l.Len() {
				got, gotOK := col(i)
				want, ok := l.Attr(i, name)
				if gotOK != ok || !reflect.DeepEqual(got, want) {
					t.Errorf("item %d's %s: column %v %v, Attr %v %v", i, name, got, gotOK, want, ok)
				}
			}
		}
	}
}

// Columns over a lazily read file keep each text as where it is in the file, or a
// copy when it is not part of it (escapes, binary), and give every value back.
func TestItemColumnsKeepTextsInTheFile(t *testing.T) {
	data := []byte("version: 1\ntable: {name: tbl, key: {partition: PK}}\nitems:\n" +
		"  - {PK: \"a#1\", n: 12.50, s: plain text, e: \"tab\\there\", z: \"\", b: !!binary AAE=, ok: true}\n" +
		"  - {PK: \"a#2\", n: -3, s: \"\\u00e9t\\u00e9\", z: x}\n")
	f, err := designfile.ParseLazily("f.yaml", data)
	if err != nil || f.Lazy == nil {
		t.Fatalf("lazy %v, error %v", f != nil && f.Lazy != nil, err)
	}
	names := []string{"PK", "b", "e", "n", "ok", "s", "z"}
	c := newItemColumns(f.Design, f.Lazy, names, f.Lazy.Len())
	for i := range f.Lazy.Len() {
		for name, v := range f.Lazy.Item(i) {
			c.put(i, name, v)
		}
	}
	copies := 0
	for k := range c.cols {
		if col := c.cols[k].Load(); col != nil {
			for _, sp := range col.texts {
				if sp.n == copied {
					copies++
				}
			}
		}
	}
	if copies != 3 { // e and b of item 0, s of item 1
		t.Errorf("%d texts copied, want 3", copies)
	}
	for i := range f.Lazy.Len() {
		if got, want := c.Item(i), f.Lazy.Item(i); !reflect.DeepEqual(got, want) {
			t.Errorf("item %d: got %v, want %v", i, got, want)
		}
	}
}
