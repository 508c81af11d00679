package model

import (
	"slices"
	"testing"
)

// The 400 KB item limit, attribute names included, is inclusive: an item of exactly
// 409,600 bytes is stored, one byte more is refused (ServiceQuotas.html "Item size";
// PutItem's "Item size has exceeded the maximum allowed size").
func TestStoredItems(t *testing.T) {
	a, b, c := Item{"PK": Str("a")}, Item{"PK": Str("b")}, Item{"PK": Str("c")}
	cases := []struct {
		name      string
		sizes     []int
		wantItems []Item
		wantOut   []int
	}{
		{"none over", []int{10, MaxItemSize, 1}, []Item{a, b, c}, nil},
		{"one byte over", []int{10, MaxItemSize + 1, 1}, []Item{a, c}, []int{1}},
		{"all over", []int{MaxItemSize + 1, 500_000, MaxItemSize * 2}, []Item{}, []int{0, 1, 2}},
	}
	for _, tc := range cases {
		items, sizes, out := StoredItems([]Item{a, b, c}, tc.sizes)
		if !slices.Equal(out, tc.wantOut) || len(items) != len(tc.wantItems) || len(sizes) != len(items) {
			t.Errorf("%s: left out %v, kept %d items with %d sizes; want left out %v, kept %d", tc.name, out, len(items), len(sizes), tc.wantOut, len(tc.wantItems))
			continue
		}
		for i := range items {
			if items[i]["PK"].Str != tc.wantItems[i]["PK"].Str || !Stored(sizes[i]) {
				t.Errorf("%s: kept item %d is %v (size %d)", tc.name, i, items[i], sizes[i])
			}
		}
	}
}
