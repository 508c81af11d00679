package live

import (
	"context"
	"strings"
	"testing"

	"stwb/designfile"
)

// An item the engine refuses stops verify before any request, named by its place
// in the design file. The model refuses every item the engine refuses when it reads
// a file, so the item is broken after reading, as an edit in code would break it.
func TestVerifyNamesTheRefusedItemsPlace(t *testing.T) {
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
	_, err = Verify(context.Background(), nil, f, "", "http://127.0.0.1:1")
	if err == nil || !strings.Contains(err.Error(), "d.yaml:8:5: items[1]: ") || !strings.Contains(err.Error(), "Missing the key SK") {
		t.Fatalf("got %v, want the item's place d.yaml:8:5", err)
	}
}
