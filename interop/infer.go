package interop

// A design from a table's items alone (issue 16): what `stwb import --endpoint`
// reads from a live table is a key schema and a sample of items, with no facets to
// say which item is which entity. The items are grouped as a person reading them
// would: by a type attribute they carry (type, Type, entityType, EntityType), or
// else by the prefixes of their keys ("CUST#42" and "PROFILE" make one group,
// "CUST#42" and "ORDER#9f2a" another); each group becomes an entity whose key
// templates are inferred as the Workbench import infers them (inferTemplate).

import (
	"fmt"
	"sort"
	"strings"

	"stwb/model"
)

// InferDesign makes a design of a table and sample items: the items grouped into
// entities with inferred key templates. The notes say what was inferred.
func InferDesign(t model.Table, items []model.Item) (*model.Design, []string) {
	d := &model.Design{Version: 1, Name: t.Name, Table: t}
	var notes []string
	note := func(format string, args ...any) {
		notes = append(notes, fmt.Sprintf("table %s: ", t.Name)+fmt.Sprintf(format, args...))
	}
	groups := groupItems(items, &d.Table)
	var fds []facetData
	for _, g := range groups {
		fds = append(fds, facetData{name: g.name, attrs: g.attrs, items: g.items, path: "entity " + g.name})
	}
	if len(fds) > 0 {
		inferEntities(d, items, fds, map[string]model.Type{}, note)
		var named []string
		for _, g := range groups {
			named = append(named, fmt.Sprintf("%s (%d items, %s)", g.name, len(g.items), g.why))
		}
		note("entities inferred from the sample: %s", strings.Join(named, "; "))
	}
	d.Items = items
	return d, notes
}

type itemGroup struct {
	name  string
	why   string
	attrs []string
	items []int
}

// groupItems groups the items by their own type attribute when one is on every
// item as a string, else by the prefixes ("CUST" of "CUST#42") of their table
// keys. Groups are in order of their first item.
func groupItems(items []model.Item, t *model.Table) []itemGroup {
	if len(items) == 0 {
		return nil
	}
	keyOf := func(it model.Item) (name, why string) {
		for _, a := range typeAttributeNames(items) {
			if v, ok := it[a]; ok && v.Type == model.TypeS && v.Str != "" {
				return v.Str, a + " = " + v.Str
			}
		}
		pk, sk := keyPrefix(it, t.Key.Partition), keyPrefix(it, t.Key.Sort)
		switch {
		case pk == "" && sk == "":
			return "item", "keys without a prefix"
		case sk == "" || t.Key.Sort == "":
			return strings.ToLower(pk), "partition key " + pk + "#..."
		}
		return strings.ToLower(pk) + "-" + strings.ToLower(sk), "keys " + pk + "#... / " + sk + "..."
	}
	index := map[string]int{}
	var out []itemGroup
	attrSets := []map[string]bool{}
	for i, it := range items {
		name, why := keyOf(it)
		k, ok := index[name]
		if !ok {
			k = len(out)
			index[name] = k
			out = append(out, itemGroup{name: name, why: why})
			attrSets = append(attrSets, map[string]bool{})
		}
		out[k].items = append(out[k].items, i)
		for a := range it {
			attrSets[k][a] = true
		}
	}
	for k := range out {
		out[k].attrs = sortedStrings(attrSets[k])
	}
	return out
}

// typeAttributeNames lists the attributes, named like a type attribute, that
// every item holds as a string: the items' own entity names.
func typeAttributeNames(items []model.Item) []string {
	var out []string
	for _, a := range []string{"type", "Type", "entityType", "EntityType", "_type"} {
		all := true
		for _, it := range items {
			if v, ok := it[a]; !ok || v.Type != model.TypeS || v.Str == "" {
				all = false
				break
			}
		}
		if all {
			out = append(out, a)
		}
	}
	sort.Strings(out)
	return out[:min(len(out), 1)]
}

// keyPrefix is the literal head of a key value: the text before its first "#"
// ("CUST" of "CUST#42"), or the whole value when it has no "#" and no digit (a
// constant such as PROFILE); "" otherwise.
func keyPrefix(it model.Item, attr string) string {
	if attr == "" {
		return ""
	}
	v, ok := it[attr]
	if !ok || v.Type != model.TypeS {
		return ""
	}
	head, _, found := strings.Cut(v.Str, templateSeparator)
	if !found {
		if strings.ContainsAny(v.Str, "0123456789") {
			return ""
		}
		return v.Str
	}
	if strings.ContainsAny(head, "0123456789") {
		return ""
	}
	return head
}
