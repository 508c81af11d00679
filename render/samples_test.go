package render

import (
	"path/filepath"
	"testing"

	"stwb/internal/golden"
	"stwb/samples"
)

func TestSamplesGolden(t *testing.T) {
	golden.Check(t, filepath.Join("testdata", "samples.golden"), []byte(Samples(samples.List())))
}

// TestSamplesAlignWideText: columns line up in terminal cells, so a title or name in
// CJK or with an emoji (two cells a rune) does not push the next column.
func TestSamplesAlignWideText(t *testing.T) {
	tests := []struct {
		name string
		list []samples.Sample
		want string
	}{
		{
			name: "ascii",
			list: []samples.Sample{{Name: "a", Title: "t", Patterns: 1, Items: 10}, {Name: "longer", Title: "u", Patterns: 12, Items: 9}},
			want: "" +
				"NAME    PATTERNS  ITEMS  TITLE\n" +
				"a              1     10  t\n" +
				"longer        12      9  u\n",
		},
		{
			name: "cjk and emoji names",
			list: []samples.Sample{{Name: "注文", Title: "日本語の題 🍣", Patterns: 3, Items: 11}, {Name: "🍣x", Title: "x", Patterns: 100, Items: 60}},
			want: "" +
				"NAME  PATTERNS  ITEMS  TITLE\n" +
				"注文         3     11  日本語の題 🍣\n" +
				"🍣x        100     60  x\n",
		},
		{
			name: "empty",
			list: nil,
			want: "NAME  PATTERNS  ITEMS  TITLE\n",
		},
	}
	for _, tt := range tests {
		if got := Samples(tt.list); got != tt.want {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}
