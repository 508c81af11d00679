package lazyload

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"stwb/designfile"
	"stwb/engine"
	"stwb/model"
)

// Load gives Parse's errors for a design with a problem, and loads a design that is
// not one item a line as engine.Load does.
func TestLoadFallsBack(t *testing.T) {
	bad := []byte("version: 1\ntable: {name: tbl, key: {partition: PK}}\nitems:\n  - {PK: a}\n  - {PK: a}\n")
	_, want := designfile.Parse("f.yaml", bad)
	if _, _, err := Load("f.yaml", bad); err == nil || want == nil || err.Error() != want.Error() {
		t.Fatalf("Load error %v, Parse error %v", err, want)
	}
	block := []byte("version: 1\ntable: {name: tbl, key: {partition: PK}}\nitems:\n  - PK: a\n    n: 1\n")
	d, e, err := Load("f.yaml", block)
	if err != nil || d.Lazy != nil || e.Len() != 1 {
		t.Fatalf("block-style design: %v, lazy %v, %d items", err, d != nil && d.Lazy != nil, e.Len())
	}
}

// sizes is a Visitor that records each item's size and how often it was visited.
type sizes struct {
	mu     sync.Mutex
	opened int
	got    map[int]int
	visits int
}

func (s *sizes) Open(f *designfile.File) { s.opened++; s.got = map[int]int{} }

func (s *sizes) Visit(i int, it model.Item, size int, _ *engine.BulkWorker) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got[i] = size
	s.visits++
}

// A design written one item a line loads lazily, in one pass: the engine holds every
// item, and the visitor sees each item once, with model.ItemSize's size.
func TestLoadVisitingSeesEachItemOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: 1\ntable: {name: tbl, key: {partition: PK, sort: SK}}\nitems:\n")
	const n = 5000 // enough for several goroutines
	for i := range n {
		fmt.Fprintf(&b, "  - {PK: \"P#%d\", SK: \"S#%d\", n: %d, s: %q}\n", i%97, i, i, strings.Repeat("x", i%50))
	}
	var v sizes
	f, e, err := LoadVisiting("f.yaml", []byte(b.String()), &v)
	if err != nil {
		t.Fatal(err)
	}
	if f.Lazy == nil || e.Len() != n {
		t.Fatalf("lazy %v, %d items in the engine", f.Lazy != nil, e.Len())
	}
	if v.opened != 1 || v.visits != n || len(v.got) != n {
		t.Fatalf("opened %d times, %d visits of %d items", v.opened, v.visits, len(v.got))
	}
	for i := range n {
		if want := model.ItemSize(f.Lazy.Item(i)); v.got[i] != want {
			t.Fatalf("item %d: size %d, model.ItemSize %d", i, v.got[i], want)
		}
	}
}
