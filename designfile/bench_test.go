package designfile

import (
	"fmt"
	"strings"
	"testing"
)

// genDesign writes a design of n order items, about 250 bytes of YAML each, the shape
// of the load target (100,000 items, ~25 MB).
func genDesign(n int) []byte {
	var b strings.Builder
	b.WriteString(`version: 1
name: bench
table:
  name: bench-table
  key: {partition: PK, sort: SK}
  indexes:
    - name: GSI1
      key: {partition: GSI1PK, sort: GSI1SK}
entities:
  - name: order
    keys: {PK: "CUST#{customerId}", SK: "ORDER#{orderId}", GSI1PK: "STATUS#{status}", GSI1SK: "{placedAt}"}
items:
`)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  - {type: order, customerId: \"%d\", orderId: \"%08d\", status: SHIPPED, placedAt: \"2026-08-03T14:22:%02dZ\", total: %d.50, email: someone%d@example.com, note: a note of some length to bring the item to a realistic size, qty: 3, tags: !ss [gift, express]}\n",
			i%1000, i, i%60, i%500, i)
	}
	b.WriteString("patterns:\n  - id: 1\n    operation: Query\n    key: \"PK = :pk\"\n    values: {\":pk\": \"CUST#1\"}\n")
	return []byte(b.String())
}

// BenchmarkParse100k loads a 100,000-item design. Target (issue 2): loading it and
// answering 50 queries in one process within 0.7 s and 500 MB, so loading must take
// well under that.
func BenchmarkParse100k(b *testing.B) {
	data := genDesign(100000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		d, err := Parse("bench.yaml", data)
		if err != nil {
			b.Fatal(err)
		}
		if len(d.Items) != 100000 {
			b.Fatalf("%d items", len(d.Items))
		}
	}
}

// BenchmarkMarshal100k saves a loaded 100,000-item design.
func BenchmarkMarshal100k(b *testing.B) {
	d, err := Parse("bench.yaml", genDesign(100000))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fileOf(d).Marshal(); err != nil {
			b.Fatal(err)
		}
	}
}
