package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"stwb/designfile"
	"stwb/model"
)

// lazyTestDesign has what a lazily loaded item must survive: numbers written
// non-canonically (17.50, 1e2) in keys and values, a numeric sort key, sets, a key
// built by a template, a sparse INCLUDE GSI, a KEYS_ONLY GSI and an LSI, over enough
// items that loading reads them on several goroutines.
func lazyTestDesign(n int) []byte {
	var b strings.Builder
	b.WriteString(`version: 1
name: lazy
table:
  name: lazy-table
  key: {partition: PK, sort: SK}
  attributes: {PK: S, SK: S, GSI1PK: S, GSI1SK: N, GSI2PK: S, LSK: N}
  indexes:
    - {name: GSI1, key: {partition: GSI1PK, sort: GSI1SK}, projection: {include: [total, tags]}}
    - {name: GSI2, key: {partition: GSI2PK}, projection: keys-only}
    - {name: LSI1, local: true, key: {sort: LSK}}
entities:
  - name: order
    keys: {PK: "C#{c}", SK: "O#{o}"}
items:
`)
	for i := 0; i < n; i++ {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "  - {type: order, c: \"%d\", o: \"%06d\", total: %d.50, tags: !ss [a, b%d], GSI1PK: \"S#%d\", GSI1SK: %d.0, LSK: 1e%d}\n", i%50, i, i%300, i%3, i%7, i%90, i%5)
		case 1:
			fmt.Fprintf(&b, "  - {PK: \"C#%d\", SK: \"O#%06d\", total: 0%d, note: \"é 中文 😀\", GSI2PK: \"G#%d\", LSK: -%d.250}\n", i%50, i, i%10, i%3, i)
		case 2:
			fmt.Fprintf(&b, "  - {PK: \"C#%d\", SK: \"P#%06d\", m: {a: [1, 2.0, {b: null}]}, n: !ns [1, 2.50], ok: true}\n", i%50, i)
		default:
			fmt.Fprintf(&b, "  - {type: order, c: \"%d\", o: \"%06d\", GSI1PK: \"S#%d\", GSI1SK: -%d, GSI2PK: \"G#1\"}\n", i%50, i, i%7, i)
		}
	}
	b.WriteString(`patterns:
  - {id: 1, operation: Query, key: "PK = :p", values: {":p": "C#7"}}
  - {id: 2, operation: Query, key: "PK = :p AND begins_with(SK, :s)", values: {":p": "C#3", ":s": "O#"}, forward: false, limit: 7}
  - {id: 3, operation: Query, index: GSI1, key: "GSI1PK = :s AND GSI1SK BETWEEN :a AND :b", values: {":s": "S#2", ":a": -100, ":b": 40}}
  - {id: 4, operation: Query, index: GSI2, key: "GSI2PK = :g", values: {":g": "G#1"}, limit: 20}
  - {id: 5, operation: Query, index: LSI1, key: "PK = :p AND LSK < :z", values: {":p": "C#9", ":z": 0}}
  - {id: 6, operation: Query, key: "PK = :p", filter: "total > :t", values: {":p": "C#4", ":t": 5}}
  - {id: 7, operation: Scan, limit: 100}
  - {id: 8, operation: Scan, index: GSI1, filter: "contains(tags, :b)", values: {":b": "b1"}}
  - {id: 9, operation: GetItem, key: {PK: "C#1", SK: "O#000001"}}
  - {id: 10, operation: BatchGetItem, keys: [{PK: "C#2", SK: "P#000002"}, {PK: "C#0", SK: "O#000000"}]}
  - {id: 11, operation: UpdateItem, key: {PK: "C#0", SK: "O#000000"}, update: "SET GSI1PK = :n ADD total :one", values: {":n": "S#moved", ":one": 1}, returnValues: ALL_OLD}
  - {id: 12, operation: DeleteItem, key: {PK: "C#3", SK: "O#000003"}, condition: "attribute_exists(GSI2PK)", returnValues: ALL_OLD}
  - {id: 13, operation: PutItem, item: {PK: "C#1", SK: "O#000001", GSI2PK: "G#9"}, condition: "attribute_not_exists(PK)"}
  - {id: 14, operation: TransactWriteItems, actions: [{delete: {key: {PK: "C#2", SK: "P#000002"}}}, {update: {key: {PK: "C#5", SK: "O#000005"}, update: "REMOVE GSI2PK"}}]}
`)
	return []byte(b.String())
}

// loadBoth loads data eagerly (designfile.Parse) and lazily (designfile.ParseLazily)
// into two engines; the lazy design must really be lazy.
func loadBoth(t *testing.T, name string, data []byte) (*model.Design, *Engine, *Engine) {
	t.Helper()
	f, err := designfile.Parse(name, data)
	if err != nil {
		t.Fatal(err)
	}
	lf, err := designfile.ParseLazily(name, data)
	if err != nil {
		t.Fatal(err)
	}
	if lf.Lazy == nil {
		t.Skipf("%s is not written one item a line, so it does not load lazily", name)
	}
	eager, err := FromDesign(f.Design)
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := New(lf.Table)
	if err != nil {
		t.Fatal(err)
	}
	if i, err := lazy.loadLazy(lf.Lazy); err != nil {
		t.Fatal(itemError(lf.Lazy, i, err))
	}
	return f.Design, eager, lazy
}

// loadLazy loads a lazily read design's items into an empty engine, as a Bulk
// does in the reader's pass over them: one more pass over the items
// (LazyItems.Each) through a bulkLoad.
func (e *Engine) loadLazy(lz *designfile.LazyItems) (int, *Error) {
	ld := e.newBulkLoad(lz.Len(), lz)
	lz.Each(func() func(int, model.Item) bool {
		w := &BulkWorker{ld: ld}
		return func(i int, it model.Item) bool { w.put(i, it); return true }
	})
	return ld.finish()
}

// bulkSinks loads a lazily read design into a Bulk in the reader's own pass over
// the items, as package lazyload does.
type bulkSinks struct {
	bulk *Bulk
	err  error
}

func (b *bulkSinks) Open(f *designfile.File) { b.bulk, b.err = NewBulk(f.Table, f.Lazy) }

func (b *bulkSinks) Sink() designfile.ItemSink { return bulkSink{b.bulk.Worker()} }

type bulkSink struct{ w *BulkWorker }

func (s bulkSink) Put(i int, it model.Item) { s.w.Put(i, it) }

// loadOnePass reads data lazily and loads it through a Bulk in the same pass.
func loadOnePass(t *testing.T, name string, data []byte) *Engine {
	t.Helper()
	var sinks bulkSinks
	f, err := designfile.ParseLazilyInto(name, data, &sinks)
	if err != nil || sinks.err != nil || f.Lazy == nil || sinks.bulk == nil {
		t.Fatalf("%s did not load lazily: %v %v", name, err, sinks.err)
	}
	e, err := sinks.bulk.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// sameContents fails t unless the two engines hold the same items in the table and
// in every index, in the same order, at the same cost.
func sameContents(t *testing.T, what string, a, b *Engine) {
	t.Helper()
	for _, ix := range append([]string{""}, indexNames(a)...) {
		pa, err1 := a.Scan(ScanInput{IndexName: ix})
		pb, err2 := b.Scan(ScanInput{IndexName: ix})
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: scan %q: %v / %v", what, ix, err1, err2)
		}
		if !reflect.DeepEqual(pa, pb) {
			t.Fatalf("%s: scan of %q differs:\neager %s\nlazy  %s", what, ix, short(pa), short(pb))
		}
	}
}

// short is v printed, cut to a length a failure message can show.
func short(v any) string {
	s := fmt.Sprintf("%+v", v)
	if len(s) > 1500 {
		s = s[:1500] + "..."
	}
	return s
}

func indexNames(e *Engine) []string {
	var out []string
	for _, ix := range e.indexes {
		out = append(out, ix.def.Name)
	}
	return out
}

// TestLazyLoadAnswersAsEager holds an engine loaded from a lazily read design to one
// loaded from maps: every pattern of every sample and of lazyTestDesign gives the
// same result (items, order, counts, pages, capacity, errors), the stores hold the
// same entries, and writes over text-held items change both alike.
func TestLazyLoadAnswersAsEager(t *testing.T) {
	files, err := filepath.Glob("../samples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no samples: %v", err)
	}
	cases := map[string][]byte{"generated": lazyTestDesign(6000)}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cases[filepath.Base(f)] = data
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			d, eager, lazy := loadBoth(t, name, data)
			onePass := loadOnePass(t, name, data)
			if onePass.lazy == nil {
				t.Fatal("the Bulk did not load lazily")
			}
			sameContents(t, "after load", eager, lazy)
			sameContents(t, "after a Bulk load", eager, onePass)
			for i := range d.Patterns {
				p := &d.Patterns[i]
				for _, opts := range []RunOptions{{}, {AllPages: true}} {
					a, b, c := eager.Run(p, opts), lazy.Run(p, opts), onePass.Run(p, opts)
					if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(a, c) {
						t.Fatalf("pattern %d (%+v):\neager %s\nlazy  %s\none pass %s", p.ID, opts, short(a), short(b), short(c))
					}
				}
			}
			// Every item written over, deleted or updated in place, in both.
			ea, la := eager.Clone(), lazy.Clone()
			var keys []model.Item
			if pg, err := ea.Scan(ScanInput{}); err == nil {
				for _, it := range pg.Items {
					keys = append(keys, ea.keyOf(it))
				}
			}
			for i, k := range keys {
				var outs [2]any
				for j, e := range []*Engine{ea, la} {
					var out *WriteOutput
					var err error
					switch i % 3 {
					case 0:
						out, err = e.DeleteItem(DeleteItemInput{Key: k, ReturnValues: "ALL_OLD"})
					case 1:
						out, err = e.UpdateItem(UpdateItemInput{Key: k, UpdateExpression: "SET #z = :z", ConditionExpression: "attribute_exists(#z)",
							ExpressionAttributeNames: map[string]string{"#z": "zzz"}, ExpressionAttributeValues: map[string]model.Value{":z": model.Num("1")},
							ReturnValuesOnConditionCheckFailure: "ALL_OLD"})
					default:
						out, err = e.UpdateItem(UpdateItemInput{Key: k, UpdateExpression: "SET zzz = :z", ExpressionAttributeValues: map[string]model.Value{":z": model.Str("x")}, ReturnValues: "ALL_OLD"})
					}
					outs[j] = fmt.Sprintf("%+v %v", out, err)
				}
				if outs[0] != outs[1] {
					t.Fatalf("write %d to %v:\neager %s\nlazy  %s", i, k, short(outs[0]), short(outs[1]))
				}
			}
			sameContents(t, "after writes", ea, la)
			// The originals are untouched by their clones' writes.
			sameContents(t, "originals after writes", eager, lazy)
		})
	}
}

// The reader lets through no item the engine refuses, so the lazy load's error path is
// reached by loading into an engine whose index types differ from the design's: every
// item with a numeric GSI1SK is then refused, and the first of them in file order is
// the one reported, though the items are read on several goroutines.
func TestLazyLoadReportsTheFirstRefusedItem(t *testing.T) {
	ld, err := designfile.ParseLazily("f.yaml", lazyTestDesign(6000))
	if err != nil || ld.Lazy == nil {
		t.Fatal(err)
	}
	e, err := New(ld.Table)
	if err != nil {
		t.Fatal(err)
	}
	e.indexes[0].key.Sort.Type = model.TypeS
	i, lerr := e.loadLazy(ld.Lazy)
	if lerr == nil || i != 0 || !strings.Contains(lerr.Message, "GSI1SK") {
		t.Fatalf("first refused item %d: %v", i, lerr)
	}
}

// fillTreesAtOnce, given two entries with one key (which a lazily loaded design
// never has), ends as fillTrees does: the later item stays, with its index entry
// only.
func TestFillTreesAtOnceWithADuplicateKey(t *testing.T) {
	table := model.Table{Name: "t", Key: model.KeySchema{Partition: "PK"},
		Attributes: map[string]model.Type{"PK": model.TypeS, "G": model.TypeS},
		Indexes:    []model.Index{{Name: "GSI", Key: model.KeySchema{Partition: "G"}, Projection: model.Projection{Type: model.ProjectAll}}}}
	items := []model.Item{
		{"PK": model.Str("a"), "G": model.Str("first")},
		{"PK": model.Str("b"), "G": model.Str("other")},
		{"PK": model.Str("a"), "G": model.Str("second")},
	}
	e, err := New(table)
	if err != nil {
		t.Fatal(err)
	}
	slab := make([]entry, len(items))
	islabs := [][]entry{make([]entry, len(items))}
	for i, it := range items {
		e.fillTableEntry(&slab[i], it, it, model.ItemSize(it), nil)
		if !e.indexes[0].fillEntry(&islabs[0][i], &slab[i], it, nil) {
			t.Fatal("no index entry")
		}
	}
	e.fillTreesAtOnce(slab, islabs)
	pg, err := e.Scan(ScanInput{IndexName: "GSI"})
	if err != nil {
		t.Fatal(err)
	}
	var gs []string
	for _, it := range pg.Items {
		gs = append(gs, it["G"].Str)
	}
	if e.Len() != 2 || len(gs) != 2 || strings.Contains(strings.Join(gs, ","), "first") {
		t.Fatalf("table %d items, index holds %v; want 2 and no \"first\"", e.Len(), gs)
	}
}
