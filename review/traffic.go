// The rules about traffic and item collections: how the design's load spreads over
// partition key values and provisioned capacity (hot-partition, under-provisioned,
// low-cardinality-key), how item collections grow (unbounded-partition,
// lsi-collection-limit) and what a page of a Query holds (page-overflow).

package review

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"stwb/cost"
	"stwb/engine"
	"stwb/model"
)

// collection is the entities whose table partition key template is the same, so
// their items share item collections (CUST#{customerId} for a customer and her
// order pointers).
type collection struct {
	template string // the partition key template, variables written {}
	vars     []string
	entities []*model.Entity
	key      cost.KeyInfo // what cost's KeySpace knows of the key's values
}

var templateVar = regexp.MustCompile(`\{[^{}]*\}`)

func (c *checker) collections() []*collection {
	pk := c.d.Table.Key.Partition
	byShape := map[string]*collection{}
	var out []*collection
	for i := range c.d.Entities {
		e := &c.d.Entities[i]
		tmpl, ok := e.Keys[pk]
		if !ok {
			continue
		}
		shape := templateVar.ReplaceAllString(tmpl, "{}")
		col := byShape[shape]
		if col == nil {
			col = &collection{template: shape, vars: model.TemplateVars(tmpl), key: c.keys().TemplateKey(pk, tmpl)}
			byShape[shape] = col
			out = append(out, col)
		}
		col.entities = append(col.entities, e)
	}
	return out
}

// perCollection is how many items and bytes one partition key value of the
// collection holds in production: each entity's count over the key's values, as
// cost's KeySpace counts them (ItemsPerValue). known is false when that cannot be
// said (no count, an unknown number of values, or a period whose number of past
// values nobody gives).
func (c *checker) perCollection(col *collection, withLSIs bool) (items, bytes float64, known bool) {
	for _, e := range col.entities {
		if c.count(e) <= 0 {
			continue
		}
		n := c.keys().ItemsPerValue(col.key, e)
		if n <= 0 {
			return 0, 0, false
		}
		items += n
		if c.in.Cost != nil {
			for _, es := range c.in.Cost.Storage.Entities {
				if es.Name != e.Name || es.Count == 0 {
					continue
				}
				per := float64(es.Bytes) / float64(es.Count)
				if withLSIs {
					for name, line := range es.Indexes {
						if ix, ok := c.d.Table.IndexByName(name); ok && ix.Local && line.Items > 0 {
							per += float64(line.Bytes) / float64(es.Count)
						}
					}
				}
				bytes += n * per
			}
		} else {
			bytes += n * (c.avgSize[e.Name] + 100)
		}
	}
	return items, bytes, items > 0
}

// collectionAssumed says what a collection's size rests on: how its key values were
// counted, and each entity's count over them.
func (c *checker) collectionAssumed(col *collection) string {
	parts := []string{col.key.Because}
	for _, e := range col.entities {
		if n := c.keys().ItemsPerValue(col.key, e); n > 0 {
			parts = append(parts, fmt.Sprintf("%s: %s items over the key's values, about %s each", e.Name, fmtInt(c.count(e)), fmtInt(int64(math.Round(n)))))
		}
	}
	return joinAssumed(parts...)
}

const collectionLimit = 10e9 // 10 GB per item collection on a table with an LSI (LSI.html)

func checkLSICollectionLimit(c *checker) {
	var lsi string
	for _, ix := range c.d.Table.Indexes {
		if ix.Local {
			lsi = ix.Name
			break
		}
	}
	if lsi == "" {
		return
	}
	for _, col := range c.collections() {
		_, bytes, known := c.perCollection(col, true)
		if !known || bytes <= collectionLimit {
			continue
		}
		names := entityNames(col.entities)
		c.add(Finding{Index: lsi, Entity: col.entities[0].Name,
			Message: fmt.Sprintf("an item collection under %s (%s) holds about %.1f GB by the entity counts; with LSI %s on the table, DynamoDB refuses writes to a collection past 10 GB",
				col.template, names, bytes/1e9, lsi),
			Assumed: c.collectionAssumed(col),
			Fix:     "bound the partition by composing its key with a period (CUST#42#2026-08), or replace the LSI with a GSI, which has no collection limit"})
	}
}

func entityNames(es []*model.Entity) string {
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = e.Name
	}
	return strings.Join(names, ", ")
}

// awsPartitionKeys is the AWS guide page the per-key rules rest on.
const awsPartitionKeys = "bp-partition-key-design.html; burst-adaptive-capacity.html \"Isolate frequently accessed items\"; GSI.html"

// checkHotPartition reads the load per key summed over every pattern (cost's load
// model): the hottest value of a key over 3,000 RCU or 1,000 WCU a second, which
// no split for heat brings under them, is an error, with the figure and what was
// assumed.
func checkHotPartition(c *checker) {
	if c.in.Cost == nil {
		return
	}
	for _, k := range c.in.Cost.Keys {
		if !k.Exceeds {
			continue
		}
		msg := hotMessage(k)
		if item := hotItemText(k); item != "" {
			msg += "; " + item
		}
		if k.SplitForHeat != "" && cost.OverLimits(k.ItemRead, k.ItemWrite) {
			msg += fmt.Sprintf("; even split for heat leaves %s RCU and %s WCU on its hottest partition", fmtNum(k.ItemRead), fmtNum(k.ItemWrite))
		}
		if k.ThrottlesTable {
			msg += "; a GSI that cannot absorb its writes throttles writes to the base table"
		}
		c.add(Finding{Pattern: k.Patterns[0], Index: poolIndex(k), Message: msg, Assumed: k.Assumed(),
			Source: c.rule.Source + "; " + awsPartitionKeys,
			Fix:    c.hotFix(k)})
	}
}

// checkHotUntilSplit: a key value over the limits that only split for heat would
// bring under them throttles until DynamoDB splits it, after minutes of sustained
// throttling, and the split is not guaranteed (burst-adaptive-capacity.html:
// adaptive capacity "might" isolate items); the guide's answer for such a key is
// write sharding (bp-write-sharding.html).
func checkHotUntilSplit(c *checker) {
	if c.in.Cost == nil {
		return
	}
	for _, k := range c.in.Cost.Keys {
		if !k.NeedsSplit {
			continue
		}
		msg := hotMessage(k) + fmt.Sprintf("; only split for heat brings it under them (its hottest partition after the split: %s RCU and %s WCU): the key throttles until DynamoDB splits it after minutes of sustained throttling, the split is not guaranteed, and it never divides one item, never happens with an LSI, nor on a provisioned table with Streams",
			fmtNum(k.ItemRead), fmtNum(k.ItemWrite))
		if k.ThrottlesTable {
			msg += "; until then a GSI that cannot absorb its writes throttles writes to the base table"
		}
		c.add(Finding{Pattern: k.Patterns[0], Index: poolIndex(k), Message: msg, Assumed: k.Assumed(),
			Source: c.rule.Source + "; " + awsPartitionKeys + "; bp-write-sharding.html",
			Fix:    c.hotFix(k)})
	}
}

func poolIndex(k cost.KeyLoad) string {
	if k.Pool == "table" {
		return ""
	}
	return k.Pool
}

// hotMessage is the figure of a hot key value: its whole load, which its partition
// takes until any split, beside the mean.
func hotMessage(k cost.KeyLoad) string {
	where := "the table's"
	if k.Pool != "table" {
		where = "index " + k.Pool + "'s"
	}
	least := ""
	if k.AtLeast {
		least = "at least "
	}
	mean := fmt.Sprintf("mean %s RCU and %s WCU over %s", fmtNum(k.MeanRead), fmtNum(k.MeanWrite), valuesText(k.HotKey))
	if k.Partitions == 0 {
		mean = "the mean unknown: an unknown number of values"
	}
	return fmt.Sprintf("%s put %s%s RCU and %s WCU a second on the hottest partition key value of %s key %s (%s); one partition key value serves at most 3,000 RCU and 1,000 WCU",
		patternList(k.Patterns), least, fmtNum(k.Read), fmtNum(k.Write), where, strconv.Quote(k.Value), mean)
}

// hotItemText names the hottest item when it alone is over the limits: an item
// isolated on a partition of its own still gets no more
// (burst-adaptive-capacity.html, "Isolate frequently accessed items").
func hotItemText(k cost.KeyLoad) string {
	if k.HotItem == "" || !cost.OverLimits(k.HotItemRead, k.HotItemWrite) {
		return ""
	}
	return fmt.Sprintf("%s RCU and %s WCU of it on one item, %s, which no split divides (an item isolated on its own partition still gets at most 3,000 RCU and 1,000 WCU)",
		fmtNum(k.HotItemRead), fmtNum(k.HotItemWrite), strconv.Quote(k.HotItem))
}

// hotFix is a hot key's fix, by the kind of load that is over: for reads, what
// takes reads off the partition (eventually consistent reads, copies each read
// goes to one of, a cache), since a read that fans out to every write shard puts
// its whole rate on each; for writes, write sharding with the read fan-out it
// costs (cost.Shards, cost.KeyLoad.ShardReads). Each remedy is sized so that,
// applied, the key is under the limits; one that would not be is not offered.
func (c *checker) hotFix(k cost.KeyLoad) string {
	var fixes []string
	readOver := k.Read > cost.PartitionReadLimit
	writeOver := k.Write > cost.PartitionWriteLimit
	if readOver {
		fixes = append(fixes, c.readFixes(k)...)
	}
	if writeOver {
		fixes = append(fixes, shardFix(k))
	}
	if len(fixes) == 0 {
		fixes = append(fixes, shardFix(k))
	}
	return strings.Join(fixes, "; or ")
}

// readFixes are the remedies for a key whose reads are over 3,000 RCU.
func (c *checker) readFixes(k cost.KeyLoad) []string {
	var out []string
	// Eventually consistent reads take half the units of strongly consistent ones
	// (read-write-operations.html "Read consumption").
	var strong []string
	half := 0.0
	for _, pl := range k.ByPattern {
		if p := c.patternByID(pl.Pattern); p != nil && p.Consistent && pl.Read > 0 {
			strong = append(strong, strconv.Itoa(pl.Pattern))
			half += pl.Read / 2
		}
	}
	if len(strong) > 0 {
		after := k.Read - half
		if after <= cost.PartitionReadLimit && k.Write <= cost.PartitionWriteLimit {
			out = append(out, fmt.Sprintf("read eventually consistent (consistent: false on pattern %s): half the read units, %s RCU a second instead of %s, under the 3,000 limit",
				strings.Join(strong, ", "), fmtNum(after), fmtNum(k.Read)))
		} else {
			out = append(out, fmt.Sprintf("read eventually consistent (consistent: false on pattern %s) takes the key from %s to %s RCU a second, not enough alone; with it",
				strings.Join(strong, ", "), fmtNum(k.Read), fmtNum(after)))
		}
	}
	// N copies of the key, each read going to one at random: each copy takes
	// 1/N of the reads and every write (each write goes to every copy).
	if k.Write <= cost.PartitionWriteLimit {
		n := cost.Shards(k.Read, 0)
		var readers []string
		for _, pl := range k.ByPattern {
			if pl.Read > 0 {
				readers = append(readers, strconv.Itoa(pl.Pattern))
			}
		}
		out = append(out, fmt.Sprintf("keep %s of the key's items under suffixed keys (#0..#%d) and send each read to one at random (partitions: %d on pattern %s): each copy takes %s RCU a second = %s RCU / %d, sized to 80%% of a partition's limits; each write then goes to every copy, %d x the write units (%s WCU a second in all, %s on each copy)",
			plural(n, "copy", "copies"), n-1, n, strings.Join(readers, ", "), fmtNum(k.Read/float64(n)), fmtNum(k.Read), n, n, fmtNum(k.Write*float64(n)), fmtNum(k.Write)))
	}
	out = append(out, "put a cache (DAX, or one in the application) in front of the reads of this key, so that repeated reads of the same items do not reach its partition")
	if len(out) > 1 && strings.HasSuffix(out[0], "with it") {
		out = append([]string{out[0] + " " + out[1]}, out[2:]...)
	}
	return out
}

func (c *checker) patternByID(id int) *model.Pattern {
	for i := range c.d.Patterns {
		if c.d.Patterns[i].ID == id {
			return &c.d.Patterns[i]
		}
	}
	return nil
}

// shardFix is a write-hot key's fix: the shards that bring its hottest value under
// the limits with headroom without counting on a split (cost.Shards), and the read
// fan-out they cost each pattern that reads the key (cost.KeyLoad.ShardReads).
func shardFix(k cost.KeyLoad) string {
	formula := fmt.Sprintf("ceil(%s WCU / (1,000 x 0.8))", fmtNum(k.Write))
	if k.Read/cost.PartitionReadLimit > k.Write/cost.PartitionWriteLimit {
		formula = fmt.Sprintf("ceil(%s RCU / (3,000 x 0.8))", fmtNum(k.Read))
	}
	fix := fmt.Sprintf("shard the key: append #0..#%d (a random or hashed suffix) so the writes spread over %s = %s, each sized to 80%% of a partition's limits for headroom; reads of the key then fan out over the shards (fanout: {shard: \"0..%d\"})",
		k.Shards-1, plural(k.Shards, "shard", "shards"), formula, k.Shards-1)
	if len(k.ShardReads) > 0 {
		var each []string
		for _, sr := range k.ShardReads {
			each = append(each, fmt.Sprintf("pattern %d becomes %s a call, %s RCU (now %s)",
				sr.Pattern, plural(sr.Requests, "request", "requests"), fmtNum(sr.Read), fmtNum(sr.Before)))
		}
		fix += ": " + strings.Join(each, "; ")
	}
	return fix + "; or compose the key with something that spreads"
}

func patternList(ids []int) string {
	if len(ids) == 1 {
		return fmt.Sprintf("pattern %d", ids[0])
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.Itoa(id)
	}
	return "patterns " + strings.Join(parts, ", ") + " together"
}

func valuesText(k cost.HotKey) string {
	switch {
	case k.Partitions == 0:
		return "an unknown number of values"
	case k.Partitions == 1:
		return "1 value"
	}
	return fmtInt(k.Partitions) + " values"
}

// checkUnderProvisioned compares each body of provisioned throughput (the table,
// each GSI) with the load of every pattern at its peak, and at the autoscaling
// target where the design sets one. A GSI short of write capacity throttles writes
// to the base table (GSI.html, "Provisioned throughput considerations for global
// secondary indexes"); a table short of its load throttles (ProvisionedThroughput.html).
func checkUnderProvisioned(c *checker) {
	if c.in.Cost == nil || c.d.Table.Billing.Mode != model.Provisioned {
		return
	}
	for _, p := range c.in.Cost.Totals.Pools {
		if !p.Short() {
			continue
		}
		needR, needW := p.Required()
		at := p.SizedAt()
		where, index := "the table", ""
		if p.Name != "table" {
			where, index = "index "+p.Name, p.Name
		}
		msg := fmt.Sprintf("%s is provisioned at %s RCU and %s WCU, but its patterns need %s RCU and %s WCU %s (%s RCU and %s WCU a second at peak)",
			where, fmtInt(p.ConfiguredRead), fmtInt(p.ConfiguredWrite), fmtInt(needR), fmtInt(needW), at, fmtNum(p.Read), fmtNum(p.Write))
		if index != "" && needW > p.ConfiguredWrite {
			msg += "; a GSI short of write capacity throttles writes to the base table"
		}
		c.add(Finding{Index: index, Message: msg, Assumed: c.provisionedAssumed(p),
			Fix: fmt.Sprintf("provision at least %s RCU and %s WCU for %s, or switch to on-demand", fmtInt(max(needR, p.ConfiguredRead)), fmtInt(max(needW, p.ConfiguredWrite)), where)})
	}
}

// joinAssumed joins assumptions with "; ", each clause once (a key's assumptions
// repeat its variables' own).
func joinAssumed(parts ...string) string {
	var out []string
	for _, p := range parts {
		for _, clause := range strings.Split(p, "; ") {
			if clause != "" && !slices.Contains(out, clause) {
				out = append(out, clause)
			}
		}
	}
	return strings.Join(out, "; ")
}

// provisionedAssumed says what an under-provisioned pool's need rests on: where its
// configured figures come from, the utilisation it is sized at, and each pattern's
// load on it at its peak rate (a Query's or Scan's on its production page).
func (c *checker) provisionedAssumed(p cost.Pool) string {
	pool := p.Name
	var parts []string
	if pool != "table" {
		if ix, ok := c.d.Table.IndexByName(pool); ok {
			b := c.d.Table.Billing
			if ix.Read == 0 {
				parts = append(parts, fmt.Sprintf("%s gives no read of its own: the table's %s RCU", pool, fmtInt(b.Read)))
			}
			if ix.Write == 0 {
				parts = append(parts, fmt.Sprintf("%s gives no write of its own: the table's %s WCU", pool, fmtInt(b.Write)))
			}
		}
	}
	if p.ReadTarget > 0 || p.WriteTarget > 0 {
		parts = append(parts, "capacity = load / "+strings.TrimPrefix(p.SizedAt(), "at ")+", rounded up")
	} else {
		parts = append(parts, "capacity = load at 100% utilisation, rounded up (no autoscaling target)")
	}
	var loads []string
	for _, pc := range c.in.Cost.Patterns {
		u := pc.PerSecond.Table
		if pool != "table" {
			u = pc.PerSecond.Indexes[pool]
		}
		if u.Read == 0 && u.Write == 0 {
			continue
		}
		l := fmt.Sprintf("pattern %d at %s/s: %s RCU and %s WCU a second", pc.ID, fmtNum(pc.Rate), fmtNum(u.Read), fmtNum(u.Write))
		if pc.Page.Known && u.Read > 0 {
			l += fmt.Sprintf(" (its production page: %s RCU a request", fmtNum(pc.PerRequest.Read))
			if pc.PerRequest.Read != pc.Sample.Read {
				l += fmt.Sprintf(", not the sample's %s", fmtNum(pc.Sample.Read))
			}
			l += ")"
		}
		loads = append(loads, l)
	}
	if len(loads) > 0 {
		parts = append(parts, "every pattern at its peak rate: "+strings.Join(loads, ", "))
	}
	return strings.Join(parts, "; ")
}

func checkLowCardinalityKey(c *checker) {
	writes := c.entityWriteRates()
	// Every partition key: the table's, and each GSI's, of one attribute or of
	// several (a multi-attribute key, GSI.DesignPattern.MultiAttributeKeys.html).
	type partitionKey struct {
		attrs []string
		index string
	}
	keys := []partitionKey{{[]string{c.d.Table.Key.Partition}, ""}}
	for _, ix := range c.d.Table.Indexes {
		if !ix.Local {
			keys = append(keys, partitionKey{ix.Key.Partitions(), ix.Name})
		}
	}
	for _, e := range c.d.Entities {
		rate := writes[e.Name]
		if rate <= 0 {
			continue
		}
		for _, ka := range keys {
			tmpl, shown, ok := c.partitionTemplate(&e, ka.attrs)
			if !ok {
				continue
			}
			why := c.lowCardinality(&e, tmpl)
			if why.what == "" {
				continue
			}
			where := "the table's partition key"
			if ka.index != "" {
				where = "index " + ka.index + "'s partition key"
			}
			sev := Warning
			if rate < lowCardinalityRate {
				sev = Info
			}
			load := ""
			assumed := []string{why.assumed, "the write rate sums " + c.writersOf(e.Name)}
			if hot, spread, ok := c.hottestOn(ka.index, tmpl, len(ka.attrs) > 1); ok {
				if spread {
					continue // every pattern's `partitions` spreads it: a sharded key
				}
				sev = Info
				if hot.Write >= lowCardinalityNear*cost.PartitionWriteLimit || hot.Read >= lowCardinalityNear*cost.PartitionReadLimit {
					sev = Warning
				}
				load = fmt.Sprintf("; its hottest value, %s, takes %s RCU and %s WCU a second, every pattern summed", strconv.Quote(hot.Value), fmtNum(hot.Read), fmtNum(hot.Write))
				assumed = append(assumed, hot.Assumed())
			}
			fix := "compose the key with something that spreads (STATUS#PENDING#2026-08-03, or an entity id), or shard it with a #0..#N suffix chosen from the write rate"
			switch {
			case len(ka.attrs) >= 4: // a side takes at most 4 attributes
				fix = "replace one of the key's few-valued partition attributes with one that spreads (an entity id, or a shard number 0..N chosen from the write rate)"
			case len(ka.attrs) > 1:
				fix = "add an attribute that spreads to the key's partition attributes (an entity id, or a shard number 0..N chosen from the write rate)"
			}
			c.add(Finding{Entity: e.Name, Index: ka.index, Severity: sev,
				Message: fmt.Sprintf("%s %s = %s %s, and %s items are written at %s a second%s", e.Name, where, shown, why.what, e.Name, fmtNum(rate), load),
				Assumed: joinAssumed(assumed...), Fix: fix})
		}
	}
}

// partitionTemplate is entity e's template for the partition key of attributes
// attrs, and the template as the finding shows it; ok is false when e's items do
// not make that key. A multi-attribute key is the tuple of its attributes, read
// as the production model reads it (cost.TupleTemplate: a variable an attribute),
// so its values are the product of its attributes' and it has few values only
// when every attribute has few; it is shown as its attributes joined with " + ".
func (c *checker) partitionTemplate(e *model.Entity, attrs []string) (tmpl, shown string, ok bool) {
	if len(attrs) == 1 {
		tmpl, ok = e.Keys[attrs[0]]
		return tmpl, strconv.Quote(tmpl), ok
	}
	if !c.keys().HoldsAll(e, attrs) {
		return "", "", false
	}
	return cost.TupleTemplate(attrs), "{" + strings.Join(attrs, "} + {") + "}", true
}

// lowCardinalityNear is the share of a partition's limits from which a
// concentrated key's summed load is a warning rather than a note (past the limits
// it is a hot-partition error).
const lowCardinalityNear = 0.5

// hottestOn is the hottest summed load among the cost report's keys of a pool
// (index "" for the table) that a template makes (every key of the pool for a
// multi-attribute key, tuple: the one template its entities share); spread is set
// when every one of them is spread by a pattern's `partitions`. ok is false
// without a report or a key.
func (c *checker) hottestOn(index, tmpl string, tuple bool) (hot cost.HotKey, spread, ok bool) {
	if c.in.Cost == nil {
		return hot, false, false
	}
	pool := "table"
	if index != "" {
		pool = index
	}
	spread = true
	for _, k := range c.in.Cost.Keys {
		if k.Pool != pool || !tuple && !model.MatchTemplate(tmpl, model.Str(k.Value)) {
			continue
		}
		ok = true
		if k.Rule != cost.KeyPattern {
			spread = false
		}
		if k.Heat() > hot.Heat() {
			hot = k.HotKey
		}
	}
	return hot, spread && ok, ok
}

// lowCardinalityRate is the write rate from which a low-cardinality key is a
// warning rather than a note: a tenth of one partition's 1,000 WCU.
const lowCardinalityRate = 100

// fewValues is why a key template has few values (what), and what that rests on
// (assumed): the variables' declared `values` or what their sample values read as.
type fewValues struct{ what, assumed string }

// lowCardinality says why a key template has few values, what "" when it has many:
// from what cost.KeySpace knows of its variables (declared `values`, or read from
// the sample values, never from the variables' names).
func (c *checker) lowCardinality(e *model.Entity, tmpl string) fewValues {
	vars := model.TemplateVars(tmpl)
	if len(vars) == 0 {
		return fewValues{"is a constant: every write lands on one partition key value", "a key template with no variable has one value"}
	}
	var few, period []string
	for _, v := range vars {
		vi := c.keys().Var(e, v)
		switch vi.Kind {
		case cost.VarFew:
			few = append(few, vi.Because)
		case cost.VarPeriod:
			period = append(period, vi.Because)
		default:
			return fewValues{}
		}
	}
	because := strings.Join(append(period, few...), "; ")
	if len(period) > 0 {
		return fewValues{"is keyed on the current period: today's partition takes every write", because}
	}
	return fewValues{"has few values: a handful of partitions take all the traffic", because}
}

// writersOf names the write patterns that put or change an entity's items, with
// their rates, as entityWriteRates sums them.
func (c *checker) writersOf(entity string) string {
	var ws []string
	for i, p := range c.d.Patterns {
		if p.Operation.IsWrite() && c.writes(i, entity) {
			ws = append(ws, fmt.Sprintf("pattern %d at %s/s", p.ID, fmtNum(p.EffectiveRate())))
		}
	}
	return strings.Join(ws, ", ")
}

// entityWriteRates sums, per entity, the rate of the write patterns that put or
// change its items.
func (c *checker) entityWriteRates() map[string]float64 {
	rates := map[string]float64{}
	for i, p := range c.d.Patterns {
		if !p.Operation.IsWrite() {
			continue
		}
		for name := range c.writtenBy(i) {
			rates[name] += p.EffectiveRate()
		}
	}
	return rates
}

// writtenBy is the set of entities whose items write pattern i puts or changes:
// the items its run changed, and the item it puts. A transaction's ConditionCheck
// reads its item and writes nothing (transaction-apis.html), so its item is left out.
func (c *checker) writtenBy(i int) map[string]bool {
	seen := map[string]bool{}
	checked := map[string]bool{}
	for _, a := range c.d.Patterns[i].Actions {
		if a.Kind == model.ActionCheck {
			checked[keyText(c.d, a.Key)] = true
		}
	}
	if r := c.result(i); r != nil {
		for _, ch := range r.Changes {
			if checked[keyText(c.d, ch.Key)] {
				continue
			}
			for _, it := range []model.Item{ch.After, ch.Before} {
				if name := c.entityOf(it); name != "" {
					seen[name] = true
				}
			}
		}
	}
	if name := c.entityOf(c.d.Patterns[i].Item); name != "" {
		seen[name] = true
	}
	return seen
}

func (c *checker) writes(i int, entity string) bool { return c.writtenBy(i)[entity] }

// unboundedItems is the collection size past which a partition "grows without
// bound": ten thousand items or 1 GB under one key value.
const (
	unboundedItems = 10000
	unboundedBytes = 1e9
)

func checkUnboundedPartition(c *checker) {
	for _, col := range c.collections() {
		items, bytes, known := c.perCollection(col, false)
		if !known || items <= unboundedItems && bytes <= unboundedBytes {
			continue
		}
		c.add(Finding{Entity: col.entities[0].Name,
			Message: fmt.Sprintf("each %s partition holds about %s items (%.2f GB) by the entity counts (%s), and grows with them: one key value takes all of that traffic against a per-partition ceiling",
				col.template, fmtInt(int64(items)), bytes/1e9, entityNames(col.entities)),
			Assumed: c.collectionAssumed(col),
			Fix:     "bound the partition by composing its key with a period (CUST#42#2026-08), so recent items are one or two partitions and each partition's size is bounded"})
	}
}

// pageBytes is a Query page's limit: 1 MB of items read (Query.html).
const pageBytes = 1 << 20

var firstNumber = regexp.MustCompile(`[0-9][0-9,]*`)

func checkPageOverflow(c *checker) {
	for i, p := range c.d.Patterns {
		// A pattern with `pages: all` follows LastEvaluatedKey: what the fix asks.
		if p.Operation != model.OpQuery || p.Limit > 0 || p.AllPages {
			continue
		}
		r := c.result(i)
		if r == nil || r.Err != nil {
			continue
		}
		if pg, ok := c.productionPage(i); ok && pg.CappedBy == "1 MB" {
			c.add(Finding{Pattern: p.ID,
				Message: fmt.Sprintf("pattern %d has no Limit, and in production its key holds more than 1 MB: the first page ends at 1 MB with about %s items (%s RCU), then a LastEvaluatedKey",
					p.ID, fmtInt(int64(math.Round(pg.Items))), fmtNum(pg.Units.Read)),
				Assumed: pg.Because,
				Fix:     "set `limit` and follow LastEvaluatedKey; code that reads Items without following it silently truncates"})
			continue
		}
		if moreAfter(r) {
			c.add(Finding{Pattern: p.ID,
				Message: fmt.Sprintf("pattern %d's result passes 1 MB on the sample items: DynamoDB returns a first page of %d items and a LastEvaluatedKey", p.ID, r.Count),
				Fix:     "set `limit` and follow LastEvaluatedKey; code that reads Items without following it silently truncates"})
			continue
		}
		n := expectedCount(p.Cardinality)
		if len(r.Requests) > 0 {
			n /= int64(len(r.Requests)) // a fan-out's requests each read their share
		}
		if n == 0 || len(r.Items) == 0 {
			continue
		}
		avg := 0
		for _, it := range r.Items {
			avg += model.ItemSize(it)
		}
		avg /= len(r.Items)
		if int64(avg)*n > pageBytes {
			c.add(Finding{Pattern: p.ID,
				Message: fmt.Sprintf("pattern %d expects %s items of about %s bytes: %.1f MB, past the 1 MB page, with no Limit", p.ID, fmtInt(n), fmtInt(int64(avg)), float64(int64(avg)*n)/float64(pageBytes)),
				Fix:     "set `limit` and follow LastEvaluatedKey; code that reads Items without following it silently truncates"})
		}
	}
}

// productionPage is the page the cost report sized for pattern i in production;
// ok is false when there is no report or the page could not be sized.
func (c *checker) productionPage(i int) (cost.Page, bool) {
	if c.in.Cost == nil {
		return cost.Page{}, false
	}
	for _, pc := range c.in.Cost.Patterns {
		if pc.Index == i {
			return pc.Page, pc.Page.Known
		}
	}
	return cost.Page{}, false
}

// expectedCount reads the largest figure in a cardinality such as "0..n, ~200",
// "up to 5,000"; 0 when it gives none.
func expectedCount(card string) int64 {
	var best int64
	for _, m := range firstNumber.FindAllString(card, -1) {
		n, err := strconv.ParseInt(strings.ReplaceAll(m, ",", ""), 10, 64)
		if err == nil && n > best {
			best = n
		}
	}
	return best
}

// moreAfter reports whether a Query's result ends with a LastEvaluatedKey: its own,
// or for a fan-out (engine.RunFanout) any of its requests'.
func moreAfter(r *engine.Result) bool {
	if r.LastEvaluatedKey != nil {
		return true
	}
	for _, sub := range r.Requests {
		if sub.LastEvaluatedKey != nil {
			return true
		}
	}
	return false
}

// pagesOf are the pages a result read: a fan-out's are its requests', in order.
func pagesOf(r *engine.Result) []engine.Page {
	if len(r.Requests) == 0 {
		return r.Pages
	}
	var out []engine.Page
	for _, sub := range r.Requests {
		out = append(out, sub.Pages...)
	}
	return out
}
