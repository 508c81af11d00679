package analysis

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"stwb/designfile"
	"stwb/lazyload"
	"stwb/model"
	"stwb/samples"
)

// Load reads each item once and keeps of it only what cost and review read; its
// analysis must be word for word that of the design read whole (Run). Every sample
// loads lazily and is compared: every finding with where it points, and the whole
// cost report. A rule or a cost figure that reads an attribute the summary leaves
// out makes this fail (review's TestRuleCasesLoadLazily does the same for every
// rule's trigger).
func TestLoadIsRun(t *testing.T) {
	lazily := 0
	for _, name := range samples.Names() {
		s, _ := samples.Get(name)
		lazy, eager, ok := compareLoad(t, name+".yaml", s.Data)
		switch {
		case !ok:
			t.Logf("%s: read whole (its items are not one flow mapping a line)", name)
		case lazy != eager:
			t.Errorf("%s: Load and Run differ\nLoad: %s\nRun:  %s", name, lazy, eager)
		default:
			lazily++
		}
	}
	if lazily < len(samples.Names())/2 {
		t.Errorf("only %d samples loaded lazily: too few to hold Load to Run", lazily)
	}
}

// compareLoad analyses data both ways and returns each analysis as text; ok is
// false when Load read the design whole, so that there is nothing to compare.
func compareLoad(t *testing.T, file string, data []byte) (lazy, eager string, ok bool) {
	t.Helper()
	a, err := Load(file, data, Options{Review: true})
	if err != nil {
		t.Fatal(err)
	}
	if lf, err := designfile.ParseLazily(file, data); err != nil || lf.Lazy == nil {
		return "", "", false // Load read it whole too
	}
	f, err := designfile.Parse(file, data)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(f.Design, Options{Review: true, ItemPos: f.ItemPos})
	if err != nil {
		t.Fatal(err)
	}
	return analysisText(t, a), analysisText(t, b), true
}

// loadIsRun fails t unless Load reads data lazily and analyses it as Run does.
func loadIsRun(t *testing.T, file string, data []byte) {
	t.Helper()
	lazy, eager, ok := compareLoad(t, file, data)
	if !ok {
		t.Fatal("the design was read whole: nothing to compare")
	}
	if lazy != eager {
		t.Errorf("Load and Run differ\nLoad: %s\nRun:  %s", lazy, eager)
	}
}

// analysisText is everything an analysis says, findings with their places, as
// one string.
func analysisText(t *testing.T, a *Analysis) string {
	t.Helper()
	var b strings.Builder
	for _, f := range a.Findings {
		fmt.Fprintf(&b, "%s %s %s %q\n", f.Pos, f.Severity, f.Rule, f.Message)
	}
	js, err := json.Marshal(a.Cost)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "cost %s\ncost error %v\n", js, a.CostErr)
	return b.String()
}

// Every template variable of its entity an item has stays in its summary, its key
// giving its value back or not (cost.KeySpace reads the attribute first); an
// attribute of no template and no key does not.
func TestSummaryKeepsTheTemplateVariables(t *testing.T) {
	d := &model.Design{Table: model.Table{Key: model.KeySchema{Partition: "PK", Sort: "SK"}},
		Entities: []model.Entity{{Name: "customer", Keys: map[string]string{"PK": "CUST#{customerId}", "SK": "PROFILE"}}}}
	s := newSummarizer(d)
	item := func(id string) model.Item {
		return model.Item{"type": model.Str("customer"), "PK": model.Str("CUST#42"), "SK": model.Str("PROFILE"),
			"customerId": model.Str(id), "email": model.Str("ada@example.com")}
	}
	cols := newItemColumns(d, nil, s.columns, 2)
	s.summary(cols, 0, d.View(item("42")))
	s.summary(cols, 1, d.View(item("43")))
	for i, id := range []string{"42", "43"} {
		if got := cols.Item(i); got["customerId"].Str != id || len(got) != 4 {
			t.Errorf("summary of a customer %s whose key says 42: %v; want type, PK, SK and its id", id, got)
		}
	}
}

// Storage takes each index entry's size from the engine that loaded the item
// (engine.BulkWorker.EntrySize) when Load reads a design, and sizes the entries
// itself on Run: both give the same storage for sparse, KEYS_ONLY, INCLUDE and
// multi-attribute indexes, numbers written in more than one way, and an item a
// multi-attribute index leaves out for a missing key attribute.
func TestLoadSizesIndexEntriesAsRun(t *testing.T) {
	var b strings.Builder
	b.WriteString(`version: 1
table:
  name: orders
  key: {partition: PK, sort: SK}
  attributes: {PK: S, SK: S, G1: S, LS: N, region: S, round: N}
  indexes:
    - {name: GS1, key: {partition: G1, sort: SK}, projection: {include: [total, note]}}
    - {name: LS1, local: true, key: {sort: LS}, projection: keys-only}
    - {name: MK1, key: {partition: [G1, region], sort: [round]}, projection: {include: [note]}}
    - {name: AL1, key: {partition: region}}
entities:
  - name: order
    keys: {PK: "C#{c}", SK: "O#{o}"}
    attributes: {c: S, o: S, total: N}
items:
`)
	for i := range 40 {
		fmt.Fprintf(&b, "  - {type: order, c: \"%d\", o: \"%03d\", total: %d.%d0", i%7, i, i, i%10)
		if i%3 > 0 {
			fmt.Fprintf(&b, ", G1: \"S#%d\", note: %q", i%4, strings.Repeat("n", i))
		}
		if i%2 == 0 {
			fmt.Fprintf(&b, ", LS: 0%d.50", i)
		}
		if i%5 > 0 {
			fmt.Fprintf(&b, ", region: r%d", i%2)
		}
		if i%4 > 0 {
			fmt.Fprintf(&b, ", round: %d", i%3)
		}
		b.WriteString("}\n")
	}
	loadIsRun(t, "indexes.yaml", []byte(b.String()))
}

// Load groups the items by type as it reads them (itemColumns.ByType, for cost's
// key space and review's entities); the groups are those Run makes from the items:
// an entity's items, a type naming no entity, an empty type, a type that is not a
// string and no type at all, an item over 400 KB that DynamoDB does not store.
func TestLoadGroupsItemsByTypeAsRun(t *testing.T) {
	var b strings.Builder
	b.WriteString(`version: 1
table:
  name: orders
  key: {partition: PK, sort: SK}
entities:
  - {name: customer, keys: {PK: "C#{c}", SK: PROFILE}}
  - {name: order, keys: {PK: "C#{c}", SK: "O#{o}"}}
items:
`)
	types := []string{"type: customer, ", "type: order, ", "type: ghost, ", `type: "", `, "type: 5, ", ""}
	for i := range 60 {
		fmt.Fprintf(&b, "  - {%sPK: \"C#%d\", SK: \"O#%03d\", c: \"%d\", o: \"%03d\"}\n", types[i%len(types)], i%7, i, i%7, i)
	}
	fmt.Fprintf(&b, "  - {type: order, PK: \"C#1\", SK: \"O#999\", big: %q}\n", strings.Repeat("x", 410*1024))
	data := []byte(b.String())
	loadIsRun(t, "types.yaml", data)

	var sum summaries
	f, _, err := lazyload.LoadVisiting("types.yaml", data, &sum)
	if err != nil || f.Lazy == nil {
		t.Fatalf("lazy %v, error %v", f != nil && f.Lazy != nil, err)
	}
	want := map[string][]int{}
	for i := range f.Lazy.Len() {
		if v, ok := f.Lazy.Item(i)["type"]; ok && v.Type == model.TypeS {
			want[v.Str] = append(want[v.Str], i)
		}
	}
	if got := sum.items.ByType(); !reflect.DeepEqual(got, want) {
		t.Errorf("ByType %v, want %v", got, want)
	}
}

// A design large enough to be read in several chunks at once (designfile reads
// 4,096 items or more a core at a time) analyses as Run analyses it: summaries put
// from several goroutines, texts in the file and texts not in it (keys built from
// the templates, escapes), values kept beside the columns (booleans, lists), the
// groups by type. go test -race runs it for the goroutines' sake.
func TestLoadIsRunInChunks(t *testing.T) {
	var b strings.Builder
	b.WriteString(`version: 1
table:
  name: orders
  key: {partition: PK, sort: SK}
  attributes: {PK: S, SK: S, G1: S}
  indexes:
    - {name: GS1, key: {partition: G1, sort: SK}, projection: {include: [total, note]}}
entities:
  - {name: customer, keys: {PK: "C#{c}", SK: PROFILE}, attributes: {c: S}}
  - {name: order, keys: {PK: "C#{c}", SK: "O#{o}", G1: "S#{st}"}, attributes: {c: S, o: S, st: S, total: N}}
items:
`)
	for i := range 12000 {
		switch {
		case i%5 == 0:
			fmt.Fprintf(&b, "  - {type: customer, c: \"%d\", PK: \"C#%d\", SK: PROFILE, flag: true, tags: [a, b], esc: \"x\\ty\"}\n", i, i)
		case i%2 == 0: // keys given
			fmt.Fprintf(&b, "  - {type: order, PK: \"C#%d\", SK: \"O#%d\", G1: \"S#S%d\", c: \"%d\", o: \"%d\", st: S%d, total: %d.5, note: \"n\\t%d\"}\n", i-i%5, i, i%3, i-i%5, i, i%3, i, i)
		default: // keys built from the templates
			fmt.Fprintf(&b, "  - {type: order, c: \"%d\", o: \"%d\", st: S%d, total: %d.5, ok: %v}\n", i-i%5, i, i%3, i, i%3 == 0)
		}
	}
	data := []byte(b.String())
	loadIsRun(t, "chunks.yaml", data)
	// Each summary holds the item's keys, built or given, and its variables.
	var sum summaries
	f, _, err := lazyload.LoadVisiting("chunks.yaml", data, &sum)
	if err != nil || f.Lazy == nil {
		t.Fatalf("lazy %v, error %v", f != nil && f.Lazy != nil, err)
	}
	for i := range f.Lazy.Len() {
		it := f.Lazy.Item(i)
		for _, name := range []string{"type", "PK", "SK", "G1", "c", "o", "st", "total"} {
			got, gotOK := sum.items.Attr(i, name)
			want, ok := it[name]
			if gotOK != ok || !reflect.DeepEqual(got, want) {
				t.Fatalf("item %d's %s: summary %v %v, item %v %v", i, name, got, gotOK, want, ok)
			}
		}
	}
}
