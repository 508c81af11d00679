package throttle

import (
	"slices"
	"strings"

	"stwb/cost"
	"stwb/engine"
	"stwb/expr"
	"stwb/model"
)

// Charger turns what a request consumed into the Charges it takes from each
// partition key value, the way the production model (cost/load.go) lands a
// request's units:
//
//   - a single-item request on its item's key value; a batch read's units evenly
//     over its keys (the response gives one figure for the batch);
//   - a write on each item it changed, a GSI key change as a delete on the old value
//     and a put on the new (GSI.html), an LSI's units on the table's key value
//     (LSI.html: an LSI shares its partitions);
//   - a write that failed its condition on the key it named;
//   - a Query on the value of its key condition; a Scan on no one value (it reads
//     one partition at a time), so only its table's or index's own limit applies.
//
// It is made per table; a table from a design knows which items split for heat
// (cost.SplitCaseOf, cost.SplitFor), one made by CreateTable none.
type Charger struct {
	def    model.Table
	design *model.Design
	ks     *cost.KeySpace
	gsiKey map[string][]string // GSI name -> its partition key attributes (1 to 4)
}

// NewCharger is the Charger of table def. d is the design it came from (nil for a
// table made by CreateTable), items its items as loaded (the samples the key
// space reads to tell a time-ordered sort key).
func NewCharger(def model.Table, d *model.Design, items []model.Item) *Charger {
	c := &Charger{def: def, design: d, gsiKey: map[string][]string{}}
	for i := range def.Indexes {
		if ix := &def.Indexes[i]; !ix.Local {
			c.gsiKey[ix.Name] = ix.Key.Partitions()
		}
	}
	if d != nil {
		c.ks = cost.NewKeySpace(d, items, func(e *model.Entity) int64 { return e.Count })
	}
	return c
}

// KeyText is a key value as the buckets name it: its type and its text, so that
// the string "1" and the number 1 are two values.
func KeyText(v model.Value) string { return v.Type.String() + ":" + v.Str }

// valuesText is the values of attrs in it as one text, and whether it holds them
// all: a multi-attribute key's value is every attribute's (GSI.DesignPattern.MultiAttributeKeys.html).
func valuesText(it model.Item, attrs []string) (string, bool) {
	var b strings.Builder
	for i, a := range attrs {
		v, ok := it[a]
		if !ok {
			return "", false
		}
		if i > 0 {
			b.WriteString("\x00")
		}
		b.WriteString(KeyText(v))
	}
	return b.String(), true
}

// keyOf is pool's key schema ("" the table).
func (c *Charger) keyOf(pool string) model.KeySchema {
	if pool != "" {
		if ix, ok := c.def.IndexByName(pool); ok {
			return ix.Key
		}
	}
	return c.def.Key
}

// splits reports whether pool's key value holding it can split for heat.
func (c *Charger) splits(pool string, it model.Item) bool {
	if c.design == nil || it == nil {
		return false
	}
	p := pool
	if p == "" {
		p = "table"
	}
	sc, e, _ := cost.SplitCaseOf(c.design, c.ks, p, it)
	return e != nil && cost.SplitFor(sc).Can
}

// one is the charge of a request on one item of pool.
func (c *Charger) one(pool string, it model.Item, read, write float64) (Charge, bool) {
	ks := c.keyOf(pool)
	key, ok := valuesText(it, ks.Partitions())
	if !ok || read == 0 && write == 0 {
		return Charge{}, false
	}
	item, _ := valuesText(it, ks.Attributes())
	return Charge{Index: pool, Key: key, Item: item, Splits: c.splits(pool, it), Read: read, Write: write}, true
}

// tableReads is a read's units on the table's throughput: the table's and every
// LSI's.
func (c *Charger) tableUnits(cp engine.Capacity) engine.Units {
	u := cp.Table
	for name, iu := range cp.Indexes {
		if _, gsi := c.gsiKey[name]; !gsi {
			u.Read += iu.Read
			u.Write += iu.Write
		}
	}
	return u
}

// Keys is the charge of a read of the items at keys (GetItem: one key;
// BatchGetItem, TransactGetItems: the table's keys) that consumed cp: evenly over
// the keys.
func (c *Charger) Keys(keys []model.Item, cp engine.Capacity) []Charge {
	return slices.Concat(c.KeysEach(keys, cp)...)
}

// KeysEach is Keys key by key: the charges of the read of keys[i] (none when it
// consumed nothing), for a transaction whose actions are throttled one by one.
func (c *Charger) KeysEach(keys []model.Item, cp engine.Capacity) [][]Charge {
	u := c.tableUnits(cp)
	n := float64(max(len(keys), 1))
	out := make([][]Charge, len(keys))
	for i, k := range keys {
		if ch, ok := c.one("", k, u.Read/n, u.Write/n); ok {
			out[i] = []Charge{ch}
		}
	}
	return out
}

// Query is the charge of a Query of index ("" the table) whose key condition
// (with its names and values) names the partition key value it reads, and that
// consumed cp.
func (c *Charger) Query(index, keyCondition string, names map[string]string, values map[string]model.Value, cp engine.Capacity) []Charge {
	pool := c.poolOf(index)
	ks := c.def.Key
	if ix, ok := c.def.IndexByName(index); ok {
		ks = ix.Key
		if ix.Local {
			ks.Partition, ks.MorePartition = c.def.Key.Partition, nil
		}
	}
	attr := func(n string) expr.KeyAttr { return expr.KeyAttr{Name: n, Type: c.def.KeyAttributeType(n)} }
	schema := expr.KeySchema{Partition: ks.Partition, Sort: ks.Sort, PartitionType: c.def.KeyAttributeType(ks.Partition)}
	if ks.Sort != "" {
		schema.SortType = c.def.KeyAttributeType(ks.Sort)
	}
	for _, n := range ks.MorePartition {
		schema.MorePartition = append(schema.MorePartition, attr(n))
	}
	for _, n := range ks.MoreSort {
		schema.MoreSort = append(schema.MoreSort, attr(n))
	}
	units := c.readUnits(pool, cp)
	ch := Charge{Index: pool, Read: units}
	if kc, err := expr.CompileKeyCondition(keyCondition, expr.NewContext(names, values), schema); err == nil && kc != nil {
		vals := kc.PartitionValues
		if len(vals) == 0 {
			vals = []model.Value{kc.PartitionValue}
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = KeyText(v)
		}
		ch.Key = strings.Join(parts, "\x00")
	}
	if units == 0 {
		return nil
	}
	return []Charge{ch}
}

// Visited is the charge of a read of index ("" the table) that consumed cp and
// read items (a PartiQL SELECT run as a Query, whose key condition the statement
// holds): its units evenly over the partition key values of the items it read,
// each on the index's own key; a read that found none is on the pool's limit only.
func (c *Charger) Visited(index string, items []model.Item, cp engine.Capacity) []Charge {
	pool := c.poolOf(index)
	units := c.readUnits(pool, cp)
	if units == 0 {
		return nil
	}
	attrs := c.keyOf(pool).Partitions()
	if pool == "" {
		attrs = c.def.Key.Partitions() // an LSI's items are under the table's key value
	}
	var keys []string
	for _, it := range items {
		if k, ok := valuesText(it, attrs); ok && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return []Charge{{Index: pool, Read: units}}
	}
	out := make([]Charge, len(keys))
	for i, k := range keys {
		out[i] = Charge{Index: pool, Key: k, Read: units / float64(len(keys))}
	}
	return out
}

// Scan is the charge of a Scan of index ("" the table) that consumed cp: on the
// table's or the index's own limit only.
func (c *Charger) Scan(index string, cp engine.Capacity) []Charge {
	pool := c.poolOf(index)
	if u := c.readUnits(pool, cp); u > 0 {
		return []Charge{{Index: pool, Read: u}}
	}
	return nil
}

// poolOf is the pool a read of index draws on ("" for the table and its LSIs).
func (c *Charger) poolOf(index string) string {
	if _, gsi := c.gsiKey[index]; gsi {
		return index
	}
	return ""
}

func (c *Charger) readUnits(pool string, cp engine.Capacity) float64 {
	if pool == "" {
		return c.tableUnits(cp).Read
	}
	return cp.Indexes[pool].Read
}

// Writes is the charge of a write that changed changes (each with its units), or,
// when it changed nothing (a condition failed), consumed cp on the keys it named.
func (c *Charger) Writes(changes []engine.Change, named []model.Item, cp engine.Capacity) []Charge {
	if len(changes) == 0 {
		u := c.tableUnits(cp)
		n := float64(max(len(named), 1))
		var out []Charge
		for _, k := range named {
			if ch, ok := c.one("", k, 0, u.Write/n); ok {
				out = append(out, ch)
			}
		}
		return out
	}
	var out []Charge
	for _, ch := range changes {
		img := ch.After
		if img == nil {
			img = ch.Before
		}
		table := ch.Table
		for name, u := range ch.Indexes {
			if _, gsi := c.gsiKey[name]; !gsi {
				table += u // an LSI entry lives under the table's key value
			}
		}
		key := ch.Key
		if key == nil {
			key = img
		}
		if x, ok := c.one("", key, 0, table); ok {
			x.Splits = c.splits("", img)
			out = append(out, x)
		}
		for name, u := range ch.Indexes {
			attrs, gsi := c.gsiKey[name]
			if !gsi || u == 0 {
				continue
			}
			_, hasOld := valuesText(ch.Before, attrs)
			_, hasCur := valuesText(ch.After, attrs)
			if moved := ch.IndexesMoved[name]; moved > 0 && hasOld && hasCur {
				if x, ok := c.one(name, ch.Before, 0, moved); ok {
					out = append(out, x)
				}
				if x, ok := c.one(name, ch.After, 0, u-moved); ok {
					out = append(out, x)
				}
				continue
			}
			src := ch.After
			if !hasCur {
				src = ch.Before
			}
			if x, ok := c.one(name, src, 0, u); ok {
				out = append(out, x)
			}
		}
	}
	return out
}

// Serves reports whether the Charger was made for a table with def's GSIs (a
// table whose indexes changed needs a new one).
func (c *Charger) Serves(def model.Table) bool {
	n := 0
	for i := range def.Indexes {
		ix := &def.Indexes[i]
		if ix.Local {
			continue
		}
		n++
		if !slices.Equal(c.gsiKey[ix.Name], ix.Key.Partitions()) {
			return false
		}
	}
	return n == len(c.gsiKey) && c.def.Key.Equal(def.Key)
}
