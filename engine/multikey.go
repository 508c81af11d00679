package engine

import (
	"iter"
	"slices"
	"strings"

	"stwb/expr"
	"stwb/model"
)

// Multi-attribute keys (GSI.DesignPattern.MultiAttributeKeys.html): a GSI's
// partition key and sort key may each be up to four of the items' own
// attributes. An item is in such an index only when it has every key attribute
// with its declared type (sparse, as a one-attribute index is); the partition is
// the tuple of the partition attributes' values, hashed together; a partition is
// ordered by the sort attributes in key order, each compared by its own type
// (numbers as numbers).
//
// The trees hold such a key side as one string: each attribute's order-preserving
// encoding (encodeKey) escaped (0x00 becomes 0x00 0xff) and ended by 0x00 0x01.
// The escaping keeps each attribute's byte order and the end marker sorts below
// any further byte, so the strings of two tuples compare as the tuples do,
// attribute by attribute, and every tuple that starts with given values is one
// contiguous run of the tree: a key condition (= on a prefix of the sort
// attributes, then one range) is one range of strings, as on a single attribute.

// partitions lists the partition key's attributes in key order.
func (k keySchema) partitions() []keyAttr {
	return append([]keyAttr{k.Partition}, k.morePartition...)
}

// sorts lists the sort key's attributes in key order (none without a sort key).
func (k keySchema) sorts() []keyAttr {
	if !k.hasSort() {
		return nil
	}
	return append([]keyAttr{k.Sort}, k.moreSort...)
}

// attrs lists every key attribute, the partition key's then the sort key's.
func (k keySchema) attrs() []keyAttr { return slices.Collect(k.eachAttr()) }

// attrCount is how many attributes the key has: len(attrs()), without the list.
func (k keySchema) attrCount() int {
	n := 1 + len(k.morePartition)
	if k.hasSort() {
		n += 1 + len(k.moreSort)
	}
	return n
}

// eachAttr yields attrs' attributes without making the list: every write checks
// each index's key attributes, and the lists were 2% of what a replay allocated
// (issue 24).
func (k keySchema) eachAttr() iter.Seq[keyAttr] {
	return func(yield func(keyAttr) bool) {
		if !yield(k.Partition) {
			return
		}
		for _, a := range k.morePartition {
			if !yield(a) {
				return
			}
		}
		if !k.hasSort() {
			return
		}
		if !yield(k.Sort) {
			return
		}
		for _, a := range k.moreSort {
			if !yield(a) {
				return
			}
		}
	}
}

// multi reports whether either side has several attributes.
func (k keySchema) multi() bool { return len(k.morePartition) > 0 || len(k.moreSort) > 0 }

// has reports whether name is one of the key's attributes.
func (k keySchema) has(name string) bool {
	for a := range k.eachAttr() {
		if a.Name == name {
			return true
		}
	}
	return false
}

// exprSchema is the key as a key condition is checked against it.
func (k keySchema) exprSchema() expr.KeySchema {
	s := expr.KeySchema{Partition: k.Partition.Name, Sort: k.Sort.Name, PartitionType: k.Partition.Type, SortType: k.Sort.Type}
	for _, a := range k.morePartition {
		s.MorePartition = append(s.MorePartition, expr.KeyAttr{Name: a.Name, Type: a.Type})
	}
	for _, a := range k.moreSort {
		s.MoreSort = append(s.MoreSort, expr.KeyAttr{Name: a.Name, Type: a.Type})
	}
	return s
}

// appendTuplePart appends one attribute's encoded value to a tuple: escaped, then
// ended.
func appendTuplePart(b *strings.Builder, enc string) {
	for i := 0; i < len(enc); i++ {
		b.WriteByte(enc[i])
		if enc[i] == 0 {
			b.WriteByte(0xff)
		}
	}
	b.WriteString("\x00\x01")
}

// escapeTuplePart is a part escaped but not ended: every encoding that starts
// with the part's bytes starts with it (begins_with on the last sort attribute).
func escapeTuplePart(enc string) string {
	var b strings.Builder
	appendTuplePart(&b, enc)
	return b.String()[:b.Len()-2]
}

// encodeTuple encodes the values of attrs in item as one tuple; ok is false when
// one is missing, of another type than its attribute's, or empty: such an item is
// not in the index.
func encodeTuple(attrs []keyAttr, item model.Item) (string, bool) {
	var b strings.Builder
	for _, a := range attrs {
		v, ok := item[a.Name]
		if !ok || !model.IndexableKeyValue(v, a.Type) {
			return "", false
		}
		enc, ok := encodeKey(v)
		if !ok {
			return "", false
		}
		appendTuplePart(&b, enc)
	}
	return b.String(), true
}

// tupleHash is the scan hash of a partition tuple: the tuple's bytes hashed as a
// binary value ("DynamoDB ... hashing them together for data distribution"; the
// order it gives a Scan is unspecified, as for any partition key).
func tupleHash(tuple string, memo *hashMemo) uint32 {
	return memo.scanHash(model.Value{Type: model.TypeB, Str: tuple})
}

// encodeMulti is a multi-attribute key's tree position for an item (or a key):
// the partition tuple's hash and encoding, and the sort tuple's. memo may be nil.
func (k keySchema) encodeMulti(item model.Item, memo *hashMemo) (hash uint32, pk, sk string, ok bool) {
	if pk, ok = encodeTuple(k.partitions(), item); !ok {
		return 0, "", "", false
	}
	if sk, ok = encodeTuple(k.sorts(), item); !ok {
		return 0, "", "", false
	}
	return tupleHash(pk, memo), pk, sk, true
}

// fillMultiEntry is fillEntry for an index with a multi-attribute key.
func (ix *index) fillMultiEntry(en *entry, te *entry, item model.Item, memo *hashMemo) bool {
	hash, pk, sk, ok := ix.key.encodeMulti(item, memo)
	if !ok {
		return false
	}
	*en = entry{hash: hash, pk: pk, sk: sk, base: te, item: te.item, lazy: te.lazy}
	ix.sizeEntry(en, te, item)
	return true
}

// multiKeyRange is keyRangeOf for a multi-attribute key: the partition tuple, and
// the range of sort tuples that start with the values given with = and whose next
// attribute meets the last condition (expr.KeyCondition's SortEquals, SortOp).
func multiKeyRange(kc *expr.KeyCondition, ks keySchema) (*keyRange, *Error) {
	parts := ks.partitions()
	var pb strings.Builder
	for i, a := range parts {
		enc, err := multiKeyPart(a, kc.PartitionValues[i], true)
		if err != nil {
			return nil, err
		}
		appendTuplePart(&pb, enc)
	}
	pk := pb.String()
	r := &keyRange{hash: tupleHash(pk, nil), pk: pk}
	if kc.SortOp == expr.SortNone {
		return r, nil
	}
	sorts := ks.sorts()
	var prefix strings.Builder
	for i, v := range kc.SortEquals {
		enc, err := multiKeyPart(sorts[i], v, false)
		if err != nil {
			return nil, err
		}
		appendTuplePart(&prefix, enc)
	}
	p := prefix.String()
	last := sorts[len(kc.SortEquals)]
	// at is the prefix and the last attribute's value v, ended: every tuple with
	// that value there starts with it, and the tuples below v sort before it.
	at := func(v model.Value) (string, *Error) {
		enc, err := multiKeyPart(last, v, false)
		if err != nil {
			return "", err
		}
		var b strings.Builder
		b.WriteString(p)
		appendTuplePart(&b, enc)
		return b.String(), nil
	}
	after := func(s string) bound { // the first string past every one starting with s
		if end, ok := prefixEnd(s); ok {
			return bound{true, end, false}
		}
		return bound{}
	}
	a, err := at(kc.SortValue)
	if err != nil {
		return nil, err
	}
	from := bound{p != "", p, true} // the run of tuples that start with p
	to := after(p)
	if p == "" {
		to = bound{}
	}
	switch kc.SortOp {
	case expr.SortEQ:
		r.lo, r.hi = bound{true, a, true}, after(a)
	case expr.SortLT:
		r.lo, r.hi = from, bound{true, a, false}
	case expr.SortLE:
		r.lo, r.hi = from, after(a)
	case expr.SortGT:
		r.lo, r.hi = after(a), to
		r.lo.inclusive = true
	case expr.SortGE:
		r.lo, r.hi = bound{true, a, true}, to
	case expr.SortBetween:
		b, err := at(kc.SortValue2)
		if err != nil {
			return nil, err
		}
		r.lo, r.hi = bound{true, a, true}, after(b)
	case expr.SortBeginsWith:
		if last.Type == model.TypeN {
			return nil, validation("Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N")
		}
		if err := checkConditionValue(last, kc.SortValue, false); err != nil {
			return nil, err
		}
		start := p + escapeTuplePart(kc.SortValue.Str)
		r.prefix = &start
		r.lo, r.hi = bound{true, start, true}, after(start)
	default:
		return nil, validation("Invalid KeyConditionExpression: unsupported sort key operator %s", kc.SortOp)
	}
	return r, nil
}

// multiKeyPart checks one attribute's condition value as keyRangeOf checks a
// single key's, and encodes it.
func multiKeyPart(a keyAttr, v model.Value, partition bool) (string, *Error) {
	if v.Type != a.Type {
		return "", conditionTypeMismatch()
	}
	if err := checkConditionValue(a, v, partition); err != nil {
		return "", err
	}
	enc, ok := encodeKey(v)
	if !ok {
		return "", conditionTypeMismatch()
	}
	return enc, nil
}
