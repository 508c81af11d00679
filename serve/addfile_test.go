package serve

import (
	"strings"
	"testing"

	"stwb/designfile"
)

// An item the engine refuses is named by its place in the design file, as stwb
// query names it, not only by its index. The model refuses every item the engine
// refuses when it reads a file, so the item is broken after reading, as an edit in
// code would break it.
func TestAddFileNamesTheRefusedItemsPlace(t *testing.T) {
	f, err := designfile.Parse("d.yaml", []byte(`version: 1
name: t
table:
  name: things
  key: {partition: PK, sort: SK}
items:
  - {PK: a, SK: "1"}
  - {PK: b, SK: "2"}
`))
	if err != nil {
		t.Fatal(err)
	}
	delete(f.Items[1], "SK")
	err = New(Options{}).AddFile(f)
	if err == nil || !strings.Contains(err.Error(), "d.yaml:8:5: items[1]: ") || !strings.Contains(err.Error(), "Missing the key SK") {
		t.Fatalf("got %v, want the item's place d.yaml:8:5", err)
	}
}
