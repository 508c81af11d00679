package cost

import (
	"stwb/engine"
	"stwb/expr"
	"stwb/model"
)

// Per-partition limits: one partition key value can never serve more than 3,000
// read units or 1,000 write units per second, whatever adaptive capacity does
// (bp-partition-key-design.html, "Burst capacity", "Adaptive capacity";
// ServiceQuotas.html "Throughput per partition").
const (
	PartitionReadLimit  = 3000
	PartitionWriteLimit = 1000
)

// HotKey is the load a pattern puts on one partition key value of the table or of
// one GSI, per second at its peak rate.
type HotKey struct {
	Read, Write float64 // units per second on one partition key value
	Partitions  int64   // partition key values the traffic spreads over
	Rule        string  // how Partitions was decided (see Partitions)
	Value       string  // the partition key value the rule looked at ("" when none)
	Exceeds     bool    // over 3,000 RCU or 1,000 WCU per partition key value
	// Shards is the write shards that bring the load under the limits: the seeds'
	// sharding method, a suffix #0..#N-1 on the key, ceil(load / limit), at least 1.
	Shards int64
	// ThrottlesTable is set on a GSI whose writes per partition key value exceed
	// 1,000 WCU: a GSI that cannot absorb its writes throttles writes to the base
	// table (GSI.html, "Provisioned throughput considerations").
	ThrottlesTable bool
}

// Hot is a pattern's hot-partition load: the table's (its LSIs' units included, since
// an LSI entry lives under the same partition key value) and each GSI's.
type Hot struct {
	Table   HotKey
	Indexes map[string]HotKey
	Order   []string // GSI names in design order
}

// Exceeds reports whether the table or any GSI is over a partition's limits.
func (h Hot) Exceeds() bool {
	if h.Table.Exceeds {
		return true
	}
	for _, k := range h.Indexes {
		if k.Exceeds {
			return true
		}
	}
	return false
}

// The rules by which Partitions is decided, as Hot.Rule names them.
const (
	RulePattern  = "pattern"  // the pattern's `partitions` field
	RuleConstant = "constant" // the key value is an entity template with no variable, or matches none
	RuleEntity   = "entity"   // the key value fills an entity's template variable: that entity's count
	RuleNoKey    = "no key"   // the request names no partition key value (Scan)
)

// Partitions is how many partition key values a pattern's traffic on one key
// attribute spreads over. The rule:
//
//  1. The pattern's `partitions` field, when set, applies to the table and to every
//     index the pattern touches.
//  2. Otherwise the key value the request uses (a Query's partition key condition, a
//     GetItem/UpdateItem/DeleteItem key, a written item's key or index key, the first
//     key of a batch or transaction) is matched against every entity's template for
//     that key attribute. A template matches when its literal parts match the value
//     and its {variables} match anything.
//  3. If a matching template is a constant (no variable), or no template matches,
//     the value is one partition: 1.
//  4. Otherwise the matching entities' counts (an entity with no count counts its
//     sample items) decide, by PartitionCount: the largest count among the parent
//     entities (one item per value: a constant sort key such as #METADATA), else the
//     smallest count.
//  5. A Scan names no key value: 1 (one page reads one partition at a time).
//
// A variable with few values (a status) needs `partitions` set on the pattern: the
// design does not say how many values a variable takes.
func Partitions(d *model.Design, p *model.Pattern, attr string, v model.Value, has bool) (int64, string) {
	return partitions(d, p, attr, v, has, func(e *model.Entity) int64 {
		if e.Count > 0 {
			return e.Count
		}
		return int64(countSamples(d, e.Name))
	})
}

// partitions is Partitions with the entity counts supplied, so that a report counts
// the samples of an uncounted entity once, not once per pattern.
func partitions(d *model.Design, p *model.Pattern, attr string, v model.Value, has bool, count func(*model.Entity) int64) (int64, string) {
	if p.Partitions > 0 {
		return p.Partitions, RulePattern
	}
	if !has {
		return 1, RuleNoKey
	}
	var matching []*model.Entity
	for i := range d.Entities {
		e := &d.Entities[i]
		tpl, ok := e.Keys[attr]
		if !ok || !model.MatchTemplate(tpl, v) {
			continue
		}
		if len(model.TemplateVars(tpl)) == 0 {
			return 1, RuleConstant
		}
		matching = append(matching, e)
	}
	if n := PartitionCount(d, attr, matching, count); n > 0 {
		return n, RuleEntity
	}
	return 1, RuleConstant
}

// PartitionCount is how many values partition key attr takes across entities that
// share one key template (a customer and her orders under CUST#{customerId}). A
// parent entity, whose sort key template beside attr is a constant (#METADATA,
// PROFILE), has exactly one item per value, so the largest parent count is the
// number of values; without a parent, the smallest count is the best bound. 0 when
// no entity has a count.
func PartitionCount(d *model.Design, attr string, entities []*model.Entity, count func(*model.Entity) int64) int64 {
	sortAttr := sortKeyBeside(d, attr)
	var parents, smallest int64
	for _, e := range entities {
		n := count(e)
		if n <= 0 {
			continue
		}
		if tpl, ok := e.Keys[sortAttr]; sortAttr != "" && ok && len(model.TemplateVars(tpl)) == 0 {
			parents = max(parents, n)
		}
		if smallest == 0 || n < smallest {
			smallest = n
		}
	}
	if parents > 0 {
		return parents
	}
	return smallest
}

// sortKeyBeside names the sort key that goes with partition key attr: the table's,
// or a GSI's; "" when there is none.
func sortKeyBeside(d *model.Design, attr string) string {
	if attr == d.Table.Key.Partition {
		return d.Table.Key.Sort
	}
	for _, ix := range d.Table.Indexes {
		if !ix.Local && ix.Key.Partition == attr {
			return ix.Key.Sort
		}
	}
	return ""
}

func countSamples(d *model.Design, entity string) int {
	n := 0
	for _, it := range d.Items {
		if v, ok := it[d.TypeAttr()]; ok && v.Type == model.TypeS && v.Str == entity {
			n++
		}
	}
	return n
}

// keyText is a key value as a template writes it: S as is, N as its digits.
func keyText(v model.Value) (string, bool) {
	switch v.Type {
	case model.TypeS, model.TypeN:
		return v.Str, true
	}
	return "", false
}

// hotKey divides per-second units over the partitions and checks the limits.
func hotKey(read, write float64, n int64, rule, value string) HotKey {
	if n < 1 {
		n = 1
	}
	h := HotKey{Read: read / float64(n), Write: write / float64(n), Partitions: n, Rule: rule, Value: value}
	h.Exceeds = h.Read > PartitionReadLimit || h.Write > PartitionWriteLimit
	h.Shards = Shards(h.Read, h.Write)
	return h
}

// Shards is the number of write shards that brings a per-partition load under the
// limits: ceil(max(read/3,000, write/1,000)), at least 1 (the seeds' "choose the
// shard count from the throughput you need": ten shards buy 10,000 writes/s).
func Shards(read, write float64) int64 {
	s := max(ceilUnits(read/PartitionReadLimit), ceilUnits(write/PartitionWriteLimit))
	return max(s, 1)
}

// keyValues finds the partition key value a request uses for the table and for
// each GSI it touches.
type keyValues struct {
	table    model.Value
	hasTable bool
	gsi      map[string]model.Value
}

func requestKeys(d *model.Design, p *model.Pattern, res *engine.Result) keyValues {
	tpk := d.Table.Key.Partition
	kv := keyValues{gsi: map[string]model.Value{}}
	setTable := func(it model.Item) {
		if v, ok := it[tpk]; ok && !kv.hasTable {
			kv.table, kv.hasTable = v, true
		}
	}
	// Writes: the items touched tell every key exactly, templates already applied.
	if res != nil {
		for _, c := range res.Changes {
			setTable(c.Key)
			for _, ix := range d.Table.Indexes {
				if ix.Local {
					continue
				}
				if _, done := kv.gsi[ix.Name]; done {
					continue
				}
				for _, img := range []model.Item{c.After, c.Before} {
					if v, ok := img[ix.Key.Partition]; ok {
						kv.gsi[ix.Name] = v
						break
					}
				}
			}
		}
	}
	switch p.Operation {
	case model.OpGetItem, model.OpUpdateItem, model.OpDeleteItem:
		setTable(p.Key)
	case model.OpPutItem:
		setTable(p.Item)
	case model.OpBatchGetItem, model.OpTransactGetItems:
		if len(p.Keys) > 0 {
			setTable(p.Keys[0])
		}
	case model.OpBatchWriteItem, model.OpTransactWriteItems:
		for _, a := range p.Actions {
			setTable(a.Key)
			setTable(a.Item)
		}
	case model.OpQuery:
		attr := tpk
		ix, isIndex := d.Table.IndexByName(p.Index)
		if isIndex && !ix.Local {
			attr = ix.Key.Partition
		}
		v, ok := queryPartitionValue(d, p, res, attr)
		if !ok {
			break
		}
		if isIndex && !ix.Local {
			kv.gsi[ix.Name] = v
		} else {
			kv.table, kv.hasTable = v, true
		}
	}
	return kv
}

// queryPartitionValue is the value a Query's key condition gives its partition key:
// from an item the Query read when there is one (every item read shares it), else
// from the compiled key condition.
func queryPartitionValue(d *model.Design, p *model.Pattern, res *engine.Result, attr string) (model.Value, bool) {
	if res != nil && len(res.Pages) > 0 && len(res.Pages[0].Visits) > 0 {
		if v, ok := res.Pages[0].Visits[0].Item[attr]; ok {
			return v, true
		}
	}
	if res != nil && res.Err != nil {
		return model.Value{}, false
	}
	ks := d.Table.Key
	if ix, ok := d.Table.IndexByName(p.Index); ok {
		ks = ix.Key
		if ix.Local || ks.Partition == "" {
			ks.Partition = d.Table.Key.Partition
		}
	}
	schema := expr.KeySchema{Partition: ks.Partition, Sort: ks.Sort,
		PartitionType: d.Table.KeyAttributeType(ks.Partition)}
	if ks.Sort != "" {
		schema.SortType = d.Table.KeyAttributeType(ks.Sort)
	}
	kc, err := expr.CompileKeyCondition(p.KeyCondition, expr.NewContext(p.Names, p.Values), schema)
	if err != nil || kc == nil {
		return model.Value{}, false
	}
	return kc.PartitionValue, true
}

// hotPartitions is a pattern's per-partition load on the table and each GSI.
func hotPartitions(d *model.Design, p *model.Pattern, res *engine.Result, ps Units, local map[string]bool, count func(*model.Entity) int64) Hot {
	kv := requestKeys(d, p, res)
	read, write := ps.Table.Read, ps.Table.Write
	for name, u := range ps.Indexes {
		if local[name] {
			read += u.Read
			write += u.Write
		}
	}
	n, rule := partitions(d, p, d.Table.Key.Partition, kv.table, kv.hasTable, count)
	h := Hot{Table: hotKey(read, write, n, rule, valueLabel(kv.table, kv.hasTable))}
	for _, ix := range d.Table.Indexes {
		u, ok := ps.Indexes[ix.Name]
		if ix.Local || !ok {
			continue
		}
		v, has := kv.gsi[ix.Name]
		n, rule := partitions(d, p, ix.Key.Partition, v, has, count)
		k := hotKey(u.Read, u.Write, n, rule, valueLabel(v, has))
		k.ThrottlesTable = k.Write > PartitionWriteLimit
		if h.Indexes == nil {
			h.Indexes = map[string]HotKey{}
		}
		h.Indexes[ix.Name] = k
		h.Order = append(h.Order, ix.Name)
	}
	return h
}

func valueLabel(v model.Value, has bool) string {
	if !has {
		return ""
	}
	if t, ok := keyText(v); ok {
		return t
	}
	return v.Type.String() + " value"
}
