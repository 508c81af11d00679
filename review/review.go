package review

import (
	"fmt"
	"slices"

	"stwb/cost"
	"stwb/engine"
	"stwb/internal/numfmt"
	"stwb/model"
)

// Input is what a review reads: the design, each pattern's run on the design's
// items (Results[i] for Patterns[i]), and the cost report (nil leaves out the rules
// that need prices and per-partition load).
type Input struct {
	Design *model.Design
	// ItemPos gives where item i is in the design's file, for findings on items;
	// ok is false when its place is not known, and ItemPos nil when no item's is
	// (a design built in code).
	ItemPos func(i int) (pos model.Pos, ok bool)
	Results []*engine.Result
	Cost    *cost.Report
	// Items are the design's items as the rules read them, Items[i] for item i; nil
	// means Design.Items. A design loaded lazily has no maps of its items:
	// analysis.Load passes each cut down to the attributes the rules read (its
	// type, key and key-template attributes), with Sizes.
	Items model.ItemList
	// Sizes are the items' sizes, model.ItemSize of each whole item, Sizes[i] for
	// Items[i]; nil computes them from Items.
	Sizes []int
	// Pass is the item pass (NewItemPass) over the whole items, when the caller ran
	// it as it read them (analysis.Load); nil: Check runs it over Items.
	Pass *ItemPass
}

// Rule is one modelling rule: its id, default severity, what it finds and the seed
// passage it rests on.
type Rule struct {
	ID       string
	Severity Severity
	Summary  string
	Source   string
	check    func(c *checker)
}

// CheckSettings refuses a `review:` setting that names no rule: a misspelt rule
// name would otherwise leave the rule on while the design says it is off. Each
// problem names its place in the file and the rule id meant, when one is close.
func CheckSettings(d *model.Design) error {
	ids := make([]string, len(rules))
	for i, r := range rules {
		ids[i] = r.ID
	}
	var list model.ErrorList
	for _, s := range d.Review {
		if slices.Contains(ids, s.Rule) {
			continue
		}
		hint := "see the rules in docs/review.md"
		if m := model.DidYouMean(s.Rule, ids); m != "" {
			hint = fmt.Sprintf("did you mean %q?", m)
		}
		pos := s.Pos
		if pos.Line == 0 {
			pos = d.Pos
		}
		list = append(list, &model.PosError{Pos: pos, Msg: fmt.Sprintf("review.%s: there is no review rule of that name", model.CutValue(s.Rule)),
			Hint: hint, WholeFile: pos.Line <= 0})
	}
	if len(list) == 0 {
		return nil
	}
	return list
}

// Check applies every rule to the input and the design's `review:` settings (a rule
// turned off is dropped; a re-graded rule takes its new severity). Findings come
// sorted: errors first, then by place in the file.
func Check(in Input) []Finding {
	c := newChecker(in)
	for _, r := range rules {
		c.rule = r
		r.check(c)
	}
	out := c.findings[:0]
	for _, f := range c.findings {
		if s, ok := c.settings[f.Rule]; ok {
			if s == Off {
				continue
			}
			f.Severity = s
		}
		out = append(out, f)
	}
	sortFindings(out)
	return out
}

// checker holds what the rules share: the input, facts derived once, and the
// findings so far.
type checker struct {
	in       Input
	d        *model.Design
	rule     Rule
	settings map[string]Severity
	findings []Finding

	byEntity map[string][]int // entity name -> indexes of its stored items (see stored)
	avgSize  map[string]float64
	keySpace *cost.KeySpace // built on first use

	items model.ItemList // Input.Items, or the design's
	sizes []int          // sizes[i] is items[i]'s
	pass  *ItemPass      // Input.Pass, or the pass over items
	// stored are the items DynamoDB would store (model.StoredItems: not those over
	// 400 KB, which item-too-large names): the key counts, the entities' sample
	// counts and average sizes read these, as the engine and the cost do.
	stored model.ItemList
}

// keys is what is known of the design's key template variables (cost.KeySpace).
func (c *checker) keys() *cost.KeySpace {
	if c.keySpace == nil && c.in.Cost != nil && c.in.Cost.Design == c.d.Name {
		// The cost report read the same stored items with the same counts: share
		// what it knows rather than read every sample item again.
		c.keySpace = c.in.Cost.KeySpace()
	}
	if c.keySpace == nil {
		c.keySpace = cost.NewKeySpaceOf(c.d, c.stored, c.count)
	}
	return c.keySpace
}

func newChecker(in Input) *checker {
	d := in.Design
	c := &checker{in: in, d: d, settings: map[string]Severity{},
		byEntity: map[string][]int{}, avgSize: map[string]float64{}, items: in.Items, sizes: in.Sizes}
	for _, s := range d.Review {
		c.settings[s.Rule] = Severity(s.Severity)
	}
	if c.items == nil {
		c.items = model.ItemMaps(d.Items)
	}
	if c.sizes == nil {
		c.sizes = make([]int, c.items.Len())
		for i := range c.sizes {
			c.sizes[i] = model.ItemSize(c.items.Item(i))
		}
	}
	c.stored, _, _ = model.StoredList(c.items, c.sizes)
	c.pass = in.Pass
	if c.pass == nil {
		c.pass = NewItemPass(d)
		for i := range c.items.Len() {
			c.pass.Visit(i, d.View(c.items.Item(i)))
		}
	}
	c.byEntity = storedByType(c.items, c.sizes, d.TypeAttr())
	for name, idx := range c.byEntity {
		sum := 0
		for _, i := range idx {
			sum += c.sizes[i]
		}
		c.avgSize[name] = float64(sum) / float64(len(idx))
	}
	return c
}

// storedByType groups the items DynamoDB stores (model.Stored) by their type's
// text, for those whose type is a string, each group in item order: the list's
// own groups (model.TypedList) when it has them, without those left out.
func storedByType(items model.ItemList, sizes []int, typeAttr string) map[string][]int {
	stored := func(i int) bool { return model.Stored(sizes[i]) }
	if typed, ok := items.(model.TypedList); ok {
		groups := typed.ByType()
		if !slices.ContainsFunc(sizes, func(s int) bool { return !model.Stored(s) }) {
			return groups
		}
		out := map[string][]int{}
		for name, at := range groups {
			for _, i := range at {
				if stored(i) {
					out[name] = append(out[name], i)
				}
			}
		}
		return out
	}
	out := map[string][]int{}
	for i := range items.Len() {
		if !stored(i) {
			continue
		}
		if v, ok := items.Attr(i, typeAttr); ok && v.Type == model.TypeS {
			out[v.Str] = append(out[v.Str], i)
		}
	}
	return out
}

// add records a finding of the current rule.
func (c *checker) add(f Finding) {
	f.Rule = c.rule.ID
	if f.Severity == "" {
		f.Severity = c.rule.Severity
	}
	if f.Source == "" {
		f.Source = c.rule.Source
	}
	if f.Pos.Line == 0 {
		f.Pos = c.posOf(f)
	}
	if f.Assumed != "" {
		f.Message += ". Assumed: " + f.Assumed
	}
	c.findings = append(c.findings, f)
}

// posOf finds where a finding points: its pattern, item, index or entity, else the
// table.
func (c *checker) posOf(f Finding) model.Pos {
	d := c.d
	var itemPos model.Pos
	itemKnown := false
	if f.Item != nil && c.in.ItemPos != nil {
		itemPos, itemKnown = c.in.ItemPos(*f.Item)
	}
	switch {
	case f.Pattern != 0:
		for _, p := range d.Patterns {
			if p.ID == f.Pattern {
				return p.Pos
			}
		}
	case itemKnown:
		return itemPos
	case f.Index != "":
		if ix, ok := d.Table.IndexByName(f.Index); ok {
			return ix.Pos
		}
	case f.Entity != "":
		if e := d.EntityByName(f.Entity); e != nil {
			return e.Pos
		}
	}
	if d.Table.Pos.Line != 0 {
		return d.Table.Pos
	}
	return d.Pos
}

// result is pattern i's run, nil when there is none.
func (c *checker) result(i int) *engine.Result {
	if i < len(c.in.Results) {
		return c.in.Results[i]
	}
	return nil
}

// entityOf names an item's entity ("" when untyped).
func (c *checker) entityOf(it model.Item) string { return entityName(c.d.TypeAttr(), it) }

// entityAt is entityOf item i of the design.
func (c *checker) entityAt(i int) string {
	if v, ok := c.items.Attr(i, c.d.TypeAttr()); ok && v.Type == model.TypeS {
		return v.Str
	}
	return ""
}

// count is an entity's production count, or its sample count when it gives none.
func (c *checker) count(e *model.Entity) int64 {
	if e.Count > 0 {
		return e.Count
	}
	return int64(len(c.byEntity[e.Name]))
}

// fmtInt writes an integer with thousands separators: 1,204.
func fmtInt(n int64) string { return numfmt.Int(n) }

// fmtNum writes a figure by the one rounding rule, as the cost report does.
func fmtNum(f float64) string { return numfmt.Figure(f) }

func plural(n int64, one, many string) string { return numfmt.Count(n, one, many) }
