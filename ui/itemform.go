package ui

import (
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"stwb/model"
	"stwb/render"
)

// The item form: the entity type, the other attributes as a YAML flow mapping, then
// one field per key attribute of the table and its indexes. A key field left empty
// is filled from the entity's template (FORMAT.md "Items and entities"); one that is
// given must match it.

// keyText writes a key attribute's value for its field; parseKeyText reads it back
// in the attribute's declared type.
func keyText(v model.Value) string {
	if v.Type == model.TypeB {
		return base64.StdEncoding.EncodeToString([]byte(v.Str))
	}
	return v.Str
}

func parseKeyText(s string, ty model.Type) (model.Value, error) {
	switch ty {
	case model.TypeN:
		n, err := model.ParseNumber(strings.TrimSpace(s))
		if err != nil {
			return model.Value{}, fmt.Errorf("the attribute is declared N: %v", err)
		}
		return model.Num(n.String()), nil
	case model.TypeB:
		b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
		if err != nil {
			return model.Value{}, fmt.Errorf("the attribute is declared B: write it in base64")
		}
		return model.Bin(b), nil
	}
	return model.Str(s), nil
}

// derivedKey is the value entity e's template builds for key attribute k from the
// item's other attributes; ok is false when e has no template for k or the item
// lacks an attribute the template needs.
func derivedKey(d *model.Design, e *model.Entity, k string, it model.Item) (model.Value, bool) {
	if e == nil || e.Keys[k] == "" {
		return model.Value{}, false
	}
	return model.ExpandKey(e.Keys[k], it, d.Table.KeyAttributeType(k))
}

// entityOf is the entity an item's type attribute names, nil when none.
func entityOf(d *model.Design, it model.Item) *model.Entity {
	if t, ok := it[d.TypeAttr()]; ok && t.Type == model.TypeS {
		return d.EntityByName(t.Str)
	}
	return nil
}

// withoutDerivedKeys is a copy of it without the key attributes its entity's
// templates build from its other attributes: what the design file leaves out, and
// what follows the attributes when they change.
func withoutDerivedKeys(d *model.Design, it model.Item) model.Item {
	out := it.Clone()
	e := entityOf(d, it)
	if e == nil {
		return out
	}
	for k := range e.Keys {
		if v, ok := derivedKey(d, e, k, it); ok && v.Equal(it[k]) {
			delete(out, k)
		}
	}
	return out
}

// itemFromForm builds the item and reports the problems per field. A key field left
// empty is derived from the entity's template; one that is given is an override,
// which the loader's rule holds to the template. Every other check is the loader's
// (itemProblems), so the form refuses exactly what stwb would refuse to open.
func itemFromForm(w *world, editing int, v map[string]string) (model.Item, map[string]string) {
	d := w.doc.D
	errs := map[string]string{}
	bad := func(f, format string, args ...any) {
		if _, ok := errs[f]; !ok {
			errs[f] = fmt.Sprintf(format, args...)
		}
	}
	it := model.Item{}
	attrs, err := parseMapping(v["attributes"])
	if err != nil {
		bad("attributes", "%v", err)
	}
	for k, x := range attrs {
		it[k] = x
	}
	if typeName := strings.TrimSpace(v["type"]); typeName != "" {
		it[d.TypeAttr()] = model.Str(typeName)
	}
	ent := entityOf(d, it)
	keys := model.KeyAttributeNames(&d.Table)
	for _, k := range keys {
		if _, dup := attrs[k]; dup {
			bad("attributes", "%s is a key attribute: give it in its own field below", k)
		}
		if s := v["key:"+k]; s != "" {
			val, err := parseKeyText(s, d.Table.KeyAttributeType(k))
			if err != nil {
				bad("key:"+k, "%v", err)
				continue
			}
			it[k] = val
		}
	}
	for _, k := range keys {
		if _, given := it[k]; given || ent == nil || ent.Keys[k] == "" {
			continue
		}
		if val, ok := derivedKey(d, ent, k, it); ok {
			it[k] = val
		} else if k == d.Table.Key.Partition || k == d.Table.Key.Sort {
			bad("key:"+k, "empty, and the %s template %s needs %s in attributes", ent.Name, ent.Keys[k], strings.Join(model.TemplateVars(ent.Keys[k]), ", "))
		}
	}
	if len(errs) > 0 {
		return it, errs
	}
	for _, msg := range itemProblems(d, it) {
		f := "attributes"
		for _, k := range keys {
			if slices.Contains(messageWords(msg), k) {
				f = "key:" + k
				break
			}
		}
		bad(f, "%s", msg)
	}
	if len(errs) > 0 {
		return it, errs
	}
	if g := w.grid(""); g != nil {
		if r := g.FindKey(d, it); r >= 0 && int(g.Rows[r].Item) != editing {
			bad("key:"+d.Table.Key.Partition, "item %d already has this key (%s); keys are unique", g.Rows[r].Item, render.KeyString(it, d.Table.Key.Partition, d.Table.Key.Sort))
		}
	}
	return it, errs
}

// itemProblems is what the loader says of it alone (its keys' types, sizes and
// templates, its size, its values): model.Validate of a design holding the table,
// the entities and this one item, the item's number left out of the messages.
func itemProblems(d *model.Design, it model.Item) []string {
	one := &model.Design{Version: 1, Name: d.Name, Table: d.Table, Entities: d.Entities, Items: []model.Item{it}}
	var out []string
	var list model.ErrorList
	errors.As(model.Validate(one), &list)
	list = append(list, model.TemplateMismatches(one, nil)...) // as Doc.editProblems
	if len(list) > 0 {
		for _, e := range list {
			msg := problemText(e)
			if rest, ok := strings.CutPrefix(msg, "item 0"); ok {
				rest = strings.TrimPrefix(rest, ":")
				if t, ok := strings.CutPrefix(strings.TrimSpace(rest), "("); ok {
					if i := strings.Index(t, "):"); i >= 0 {
						rest = t[i+2:]
					}
				}
				out = append(out, strings.TrimSpace(rest))
			}
		}
	}
	return out
}

func messageWords(msg string) []string {
	return strings.FieldsFunc(msg, func(r rune) bool {
		return r == ' ' || r == ':' || r == ',' || r == '(' || r == ')' || r == '"' || r == '.'
	})
}

// newItemForm is the add (editing -1) or edit form of an item, starting from base.
// suggested says base's type is a guess (the row under the cursor) that typing
// replaces.
func newItemForm(w *world, editing int, base model.Item, suggested bool) *form {
	d := w.doc.D
	title := "Add an item"
	if editing >= 0 {
		title = fmt.Sprintf("Edit item %d", editing)
	}
	f := newForm(title, w.km, w.st)
	typeName := ""
	if t, ok := base[d.TypeAttr()]; ok && t.Type == model.TypeS {
		typeName = t.Str
	}
	// Keys the templates build are left out, so that they follow the attributes.
	given := withoutDerivedKeys(d, base)
	rest := map[string]model.Value{}
	keys := model.KeyAttributeNames(&d.Table)
	for k, v := range given {
		if k != d.TypeAttr() && !slices.Contains(keys, k) {
			rest[k] = v
		}
	}
	var lastKey string
	var lastErrs map[string]string
	var lastItem model.Item
	build := func(v map[string]string) {
		if k := fmt.Sprint(v); k != lastKey {
			lastItem, lastErrs = itemFromForm(w, editing, v)
			lastKey = k
		}
	}
	check := func(field string) func(map[string]string) error {
		return func(v map[string]string) error {
			build(v)
			if msg, ok := lastErrs[field]; ok {
				return errors.New(msg)
			}
			return nil
		}
	}
	var ents []string
	for _, e := range d.Entities {
		ents = append(ents, e.Name)
	}
	sort.Strings(ents)
	f.add("type", d.TypeAttr(), typeName, "entity: "+orNone(ents)+" (empty: untyped)", check("type"))
	f.fields[0].suggested = suggested && typeName != ""
	f.fields[0].live = func(v map[string]string) string {
		if t := strings.TrimSpace(v["type"]); t != "" && d.EntityByName(t) == nil {
			return fmt.Sprintf("no entity %q: the item is untyped (entities: %s)", t, orNone(ents))
		}
		return ""
	}
	f.add("attributes", "attributes", formatMapping(rest), "the other attributes: {name: value, total: 12.5, tags: !ss [a, b]}", check("attributes"))
	for _, k := range keys {
		val := ""
		if v, ok := given[k]; ok {
			val = keyText(v)
		}
		help := fmt.Sprintf("%s (%s); empty: built from the entity's template", k, d.Table.KeyAttributeType(k))
		f.add("key:"+k, k, val, help, check("key:"+k))
		k := k
		f.fields[len(f.fields)-1].live = func(v map[string]string) string {
			build(v)
			e := entityOf(d, lastItem)
			if e == nil || e.Keys[k] == "" {
				return ""
			}
			if v["key:"+k] != "" {
				return fmt.Sprintf("override: the %s template is %s (empty this field to derive it)", e.Name, e.Keys[k])
			}
			if x, ok := lastItem[k]; ok {
				return fmt.Sprintf("derived: %s (from %s)", keyText(x), e.Keys[k])
			}
			return ""
		}
	}
	f.submit = func(v map[string]string) (edit, error) {
		it, errs := itemFromForm(w, editing, v)
		if len(errs) > 0 {
			return edit{}, errors.New("fix the fields marked ✗ first")
		}
		if editing >= 0 {
			return itemEdit(fmt.Sprintf("edited item %d", editing), opSet, editing, d.Items[editing], it), nil
		}
		return itemEdit(fmt.Sprintf("added item %s", render.KeyString(it, d.Table.Key.Partition, d.Table.Key.Sort)), opInsert, len(d.Items), nil, it), nil
	}
	target := editing
	if target < 0 {
		target = len(d.Items)
	}
	f.after = w.nowFn(selectItem{index: target})
	return f
}
