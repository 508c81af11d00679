package render

import (
	"slices"
	"strings"
	"testing"

	"stwb/model"
)

// TestGridMultiAttributeIndex: an index view on a multi-attribute key
// (GSI.DesignPattern.MultiAttributeKeys.html) holds the items with every key
// attribute, groups them by the tuple of partition values and orders each group
// by the sort attributes in turn, each by its type (round 10 after round 2); the
// key columns show the tuples in key order.
func TestGridMultiAttributeIndex(t *testing.T) {
	s, n := model.Str, model.Num
	d := &model.Design{
		Table: model.Table{Name: "t", Key: model.KeySchema{Partition: "PK"}, Attributes: map[string]model.Type{"round": model.TypeN},
			Indexes: []model.Index{{Name: "ByRegion", Key: model.NewKeySchema([]string{"t", "r"}, []string{"round", "b"}),
				Projection: model.Projection{Type: model.ProjectKeysOnly}}}},
		Items: []model.Item{
			{"PK": s("m1"), "t": s("W26"), "r": s("NA"), "round": n("10"), "b": s("UP")},
			{"PK": s("m2"), "t": s("W26"), "r": s("EU"), "round": n("1"), "b": s("UP")},
			{"PK": s("m3"), "t": s("W26"), "r": s("NA"), "round": n("2"), "b": s("UP")},
			{"PK": s("m4"), "t": s("W26"), "r": s("NA"), "round": n("2"), "b": s("LOW")},
			{"PK": s("m5"), "t": s("W26"), "r": s("NA"), "round": n("3")}, // no b: not in the index
		},
	}
	g, err := BuildGrid(d, "ByRegion")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var firsts []bool
	for _, r := range g.Rows {
		got = append(got, d.Items[r.Item]["PK"].Str)
		firsts = append(firsts, r.First)
	}
	if want := []string{"m2", "m4", "m3", "m1"}; !slices.Equal(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
	if want := []bool{true, true, false, false}; !slices.Equal(firsts, want) {
		t.Errorf("groups start at %v, want %v (one per tuple)", firsts, want)
	}
	out := g.Render(d, GridOptions{Width: 100, Height: 6, Cursor: -1, Styles: Plain()})
	for _, want := range []string{"t · r", "round · b", "W26 · EU", "W26 · NA", "2 · LOW", "10 · UP"} {
		if !strings.Contains(out, want) {
			t.Errorf("the grid lacks %q:\n%s", want, out)
		}
	}
	if p := g.Project(d.Items[0]); len(p) != 5 {
		t.Errorf("a keys-only entry holds the table key and every index key attribute: %v", p)
	}
}
