package engine

import (
	"slices"

	"stwb/model"
)

// IndexViolation is an item a new global secondary index leaves out: its value
// for one of the index's key attributes has another type than the index's
// definition, or is an empty string or binary (GSI.OnlineOps.ViolationDetection.html
// "Detecting and correcting index key violations").
type IndexViolation struct {
	Index     string
	Attribute string
	Key       model.Item // the item's table key
}

// Rebuild makes an engine for a changed definition of the same table (indexes added
// or removed) holding every item of e, as DynamoDB fills a new global secondary
// index from the table ("Adding a global secondary index to an existing table",
// GSI.OnlineOps.html). An item that violates a new index's key schema stays in the
// table and out of the index, and is returned among the violations: "If an index
// key violation occurs, the backfill phase continues without interruption. However,
// any violating items are not included in the index." Later writes of such an item
// are refused by the write checks, as DynamoDB refuses them once the backfill ends.
func (e *Engine) Rebuild(def model.Table) (*Engine, []IndexViolation, error) {
	n, err := New(def)
	if err != nil {
		return nil, nil, err
	}
	var fresh []*index // the indexes e does not have: the ones backfilled
	for _, ix := range n.indexes {
		if !slices.ContainsFunc(e.indexes, func(o *index) bool { return o.def.Name == ix.def.Name }) {
			fresh = append(fresh, ix)
		}
	}
	var bad []IndexViolation
	e.tree.Ascend(func(en *entry) bool {
		item := e.itemOf(en)
		for _, ix := range fresh {
			if a := ix.violated(item); a != "" {
				bad = append(bad, IndexViolation{Index: ix.def.Name, Attribute: a, Key: e.keyOf(item)})
			}
		}
		// The item was checked when it was written; its size is the entry's.
		n.store(item, int(en.size), false)
		return true
	})
	n.onStore = e.onStore
	return n, bad, nil
}

// violated names the index key attribute the item holds with a value the index
// cannot hold (another type, or an empty string or binary); "" when none.
func (ix *index) violated(item model.Item) string {
	for _, a := range ix.key.attrs() {
		v, ok := item[a.Name]
		if !ok {
			continue
		}
		if !model.IndexableKeyValue(v, a.Type) {
			return a.Name
		}
	}
	return ""
}
