package review

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"stwb/model"
)

// synthetic-key: a GSI keyed on attributes that only concatenate the item's own
// attributes (GSI1PK = TOURNAMENT#{tournamentId}#REGION#{region}). Since November
// 2025 a GSI's partition and sort key may each be up to four of the items' own
// attributes (GSI.DesignPattern.MultiAttributeKeys.html): "no concatenation, no
// parsing, no backfilling", each attribute keeping its type. Such an index drops
// the synthetic attributes from every item and every index entry that holds them;
// the finding gives the bytes that saves per item and the write units each write
// of it saves, from the entity's sample items.
//
// The rule holds back where a multi-attribute key cannot replace the synthetic
// one: an index another entity writes other templates into (an overloaded index
// keys several entity types on one attribute), a template with no variable, more
// than four variables on a side, a variable the items do not hold, or one used on
// both sides.

// syntheticSide is one side of an index's key as an entity builds it.
type syntheticSide struct {
	attr string   // the synthetic attribute (GSI1PK)
	tpl  string   // its template
	vars []string // the item's own attributes it concatenates, in order
}

func checkSyntheticKey(c *checker) {
	for _, ix := range c.d.Table.Indexes {
		if ix.Local || ix.Key.Multi() {
			continue
		}
		e, sides, ok := c.syntheticKeyOf(ix)
		if !ok {
			continue
		}
		c.syntheticFinding(ix, e, sides)
	}
}

// syntheticKeyOf finds the one entity that builds index ix's key from templates of
// its own attributes, and how; ok is false when none does, or more than one
// entity writes the index's key attributes.
func (c *checker) syntheticKeyOf(ix model.Index) (*model.Entity, []syntheticSide, bool) {
	var owner *model.Entity
	for i := range c.d.Entities {
		e := &c.d.Entities[i]
		for _, a := range ix.Key.Attributes() {
			if _, ok := e.Keys[a]; ok {
				if owner != nil && owner != e {
					return nil, nil, false // an overloaded index
				}
				owner = e
			}
		}
	}
	if owner == nil || len(c.byEntity[owner.Name]) == 0 {
		return nil, nil, false
	}
	var sides []syntheticSide
	used := map[string]bool{}
	for _, a := range ix.Key.Attributes() {
		tpl, ok := owner.Keys[a]
		if !ok {
			return nil, nil, false
		}
		vars := model.TemplateVars(tpl)
		if len(vars) == 0 || len(vars) > model.MaxKeyAttributes {
			return nil, nil, false
		}
		for _, v := range vars {
			if used[v] || !c.entityHolds(owner, v) {
				return nil, nil, false
			}
			used[v] = true
		}
		sides = append(sides, syntheticSide{attr: a, tpl: tpl, vars: vars})
	}
	return owner, sides, true
}

// entityHolds reports whether e's items carry attribute a: the entity declares
// it, or every sample item holds it.
func (c *checker) entityHolds(e *model.Entity, a string) bool {
	if slices.ContainsFunc(e.Attributes, func(ea model.EntityAttribute) bool { return ea.Name == a }) {
		return true
	}
	col := model.ColumnOf(c.items, a)
	for _, i := range c.byEntity[e.Name] {
		if _, ok := col(i); !ok {
			return false
		}
	}
	return true
}

// withVars is an item with the variables its synthetic keys hold: a summary of an
// item (analysis keeps its key attributes) lacks them, and they are read back
// from the keys, typed as the entity declares them.
func withVars(e *model.Entity, it model.Item, sides []syntheticSide) model.Item {
	out := maps.Clone(it)
	for _, s := range sides {
		kv, ok := it[s.attr]
		if !ok {
			continue
		}
		vals, ok := model.ExtractTemplate(s.tpl, kv)
		if !ok {
			continue
		}
		for _, name := range s.vars {
			if _, has := out[name]; has {
				continue
			}
			if text, ok := vals[name]; ok {
				out[name] = model.Str(text)
				for _, ea := range e.Attributes {
					if ea.Name == name && ea.Type == model.TypeN {
						out[name] = model.Num(text)
					}
				}
			}
		}
	}
	return out
}

func (c *checker) syntheticFinding(ix model.Index, e *model.Entity, sides []syntheticSide) {
	multi := ix
	var parts, sorts, synth []string
	for i, s := range sides {
		synth = append(synth, s.attr)
		if i == 0 {
			parts = s.vars
		} else {
			sorts = s.vars
		}
	}
	multi.Key = model.NewKeySchema(parts, sorts)
	withMulti := c.d.Table
	withMulti.Indexes = slices.Clone(c.d.Table.Indexes)
	for i := range withMulti.Indexes {
		if withMulti.Indexes[i].Name == ix.Name {
			withMulti.Indexes[i] = multi
		}
	}
	// Per sample item: its bytes stored (the item and each index entry), and the
	// write units one put of it costs (the table's and each index's), before and
	// after the synthetic attributes go.
	var bytesSaved, unitsSaved float64
	// The average over the entity's first syntheticSamples samples: the figure is
	// per item, and a design of 100,000 items spent half a second of stwb check
	// here when every sample was sized (docs/performance.md).
	samples := c.byEntity[e.Name]
	if len(samples) > syntheticSamples {
		samples = samples[:syntheticSamples]
	}
	for _, i := range samples {
		it := withVars(e, c.items.Item(i), sides)
		lean := maps.Clone(it)
		leanSize := c.sizes[i]
		for _, a := range synth {
			if v, ok := it[a]; ok {
				leanSize -= model.AttributeSize(a, v)
				delete(lean, a)
			}
		}
		b0, u0 := storedAndWritten(&c.d.Table, it, c.sizes[i])
		b1, u1 := storedAndWritten(&withMulti, lean, leanSize)
		bytesSaved += float64(b0 - b1)
		unitsSaved += u0 - u1
	}
	n := float64(len(samples))
	bytesSaved, unitsSaved = bytesSaved/n, unitsSaved/n
	var was, keyed []string
	for _, s := range sides {
		was = append(was, fmt.Sprintf("%s = %q", s.attr, s.tpl))
	}
	keyed = append(keyed, "partition: "+keyList(parts))
	if len(sorts) > 0 {
		keyed = append(keyed, "sort: "+keyList(sorts))
	}
	storage := ""
	if cnt := c.count(e); cnt > 0 {
		total, unit := bytesSaved*float64(cnt), "bytes"
		for _, u := range []string{"KB", "MB", "GB", "TB"} {
			if total < 1000 {
				break
			}
			total, unit = total/1000, u
		}
		storage = fmt.Sprintf(" (%s %s over %s %s items)", fmtNum(total), unit, fmtInt(cnt), e.Name)
	}
	c.add(Finding{Entity: e.Name, Index: ix.Name,
		Message: fmt.Sprintf("index %s's key (%s) only concatenates %s's own attributes %s: a multi-attribute key would index them as they are and drop %s from every %s item, saving %s bytes stored per item%s and %s write units per put",
			ix.Name, strings.Join(was, ", "), e.Name, strings.Join(append(slices.Clone(parts), sorts...), ", "), strings.Join(synth, " and "), e.Name,
			fmtNum(math.Round(bytesSaved)), storage, fmtNum(unitsSaved)),
		Assumed: fmt.Sprintf("the average of %s; bytes are the item's and each index entry's; a put's write units are the table's and each index's, each rounded up to 1 KB", plural(int64(len(samples)), e.Name+" sample", e.Name+" samples")),
		Fix: fmt.Sprintf("key %s on {%s}, declare each attribute's type in table.attributes (a number sorts as a number, with no zero-padding), stop writing %s, and query with = on each partition attribute and the sort attributes from the left",
			ix.Name, strings.Join(keyed, ", "), strings.Join(synth, " and "))})
}

// syntheticSamples bounds how many sample items the savings are averaged over.
const syntheticSamples = 1000

func keyList(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return "[" + strings.Join(names, ", ") + "]"
}

// storedAndWritten is the bytes an item of the given size stores in table t (the
// item and its entry in each index that holds it) and the write units a put of it
// costs (ceil(size/1 KB) on the table and on each of those indexes; GSI.html
// "Provisioned throughput considerations": a write to the table writes each index
// that holds the item). it holds at least the item's key attributes.
func storedAndWritten(t *model.Table, it model.Item, size int) (int, float64) {
	bytes, units := size, wcu(size)
	for i := range t.Indexes {
		ix := &t.Indexes[i]
		if !t.InIndex(ix, it) {
			continue // a sparse index: not in it
		}
		entry := size
		if ix.Projection.Type != model.ProjectAll && ix.Projection.Type != "" {
			entry = 0
			for _, a := range t.IndexEntryAttributes(ix) {
				if v, ok := it[a]; ok {
					entry += model.AttributeSize(a, v)
				}
			}
		}
		bytes += entry
		units += wcu(entry)
	}
	return bytes, units
}

func wcu(size int) float64 { return math.Ceil(float64(max(size, 1)) / 1024) }
