package engine

import (
	"maps"
	"testing"

	"stwb/model"
)

// The engine makes an index entry for an item exactly when model.Table.InIndex
// says the index holds it (model/membership_test.go has the rule's table of
// cases, with its sources): storage and review decide membership by InIndex, the
// engine by the same IndexableKeyValue as it encodes the key, and this holds the
// two together on every way an item can miss a key: each key attribute of each
// index left out, given another type, or given empty.
func TestEntriesFollowInIndex(t *testing.T) {
	tab := model.Table{Name: "m", Key: model.KeySchema{Partition: "PK", Sort: "SK"},
		Attributes: map[string]model.Type{"PK": model.TypeS, "SK": model.TypeS, "p2": model.TypeN, "s3": model.TypeN, "at": model.TypeN, "bin": model.TypeB},
		Indexes: []model.Index{
			{Name: "multi", Key: model.NewKeySchema([]string{"p1", "p2", "p3", "p4"}, []string{"s1", "s2", "s3", "s4"}), Projection: model.Projection{Type: model.ProjectAll}},
			{Name: "partitionOnly", Key: model.NewKeySchema([]string{"p1", "p2"}, nil), Projection: model.Projection{Type: model.ProjectKeysOnly}},
			{Name: "single", Key: model.KeySchema{Partition: "g", Sort: "bin"}, Projection: model.Projection{Type: model.ProjectAll}},
			{Name: "local", Local: true, Key: model.KeySchema{Sort: "at"}, Projection: model.Projection{Type: model.ProjectAll}},
		}}
	full := model.Item{"PK": model.Str("C#1"), "SK": model.Str("O#1"), "p1": model.Str("t"), "p2": model.Num("7"), "p3": model.Str("r"),
		"p4": model.Str("x"), "s1": model.Str("a"), "s2": model.Str("b"), "s3": model.Num("3"), "s4": model.Str("d"), "g": model.Str("G"),
		"bin": model.Bin([]byte{1}), "at": model.Num("5")}
	e, err := Load(tab, ItemSlice{})
	if err != nil {
		t.Fatal(err)
	}
	variants := map[string]model.Item{"every key attribute": full}
	for name, v := range full {
		if name == "PK" || name == "SK" {
			continue // the table's own keys: an item without them is not stored at all
		}
		gone, other, empty := maps.Clone(full), maps.Clone(full), maps.Clone(full)
		delete(gone, name)
		variants["no "+name] = gone
		if v.Type == model.TypeN {
			other[name] = model.Str(v.Str)
			empty[name] = model.Str("")
		} else {
			other[name] = model.Num("1")
			empty[name] = model.Value{Type: v.Type}
		}
		variants[name+" of another type"] = other
		variants[name+" empty"] = empty
	}
	held := 0
	for what, it := range variants {
		for k, ix := range e.indexes {
			te := &entry{size: int32(model.ItemSize(it))}
			var en entry
			got := ix.fillEntry(&en, te, it, nil)
			if want := tab.InIndex(&tab.Indexes[k], it); got != want {
				t.Errorf("%s: index %s has an entry %v, InIndex says %v", what, ix.def.Name, got, want)
			}
			if got {
				held++
			}
		}
	}
	if held == 0 || held == len(variants)*len(e.indexes) {
		t.Fatalf("%d entries of %d: the variants no longer test both answers", held, len(variants)*len(e.indexes))
	}
}
