package engine

import (
	"strings"

	"stwb/expr"
	"stwb/model"
)

// bound is one end of a sort key range, encoded; set is false when that end is open.
type bound struct {
	set       bool
	val       string
	inclusive bool
}

// keyRange is a compiled key condition as a range of one tree: one partition
// (hash, pk) and a sort key interval, or a prefix for begins_with
// (Query.KeyConditionExpressions.html).
type keyRange struct {
	hash   uint32
	pk     string
	lo, hi bound
	prefix *string // begins_with: sort keys must start with it
}

// conditionTypeMismatch is DynamoDB's answer to a key condition value whose type is
// not the key's; made only when refused, so that a Query that runs pays for no
// message.
func conditionTypeMismatch() *Error {
	return validation("One or more parameter values were invalid: Condition parameter type does not match schema type")
}

// keyRangeOf turns a compiled key condition into the range it selects.
func keyRangeOf(kc *expr.KeyCondition, ks keySchema) (*keyRange, *Error) {
	if ks.multi() {
		return multiKeyRange(kc, ks)
	}
	if kc.PartitionValue.Type != ks.Partition.Type {
		return nil, conditionTypeMismatch()
	}
	if err := checkConditionValue(ks.Partition, kc.PartitionValue, true); err != nil {
		return nil, err
	}
	r := &keyRange{hash: scanHash(kc.PartitionValue)}
	var ok bool
	if r.pk, ok = encodeKey(kc.PartitionValue); !ok {
		return nil, conditionTypeMismatch()
	}
	if kc.SortOp == expr.SortNone {
		return r, nil
	}
	enc := func(v model.Value) (string, *Error) {
		if v.Type != ks.Sort.Type {
			return "", conditionTypeMismatch()
		}
		if err := checkConditionValue(ks.Sort, v, false); err != nil {
			return "", err
		}
		s, ok := encodeKey(v)
		if !ok {
			return "", conditionTypeMismatch()
		}
		return s, nil
	}
	a, err := enc(kc.SortValue)
	if err != nil {
		return nil, err
	}
	switch kc.SortOp {
	case expr.SortEQ:
		r.lo, r.hi = bound{true, a, true}, bound{true, a, true}
	case expr.SortLT:
		r.hi = bound{true, a, false}
	case expr.SortLE:
		r.hi = bound{true, a, true}
	case expr.SortGT:
		r.lo = bound{true, a, false}
	case expr.SortGE:
		r.lo = bound{true, a, true}
	case expr.SortBetween:
		b, err := enc(kc.SortValue2)
		if err != nil {
			return nil, err
		}
		r.lo, r.hi = bound{true, a, true}, bound{true, b, true}
	case expr.SortBeginsWith:
		if ks.Sort.Type == model.TypeN {
			return nil, validation("Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N")
		}
		r.prefix = &a
		r.lo = bound{true, a, true}
		if end, ok := prefixEnd(a); ok {
			r.hi = bound{true, end, false}
		}
	default:
		return nil, validation("Invalid KeyConditionExpression: unsupported sort key operator %s", kc.SortOp)
	}
	return r, nil
}

// checkConditionValue holds a key condition's value to the rules of a key value of
// that attribute, as GetItem's key is held (checkKeyValue): a Query for an empty
// value, or a longer one than any item can hold, is refused, not answered with no
// items. For the partition key DynamoDB's Query answers so (getmoto/moto#7062 for the
// empty value; facebook/ThreatExchange#1324 for 2,049 bytes); for the sort key moto
// refuses an empty value in every operator, and the 1,024-byte limit is taken to hold
// as it does for the partition key (no captured answer of a real Query was found).
// Numbers are checked where the condition is compiled.
func checkConditionValue(a keyAttr, v model.Value, partition bool) *Error {
	if v.Type != model.TypeS && v.Type != model.TypeB {
		return nil
	}
	return checkKeyValue(a, v, partition)
}

// position places a sort key against the range: -1 below it, 0 inside, +1 above.
func (r *keyRange) position(sk string) int {
	if r.lo.set {
		if c := strings.Compare(sk, r.lo.val); c < 0 || (c == 0 && !r.lo.inclusive) {
			return -1
		}
	}
	if r.hi.set {
		if c := strings.Compare(sk, r.hi.val); c > 0 || (c == 0 && !r.hi.inclusive) {
			return 1
		}
	}
	if r.prefix != nil && !strings.HasPrefix(sk, *r.prefix) {
		// Only reachable when the prefix has no end (all 0xff bytes): above it.
		return 1
	}
	return 0
}

// walk visits the range's entries of a tree in order (reversed when !forward),
// strictly after start when start is set, until visit returns false. It seeks to one
// end of the range and stops at the other: a partition is never sorted or scanned
// whole.
func (r *keyRange) walk(t *entryTree, start *entry, forward bool, visit func(*entry) bool) {
	step := func(en *entry) bool {
		if en.hash != r.hash || en.pk != r.pk {
			return false
		}
		switch r.position(en.sk) {
		case -1:
			return forward // below the range: not there yet going up, done going down
		case 1:
			return !forward // above it: done going up, not there yet going down
		}
		return visit(en)
	}
	if forward {
		from := &entry{hash: r.hash, pk: r.pk}
		if r.lo.set {
			from.sk = r.lo.val
		}
		// Seek to the later of the range's start and the start key, and pass over
		// the start key itself (it may equal from: a table without a sort key).
		if start != nil && !lessEntry(start, from) {
			from = start
		}
		t.AscendGreaterOrEqual(from, func(en *entry) bool {
			if start != nil && !lessEntry(start, en) {
				return true
			}
			return step(en)
		})
		return
	}
	// Going down: start just below the smallest entry above the range.
	to := &entry{hash: r.hash, pk: r.pk + "\x00"}
	if r.hi.set {
		to = &entry{hash: r.hash, pk: r.pk, sk: r.hi.val}
		if r.hi.inclusive {
			to.sk += "\x00"
		}
	}
	if start != nil && lessEntry(start, to) {
		to = start
	}
	// btree has no DescendLessThan: descend from to itself and pass over an entry
	// equal to it (the start key, or the pivot just above the range).
	t.DescendLessOrEqual(to, func(en *entry) bool {
		if !lessEntry(en, to) {
			return true
		}
		return step(en)
	})
}
