package traffic

import (
	"encoding/json"
	"maps"

	"stwb/dynamojson"
	"stwb/model"
)

// The batch and transaction requests (BatchGetItem, BatchWriteItem,
// TransactGetItems, TransactWriteItems) read as the design's pattern of the same
// operation: its keys or actions, so that one the design does not declare gets a
// ready pattern, and its shape is the one that pattern has (PatternShape).

type keysAndAttributes struct {
	Keys                     []json.RawMessage
	ProjectionExpression     string
	ExpressionAttributeNames map[string]string
	ConsistentRead           bool
}

type writeRequest struct {
	PutRequest    *struct{ Item json.RawMessage }
	DeleteRequest *struct{ Key json.RawMessage }
}

type transactMember struct {
	TableName                                                   string
	Key, Item                                                   json.RawMessage
	UpdateExpression, ConditionExpression, ProjectionExpression string
	ExpressionAttributeNames                                    map[string]string
	ExpressionAttributeValues                                   map[string]json.RawMessage
}

type transactItem struct {
	Get, Put, Update, Delete, ConditionCheck *transactMember
}

// batchPattern is the pattern a batch or transaction request over the design's
// table is; ok is false when it names another table too (a design holds one), has
// an item or key that cannot be read, or, for TransactGetItems, gives its gets
// different projections (a pattern has one).
func batchPattern(d *model.Design, op string, body []byte) (model.Pattern, bool) {
	p := model.Pattern{Operation: model.Operation(op)}
	table := d.Table.Name
	switch op {
	case "BatchGetItem":
		var r struct{ RequestItems map[string]keysAndAttributes }
		if json.Unmarshal(body, &r) != nil || len(r.RequestItems) != 1 {
			return p, false
		}
		ka, ok := r.RequestItems[table]
		if !ok {
			return p, false
		}
		for _, raw := range ka.Keys {
			k, err := dynamojson.ParseItem(raw)
			if err != nil {
				return p, false
			}
			p.Keys = append(p.Keys, k)
		}
		p.Projection, p.Names, p.Consistent = ka.ProjectionExpression, ka.ExpressionAttributeNames, ka.ConsistentRead
	case "BatchWriteItem":
		var r struct{ RequestItems map[string][]writeRequest }
		if json.Unmarshal(body, &r) != nil || len(r.RequestItems) != 1 {
			return p, false
		}
		reqs, ok := r.RequestItems[table]
		if !ok {
			return p, false
		}
		for _, wr := range reqs {
			var a model.Action
			var err error
			switch {
			case wr.PutRequest != nil:
				a.Kind = model.ActionPut
				a.Item, err = dynamojson.ParseItem(wr.PutRequest.Item)
			case wr.DeleteRequest != nil:
				a.Kind = model.ActionDelete
				a.Key, err = dynamojson.ParseItem(wr.DeleteRequest.Key)
			default:
				return p, false
			}
			if err != nil {
				return p, false
			}
			p.Actions = append(p.Actions, a)
		}
	case "TransactGetItems", "TransactWriteItems":
		var r struct{ TransactItems []transactItem }
		if json.Unmarshal(body, &r) != nil {
			return p, false
		}
		for i, ti := range r.TransactItems {
			m, kind := ti.member()
			if m == nil || m.TableName != table {
				return p, false
			}
			key, err := parseOptional(m.Key)
			if err != nil {
				return p, false
			}
			if op == "TransactGetItems" {
				if kind != "" {
					return p, false
				}
				if i > 0 && (m.ProjectionExpression != p.Projection || !maps.Equal(m.ExpressionAttributeNames, p.Names)) {
					return p, false
				}
				p.Keys = append(p.Keys, key)
				p.Projection, p.Names = m.ProjectionExpression, m.ExpressionAttributeNames
				continue
			}
			if kind == "" {
				return p, false
			}
			a := model.Action{Kind: kind, Key: key, Update: m.UpdateExpression, Condition: m.ConditionExpression,
				Names: m.ExpressionAttributeNames}
			if a.Item, err = parseOptional(m.Item); err != nil {
				return p, false
			}
			for k, raw := range m.ExpressionAttributeValues {
				v, err := dynamojson.ParseValue(raw)
				if err != nil {
					return p, false
				}
				if a.Values == nil {
					a.Values = map[string]model.Value{}
				}
				a.Values[k] = v
			}
			p.Actions = append(p.Actions, a)
		}
	default:
		return p, false
	}
	return p, true
}

// member is the transaction item's one action and its kind ("" for a Get); nil
// when it holds none or more than one.
func (ti transactItem) member() (*transactMember, model.ActionKind) {
	var m *transactMember
	var kind model.ActionKind
	n := 0
	for _, c := range []struct {
		m *transactMember
		k model.ActionKind
	}{{ti.Get, ""}, {ti.Put, model.ActionPut}, {ti.Update, model.ActionUpdate}, {ti.Delete, model.ActionDelete}, {ti.ConditionCheck, model.ActionCheck}} {
		if c.m != nil {
			m, kind = c.m, c.k
			n++
		}
	}
	if n != 1 {
		return nil, ""
	}
	return m, kind
}

func parseOptional(raw json.RawMessage) (model.Item, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	return dynamojson.ParseItem(raw)
}
