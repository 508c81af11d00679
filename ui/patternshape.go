package ui

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"stwb/designfile"
	"stwb/model"
)

// The pattern form is shaped by its operation (issue 25): it shows the fields the
// chosen operation takes (model.OperationFields, the loader's rule), in the order a
// person thinks of them (what it is called and how often, the operation, where it
// reads, the key, then what narrows or changes the result), then the fields every
// pattern has. The values of the expressions are a field each, named by their
// placeholder (:pk), next to the expression that first uses them; a GetItem's key
// is a field per key attribute. Changing the operation reshapes the form and keeps
// the text of what no longer applies for when it does again. The form is still
// read by patternFromForm from the flat fields of FORMAT.md (flatten builds them),
// so the palette's :newpattern and the form refuse the same things in the same
// words.

// requestOrder is the order of the fields an operation may take.
var requestOrder = []string{"statement", "parameters", "index", "key", "keys", "item", "actions",
	"update", "condition", "filter", "projection", "forward", "limit", "pages", "consistent", "fanout", "batch"}

// expressionFields are the fields whose text uses :values and #names.
var expressionFields = []string{"key", "update", "condition", "filter", "projection"}

// patternForm is the state the pattern form's functions share.
type patternForm struct {
	w       *world
	base    model.Pattern
	editing int
	f       *form
	op      model.Operation // the last operation the field named in full
	// nameFor is the attribute a #name of an offered key condition stands for.
	nameFor map[string]string
	// values holds attributeValues by attribute: the design does not change while
	// the form is open, and a key should not read 20,000 items.
	values map[string][]string
	// the last check: its values, the pattern they make and each field's error.
	lastKey string
	last    model.Pattern
	errs    map[string]string
}

// newPatternForm builds the add or edit form of a pattern. editing is the pattern's
// index, or -1 to add one.
func newPatternForm(w *world, editing int, base model.Pattern) *form {
	title := "Add an access pattern"
	if editing >= 0 {
		title = fmt.Sprintf("Edit access pattern %d", base.ID)
	}
	pf := &patternForm{w: w, base: base, editing: editing, op: base.Operation, nameFor: map[string]string{}}
	f := newForm(title, w.km, w.st)
	pf.f = f
	d := w.doc.D
	vals := patternFormValues(&base)
	// The flat fields the form shows as fields of their own.
	delete(vals, "values")
	delete(vals, "names")
	if base.Operation != model.OpQuery {
		delete(vals, "key")
	}
	for k, v := range base.Values {
		vals[k] = pf.valueText(base, k, v)
	}
	for k, v := range base.Names {
		vals[k] = v
	}
	for k, v := range base.Key {
		vals["key:"+k] = keyText(v)
	}
	f.initial = vals
	f.build = pf.field
	f.shape = pf.shape
	for _, name := range pf.shape(vals) {
		fl := pf.field(name)
		fl.input = newFieldInput(vals[name])
		f.fields = append(f.fields, fl)
	}
	f.fields[0].input.Focus()
	// A new pattern's operation is a guess: the first letter typed replaces it.
	f.field("operation").suggested = editing < 0
	f.validate()
	f.submit = func(v map[string]string) (edit, error) {
		p, errs := pf.check(v)
		if len(errs) > 0 {
			return edit{}, fmt.Errorf("fix the fields marked ✗ first")
		}
		if editing >= 0 {
			return sliceEdit(fmt.Sprintf("edited pattern %d", p.ID), false, patternsOf, opSet, editing, d.Patterns[editing], p), nil
		}
		at := len(d.Patterns)
		return sliceEdit(fmt.Sprintf("added pattern %d", p.ID), false, patternsOf, opInsert, at, model.Pattern{}, p), nil
	}
	idx := editing
	if idx < 0 {
		idx = len(d.Patterns)
	}
	f.after = w.nowFn(selectPattern{index: idx})
	f.aside = newPatternPreview(pf)
	return f
}

// operation is the operation the values name, or while the field is being typed
// (t, Trans...) the last one it named.
func (pf *patternForm) operation(vals map[string]string) model.Operation {
	o := model.Operation(strings.TrimSpace(vals["operation"]))
	if slices.Contains(model.Operations, o) {
		pf.op = o
	}
	return pf.op
}

// shape lists the fields the form shows for vals.
func (pf *patternForm) shape(vals map[string]string) []string {
	d := pf.w.doc.D
	op := pf.operation(vals)
	takes := model.OperationFields(op)
	out := []string{"name", "rate", "operation"}
	placed := map[string]bool{}
	place := func(field string) {
		for _, ph := range placeholderRE.FindAllString(vals[field], -1) {
			if !placed[ph] {
				placed[ph] = true
				out = append(out, ph)
			}
		}
	}
	lastExpr := len(out)
	for _, f := range requestOrder {
		if !slices.Contains(takes, f) {
			continue
		}
		if f == "key" && op != model.OpQuery {
			for _, k := range []string{d.Table.Key.Partition, d.Table.Key.Sort} {
				if k != "" {
					out = append(out, "key:"+k)
				}
			}
			continue
		}
		out = append(out, f)
		if slices.Contains(expressionFields, f) {
			place(f)
			lastExpr = len(out)
		}
	}
	// The pattern's own values and names no expression uses any more stay while
	// they hold text: they are a ValidationException (unused), shown at them.
	var left []string
	for _, ph := range slices.Sorted(func(yield func(string) bool) {
		for k := range pf.base.Values {
			yield(k)
		}
		for k := range pf.base.Names {
			yield(k)
		}
	}) {
		if !placed[ph] && pf.textOf(vals, ph) != "" {
			left = append(left, ph)
		}
	}
	out = slices.Insert(out, lastExpr, left...)
	if !op.IsWrite() {
		out = append(out, "expect")
	}
	return append(out, "expectError", "holds", "returns", "order", "cardinality", "partitions", "id")
}

// textOf is field name's text: shown, kept or as the form opened.
func (pf *patternForm) textOf(vals map[string]string, name string) string {
	if v, ok := vals[name]; ok {
		return v
	}
	if v, ok := pf.f.kept[name]; ok {
		return v
	}
	return pf.f.initial[name]
}

// field is the definition of field name (its text is the form's).
func (pf *patternForm) field(name string) formField {
	d := pf.w.doc.D
	fl := formField{name: name, label: name, check: pf.checkFn(name)}
	for _, x := range patternFields {
		if x[0] == name {
			fl.label, fl.help = x[1], x[2]
		}
	}
	switch {
	case name == "operation":
		fl.choice = true
		fl.help = "type its first letters or capitals (g GetItem, q Query, tw TransactWriteItems); tab or enter takes it"
		fl.complete = func(_ map[string]string, text string) []string { return operationFits(text) }
	case name == "index":
		names := []string{}
		for _, ix := range d.Table.Indexes {
			names = append(names, ix.Name)
		}
		fl.choice = true
		fl.help = "empty: the table; or " + orNone(names) + " (first letters, tab)"
		fl.complete = func(_ map[string]string, text string) []string { return indexFits(d, text) }
	case name == "key":
		fl.help = "KeyConditionExpression over the index's key; tab offers them"
		fl.complete = func(vals map[string]string, text string) []string {
			return keyConditionFits(d, strings.TrimSpace(vals["index"]), text, pf.nameFor)
		}
	case strings.HasPrefix(name, "key:"):
		attr := strings.TrimPrefix(name, "key:")
		fl.label = "key " + attr
		fl.help = fmt.Sprintf("the item's %s (%s); tab offers the items' values", attr, d.Table.KeyAttributeType(attr))
		fl.complete = func(_ map[string]string, text string) []string { return prefixFits(pf.valuesOf(attr), text) }
	case strings.HasPrefix(name, ":"):
		fl.help = "the value of " + name + " in the expressions (ExpressionAttributeValues), as the design file writes it"
		fl.complete = func(vals map[string]string, text string) []string {
			if a := pf.comparedWith(vals, name); a != "" {
				return prefixFits(pf.valuesOf(a), text)
			}
			return nil
		}
	case strings.HasPrefix(name, "#"):
		fl.help = "the attribute " + name + " stands for in the expressions (ExpressionAttributeNames)"
		fl.input = newFieldInput(pf.nameFor[name]) // the attribute of a key condition offered
		fl.complete = func(_ map[string]string, text string) []string { return foldFits(attributeNames(d), text) }
	case slices.Contains([]string{"filter", "condition", "update", "projection"}, name):
		fl.complete = func(_ map[string]string, text string) []string { return wordFits(text, expressionWords(d)) }
	case slices.Contains([]string{"item", "keys", "actions"}, name):
		fl.complete = func(_ map[string]string, text string) []string { return flowFits(d, name, text, pf.valuesOf) }
	case name == "expectError":
		fl.complete = func(_ map[string]string, text string) []string { return foldFits(errorTypes, text) }
	}
	return fl
}

// valuesOf is attributeValues of attribute a, read once per form.
func (pf *patternForm) valuesOf(a string) []string {
	if pf.values == nil {
		pf.values = map[string][]string{}
	}
	v, ok := pf.values[a]
	if !ok {
		v = attributeValues(pf.w.doc.D, a)
		pf.values[a] = v
	}
	return v
}

// checkFn is field name's check: one check of the whole pattern per change serves
// every field.
func (pf *patternForm) checkFn(name string) func(map[string]string) error {
	return func(vals map[string]string) error {
		if _, errs := pf.check(vals); errs[name] != "" {
			return errors.New(errs[name])
		}
		return nil
	}
}

// check is the pattern the form's values make and each field's error, computed once
// per change of the values.
func (pf *patternForm) check(vals map[string]string) (model.Pattern, map[string]string) {
	k := fmt.Sprint(vals)
	if k == pf.lastKey && pf.errs != nil {
		return pf.last, pf.errs
	}
	d := pf.w.doc.D
	flat, errs := pf.flatten(vals)
	// A pattern not named yet is still a request: it is checked (and previewed)
	// as one, the name's error aside.
	unnamed := strings.TrimSpace(flat["name"]) == ""
	if unnamed {
		flat["name"] = "(not named yet)"
	}
	p, perrs := patternFromForm(d, pf.base, pf.editing, flat)
	if unnamed {
		p.Name = ""
		perrs["name"] = "say what the pattern does, such as: Get a customer's profile"
	}
	for _, field := range slices.Sorted(func(yield func(string) bool) {
		for f := range perrs {
			yield(f)
		}
	}) {
		at := pf.fieldFor(vals, field, perrs[field])
		if pf.placeholderBlamed(errs, perrs[field]) {
			continue // "value :pk is not defined" while :pk's own field says why
		}
		if _, taken := errs[at]; !taken {
			errs[at] = perrs[field]
		}
	}
	pf.lastKey, pf.last, pf.errs = k, p, errs
	return p, errs
}

// placeholderBlamed reports whether msg is about a :value or #name whose own field
// already has an error.
func (pf *patternForm) placeholderBlamed(errs map[string]string, msg string) bool {
	for _, ph := range placeholderRE.FindAllString(msg, -1) {
		if errs[ph] != "" {
			return true
		}
	}
	return false
}

// flatten builds FORMAT.md's fields from the form's: the values and names from their
// fields, a GetItem's key from its attributes' fields. errs holds the errors of the
// fields it reads.
func (pf *patternForm) flatten(vals map[string]string) (map[string]string, map[string]string) {
	d := pf.w.doc.D
	errs := map[string]string{}
	flat := map[string]string{}
	values := map[string]model.Value{}
	names := map[string]string{}
	key := map[string]model.Value{}
	for name, text := range vals {
		switch {
		case strings.HasPrefix(name, ":"):
			if strings.TrimSpace(text) == "" {
				errs[name] = "give the value of " + name + " (tab offers the values the items hold)"
				continue
			}
			v, err := pf.parseValueText(vals, name, text)
			if err != nil {
				errs[name] = err.Error()
				continue
			}
			values[name] = v
		case strings.HasPrefix(name, "#"):
			if strings.TrimSpace(text) == "" {
				errs[name] = "give the attribute " + name + " stands for"
				continue
			}
			names[name] = strings.TrimSpace(text)
		case strings.HasPrefix(name, "key:"):
			attr := strings.TrimPrefix(name, "key:")
			if text == "" {
				continue // missing: the loader's words, at this field
			}
			v, err := parseKeyText(text, d.Table.KeyAttributeType(attr))
			if err != nil {
				errs[name] = err.Error()
				continue
			}
			key[attr] = v
		default:
			flat[name] = text
		}
	}
	flat["values"] = formatMapping(values)
	flat["names"] = formatNames(names)
	if _, getLike := vals["key:"+d.Table.Key.Partition]; getLike {
		flat["key"] = formatMapping(key)
	}
	return flat, errs
}

// fieldFor is the field shown that an error of patternFromForm's field belongs to.
func (pf *patternForm) fieldFor(vals map[string]string, field, msg string) string {
	if _, shown := vals[field]; shown {
		return field
	}
	var prefix string
	switch field {
	case "values":
		prefix = ":"
	case "names":
		prefix = "#"
	case "key":
		prefix = "key:"
	default:
		return "operation"
	}
	var first string
	for _, w := range messageWords(msg) {
		for _, cand := range []string{w, prefix + w} {
			if _, ok := vals[cand]; ok && strings.HasPrefix(cand, prefix) {
				return cand
			}
		}
	}
	for _, n := range pf.f.fieldNames() {
		if strings.HasPrefix(n, prefix) {
			first = n
			break
		}
	}
	if first == "" {
		return "operation"
	}
	return first
}

// comparedWith is the attribute placeholder ph is compared with in the form's
// expressions.
func (pf *patternForm) comparedWith(vals map[string]string, ph string) string {
	var exprs []string
	for _, f := range expressionFields {
		exprs = append(exprs, vals[f])
	}
	return comparedAttribute(exprs, ph, func(n string) string { return strings.TrimSpace(pf.textOf(vals, n)) })
}

// declaredType is attribute a's type where the design declares one: a key
// attribute's, or an entity's attribute's (0 when none does or they differ).
func declaredType(d *model.Design, a string) model.Type {
	if slices.Contains(model.KeyAttributeNames(&d.Table), a) {
		return d.Table.KeyAttributeType(a)
	}
	var t model.Type
	for _, e := range d.Entities {
		for _, x := range e.Attributes {
			if x.Name == a && x.Type != 0 {
				if t != 0 && t != x.Type {
					return 0
				}
				t = x.Type
			}
		}
	}
	return t
}

// parseValueText reads a value field: as the type of the attribute it is compared
// with when the design declares it S, N or B (STUDENT#s-1 and 2024 are strings
// for an S key), else as the design file writes a value.
func (pf *patternForm) parseValueText(vals map[string]string, ph, text string) (model.Value, error) {
	switch declaredType(pf.w.doc.D, pf.comparedWith(vals, ph)) {
	case model.TypeS, model.TypeN, model.TypeB:
		return parseKeyText(text, declaredType(pf.w.doc.D, pf.comparedWith(vals, ph)))
	}
	return parseValue(text)
}

// valueText is a pattern's value v of placeholder ph as its field shows it: plain
// when it has the type of the attribute it is compared with, else as the design
// file writes it.
func (pf *patternForm) valueText(p model.Pattern, ph string, v model.Value) string {
	vals := map[string]string{"key": p.KeyCondition, "update": p.Update, "condition": p.Condition, "filter": p.Filter}
	for k, n := range p.Names {
		vals[k] = n
	}
	var exprs []string
	for _, f := range expressionFields {
		exprs = append(exprs, vals[f])
	}
	a := comparedAttribute(exprs, ph, func(n string) string { return p.Names[n] })
	if t := declaredType(pf.w.doc.D, a); t == v.Type && (t == model.TypeS || t == model.TypeN || t == model.TypeB) {
		return keyText(v)
	}
	return formatNode(designfile.ValueToNode(v))
}
