package difftest

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"stwb/engine"
	"stwb/live"
	"stwb/model"
)

// Writes: PutItem, UpdateItem and DeleteItem, with and without a condition, with
// ReturnValues. They change both stores, so the reads that follow also check index
// maintenance: an item entering, moving within and leaving a sparse index
// (GSI.html "Synchronizing data between tables and global secondary indexes").

// writeReq draws one write. Keys are mostly of existing items.
func (w *world) writeReq() request {
	key := w.someKey()
	b := newBuilder(w.r)
	var cond string
	if w.chance(0.4) {
		switch w.r.IntN(3) {
		case 0:
			cond = "attribute_not_exists(" + b.name(attrPK) + ")"
		case 1:
			cond = "attribute_exists(" + b.name(attrPK) + ")"
		default:
			cond = w.filter(b, "", model.KeySchema{}, 1)
		}
	}
	switch w.r.IntN(3) {
	case 0:
		it := w.genAttrs(key.Clone())
		w.items = append(w.items, it) // later requests may pick its values
		in := engine.PutItemInput{Item: it, ConditionExpression: cond, ReturnValues: pick(w.r, []string{"", "NONE", "ALL_OLD"})}
		in.ExpressionAttributeNames, in.ExpressionAttributeValues = b.maps()
		return request{op: model.OpPutItem, desc: "put", put: in}
	case 1:
		in := engine.UpdateItemInput{Key: key, UpdateExpression: w.update(b), ConditionExpression: cond,
			ReturnValues: pick(w.r, []string{"", "NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"})}
		in.ExpressionAttributeNames, in.ExpressionAttributeValues = b.maps()
		return request{op: model.OpUpdateItem, desc: "update", update: in}
	}
	in := engine.DeleteItemInput{Key: key, ConditionExpression: cond, ReturnValues: pick(w.r, []string{"", "NONE", "ALL_OLD"})}
	in.ExpressionAttributeNames, in.ExpressionAttributeValues = b.maps()
	return request{op: model.OpDeleteItem, desc: "delete", del: in}
}

// someKey is the key of a generated item (most of the time) or a new key.
func (w *world) someKey() model.Item {
	var key model.Item
	if len(w.items) > 0 && w.chance(0.8) {
		it := pick(w.r, w.items)
		key = model.Item{attrPK: it[attrPK]}
		if w.table.Key.Sort != "" {
			key[attrSK] = it[attrSK]
		}
		return key
	}
	key = model.Item{attrPK: w.ofType(w.table.KeyAttributeType(attrPK), 1000)}
	if w.table.Key.Sort != "" {
		key[attrSK] = w.ofType(w.table.KeyAttributeType(attrSK), 1000)
	}
	return key
}

// update is an UpdateExpression of SET and REMOVE clauses, on plain attributes and
// on index keys, so that an update moves an item into, within and out of indexes.
func (w *world) update(b *builder) string {
	var sets, removes []string
	for _, a := range w.r.Perm(len(updatable))[:1+w.r.IntN(3)] {
		name := updatable[a]
		if w.chance(0.3) {
			removes = append(removes, b.name(name))
			continue
		}
		var v model.Value
		switch name {
		case attrGPK:
			v = pick(w.r, []model.Value{model.Str("G#1"), model.Str("G#2"), model.Str("é")})
		case attrGSK, attrG2PK, attrLSK:
			if name == attrLSK && w.table.Key.Sort == "" {
				v = w.str() // a plain attribute when there is no LSI
			} else {
				v = w.ofType(w.table.KeyAttributeType(name), 12)
			}
		case "num":
			v = w.num()
		default:
			v = w.str()
		}
		sets = append(sets, b.name(name)+" = "+b.val(v))
	}
	out := ""
	if len(sets) > 0 {
		out = "SET " + join(sets)
	}
	if len(removes) > 0 {
		if out != "" {
			out += " "
		}
		out += "REMOVE " + join(removes)
	}
	return out
}

var updatable = []string{"num", "str", attrGPK, attrGSK, attrG2PK, attrLSK}

func join(xs []string) string {
	s := xs[0]
	for _, x := range xs[1:] {
		s += ", " + x
	}
	return s
}

// writeOnEngine applies the write to the engine; the answer's one page holds the
// returned Attributes as its item, if any.
func writeOnEngine(e *engine.Engine, q request) (answer, error) {
	var a answer
	var out *engine.WriteOutput
	var err error
	switch q.op {
	case model.OpPutItem:
		out, err = e.PutItem(q.put)
	case model.OpUpdateItem:
		out, err = e.UpdateItem(q.update)
	default:
		out, err = e.DeleteItem(q.del)
	}
	if err != nil {
		return a, a.fail(err)
	}
	return writeAnswer(out.Attributes), nil
}

func writeAnswer(attrs model.Item) answer {
	r := engine.Result{}
	if len(attrs) > 0 {
		r.Items, r.Count = []model.Item{attrs}, 1
	}
	return answer{pages: []engine.Result{r}}
}

// writeOnDynalite sends the same write to dynalite.
func writeOnDynalite(ctx context.Context, db *dynamodb.Client, table string, q request) (answer, error) {
	var a answer
	var names map[string]string
	var values map[string]model.Value
	var cond string
	switch q.op {
	case model.OpPutItem:
		names, values, cond = q.put.ExpressionAttributeNames, q.put.ExpressionAttributeValues, q.put.ConditionExpression
	case model.OpUpdateItem:
		names, values, cond = q.update.ExpressionAttributeNames, q.update.ExpressionAttributeValues, q.update.ConditionExpression
	default:
		names, values, cond = q.del.ExpressionAttributeNames, q.del.ExpressionAttributeValues, q.del.ConditionExpression
	}
	var avs map[string]types.AttributeValue
	if values != nil {
		var err error
		if avs, err = live.ToItem(values); err != nil {
			return a, err
		}
	}
	var attrs map[string]types.AttributeValue
	switch q.op {
	case model.OpPutItem:
		item, err := live.ToItem(q.put.Item)
		if err != nil {
			return a, err
		}
		out, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item,
			ConditionExpression: str(cond), ExpressionAttributeNames: names, ExpressionAttributeValues: avs,
			ReturnValues: types.ReturnValue(q.put.ReturnValues)})
		if err != nil {
			return a, a.fail(err)
		}
		attrs = out.Attributes
	case model.OpUpdateItem:
		key, err := live.ToItem(q.update.Key)
		if err != nil {
			return a, err
		}
		out, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: key,
			UpdateExpression: str(q.update.UpdateExpression), ConditionExpression: str(cond),
			ExpressionAttributeNames: names, ExpressionAttributeValues: avs,
			ReturnValues: types.ReturnValue(q.update.ReturnValues)})
		if err != nil {
			return a, a.fail(err)
		}
		attrs = out.Attributes
	default:
		key, err := live.ToItem(q.del.Key)
		if err != nil {
			return a, err
		}
		out, err := db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: key,
			ConditionExpression: str(cond), ExpressionAttributeNames: names, ExpressionAttributeValues: avs,
			ReturnValues: types.ReturnValue(q.del.ReturnValues)})
		if err != nil {
			return a, a.fail(err)
		}
		attrs = out.Attributes
	}
	it, err := live.FromItem(attrs)
	if err != nil {
		return a, err
	}
	return writeAnswer(it), nil
}
