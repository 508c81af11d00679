package cost

import (
	"stwb/engine"
	"stwb/expr"
	"stwb/model"
)

// sortKeyBeside names the sort key that goes with partition key attr: the table's,
// or a GSI's; "" when there is none.
func sortKeyBeside(d *model.Design, attr string) string {
	if attr == d.Table.Key.Partition {
		return d.Table.Key.Sort
	}
	for _, ix := range d.Table.Indexes {
		if !ix.Local && partitionAttr(ix) == attr {
			return ix.Key.Sort
		}
	}
	return ""
}

// keyText is a key value as a template writes it: S as is, N as its digits.
func keyText(v model.Value) (string, bool) {
	switch v.Type {
	case model.TypeS, model.TypeN:
		return v.Str, true
	}
	return "", false
}

// queryPartitionValue is the value a Query's key condition gives its partition key:
// from an item the Query read when there is one (every item read shares it), else
// from the compiled key condition.
func queryPartitionValue(d *model.Design, p *model.Pattern, res *engine.Result, attr string) (model.Value, bool) {
	if res != nil && len(res.Pages) > 0 && len(res.Pages[0].Visits) > 0 {
		if v, ok := keyValue(d, res.Pages[0].Visits[0].Item, attr); ok {
			return v, true
		}
	}
	if res != nil && res.Err != nil {
		return model.Value{}, false
	}
	ks := d.Table.Key
	if ix, ok := d.Table.IndexByName(p.Index); ok {
		ks = d.Table.IndexKey(&ix)
	}
	kc, err := expr.CompileKeyCondition(p.KeyCondition, expr.NewContext(p.Names, p.Values), expr.KeySchemaOf(&d.Table, ks))
	if err != nil || kc == nil {
		return model.Value{}, false
	}
	return tupleValue(kc.PartitionValues), true
}
