package designfile

import (
	"os"
	"strings"
	"testing"
)

// table.ttl and an entity's expires are read, validated and saved (docs/FORMAT.md):
// a save keeps them, an expires without a ttl is refused at its entity.
func TestTTLFields(t *testing.T) {
	src, err := os.ReadFile("../cost/testdata/ttl.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse("ttl.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	if f.Design.Table.TTL != "expiresAt" || f.Design.Entities[0].Expires != 200 {
		t.Fatalf("ttl %q, expires %v; want expiresAt, 200", f.Design.Table.TTL, f.Design.Entities[0].Expires)
	}
	f.Design.Description = "edited" // a change, so the save rewrites the file
	out, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	g, err := Parse("ttl.yaml", out)
	if err != nil {
		t.Fatalf("the saved file does not open: %v\n%s", err, out)
	}
	if g.Design.Table.TTL != "expiresAt" || g.Design.Entities[0].Expires != 200 {
		t.Errorf("saved: ttl %q, expires %v; want them kept\n%s", g.Design.Table.TTL, g.Design.Entities[0].Expires, out)
	}
	_, err = Parse("ttl.yaml", []byte(strings.Replace(string(src), "  ttl: expiresAt\n", "", 1)))
	if err == nil || !strings.Contains(err.Error(), "entity session expires 200 items a second, but the table has no ttl") {
		t.Errorf("expires without ttl: %v", err)
	}
	_, err = Parse("ttl.yaml", []byte(strings.Replace(string(src), "ttl: expiresAt", "ttl: {a: b}", 1)))
	if err == nil || !strings.Contains(err.Error(), "table.ttl must name an attribute") {
		t.Errorf("a ttl that is no name: %v", err)
	}
}
