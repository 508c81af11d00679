package review

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"stwb/cost"
	"stwb/model"
)

// collection is the entities whose table partition key template is the same, so
// their items share item collections (CUST#{customerId} for a customer and her
// order pointers).
type collection struct {
	template string // the partition key template, variables written {}
	vars     []string
	entities []*model.Entity
	owners   int64 // partition key values: the smallest count among the entities
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
			col = &collection{template: shape, vars: model.TemplateVars(tmpl)}
			byShape[shape] = col
			out = append(out, col)
		}
		col.entities = append(col.entities, e)
	}
	for _, col := range out {
		col.owners = c.owners(col)
	}
	return out
}

// owners is how many partition key values a collection has, by the same rule cost
// uses for hot partitions (cost.PartitionCount). A constant key is one partition.
func (c *checker) owners(col *collection) int64 {
	if len(col.vars) == 0 {
		return 1
	}
	return max(cost.PartitionCount(c.d, c.d.Table.Key.Partition, col.entities, c.count), 1)
}

// perCollection is how many items and bytes one partition key value of the
// collection holds: each entity's production count spread over the owners.
func (c *checker) perCollection(col *collection, withLSIs bool) (items float64, bytes float64) {
	for _, e := range col.entities {
		n := float64(c.count(e)) / float64(col.owners)
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
	return items, bytes
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
		_, bytes := c.perCollection(col, true)
		if bytes <= collectionLimit {
			continue
		}
		names := entityNames(col.entities)
		c.add(Finding{Index: lsi, Entity: col.entities[0].Name,
			Message: fmt.Sprintf("an item collection under %s (%s) holds about %.1f GB by the entity counts; with LSI %s on the table, DynamoDB refuses writes to a collection past 10 GB",
				col.template, names, bytes/1e9, lsi),
			Fix: "bound the partition by composing its key with a period (CUST#42#2026-08), or replace the LSI with a GSI, which has no collection limit"})
	}
}

func entityNames(es []*model.Entity) string {
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = e.Name
	}
	return strings.Join(names, ", ")
}

func checkHotPartition(c *checker) {
	if c.in.Cost == nil {
		return
	}
	for _, pc := range c.in.Cost.Patterns {
		h := pc.Hot
		report := func(where, index string, k cost.HotKey) {
			if !k.Exceeds {
				return
			}
			what := fmt.Sprintf("%s RCU and %s WCU per second", fmtNum(k.Read), fmtNum(k.Write))
			msg := fmt.Sprintf("pattern %d puts %s on one %s partition key value%s (over %s partition key %s); one partition serves at most 3,000 RCU and 1,000 WCU",
				pc.ID, what, where, valueNote(k.Value), plural(k.Partitions, "value", "values"), partitionRule(k.Rule))
			if k.ThrottlesTable {
				msg += "; a GSI that cannot absorb its writes throttles writes to the base table"
			}
			c.add(Finding{Pattern: pc.ID, Index: index, Message: msg,
				Fix: fmt.Sprintf("shard the key: append #0..#%d (a random or hashed suffix) so the writes spread over %s, and fan reads out over the shards", k.Shards-1, plural(k.Shards, "shard", "shards"))})
		}
		report("table", "", h.Table)
		for _, name := range h.Order {
			report("index "+name, name, h.Indexes[name])
		}
	}
}

func valueNote(v string) string {
	if v == "" {
		return ""
	}
	return " " + strconv.Quote(v)
}

func partitionRule(rule string) string {
	switch rule {
	case cost.RulePattern:
		return "as the pattern's `partitions` says"
	case cost.RuleEntity:
		return "by its entity's count"
	}
	return "as the key is a constant"
}

// Variable names that hold few distinct values, or the current period.
var (
	fewValues = regexp.MustCompile(`(?i)^(status|state|type|kind|category|region|country|flag|active|enabled|level|tier|priority|stage|gender|bool.*|is[A-Z].*)$`)
	period    = regexp.MustCompile(`(?i)^(day|date|month|year|hour|week|minute|today|period|(created|placed|updated)?(day|date))$`)
	shardVar  = regexp.MustCompile(`(?i)shard|bucket|suffix|partition`)
)

func checkLowCardinalityKey(c *checker) {
	writes := c.entityWriteRates()
	keyAttrs := []struct{ attr, index string }{{c.d.Table.Key.Partition, ""}}
	for _, ix := range c.d.Table.Indexes {
		if !ix.Local {
			keyAttrs = append(keyAttrs, struct{ attr, index string }{ix.Key.Partition, ix.Name})
		}
	}
	for _, e := range c.d.Entities {
		rate := writes[e.Name]
		if rate <= 0 {
			continue
		}
		for _, ka := range keyAttrs {
			tmpl, ok := e.Keys[ka.attr]
			if !ok {
				continue
			}
			why := lowCardinality(model.TemplateVars(tmpl))
			if why == "" {
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
			c.add(Finding{Entity: e.Name, Index: ka.index, Severity: sev,
				Message: fmt.Sprintf("%s %s = %q %s, and %s items are written at %s a second", e.Name, where, tmpl, why, e.Name, fmtNum(rate)),
				Fix:     "compose the key with something that spreads (STATUS#PENDING#2026-08-03, or an entity id), or shard it with a #0..#N suffix chosen from the write rate"})
		}
	}
}

// lowCardinalityRate is the write rate from which a low-cardinality key is a
// warning rather than a note: a tenth of one partition's 1,000 WCU.
const lowCardinalityRate = 100

// lowCardinality says why a key template has few values, "" when it has many.
func lowCardinality(vars []string) string {
	if len(vars) == 0 {
		return "is a constant: every write lands on one partition key value"
	}
	allFew, allPeriod := true, true
	for _, v := range vars {
		if shardVar.MatchString(v) {
			return ""
		}
		if !fewValues.MatchString(v) {
			allFew = false
		}
		if !period.MatchString(v) {
			allPeriod = false
		}
	}
	switch {
	case allFew:
		return "has few values (" + strings.Join(vars, ", ") + "): a handful of partitions take all the traffic"
	case allPeriod:
		return "is keyed on the current period (" + strings.Join(vars, ", ") + "): today's partition takes every write"
	}
	return ""
}

// entityWriteRates sums, per entity, the rate of the write patterns that put or
// change its items.
func (c *checker) entityWriteRates() map[string]float64 {
	rates := map[string]float64{}
	for i, p := range c.d.Patterns {
		if !p.Operation.IsWrite() {
			continue
		}
		seen := map[string]bool{}
		if r := c.result(i); r != nil {
			for _, ch := range r.Changes {
				for _, it := range []model.Item{ch.After, ch.Before} {
					if name := c.entityOf(it); name != "" && !seen[name] {
						seen[name] = true
						rates[name] += p.EffectiveRate()
					}
				}
			}
		}
		if name := c.entityOf(p.Item); name != "" && !seen[name] {
			rates[name] += p.EffectiveRate()
		}
	}
	return rates
}

// unboundedItems is the collection size past which a partition "grows without
// bound": ten thousand items or 1 GB under one key value.
const (
	unboundedItems = 10000
	unboundedBytes = 1e9
)

func checkUnboundedPartition(c *checker) {
	for _, col := range c.collections() {
		items, bytes := c.perCollection(col, false)
		if items <= unboundedItems && bytes <= unboundedBytes {
			continue
		}
		for _, v := range col.vars {
			if period.MatchString(v) {
				items = 0 // already bounded by a period
			}
		}
		if items == 0 {
			continue
		}
		c.add(Finding{Entity: col.entities[0].Name,
			Message: fmt.Sprintf("each %s partition holds about %s items (%.2f GB) by the entity counts (%s), and grows with them: one key value takes all of that traffic against a per-partition ceiling",
				col.template, fmtInt(int64(items)), bytes/1e9, entityNames(col.entities)),
			Fix: "bound the partition by composing its key with a period (CUST#42#2026-08), so recent items are one or two partitions and each partition's size is bounded"})
	}
}

// pageBytes is a Query page's limit: 1 MB of items read (Query.html).
const pageBytes = 1 << 20

var firstNumber = regexp.MustCompile(`[0-9][0-9,]*`)

func checkPageOverflow(c *checker) {
	for i, p := range c.d.Patterns {
		if p.Operation != model.OpQuery || p.Limit > 0 {
			continue
		}
		r := c.result(i)
		if r == nil || r.Err != nil {
			continue
		}
		if r.LastEvaluatedKey != nil {
			c.add(Finding{Pattern: p.ID,
				Message: fmt.Sprintf("pattern %d's result passes 1 MB on the sample items: DynamoDB returns a first page of %d items and a LastEvaluatedKey", p.ID, r.Count),
				Fix:     "set `limit` and follow LastEvaluatedKey; code that reads Items without following it silently truncates"})
			continue
		}
		n := expectedCount(p.Cardinality)
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
