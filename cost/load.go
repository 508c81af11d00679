package cost

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"stwb/engine"
	"stwb/internal/numfmt"
	"stwb/model"
)

// The load model (docs/cost.md says the same):
//
//   - Every request's units land on the partition key values it touches: each item a
//     write changed on its own key (each action of a batch or transaction), a GSI key
//     change as a delete on the old value and a put on the new (GSI.html), a
//     ConditionCheck on the table only, a Query on the value of its key condition, a
//     batch read's units evenly over its keys, a Scan on one partition at a time.
//     LSI units load the table's partition key value (LSI.html: an LSI shares it).
//     A write that creates an item of a parent entity lands on a fresh value of its
//     own: an even spread, not the skew (freshValue).
//   - A key value is described by KeySpace.Key: a constant, a period (the current
//     one takes the load), a few-valued key (the request's value is the one loaded),
//     or many values over which the load spreads by the skew model (HottestShare),
//     or a pattern's `partitions` (an even spread, as a random shard suffix gives).
//   - Loads are summed per (table or GSI, key shape) over every pattern before the
//     per-partition limits are applied: one partition key value serves at most 3,000
//     RCU and 1,000 WCU per second (bp-partition-key-design.html, "Burst capacity" and
//     "Adaptive capacity"; ServiceQuotas.html "Throughput per partition").
//   - Split for heat: DynamoDB can split a hot partition key value's items across
//     partitions by sort key, and isolate a hot item, unless the table has an LSI or
//     the sort key is written in increasing order (burst-adaptive-capacity.html,
//     "Isolate frequently accessed items"; bp-partition-key-design.html). Where every
//     request of a load touches one item whose sort key is neither constant nor
//     time-ordered, on a table without an LSI, the limit applies per item: the load
//     over the items the key value holds.
//   - A GSI that cannot absorb its writes throttles writes to the base table
//     (GSI.html, "Provisioned throughput considerations for global secondary indexes").

// ShardHeadroom is the share of a partition's limits a write shard is sized to
// take, so that a shard count survives a peak above the one planned: ceil(hottest
// load / (limit x 0.8)).
const ShardHeadroom = 0.8

// HotKey is the load on the hottest partition key value of the table or of one GSI,
// per second: the hottest value beside the mean, and what was assumed.
type HotKey struct {
	Read, Write         float64 // the hottest key value (AtLeast: at least this)
	MeanRead, MeanWrite float64 // the mean over the key values (0 when their number is unknown)
	// Partitions is how many partition key values the load spreads over; 0 when
	// unknown. Rule says what kind of key it is (KeyConstant ... KeyNoKey).
	Partitions int64
	Rule       string
	// Value is the key as production sees it (KeyInfo.Shape): STATUS#PENDING,
	// CUST#{customerId}, DAY#{day:current}.
	Value string
	// Because says how the key values were counted; Spread how the hottest value's
	// share was found (a Zipf share, a measured one, one value).
	Because string
	Spread  string
	AtLeast bool // the number of values is unknown but bounded: the hottest is at least Read/Write
	Unknown bool // nothing bounds the number of values: the hottest key is unknown
	// SplitForHeat is set, with what it rests on, when some of the key's requests
	// touch items that split for heat could move to partitions of their own;
	// ItemRead/ItemWrite are then the hottest partition's load after the split
	// (AfterSplit: the requests that cannot split whole, plus the hottest item of
	// those that can). SplitPartly: some requests cannot split.
	SplitForHeat        string
	ItemRead, ItemWrite float64
	SplitPartly         bool
	// HotItem is the item of the key value that single-item requests load most (its
	// sort key as production sees it: TEAM#home, ORDER#{orderId}), with its load a
	// second and what that rests on; "" when no request touches one item.
	HotItem                   string
	HotItemRead, HotItemWrite float64
	HotItemWhy                string
	// Exceeds: the hottest key value is over the limits, and no split brings it
	// under. NeedsSplit: it is over them, and only split for heat would bring its
	// hottest partition under: it throttles until DynamoDB splits it, and the split
	// is not guaranteed (limits.go).
	Exceeds    bool
	NeedsSplit bool
	// Shards is the write shards that bring the hottest value under the limits with
	// headroom, without counting on a split: ceil(hottest / (limit x
	// ShardHeadroom)), at least 1.
	Shards int64
	// ThrottlesTable is set on a GSI whose hottest value's writes pass 1,000 WCU: a
	// GSI that cannot absorb its writes throttles writes to the base table (GSI.html).
	ThrottlesTable bool
}

// Hot is a pattern's load on its hottest key value of the table (its LSIs' units
// included) and of each GSI it touches, the pattern alone.
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

// KeyLoad is the load of every pattern on one key of the table or one GSI, summed.
type KeyLoad struct {
	Pool string // "table" or the GSI's name
	HotKey
	TotalRead, TotalWrite float64 // over all the key's values
	Patterns              []int   // the patterns that load it, by id
	// ShardReads is what write-sharding the key into Shards costs the patterns
	// that read it, set when its writes are over the limit (ShardReadsOf).
	ShardReads []ShardRead
	// ByPattern is each pattern's part of the hottest value's load, in Patterns'
	// order: what a fix that changes one pattern takes off the key.
	ByPattern []PatternLoad
}

// PatternLoad is one pattern's load a second on a key's hottest value.
type PatternLoad struct {
	Pattern     int
	Read, Write float64
}

// Shards is the number of write shards that brings a hottest load under the limits
// with headroom: ceil(max(read/(3,000 x 0.8), write/(1,000 x 0.8))), at least 1.
// Write sharding spreads a key's writes over N suffixed key values
// (bp-partition-key-sharding.html, bp-write-sharding.html); the seeds: "choose the
// shard count from the throughput you need". The 0.8 (ShardHeadroom) leaves each
// shard a fifth of a partition's limits for a peak above the planned one.
func Shards(read, write float64) int64 {
	s := max(ceilUnits(read/(PartitionReadLimit*ShardHeadroom)), ceilUnits(write/(PartitionWriteLimit*ShardHeadroom)))
	return max(s, 1)
}

// ShardRead is the read fan-out that write-sharding a key costs one pattern that
// reads it: a read of the key becomes Requests requests a call, one per shard
// (bp-write-sharding.html: "query the items for all the suffixes and then merge
// the results"), each billed on its own.
type ShardRead struct {
	Pattern  int
	Requests int64
	// Read is the RCU of one call after sharding: for a Query, Requests pages of the
	// shard's production page (a shard holds 1/Requests of the key's items); for a
	// GetItem, Requests reads of the item, whose shard the caller cannot know.
	// Before is one call's RCU now.
	Read, Before float64
}

// shardReads fills ShardReads of every key whose writes are over the limit.
func (r *Report) shardReads() {
	if r.design == nil {
		return
	}
	for i := range r.Keys {
		k := &r.Keys[i]
		if !(k.Exceeds || k.NeedsSplit) || k.Write <= PartitionWriteLimit || k.Shards < 2 {
			continue
		}
		for _, id := range k.Patterns {
			if sr, ok := r.shardRead(id, k.Shards); ok {
				k.ShardReads = append(k.ShardReads, sr)
			}
		}
	}
}

// shardRead is pattern id's read fan-out over n shards; false for a write, a Scan,
// a fan-out already, or an unpriced read.
func (r *Report) shardRead(id int, n int64) (ShardRead, bool) {
	for i := range r.Patterns {
		pc := &r.Patterns[i]
		if pc.ID != id || pc.res == nil || pc.Err != nil || pc.Requests > 0 || pc.Index >= len(r.design.Patterns) {
			continue
		}
		p := &r.design.Patterns[pc.Index]
		sr := ShardRead{Pattern: id, Requests: n, Before: pc.PerRequest.Read}
		switch p.Operation {
		case model.OpQuery:
			pg := r.splitPage(r.design, p, pc.res, float64(n), nil)
			if !pg.Known {
				return ShardRead{}, false
			}
			sr.Read = float64(n) * pg.Units.Read
		case model.OpGetItem:
			sr.Read = float64(n) * pc.PerRequest.Read
		default:
			return ShardRead{}, false
		}
		return sr, true
	}
	return ShardRead{}, false
}

// contribution is one pattern's load on one key of one pool.
type contribution struct {
	pattern     int
	pool        string
	key         KeyInfo
	read, write float64 // per second, over all the key's values
	share       float64 // of it, the hottest value's
	spread      string
	atLeast     bool
	unknown     bool
	// A request that touches one item (a GetItem, a write, each key of a batch)
	// has one: item is its shape under the key value (the sort key as production
	// sees it, see itemOf), itemShare the hottest such item's share of the key
	// value's load; fresh when each request writes an item of its own (a new
	// message), so an item takes one request's units, once. splittable says
	// whether split for heat can move the item to a partition of its own; split
	// says why (or why not).
	item       string
	itemShare  float64
	fresh      bool
	splittable bool
	split      string
	unitRead   float64 // one request's units on this key (for a fresh item)
	unitWrite  float64
}

// loadsOf lists where pattern p's per-second load lands.
func (r *Report) loadsOf(d *model.Design, ks *KeySpace, p *model.Pattern, res *engine.Result, rate float64, perRequest Units) []contribution {
	var out []contribution
	sk := skewOf(d, p)
	tpk := d.Table.Key.Partition
	add := func(pool, attr string, v model.Value, has bool, read, write float64, item model.Item, single, fresh bool) {
		if read == 0 && write == 0 {
			return
		}
		c := contribution{pattern: p.ID, pool: pool, key: ks.Key(attr, v, has), read: read * rate, write: write * rate,
			unitRead: read, unitWrite: write}
		if n := patternPartitions(p, pool); n > 0 {
			c.key = evenKey(c.key, n)
		}
		c.share, c.spread, c.atLeast, c.unknown = hottestOf(c.key, sk)
		if single {
			r.itemOf(d, ks, pool, &c, item, sk, fresh)
		}
		out = append(out, c)
	}
	gsiAttr := func(name string) (string, bool) {
		ix, ok := d.Table.IndexByName(name)
		if !ok || ix.Local {
			return "", false
		}
		return partitionAttr(ix), true
	}
	if res == nil {
		return nil
	}
	if len(res.Changes) > 0 {
		for _, ch := range res.Changes {
			img := ch.After
			if img == nil {
				img = ch.Before
			}
			tableUnits := ch.Table
			for name, u := range ch.Indexes {
				if _, gsi := gsiAttr(name); !gsi {
					tableUnits += u // an LSI entry lives under the table's key value
				}
			}
			v, has := ch.Key[tpk]
			add("table", tpk, v, has, 0, tableUnits, img, true, ch.Before == nil)
			if ch.Before == nil && len(out) > 0 {
				freshValue(d, &out[len(out)-1], img)
			}
			for _, name := range r.gsis {
				u := ch.Indexes[name]
				attr, _ := gsiAttr(name)
				if u == 0 {
					continue
				}
				// An image is in the index only with every key attribute
				// (model.Table.InIndex): an item that keeps its partition
				// attributes but loses a sort attribute left the index, and the
				// write is the delete of its old entry.
				old, hasOld := indexKeyValue(d, name, ch.Before, attr)
				cur, hasCur := indexKeyValue(d, name, ch.After, attr)
				if moved := ch.IndexesMoved[name]; moved > 0 && hasOld && hasCur {
					add(name, attr, old, true, 0, moved, ch.Before, true, false)
					add(name, attr, cur, true, 0, u-moved, ch.After, true, true)
					continue
				}
				if hasCur {
					add(name, attr, cur, true, 0, u, ch.After, true, !hasOld)
				} else {
					add(name, attr, old, hasOld, 0, u, ch.Before, true, false)
				}
			}
		}
		return out
	}
	if !Billed(res.Err) {
		return nil
	}
	units := perRequest
	switch p.Operation {
	case model.OpQuery, model.OpScan:
		pool, attr := "table", tpk
		if a, gsi := gsiAttr(p.Index); gsi {
			pool, attr = p.Index, a
		}
		read := units.Read
		if p.Operation == model.OpScan {
			add(pool, attr, model.Value{}, false, read, 0, nil, false, false)
			break
		}
		v, has := queryPartitionValue(d, p, res, attr)
		add(pool, attr, v, has, read, 0, nil, false, false)
	case model.OpGetItem:
		add("table", tpk, p.Key[tpk], true, units.Read, units.Write, p.Key, true, false)
	case model.OpBatchGetItem, model.OpTransactGetItems:
		// The response gives one figure for the batch: each key takes its part.
		n := float64(max(len(p.Keys), 1))
		first := len(out)
		for _, k := range p.Keys {
			add("table", tpk, k[tpk], true, units.Read/n, 0, k, true, false)
		}
		capBatchShare(out[first:])
	default:
		// A write that failed its condition: billed on the keys it named.
		keys := writeKeys(p)
		n := float64(max(len(keys), 1))
		for _, k := range keys {
			v, has := k[tpk]
			add("table", tpk, v, has, 0, units.Write/n, k, true, false)
		}
	}
	return out
}

// capBatchShare bounds the hottest share of a batch read's keys: the keys of one
// BatchGetItem are distinct (BatchGetItem refuses a duplicate key:
// BatchGetItem.html), so each key value takes at most one read of each request; of k
// keys on one key shape, each carries at most 1/k of their summed hottest load.
func capBatchShare(cs []contribution) {
	perShape := map[string]int{}
	for _, c := range cs {
		perShape[c.pool+"\x00"+c.key.Shape]++
	}
	for i := range cs {
		k := float64(perShape[cs[i].pool+"\x00"+cs[i].key.Shape])
		if k > 1 && cs[i].share > 1/k {
			cs[i].share = 1 / k
			cs[i].spread += fmt.Sprintf("; at most one read of each request: the batch's %d keys are distinct", int(k))
		}
	}
}

// freshValue spreads a write that creates an item of a parent entity (one item per
// key value: no sort key, or a constant one such as PROFILE) evenly over the key's
// values: each such write names a value no item holds yet (a new order id, a new
// customer), so no skew piles them on one popular value.
func freshValue(d *model.Design, c *contribution, item model.Item) {
	if c.pool != "table" || c.key.Kind != KeyMany || c.key.Values <= 0 {
		return
	}
	e := entityOfItem(d, item)
	if e == nil {
		return
	}
	if sk := d.Table.Key.Sort; sk != "" {
		if tpl, ok := e.Keys[sk]; !ok || len(model.TemplateVars(tpl)) > 0 {
			return
		}
	}
	c.share = 1 / float64(c.key.Values)
	c.spread = fmt.Sprintf("new %s items, one per key value: each write names a value no item holds yet, even over %s", e.Name, plural(int(min(c.key.Values, 1<<31)), "value", "values"))
	c.atLeast, c.unknown = false, false
}

// writeKeys are the items or keys a write request names, in order.
func writeKeys(p *model.Pattern) []model.Item {
	switch p.Operation {
	case model.OpPutItem:
		return []model.Item{p.Item}
	case model.OpUpdateItem, model.OpDeleteItem:
		return []model.Item{p.Key}
	}
	var out []model.Item
	for _, a := range p.Actions {
		if a.Item != nil {
			out = append(out, a.Item)
		} else {
			out = append(out, a.Key)
		}
	}
	return out
}

// patternPartitions is the `partitions` a pattern gives for a pool: its entry in
// the per-index form, else the single number; 0 when it gives none.
func patternPartitions(p *model.Pattern, pool string) int64 {
	if n, ok := p.PartitionsOn[pool]; ok {
		return n
	}
	return p.Partitions
}

// evenKey is a key spread evenly over n values by the pattern's `partitions`:
// every variable but a period becomes part of the spread shape.
func evenKey(ki KeyInfo, n int64) KeyInfo {
	ki.Kind, ki.Values, ki.AtMost = KeyPattern, n, 0
	ki.Because = fmt.Sprintf("the pattern's partitions: %s, an even spread", plural(int(min(n, 1<<31)), "value", "values"))
	if ki.Template != "" && len(ki.Vars) > 0 {
		parts, _ := model.TemplateParts(ki.Template)
		var b strings.Builder
		for i, pt := range parts {
			if pt.Var == "" {
				b.WriteString(pt.Literal)
				continue
			}
			if vi := varNamed(ki.Vars, pt.Var); vi.Kind == VarPeriod {
				b.WriteString("{" + pt.Var + ":current}")
			} else {
				b.WriteString("{" + pt.Var + "}")
			}
			_ = i
		}
		ki.Shape = b.String()
	} else {
		ki.Shape = ki.Value + " (x" + numfmt.Int(n) + ")"
	}
	return ki
}

// fanoutKey is the key of one request of a fan-out over n key values: the n values
// share the load evenly, each request loading its own (the shape as evenKey writes
// it, so that a write pattern's `partitions` over the same shards sums with it).
func fanoutKey(ki KeyInfo, n int64) KeyInfo {
	ki = evenKey(ki, n)
	ki.Because = fmt.Sprintf("the pattern's fan-out: %s, one request each", plural(int(min(n, 1<<31)), "key value", "key values"))
	return ki
}

func varNamed(vs []VarInfo, name string) VarInfo {
	for _, v := range vs {
		if v.Name == name {
			return v
		}
	}
	return VarInfo{}
}

// hottestOf is the hottest value's share of a load on key ki.
func hottestOf(ki KeyInfo, sk model.Skew) (share float64, spread string, atLeast, unknown bool) {
	switch ki.Kind {
	case KeyConstant, KeyFew, KeyPeriod, KeyNoKey:
		return 1, ki.kindWords(), false, false
	case KeyPattern:
		return 1 / float64(ki.Values), fmt.Sprintf("even over %s (the pattern's partitions)", plural(int(min(ki.Values, 1<<31)), "value", "values")), false, false
	case KeyMany:
		share, how := HottestShare(ki.Values, sk)
		return share, how, false, false
	}
	if ki.AtMost > 0 {
		share, how := HottestShare(ki.AtMost, sk)
		return share, "at least: " + how + " (at most that many values)", true, false
	}
	return 0, "unknown: nothing says how many values the key takes", false, true
}

func (ki KeyInfo) kindWords() string {
	switch ki.Kind {
	case KeyFew:
		return "the request's value takes its whole load (few values)"
	case KeyPeriod:
		return "the current period takes the whole load"
	case KeyNoKey:
		return "one partition at a time"
	}
	return "one value takes the whole load"
}

// itemOf fills in which item under its key value a single-item request c touches
// (c.item, c.itemShare) and whether split for heat can give that item a partition
// of its own (c.splittable, c.split). A request touches the item its key names:
// the sort key's variables are read as KeySpace reads a partition key's (Var), so
// a few-valued one is the request's own value, a period or an increasing one the
// newest item, and one with a known number of values spreads by the skew model
// over the items the key value holds (ItemsPerValue); where nothing says how many
// values the requests spread over, the named item takes the load. A write that
// creates its item (a new message under a chat room) touches an item of its own.
func (r *Report) itemOf(d *model.Design, ks *KeySpace, pool string, c *contribution, it model.Item, sk model.Skew, fresh bool) {
	c.itemShare = 1
	sc, sortAttr := poolSplitCase(d, pool)
	if !sc.SortKey {
		c.item, c.split = "(the key value's one item)", SplitFor(sc).Why
		return
	}
	text, _ := keyText(it[sortAttr])
	c.item = text
	e := ks.EntityOf(it)
	if e == nil {
		for _, ke := range c.key.Entities {
			if tpl, ok := ke.Keys[sortAttr]; ok && model.MatchTemplate(tpl, it[sortAttr]) {
				e = ke
				break
			}
		}
	}
	tpl := ""
	if e != nil {
		tpl = e.Keys[sortAttr]
		if tpl == "" && declares(e, sortAttr) {
			tpl = "{" + sortAttr + "}"
		}
	}
	if tpl == "" {
		sc.OneItem = !fresh
		c.splittable, c.split = r.splitVerdict(sc, "no entity's sort key template makes "+strconv.Quote(text)+": the named item takes the load")
		c.fresh = fresh
		return
	}
	parts, _ := model.TemplateParts(tpl)
	extracted, _ := model.ExtractTemplate(tpl, it[sortAttr])
	var shape strings.Builder
	spreads, why := false, ""
	orderSeen := false // the first variable that is not few-valued has samples enough to tell its order
	first := true
	for _, pt := range parts {
		if pt.Var == "" {
			shape.WriteString(pt.Literal)
			continue
		}
		vi := ks.Var(e, pt.Var)
		if vi.Kind != VarFew && first {
			first = false
			orderSeen = vi.Monotonic || len(ks.sampleValues(e, pt.Var)) >= 2
		}
		switch {
		case vi.Kind == VarFew:
			shape.WriteString(extracted[pt.Var])
		case vi.Monotonic:
			if !spreads && why == "" {
				sc.Monotonic = true
				why = fmt.Sprintf("sort key %s: %s", tpl, vi.MonotonicWhy)
			}
			shape.WriteString("{" + pt.Var + ":newest}")
		case vi.Values > 0:
			spreads = true
			shape.WriteString("{" + pt.Var + "}")
		default:
			shape.WriteString(extracted[pt.Var])
		}
	}
	switch {
	case fresh && len(parts) > 0 && len(model.TemplateVars(tpl)) > 0 && !allFew(ks, e, tpl):
		// Each request writes an item no request wrote before: the item takes
		// one request's units, once.
		c.fresh = true
		c.item = "(a new item each write)"
		if sc.Monotonic {
			c.item = shape.String()
		} else if !orderSeen {
			// Whether the new items' sort keys increase (and so never split) is not
			// known: the safe verdict keeps the writes on one partition.
			sc.Monotonic = true
			why = joinWhy(why, fmt.Sprintf("fewer than 2 %s samples show whether sort key %s increases with each new item: taken as increasing", e.Name, tpl))
		}
	case spreads:
		n := ks.ItemsPerValue(c.key, e)
		if n >= 2 {
			share, how := HottestShare(int64(math.Round(n)), sk)
			c.item, c.itemShare = shape.String(), share
			why = joinWhy(why, fmt.Sprintf("the requests spread over %s %s items a key value holds by the skew model (%s)", numfmt.Int(int64(math.Round(n))), e.Name, how))
		} else {
			c.item = text
			why = joinWhy(why, "how many items a key value holds is unknown: the named item "+strconv.Quote(text)+" takes the load")
		}
	default:
		if !sc.Monotonic {
			c.item = shape.String()
			why = joinWhy(why, "every request names item "+strconv.Quote(c.item)+" (nothing says the requests spread over more)")
		}
		sc.OneItem = !fresh
	}
	c.splittable, c.split = r.splitVerdict(sc, why)
}

// splitVerdict is SplitFor's answer for a contribution, with what was found.
func (r *Report) splitVerdict(sc SplitCase, found string) (bool, string) {
	s := SplitFor(sc)
	if s.Can {
		return true, joinWhy(found, "split for heat may give each item a partition of its own")
	}
	if sc.Monotonic {
		return false, joinWhy(found, s.Why)
	}
	return false, joinWhy(s.Why, found)
}

func joinWhy(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// allFew reports whether every variable of template tpl is few-valued for entity e:
// its items are a handful per key value, overwritten rather than created.
func allFew(ks *KeySpace, e *model.Entity, tpl string) bool {
	for _, v := range model.TemplateVars(tpl) {
		if ks.Var(e, v).Kind != VarFew {
			return false
		}
	}
	return true
}

func entityOfItem(d *model.Design, it model.Item) *model.Entity {
	if v, ok := it[d.TypeAttr()]; ok && v.Type == model.TypeS {
		return d.EntityByName(v.Str)
	}
	return nil
}

// sumLoads groups contributions by (pool, key shape), sums them per partition key
// value and per item, and applies the limits (limits.go): a key value over them is
// hot (Exceeds) unless split for heat would bring its hottest partition under
// them, when it throttles until DynamoDB splits it (NeedsSplit).
func sumLoads(cs []contribution) []KeyLoad {
	type group struct {
		KeyLoad
		whole       [2]float64            // hottest value, every request
		unsplit     [2]float64            // hottest value, requests that stay on its partition
		split       map[string][2]float64 // hottest items of the requests that can split, per item shape
		items       map[string][2]float64 // hottest items of every single-item request
		splitWhy    string
		itemWhy     map[string]string
		known       bool    // some contribution's spread is known
		dominant    float64 // the hottest load of the contribution that describes the key
		mean        [2]float64
		meanUnknown bool
	}
	var order []string
	groups := map[string]*group{}
	for _, c := range cs {
		id := c.pool + "\x00" + c.key.Shape
		g := groups[id]
		if g == nil {
			g = &group{KeyLoad: KeyLoad{Pool: c.pool, HotKey: HotKey{Value: c.key.Shape, Rule: c.key.Kind,
				Partitions: c.key.Values, Because: c.key.Because, Spread: c.spread}},
				split: map[string][2]float64{}, items: map[string][2]float64{}, itemWhy: map[string]string{}}
			if c.key.Kind == KeyUnknown {
				g.Partitions = 0
			}
			groups[id] = g
			order = append(order, id)
		}
		if d := heatOf(c.read*c.share, c.write*c.share); d > g.dominant {
			// The key is described by the contribution that loads it most.
			g.dominant = d
			g.Rule, g.Partitions, g.Because, g.Spread = c.key.Kind, c.key.Values, c.key.Because, c.spread
			if c.key.Kind == KeyUnknown {
				g.Partitions = 0
			}
		}
		g.TotalRead += c.read
		g.TotalWrite += c.write
		if n := c.key.Values; n > 0 && c.key.Kind != KeyUnknown {
			g.mean[0] += c.read / float64(n)
			g.mean[1] += c.write / float64(n)
		} else {
			g.meanUnknown = true
		}
		if !slices.Contains(g.Patterns, c.pattern) {
			g.Patterns = append(g.Patterns, c.pattern)
		}
		g.AtLeast = g.AtLeast || c.atLeast
		g.Unknown = g.Unknown || c.unknown
		g.known = g.known || !c.unknown
		if c.unknown {
			continue
		}
		hr, hw := c.read*c.share, c.write*c.share
		g.whole[0] += hr
		g.whole[1] += hw
		at := slices.IndexFunc(g.ByPattern, func(pl PatternLoad) bool { return pl.Pattern == c.pattern })
		if at < 0 {
			g.ByPattern = append(g.ByPattern, PatternLoad{Pattern: c.pattern})
			at = len(g.ByPattern) - 1
		}
		g.ByPattern[at].Read += hr
		g.ByPattern[at].Write += hw
		var ir, iw float64
		if c.item != "" {
			ir, iw = hr*c.itemShare, hw*c.itemShare
			if c.fresh {
				// Each write's item is written once: one request's units.
				ir, iw = min(hr, c.unitRead), min(hw, c.unitWrite)
			}
			if !c.fresh || !c.splittable {
				l := g.items[c.item]
				g.items[c.item] = [2]float64{l[0] + ir, l[1] + iw}
				if g.itemWhy[c.item] == "" {
					g.itemWhy[c.item] = c.split
				}
			}
		}
		if c.item != "" && c.splittable {
			l := g.split[c.item]
			g.split[c.item] = [2]float64{l[0] + ir, l[1] + iw}
			if g.splitWhy == "" {
				g.splitWhy = c.split
			}
		} else {
			g.unsplit[0] += hr
			g.unsplit[1] += hw
		}
	}
	out := make([]KeyLoad, 0, len(order))
	for _, id := range order {
		g := groups[id]
		k := g.KeyLoad
		k.Read, k.Write = g.whole[0], g.whole[1]
		if !g.meanUnknown {
			k.MeanRead, k.MeanWrite = g.mean[0], g.mean[1]
		} else {
			k.Partitions = 0 // some of the load spreads over an unknown number of values
		}
		// A load whose spread is unknown hides nothing the known loads put on the
		// key: with any known, the hottest value is at least their sum.
		if k.Unknown && g.known {
			k.Unknown, k.AtLeast = false, true
			k.Spread += "; the load of requests whose key values are unknown is left out: at least this"
		}
		for _, shape := range sortedKeys(g.items) {
			l := g.items[shape]
			if heatOf(l[0], l[1]) > heatOf(k.HotItemRead, k.HotItemWrite) || k.HotItem == "" {
				k.HotItem, k.HotItemRead, k.HotItemWrite, k.HotItemWhy = shape, l[0], l[1], g.itemWhy[shape]
			}
		}
		limRead, limWrite := k.Read, k.Write
		if len(g.split) > 0 {
			var hr, hw float64
			for _, l := range g.split {
				if heatOf(l[0], l[1]) >= heatOf(hr, hw) {
					hr, hw = l[0], l[1]
				}
			}
			k.ItemRead, k.ItemWrite = AfterSplit(g.unsplit[0], g.unsplit[1], hr, hw)
			k.SplitForHeat = g.splitWhy
			if g.unsplit != [2]float64{} {
				k.SplitPartly = true
				k.SplitForHeat += "; the requests that cannot split add their load in full"
			}
			if NeedsSplit(k.Read, k.Write, k.ItemRead, k.ItemWrite) {
				k.NeedsSplit = true
				limRead, limWrite = k.ItemRead, k.ItemWrite
			}
		}
		if k.Unknown {
			k.Read, k.Write, limRead, limWrite = 0, 0, 0, 0
		}
		k.Exceeds = OverLimits(limRead, limWrite)
		k.Shards = Shards(k.Read, k.Write)
		k.ThrottlesTable = k.Pool != "table" && k.Write > PartitionWriteLimit && (k.Exceeds || k.NeedsSplit)
		out = append(out, k)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// hotOf is a pattern's own hottest key on the table and on each GSI.
func hotOf(cs []contribution, gsis []string) Hot {
	var h Hot
	best := map[string]KeyLoad{}
	for _, k := range sumLoads(cs) {
		b, ok := best[k.Pool]
		if !ok || hotter(k, b) {
			best[k.Pool] = k
		}
	}
	if k, ok := best["table"]; ok {
		h.Table = k.HotKey
	} else {
		h.Table = HotKey{Rule: KeyNone, Shards: 1}
	}
	for _, g := range gsis {
		if k, ok := best[g]; ok {
			if h.Indexes == nil {
				h.Indexes = map[string]HotKey{}
			}
			h.Indexes[g] = k.HotKey
			h.Order = append(h.Order, g)
		}
	}
	return h
}

// hotter orders key loads by how near their hottest value is to a limit.
func hotter(a, b KeyLoad) bool {
	if a.Exceeds != b.Exceeds {
		return a.Exceeds
	}
	if a.NeedsSplit != b.NeedsSplit {
		return a.NeedsSplit
	}
	return heat(a.HotKey) > heat(b.HotKey)
}

// Assumed says, in one line, what the key's figures rest on: how its values were
// counted, how the hottest value's share was found, and split for heat where it
// applies. cost's text and the review's findings print it beside the figures.
func (k HotKey) Assumed() string {
	var parts []string
	parts0 := []string{k.Because, k.Spread}
	if k.Exceeds || k.NeedsSplit {
		// Where the key is over the limits, its item and split figures are printed
		// beside the key's: say what they rest on too.
		parts0 = append(parts0, k.SplitForHeat, k.itemAssumed())
	}
	for _, s := range parts0 {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "; ")
}

// itemAssumed says what the hottest item's figure rests on, when it is not what
// SplitForHeat already says.
func (k HotKey) itemAssumed() string {
	if k.HotItem == "" || strings.Contains(k.SplitForHeat, k.HotItemWhy) {
		return ""
	}
	return k.HotItemWhy
}

// Heat is the hottest key value's load as a share of a partition's limits (1 is
// at the limit): what its partition takes until any split.
func (k HotKey) Heat() float64 { return heat(k) }

func heat(k HotKey) float64 { return heatOf(k.Read, k.Write) }

// heatOf is a load as a share of a partition's limits, the larger of read and write.
func heatOf(read, write float64) float64 {
	return max(read/PartitionReadLimit, write/PartitionWriteLimit)
}

// keyLoads sums every pattern's contributions, hottest first within each pool
// (the table, then the GSIs in design order).
func (r *Report) keyLoads() []KeyLoad {
	var cs []contribution
	for _, pc := range r.Patterns {
		cs = append(cs, pc.loads...)
	}
	ks := sumLoads(cs)
	rank := map[string]int{"table": 0}
	for i, g := range r.gsis {
		rank[g] = i + 1
	}
	sort.SliceStable(ks, func(i, j int) bool {
		if rank[ks[i].Pool] != rank[ks[j].Pool] {
			return rank[ks[i].Pool] < rank[ks[j].Pool]
		}
		return hotter(ks[i], ks[j])
	})
	return ks
}

// InHotKey reports whether pattern id loads a key whose summed load is over a
// partition's limits (the pattern alone may be under them).
func (r *Report) InHotKey(id int) bool {
	for _, k := range r.Keys {
		if k.Exceeds && slices.Contains(k.Patterns, id) {
			return true
		}
	}
	return false
}
