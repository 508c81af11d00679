package samples

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"stwb/engine"
	"stwb/model"
)

// reflex is the one sample that breaks the seeds' rules on purpose.
const reflex = "relational-reflex"

// expectedErrors are the write patterns whose outcome is an error, by sample and
// pattern id. A transaction whose condition fails is cancelled as a whole
// (API_TransactWriteItems.html, "TransactionCanceledException"), with one
// cancellation reason per action in request order.
var expectedErrors = map[string]map[int]struct {
	Type    string
	Reasons []string
}{
	"unique-email": {4: {"TransactionCanceledException", []string{"None", "ConditionalCheckFailed"}}},
}

func loadAll(t *testing.T) map[string]*model.Design {
	t.Helper()
	out := map[string]*model.Design{}
	for _, s := range List() {
		d, err := Load(s.Name)
		if err != nil {
			t.Fatalf("sample %s does not load:\n%v", s.Name, err)
		}
		out[s.Name] = d.Design
	}
	return out
}

// TestListIsTheIssueList holds List to the samples issue: every sample it names, in
// its order, no other file, and titles and counts taken from the loaded designs.
func TestListIsTheIssueList(t *testing.T) {
	list := List()
	var names []string
	for _, s := range list {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, order) {
		t.Fatalf("List() names = %v\nwant %v", names, order)
	}
	for _, s := range list {
		d, err := Load(s.Name)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if s.Patterns != len(d.Patterns) || s.Items != len(d.Items) {
			t.Errorf("%s: listed %d patterns, %d items; the design has %d, %d", s.Name, s.Patterns, s.Items, len(d.Patterns), len(d.Items))
		}
		if s.Title == "" || strings.Contains(s.Title, "\n") || s.Title != firstLine(d.Description) {
			t.Errorf("%s: title %q is not the description's first line", s.Name, s.Title)
		}
		if d.Name != s.Name {
			t.Errorf("%s: the design's name is %q; it must match the file name", s.Name, d.Name)
		}
		if s.Items < 10 || s.Items > 60 {
			t.Errorf("%s: %d items; a sample holds 10 to 60", s.Name, s.Items)
		}
	}
	if _, ok := Get(Default); !ok {
		t.Errorf("the default sample %q is missing", Default)
	}
}

func TestGetAndLoadUnknown(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"orders", true},
		{"relational-reflex", true},
		{"Orders", false}, // names are exact
		{"orders.yaml", false},
		{"../orders", false},
		{"", false},
	}
	for _, tt := range tests {
		s, ok := Get(tt.name)
		if ok != tt.ok {
			t.Errorf("Get(%q) ok = %v, want %v", tt.name, ok, tt.ok)
		}
		if ok && (s.Name != tt.name || len(s.Data) == 0) {
			t.Errorf("Get(%q) = %q with %d bytes", tt.name, s.Name, len(s.Data))
		}
		_, err := Load(tt.name)
		if (err == nil) != tt.ok {
			t.Errorf("Load(%q) error = %v, want ok=%v", tt.name, err, tt.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "orders, orders-by-status-day") {
			t.Errorf("Load(%q) error %q does not list the samples", tt.name, err)
		}
	}
}

// TestEveryPatternAgainstTheEngine runs every pattern of every sample through the
// engine, as `stwb check` does: reads must return exactly their expect keys in order
// (Query.html: results come back in sort key order, reversed by
// ScanIndexForward=false), writes must succeed unless expectedErrors says otherwise.
func TestEveryPatternAgainstTheEngine(t *testing.T) {
	for name, d := range loadAll(t) {
		t.Run(name, func(t *testing.T) {
			e, err := engine.FromDesign(d)
			if err != nil {
				t.Fatalf("engine: %v", err)
			}
			read := map[string]bool{} // entities that some read pattern returns
			for i := range d.Patterns {
				p := &d.Patterns[i]
				r := e.Run(p, engine.RunOptions{})
				want, wantErr := expectedErrors[name][p.ID]
				switch {
				case wantErr && r.Err == nil:
					t.Errorf("pattern %d: want %s, got success", p.ID, want.Type)
					continue
				case wantErr:
					if r.Err.Type != want.Type {
						t.Errorf("pattern %d: error %s, want %s", p.ID, r.Err, want.Type)
					}
					var codes []string
					for _, c := range r.Err.Reasons {
						codes = append(codes, c.Code)
					}
					if !slices.Equal(codes, want.Reasons) {
						t.Errorf("pattern %d: cancellation reasons %v, want %v", p.ID, codes, want.Reasons)
					}
					continue
				case r.Err != nil:
					t.Errorf("pattern %d (%s): %s", p.ID, p.Operation, r.Err)
					continue
				}
				if p.Operation.IsWrite() {
					if len(r.Changes) == 0 {
						t.Errorf("pattern %d: a write that changes nothing", p.ID)
					}
					continue
				}
				if p.Expect == nil {
					t.Errorf("pattern %d: a read pattern without expect", p.ID)
				}
				if diff := keyDiff(p.Expect, r.Items); diff != "" {
					t.Errorf("pattern %d (%s) returned other keys than it expects:\n%s", p.ID, p.Name, diff)
				}
				for _, it := range r.Items {
					if v, ok := it[d.TypeAttr()]; ok {
						read[v.Str] = true
					}
				}
			}
			if name == reflex {
				return // its items carry no type attribute, by design
			}
			for _, en := range d.Entities {
				if !read[en.Name] {
					t.Errorf("entity %s is returned by no read pattern", en.Name)
				}
			}
		})
	}
}

// keyDiff compares returned items with expected keys: the same number, in the same
// order, each item agreeing with its expect entry on every attribute that entry names.
// It returns "" when they agree, else a listing of both.
func keyDiff(want []model.Item, got []model.Item) string {
	same := len(want) == len(got)
	for i := 0; same && i < len(want); i++ {
		for k, v := range want[i] {
			if g, ok := got[i][k]; !ok || !g.Equal(v) {
				same = false
			}
		}
	}
	if same {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "  want %d:\n", len(want))
	for _, w := range want {
		fmt.Fprintf(&b, "    %s\n", keyString(w, w))
	}
	fmt.Fprintf(&b, "  got %d:\n", len(got))
	for i, g := range got {
		names := g
		if i < len(want) {
			names = want[i]
		} else if len(want) > 0 {
			names = want[0]
		}
		fmt.Fprintf(&b, "    %s\n", keyString(g, names))
	}
	return b.String()
}

func keyString(it, names model.Item) string {
	var parts []string
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range names {
			if !yield(k) {
				return
			}
		}
	}) {
		parts = append(parts, fmt.Sprintf("%s=%s", k, it[k].Str))
	}
	return strings.Join(parts, " ")
}

// TestSeedFigures recomputes the seeds' capacity figures from the engine's runs of the
// samples. Units follow CapacityUnitCalculations.html and read-write-operations.html
// (DYNAMODB.md "Capacity"): a Query is rounded to 4 KB once over everything it read,
// GetItem and each BatchGetItem item on their own, writes to 1 KB of the larger of the
// before and after images, transactions at twice that; eventually consistent reads
// cost half.
func TestSeedFigures(t *testing.T) {
	tests := []struct {
		sample   string
		patterns []int
		read     float64
		write    float64
		why      string
	}{
		{"video-views", []int{1}, 0.5, 0, "one query for two items totalling under 4 KB is 0.5 read units eventually consistent"},
		{"video-views", []int{2}, 0, 1, "the split counter costs one write unit"},
		{"video-views", []int{4}, 0, 2, "the counter on the ~2 KB metadata item costs two"},
		{"page-view-poor", []int{1}, 1, 0, "1 query (1 RCU)"},
		{"page-view-poor", []int{2}, 10, 0, "20 GetItems (20 x 0.5 RCU eventually consistent)"},
		{"page-view-poor", []int{1, 2}, 11, 0, "= 11 RCU per page view"},
		{"page-view-good", []int{1}, 2.5, 0, "20 items x ~1 KB = 20 KB = 2.5 RCU (eventually consistent)"},
		{"unique-email", []int{3}, 0, 4, "two small conditional puts in a transaction: 2 x 2 WCU"},
		{"users-orders", []int{6}, 0, 4, "a transactional write of two items costs about twice two plain writes"},
		{"orders-by-status-day", []int{6}, 0, 3, "the update moves the GSI1 entry: 1 WCU on the table, a delete and a put on GSI1"},
	}
	designs := loadAll(t)
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%v", tt.sample, tt.patterns), func(t *testing.T) {
			read, write := consumed(t, designs[tt.sample], tt.patterns)
			if read != tt.read || write != tt.write {
				t.Errorf("%v: consumed %g RCU, %g WCU; want %g RCU, %g WCU (%s)", tt.patterns, read, write, tt.read, tt.write, tt.why)
			}
		})
	}
	// The ratio the seeds quote for the page view: 4.4x fewer read units.
	poor, _ := consumed(t, designs["page-view-poor"], []int{1, 2})
	good, _ := consumed(t, designs["page-view-good"], []int{1})
	if ratio := poor / good; math.Abs(ratio-4.4) > 1e-9 {
		t.Errorf("page view ratio %.2fx, want 4.4x", ratio)
	}
	// At 500 page views a second: 5,500 RCU against 1,250 RCU.
	for _, c := range []struct {
		name    string
		perView float64
		want    float64
	}{{"poor", poor, 5500}, {"good", good, 1250}} {
		if got := c.perView * 500; got != c.want {
			t.Errorf("%s at 500 page views/s: %g RCU, want %g", c.name, got, c.want)
		}
	}
}

// TestShardsAreNeeded holds daily-orders-sharded to the seeds' sharding method
// (004 "Hot partitions"; bp-partition-key-design.html: 1,000 WCU per partition key
// value): its write pattern's load exceeds one partition's 1,000 WCU, its shards
// bring each under it, and the fan-out read queries every shard exactly once.
func TestShardsAreNeeded(t *testing.T) {
	d := loadAll(t)["daily-orders-sharded"]
	const perPartitionWCU = 1000
	_, wcu := consumed(t, d, []int{1})
	p := d.Patterns[slices.IndexFunc(d.Patterns, func(p model.Pattern) bool { return p.ID == 1 })]
	load := wcu * p.EffectiveRate()
	if load <= perPartitionWCU {
		t.Errorf("pattern 1 writes %g WCU/s; that fits one partition, so the sample does not need shards", load)
	}
	if p.Partitions < 2 || load/float64(p.Partitions) > perPartitionWCU {
		t.Errorf("pattern 1 spreads %g WCU/s over %d shards: over %d a shard", load, p.Partitions, perPartitionWCU)
	}
	var queried []string
	for _, q := range d.Patterns {
		if q.Operation == model.OpQuery {
			for _, r := range q.FanoutRequests() {
				queried = append(queried, r.Values[":pk"].Str)
			}
		}
	}
	var want []string
	for s := range p.Partitions {
		want = append(want, fmt.Sprintf("ORDERS#2026-08-03#%d", s))
	}
	if !slices.Equal(queried, want) {
		t.Errorf("the fan-out reads %v; want each shard once, in order: %v", queried, want)
	}
}

// consumed runs the patterns with those ids and sums their consumed read and write
// units, table and indexes.
func consumed(t *testing.T, d *model.Design, ids []int) (read, write float64) {
	t.Helper()
	e, err := engine.FromDesign(d)
	if err != nil {
		t.Fatalf("engine: %v", err)
	}
	for _, id := range ids {
		i := slices.IndexFunc(d.Patterns, func(p model.Pattern) bool { return p.ID == id })
		if i < 0 {
			t.Fatalf("%s has no pattern %d", d.Name, id)
		}
		r := e.Run(&d.Patterns[i], engine.RunOptions{})
		if r.Err != nil {
			t.Fatalf("pattern %d: %s", id, r.Err)
		}
		read += r.Consumed.Read()
		write += r.Consumed.Write()
	}
	return read, write
}

// genericKey reports whether an attribute name is one of the seeds' generic key names:
// PK, SK, GSI<n>PK, GSI<n>SK, LSI<n>SK.
func genericKey(name string) bool {
	if name == "PK" || name == "SK" {
		return true
	}
	for _, pre := range []string{"GSI", "LSI"} {
		if rest, ok := strings.CutPrefix(name, pre); ok {
			digits := strings.TrimLeft(rest, "0123456789")
			return len(digits) < len(rest) && (digits == "PK" || digits == "SK")
		}
	}
	return false
}

// TestSamplesFollowTheSeeds checks, without the review package, the seeds' rules that
// a sample can be read for directly: every sample but relational-reflex keeps them,
// and relational-reflex breaks the ones its description names.
func TestSamplesFollowTheSeeds(t *testing.T) {
	for name, d := range loadAll(t) {
		t.Run(name, func(t *testing.T) {
			v := seedViolations(d)
			if name == reflex {
				for _, rule := range []string{"scan-in-request-path", "filter-selects", "table-named-for-entity",
					"entity-named-key", "missing-type", "missing-prefix", "index-per-pattern"} {
					if !slices.Contains(v, rule) {
						t.Errorf("%s must break %s; it does not", name, rule)
					}
					if !strings.Contains(d.Description, rule) {
						t.Errorf("%s's description does not name %s", name, rule)
					}
				}
				return
			}
			if len(v) > 0 {
				t.Errorf("breaks the seeds' rules: %v", v)
			}
			for _, p := range d.Patterns {
				if p.Name == "" || p.Holds == "" || p.Returns == "" || p.Order == "" || p.Cardinality == "" || p.Rate <= 0 {
					t.Errorf("pattern %d lacks name, holds, returns, order, cardinality or rate", p.ID)
				}
			}
			if strings.Count(strings.TrimSpace(d.Description), "\n") < 3 {
				t.Errorf("the description is %q; it must teach the idea, not just name it", d.Description)
			}
		})
	}
}

// seedViolations names the rules of the seeds (000: "Generic key names and entity
// prefixes", "Query, never Scan", "Overload the secondary indexes", "Uniqueness is a
// second item") that d breaks, by the review rule ids of issue 6.
func seedViolations(d *model.Design) []string {
	var v []string
	add := func(rule string) {
		if !slices.Contains(v, rule) {
			v = append(v, rule)
		}
	}
	for _, en := range d.Entities {
		if strings.EqualFold(strings.TrimSuffix(d.Table.Name, "s"), en.Name) {
			add("table-named-for-entity")
		}
	}
	keyAttrs := []string{d.Table.Key.Partition, d.Table.Key.Sort}
	for _, ix := range d.Table.Indexes {
		if ix.Key.Multi() {
			continue // keyed on the items' own attributes by design (GSI.DesignPattern.MultiAttributeKeys.html)
		}
		keyAttrs = append(keyAttrs, ix.Key.Partition, ix.Key.Sort)
	}
	for _, k := range keyAttrs {
		if k != "" && !genericKey(k) {
			add("entity-named-key")
		}
	}
	for _, it := range d.Items {
		ty, ok := it[d.TypeAttr()]
		if !ok || d.EntityByName(ty.Str) == nil {
			add("missing-type")
		}
		// A partition key value names its entity before a '#'.
		if pk, ok := it[d.Table.Key.Partition]; ok && !strings.Contains(pk.Str, "#") {
			add("missing-prefix")
		}
	}
	used := map[string]int{}
	for _, p := range d.Patterns {
		if p.Operation == model.OpScan && !p.Batch {
			add("scan-in-request-path")
			if p.Filter != "" {
				add("filter-selects")
			}
		}
		if p.Index != "" {
			used[p.Index]++
		}
	}
	for _, ix := range d.Table.Indexes {
		if used[ix.Name] == 0 {
			add("unused-index")
		}
	}
	// One GSI per pattern, none serving two: the index-per-pattern smell.
	if len(d.Table.Indexes) > 1 {
		single := true
		for _, n := range used {
			single = single && n == 1
		}
		if single {
			add("index-per-pattern")
		}
	}
	for _, en := range d.Entities {
		for _, a := range en.Attributes {
			if a.Unique && !claimWritten(d, en.Name) {
				add("uniqueness-unenforced")
			}
		}
	}
	return v
}

// claimWritten reports whether some TransactWriteItems pattern puts an item of the
// entity together with a conditional put of another item (the claim).
func claimWritten(d *model.Design, entity string) bool {
	for _, p := range d.Patterns {
		if p.Operation != model.OpTransactWriteItems {
			continue
		}
		var entityPut, claimPut bool
		for _, a := range p.Actions {
			if a.Kind != model.ActionPut {
				continue
			}
			if a.Item[d.TypeAttr()].Str == entity {
				entityPut = true
			} else if strings.Contains(a.Condition, "attribute_not_exists") {
				claimPut = true
			}
		}
		if entityPut && claimPut {
			return true
		}
	}
	return false
}

// BenchmarkLoadAll measures parsing every embedded sample, which List does once per
// process and the workbench does when it opens a sample. Target: well under the
// 100 ms a user notices at start-up.
func BenchmarkLoadAll(b *testing.B) {
	for b.Loop() {
		for _, n := range order {
			if _, err := Load(n); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// Every sample is written in the saver's canonical form, so that opening one and
// saving it without edits writes it as it is: no diff the user did not make (issue
// 25: the first save of a sample rewrote its puts without their keys, and rewrote
// quoting and block-style items).
func TestSamplesSaveAsWritten(t *testing.T) {
	for _, name := range Names() {
		f, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		out, err := f.With(f.Design).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		orig, _ := files.ReadFile(name + ".yaml")
		if string(out) != string(orig) {
			a, b := strings.Split(string(orig), "\n"), strings.Split(string(out), "\n")
			for i := range min(len(a), len(b)) {
				if a[i] != b[i] {
					t.Errorf("%s saved without edits changes line %d:\n  was %s\n  now %s", name, i+1, a[i], b[i])
					break
				}
			}
			if len(a) != len(b) {
				t.Errorf("%s saved without edits has %d lines, not %d", name, len(b), len(a))
			}
		}
	}
}
