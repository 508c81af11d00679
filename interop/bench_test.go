package interop

import (
	"bytes"
	"fmt"
	"testing"

	"stwb/dynamojson"
	"stwb/model"
)

// exportLines makes an S3 export of n order-like items, one {"Item": ...} per line.
func exportLines(n int) []byte {
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		it := model.Item{"PK": model.Str(fmt.Sprintf("CUST#%d", i%1000)), "SK": model.Str(fmt.Sprintf("ORDER#%08d", i)),
			"status": model.Str("SHIPPED"), "total": model.Num("99.50"), "lines": model.List(model.Map(map[string]model.Value{"sku": model.Str("B-1"), "qty": model.Num("2")}))}
		b.WriteString(`{"Item":`)
		b.Write(dynamojson.AppendItemExact(nil, it))
		b.WriteString("}\n")
	}
	return b.Bytes()
}

// Target: 100,000 exported items read in under 3 s of CPU (a large import for a
// design file; each item becomes a map, which is most of the cost).
func BenchmarkReadDynamoDBJSONExportLines(b *testing.B) {
	data := exportLines(100000)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		items, _, err := ReadDynamoDBJSON(bytes.NewReader(data), nil)
		if err != nil || len(items) != 100000 {
			b.Fatal(err, len(items))
		}
	}
}

// Target: a real NoSQL Workbench model (20 items in 9 facets) imports in under 1 ms.
func BenchmarkImportWorkbench(b *testing.B) {
	data, err := readFileForFuzz("nwb/AnOnlineShop_facets.json")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		if _, err := ImportWorkbench(data); err != nil {
			b.Fatal(err)
		}
	}
}
