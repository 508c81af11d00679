package model

// Item and value sizes as DynamoDB bills them (CapacityUnitCalculations.html and
// HowItWorks.NamingRulesDataTypes.html; the exact rules and their cases are in
// DYNAMODB.md "Item size"). This is the one place these rules live.

// MaxItemSize is DynamoDB's item size limit, attribute names included.
const MaxItemSize = 400 * 1024

// Stored reports whether DynamoDB would store an item of this size (model.ItemSize
// of the whole item): PutItem, BatchWriteItem and TransactWriteItems refuse one
// over MaxItemSize with "Item size has exceeded the maximum allowed size"
// (ServiceQuotas.html "Item size"). A design may still hold such a sample item
// (review's item-too-large names it); the engine, the cost's storage and key
// figures and review's key counts all leave it out, by this one rule.
func Stored(size int) bool { return size <= MaxItemSize }

// StoredItems is what DynamoDB would store of items whose sizes are sizes
// (sizes[i] is items[i]'s): the items without those Stored refuses, with their
// sizes, and the indexes of the ones left out. With none left out, items and
// sizes come back as they are.
func StoredItems(items []Item, sizes []int) (stored []Item, storedSizes []int, leftOut []int) {
	kept, leftOut := storedIndexes(sizes)
	if leftOut == nil {
		return items, sizes, nil
	}
	stored, storedSizes = make([]Item, len(kept)), make([]int, len(kept))
	for k, i := range kept {
		stored[k], storedSizes[k] = items[i], sizes[i]
	}
	return stored, storedSizes, leftOut
}

// storedIndexes are the indexes of sizes Stored keeps and of those it refuses;
// both nil when it refuses none.
func storedIndexes(sizes []int) (kept, leftOut []int) {
	for i, size := range sizes {
		if !Stored(size) {
			leftOut = append(leftOut, i)
		}
	}
	if leftOut == nil {
		return nil, nil
	}
	kept = make([]int, 0, len(sizes)-len(leftOut))
	for i, size := range sizes {
		if Stored(size) {
			kept = append(kept, i)
		}
	}
	return kept, leftOut
}

// Key value size limits.
const (
	MaxPartitionKeyBytes = 2048
	MaxSortKeyBytes      = 1024
)

// ItemSize is the sum over top-level attributes of the name's UTF-8 bytes and the
// value's size.
func ItemSize(it Item) int {
	total := 0
	for name, v := range it {
		total += len(name) + v.Size()
	}
	return total
}

// AttributeSize is the size of one top-level attribute: name plus value.
func AttributeSize(name string, v Value) int { return len(name) + v.Size() }

// Size is the value's size in bytes:
//   - S: UTF-8 bytes (Go strings are UTF-8, so len); B: raw bytes.
//   - N: the base-100 encoding (Number.Size).
//   - BOOL, NULL: 1.
//   - L: 3 + for each element 1 + its size.
//   - M: 3 + for each entry 1 + the key's bytes + the value's size.
//   - SS, NS, BS: the sum of the element sizes. AWS does not document this; it is
//     what emulators measured (DYNAMODB.md).
func (v Value) Size() int {
	switch v.Type {
	case TypeS, TypeB:
		return len(v.Str)
	case TypeN:
		if n, ok := numberTextSize(v.Str); ok {
			return n
		}
		return len(v.Str)
	case TypeBOOL, TypeNULL:
		return 1
	case TypeL:
		s := 3
		for _, e := range v.List {
			s += 1 + e.Size()
		}
		return s
	case TypeM:
		s := 3
		for k, e := range v.Map {
			s += 1 + len(k) + e.Size()
		}
		return s
	case TypeSS, TypeNS, TypeBS:
		s := 0
		for _, e := range v.List {
			s += e.Size()
		}
		return s
	}
	return 0
}
