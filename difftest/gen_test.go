package difftest

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"stwb/model"
)

// Generators of random designs and items. Every choice comes from one seeded
// math/rand source, so a seed printed by a failure rebuilds the same design and the
// same requests.

// Value pools. They hold the edge cases DynamoDB's ordering and comparison rules are
// about (Query.html "sort key order", HowItWorks.NamingRulesDataTypes.html):
// multi-byte UTF-8 that sorts differently by UTF-16 units than by bytes (é, 中文,
// emoji, a 4-byte 𝄞), prefixes of one another (A# beside A#1 beside A#10), upper
// case before lower, and numbers with 38 digits, exponents, negatives and decimals.
var (
	stringPool = []string{"A#", "A#1", "A#10", "A#2", "a", "A", "é", "e", "ée", "中文", "中",
		"🙂", "🙂🙂", "z", "Z#é", "ORDER#001", "ORDER#1", "0", "~", "a b", "Ā", "ÿ", "𝄞", "\uffff"}
	numberPool = []string{"-12345678901234567890123456789012345678", "-100", "-1.5", "-1", "-0.001",
		"0", "0.001", "1", "1.5", "2", "10", "1E+3", "1000.5", "12345678901234567890123456789012345678",
		"1.2345678901234567890123456789012345678E-10", "9.9E+125", "1E-130", "-1E-130", "3.14159",
		"-9.9E+125", "0.1", "100", "-0.5E+2", "7.00"}
	binaryPool = [][]byte{{0}, {0, 0}, {0, 1}, {1}, {0x7f}, {0x80}, {0xff}, {0xff, 0}, {'a'},
		{'a', 'b'}, {0xc3, 0xa9}}
	typeNames = []string{"S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS"}
)

// Attribute names of the generated items. None is a DynamoDB reserved word, so they
// may be written bare; reservedAttr is one that is, for the invalid requests.
const (
	attrPK, attrSK         = "PK", "SK"
	attrGPK, attrGSK       = "gpk", "gsk"
	attrG2PK, attrLSK      = "g2pk", "lsk"
	gsi1, gsi2, lsi1       = "GSI1", "GSI2", "LSI1"
	reservedAttr           = "status"
	maxItemsPerPartition   = 30
	maxPartitionsNoSortKey = 60
)

// plainAttrs are the non-key attributes items may carry.
var plainAttrs = []string{"num", "str", "flag", "nul", "lst", "mp", "ss", "ns", "bs", "bin", "emp"}

// world is one random design: its table, its items, and what the request generator
// draws keys from.
type world struct {
	seed  uint64
	r     *rand.Rand
	table model.Table
	items []model.Item
}

func newWorld(seed uint64) *world {
	w := &world{seed: seed, r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	w.table = w.genTable()
	w.items = w.genItems()
	return w
}

func (w *world) chance(p float64) bool { return w.r.Float64() < p }

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func (w *world) keyType(pS, pN float64) model.Type {
	f := w.r.Float64()
	switch {
	case f < pS:
		return model.TypeS
	case f < pS+pN:
		return model.TypeN
	}
	return model.TypeB
}

// genTable makes the table: a partition key of any key type, usually a sort key, a
// GSI with a sort key, a GSI without one, and (with a sort key) an LSI; each index
// with a random projection: ALL, KEYS_ONLY or INCLUDE.
func (w *world) genTable() model.Table {
	t := model.Table{
		Name:       fmt.Sprintf("diff-%d", w.seed),
		Key:        model.KeySchema{Partition: attrPK},
		Attributes: map[string]model.Type{attrPK: w.keyType(0.6, 0.25)},
		Billing:    model.Billing{Mode: model.OnDemand},
	}
	hasSort := w.chance(0.8)
	if hasSort {
		t.Key.Sort = attrSK
		t.Attributes[attrSK] = w.keyType(0.5, 0.35)
	}
	t.Attributes[attrGPK] = model.TypeS
	t.Attributes[attrGSK] = w.keyType(0.5, 0.5)
	t.Attributes[attrG2PK] = w.keyType(0.7, 0.3)
	t.Indexes = append(t.Indexes,
		model.Index{Name: gsi1, Key: model.KeySchema{Partition: attrGPK, Sort: attrGSK}, Projection: w.genProjection()},
		model.Index{Name: gsi2, Key: model.KeySchema{Partition: attrG2PK}, Projection: w.genProjection()})
	if hasSort {
		t.Attributes[attrLSK] = w.keyType(0.5, 0.5)
		t.Indexes = append(t.Indexes, model.Index{Name: lsi1, Local: true,
			Key: model.KeySchema{Partition: attrPK, Sort: attrLSK}, Projection: w.genProjection()})
	}
	return t
}

func (w *world) genProjection() model.Projection {
	switch w.r.IntN(3) {
	case 0:
		return model.Projection{Type: model.ProjectAll}
	case 1:
		return model.Projection{Type: model.ProjectKeysOnly}
	}
	var inc []string
	for _, a := range plainAttrs {
		if w.chance(0.4) {
			inc = append(inc, a)
		}
	}
	if len(inc) == 0 {
		inc = []string{"num"}
	}
	return model.Projection{Type: model.ProjectInclude, Include: inc}
}

// keyPool is the distinct values of a key type that keys are drawn from: the edge
// cases above, then plain ones so that a partition can hold 30 items.
func keyPool(t model.Type) []model.Value {
	var vs []model.Value
	switch t {
	case model.TypeS:
		for _, s := range stringPool {
			vs = append(vs, model.Str(s))
		}
		for i := 0; i < 30; i++ {
			vs = append(vs, model.Str("A#"+strconv.Itoa(i*7)))
		}
	case model.TypeN:
		for _, s := range numberPool {
			vs = append(vs, model.Num(s))
		}
		for i := -20; i <= 20; i++ {
			vs = append(vs, model.Num(strconv.Itoa(i*3)))
		}
	case model.TypeB:
		for _, b := range binaryPool {
			vs = append(vs, model.Bin(b))
		}
		for i := 2; i < 40; i++ {
			vs = append(vs, model.Bin([]byte{byte(i), byte(i * 37)}))
		}
	}
	return distinct(vs)
}

// distinct drops values equal by DynamoDB's comparison (1E+3 and 1000 are one key).
func distinct(vs []model.Value) []model.Value {
	var out []model.Value
next:
	for _, v := range vs {
		for _, o := range out {
			if model.CompareScalar(v, o) == 0 {
				continue next
			}
		}
		out = append(out, v)
	}
	return out
}

// sample picks n distinct values of the pool in random order.
func (w *world) sample(pool []model.Value, n int) []model.Value {
	idx := w.r.Perm(len(pool))
	out := make([]model.Value, 0, n)
	for _, i := range idx[:min(n, len(pool))] {
		out = append(out, pool[i])
	}
	return out
}

func (w *world) genItems() []model.Item {
	pkPool := keyPool(w.table.KeyAttributeType(attrPK))
	var items []model.Item
	if w.table.Key.Sort == "" {
		for _, pk := range w.sample(pkPool, 1+w.r.IntN(maxPartitionsNoSortKey)) {
			items = append(items, w.genAttrs(model.Item{attrPK: pk}))
		}
		return items
	}
	skPool := keyPool(w.table.KeyAttributeType(attrSK))
	for _, pk := range w.sample(pkPool, 2+w.r.IntN(5)) {
		for _, sk := range w.sample(skPool, 1+w.r.IntN(maxItemsPerPartition)) {
			items = append(items, w.genAttrs(model.Item{attrPK: pk, attrSK: sk}))
		}
	}
	return items
}

// str is a string attribute value: the pool without U+FFFF. dynalite orders strings
// in filters by UTF-16 code units (db/index.js compare: JavaScript's <), DynamoDB by
// UTF-8 bytes, and the two orders disagree only between a character in
// U+E000..U+FFFF and one beyond U+FFFF (🙂 < U+FFFF in UTF-16, > in UTF-8). Key
// values keep U+FFFF: key conditions in dynalite compare UTF-8 hex and agree.
func (w *world) str() model.Value {
	s := pick(w.r, stringPool)
	for s == "\uffff" {
		s = pick(w.r, stringPool)
	}
	return model.Str(s)
}

// utf16Safe reports whether a string orders the same by UTF-16 code units as by
// UTF-8 bytes against any other string: it has no character at or above U+D800.
func utf16Safe(s string) bool {
	for _, r := range s {
		if r >= 0xd800 {
			return false
		}
	}
	return true
}
func (w *world) num() model.Value { return model.Num(pick(w.r, numberPool)) }
func (w *world) bin() model.Value { return model.Bin(pick(w.r, binaryPool)) }

// scalar is a random S or N (or, rarely, B) value.
func (w *world) scalar() model.Value {
	switch w.r.IntN(5) {
	case 0, 1:
		return w.str()
	case 2, 3:
		return w.num()
	}
	return w.bin()
}

// ofType is a random value of a scalar key type, from a small pool so that index
// keys repeat (items with equal GSI keys are part of what is tested).
func (w *world) ofType(t model.Type, small int) model.Value {
	pool := keyPool(t)
	return pool[w.r.IntN(min(small, len(pool)))]
}

// genAttrs adds random attributes, every type of value, to a key.
func (w *world) genAttrs(it model.Item) model.Item {
	if w.chance(0.8) {
		it["num"] = w.num()
	}
	if w.chance(0.8) {
		it["str"] = w.str()
	}
	if w.chance(0.5) {
		it["flag"] = model.Bool(w.chance(0.5))
	}
	if w.chance(0.3) {
		it["nul"] = model.Null()
	}
	if w.chance(0.5) {
		l := make([]model.Value, 1+w.r.IntN(3))
		for i := range l {
			l[i] = w.scalar()
		}
		it["lst"] = model.List(l...)
	}
	if w.chance(0.5) {
		m := map[string]model.Value{}
		if w.chance(0.8) {
			m["x"] = w.num()
		}
		if w.chance(0.6) {
			m["y"] = w.str()
		}
		if w.chance(0.5) {
			m["z"] = model.Map(map[string]model.Value{"q": w.str()})
		}
		it["mp"] = model.Map(m)
	}
	if w.chance(0.4) {
		it["ss"] = setOf(model.TypeSS, w.sample(keyPool(model.TypeS)[:len(stringPool)], 1+w.r.IntN(3)))
	}
	if w.chance(0.4) {
		it["ns"] = setOf(model.TypeNS, w.sample(distinct(keyPool(model.TypeN)[:len(numberPool)]), 1+w.r.IntN(3)))
	}
	if w.chance(0.3) {
		it["bs"] = setOf(model.TypeBS, w.sample(keyPool(model.TypeB)[:len(binaryPool)], 1+w.r.IntN(3)))
	}
	if w.chance(0.4) {
		it["bin"] = w.bin()
	}
	if w.chance(0.2) {
		it["emp"] = model.Str("") // empty strings are allowed outside keys
	}
	// Sparse indexes: an item is in an index only with all of its key attributes.
	if w.chance(0.7) {
		it[attrGPK] = pick(w.r, []model.Value{model.Str("G#1"), model.Str("G#2"), model.Str("é"), model.Str("中文")})
		if w.chance(0.85) {
			it[attrGSK] = w.ofType(w.table.KeyAttributeType(attrGSK), 12)
		}
	}
	if w.chance(0.5) {
		it[attrG2PK] = w.ofType(w.table.KeyAttributeType(attrG2PK), 4)
	}
	if w.table.Key.Sort != "" && w.chance(0.6) {
		it[attrLSK] = w.ofType(w.table.KeyAttributeType(attrLSK), 10)
	}
	return it
}

func setOf(t model.Type, elems []model.Value) model.Value {
	return model.Value{Type: t, List: elems}
}

// keySchemaOf is the key of the table ("") or of an index.
func (w *world) keySchemaOf(index string) model.KeySchema {
	if index == "" {
		return w.table.Key
	}
	ix, _ := w.table.IndexByName(index)
	ks := ix.Key
	if ix.Local {
		ks.Partition = w.table.Key.Partition
	}
	return ks
}

// projects reports whether reading the index returns attribute a. dynalite does not
// fetch unprojected attributes of an LSI from the table (db/index.js queryTable
// fetches only for Select=ALL_ATTRIBUTES), where DynamoDB does; so requests on an
// index name only what the index holds (see excluded in diff_test.go).
func (w *world) projects(index, a string) bool {
	if index == "" {
		return true
	}
	ix, _ := w.table.IndexByName(index)
	ks := w.keySchemaOf(index)
	if a == ks.Partition || a == ks.Sort || a == w.table.Key.Partition || a == w.table.Key.Sort {
		return true
	}
	switch ix.Projection.Type {
	case model.ProjectAll:
		return true
	case model.ProjectInclude:
		for _, n := range ix.Projection.Include {
			if n == a {
				return true
			}
		}
	}
	return false
}

// inIndex reports whether an item is in the index (it has all of its key attributes).
func (w *world) inIndex(index string, it model.Item) bool {
	ks := w.keySchemaOf(index)
	for _, n := range []string{ks.Partition, ks.Sort} {
		if _, ok := it[n]; n != "" && !ok {
			return false
		}
	}
	return true
}

// valuesOf lists the distinct values of attribute a among the index's items, in the
// index partition of pk when pk is given.
func (w *world) valuesOf(index, a string, pk *model.Value) []model.Value {
	ks := w.keySchemaOf(index)
	var vs []model.Value
	for _, it := range w.items {
		if !w.inIndex(index, it) {
			continue
		}
		if pk != nil && !it[ks.Partition].Equal(*pk) {
			continue
		}
		if v, ok := it[a]; ok {
			vs = append(vs, v)
		}
	}
	vs = distinct(vs)
	sort.Slice(vs, func(i, j int) bool { return model.CompareScalar(vs[i], vs[j]) < 0 })
	return vs
}

// prefixOf is a non-empty prefix of a key value for begins_with: whole runes of a
// string (a byte prefix of 中 would not be valid UTF-8 on the wire), bytes of a binary.
func (w *world) prefixOf(v model.Value) model.Value {
	if v.Type == model.TypeS {
		n := utf8.RuneCountInString(v.Str)
		k := 1 + w.r.IntN(n)
		i := 0
		for j := range v.Str {
			if i == k {
				return model.Str(v.Str[:j])
			}
			i++
		}
		return v
	}
	return model.Bin([]byte(v.Str[:1+w.r.IntN(len(v.Str))]))
}

// builder collects a request's ExpressionAttributeNames and Values.
type builder struct {
	r      *rand.Rand
	names  map[string]string
	values map[string]model.Value
}

func newBuilder(r *rand.Rand) *builder {
	return &builder{r: r, names: map[string]string{}, values: map[string]model.Value{}}
}

// name writes an attribute name, as a #placeholder half of the time.
func (b *builder) name(a string) string {
	if b.r.IntN(2) == 0 {
		return a
	}
	for k, v := range b.names {
		if v == a {
			return k
		}
	}
	k := "#n" + strconv.Itoa(len(b.names))
	b.names[k] = a
	return k
}

// path writes a document path such as mp.z.q or lst[1], each name through name.
func (b *builder) path(p string) string {
	var out strings.Builder
	for i, part := range strings.Split(p, ".") {
		if i > 0 {
			out.WriteByte('.')
		}
		nm, idx, _ := strings.Cut(part, "[")
		out.WriteString(b.name(nm))
		if idx != "" {
			out.WriteString("[" + idx)
		}
	}
	return out.String()
}

func (b *builder) val(v model.Value) string {
	k := ":v" + strconv.Itoa(len(b.values))
	b.values[k] = v
	return k
}
