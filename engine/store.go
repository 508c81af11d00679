package engine

import (
	"crypto/md5"
	"strings"

	"github.com/google/btree"

	"stwb/model"
)

// Ordered storage. The table and every secondary index is a B-tree of entries, ordered
// first by a hash of the partition key (the order a Scan walks, as DynamoDB spreads
// partitions by a hash of their key), then by the partition key, then by the sort key,
// then (index trees only) by the table key, so items with equal index keys come back
// in a stable order. A Query is a seek to (hash, partition, lower sort bound) and a
// walk; nothing is ever sorted at read time.

// entry is one row of a tree. Entries are immutable once in a tree: a write replaces
// the entry, so a Clone of the engine can share them.
//
// An entry is 72 bytes: a million-item table with one index holds two million of
// them, so the table key of an index entry is reached through base rather than
// copied.
type entry struct {
	hash uint32 // scanHash of the tree's partition key value
	// size is the bytes a read of this entry costs: the item size for the table, the
	// index entry size (table keys + index keys + projected attributes) for an index.
	// Items are at most 400 KB, so 32 bits hold it.
	size   int32
	pk, sk string // the tree's key values, order-preserving encoded (encodeKey)
	// item is the whole stored item, shared by the table entry and every index
	// entry of it: an index projects it on read instead of holding a copy.
	item model.Item
	// base is, in an index tree, the table entry the index entry was made from: its
	// pk and sk (the table key) break ties between equal index keys. Nil in the
	// table tree, and in search pivots that sort before every tie.
	base *entry
	// lazy is, for an item of a design loaded lazily (designfile.ParseLazily) and not
	// written since, 1 + the item's index in the design's LazyItems; item is then
	// nil, and Engine.itemOf reads the item from the design text. 0 otherwise.
	lazy int32
	// encoded is where a reader keeps an encoded form of the item (encoded.go);
	// only a table entry's is used.
	encoded Encoded
}

// hasItem reports whether the entry holds an item, as a map or as design text.
func (en *entry) hasItem() bool { return en.item != nil || en.lazy != 0 }

func lessEntry(a, b *entry) bool {
	if a.hash != b.hash {
		return a.hash < b.hash
	}
	return lessSameHash(a, b)
}

// lessSameHash is lessEntry for two entries of one hash.
func lessSameHash(a, b *entry) bool {
	// One three-way compare per field: != then < would read equal prefixes twice.
	if c := strings.Compare(a.pk, b.pk); c != 0 {
		return c < 0
	}
	if c := strings.Compare(a.sk, b.sk); c != 0 {
		return c < 0
	}
	apk, ask := a.tableKey()
	bpk, bsk := b.tableKey()
	if c := strings.Compare(apk, bpk); c != 0 {
		return c < 0
	}
	return ask < bsk
}

// tableKey is the encoded table key an index entry breaks ties on ("" without base).
func (en *entry) tableKey() (string, string) {
	if en.base == nil {
		return "", ""
	}
	return en.base.pk, en.base.sk
}

// btreeDegree is the B-tree's branching; 32 keeps nodes within a few cache lines of
// pointers while keeping the tree shallow for a million entries.
const btreeDegree = 32

// entryTree is a B-tree of entries in lessEntry's order. A tree node holds each
// entry's hash beside its pointer (treeSlot), so that a search compares hashes
// within the node and reads an entry only where the hashes tie: reading the
// entries themselves, scattered through the heap, was a cache miss per comparison
// and 8% of check --traffic's CPU on a table of half a million items (issue 24).
type entryTree struct{ t *btree.BTreeG[treeSlot] }

type treeSlot struct {
	hash uint32
	en   *entry
}

func lessSlot(a, b treeSlot) bool {
	if a.hash != b.hash {
		return a.hash < b.hash
	}
	return lessSameHash(a.en, b.en)
}

func slotOf(en *entry) treeSlot { return treeSlot{hash: en.hash, en: en} }

func newTree() *entryTree { return &entryTree{btree.NewG(btreeDegree, lessSlot)} }

func (t *entryTree) Len() int                      { return t.t.Len() }
func (t *entryTree) Clone() *entryTree             { return &entryTree{t.t.Clone()} }
func (t *entryTree) Clear(addNodesToFreelist bool) { t.t.Clear(addNodesToFreelist) }

// Get is the entry of the tree equal to key, if any.
func (t *entryTree) Get(key *entry) (*entry, bool) {
	s, ok := t.t.Get(slotOf(key))
	return s.en, ok
}

// ReplaceOrInsert puts en in the tree and returns the entry it replaced, if any.
func (t *entryTree) ReplaceOrInsert(en *entry) (*entry, bool) {
	s, ok := t.t.ReplaceOrInsert(slotOf(en))
	return s.en, ok
}

// Delete takes the entry equal to key out of the tree and returns it, if any.
func (t *entryTree) Delete(key *entry) (*entry, bool) {
	s, ok := t.t.Delete(slotOf(key))
	return s.en, ok
}

func (t *entryTree) Ascend(visit func(*entry) bool) {
	t.t.Ascend(func(s treeSlot) bool { return visit(s.en) })
}

func (t *entryTree) AscendGreaterOrEqual(from *entry, visit func(*entry) bool) {
	t.t.AscendGreaterOrEqual(slotOf(from), func(s treeSlot) bool { return visit(s.en) })
}

func (t *entryTree) DescendLessOrEqual(to *entry, visit func(*entry) bool) {
	t.t.DescendLessOrEqual(slotOf(to), func(s treeSlot) bool { return visit(s.en) })
}

// encodeKey writes a key value (S, N or B) as a string whose byte order is DynamoDB's
// order for that type (Query.html: S by UTF-8 bytes, B by unsigned bytes, N by
// numeric value). S and B are their own bytes, so they cost no allocation. ok is false
// for a value that is not a valid key value of those types.
func encodeKey(v model.Value) (string, bool) {
	switch v.Type {
	case model.TypeS, model.TypeB:
		return v.Str, true
	case model.TypeN:
		n, err := model.ParseNumber(v.Str)
		if err != nil {
			return "", false
		}
		return encodeNumber(n), true
	}
	return "", false
}

// encodeNumber makes numbers compare as byte strings: a sign class byte (negative <
// zero < positive), then for positives the exponent and the significant digits (no
// trailing zeros, so a shorter digit string is the smaller number), and for negatives
// the same inverted, with a 0xff terminator so that a longer (larger magnitude, so
// smaller) negative sorts first.
func encodeNumber(n model.Number) string {
	if n.IsZero() {
		return "\x01"
	}
	// The exponent range is -129..126 (model's 0.d x 10^Exp form), so Exp+129 fits
	// in one byte.
	e := byte(n.Exp + 129)
	var b strings.Builder
	b.Grow(len(n.Digits) + 3)
	if !n.Neg {
		b.WriteByte(0x02)
		b.WriteByte(e)
		b.WriteString(n.Digits)
		return b.String()
	}
	b.WriteByte(0x00)
	b.WriteByte(0xff - e)
	for i := 0; i < len(n.Digits); i++ {
		b.WriteByte(0xff - n.Digits[i])
	}
	b.WriteByte(0xff)
	return b.String()
}

// scanHash is the 24-bit hash that orders partitions for a Scan. It is dynalite's
// (md5 of "Outliers" and the key's bytes in DynamoDB's binary form, first 3 bytes),
// so a Scan returns items in the order the dynalite emulator does; real DynamoDB's
// scan order is a hash order too, and unspecified.
func scanHash(v model.Value) uint32 {
	var raw []byte
	switch v.Type {
	case model.TypeS, model.TypeB:
		// Short keys hash from a stack buffer; only keys over 56 bytes allocate.
		var buf [64]byte
		return hashBytes(append(append(buf[:0], "Outliers"...), v.Str...))
	case model.TypeN:
		n, err := model.ParseNumber(v.Str)
		if err != nil {
			return 0
		}
		raw = numberBytes(n)
	}
	return hashBytes(append([]byte("Outliers"), raw...))
}

// hashMemo remembers the scan hashes of recent string and binary partition key
// values while a design loads: a partition's items usually sit together in a
// design, and an index's partition key often has a few values only, so most of a
// load's hashes repeat and an md5 each was a tenth of a million-item load. It is
// direct-mapped, a slot chosen from the value's length and three of its bytes; a
// slot holds the last value that mapped to it, so a miss only costs the md5 it
// would have cost anyway. The zero value is ready; a nil memo hashes every time.
//
// It also gives the entries of a value it has seen one string for their encoded
// partition key (partitionKey): a Query compares the partition key of every entry
// it walks and of those its seek passes, and one string read once costs one cache
// miss where a string of each item's own cost one an entry (BenchmarkServerCPU,
// issue 24). Items written later have their own strings, as before.
type hashMemo struct {
	slot [256]struct {
		typ  model.Type
		key  string
		hash uint32
		used bool
	}
}

func (m *hashMemo) scanHash(v model.Value) uint32 {
	hash, _, _ := m.partitionKey(v)
	return hash
}

// partitionKey is a partition key value's scanHash and encodeKey; for a string or
// binary value the memo has seen, the encoded key is the string it kept.
func (m *hashMemo) partitionKey(v model.Value) (hash uint32, enc string, ok bool) {
	if m == nil || (v.Type != model.TypeS && v.Type != model.TypeB) || v.Str == "" {
		enc, ok = encodeKey(v)
		return scanHash(v), enc, ok
	}
	k := v.Str
	s := &m.slot[(len(k)*31+int(k[0])*3+int(k[len(k)-1])*7+int(k[len(k)/2]))&255]
	if s.used && s.typ == v.Type && s.key == k {
		return s.hash, s.key, true
	}
	s.typ, s.key, s.hash, s.used = v.Type, k, scanHash(v), true
	return s.hash, s.key, true
}

func hashBytes(b []byte) uint32 {
	sum := md5.Sum(b)
	return uint32(sum[0])<<16 | uint32(sum[1])<<8 | uint32(sum[2])
}

// numberBytes is DynamoDB's binary form of a number, as the hash of a numeric
// partition key is taken over it: an exponent byte (biased by 64, in base-100
// digits), then the digits in pairs, each pair stored +1 (positive) or as 101-pair
// (negative); a negative of fewer than 20 pairs ends with the byte 102. Zero is 0x80.
func numberBytes(n model.Number) []byte {
	if n.IsZero() {
		return []byte{0x80}
	}
	pad := n.Exp % 2
	if pad < 0 {
		pad = -pad
	}
	digits := n.Digits
	if pad == 1 {
		digits = "0" + digits
	}
	pairs := (len(digits) + 1) / 2
	out := make([]byte, 0, pairs+2)
	exp := floorDiv(n.Exp+pad, 2) - 64
	if n.Neg {
		exp = ^exp
	}
	out = append(out, byte(exp))
	for i := 0; i < len(digits); i += 2 {
		p := int(digits[i]-'0') * 10
		if i+1 < len(digits) {
			p += int(digits[i+1] - '0')
		}
		if n.Neg {
			out = append(out, byte(101-p))
		} else {
			out = append(out, byte(p+1))
		}
	}
	if n.Neg && pairs < 20 {
		out = append(out, 102)
	}
	return out
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// prefixEnd is the smallest string greater than every string that starts with p;
// ok is false when there is none (p is empty or all 0xff bytes).
func prefixEnd(p string) (string, bool) {
	b := []byte(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1]), true
		}
	}
	return "", false
}
