package model

import (
	"slices"
	"testing"
)

// The attributes an index entry holds (GSI.html and LSI.html, "Attribute
// projections"): table keys, index keys, projected attributes, each once.
func TestIndexEntryAttributes(t *testing.T) {
	table := Table{Key: KeySchema{Partition: "PK", Sort: "SK"}}
	cases := []struct {
		name string
		ix   Index
		want []string
	}{
		{"keys-only GSI", Index{Key: KeySchema{Partition: "GSI1PK", Sort: "GSI1SK"}, Projection: Projection{Type: ProjectKeysOnly}},
			[]string{"PK", "SK", "GSI1PK", "GSI1SK"}},
		{"inverted index repeats no key", Index{Key: KeySchema{Partition: "SK", Sort: "PK"}, Projection: Projection{Type: ProjectKeysOnly}},
			[]string{"PK", "SK"}},
		{"include, overlapping a key", Index{Key: KeySchema{Partition: "GSI1PK"}, Projection: Projection{Type: ProjectInclude, Include: []string{"status", "PK", "total"}}},
			[]string{"PK", "SK", "GSI1PK", "status", "total"}},
		{"LSI takes the table's partition key", Index{Local: true, Key: KeySchema{Sort: "placedAt"}, Projection: Projection{Type: ProjectKeysOnly}},
			[]string{"PK", "SK", "placedAt"}},
	}
	for _, c := range cases {
		if got := table.IndexEntryAttributes(&c.ix); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
