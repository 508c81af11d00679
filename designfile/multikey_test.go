package designfile

import (
	"slices"
	"strings"
	"testing"

	"stwb/model"
)

// TestMultiAttributeIndexKeys: an index key side may be a list of attribute names
// in order (GSI.DesignPattern.MultiAttributeKeys.html); a single name means what
// it always meant and a list of one is the same index; the list is written back
// as a flow list, the single name as a name; a table's key stays one attribute a
// side, as CreateTable's table KeySchema is.
func TestMultiAttributeIndexKeys(t *testing.T) {
	const head = "version: 1\ntable:\n  name: tbl-data\n  key: {partition: PK, sort: SK}\n" +
		"  attributes: {PK: S, SK: S, t: S, r: S, n: N, b: S}\n  indexes:\n"
	cases := []struct {
		name, key    string
		parts, sorts []string
		err, savedAs string
	}{
		{"one name a side", "{partition: t, sort: n}", []string{"t"}, []string{"n"}, "", "{partition: t, sort: n}"},
		{"a list of one is the same index", "{partition: [t], sort: [n]}", []string{"t"}, []string{"n"}, "", "{partition: t, sort: n}"},
		{"lists in order", "{partition: [t, r], sort: [n, b]}", []string{"t", "r"}, []string{"n", "b"}, "", "{partition: [t, r], sort: [n, b]}"},
		{"partition list, no sort", "{partition: [r, t]}", []string{"r", "t"}, nil, "", "{partition: [r, t]}"},
		{"four a side", "{partition: [a1, a2, a3, a4], sort: [b1, b2, b3, b4]}", []string{"a1", "a2", "a3", "a4"}, []string{"b1", "b2", "b3", "b4"}, "", ""},
		{"five partition attributes", "{partition: [a1, a2, a3, a4, a5]}", nil, nil, "index GSI: key.partition has 5 attributes; a key side of a global secondary index has at most 4", ""},
		{"five sort attributes", "{partition: t, sort: [a1, a2, a3, a4, a5]}", nil, nil, "index GSI: key.sort has 5 attributes", ""},
		{"an attribute twice", "{partition: [t, r], sort: [n, t]}", nil, nil, `index GSI: key attribute "t" is used twice`, ""},
		{"an empty list", "{partition: [], sort: n}", nil, nil, "index GSI.key.partition is an empty list", ""},
		{"a list of a list", "{partition: [[t]]}", nil, nil, "index GSI.key.partition must list names", ""},
	}
	for _, c := range cases {
		src := head + "    - {name: GSI, key: " + c.key + "}\n"
		f, err := Parse("f.yaml", []byte(src))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: got %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		k := f.Design.Table.Indexes[0].Key
		if !slices.Equal(k.Partitions(), c.parts) || !slices.Equal(k.Sorts(), c.sorts) {
			t.Errorf("%s: read %v / %v, want %v / %v", c.name, k.Partitions(), k.Sorts(), c.parts, c.sorts)
		}
		out, err := f.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if c.savedAs != "" && !strings.Contains(string(out), "key: "+c.savedAs) {
			t.Errorf("%s: saved as\n%s\nwant key: %s", c.name, out, c.savedAs)
		}
		g, err := Parse("f.yaml", out)
		if err != nil || !g.Design.Table.Indexes[0].Key.Equal(k) {
			t.Errorf("%s: the saved file reads back as %v (%v)", c.name, g, err)
		}
	}
	refused := []struct{ name, src, want string }{
		{"a table key list", "version: 1\ntable: {name: tbl-data, key: {partition: [PK, X]}}\n",
			"f.yaml:2:42: table.key.partition must be one attribute: a table's partition and sort key are one attribute each"},
		{"a local index list", head + "    - {name: L, local: true, key: {sort: [t, r]}}\n",
			"index L: a local index's key is one attribute a side"},
	}
	for _, c := range refused {
		if _, err := Parse("f.yaml", []byte(c.src)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// TestMultiAttributeCodeBuilt: a key built in code (model.NewKeySchema) validates
// and saves as a loaded one does.
func TestMultiAttributeCodeBuilt(t *testing.T) {
	d := &model.Design{Version: 1, Name: "code", Table: model.Table{Name: "tbl", Key: model.KeySchema{Partition: "PK"},
		Indexes: []model.Index{{Name: "GSI", Key: model.NewKeySchema([]string{"a", "b"}, []string{"c"}), Projection: model.Projection{Type: model.ProjectAll}}}}}
	if err := model.Validate(d); err != nil {
		t.Fatal(err)
	}
	out, err := fileOf(d).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "key: {partition: [a, b], sort: c}") {
		t.Errorf("saved as\n%s", out)
	}
}
