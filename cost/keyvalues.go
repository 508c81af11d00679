package cost

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"maps"
	"slices"
	"strings"
	"time"

	"stwb/internal/chunks"
	"stwb/internal/numfmt"
	"stwb/model"
)

// How a key template variable's values behave in production, as KeySpace decides it.
// The verdicts that rest on them (hot keys, production pages) say which applied.
const (
	// VarMany: many values, traffic spread over them by the skew model.
	VarMany = "many"
	// VarFew: a handful of values (a status code); a request names the value
	// production uses, so load is summed per value, not spread.
	VarFew = "few"
	// VarPeriod: a date or a time; one value, the current period, takes the writes
	// (bp-partition-key-design.html: "Item creation date rounded to the nearest time
	// period" is a bad partition key).
	VarPeriod = "period"
	// VarUnknown: nothing says how many values there are.
	VarUnknown = "unknown"
)

// VarInfo is what is known of one template variable.
type VarInfo struct {
	Name   string
	Kind   string // VarMany, VarFew, VarPeriod or VarUnknown
	Values int64  // how many values; 0 when unknown (always for VarPeriod)
	// Because says where the figure comes from, in words the user can check.
	Because string
	// Monotonic is set when the values increase (or decrease) with each new item:
	// dates and times, epoch numbers, a zero-padded or increasing sequence, ULIDs,
	// KSUIDs, UUIDv7, read from the samples; or a name that says so (createdAt, ts,
	// ulid, seq: monotonicName). As a sort key, such a variable puts every new item
	// at one end of the key's range, which split for heat does not spread
	// (MonotonicWhy says why).
	Monotonic    bool
	MonotonicWhy string
}

// lowCardinality bounds the inference of a few-valued variable from samples: at
// most this many distinct values, each seen at least twice, in an entity of at least
// lowCardinalityCount items in production.
const (
	lowCardinalityValues = 16
	lowCardinalityCount  = 10000
)

// KeySpace answers, for a design, how many values each key template variable takes
// and so how many partition key values a key has. It is built once per report; it
// reads the entities' `values` and `count` and the sample items, never a variable's
// name (a variable called day may hold ids; one called ts may hold dates), for how
// many values it takes; a name only adds that its values increase (VarInfo.Monotonic).
type KeySpace struct {
	d       *model.Design
	count   func(*model.Entity) int64
	samples map[string][]int            // entity name -> its sample items, by index in items
	items   model.ItemList              // the sample items
	stored  func(model.Item) model.Item // the stored item with a table key, when the caller has them (Input.Stored)
	byKey   *sampleIndex                // the samples by table key, built on first use (EntityOf)
	// storedOf remembers what stored found for each table key asked (EntityOf):
	// the cost and the review ask of the same index entries, and each look-up
	// reads the stored item again.
	storedOf map[tableKey]*model.Entity
	vars     map[[2]string]VarInfo  // (entity, variable) -> what is known
	values   map[[2]string][]string // (entity, variable) -> its sample values (sampleValues)
}

// NewKeySpace indexes the design's sample items by entity. count is an entity's
// production count as the storage report took it.
func NewKeySpace(d *model.Design, items []model.Item, count func(*model.Entity) int64) *KeySpace {
	return NewKeySpaceOf(d, model.ItemMaps(items), count)
}

// NewKeySpaceOf is NewKeySpace on a list of items (model.ItemList).
func NewKeySpaceOf(d *model.Design, items model.ItemList, count func(*model.Entity) int64) *KeySpace {
	ks := &KeySpace{d: d, count: count, samples: map[string][]int{}, vars: map[[2]string]VarInfo{},
		items: items, values: map[[2]string][]string{}}
	if typed, ok := items.(model.TypedList); ok {
		// Grouped by type as the items were read (analysis.Load).
		for name, at := range typed.ByType() {
			if d.EntityByName(name) != nil {
				ks.samples[name] = at
			}
		}
		return ks
	}
	ta := d.TypeAttr()
	// Items of one entity mostly come one after another: the entity of the
	// previous item's type is looked up again only when the type changes.
	prev, known, looked := "", false, false
	for i := range items.Len() {
		if v, ok := items.Attr(i, ta); ok && v.Type == model.TypeS {
			if v.Str != prev || !looked {
				prev, known, looked = v.Str, d.EntityByName(v.Str) != nil, true
			}
			if known {
				ks.samples[v.Str] = append(ks.samples[v.Str], i)
			}
		}
	}
	return ks
}

// declaredCount is an entity's `count` when the design gives one (0 otherwise): a
// count taken from the samples says nothing about production.
func declaredCount(e *model.Entity) int64 { return e.Count }

// Var is what is known of variable name in entity e's templates, in this order:
//
//  1. the entity's `values` for it (a number, or period);
//  2. its sample values all read as dates or times (ISO 8601 dates and timestamps,
//     yyyymmdd, Unix seconds or milliseconds): a period;
//  3. a parent entity holds one item per value (CUST#{customerId} with sort key
//     PROFILE and a count): many, that count;
//  4. few distinct sample values, each seen at least twice, in an entity of at least
//     10,000 items: few, that many values (at least);
//  5. otherwise many values, their number left to the key (Key: a parent entity's
//     count) or unknown.
func (ks *KeySpace) Var(e *model.Entity, name string) VarInfo {
	k := [2]string{e.Name, name}
	if v, ok := ks.vars[k]; ok {
		return v
	}
	v := ks.inferVar(e, name)
	ks.vars[k] = v
	return v
}

func (ks *KeySpace) inferVar(e *model.Entity, name string) VarInfo {
	if dv, ok := e.Values[name]; ok {
		if dv.Period {
			return VarInfo{Name: name, Kind: VarPeriod, Monotonic: true, MonotonicWhy: "a period: time moves one way",
				Because: fmt.Sprintf("%s's values: %s is a period", e.Name, name)}
		}
		if dv.N <= lowCardinalityValues {
			// A declared count says how many values exist, not where each request
			// goes: a write lands on the value its item builds (every new order is
			// PENDING), as for a few values read from the samples.
			return VarInfo{Name: name, Kind: VarFew, Values: dv.N,
				Because: fmt.Sprintf("%s's values: %s has %s, few: each request names the one it loads", e.Name, name, numfmt.Int(dv.N))}
		}
		vi := VarInfo{Name: name, Kind: VarMany, Values: dv.N, Because: fmt.Sprintf("%s's values: %s has %s", e.Name, name, numfmt.Int(dv.N))}
		vi.Monotonic, vi.MonotonicWhy = monotonic(name, ks.sampleValues(e, name))
		return vi
	}
	vals := ks.sampleValues(e, name)
	mono, monoWhy := monotonic(name, vals)
	if parent, n := ks.parentOf(name); n > 0 {
		return VarInfo{Name: name, Kind: VarMany, Values: n, Monotonic: mono, MonotonicWhy: monoWhy,
			Because: fmt.Sprintf("one %s item per %s (a constant sort key): %s", parent.Name, name, plural(int(min(n, 1<<31)), "value", "values"))}
	}
	if len(vals) == 0 {
		return VarInfo{Name: name, Kind: VarUnknown, Monotonic: mono, MonotonicWhy: monoWhy, Because: fmt.Sprintf("no %s sample gives %s", e.Name, name)}
	}
	dates := 0
	for _, s := range vals {
		if IsDateOrTime(s) {
			dates++
		}
	}
	if dates == len(vals) {
		return VarInfo{Name: name, Kind: VarPeriod, Monotonic: true, MonotonicWhy: monoWhy,
			Because: fmt.Sprintf("%s of %s in %s read as dates or times: a period, the current one takes the writes", plural(len(vals), "value", "values"), name, plural(len(vals), e.Name+" sample", e.Name+" samples"))}
	}
	distinct, repeated := distinctValues(vals)
	if c := declaredCount(e); repeated && distinct <= lowCardinalityValues && c >= lowCardinalityCount {
		return VarInfo{Name: name, Kind: VarFew, Values: int64(distinct),
			Because: fmt.Sprintf("%s of %s in %s, of %s in production: few values, each request names the one it loads",
				plural(distinct, "distinct value", "distinct values"), name, plural(len(vals), e.Name+" sample", e.Name+" samples"), numfmt.Int(c))}
	}
	return VarInfo{Name: name, Kind: VarMany, Monotonic: mono, MonotonicWhy: monoWhy,
		Because: fmt.Sprintf("%s of %s in %s", plural(distinct, "distinct value", "distinct values"), name, plural(len(vals), e.Name+" sample", e.Name+" samples"))}
}

// distinctValues counts the distinct texts in vals, and says whether each was seen
// at least twice while there are no more than lowCardinalityValues of them (past
// that, a variable is not few-valued and repeated is false). Each value's count is
// kept only while there are few; past that a set, sized from the share of new
// values so far, counts them: a million sample ids grew a counting map through
// every doubling (BenchmarkCompute1M). Values in order (sample items are often
// listed by key) are counted by their runs, without a set.
func distinctValues(vals []string) (distinct int, repeated bool) {
	if slices.IsSorted(vals) {
		return distinctRuns(vals)
	}
	counts := map[string]int{}
	var seen map[string]struct{}
	for i, s := range vals {
		if seen != nil {
			seen[s] = struct{}{}
			continue
		}
		counts[s]++
		if len(counts) > lowCardinalityValues {
			hint := min(len(vals), (len(vals)/(i+1)+1)*len(counts))
			seen = make(map[string]struct{}, hint)
			for c := range counts {
				seen[c] = struct{}{}
			}
		}
	}
	if seen != nil {
		return len(seen), false
	}
	repeated = true
	for _, n := range counts {
		if n < 2 {
			repeated = false
		}
	}
	return len(counts), repeated
}

// distinctRuns is distinctValues of sorted values: each distinct value is one run
// of equal values.
func distinctRuns(vals []string) (distinct int, repeated bool) {
	repeated = true
	for i := 0; i < len(vals); {
		j := i + 1
		for j < len(vals) && vals[j] == vals[i] {
			j++
		}
		distinct++
		repeated = repeated && j-i >= 2
		i = j
	}
	return distinct, repeated && distinct <= lowCardinalityValues
}

// parentOf finds the entity that holds one item per value of a variable: its table
// partition key template has that variable alone, its sort key is a constant
// (CUST#{customerId} with PROFILE), and it declares a count. The largest such count.
func (ks *KeySpace) parentOf(name string) (*model.Entity, int64) {
	pk, sk := ks.d.Table.Key.Partition, ks.d.Table.Key.Sort
	var best *model.Entity
	for i := range ks.d.Entities {
		e := &ks.d.Entities[i]
		vars := model.TemplateVars(e.Keys[pk])
		if len(vars) != 1 || vars[0] != name || declaredCount(e) <= 0 {
			continue
		}
		if sk != "" {
			if tpl, ok := e.Keys[sk]; !ok || len(model.TemplateVars(tpl)) > 0 {
				continue
			}
		}
		if best == nil || e.Count > best.Count {
			best = e
		}
	}
	if best == nil {
		return nil, 0
	}
	return best, best.Count
}

// sampleValues are the texts a variable takes in an entity's samples: the item's
// attribute of that name, else read back out of a key built from one of the
// entity's templates (model.KeyTemplate.Var, the templates parsed once for the
// entity, tried in key attribute order). Read on first use, together with every
// other variable of the entity's templates not read yet: one pass over the samples
// rather than one per variable (a million sample items: reading each item once
// rather than once per variable, BenchmarkCompute1M).
func (ks *KeySpace) sampleValues(e *model.Entity, name string) []string {
	k := [2]string{e.Name, name}
	if v, ok := ks.values[k]; ok {
		return v
	}
	names := []string{name}
	for _, v := range templateVars(e) {
		if _, read := ks.values[[2]string{e.Name, v}]; !read && v != name {
			names = append(names, v)
		}
	}
	for i, vals := range ks.readSampleValues(e, names) {
		ks.values[[2]string{e.Name, names[i]}] = vals
	}
	return ks.values[k]
}

// varReader reads one variable's value out of a sample item (readSampleValues).
type varReader struct {
	name string
	attr model.Column   // the items' attribute of that name
	tpls []attrTemplate // e's templates with the variable, in key attribute order
}

// attrTemplate is an entity's key template of one attribute, parsed, and the
// items' attribute it builds.
type attrTemplate struct {
	attr model.Column
	tpl  model.KeyTemplate
}

// readSampleValues reads each named variable's value in each of e's samples, in
// one pass (a chunk of the samples a core): the attribute of that name when the
// item has it (its text when a string or a number), else the first of e's key
// templates with the variable that gives it back (model.KeyTemplate.Var). vals[i]
// is names[i]'s, in the samples' order.
func (ks *KeySpace) readSampleValues(e *model.Entity, names []string) (vals [][]string) {
	samples := ks.samples[e.Name]
	readers := varReaders(ks.items, e, names)
	vals = make([][]string, len(names))
	for n := range names {
		vals[n] = make([]string, len(samples))
	}
	// Chunk c, from sample lo, writes the values it finds from vals[n][lo] on and
	// counts them; the chunks' values are then moved up to follow each other.
	found := make([]struct {
		lo    int
		count []int // by variable
	}, chunks.Count(len(samples), chunkedFrom))
	chunks.Run(len(samples), chunkedFrom, func(c, lo, hi int) {
		f := &found[c]
		f.lo, f.count = lo, make([]int, len(readers))
		for _, i := range samples[lo:hi] {
			for n := range readers {
				if s, ok := ks.sampleValue(i, &readers[n]); ok {
					vals[n][lo+f.count[n]] = s
					f.count[n]++
				}
			}
		}
	})
	for n := range vals {
		end := 0
		for _, f := range found {
			end += copy(vals[n][end:], vals[n][f.lo:f.lo+f.count[n]])
		}
		clear(vals[n][end:])
		vals[n] = vals[n][:end]
	}
	return vals
}

// varReaders are the readers of entity e's variables names in items (sampleValue).
func varReaders(items model.ItemList, e *model.Entity, names []string) []varReader {
	attrs := slices.Sorted(maps.Keys(e.Keys))
	readers := make([]varReader, len(names))
	for n, name := range names {
		readers[n] = varReader{name: name, attr: model.ColumnOf(items, name)}
		for _, attr := range attrs {
			if slices.Contains(model.TemplateVars(e.Keys[attr]), name) {
				readers[n].tpls = append(readers[n].tpls, attrTemplate{model.ColumnOf(items, attr), model.NewKeyTemplate(e.Keys[attr], model.TypeS)})
			}
		}
	}
	return readers
}

// templateVars are the variables of entity e's key templates, each once, in key
// attribute order.
func templateVars(e *model.Entity) []string {
	var names []string
	for _, attr := range slices.Sorted(maps.Keys(e.Keys)) {
		for _, v := range model.TemplateVars(e.Keys[attr]) {
			if !slices.Contains(names, v) {
				names = append(names, v)
			}
		}
	}
	return names
}

// sampleValue is r's variable in sample i (readSampleValues).
func (ks *KeySpace) sampleValue(i int, r *varReader) (string, bool) {
	if v, ok := r.attr(i); ok {
		return keyText(v)
	}
	for _, t := range r.tpls {
		if kv, ok := t.attr(i); ok {
			if s, ok := t.tpl.Var(kv, r.name); ok {
				return s, true
			}
		}
	}
	return "", false
}

// dateLayouts are the shapes of a date or time that a key carries.
var dateLayouts = []string{
	"2006-01-02", "2006-01", "2006-01-02T15", "2006-01-02T15:04", "2006-01-02T15:04Z07:00",
	"2006-01-02T15:04:05", "2006-01-02T15:04:05Z07:00", "2006-01-02T15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05", "20060102", "2006010215", "200601021504", "20060102T150405Z",
	"2006/01/02", "2006/01/02 15:04:05", "2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999",
	"20060102150405", "2006-01-02T15:04:05Z0700", "2006-01-02 15:04:05Z07:00",
}

// IsDateOrTime reports whether a key part reads as a date or a timestamp: one of
// dateLayouts with a year from 1970 to 2199, or Unix seconds (10 digits) or
// milliseconds (13 digits) in those years.
func IsDateOrTime(s string) bool {
	// Every layout starts with the year, so a year from 1970 to 2199 must open s;
	// testing that first spares time.Parse, and its error, for most key parts.
	year := len(s) >= 4 && (s[0] == '1' || s[0] == '2') && allDigits(s[:4])
	for _, l := range dateLayouts {
		if !year {
			break
		}
		if t, err := time.Parse(l, s); err == nil && t.Year() >= 1970 && t.Year() < 2200 {
			return true
		}
	}
	return isEpoch(s)
}

// isEpoch reports whether s reads as Unix time from 2001-09-09 to 2200-01-01 in
// seconds (10 digits, optionally with a fraction), milliseconds (13), microseconds
// (16) or nanoseconds (19).
func isEpoch(s string) bool {
	if i := strings.IndexByte(s, '.'); i == 10 && allDigits(s[i+1:]) {
		s = s[:i]
	}
	if !allDigits(s) {
		return false
	}
	div := map[int]int64{10: 1, 13: 1e3, 16: 1e6, 19: 1e9}[len(s)]
	if div == 0 {
		return false
	}
	var n int64
	for _, c := range s {
		n = n*10 + int64(c-'0')
	}
	n /= div
	return n >= 1e9 && n < 7258118400
}

func allDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// The kinds of a partition key, as KeyInfo.Kind names them.
const (
	KeyConstant = "constant" // one value: a template with no variable
	KeyPeriod   = "period"   // the current period's value takes the load
	KeyFew      = "few"      // few values; the request's value is the one loaded
	KeyMany     = "many"     // many values, the load spread by the skew model
	KeyUnknown  = "unknown"  // spread over a number of values nothing gives, or a value no template makes
	KeyPattern  = "pattern"  // the pattern's `partitions` says how many, spread evenly
	KeyNoKey    = "no key"   // a Scan: it names no partition key value
	KeyNone     = "none"     // the request loads no key (it was refused)
)

// KeyInfo is what is known of one partition key value a request uses.
type KeyInfo struct {
	Attr  string // the key attribute
	Value string // the request's value, as text
	// Shape is the key as production sees it: the template with each few-valued
	// variable's value filled in, a period as {name:current}, many-valued variables
	// left as {name}. Loads on one shape are summed.
	Shape    string
	Template string // the entity template the value matched ("" when none)
	Kind     string // KeyConstant ... KeyNoKey
	// Values is how many partition key values the load spreads over: 1 for a
	// constant, a period or a few-valued key (the load sits on one value); the
	// product of the many-valued variables' counts, or 0 when unknown.
	Values int64
	// AtMost bounds an unknown Values: every key value has an item, so there are at
	// most as many as the matching entities' declared counts add up to (0: no bound).
	AtMost int64
	Vars   []VarInfo
	// Because says, in words, how Values was decided.
	Because string
	// Entities are the entities whose template the value matched.
	Entities []*model.Entity
	// vals are the template's variables read back out of the value.
	vals map[string]string
}

// shape writes the key as production sees it (KeyInfo.Shape): each few-valued
// variable's value filled in, unless shown names it; a period as {name:current};
// every other variable as {name}.
func (ki KeyInfo) shape(shown []string) string {
	parts, _ := model.TemplateParts(ki.Template)
	var b strings.Builder
	for _, p := range parts {
		if p.Var == "" {
			b.WriteString(p.Literal)
			continue
		}
		switch vi := varNamed(ki.Vars, p.Var); {
		case vi.Kind == VarPeriod:
			b.WriteString("{" + p.Var + ":current}")
		case vi.Kind == VarFew && !slices.Contains(shown, p.Var):
			if s, ok := ki.vals[p.Var]; ok {
				b.WriteString(s)
				break
			}
			fallthrough
		default:
			b.WriteString("{" + p.Var + "}")
		}
	}
	return showTuple(b.String())
}

// showingVars is ki with the named variables written {name} in its shape, whatever
// their kind but a period: a fan-out's request names one value of its variable,
// and what it says of that one key value holds for each of the fan-out's.
func (ki KeyInfo) showingVars(names []string) KeyInfo {
	if ki.Template != "" && len(names) > 0 {
		ki.Shape = ki.shape(names)
	}
	return ki
}

// Key decides what is known of a partition key value v of attribute attr. has is
// false when the request names none (a Scan).
func (ks *KeySpace) Key(attr string, v model.Value, has bool) KeyInfo {
	if !has {
		return KeyInfo{Attr: attr, Kind: KeyNoKey, Shape: "(scan)", Values: 1,
			Because: "a Scan names no key; it reads one partition at a time"}
	}
	text, _ := keyText(v)
	ki := KeyInfo{Attr: attr, Value: showTuple(text), Shape: showTuple(text)}
	tuple := tupleAttrs(ks.d, attr)
	// The most specific template that matches makes the key: CUST#42#2026-08 is
	// CUST#{customerId}#{month}, not CUST#{customerId} with customerId 42#2026-08.
	best := -1
	for i := range ks.d.Entities {
		e := &ks.d.Entities[i]
		tpl, ok := e.Keys[attr]
		if tuple != nil {
			// A multi-attribute key: a template of its attributes, for the
			// entities that hold them all.
			tpl, ok = tupleTemplate(tuple), ks.holdsAll(e, tuple)
		} else if !ok && declares(e, attr) {
			// An index keyed on a plain attribute (email-index on email): the
			// key takes the attribute's values, as a template of it alone would.
			tpl, ok = "{"+attr+"}", true
		}
		if !ok || !model.MatchTemplate(tpl, v) {
			continue
		}
		if n := literalLen(tpl); n > best {
			best, ki.Template, ki.Entities = n, tpl, nil
		}
		if tpl == ki.Template {
			ki.Entities = append(ki.Entities, e)
		}
	}
	if ki.Template == "" {
		// Nothing says whether requests name this one value or one of many.
		ki.Kind = KeyUnknown
		ki.Because = "no entity's key template makes this value: how many values the key takes is unknown (give the items a type and their entity a key template)"
		return ki
	}
	if len(model.TemplateVars(ki.Template)) == 0 {
		ki.Kind, ki.Values = KeyConstant, 1
		ki.Because = "a constant key: one value takes all of it"
		return ki
	}
	ki.vals, _ = model.ExtractTemplate(ki.Template, v)
	var spread []VarInfo
	anyFew, anyPeriod := false, false
	for _, name := range model.TemplateVars(ki.Template) {
		vi := ks.varAcross(ki.Entities, name)
		ki.Vars = append(ki.Vars, vi)
		switch vi.Kind {
		case VarFew:
			anyFew = true
		case VarPeriod:
			anyPeriod = true
		default:
			spread = append(spread, vi)
		}
	}
	ki.Shape = ki.shape(nil)
	switch {
	case len(spread) == 0 && anyFew:
		ki.Kind, ki.Values = KeyFew, 1
	case len(spread) == 0 && anyPeriod:
		ki.Kind, ki.Values = KeyPeriod, 1
	default:
		ki.Kind, ki.Values = KeyMany, 1
		for _, vi := range spread {
			if vi.Values <= 0 {
				ki.Values = 0
				break
			}
			ki.Values = mulCap(ki.Values, vi.Values)
		}
		if ki.Values == 0 {
			if n := ks.parentCount(attr, ki.Entities); n > 0 {
				ki.Values = n
			}
		}
		if ki.Values == 0 {
			ki.Kind = KeyUnknown
			for _, e := range ki.Entities {
				if declaredCount(e) <= 0 {
					ki.AtMost = 0
					break
				}
				ki.AtMost = addCap(ki.AtMost, declaredCount(e))
			}
		}
	}
	ki.Because = ks.because(ki)
	return ki
}

// holdsAll reports whether entity e's items hold every one of attrs: it declares
// them, or its samples carry them.
func (ks *KeySpace) holdsAll(e *model.Entity, attrs []string) bool {
	for _, a := range attrs {
		if declares(e, a) {
			continue
		}
		found := false
		for _, i := range ks.samples[e.Name] {
			if _, ok := ks.items.Attr(i, a); ok {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// declares reports whether entity e lists attribute attr among its attributes.
func declares(e *model.Entity, attr string) bool {
	for _, a := range e.Attributes {
		if a.Name == attr {
			return true
		}
	}
	return false
}

// literalLen is how many literal characters a template has: of two templates that
// match one value, the one with more is the more specific.
func literalLen(tpl string) int {
	parts, _ := model.TemplateParts(tpl)
	n := 0
	for _, p := range parts {
		n += len(p.Literal)
	}
	return n
}

// varAcross is what the entities sharing one template know of a variable: the
// first that declares it, else the first inference that says more than "many".
func (ks *KeySpace) varAcross(es []*model.Entity, name string) VarInfo {
	var best VarInfo
	for i, e := range es {
		vi := ks.Var(e, name)
		if _, declared := e.Values[name]; declared {
			return vi
		}
		if i == 0 || (best.Kind == VarMany && best.Values == 0) || best.Kind == VarUnknown {
			if vi.Kind != VarUnknown || i == 0 {
				best = vi
			}
		}
	}
	return best
}

// parentCount is the number of values a key has when a parent entity shares it: an
// entity whose sort key beside attr is a constant (#METADATA, PROFILE) has one item
// per value, so its declared count is the number of values (the largest such).
func (ks *KeySpace) parentCount(attr string, es []*model.Entity) int64 {
	sortAttr := sortKeyBeside(ks.d, attr)
	var n int64
	for _, e := range es {
		tpl, ok := e.Keys[sortAttr]
		if sortAttr == "" || !ok || len(model.TemplateVars(tpl)) > 0 {
			continue
		}
		n = max(n, declaredCount(e))
	}
	return n
}

func (ks *KeySpace) because(ki KeyInfo) string {
	var parts []string
	for _, vi := range ki.Vars {
		parts = append(parts, vi.Because)
	}
	switch ki.Kind {
	case KeyMany:
		if n := ks.parentCount(ki.Attr, ki.Entities); n > 0 && n == ki.Values && len(parts) == 0 {
			parts = append(parts, fmt.Sprintf("one parent item per value: %s values", numfmt.Int(n)))
		}
	case KeyUnknown:
		if ki.AtMost > 0 {
			parts = append(parts, fmt.Sprintf("how many values is unknown; at most %s (the entities' counts)", numfmt.Int(ki.AtMost)))
		} else {
			parts = append(parts, "how many values is unknown: give the entity a count, or `values`")
		}
	}
	return strings.Join(parts, "; ")
}

// ItemsPerValue is how many items of entity e one value of the key holds in
// production: its count over the key's values; 0 when either is unknown. A parent
// entity holds one.
func (ks *KeySpace) ItemsPerValue(ki KeyInfo, e *model.Entity) float64 {
	c := ks.count(e)
	if c <= 0 {
		return 0
	}
	values := int64(0)
	switch ki.Kind {
	case KeyConstant:
		values = 1
	case KeyMany, KeyPattern:
		for _, vi := range ki.Vars {
			if vi.Kind == VarPeriod {
				return 0 // how many periods the table keeps is unknown
			}
		}
		values = ki.Values
	case KeyFew:
		// The request's value is one of the few: the items spread over all of them.
		values = 1
		for _, vi := range ki.Vars {
			switch vi.Kind {
			case VarFew:
				values = mulCap(values, max(vi.Values, 1))
			case VarPeriod:
				return 0 // how many periods the table keeps is unknown
			}
		}
	}
	if values <= 0 {
		return 0
	}
	return max(float64(c)/float64(values), 1)
}

// EntityOf names the entity of an item: its type attribute, else the stored item
// with the same table key (an index entry may leave the type out).
func (ks *KeySpace) EntityOf(it model.Item) *model.Entity {
	ta := ks.d.TypeAttr()
	if v, ok := it[ta]; ok && v.Type == model.TypeS {
		return ks.d.EntityByName(v.Str)
	}
	if ks.stored != nil {
		k := tableKeyOf(ks.d, it)
		if e, ok := ks.storedOf[k]; ok {
			return e
		}
		var e *model.Entity
		if v, ok := ks.stored(it)[ta]; ok && v.Type == model.TypeS {
			e = ks.d.EntityByName(v.Str)
		}
		if ks.storedOf == nil {
			ks.storedOf = map[tableKey]*model.Entity{}
		}
		ks.storedOf[k] = e
		return e
	}
	if ks.byKey == nil {
		ks.byKey = newSampleIndex(ks, nil)
	}
	return ks.byKey.entityOf(tableKeyOf(ks.d, it))
}

// sampleIndex finds the last sample item with a table key, for EntityOf. A
// million samples made a map keyed by the key's strings cost more than the
// pricing itself (BenchmarkCompute1M: growing it, hashing, and the collector
// scanning its pointers), and a map of a hash of the key still missed the cache
// twice per sample (its look-up, then its assignment); this one is a list of each
// sample's key hash and index, sorted by hash (a radix sort, a few passes in
// order over the list), with no pointers. A look-up reads the key again of each
// sample with the hash it seeks: different keys may share a hash.
type sampleIndex struct {
	ks      *KeySpace
	hash    func(tableKey) uint32 // hashOf; a test gives one that clashes
	entries []indexEntry          // sorted by hash
	pk, sk  model.Column          // the samples' table key attributes (sk nil: none)
}

// indexEntry is one sample in sampleIndex.
type indexEntry struct {
	hash uint32
	at   int32 // the sample
}

// newKeyHash is the hash a sampleIndex files table keys by.
func newKeyHash() func(tableKey) uint32 {
	seed := maphash.MakeSeed()
	return func(k tableKey) uint32 { return hashOf(seed, k) }
}

// emptySampleIndex is a sample index of ks's items with no entry yet: it reads
// their table keys (keyAt) by column.
func emptySampleIndex(ks *KeySpace) *sampleIndex {
	x := &sampleIndex{ks: ks, pk: model.ColumnOf(ks.items, ks.d.Table.Key.Partition)}
	if sk := ks.d.Table.Key.Sort; sk != "" {
		x.sk = model.ColumnOf(ks.items, sk)
	}
	return x
}

func newSampleIndex(ks *KeySpace, hash func(tableKey) uint32) *sampleIndex {
	if hash == nil {
		hash = newKeyHash()
	}
	n := 0
	for _, at := range ks.samples {
		n += len(at)
	}
	x := emptySampleIndex(ks)
	x.hash, x.entries = hash, make([]indexEntry, 0, n)
	// Only the samples whose type names an entity (ks.samples) are indexed; their
	// keys are read and hashed a chunk a core.
	for _, at := range ks.samples {
		for _, i := range at {
			x.entries = append(x.entries, indexEntry{at: int32(i)})
		}
	}
	chunks.Run(n, chunkedFrom, func(_, lo, hi int) {
		for k := lo; k < hi; k++ {
			x.entries[k].hash = hash(x.keyAt(x.entries[k].at))
		}
	})
	radixSort(x.entries)
	return x
}

// radixSort sorts entries by hash, a byte at a time from the lowest.
func radixSort(entries []indexEntry) {
	buf := make([]indexEntry, len(entries))
	src, dst := entries, buf
	for shift := 0; shift < 32; shift += 8 {
		var count [257]int
		for _, e := range src {
			count[(e.hash>>shift)&0xff+1]++
		}
		for d := 1; d < len(count); d++ {
			count[d] += count[d-1]
		}
		for _, e := range src {
			d := (e.hash >> shift) & 0xff
			dst[count[d]] = e
			count[d]++
		}
		src, dst = dst, src
	}
	// Four passes: the sorted list is back in entries.
}

// entityOf is the entity of the last sample with table key k (nil: none).
func (x *sampleIndex) entityOf(k tableKey) *model.Entity {
	h := x.hash(k)
	last := int32(-1)
	for j, _ := slices.BinarySearchFunc(x.entries, h, func(e indexEntry, h uint32) int { return cmp.Compare(e.hash, h) }); j < len(x.entries) && x.entries[j].hash == h; j++ {
		if at := x.entries[j].at; at > last && x.keyAt(at) == k {
			last = at
		}
	}
	if last < 0 {
		return nil
	}
	return x.entityAt(last)
}

// keyAt is sample i's table key.
func (x *sampleIndex) keyAt(i int32) tableKey {
	p, _ := x.pk(int(i))
	var s model.Value
	if x.sk != nil {
		s, _ = x.sk(int(i))
	}
	return tableKey{pt: p.Type, st: s.Type, p: p.Str, s: s.Str}
}

// entityAt is the entity sample i's type names (only samples with one are indexed).
func (x *sampleIndex) entityAt(i int32) *model.Entity {
	v, _ := x.ks.items.Attr(int(i), x.ks.d.TypeAttr())
	return x.ks.d.EntityByName(v.Str)
}

func hashOf(seed maphash.Seed, k tableKey) uint32 {
	h := maphash.String(seed, k.p) ^ (maphash.String(seed, k.s) * 0x9e3779b97f4a7c15) ^ uint64(k.pt)<<8 ^ uint64(k.st)
	return uint32(h >> 32)
}

// tableKey is an item's table key, for lookups; its strings are the item's own.
type tableKey struct {
	pt, st model.Type
	p, s   string
}

func tableKeyOf(d *model.Design, it model.Item) tableKey {
	pk, sk := it[d.Table.Key.Partition], it[d.Table.Key.Sort]
	return tableKey{pt: pk.Type, st: sk.Type, p: pk.Str, s: sk.Str}
}

// mulCap and addCap saturate at 1<<62 rather than wrap.
func mulCap(a, b int64) int64 {
	if a > 0 && b > (1<<62)/a {
		return 1 << 62
	}
	return a * b
}

func addCap(a, b int64) int64 {
	if a > (1<<62)-b {
		return 1 << 62
	}
	return a + b
}

func plural(n int, one, many string) string { return numfmt.Count(int64(n), one, many) }

// TemplateKey is what is known of the partition key values template tpl of
// attribute attr makes, as Key decides it for a value of the template: each
// variable takes the first value the samples give it (so a few-valued variable
// names one of its values), else a placeholder. Rules about item collections ask
// it how many values a key has without a request naming one.
func (ks *KeySpace) TemplateKey(attr, tpl string) KeyInfo {
	parts, ok := model.TemplateParts(tpl)
	if !ok {
		return ks.Key(attr, model.Str(tpl), true)
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Var == "" {
			b.WriteString(p.Literal)
			continue
		}
		val := "x"
		for i := range ks.d.Entities {
			e := &ks.d.Entities[i]
			if e.Keys[attr] != tpl {
				continue
			}
			if vs := ks.sampleValues(e, p.Var); len(vs) > 0 {
				val = vs[0]
				break
			}
		}
		b.WriteString(val)
	}
	return ks.Key(attr, model.Str(b.String()), true)
}
