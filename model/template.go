package model

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

// Key templates (FORMAT.md "Items and entities"): an entity's keys are written as
// templates such as "CUST#{customerId}", where {customerId} stands for that
// attribute's value. A template with no braces is a constant ("PROFILE").

// tmplPart is a literal text or, when isVar, the name of an attribute.
type tmplPart struct {
	text  string
	isVar bool
}

// parsedTemplates caches parseTemplate: a design has a handful of templates and
// loading expands them for every item. Templates are short and few, so the cache
// stays small; it is guarded for use from several goroutines.
var parsedTemplates sync.Map // string -> []tmplPart (nil for a malformed one)

// parseTemplate splits a template into parts. ok is false for unbalanced braces or an
// empty variable name (TemplateProblem says which).
func parseTemplate(t string) ([]tmplPart, bool) {
	if v, ok := parsedTemplates.Load(t); ok {
		parts := v.([]tmplPart)
		return parts, parts != nil || t == ""
	}
	parts, ok := parseTemplateText(t)
	if len(t) <= 256 {
		parsedTemplates.Store(t, parts)
	}
	return parts, ok
}

func parseTemplateText(t string) ([]tmplPart, bool) {
	var parts []tmplPart
	for t != "" {
		open := strings.IndexByte(t, '{')
		closeAt := strings.IndexByte(t, '}')
		if open < 0 {
			if closeAt >= 0 {
				return nil, false
			}
			parts = append(parts, tmplPart{text: t})
			break
		}
		if closeAt >= 0 && closeAt < open {
			return nil, false
		}
		if open > 0 {
			parts = append(parts, tmplPart{text: t[:open]})
		}
		end := strings.IndexByte(t[open:], '}')
		if end < 0 {
			return nil, false
		}
		name := t[open+1 : open+end]
		if name == "" || strings.ContainsAny(name, "{") {
			return nil, false
		}
		parts = append(parts, tmplPart{text: name, isVar: true})
		t = t[open+end+1:]
	}
	return parts, true
}

// TemplatePart is one piece of a key template: literal text, or (Var != "") the
// name of an attribute whose value stands there. Exactly one of the two is set.
type TemplatePart struct {
	Literal string
	Var     string
}

// TemplateParts splits a template into its literal and variable parts, in order, for
// code that spells a template out itself (the generated key modules of interop). ok
// is false for a template that is not well formed (unbalanced braces, an empty {}),
// which ExpandTemplate refuses too. The slice is the caller's own.
func TemplateParts(tmpl string) ([]TemplatePart, bool) {
	parts, ok := parseTemplate(tmpl)
	if !ok {
		return nil, false
	}
	out := make([]TemplatePart, len(parts))
	for i, p := range parts {
		if p.isVar {
			out[i].Var = p.text
		} else {
			out[i].Literal = p.text
		}
	}
	return out, true
}

// KeyAttributeNames lists the key attributes of the table and of every index, without
// repeats: the table's partition and sort key first, then each index's in order. A
// local index's partition key is the table's, so it adds none. These are the
// attributes an entity's key templates may fill.
func KeyAttributeNames(t *Table) []string {
	var names []string
	add := func(n string) {
		if n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	add(t.Key.Partition)
	add(t.Key.Sort)
	for _, ix := range t.Indexes {
		if !ix.Local {
			for _, a := range ix.Key.Partitions() {
				add(a)
			}
		}
		for _, a := range ix.Key.Sorts() {
			add(a)
		}
	}
	return names
}

// TemplateProblem says what is wrong with a template, or "" when it is well formed.
func TemplateProblem(t string) string {
	if t == "" {
		return "the template is empty"
	}
	if _, ok := parseTemplate(t); !ok {
		return fmt.Sprintf("template %q has unbalanced braces or an empty {}", t)
	}
	return ""
}

// TemplateVars lists the attribute names a template uses, in order.
func TemplateVars(tmpl string) []string {
	parts, _ := parseTemplate(tmpl)
	var out []string
	for _, p := range parts {
		if p.isVar {
			out = append(out, p.text)
		}
	}
	return out
}

// varText is the text a value contributes to a template: strings as they are,
// numbers in their text; other types cannot appear in a key.
func varText(v Value) (string, bool) {
	switch v.Type {
	case TypeS, TypeN, TypeB:
		return v.Str, true
	}
	return "", false
}

// ExpandTemplate builds a key value from a template and an item. ok is false when a
// variable is missing from the item (or is not a scalar). A template that is a single
// variable ("{placedAt}") yields that attribute's value with its type, so a number
// stays a number; otherwise the result is a string.
func ExpandTemplate(tmpl string, it Item) (Value, bool) {
	parts, ok := parseTemplate(tmpl)
	if !ok {
		return Value{}, false
	}
	return expandParts(parts, it)
}

// expandParts is ExpandTemplate on a parsed template.
func expandParts(parts []tmplPart, it Item) (Value, bool) {
	if len(parts) == 1 && parts[0].isVar {
		v, ok := it[parts[0].text]
		if _, scalar := varText(v); !ok || !scalar {
			return Value{}, false
		}
		return v, true
	}
	var b strings.Builder
	for _, p := range parts {
		if !p.isVar {
			b.WriteString(p.text)
			continue
		}
		s, ok := varText(it[p.text])
		if !ok {
			return Value{}, false
		}
		b.WriteString(s)
	}
	return Str(b.String()), true
}

// ExpandKey is ExpandTemplate for a key attribute of type ty: the result has that
// type (a template of an N key attribute gives an N value).
func ExpandKey(tmpl string, it Item, ty Type) (Value, bool) {
	v, ok := ExpandTemplate(tmpl, it)
	if !ok {
		return Value{}, false
	}
	return keyOfType(v, ty), true
}

// keyOfType is an expanded key value given the key attribute's type ty.
func keyOfType(v Value, ty Type) Value {
	switch ty {
	case TypeN:
		return Num(v.Str)
	case TypeB:
		return Bin([]byte(v.Str))
	case TypeS:
		return Str(v.Str)
	}
	return v
}

// MatchTemplate reports whether a key value could have been built from the template:
// its text holds the literal parts in order, each variable standing for any text (the
// same text wherever one variable repeats).
func MatchTemplate(tmpl string, v Value) bool {
	parts, ok := parseTemplate(tmpl)
	return ok && matchParts(parts, v)
}

// matchParts is MatchTemplate on a parsed template.
func matchParts(parts []tmplPart, v Value) bool {
	s, ok := varText(v)
	if !ok {
		return false
	}
	if !repeatsVar(parts) {
		return literalsInOrder(parts, s)
	}
	m := &matcher{budget: matchBudget}
	found := false
	m.match(parts, s, map[string]string{}, func(map[string]string) bool { found = true; return false })
	if m.budget < 0 {
		// Too many ways to try: answer for the literals alone.
		return literalsInOrder(parts, s)
	}
	return found
}

// ExtractTemplate reads the variables back out of a key value. ok is false when the
// value does not match, or matches in more than one way ("{a}#{b}" against "x#y#z"),
// or has too many ways to try.
func ExtractTemplate(tmpl string, v Value) (map[string]string, bool) {
	s, ok := varText(v)
	if !ok {
		return nil, false
	}
	parts, ok := parseTemplate(tmpl)
	if !ok {
		return nil, false
	}
	var found map[string]string
	n := 0
	m := &matcher{budget: matchBudget}
	m.match(parts, s, map[string]string{}, func(vars map[string]string) bool {
		n++
		if n == 1 {
			found = make(map[string]string, len(vars))
			for k, x := range vars {
				found[k] = x
			}
		}
		return n < 2 // two ways are enough to know it is ambiguous
	})
	return found, n == 1 && m.budget >= 0
}

func repeatsVar(parts []tmplPart) bool {
	seen := map[string]bool{}
	for _, p := range parts {
		if p.isVar {
			if seen[p.text] {
				return true
			}
			seen[p.text] = true
		}
	}
	return false
}

// literalsInOrder matches a template whose variables are all different: a leading
// literal must start s, a trailing one end it, and the others occur in order between.
// Taking each literal at its first occurrence leaves the most room for the rest, so
// this greedy check is exact, and linear.
func literalsInOrder(parts []tmplPart, s string) bool {
	if len(parts) == 0 {
		return s == ""
	}
	first, last := 0, len(parts)
	if !parts[0].isVar {
		if !strings.HasPrefix(s, parts[0].text) {
			return false
		}
		s = s[len(parts[0].text):]
		first = 1
	}
	if last > first && !parts[last-1].isVar {
		if !strings.HasSuffix(s, parts[last-1].text) {
			return false
		}
		s = s[:len(s)-len(parts[last-1].text)]
		last--
	}
	if first == last {
		return s == ""
	}
	for _, p := range parts[first:last] {
		if p.isVar {
			continue
		}
		i := strings.Index(s, p.text)
		if i < 0 {
			return false
		}
		s = s[i+len(p.text):]
	}
	return true
}

// matchBudget bounds the backtracking search: a template such as "{a}{b}{c}{d}"
// against a long key has a number of splits that grows with the power of its length.
const matchBudget = 10000

type matcher struct{ budget int }

// match calls found for each way s matches parts, until found returns false or the
// budget runs out. A variable used twice must stand for the same text both times. It
// returns false when the search was stopped.
func (m *matcher) match(parts []tmplPart, s string, vars map[string]string, found func(map[string]string) bool) bool {
	m.budget--
	if m.budget < 0 {
		return false
	}
	if len(parts) == 0 {
		if s == "" {
			return found(vars)
		}
		return true
	}
	p := parts[0]
	if !p.isVar {
		if !strings.HasPrefix(s, p.text) {
			return true
		}
		return m.match(parts[1:], s[len(p.text):], vars, found)
	}
	if prev, ok := vars[p.text]; ok {
		if !strings.HasPrefix(s, prev) {
			return true
		}
		return m.match(parts[1:], s[len(prev):], vars, found)
	}
	// A variable followed by a literal can only end where that literal occurs, which
	// keeps the search short for the usual "A#{x}#B#{y}".
	for end := 0; end <= len(s); end++ {
		if len(parts) > 1 && !parts[1].isVar && !strings.HasPrefix(s[end:], parts[1].text) {
			continue
		}
		if len(parts) == 1 && end != len(s) {
			continue
		}
		vars[p.text] = s[:end]
		cont := m.match(parts[1:], s[end:], vars, found)
		delete(vars, p.text)
		if !cont {
			return false
		}
	}
	return true
}

// TemplateMismatches lists every item key that its entity's template does not
// build from the item's own attributes (Templater.Mismatch), one problem per item
// at itemPos[i] when known. A design file may hold such items: DynamoDB stores
// any key, so the loader opens the design and review's template-mismatch reports
// each one. The workbench refuses an edit that adds one (issue 13: an override
// that does not match its template cannot be saved).
func TemplateMismatches(d *Design, itemPos []Pos) ErrorList {
	t := NewTemplater(d)
	if t == nil {
		return nil
	}
	var list ErrorList
	for i, it := range d.Items {
		if msg, hint := t.mismatch(i, "", it, t.entityOf(it)); msg != "" {
			list.Add(itemPosAt(d, itemPos, i), hint, "%s", msg)
		}
	}
	return list
}

// Templater applies the entities' key templates to items, one at a time, as a
// design file's reader does (FORMAT.md "Items and entities"). Every item of a large
// design goes through it, so the templates are parsed once here and a key the item
// gives is compared with its template's expansion without building it.
type Templater struct {
	typeAttr  string
	byName    map[string]*Entity
	tableKeys map[string]bool
	keys      map[*Entity][]namedTemplate // each entity's key templates, in a fixed order
}

type namedTemplate struct {
	attr string
	KeyTemplate
}

// KeyTemplate is an entity's template for one key attribute of type ty, parsed once
// rather than once per item (saving asks of every key whether its template builds
// it).
type KeyTemplate struct {
	text  string
	ty    Type
	set   bool
	parts []tmplPart
	ok    bool // the template parses
	// oneVar is the variable of a template that has one, between a literal prefix
	// and suffix (either may be empty): CUST#{customerId}, {placedAt}, as nearly
	// every template is. Var reads it back without ExtractTemplate's search.
	oneVar, prefix, suffix string
}

// NewKeyTemplate parses tmpl, the template of a key attribute of type ty.
func NewKeyTemplate(tmpl string, ty Type) KeyTemplate {
	parts, ok := parseTemplate(tmpl)
	t := KeyTemplate{text: tmpl, ty: ty, set: true, parts: parts, ok: ok}
	v := slices.IndexFunc(parts, func(p tmplPart) bool { return p.isVar })
	if !ok || v < 0 || v > 1 || len(parts)-v > 2 || v+1 < len(parts) && parts[v+1].isVar {
		return t
	}
	t.oneVar = parts[v].text
	if v == 1 {
		t.prefix = parts[0].text
	}
	if v+1 < len(parts) {
		t.suffix = parts[v+1].text
	}
	return t
}

// Var reads variable name back out of key value v as ExtractTemplate does (ok is
// false when v does not match, matches in more than one way, or the template has
// no such variable). A template with one variable between a literal prefix and
// suffix matches in one way at most, so that is read off the ends of v, without
// the search and its maps: cost and review read every sample item's variables.
func (t *KeyTemplate) Var(v Value, name string) (string, bool) {
	if t.oneVar == "" || len(v.Str) > oneVarMaxLen {
		vars, ok := ExtractTemplate(t.text, v)
		x, has := vars[name]
		return x, ok && has
	}
	s, ok := varText(v)
	if !ok || name != t.oneVar || len(s) < len(t.prefix)+len(t.suffix) ||
		!strings.HasPrefix(s, t.prefix) || !strings.HasSuffix(s, t.suffix) {
		return "", false
	}
	return s[len(t.prefix) : len(s)-len(t.suffix)], true
}

// oneVarMaxLen bounds the values Var reads off the ends: ExtractTemplate gives up
// after matchBudget tries, which a value this short (a key is at most 2,048 bytes)
// never reaches, so both answer alike.
const oneVarMaxLen = 4096

// Builds reports whether ExpandKey(t.text, it, t.ty) gives a value equal to v; the
// zero KeyTemplate builds nothing.
func (t *KeyTemplate) Builds(it Item, v Value) bool {
	same, full := t.expandsTo(it, v)
	return same && full
}

// expandsTo reports whether v equals ExpandKey(t.text, it, t.ty); full is false when
// the template cannot be expanded from it (ExpandKey's ok). It walks v's text along
// the template instead of building the key: loading and saving ask this of every
// key of every item, and building them was most of what they allocated.
func (t *KeyTemplate) expandsTo(it Item, v Value) (same, full bool) {
	if !t.ok {
		return false, false
	}
	if t.ty != TypeS || len(t.parts) == 1 && t.parts[0].isVar {
		// Numbers compare by value, and a lone variable gives the attribute's own
		// value: ExpandKey builds these without allocating anyway.
		want, full := expandParts(t.parts, it)
		return full && keyOfType(want, t.ty).Equal(v), full
	}
	rest, same := v.Str, v.Type == TypeS
	for _, p := range t.parts {
		text := p.text
		if p.isVar {
			var ok bool
			if text, ok = varText(it[p.text]); !ok {
				return false, false
			}
		}
		if same && strings.HasPrefix(rest, text) {
			rest = rest[len(text):]
		} else {
			same = false
		}
	}
	return same && rest == "", true
}

// matches is MatchTemplate(t's text, v), on the template parsed once.
func (t *KeyTemplate) matches(v Value) bool { return t.ok && matchParts(t.parts, v) }

// NewTemplater prepares d's templates; nil when d has no entities.
func NewTemplater(d *Design) *Templater {
	if len(d.Entities) == 0 {
		return nil
	}
	t := &Templater{
		typeAttr:  d.TypeAttr(),
		byName:    make(map[string]*Entity, len(d.Entities)),
		tableKeys: map[string]bool{d.Table.Key.Partition: true, d.Table.Key.Sort: true},
	}
	for i := range d.Entities {
		if _, dup := t.byName[d.Entities[i].Name]; !dup {
			t.byName[d.Entities[i].Name] = &d.Entities[i]
		}
	}
	t.keys = make(map[*Entity][]namedTemplate, len(t.byName))
	for _, e := range t.byName {
		for _, attr := range slices.Sorted(maps.Keys(e.Keys)) {
			t.keys[e] = append(t.keys[e], namedTemplate{attr, NewKeyTemplate(e.Keys[attr], d.Table.KeyAttributeType(attr))})
		}
	}
	return t
}

// Apply builds item i's missing key attributes from its entity's templates, and
// reports to c a missing table key that no template can build (the item has no
// place in the table). pos is where the item is. A key the item gives is kept as
// given, even when its template would build another (Mismatch says so).
func (t *Templater) Apply(i int, it Item, pos Pos, c *ErrorList) { t.apply(i, "", it, pos, c) }

// apply is Apply for item i of the design, or, when who is set, for the item who
// names (a pattern's).
func (t *Templater) apply(i int, who string, it Item, pos Pos, c *ErrorList) {
	e := t.entityOf(it)
	if e == nil {
		return
	}
	for k := range t.keys[e] {
		kt := &t.keys[e][k]
		if _, has := it[kt.attr]; has {
			continue
		}
		want, full := ExpandKey(kt.text, it, kt.ty)
		switch {
		case full:
			it[kt.attr] = want
		case t.tableKeys[kt.attr] && kt.attr != "":
			missing := missingVars(kt.text, it)
			c.Add(pos, fmt.Sprintf("give %s, or the attribute(s) %s", kt.attr, strings.Join(missing, ", ")),
				"%s (%s) has no %s and cannot build it from %q", itemName(i, who), e.Name, kt.attr, kt.text)
		}
	}
}

// entityOf is the entity the item's type attribute names, nil when none.
func (t *Templater) entityOf(it Item) *Entity {
	tv, ok := it[t.typeAttr]
	if !ok || tv.Type != TypeS {
		return nil
	}
	return t.byName[tv.Str]
}

// Mismatch says how item i's keys disagree with its entity's templates (FORMAT.md
// "Items and entities": where an item gives the key, the key must match the
// template): the first key attribute, in name order, whose template builds
// another value from the item's attributes, or whose shape the template cannot
// give when its variables are missing. msg and hint are "" when every key agrees.
func (t *Templater) Mismatch(i int, v ItemView) (msg, hint string) {
	return t.mismatch(i, "", v.Item, v.Entity)
}

// mismatch is Mismatch for item it of entity e (nil: none).
func (t *Templater) mismatch(i int, who string, it Item, e *Entity) (msg, hint string) {
	if e == nil {
		return "", ""
	}
	keys := t.keys[e]
	for k := range keys {
		kt := &keys[k]
		got, has := it[kt.attr]
		if !has {
			continue
		}
		same, full := kt.expandsTo(it, got)
		switch {
		case full && !same:
			want, _ := ExpandKey(kt.text, it, kt.ty)
			return fmt.Sprintf("%s (%s): %s %s does not match the template %q", itemName(i, who), e.Name, kt.attr, showValue(got), kt.text),
				fmt.Sprintf("make %s %s, or leave it out so the template builds it", kt.attr, showValue(want))
		case !full && !kt.matches(got):
			return fmt.Sprintf("%s (%s): %s %s does not match the template %q", itemName(i, who), e.Name, kt.attr, showValue(got), kt.text),
				"make the key follow the template, or give the item another type"
		}
	}
	return "", ""
}

// itemName is how a message names item i of the design, or the item who names.
func itemName(i int, who string) string {
	if who != "" {
		return who
	}
	return fmt.Sprintf("item %d", i)
}

// The items a pattern writes (a PutItem's item, the puts of a BatchWriteItem or
// TransactWriteItems) follow the same template rules as the design's items
// (FORMAT.md "Items and entities"; issue 25): the key attributes they leave out
// are built from their entity's templates, and a key they give that the template
// would not build is a finding (review's template-mismatch). So a pattern writes
// the keys the Items pane would, and after a template changes it writes the new
// ones, or is told it does not.

// writtenItem is one item a pattern writes: who names it in messages.
type writtenItem struct {
	who  string
	item Item
	pos  Pos
}

func writtenItems(p *Pattern) []writtenItem {
	var out []writtenItem
	if p.Item != nil {
		out = append(out, writtenItem{fmt.Sprintf("pattern %d's item", p.ID), p.Item, patternItemPos(p, p.ItemPos)})
	}
	for k, a := range p.Actions {
		if a.Kind == ActionPut && a.Item != nil {
			out = append(out, writtenItem{fmt.Sprintf("pattern %d's put %d", p.ID, k+1), a.Item, patternItemPos(p, a.ItemPos)})
		}
	}
	return out
}

func patternItemPos(p *Pattern, pos Pos) Pos {
	if pos.Line > 0 {
		return pos
	}
	return p.Pos
}

// ApplyToPatterns builds the key attributes the items d's patterns write leave
// out, and reports to c a missing table key no template can build, as Apply does
// for the design's items.
func (t *Templater) ApplyToPatterns(d *Design, c *ErrorList) {
	for pi := range d.Patterns {
		for _, w := range writtenItems(&d.Patterns[pi]) {
			t.apply(0, w.who, w.item, w.pos, c)
		}
	}
}

// PatternMismatch says how an item pattern p writes disagrees with its entity's
// templates (Mismatch); "" when every key agrees.
func (t *Templater) PatternMismatch(p *Pattern) (msg, hint string) {
	for _, w := range writtenItems(p) {
		if msg, hint := t.mismatch(0, w.who, w.item, t.entityOf(w.item)); msg != "" {
			return msg, hint
		}
	}
	return "", ""
}

// Derived is it without the key attributes its entity's templates build from its
// other attributes, as a design file writes it (the reader builds them again),
// except those written reports the file wrote (nil: none); it itself when nothing is
// left out.
func (t *Templater) Derived(it Item, written func(attr string) bool) Item {
	e := t.entityOf(it)
	if e == nil {
		return it
	}
	var out Item
	for k := range t.keys[e] {
		kt := &t.keys[e][k]
		if written != nil && written(kt.attr) {
			continue
		}
		if v, has := it[kt.attr]; has && kt.Builds(it, v) {
			if out == nil {
				out = it.Clone()
			}
			delete(out, kt.attr)
		}
	}
	if out == nil {
		return it
	}
	return out
}

func missingVars(tmpl string, it Item) []string {
	var out []string
	for _, v := range TemplateVars(tmpl) {
		if _, ok := varText(it[v]); !ok {
			out = append(out, v)
		}
	}
	return out
}

// showValue writes a scalar for a message: strings quoted, numbers as they are.
func showValue(v Value) string {
	switch v.Type {
	case TypeS:
		return fmt.Sprintf("%q", v.Str)
	case TypeN:
		return v.Str
	}
	return v.Type.String() + " value"
}

// itemPosAt is where item i of d is: itemPos[i] when known, else just the file.
func itemPosAt(d *Design, itemPos []Pos, i int) Pos {
	if i < len(itemPos) {
		return itemPos[i]
	}
	return Pos{File: d.Pos.File}
}
