package cost

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"stwb/engine"
	"stwb/internal/numfmt"
	"stwb/model"
)

// The load model (the README's Cost section says the same):
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
	// SplitForHeat is set, with the reason, when the limits apply per item (see the
	// load model above); ItemRead/ItemWrite are then the hottest item's load.
	SplitForHeat        string
	ItemRead, ItemWrite float64
	// SplitPartly is set when only some of the key's requests split for heat:
	// ItemRead/ItemWrite are then the hottest partition's load after the split (the
	// others' load whole, plus the hottest item's share of the split ones).
	SplitPartly bool
	Exceeds     bool // the hottest key value (or item, split for heat) is over the limits
	// Shards is the write shards that bring the hottest value under the limits with
	// headroom: ceil(hottest / (limit x ShardHeadroom)), at least 1.
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
		w := k.Write
		if k.SplitForHeat != "" {
			w = k.ItemWrite
		}
		if !k.Exceeds || w <= PartitionWriteLimit || k.Shards < 2 {
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
			pg := r.splitPage(r.design, p, pc.res, float64(n))
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
	// items > 0: split for heat applies, and the hottest value's load divides over
	// this many items; split says why (or why not, when items is 0).
	items float64
	split string
}

// loadsOf lists where pattern p's per-second load lands.
func (r *Report) loadsOf(d *model.Design, ks *KeySpace, p *model.Pattern, res *engine.Result, rate float64, perRequest Units) []contribution {
	var out []contribution
	sk := skewOf(d, p)
	tpk := d.Table.Key.Partition
	add := func(pool, attr string, v model.Value, has bool, read, write float64, item model.Item, single bool) {
		if read == 0 && write == 0 {
			return
		}
		c := contribution{pattern: p.ID, pool: pool, key: ks.Key(attr, v, has), read: read * rate, write: write * rate}
		if n := patternPartitions(p, pool); n > 0 {
			c.key = evenKey(c.key, n)
		}
		c.share, c.spread, c.atLeast, c.unknown = hottestOf(c.key, sk)
		if single {
			c.items, c.split = r.splitForHeat(d, ks, pool, c.key, item)
		}
		out = append(out, c)
	}
	gsiAttr := func(name string) (string, bool) {
		ix, ok := d.Table.IndexByName(name)
		if !ok || ix.Local {
			return "", false
		}
		return ix.Key.Partition, true
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
			add("table", tpk, v, has, 0, tableUnits, img, true)
			if ch.Before == nil && len(out) > 0 {
				freshValue(d, &out[len(out)-1], img)
			}
			for _, name := range r.gsis {
				u := ch.Indexes[name]
				attr, _ := gsiAttr(name)
				if u == 0 {
					continue
				}
				old, hasOld := ch.Before[attr]
				cur, hasCur := ch.After[attr]
				if moved := ch.IndexesMoved[name]; moved > 0 && hasOld && hasCur {
					add(name, attr, old, true, 0, moved, ch.Before, true)
					add(name, attr, cur, true, 0, u-moved, ch.After, true)
					continue
				}
				if hasCur {
					add(name, attr, cur, true, 0, u, ch.After, true)
				} else {
					add(name, attr, old, hasOld, 0, u, ch.Before, true)
				}
			}
		}
		return out
	}
	if !billed(res.Err) {
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
			add(pool, attr, model.Value{}, false, read, 0, nil, false)
			break
		}
		v, has := queryPartitionValue(d, p, res, attr)
		add(pool, attr, v, has, read, 0, nil, false)
	case model.OpGetItem:
		add("table", tpk, p.Key[tpk], true, units.Read, units.Write, p.Key, true)
	case model.OpBatchGetItem, model.OpTransactGetItems:
		// The response gives one figure for the batch: each key takes its part.
		n := float64(max(len(p.Keys), 1))
		for _, k := range p.Keys {
			add("table", tpk, k[tpk], true, units.Read/n, 0, k, true)
		}
	default:
		// A write that failed its condition: billed on the keys it named.
		keys := writeKeys(p)
		n := float64(max(len(keys), 1))
		for _, k := range keys {
			v, has := k[tpk]
			add("table", tpk, v, has, 0, units.Write/n, k, true)
		}
	}
	return out
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

// splitForHeat decides whether the per-partition limit applies per item for a
// single-item request on item it under key ki of pool (the load model above): it
// returns the items the hottest key value holds (0 when it does not apply) and why.
func (r *Report) splitForHeat(d *model.Design, ks *KeySpace, pool string, ki KeyInfo, it model.Item) (float64, string) {
	sortAttr := d.Table.Key.Sort
	if pool != "table" {
		ix, _ := d.Table.IndexByName(pool)
		sortAttr = ix.Key.Sort
	}
	sc := SplitCase{SortKey: sortAttr != "", LSI: pool == "table" && len(r.local) > 0}
	if s := SplitFor(sc); !s.Can {
		return 0, s.Why
	}
	e := entityOfItem(d, it)
	if e == nil {
		return 0, ""
	}
	tpl, ok := e.Keys[sortAttr]
	if !ok {
		return 0, ""
	}
	vars := model.TemplateVars(tpl)
	sc.OneItem = len(vars) == 0
	sc.Monotonic = sc.OneItem == false && ks.Var(e, vars[0]).Kind == VarPeriod
	if s := SplitFor(sc); !s.Can {
		return 0, s.Why
	}
	n := ks.ItemsPerValue(ki, e)
	if n < 2 {
		return 0, "how many items each key value holds is unknown"
	}
	return n, fmt.Sprintf("split for heat: %s items per key value, sort key %s is neither constant nor time-ordered, no LSI: the limit applies per item", numfmt.Int(int64(math.Round(n))), tpl)
}

func entityOfItem(d *model.Design, it model.Item) *model.Entity {
	if v, ok := it[d.TypeAttr()]; ok && v.Type == model.TypeS {
		return d.EntityByName(v.Str)
	}
	return nil
}

// sumLoads groups contributions by (pool, key shape) and applies the limits.
func sumLoads(cs []contribution) []KeyLoad {
	type group struct {
		KeyLoad
		whole        [2]float64 // hottest value, every request
		unsplit      [2]float64 // hottest value, requests that cannot split
		perItem      [2]float64 // hottest item, requests that split for heat
		known        bool       // some contribution's spread is known
		splittable   bool
		unsplittable bool
		split        string
		noSplit      string
		dominant     float64 // the hottest load of the contribution that describes the key
		mean         [2]float64
		meanUnknown  bool
	}
	var order []string
	groups := map[string]*group{}
	for _, c := range cs {
		id := c.pool + "\x00" + c.key.Shape
		g := groups[id]
		if g == nil {
			g = &group{KeyLoad: KeyLoad{Pool: c.pool, HotKey: HotKey{Value: c.key.Shape, Rule: c.key.Kind,
				Partitions: c.key.Values, Because: c.key.Because, Spread: c.spread}}}
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
		hr, hw := c.read*c.share, c.write*c.share
		if c.items > 0 {
			g.splittable, g.split = true, c.split
			g.perItem[0] += hr / c.items
			g.perItem[1] += hw / c.items
		} else if !c.unknown {
			g.unsplittable = true
			g.unsplit[0] += hr
			g.unsplit[1] += hw
			if c.split != "" {
				g.noSplit = c.split
			}
		}
		g.whole[0] += hr
		g.whole[1] += hw
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
		limRead, limWrite := k.Read, k.Write
		switch {
		case g.splittable && !g.unsplittable:
			k.SplitForHeat, k.ItemRead, k.ItemWrite = g.split, g.perItem[0], g.perItem[1]
			limRead, limWrite = k.ItemRead, k.ItemWrite
		case g.splittable:
			// The requests that touch one item each spread by sort key; the others
			// (a Query's range, a constant sort key) stay on the partition they hit,
			// so the hottest partition takes theirs whole and the hottest item's share.
			k.SplitForHeat, k.SplitPartly = g.split+"; the requests that cannot split add their load in full", true
			k.ItemRead, k.ItemWrite = g.unsplit[0]+g.perItem[0], g.unsplit[1]+g.perItem[1]
			limRead, limWrite = k.ItemRead, k.ItemWrite
		}
		if k.Unknown {
			k.Read, k.Write, limRead, limWrite = 0, 0, 0, 0
		}
		k.Exceeds = OverLimits(limRead, limWrite)
		k.Shards = Shards(limRead, limWrite)
		k.ThrottlesTable = k.Pool != "table" && limWrite > PartitionWriteLimit
		out = append(out, k)
	}
	return out
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
	return a.Exceeds && !b.Exceeds || a.Exceeds == b.Exceeds && heat(a.HotKey) > heat(b.HotKey)
}

// Assumed says, in one line, what the key's figures rest on: how its values were
// counted, how the hottest value's share was found, and split for heat where it
// applies. cost's text and the review's findings print it beside the figures.
func (k HotKey) Assumed() string {
	var parts []string
	for _, s := range []string{k.Because, k.Spread, k.SplitForHeat} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "; ")
}

// Heat is the hottest key value's load (the hottest item's, split for heat) as a
// share of a partition's limits: 1 is at the limit.
func (k HotKey) Heat() float64 { return heat(k) }

func heat(k HotKey) float64 {
	r, w := k.Read, k.Write
	if k.SplitForHeat != "" {
		r, w = k.ItemRead, k.ItemWrite
	}
	return heatOf(r, w)
}

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
