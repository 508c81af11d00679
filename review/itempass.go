package review

import (
	"cmp"
	"slices"
	"sync"

	"stwb/model"
)

// ItemPass is the part of the review that reads the design's items one at a time:
// each rule that looks at an item on its own (missing-type, unknown-entity,
// missing-prefix, template-mismatch, attribute-type-mismatch) has an item hook here,
// defined beside the rule in keys.go, that notes what it finds on the item. The
// rule itself (its check function) then reports from those notes.
//
// analysis.Load runs the pass on each item while the design file is read, when the
// whole item is at hand, so that the review needs no copy of the item afterwards;
// Check runs it over Input.Items when it is not given one (Input.Pass). Either way
// each item is looked at once, by the same hooks.
type ItemPass struct {
	d *model.Design
	// prefixAttrs are the key attributes missing-prefix reads (missingPrefixAttrs).
	prefixAttrs []string
	// templater builds keys from the entities' templates (template-mismatch); nil
	// when the design has none.
	templater *model.Templater

	mu    sync.Mutex
	found map[string][]itemNote // by rule id, in no order (notes sorts them)
}

// itemNote is what a rule's item hook found on item i: the text it reports, and a
// second text (a fix, a value) when the rule needs one.
type itemNote struct {
	item        int
	text, other string
}

// NewItemPass prepares the pass over the items of d. Visit then takes each item.
func NewItemPass(d *model.Design) *ItemPass {
	return &ItemPass{d: d, prefixAttrs: missingPrefixAttrs(d), templater: model.NewTemplater(d),
		found: map[string][]itemNote{}}
}

// Visit looks at item i, the whole item, by its view in the pass's design
// (model.Design.View: the type and entity found once for every hook). It may be
// called from several goroutines at once, each with its own items; it keeps no
// reference to the map, only to the values' text.
func (p *ItemPass) Visit(i int, v model.ItemView) {
	p.missingType(i, v)
	p.unknownEntity(i, v)
	p.missingPrefix(i, v.Item)
	p.templateMismatch(i, v)
	p.attributeTypeMismatch(i, v)
}

// note records what rule's item hook found on item i.
func (p *ItemPass) note(rule string, n itemNote) {
	p.mu.Lock()
	p.found[rule] = append(p.found[rule], n)
	p.mu.Unlock()
}

// notes are what rule's item hook found, by item, in item order.
func (p *ItemPass) notes(rule string) []itemNote {
	ns := p.found[rule]
	slices.SortFunc(ns, func(a, b itemNote) int { return cmp.Compare(a.item, b.item) })
	return ns
}

// entityName is an item's type attribute when it is a string ("" otherwise): the
// name of its entity, when the design has one of that name.
func entityName(typeAttr string, it model.Item) string {
	if v, ok := it[typeAttr]; ok && v.Type == model.TypeS {
		return v.Str
	}
	return ""
}
