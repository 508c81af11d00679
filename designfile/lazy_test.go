package designfile

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"stwb/model"
)

// lazyAgrees fails t unless ParseLazily and Parse read data to the same design, or to
// the same errors word for word. lazy says whether ParseLazily kept the items as text.
func lazyAgrees(t *testing.T, name string, data []byte) (lazy bool) {
	t.Helper()
	eager, err1 := Parse("f.yaml", data)
	ld, err2 := ParseLazily("f.yaml", append([]byte(nil), data...))
	if (err1 == nil) != (err2 == nil) || err1 != nil && err1.Error() != err2.Error() {
		t.Fatalf("%s: Parse error %v\nParseLazily error %v", name, err1, err2)
	}
	if err1 != nil {
		return false
	}
	if ld.Lazy == nil {
		if !reflect.DeepEqual(ld.Items, eager.Items) {
			t.Fatalf("%s: ParseLazily fell back to Parse but read other items", name)
		}
		return false
	}
	if ld.Items != nil || ld.ItemPos != nil || ld.Lazy.Len() != len(eager.Items) {
		t.Fatalf("%s: lazy design has %d items as maps and %d as text; Parse read %d", name, len(ld.Items), ld.Lazy.Len(), len(eager.Items))
	}
	for i, want := range eager.Items {
		if got := ld.Lazy.Item(i); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: item %d:\nlazy  %#v\nParse %#v", name, i, got, want)
		}
		if got := ld.Lazy.Pos(i); got != eager.ItemPos[i] {
			t.Fatalf("%s: item %d at %v, Parse says %v", name, i, got, eager.ItemPos[i])
		}
	}
	// Each visits every item once, as the same map Item makes.
	var mu sync.Mutex
	seen := make([]bool, len(eager.Items))
	if !ld.Lazy.Each(func() func(int, model.Item) bool {
		return func(i int, it model.Item) bool {
			same := reflect.DeepEqual(it, eager.Items[i])
			mu.Lock()
			defer mu.Unlock()
			if seen[i] || !same {
				t.Errorf("%s: Each item %d: seen before %v, same as Parse's %v", name, i, seen[i], same)
			}
			seen[i] = true
			return true
		}
	}) {
		t.Fatalf("%s: Each stopped", name)
	}
	for i, s := range seen {
		if !s {
			t.Fatalf("%s: Each missed item %d", name, i)
		}
	}
	// Everything but the items is as Parse read it.
	a, b := *ld, *eager
	a.Lazy, a.source, b.Items, b.ItemPos, b.source = nil, nil, nil, nil, nil
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("%s: the rest of the design differs:\n%+v\n%+v", name, a, b)
	}
	return true
}

func TestParseLazilyAgrees(t *testing.T) {
	for name, data := range fastPathFiles() {
		if !lazyAgrees(t, name, data) {
			t.Errorf("%s: did not load lazily", name)
		}
	}
}

// A design with any problem is read by Parse, so its errors are Parse's exactly.
func TestParseLazilyErrorsAreParses(t *testing.T) {
	head := "version: 1\ntable: {name: tbl, key: {partition: PK, sort: SK}, attributes: {SK: N}, indexes: [{name: G, key: {partition: GPK}}]}\n" +
		"entities:\n  - {name: order, keys: {PK: \"C#{c}\", SK: \"{n}\"}}\nitems:\n"
	for name, items := range map[string]string{
		"duplicate key":     "  - {PK: a, SK: 1}\n  - {PK: a, SK: 1.0}\n",
		"missing sort key":  "  - {PK: a}\n",
		"key type":          "  - {PK: a, SK: x}\n",
		"empty index key":   "  - {PK: a, SK: 1, GPK: \"\"}\n",
		"bad number":        "  - {PK: a, SK: 1, n: 1e999}\n",
		"template mismatch": "  - {type: order, c: \"1\", n: 2, PK: \"C#2\"}\n",
		"template missing":  "  - {type: order, n: 2}\n",
		"long key":          "  - {PK: " + strings.Repeat("k", 2049) + ", SK: 1}\n",
		"large item":        "  - {PK: a, SK: 1, big: " + strings.Repeat("x", 400*1024) + "}\n",
		"duplicate name":    "  - {PK: a, SK: 1, x: 1, x: 2}\n",
		"bad pattern":       "  - {PK: a, SK: 1}\npatterns:\n  - {id: 1, operation: Query, key: \"PK = :p\"}\n",
		"not fast":          "  - {PK: a, SK: 1, d: 2026-01-01}\n  - {PK: a, SK: 1}\n",
	} {
		data := []byte(head + items)
		if _, err := Parse("f.yaml", data); err == nil {
			t.Fatalf("%s: the case is meant to be invalid", name)
		}
		lazyAgrees(t, name, data)
	}
	// A duplicate far apart in a large section, found by the hash of the key.
	big := genDesign(6000)
	dup := strings.Replace(string(big), `orderId: "00005999"`, `orderId: "00000007"`, 1)
	dup = strings.Replace(dup, `customerId: "999", orderId: "00000007"`, `customerId: "7", orderId: "00000007"`, 1)
	if _, err := Parse("f.yaml", []byte(dup)); err == nil || !strings.Contains(err.Error(), "same key") {
		t.Fatalf("the duplicate case is meant to be a duplicate key: %v", err)
	}
	lazyAgrees(t, "duplicate in 6000", []byte(dup))
}

func TestLazyDesignIsNotSaved(t *testing.T) {
	d, err := ParseLazily("f.yaml", genDesign(10))
	if err != nil || d.Lazy == nil {
		t.Fatalf("%v %v", err, d)
	}
	if _, err := fileOf(d).Marshal(); !errors.Is(err, ErrLazyDesign) {
		t.Fatalf("Marshal of a lazy design: %v", err)
	}
	if err := d.Save(t.TempDir() + "/x.yaml"); !errors.Is(err, ErrLazyDesign) {
		t.Fatalf("SaveFile of a lazy design: %v", err)
	}
}

// FuzzParseLazily holds ParseLazily to Parse on any item line: the same items, or the
// same errors. Seeds: testdata/fuzz/FuzzFastItems lines are good ones too.
func FuzzParseLazily(f *testing.F) {
	for _, s := range []string{`n: 1`, `SK: "x"`, `s: !ss [a, b]`, `n: 1e999`, `PK: j`, `type: t, c: "1"`, `m: {a: [1, 2]}`} {
		f.Add(s)
	}
	recoverPanics = false
	f.Fuzz(func(t *testing.T, line string) {
		data := []byte("version: 1\ntable: {name: tbl, key: {partition: PK, sort: SK}}\nentities:\n  - {name: t, keys: {SK: \"T#{c}\"}}\n" +
			"items:\n  - {PK: k, SK: a, " + line + "}\n  - {PK: j, SK: b}\n")
		lazyAgrees(t, fmt.Sprintf("%q", line), data)
	})
}

// An item whose line was rewritten after the load so that it no longer reads panics
// with ErrTextChanged, naming the item, for the command to report.
func TestLazyItemOfChangedText(t *testing.T) {
	data := genDesign(3)
	d, err := ParseLazily("f.yaml", data)
	if err != nil || d.Lazy == nil {
		t.Fatal(err)
	}
	at := strings.Index(string(data), "  - {type: order") + len("  - {type")
	data[at] = '!' // the first item's "type:" made "type!", as another program might
	defer func() {
		err, _ := recover().(error)
		if !errors.Is(err, ErrTextChanged) || !strings.Contains(err.Error(), "f.yaml:") {
			t.Fatalf("recovered %v", err)
		}
	}()
	d.Lazy.Item(0)
}

// Offset finds a value's text in the file when the reader gave it without a copy,
// and Text gives it back; an unescaped copy, an empty text and a string from
// elsewhere are not in the file.
func TestLazyOffsetFindsValuesInTheFile(t *testing.T) {
	data := []byte("version: 1\ntable: {name: tbl, key: {partition: PK}}\nitems:\n" +
		"  - {PK: \"a#1\", n: 12.50, s: plain text, e: \"tab\\there\", z: \"\", b: !!binary AAE=}\n")
	f, err := ParseLazily("f.yaml", data)
	if err != nil || f.Lazy == nil {
		t.Fatalf("lazy %v, error %v", f != nil && f.Lazy != nil, err)
	}
	lz := f.Lazy
	it := lz.Item(0)
	for name, inFile := range map[string]bool{"PK": true, "n": true, "s": true, "e": false, "z": false, "b": false} {
		s := it[name].Str
		off, ok := lz.Offset(s)
		if ok != inFile {
			t.Errorf("%s %q: in the file %v, want %v", name, s, ok, inFile)
		}
		if ok && (lz.Text(off, len(s)) != s || string(data[off:off+len(s)]) != s) {
			t.Errorf("%s %q: Text(%d, %d) = %q", name, s, off, len(s), lz.Text(off, len(s)))
		}
	}
	if _, ok := lz.Offset(strings.Clone(it["s"].Str)); ok {
		t.Error("a copy of a value's text found in the file")
	}
}
