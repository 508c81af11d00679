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
// defined beside the rule in keys.go, that notes what it finds on the item;
// unpadded-number notes each item's keys, and the checker each item's entity. The
// rule itself (its check function) then reports from those notes.
//
// analysis.Load runs the pass on each item while the design file is read, when the
// whole item is at hand, so that the review needs no copy of the item afterwards;
// Check runs it over Input.Items when it is not given one (Input.Pass). Either way
// each item is looked at once, by the same hooks.
type ItemPass struct {
	d        *model.Design
	typeAttr string
	// prefixAttrs are the key attributes missing-prefix reads (missingPrefixAttrs).
	prefixAttrs []string
	// templater builds keys from the entities' templates (template-mismatch); nil
	// when the design has none.
	templater *model.Templater
	// sortKey is the table's sort key when unpadded-number reads it (a string
	// sort key), else "".
	sortKey string

	// entity[i] is item i's type attribute ("" when it has none, or not a string).
	entity []string
	// keys[i] is item i's partition key text and its sort key when that has a
	// digit (unpadded-number); zero otherwise.
	keys []itemKeys

	mu    sync.Mutex
	found map[string][]itemNote // by rule id, in no order (notes sorts them)
}

// itemKeys is what unpadded-number reads of an item: its partition key's text and
// its sort key, set only when the sort key is a string with a digit in it.
type itemKeys struct{ pk, sk string }

// itemNote is what a rule's item hook found on item i: the text it reports, and a
// second text (a fix, a value) when the rule needs one.
type itemNote struct {
	item        int
	text, other string
}

// NewItemPass prepares the pass over n items of d. Visit then takes each item.
func NewItemPass(d *model.Design, n int) *ItemPass {
	p := &ItemPass{d: d, typeAttr: d.TypeAttr(), prefixAttrs: missingPrefixAttrs(d), templater: model.NewTemplater(d),
		entity: make([]string, n), found: map[string][]itemNote{}}
	if sk := d.Table.Key.Sort; sk != "" && d.Table.KeyAttributeType(sk) == model.TypeS {
		p.sortKey = sk
		p.keys = make([]itemKeys, n)
	}
	return p
}

// Visit looks at item i (i < n), the whole item. It may be called from several goroutines at once, each with its own items; it
// keeps no reference to the map, only to the values' text.
func (p *ItemPass) Visit(i int, it model.Item) {
	p.entity[i] = entityName(p.typeAttr, it)
	p.missingType(i, it)
	p.unknownEntity(i, it)
	p.missingPrefix(i, it)
	p.templateMismatch(i, it)
	p.attributeTypeMismatch(i, it)
	p.unpaddedNumberKeys(i, it)
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
