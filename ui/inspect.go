package ui

import (
	"fmt"
	"slices"
	"strings"

	"stwb/designfile"
	"stwb/model"
	"stwb/render"
)

// The item inspector (i in the Items pane): one item whole, every attribute with its
// type, its size as DynamoDB counts it (model.AttributeSize: name and value bytes),
// its whole value; the indexes it is in and the key it has there (an index holds
// only items that carry its key attributes: a sparse index); and the patterns whose
// current results return it, at which position.

// inspectLines draws item i of d at width w; results are the patterns' current
// results (nil while they are computed).
func inspectLines(d *model.Design, i int, results []*resultOf, w int, st Styles) []string {
	it := d.Items[i]
	r := st.Render
	ent := "untyped"
	if t, ok := it[d.TypeAttr()]; ok && t.Type == model.TypeS {
		ent = t.Str
	}
	lines := []string{r.Header.Render(render.Clip(fmt.Sprintf("Item %d · %s · %d bytes (the item size DynamoDB bills and limits to 400 KB)", i, ent, model.ItemSize(it)), w))}
	names := make([]string, 0, len(it))
	for k := range it {
		names = append(names, k)
	}
	keys := model.KeyAttributeNames(&d.Table)
	slices.SortFunc(names, func(a, b string) int {
		ka, kb := slices.Index(keys, a), slices.Index(keys, b)
		switch {
		case ka >= 0 && kb >= 0:
			return ka - kb
		case ka >= 0:
			return -1
		case kb >= 0:
			return 1
		}
		return strings.Compare(a, b)
	})
	nameW := 6
	for _, n := range names {
		nameW = max(nameW, min(24, render.Width(n)))
	}
	lines = append(lines, r.Dim.Render(render.Fit("attribute", nameW)+"  type  bytes  value"))
	valW := max(10, w-nameW-15)
	for _, n := range names {
		v := it[n]
		head := fmt.Sprintf("%s  %-4s %6d  ", render.Fit(n, nameW), v.Type, model.AttributeSize(n, v))
		for j, l := range render.Wrap(valueText(v), valW) {
			if j == 0 {
				lines = append(lines, head+l)
			} else {
				lines = append(lines, strings.Repeat(" ", nameW+15)+l)
			}
		}
	}
	lines = append(lines, "", r.Header.Render("In"))
	lines = append(lines, "  table "+d.Table.Name+": "+keyDesc(it, d.Table.Key))
	for _, ix := range d.Table.Indexes {
		// In the index only with every key attribute (a multi-attribute key's too).
		k := d.Table.IndexKey(&ix)
		if missingKey(it, k) == "" {
			lines = append(lines, render.Clip("  "+ix.Name+": "+keyDesc(it, k), w))
		} else {
			lines = append(lines, r.Dim.Render(render.Clip("  not in "+ix.Name+": it has no "+missingKey(it, k), w)))
		}
	}
	lines = append(lines, "", r.Header.Render("Returned by"))
	switch {
	case results == nil:
		lines = append(lines, r.Dim.Render("  running the patterns…"))
	default:
		n := 0
		for _, ro := range results {
			if ro.position >= 0 {
				n++
				lines = append(lines, render.Clip(fmt.Sprintf("  pattern %d %s (item %d of %d returned)", ro.id, ro.name, ro.position+1, ro.count), w))
			}
		}
		if n == 0 {
			lines = append(lines, r.Dim.Render("  no pattern returns it"))
		}
	}
	return lines
}

// resultOf is where one pattern's result has the inspected item (position -1: not).
type resultOf struct {
	id       int
	name     string
	position int
	count    int
}

// returnedBy finds item i in every read pattern's current result, by its table key.
func (w *world) returnedBy(i int) []*resultOf {
	if w.costRes == nil || w.costRev != w.doc.Rev || w.costRes.results == nil {
		return nil
	}
	d := w.doc.D
	it := d.Items[i]
	k := d.Table.Key
	out := []*resultOf{}
	for pi, res := range w.costRes.results {
		if pi >= len(d.Patterns) || res == nil || res.Err != nil || d.Patterns[pi].IsWrite() {
			continue
		}
		ro := &resultOf{id: d.Patterns[pi].ID, name: d.Patterns[pi].Name, position: -1, count: len(res.Items)}
		for j, got := range res.Items {
			if got[k.Partition].Equal(it[k.Partition]) && (k.Sort == "" || got[k.Sort].Equal(it[k.Sort])) {
				ro.position = j
				break
			}
		}
		out = append(out, ro)
	}
	return out
}

// keyDesc writes an item's key: every key attribute with its value, in key order.
func keyDesc(it model.Item, k model.KeySchema) string {
	parts := make([]string, 0, 2)
	for _, a := range k.Attributes() {
		parts = append(parts, a+"="+keyText(it[a]))
	}
	return strings.Join(parts, " ")
}

// missingKey is the first key attribute the item lacks, "" when it has them all.
func missingKey(it model.Item, k model.KeySchema) string {
	for _, a := range k.Attributes() {
		if _, ok := it[a]; !ok {
			return a
		}
	}
	return ""
}

// valueText is a value as the design file writes it (flow YAML), a string as it is.
func valueText(v model.Value) string {
	if v.Type == model.TypeS {
		return v.Str
	}
	return formatNode(designfile.ValueToNode(v))
}
