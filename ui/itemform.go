package ui

import (
	"encoding/base64"
	"errors"
	"fmt"
	"sort"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

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

// itemFromForm builds the item and reports the problems per field.
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
	typeName := strings.TrimSpace(v["type"])
	var ent *model.Entity
	if typeName != "" {
		it[d.TypeAttr()] = model.Str(typeName)
		if ent = d.EntityByName(typeName); ent == nil {
			var names []string
			for _, e := range d.Entities {
				names = append(names, e.Name)
			}
			bad("type", "no entity %q: the entities are %s (an untyped item is allowed: leave this empty)", typeName, orNone(names))
		}
	}
	for _, k := range model.KeyAttributeNames(&d.Table) {
		if _, dup := attrs[k]; dup {
			bad("attributes", "%s is a key attribute: give it in its own field below", k)
		}
		ty := d.Table.KeyAttributeType(k)
		s := v["key:"+k]
		tmpl := ""
		if ent != nil {
			tmpl = ent.Keys[k]
		}
		switch {
		case s != "":
			val, err := parseKeyText(s, ty)
			if err != nil {
				bad("key:"+k, "%v", err)
				continue
			}
			if tmpl != "" && !model.MatchTemplate(tmpl, val) {
				bad("key:"+k, "does not match the %s template %s", typeName, tmpl)
			}
			it[k] = val
		case tmpl != "":
			val, ok := model.ExpandKey(tmpl, it, ty)
			if !ok {
				bad("key:"+k, "empty, and the %s template %s needs %s in attributes", typeName, tmpl, strings.Join(model.TemplateVars(tmpl), ", "))
				continue
			}
			it[k] = val
		}
	}
	for _, k := range []string{d.Table.Key.Partition, d.Table.Key.Sort} {
		if k != "" && errs["key:"+k] == "" {
			if _, ok := it[k]; !ok {
				bad("key:"+k, "every item needs the table's key attribute %s (give it, or choose an entity whose template builds it)", k)
			}
		}
	}
	if len(errs) > 0 {
		return it, errs
	}
	for _, k := range model.KeyAttributeNames(&d.Table) {
		x, ok := it[k]
		if !ok {
			continue
		}
		if x.Type == model.TypeS && x.Str == "" || x.Type == model.TypeB && x.Str == "" {
			// HowItWorks.NamingRulesDataTypes.html: key attributes cannot be empty.
			bad("key:"+k, "One or more parameter values are not valid. A value specified for a key attribute cannot be empty")
		}
	}
	// HowItWorks.NamingRulesDataTypes.html "Partition key" and "Sort key" limits.
	if x, ok := it[d.Table.Key.Partition]; ok && len(x.Str) > model.MaxPartitionKeyBytes {
		bad("key:"+d.Table.Key.Partition, "the partition key is %d bytes; DynamoDB allows %d", len(x.Str), model.MaxPartitionKeyBytes)
	}
	if x, ok := it[d.Table.Key.Sort]; ok && len(x.Str) > model.MaxSortKeyBytes {
		bad("key:"+d.Table.Key.Sort, "the sort key is %d bytes; DynamoDB allows %d", len(x.Str), model.MaxSortKeyBytes)
	}
	if sz := model.ItemSize(it); sz > model.MaxItemSize {
		bad("attributes", "Item size has exceeded the maximum allowed size: %d bytes, DynamoDB allows %d", sz, model.MaxItemSize)
	}
	if g := w.grid(""); g != nil {
		if r := g.FindKey(d, it); r >= 0 && int(g.Rows[r].Item) != editing {
			bad("key:"+d.Table.Key.Partition, "item %d already has this key (%s); keys are unique", g.Rows[r].Item, render.KeyString(it, d.Table.Key.Partition, d.Table.Key.Sort))
		}
	}
	return it, errs
}

// newItemForm is the add (editing -1) or edit form of an item, starting from base.
func newItemForm(w *world, editing int, base model.Item) *form {
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
	rest := map[string]model.Value{}
	keys := model.KeyAttributeNames(&d.Table)
	for k, v := range base {
		if k != d.TypeAttr() && !contains(keys, k) {
			rest[k] = v
		}
	}
	var lastKey string
	var lastErrs map[string]string
	check := func(field string) func(map[string]string) error {
		return func(v map[string]string) error {
			if k := fmt.Sprint(v); k != lastKey {
				_, lastErrs = itemFromForm(w, editing, v)
				lastKey = k
			}
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
	f.add("attributes", "attributes", formatMapping(rest), "the other attributes: {name: value, total: 12.5, tags: !ss [a, b]}", check("attributes"))
	for _, k := range keys {
		val := ""
		if v, ok := base[k]; ok {
			val = keyText(v)
		}
		help := fmt.Sprintf("%s (%s); empty: built from the entity's template", k, d.Table.KeyAttributeType(k))
		f.add("key:"+k, k, val, help, check("key:"+k))
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
	f.after = func() tea.Cmd { return cmdOf(selectItem{index: target}) }
	return f
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}
