package review

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"stwb/engine"
	"stwb/model"
)

// entityWords are nouns a table named for one entity is typically called.
var entityWords = []string{"user", "customer", "order", "product", "account", "item", "invoice",
	"payment", "employee", "person", "people", "event", "message", "session", "device", "book",
	"post", "comment", "video", "bill", "cart", "profile", "review", "ticket", "task", "movie",
	"student", "course", "song", "photo", "transaction", "record", "shipment", "address", "game"}

func checkTableNamedForEntity(c *checker) {
	name := c.d.Table.Name
	word := strings.ToLower(regexp.MustCompile(`[^A-Za-z]`).ReplaceAllString(name, ""))
	candidates := append([]string{}, entityWords...)
	for _, e := range c.d.Entities {
		candidates = append(candidates, strings.ToLower(e.Name))
	}
	for _, w := range candidates {
		if word == w || word == w+"s" || word == w+"es" || word == strings.TrimSuffix(w, "y")+"ies" ||
			word == w+"table" || word == w+"stable" {
			c.add(Finding{
				Message: fmt.Sprintf("the table is called %q, after an entity; a table named for one entity has already lost the argument for holding the others", name),
				Fix:     "name the table after the service that owns it, such as orders-service-data, and keep every entity type of that service in it"})
			return
		}
	}
}

// genericKey matches generic key attribute names: PK, SK, GSI1PK, GSI1SK, LSI1SK,
// PK1, pk, sk, ...
var genericKey = regexp.MustCompile(`^(?i)(pk|sk|hk|rk|(gsi|lsi)\d*_?(pk|sk)|(pk|sk)\d+|(gsi|lsi)\d+(pk|sk))$`)

// entityKey matches names that hold one entity's identity: customerId, user_id, ID.
var entityKey = regexp.MustCompile(`(?i)(id|_id|key|name|email)$`)

func checkEntityNamedKey(c *checker) {
	seen := map[string]bool{}
	check := func(attr, where, index string) {
		if attr == "" || seen[attr] || genericKey.MatchString(attr) {
			return
		}
		seen[attr] = true
		if !entityKey.MatchString(attr) && !c.namesEntity(attr) {
			return
		}
		c.add(Finding{Index: index,
			Message: fmt.Sprintf("%s key attribute %q is named for one entity: it can only ever hold that entity's identity", where, attr),
			Fix:     "use generic key names (PK, SK, GSI1PK, GSI1SK) and put prefixed values in them (CUST#42), so every entity type can share the table and its indexes"})
	}
	check(c.d.Table.Key.Partition, "the table's partition", "")
	check(c.d.Table.Key.Sort, "the table's sort", "")
	for _, ix := range c.d.Table.Indexes {
		if ix.Key.Multi() {
			// A multi-attribute key is keyed on the items' own attributes by design
			// (GSI.DesignPattern.MultiAttributeKeys.html): tournamentId and region
			// are meant to be the entity's names.
			continue
		}
		if !ix.Local {
			check(ix.Key.Partition, "index "+ix.Name+"'s partition", ix.Name)
		}
		check(ix.Key.Sort, "index "+ix.Name+"'s sort", ix.Name)
	}
}

func (c *checker) namesEntity(attr string) bool {
	a := strings.ToLower(attr)
	for _, e := range c.d.Entities {
		if n := strings.ToLower(e.Name); len(n) > 2 && strings.Contains(a, n) {
			return true
		}
	}
	return false
}

// itemFindingLimit caps per-item findings of one rule; the rest are counted in one
// summary finding so a large design's review stays readable.
const itemFindingLimit = 10

// perItem reports up to itemFindingLimit items (an item's index, or its note),
// then one finding with the count.
func perItem[T any](c *checker, bad []T, one func(T) Finding, rest func(n int) Finding) {
	for k, i := range bad {
		if k == itemFindingLimit {
			c.add(rest(len(bad) - itemFindingLimit))
			return
		}
		c.add(one(i))
	}
}

// missingType is missing-type's item hook: an item without the type attribute,
// named by its key.
func (p *ItemPass) missingType(i int, v model.ItemView) {
	if !v.HasType {
		p.note("missing-type", itemNote{item: i, text: keyText(p.d, v.Item)})
	}
}

func checkMissingType(c *checker) {
	fix := fmt.Sprintf("give every item a %q attribute naming its entity, for the deserialiser, stream consumers and exports", c.d.TypeAttr())
	perItem(c, c.pass.notes("missing-type"), func(n itemNote) Finding {
		return Finding{Item: intPtr(n.item),
			Message: fmt.Sprintf("item %d (%s) has no %q attribute", n.item, n.text, c.d.TypeAttr()), Fix: fix}
	}, func(n int) Finding {
		return Finding{Message: fmt.Sprintf("%d more items have no %q attribute", n, c.d.TypeAttr()), Fix: fix}
	})
}

// unknownEntity is unknown-entity's item hook: an item whose type names no entity
// of the design.
func (p *ItemPass) unknownEntity(i int, v model.ItemView) {
	if v.Type != "" && v.Entity == nil {
		p.note("unknown-entity", itemNote{item: i, text: v.Type})
	}
}

func checkUnknownEntity(c *checker) {
	perItem(c, c.pass.notes("unknown-entity"), func(n itemNote) Finding {
		return Finding{Item: intPtr(n.item),
			Message: fmt.Sprintf("item %d has type %q, which is not an entity of the design, so its keys are not checked against a template", n.item, n.text),
			Fix:     fmt.Sprintf("add entity %q with its key templates, or correct the item's type", n.text)}
	}, func(n int) Finding {
		return Finding{Message: fmt.Sprintf("%d more items name no entity of the design", n),
			Fix: "add the entities with their key templates"}
	})
}

// prefixed reports whether a key value names its entity: a PREFIX#... value, a
// #MARKER, or a constant word in capitals such as PROFILE or METADATA. It is the
// regular expression ^(#?[A-Za-z][A-Za-z0-9_-]*#|#[A-Za-z]|[A-Z][A-Z0-9_]*$)
// written out, as it runs on every key value of every item (the test holds the
// two to the same answers).
func prefixed(s string) bool {
	word := func(c byte) bool { return isLetter(c) || isDigit(c) || c == '_' || c == '-' }
	i := 0
	if i < len(s) && s[i] == '#' {
		i++
	}
	if i < len(s) && isLetter(s[i]) {
		j := i + 1
		for j < len(s) && word(s[j]) {
			j++
		}
		if j < len(s) && s[j] == '#' {
			return true
		}
	}
	if len(s) >= 2 && s[0] == '#' && isLetter(s[1]) {
		return true
	}
	if len(s) == 0 || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for k := 1; k < len(s); k++ {
		if c := s[k]; !(c >= 'A' && c <= 'Z' || isDigit(c) || c == '_') {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// missingPrefixAttrs are the key attributes whose values missing-prefix reads:
// the table's keys and each global index's partition key.
func missingPrefixAttrs(d *model.Design) []string {
	attrs := []string{d.Table.Key.Partition}
	if d.Table.Key.Sort != "" {
		attrs = append(attrs, d.Table.Key.Sort)
	}
	for _, ix := range d.Table.Indexes {
		// Index sort keys often hold plain sort values (dates); a multi-attribute
		// key holds the items' own values, which need no prefix.
		if !ix.Local && !ix.Key.Multi() {
			attrs = append(attrs, ix.Key.Partition)
		}
	}
	return attrs
}

// missingPrefix is missing-prefix's item hook: the item's first key value (of
// missingPrefixAttrs) that carries no entity prefix, its attribute and its text.
func (p *ItemPass) missingPrefix(i int, it model.Item) {
	for _, a := range p.prefixAttrs {
		if v, ok := it[a]; ok && v.Type == model.TypeS && !prefixed(v.Str) {
			p.note("missing-prefix", itemNote{item: i, text: a, other: v.Str})
			return
		}
	}
}

func checkMissingPrefix(c *checker) {
	fix := "prefix every key value with its entity type (CUST#42, ORDER#9f2a) so that one attribute can hold every entity's keys without collisions"
	perItem(c, c.pass.notes("missing-prefix"), func(n itemNote) Finding {
		return Finding{Item: intPtr(n.item),
			Message: fmt.Sprintf("item %d's %s value %q carries no entity prefix", n.item, n.text, n.other), Fix: fix}
	}, func(n int) Finding {
		return Finding{Message: fmt.Sprintf("%d more items have key values without an entity prefix", n), Fix: fix}
	})
}

// templateMismatch is template-mismatch's item hook: what is wrong with the item's
// keys against its entity's templates, and the fix.
func (p *ItemPass) templateMismatch(i int, v model.ItemView) {
	if p.templater == nil {
		return
	}
	if msg, hint := p.templater.Mismatch(i, v); msg != "" {
		p.note("template-mismatch", itemNote{item: i, text: msg, other: hint})
	}
}

// checkTemplateMismatch reports each item whose given key its entity's template
// would not build from the item's attributes (model.Templater.Mismatch, the one
// rule; FORMAT.md "Items and entities"). The loader keeps such keys as given, as
// DynamoDB would store them, so the design opens and this rule names the item.
func checkTemplateMismatch(c *checker) {
	t := c.pass.templater
	if t == nil {
		return
	}
	perItem(c, c.pass.notes("template-mismatch"), func(n itemNote) Finding {
		return Finding{Item: intPtr(n.item), Message: n.text,
			Fix: n.other + "; build keys only from the entity's template (one module owns key construction), or correct the template"}
	}, func(n int) Finding {
		return Finding{Message: fmt.Sprintf("%d more items do not match their templates", n), Fix: "build keys from the templates"}
	})
	// The items patterns write, held to the same templates (issue 25: after a
	// template changed, a pattern went on writing the old key unnoticed).
	for i := range c.d.Patterns {
		p := &c.d.Patterns[i]
		if msg, hint := t.PatternMismatch(p); msg != "" {
			c.add(Finding{Pattern: p.ID, Pos: p.Pos, Message: msg,
				Fix: hint + "; a pattern writes the keys the application would, built from the entity's template"})
		}
	}
}

// checkUnpaddedNumber finds sibling sort keys (one partition, the same shape once
// their digit runs are blanked out: sku-# beside sku-#) whose byte order, the order
// DynamoDB returns them in, disagrees with the order of their numbers. Each group of
// siblings is sorted by bytes once and only neighbours are compared: numeric order
// (digit runs compared as numbers, the first unequal run deciding) is a total order,
// so if bytes disagree with it for any pair they disagree for some neighbours. (The
// pairwise loop this replaces took 6 s on 100,000 items in 1,000 partitions.)
func checkUnpaddedNumber(c *checker) {
	sk := c.d.Table.Key.Sort
	if sk == "" || c.d.Table.KeyAttributeType(sk) != model.TypeS {
		return
	}
	type sibling struct {
		value string
		item  int
	}
	// A group is one partition's sort keys of one shape. The shapes are few, so each
	// is made once and shared (shapes), not once per item. Items of a partition
	// mostly come one after another: the group of the item before is tried first.
	// Each item's group is found first and counted, so that the groups are then
	// filled in one array rather than a slice grown for each.
	type group struct{ pk, shape string }
	index := map[group]int{}
	var count []int
	groupOf := make([]int32, c.items.Len()) // -1: no digit in its sort key
	shapes := map[string]string{}
	var buf []byte
	sortKeys, partitionKeys := model.ColumnOf(c.items, sk), model.ColumnOf(c.items, c.d.Table.Key.Partition)
	last, lastAt := group{}, -1
	for i := range c.items.Len() {
		groupOf[i] = -1
		v, ok := sortKeys(i)
		if !ok || v.Type != model.TypeS || !hasDigit(v.Str) {
			continue
		}
		buf = appendDigitShape(buf[:0], v.Str)
		shape, seen := shapes[string(buf)]
		if !seen {
			shape = string(buf)
			shapes[shape] = shape
		}
		p, _ := partitionKeys(i)
		key := group{p.Str, shape}
		if lastAt < 0 || key != last {
			at, ok := index[key]
			if !ok {
				at = len(count)
				index[key] = at
				count = append(count, 0)
			}
			last, lastAt = key, at
		}
		groupOf[i] = int32(lastAt)
		count[lastAt]++
	}
	all := make([]sibling, len(groupOf))
	groups := make([][]sibling, len(count))
	off := 0
	for g, n := range count {
		groups[g] = all[off : off : off+n] // appended to below, within its part of all
		off += n
	}
	for i, g := range groupOf {
		if g >= 0 {
			v, _ := sortKeys(i)
			groups[g] = append(groups[g], sibling{v.Str, i})
		}
	}
	reported := map[string]bool{}
	keys := slices.SortedFunc(maps.Keys(index), func(a, b group) int {
		return cmp.Or(strings.Compare(a.pk, b.pk), strings.Compare(a.shape, b.shape))
	})
	for _, key := range keys {
		sibs := groups[index[key]]
		shape := key.shape
		if reported[shape] {
			continue
		}
		// Items are usually written in key order already: check before sorting.
		byValue := func(a, b sibling) int { return strings.Compare(a.value, b.value) }
		if !slices.IsSortedFunc(sibs, byValue) {
			slices.SortStableFunc(sibs, byValue)
		}
		for x := 1; x < len(sibs); x++ {
			a, b := sibs[x-1], sibs[x]
			if a.value < b.value && numericallyAfter(a.value, b.value) {
				reported[shape] = true
				c.add(Finding{Item: intPtr(a.item),
					Message: fmt.Sprintf("sort key %q sorts before %q as bytes, though its number is larger", a.value, b.value),
					Fix:     "pad the numbers in sort keys to a fixed width (sku-0009, sku-0010) so byte order is numeric order"})
				break
			}
		}
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func hasDigit(s string) bool { return firstDigit(s) >= 0 }

// firstDigit is the index of s's first ASCII digit, -1 when it has none. It reads
// bytes, not runes: no byte of a multi-byte UTF-8 character is an ASCII digit.
func firstDigit(s string) int {
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			return i
		}
	}
	return -1
}

// appendDigitShape appends s with each run of digits replaced by one '#' to b:
// sku-# for sku-10.
func appendDigitShape(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			b = append(b, s[i])
			continue
		}
		b = append(b, '#')
		for i+1 < len(s) && isDigit(s[i+1]) {
			i++
		}
	}
	return b
}

// nextDigitRun is the first run of digits in s and what follows it; ok is false
// when s has none.
func nextDigitRun(s string) (run, rest string, ok bool) {
	i := firstDigit(s)
	if i < 0 {
		return "", "", false
	}
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	return s[i:j], s[j:], true
}

// numericallyAfter reports whether a's numbers are the larger: the first digit runs
// that differ as numbers decide (07 and 7 are the same number).
func numericallyAfter(a, b string) bool {
	for {
		ra, resta, okA := nextDigitRun(a)
		rb, restb, okB := nextDigitRun(b)
		if !okA || !okB {
			return false
		}
		na, nb := strings.TrimLeft(ra, "0"), strings.TrimLeft(rb, "0")
		if len(na) != len(nb) {
			return len(na) > len(nb)
		}
		if na != nb {
			return na > nb
		}
		a, b = resta, restb
	}
}

func checkItemTooLarge(c *checker) {
	c.itemsOver(model.MaxItemSize, fmt.Sprintf("DynamoDB refuses to store it (PutItem: %s: %s), so the patterns and the storage figures leave it out",
		engine.ValidationException, engine.MsgItemTooLarge))
}

func checkItemNearLimit(c *checker) {
	var near []int
	for i, s := range c.sizes {
		if s > 300*1024 && s <= model.MaxItemSize {
			near = append(near, i)
		}
	}
	c.reportLarge(near, "is within 100 KB of DynamoDB's 400 KB limit")
}

func (c *checker) itemsOver(limit int, why string) {
	var over []int
	for i, s := range c.sizes {
		if s > limit {
			over = append(over, i)
		}
	}
	c.reportLarge(over, fmt.Sprintf("is over 400 KB (%s bytes): %s", fmtInt(int64(limit)), why))
}

func (c *checker) reportLarge(idx []int, what string) {
	fix := "move the large payload to S3 and keep a pointer in the item, or split the item into chunks under one partition key ordered by sort key (vertical partitioning)"
	perItem(c, idx, func(i int) Finding {
		return Finding{Item: intPtr(i),
			Message: fmt.Sprintf("item %d (%s) is %s bytes and %s", i, keyText(c.d, c.items.Item(i)), fmtInt(int64(c.sizes[i])), what), Fix: fix}
	}, func(n int) Finding {
		return Finding{Message: fmt.Sprintf("%d more items are as large", n), Fix: fix}
	})
}

// checkAttributeTypeMismatch finds item attributes whose type differs from the one
// their entity declares (model.Entity.MismatchedAttributes): most often an id that
// YAML read as a number because it was left unquoted (4e10, 1e3, true). It reads the
// sample items and the items patterns write (a PutItem's item, a put action's), as
// either is stored as YAML read it.
// attributeTypeMismatch is attribute-type-mismatch's item hook: the item's first
// attribute of another type than its entity declares, said.
func (p *ItemPass) attributeTypeMismatch(i int, v model.ItemView) {
	if len(v.Mismatched) > 0 {
		name := v.Mismatched[0]
		p.note("attribute-type-mismatch", itemNote{item: i, text: mismatchText(fmt.Sprintf("item %d's", i), v.Entity, name, v.Item[name])})
	}
}

func checkAttributeTypeMismatch(c *checker) {
	const fix = `quote a value meant as a string (orderId: "4e10"); YAML reads a plain 4e10, 12, true or null as a number, a boolean or null`
	perItem(c, c.pass.notes("attribute-type-mismatch"), func(n itemNote) Finding {
		return Finding{Item: intPtr(n.item), Message: n.text, Fix: fix}
	}, func(n int) Finding {
		return Finding{Message: fmt.Sprintf("%d more items have attributes of another type than their entity declares", n),
			Fix: "quote the values meant as strings"}
	})
	for _, p := range c.d.Patterns {
		if e, name := mismatchOf(c.d, p.Item); e != nil {
			c.add(Finding{Pattern: p.ID, Pos: p.ItemPos, Fix: fix,
				Message: mismatchText(fmt.Sprintf("pattern %d's item's", p.ID), e, name, p.Item[name])})
		}
		for k, a := range p.Actions {
			if e, name := mismatchOf(c.d, a.Item); a.Kind == model.ActionPut && e != nil {
				c.add(Finding{Pattern: p.ID, Pos: a.ItemPos, Fix: fix,
					Message: mismatchText(fmt.Sprintf("pattern %d's action %d (put)'s", p.ID, k+1), e, name, a.Item[name])})
			}
		}
	}
}

// mismatchOf is the entity of it and its first attribute of another type than the
// entity declares; nil when it has no entity or none differs.
func mismatchOf(d *model.Design, it model.Item) (*model.Entity, string) {
	if it == nil {
		return nil, ""
	}
	e := d.EntityByName(entityName(d.TypeAttr(), it))
	if e == nil {
		return nil, ""
	}
	if names := e.MismatchedAttributes(it); len(names) > 0 {
		return e, names[0]
	}
	return nil, ""
}

// mismatchText says which attribute of an item (whose: "item 3's", "pattern 2's
// item's") has which type against the declaration, and for a string read as another
// type, the quoting that fixes it.
func mismatchText(whose string, e *model.Entity, name string, v model.Value) string {
	var want model.Type
	for _, a := range e.Attributes {
		if a.Name == name {
			want = a.Type
		}
	}
	shown := v.Str
	switch v.Type {
	case model.TypeBOOL:
		shown = strconv.FormatBool(v.Bool)
	case model.TypeNULL:
		shown = "null"
	}
	msg := fmt.Sprintf("%s %s is %s %s, but entity %s declares %s: %s", whose, name, v.Type, shown, e.Name, name, want)
	if want == model.TypeS && (v.Type == model.TypeN || v.Type == model.TypeBOOL || v.Type == model.TypeNULL) {
		msg += fmt.Sprintf("; YAML read the unquoted %s as %s: write %s: %q", shown, v.Type, name, shown)
	}
	return msg
}
