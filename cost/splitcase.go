package cost

import (
	"slices"
	"time"

	"stwb/model"
)

// SplitCaseOf is the SplitCase of a request on item it of pool ("table" or a GSI's
// name): whether the pool has a sort key, an LSI holds the table's collections on
// one partition, the item's sort key is constant or few-valued (one item) or
// increasing (VarInfo.Monotonic). It also
// gives the item's entity and its sort key template (nil and "" when the item's
// entity is unknown: then nothing says the key can split, and SortKey alone decides
// nothing, so Can is false). stwb serve --throttle asks it, then SplitFor, the
// rule the load model's itemOf applies, so that check and serve agree.
func SplitCaseOf(d *model.Design, ks *KeySpace, pool string, it model.Item) (SplitCase, *model.Entity, string) {
	sc, sortAttr := poolSplitCase(d, pool)
	if !SplitFor(sc).Can {
		return sc, nil, ""
	}
	e := entityOfItem(d, it)
	if e == nil {
		return sc, nil, ""
	}
	tpl, ok := e.Keys[sortAttr]
	if !ok {
		return sc, nil, ""
	}
	// As the load model reads a sort key (itemOf): few-valued variables name the
	// request's own items; the first that is not few decides whether the writes
	// follow an increasing key (a period, a sequence, a ULID: VarInfo.Monotonic).
	sc.OneItem = true
	for _, v := range model.TemplateVars(tpl) {
		vi := ks.Var(e, v)
		if vi.Kind == VarFew {
			continue
		}
		sc.OneItem = false
		sc.Monotonic = vi.Monotonic
		break
	}
	return sc, e, tpl
}

// SplitForHeatAfter is how long a partition key value must be throttled, without a
// break, before DynamoDB splits it for heat (stwb serve --throttle waits this long
// before the per-item limits apply). AWS gives no figure: burst-adaptive-capacity.html
// says adaptive capacity isolates items that take "consistently" high traffic, and
// SplitFor's "minutes of sustained throttling"; stwb takes five minutes, an
// assumption said wherever it is used.
const SplitForHeatAfter = 5 * time.Minute

// poolSplitCase is what the design says of split for heat on pool ("table" or a
// GSI's name) before any request, with the pool's sort key attribute ("" for
// none): whether it has a sort key; for the table, whether it has an LSI, and
// whether it is provisioned with a stream (table.stream). A stream is the table's
// (Streams.html: a GSI has none), so a GSI's partitions are not held back by it.
func poolSplitCase(d *model.Design, pool string) (SplitCase, string) {
	sortAttr := d.Table.Key.Sort
	if pool != "table" {
		ix, _ := d.Table.IndexByName(pool)
		sortAttr = ix.Key.Sort
	}
	table := pool == "table"
	return SplitCase{SortKey: sortAttr != "",
		LSI:                table && slices.ContainsFunc(d.Table.Indexes, func(ix model.Index) bool { return ix.Local }),
		ProvisionedStreams: table && d.Table.Billing.Mode == model.Provisioned && d.Table.Stream != ""}, sortAttr
}
