// Package traffic holds a design's access patterns against what an application
// really asked: the requests `stwb serve --record` wrote, matched to the patterns by
// shape, replayed on the design to price them with stwb's capacity rules.
package traffic

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"stwb/dynamojson"
	"stwb/expr"
	"stwb/model"
)

// Shape is what a request asks with its values abstracted: the operation, the table
// and index, and the form of its key condition (or key), filter and projection. Two
// requests of one shape are one access pattern asked twice.
//
// A value becomes its key prefix: "CUST#42" is "CUST#…" (the text up to the first
// '#', the part a key template fixes), a constant in capitals ("PROFILE",
// "METADATA") stays as it is, and anything else is "?". So "PK = :p" with
// CUST#42 and with CUST#77 are one shape, and with ORDER#9 another, as a design
// tells its patterns apart.
type Shape struct {
	Op         string `json:"operation"`
	Table      string `json:"table"`
	Index      string `json:"index,omitempty"`
	Key        string `json:"key,omitempty"`
	Filter     string `json:"filter,omitempty"`
	Projection string `json:"projection,omitempty"`
}

func (s Shape) String() string {
	var b strings.Builder
	b.WriteString(s.Op + " " + s.Table)
	if s.Index != "" {
		b.WriteString(" index " + s.Index)
	}
	if s.Key != "" {
		b.WriteString(" key " + s.Key)
	}
	if s.Filter != "" {
		b.WriteString(" filter " + s.Filter)
	}
	if s.Projection != "" {
		b.WriteString(" projection " + s.Projection)
	}
	return b.String()
}

// abstract is a value as a shape writes it.
func abstract(v model.Value) string {
	if v.Type != model.TypeS {
		return "?"
	}
	return string(appendAbstract(nil, v.Str))
}

// appendAbstract appends abstract of the string value s: its text up to its first
// '#' and "…", itself when it is all capitals and '_', else "?".
func appendAbstract[T string | []byte](b []byte, s T) []byte {
	capitals := len(s) > 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '#':
			return append(append(b, s[:i+1]...), "…"...)
		case c != '_' && (c < 'A' || c > 'Z'):
			capitals = false
		}
	}
	if capitals {
		return append(b, s...)
	}
	return append(b, '?')
}

// expression writes an expression's form: placeholders #n resolved to their names,
// :v to their abstract values (only when keyed is set; elsewhere every value is
// "?"), the keywords of a condition (cond: a key condition or filter) in upper
// case, as DynamoDB reads them in any case (expr.ConditionKeyword), one space
// between tokens. So "PK = :p and ..." and "PK = :p AND ..." are one shape.
func expression(src string, names map[string]string, values map[string]model.Value, keyed, cond bool) string {
	var toks []string
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '#' || c == ':' || isWord(c):
			j := i + 1
			for j < len(src) && isWord(src[j]) {
				j++
			}
			tok := src[i:j]
			switch c {
			case '#':
				if n, ok := names[tok]; ok {
					tok = n
				}
			case ':':
				tok = "?"
				if v, ok := values[src[i:j]]; ok && keyed {
					tok = abstract(v)
				}
			default:
				if kw, ok := expr.ConditionKeyword(tok); ok && cond {
					tok = kw
				}
			}
			toks = append(toks, tok)
			i = j
		default:
			j := i + 1
			if (c == '<' || c == '>') && j < len(src) && (src[j] == '=' || src[j] == '>') {
				j++
			}
			toks = append(toks, src[i:j])
			i = j
		}
	}
	return strings.Join(toks, " ")
}

func isWord(c byte) bool {
	return c == '_' || c == '.' || c == '[' || c == ']' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// keyShape writes a primary key (GetItem, writes) as "PK = CUST#… AND SK = PROFILE",
// partition key first.
func keyShape(t model.Table, key model.Item) string {
	return string(appendKeyShape(nil, t, key))
}

// appendKeyShape appends keyShape(t, key).
func appendKeyShape(b []byte, t model.Table, key model.Item) []byte {
	if key == nil {
		return b
	}
	part := func(b []byte, name string) []byte {
		b = append(append(b, name...), " = "...)
		if v := key[name]; v.Type == model.TypeS {
			return appendAbstract(b, v.Str)
		}
		return append(b, '?')
	}
	b = part(b, t.Key.Partition)
	if t.Key.Sort != "" {
		b = part(append(b, " AND "...), t.Key.Sort)
	}
	return b
}

// distinct is the forms of a batch's keys or actions, each once, sorted: a batch of
// three orders' metadata and one of five are one shape.
func distinct(forms []string) string {
	slices.Sort(forms)
	return strings.Join(slices.Compact(forms), "; ")
}

// PatternShape is the shape a declared pattern's request has. A batch's or
// transaction's key is the forms of its keys (or its actions' kinds and keys).
func PatternShape(d *model.Design, p *model.Pattern) Shape {
	s := Shape{Op: string(p.Operation), Table: d.Table.Name, Index: p.Index}
	switch p.Operation {
	case model.OpQuery:
		s.Key = expression(p.KeyCondition, p.Names, p.Values, true, true)
	case model.OpGetItem, model.OpUpdateItem, model.OpDeleteItem:
		s.Key = keyShape(d.Table, p.Key)
	case model.OpPutItem:
		s.Key = keyShape(d.Table, p.Item)
	case model.OpBatchGetItem, model.OpTransactGetItems:
		var forms []string
		for _, k := range p.Keys {
			forms = append(forms, keyShape(d.Table, k))
		}
		s.Key = distinct(forms)
	case model.OpBatchWriteItem, model.OpTransactWriteItems:
		var forms []string
		for _, a := range p.Actions {
			k := a.Key
			if a.Kind == model.ActionPut {
				k = a.Item
			}
			forms = append(forms, string(a.Kind)+" "+keyShape(d.Table, k))
		}
		s.Key = distinct(forms)
	}
	if p.Operation == model.OpQuery || p.Operation == model.OpScan {
		s.Filter = expression(p.Filter, p.Names, p.Values, false, true)
	}
	switch p.Operation {
	case model.OpQuery, model.OpScan, model.OpGetItem, model.OpBatchGetItem, model.OpTransactGetItems:
		s.Projection = expression(p.Projection, p.Names, nil, false, false)
	}
	return s
}

// request is the members of a request body a shape reads.
type request struct {
	TableName                 string
	IndexName                 string
	KeyConditionExpression    string
	FilterExpression          string
	ProjectionExpression      string
	ExpressionAttributeNames  map[string]string
	ExpressionAttributeValues map[string]json.RawMessage
	Key                       json.RawMessage
	Item                      json.RawMessage
	KeyConditions             map[string]struct{ ComparisonOperator string }
	RequestItems              map[string]json.RawMessage
	TransactItems             []map[string]struct{ TableName string }
}

// RequestShape is the shape of a recorded request; ok is false for a request that
// asks nothing of the items (the control plane) or that cannot be read.
func RequestShape(d *model.Design, op string, body []byte) (Shape, bool) {
	switch op {
	case "GetItem", "Query", "Scan", "PutItem", "UpdateItem", "DeleteItem", "BatchGetItem", "BatchWriteItem", "TransactGetItems", "TransactWriteItems":
	default:
		return Shape{}, false
	}
	var r request
	if json.Unmarshal(body, &r) != nil {
		return Shape{}, false
	}
	values := map[string]model.Value{}
	for k, raw := range r.ExpressionAttributeValues {
		if v, err := dynamojson.ParseValue(raw); err == nil {
			values[k] = v
		}
	}
	item := func(raw json.RawMessage) model.Item {
		it, _ := dynamojson.ParseItem(raw)
		return it
	}
	s := Shape{Op: op, Table: r.TableName, Index: r.IndexName}
	switch op {
	case "Query":
		s.Key = expression(r.KeyConditionExpression, r.ExpressionAttributeNames, values, true, true)
		if r.KeyConditionExpression == "" && r.KeyConditions != nil {
			var parts []string
			for _, a := range slices.Sorted(maps.Keys(r.KeyConditions)) {
				parts = append(parts, a+" "+r.KeyConditions[a].ComparisonOperator)
			}
			s.Key = strings.Join(parts, " AND ")
		}
	case "GetItem", "UpdateItem", "DeleteItem":
		s.Key = keyShape(d.Table, item(r.Key))
	case "PutItem":
		s.Key = keyShape(d.Table, item(r.Item))
	case "BatchGetItem", "BatchWriteItem", "TransactGetItems", "TransactWriteItems":
		// Over the design's table alone: the shape its pattern has (projection
		// included), so that a declared batch matches.
		if p, ok := batchPattern(d, op, body); ok {
			return PatternShape(d, &p), true
		}
	}
	switch op {
	case "BatchGetItem", "BatchWriteItem":
		s.Table = strings.Join(slices.Sorted(maps.Keys(r.RequestItems)), ",")
	case "TransactGetItems", "TransactWriteItems":
		var tables []string
		for _, ti := range r.TransactItems {
			for _, m := range ti {
				if !slices.Contains(tables, m.TableName) {
					tables = append(tables, m.TableName)
				}
			}
		}
		slices.Sort(tables)
		s.Table = strings.Join(tables, ",")
	}
	if op == "Query" || op == "Scan" {
		s.Filter = expression(r.FilterExpression, r.ExpressionAttributeNames, values, false, true)
	}
	switch op {
	case "Query", "Scan", "GetItem":
		s.Projection = expression(r.ProjectionExpression, r.ExpressionAttributeNames, nil, false, false)
	}
	return s, true
}
