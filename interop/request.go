package interop

// A pattern's request as the DynamoDB API takes it (API_Query.html, API_GetItem.html,
// API_UpdateItem.html, API_BatchWriteItem.html, API_TransactWriteItems.html, ...):
// the design document prints it as JSON, and the code generators turn the same tree
// into aws-sdk-go-v2 and AWS SDK for JavaScript v3 inputs. Building it once keeps the
// three in agreement.

import (
	"sort"
	"strconv"
	"strings"

	"stwb/dynamojson"
	"stwb/model"
)

// jfield is one member of an ordered JSON object.
type jfield struct {
	Key string
	Val any // string, bool, int, jobj, []any, model.Item, model.Value, map[string]string
}

// jobj is a JSON object whose members keep their order.
type jobj []jfield

// requestOf builds the pattern's request input.
func requestOf(d *model.Design, p *model.Pattern) jobj {
	table := d.Table.Name
	var r jobj
	add := func(k string, v any) { r = append(r, jfield{k, v}) }
	// addStr adds an optional string parameter: DynamoDB takes an absent one, not "".
	addStr := func(k, v string) {
		if v != "" {
			add(k, v)
		}
	}
	exprAttrs := func(o *jobj, names map[string]string, values map[string]model.Value) {
		if len(names) > 0 {
			*o = append(*o, jfield{"ExpressionAttributeNames", names})
		}
		if len(values) > 0 {
			*o = append(*o, jfield{"ExpressionAttributeValues", model.Item(values)})
		}
	}
	switch p.Operation {
	case model.OpGetItem:
		add("TableName", table)
		add("Key", p.Key)
		addStr("ProjectionExpression", p.Projection)
		if p.Consistent {
			add("ConsistentRead", true)
		}
		exprAttrs(&r, p.Names, p.Values)
	case model.OpQuery, model.OpScan:
		add("TableName", table)
		addStr("IndexName", p.Index)
		if p.Operation == model.OpQuery {
			add("KeyConditionExpression", p.KeyCondition)
		}
		addStr("FilterExpression", p.Filter)
		addStr("ProjectionExpression", p.Projection)
		exprAttrs(&r, p.Names, p.Values)
		if p.Operation == model.OpQuery && !p.ScanForward() {
			add("ScanIndexForward", false)
		}
		if p.Limit > 0 {
			add("Limit", p.Limit)
		}
		if p.Consistent {
			add("ConsistentRead", true)
		}
	case model.OpPutItem, model.OpUpdateItem, model.OpDeleteItem:
		add("TableName", table)
		if p.Operation == model.OpPutItem {
			add("Item", completeItem(d, p.Item))
		} else {
			add("Key", p.Key)
		}
		addStr("UpdateExpression", p.Update)
		addStr("ConditionExpression", p.Condition)
		exprAttrs(&r, p.Names, p.Values)
		if p.ReturnValues != "" && p.ReturnValues != "NONE" {
			add("ReturnValues", p.ReturnValues)
		}
	case model.OpExecuteStatement:
		// API_ExecuteStatement.html: the statement names its table itself.
		add("Statement", p.Statement)
		if len(p.Parameters) > 0 {
			ps := make([]any, len(p.Parameters))
			for i, v := range p.Parameters {
				ps[i] = v
			}
			add("Parameters", ps)
		}
		if p.Limit > 0 {
			add("Limit", p.Limit)
		}
		if p.Consistent {
			add("ConsistentRead", true)
		}
	case model.OpBatchGetItem:
		keys := make([]any, len(p.Keys))
		for i, k := range p.Keys {
			keys[i] = k
		}
		inner := jobj{{"Keys", keys}}
		if p.Projection != "" {
			inner = append(inner, jfield{"ProjectionExpression", p.Projection})
		}
		if len(p.Names) > 0 {
			inner = append(inner, jfield{"ExpressionAttributeNames", p.Names})
		}
		if p.Consistent {
			inner = append(inner, jfield{"ConsistentRead", true})
		}
		add("RequestItems", jobj{{table, inner}})
	case model.OpTransactGetItems:
		var items []any
		for _, k := range p.Keys {
			items = append(items, jobj{{"Get", jobj{{"TableName", table}, {"Key", k}}}})
		}
		add("TransactItems", items)
	case model.OpBatchWriteItem:
		var reqs []any
		for _, a := range p.Actions {
			switch a.Kind {
			case model.ActionPut:
				reqs = append(reqs, jobj{{"PutRequest", jobj{{"Item", completeItem(d, a.Item)}}}})
			case model.ActionDelete:
				reqs = append(reqs, jobj{{"DeleteRequest", jobj{{"Key", a.Key}}}})
			}
		}
		add("RequestItems", jobj{{table, reqs}})
	case model.OpTransactWriteItems:
		var items []any
		for _, a := range p.Actions {
			names, values := a.Names, a.Values
			if len(names) == 0 && len(values) == 0 {
				names, values = p.Names, p.Values
			}
			o := jobj{{"TableName", table}}
			kind := ""
			switch a.Kind {
			case model.ActionPut:
				kind = "Put"
				o = append(o, jfield{"Item", completeItem(d, a.Item)})
			case model.ActionUpdate:
				kind = "Update"
				o = append(o, jfield{"Key", a.Key}, jfield{"UpdateExpression", a.Update})
			case model.ActionDelete:
				kind = "Delete"
				o = append(o, jfield{"Key", a.Key})
			case model.ActionCheck:
				kind = "ConditionCheck"
				o = append(o, jfield{"Key", a.Key})
			}
			if a.Condition != "" {
				o = append(o, jfield{"ConditionExpression", a.Condition})
			}
			// Only the names and values this action's expressions use, as
			// DynamoDB refuses unused ones per action.
			exprAttrs(&o, usedNames(names, a.Update, a.Condition), usedValues(values, a.Update, a.Condition))
			items = append(items, jobj{{kind, o}})
		}
		add("TransactItems", items)
	}
	return r
}

// usedNames keeps the #names that appear in any of the expressions.
func usedNames(names map[string]string, exprs ...string) map[string]string {
	out := map[string]string{}
	for k, v := range names {
		if usedIn(k, exprs) {
			out[k] = v
		}
	}
	return out
}

// usedValues keeps the :values that appear in any of the expressions.
func usedValues(values map[string]model.Value, exprs ...string) map[string]model.Value {
	out := map[string]model.Value{}
	for k, v := range values {
		if usedIn(k, exprs) {
			out[k] = v
		}
	}
	return out
}

// usedIn reports whether placeholder k occurs in an expression as a whole token
// (":s" is not used by an expression that only says ":status").
func usedIn(k string, exprs []string) bool {
	if k == "" {
		return false
	}
	for _, e := range exprs {
		for i := strings.Index(e, k); i >= 0; {
			end := i + len(k)
			if end == len(e) || !isPlaceholderChar(e[end]) {
				return true
			}
			j := strings.Index(e[end:], k)
			if j < 0 {
				break
			}
			i = end + j
		}
	}
	return false
}

func isPlaceholderChar(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// appendJSONValue writes a request tree as indented JSON, attribute values in
// DynamoDB JSON.
func appendJSONValue(b []byte, v any, indent string) []byte {
	const step = "  "
	switch x := v.(type) {
	case string:
		return dynamojson.AppendString(b, x)
	case bool:
		return strconv.AppendBool(b, x)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case model.Item:
		return dynamojson.AppendItemExact(b, x)
	case model.Value:
		return dynamojson.AppendValueExact(b, x)
	case map[string]string:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		o := make(jobj, len(keys))
		for i, k := range keys {
			o[i] = jfield{k, x[k]}
		}
		return appendJSONValue(b, o, indent)
	case jobj:
		if len(x) == 0 {
			return append(b, "{}"...)
		}
		b = append(b, "{\n"...)
		for i, f := range x {
			b = append(b, indent+step...)
			b = dynamojson.AppendString(b, f.Key)
			b = append(b, ": "...)
			b = appendJSONValue(b, f.Val, indent+step)
			if i < len(x)-1 {
				b = append(b, ',')
			}
			b = append(b, '\n')
		}
		return append(append(b, indent...), '}')
	case []any:
		if len(x) == 0 {
			return append(b, "[]"...)
		}
		b = append(b, "[\n"...)
		for i, e := range x {
			b = append(b, indent+step...)
			b = appendJSONValue(b, e, indent+step)
			if i < len(x)-1 {
				b = append(b, ',')
			}
			b = append(b, '\n')
		}
		return append(append(b, indent...), ']')
	}
	return append(b, "null"...)
}
