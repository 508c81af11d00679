package model

// Index membership: which items a secondary index holds an entry for. The engine
// (its index entries), cost (storage) and review (the synthetic-key savings) all
// decide it by these two functions, so that what an index stores, what writing it
// costs and what a Query on it returns agree.
//
// An index holds an item only when the item has every one of the index's key
// attributes (GSI.html: "A global secondary index only tracks data items where its
// key attributes actually exist"; bp-indexes-general-sparse-indexes.html). For a
// multi-attribute key that is every attribute of both sides, the second to fourth
// as much as the first (GSI.html "Multi-attribute key schema",
// GSI.DesignPattern.MultiAttributeKeys.html): an item without a later attribute is
// not written to the index. A key value must also be of the type the table
// declares for the attribute and, for a string or binary, not empty
// (HowItWorks.NamingRulesDataTypes.html); DynamoDB refuses a write that breaks
// that, and an item left so by an index's backfill is an index key violation that
// the index does not hold (GSI.OnlineOps.ViolationDetection.html).

// IndexableKeyValue reports whether v, an item's value for an index key attribute
// declared of type want, can be the item's key in the index: of that type and,
// for a string or binary, not empty.
func IndexableKeyValue(v Value, want Type) bool {
	return v.Type == want && !EmptyKeyValue(v)
}

// EmptyKeyValue reports an empty string or binary, which no key may hold
// (HowItWorks.NamingRulesDataTypes.html: key attributes' string and binary values
// have a length greater than zero).
func EmptyKeyValue(v Value) bool {
	return (v.Type == TypeS || v.Type == TypeB) && v.Str == ""
}

// InIndex reports whether index ix holds an entry for item it: the item has every
// one of the index's key attributes, each an IndexableKeyValue of its declared
// type (KeyAttributeType). The sides are walked as they are, not through
// KeySchema.Attributes, which builds a list: storage asks this of every item.
func (t *Table) InIndex(ix *Index, it Item) bool {
	k := t.IndexKey(ix)
	has := func(name string) bool {
		v, ok := it[name]
		return ok && IndexableKeyValue(v, t.KeyAttributeType(name))
	}
	hasAll := func(names []string) bool {
		for _, n := range names {
			if !has(n) {
				return false
			}
		}
		return true
	}
	if !has(k.Partition) || !hasAll(k.MorePartition) {
		return false
	}
	return k.Sort == "" || has(k.Sort) && hasAll(k.MoreSort)
}
