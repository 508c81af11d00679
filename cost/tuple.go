package cost

import (
	"strings"

	"stwb/model"
)

// A multi-attribute GSI partition key (GSI.DesignPattern.MultiAttributeKeys.html:
// "DynamoDB handles the composite key logic automatically, hashing them together
// for data distribution") is one partition per tuple of its attributes' values.
// The production model names it by its attributes joined (tournamentId + region)
// and reads it as a template of those attributes, one variable each, so the key
// values are the product of the attributes' value counts (or what the samples
// imply), and hot-partition and skew fall on the tuple, as for a synthetic key
// built from the same attributes.

// tupleSep joins a tuple's values into the one text the model reads; no key
// value of a design holds it (a control character).
const tupleSep = "\x1f"

// partitionAttr is the name the model gives a GSI's partition key: its attribute,
// or a multi-attribute key's attributes joined with " + ".
func partitionAttr(ix model.Index) string {
	return strings.Join(ix.Key.Partitions(), " + ")
}

// tupleAttrs lists the attributes of the multi-attribute partition key named
// attr (partitionAttr), or nil when attr is one attribute.
func tupleAttrs(d *model.Design, attr string) []string {
	if !strings.Contains(attr, " + ") {
		return nil
	}
	for _, ix := range d.Table.Indexes {
		if len(ix.Key.MorePartition) > 0 && partitionAttr(ix) == attr {
			return ix.Key.Partitions()
		}
	}
	return nil
}

// keyValue is an item's value for partition key attr: the attribute's, or a
// multi-attribute key's tuple as one string; has is false when the item lacks one.
func keyValue(d *model.Design, it model.Item, attr string) (model.Value, bool) {
	attrs := tupleAttrs(d, attr)
	if attrs == nil {
		v, ok := it[attr]
		return v, ok
	}
	vals := make([]model.Value, len(attrs))
	for i, a := range attrs {
		v, ok := it[a]
		if !ok {
			return model.Value{}, false
		}
		vals[i] = v
	}
	return tupleValue(vals), true
}

// tupleValue is a tuple's values as the one text the model reads.
func tupleValue(vals []model.Value) model.Value {
	if len(vals) == 1 {
		return vals[0]
	}
	texts := make([]string, len(vals))
	for i, v := range vals {
		texts[i], _ = keyText(v)
	}
	return model.Str(strings.Join(texts, tupleSep))
}

// tupleTemplate is a multi-attribute key read as a template: one variable an
// attribute, joined by tupleSep.
func tupleTemplate(attrs []string) string {
	return "{" + strings.Join(attrs, "}"+tupleSep+"{") + "}"
}

// showTuple writes a tuple's text as people read it: (W26, NA).
func showTuple(s string) string {
	if !strings.Contains(s, tupleSep) {
		return s
	}
	return "(" + strings.ReplaceAll(s, tupleSep, ", ") + ")"
}

// TupleTemplate is a multi-attribute partition key read as a template, as the
// production model reads it (one variable an attribute), and HoldsAll whether
// an entity's items hold every attribute of it: so review's rules read a
// multi-attribute key as hot-partition does.
func TupleTemplate(attrs []string) string { return tupleTemplate(attrs) }

// HoldsAll reports whether e's items hold every attribute of attrs (declared, or
// in its samples).
func (ks *KeySpace) HoldsAll(e *model.Entity, attrs []string) bool { return ks.holdsAll(e, attrs) }

// indexKeyValue is keyValue for an image of an item as index name holds it: has
// is false when the index holds no entry for it (model.Table.InIndex), or there
// is no image.
func indexKeyValue(d *model.Design, name string, it model.Item, attr string) (model.Value, bool) {
	ix, ok := d.Table.IndexByName(name)
	if it == nil || !ok || !d.Table.InIndex(&ix, it) {
		return model.Value{}, false
	}
	return keyValue(d, it, attr)
}
