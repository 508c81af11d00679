package designfile

import (
	"path/filepath"
	"testing"

	"stwb/model"
)

// loadedEdited100k is a loaded 100,000-item design lightly edited as the workbench
// edits one: one item's attribute changed, one pattern added. Saving it must merge
// the kept tree and write every item again.
func loadedEdited100k(tb testing.TB) *File {
	tb.Helper()
	d, err := Parse("bench.yaml", genDesign(100000))
	if err != nil {
		tb.Fatal(err)
	}
	it := d.Items[50000].Clone()
	it["status"] = model.Str("DELIVERED")
	d.Items[50000] = it
	d.Patterns = append(d.Patterns, model.Pattern{ID: 2, Name: "orders by status", Operation: model.OpQuery, Index: "GSI1",
		KeyCondition: "GSI1PK = :s", Values: map[string]model.Value{":s": model.Str("STATUS#SHIPPED")}})
	return d
}

// BenchmarkSaveLoaded100k saves a loaded, lightly edited 100,000-item design (about
// 25 MB). Target: at most 1 s of CPU and memory in proportion to the file.
func BenchmarkSaveLoaded100k(b *testing.B) {
	d := loadedEdited100k(b)
	b.ReportAllocs()
	var n int
	cpu0 := cpuTime()
	for b.Loop() {
		out, err := fileOf(d).Marshal()
		if err != nil {
			b.Fatal(err)
		}
		n = len(out)
	}
	// CPU over all threads (the writer's goroutines and the garbage collector's): on a
	// shared machine it says more than ns/op. It reads 0 where it is not measured.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	b.SetBytes(int64(n))
}

// BenchmarkSaveFileLoaded100k is BenchmarkSaveLoaded100k through SaveFile: the
// pieces written to a temporary file, synced and renamed (the disk's sync time is in
// the figure).
func BenchmarkSaveFileLoaded100k(b *testing.B) {
	d := loadedEdited100k(b)
	path := filepath.Join(b.TempDir(), "big.yaml")
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		if err := fileOf(d).Save(path); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}
