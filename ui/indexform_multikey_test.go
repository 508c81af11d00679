package ui

import (
	"slices"
	"strings"
	"testing"

	"stwb/model"
)

// TestIndexFormMultiAttributeKey: the GSI form takes up to four attributes a
// side, comma-separated, with a type each (one type for all, or one for each);
// a single name means what it always meant; an LSI's sort key stays one
// attribute; a fifth attribute, an attribute named twice and a types list of the
// wrong length are refused at their field (GSI.DesignPattern.MultiAttributeKeys.html).
func TestIndexFormMultiAttributeKey(t *testing.T) {
	d := &model.Design{Version: 1, Table: model.Table{Name: "tbl", Key: model.KeySchema{Partition: "PK", Sort: "SK"}}}
	cases := []struct {
		name  string
		local bool
		v     map[string]string
		parts []string
		sorts []string
		types map[string]model.Type
		field string // the field refused; "" when the index is made
		err   string
	}{
		{"one name a side", false, map[string]string{"name": "GSI1", "pk": "GSI1PK", "sk": "GSI1SK"},
			[]string{"GSI1PK"}, []string{"GSI1SK"}, map[string]model.Type{"GSI1PK": model.TypeS, "GSI1SK": model.TypeS}, "", ""},
		{"lists with a type each", false, map[string]string{"name": "ByRegion", "pk": "tournamentId, region", "pktype": "S, S", "sk": "round,bracket", "sktype": "N, S"},
			[]string{"tournamentId", "region"}, []string{"round", "bracket"},
			map[string]model.Type{"tournamentId": model.TypeS, "region": model.TypeS, "round": model.TypeN, "bracket": model.TypeS}, "", ""},
		{"one type for all", false, map[string]string{"name": "ByRegion", "pk": "a, b", "pktype": "N"},
			[]string{"a", "b"}, nil, map[string]model.Type{"a": model.TypeN, "b": model.TypeN}, "", ""},
		{"five attributes", false, map[string]string{"name": "ByRegion", "pk": "a, b, c, d, e"}, nil, nil, nil, "pk", "at most 4 attributes"},
		{"named twice", false, map[string]string{"name": "ByRegion", "pk": "a", "sk": "b, a"}, nil, nil, nil, "sk", "a is in the key already"},
		{"types of another length", false, map[string]string{"name": "ByRegion", "pk": "a, b, c", "pktype": "S, N"}, nil, nil, nil, "pktype", "one for each of the 3 attributes"},
		{"an LSI's sort key is one attribute", true, map[string]string{"name": "LSI1", "sk": "a, b"}, nil, nil, nil, "sk", "an LSI's sort key is one attribute"},
	}
	for _, c := range cases {
		ix, attrs, errs := indexFromForm(d, c.local, -1, c.v)
		if c.field != "" {
			if !strings.Contains(errs[c.field], c.err) {
				t.Errorf("%s: errors %v, want %s: %q", c.name, errs, c.field, c.err)
			}
			continue
		}
		if len(errs) > 0 {
			t.Errorf("%s: refused: %v", c.name, errs)
			continue
		}
		if !slices.Equal(ix.Key.Partitions(), c.parts) || !slices.Equal(ix.Key.Sorts(), c.sorts) {
			t.Errorf("%s: key %v / %v, want %v / %v", c.name, ix.Key.Partitions(), ix.Key.Sorts(), c.parts, c.sorts)
		}
		for a, ty := range c.types {
			if attrs[a] != ty {
				t.Errorf("%s: %s declared %v, want %v", c.name, a, attrs[a], ty)
			}
		}
		nd := *d
		nd.Table = withIndex(d.Table, -1, ix, attrs)
		if err := model.Validate(&nd); err != nil {
			t.Errorf("%s: the index the form makes does not validate: %v", c.name, err)
		}
	}
}

// TestInspectMultiAttributeKey: the item inspector says an item is in an index
// with a multi-attribute key only when it has every key attribute, and names the
// key by all of them.
func TestInspectMultiAttributeKey(t *testing.T) {
	s, n := model.Str, model.Num
	d := &model.Design{Version: 1, Table: model.Table{Name: "tbl", Key: model.KeySchema{Partition: "PK"},
		Attributes: map[string]model.Type{"round": model.TypeN},
		Indexes:    []model.Index{{Name: "ByRegion", Key: model.NewKeySchema([]string{"t", "r"}, []string{"round", "b"})}}},
		Items: []model.Item{
			{"PK": s("m1"), "t": s("W26"), "r": s("NA"), "round": n("2"), "b": s("UP")},
			{"PK": s("m2"), "t": s("W26"), "r": s("NA"), "round": n("3")},
		}}
	in := strings.Join(inspectLines(d, 0, nil, 120, NewStyles(DefaultTheme())), "\n")
	if !strings.Contains(in, "ByRegion: t=W26 r=NA round=2 b=UP") {
		t.Errorf("item 0 is in the index with its whole key:\n%s", in)
	}
	out := strings.Join(inspectLines(d, 1, nil, 120, NewStyles(DefaultTheme())), "\n")
	if !strings.Contains(out, "not in ByRegion: it has no b") {
		t.Errorf("item 1 lacks b, so it is not in the index:\n%s", out)
	}
}
