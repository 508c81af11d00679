package traffic

import (
	"bytes"
	"encoding/binary"

	"stwb/dynamojson"
	"stwb/model"
	"stwb/serve"
)

// A recording asks the same few shapes over and over with other values, so the
// replay finds each request's shape (RequestShape) once per distinct request text:
// a shapeMemo keys each GetItem, Query, Scan, PutItem, UpdateItem and DeleteItem
// by the text of the members its shape is made of (table, index, expressions,
// names) and what RequestShape makes of its values (their key prefixes, the key's
// form), read in one pass over the body that builds nothing else. Whatever that
// pass cannot vouch for reads the same as RequestShape would (a member named in
// other letter case, given twice, or of another type; KeyConditions; the batches
// and transactions) goes to RequestShape itself.

// shapeMemoSize bounds a memo: past it, a new request text is shaped without being
// remembered (an application that builds its expressions' text from its values
// costs time, never memory).
const shapeMemoSize = 1 << 14

// shapeMemo remembers the shapes of the request texts it has seen. One goroutine
// uses it.
type shapeMemo struct {
	d       *model.Design
	known   map[string]memoShape
	key     []byte
	scratch []byte // a part of key while it is written
}

type memoShape struct {
	shape Shape
	ok    bool
}

func newShapeMemo(d *model.Design) *shapeMemo {
	return &shapeMemo{d: d, known: map[string]memoShape{}, scratch: make([]byte, 0, 64)} // never nil: "" is one field
}

// shapeMembers are the members of a single-item request RequestShape reads
// (its request type's fields), in the order memoKey writes them.
var shapeMembers = [...]string{"TableName", "IndexName", "KeyConditionExpression", "FilterExpression", "ProjectionExpression",
	"ExpressionAttributeNames", "ExpressionAttributeValues", "Key", "Item", "KeyConditions", "RequestItems", "TransactItems"}

const (
	memberNames  = 5 // ExpressionAttributeNames
	memberValues = 6 // ExpressionAttributeValues
	memberKey    = 7 // Key
	memberItem   = 8 // Item
	memberLegacy = 9 // KeyConditions and after: read by RequestShape alone
)

// shape is RequestShape(m.d, op, body); dec is body decoded by the replay's server,
// whose item or key (serve.Decoded.Item) the memo reads rather than parse it again.
func (m *shapeMemo) shape(op string, body []byte, dec serve.Decoded) (Shape, bool) {
	switch op {
	case "GetItem", "Query", "Scan", "PutItem", "UpdateItem", "DeleteItem":
	case "BatchGetItem", "BatchWriteItem", "TransactGetItems", "TransactWriteItems":
		return RequestShape(m.d, op, body)
	default:
		return Shape{}, false
	}
	if !m.memoKey(op, body, dec) {
		return RequestShape(m.d, op, body)
	}
	if known, ok := m.known[string(m.key)]; ok {
		return known.shape, known.ok
	}
	s, ok := RequestShape(m.d, op, body)
	if len(m.known) < shapeMemoSize {
		m.known[string(m.key)] = memoShape{s, ok}
	}
	return s, ok
}

// memoKey writes in m.key what the shape of a single-item request depends on: the
// operation, the text of each member shapeMembers names (absent and empty told
// apart), the form of its key or item (keyShape), and each value's name and
// abstract form, each length-prefixed. false when the body holds what only
// RequestShape reads the same (see above).
func (m *shapeMemo) memoKey(op string, body []byte, dec serve.Decoded) bool {
	var members [len(shapeMembers)][]byte
	ok := eachMember(body, func(name []byte, escaped bool, value []byte) bool {
		if escaped {
			return false
		}
		for i, want := range shapeMembers {
			if string(name) == want {
				if members[i] != nil || i >= memberLegacy {
					return false
				}
				members[i] = value
				return true
			}
			if bytes.EqualFold(name, []byte(want)) {
				return false // encoding/json would read it as want
			}
		}
		return true
	})
	if !ok {
		return false
	}
	k := append(m.key[:0], op...)
	k = append(k, 0)
	for i, v := range members[:memberNames] {
		if v != nil && v[0] != '"' {
			return false // not a string: RequestShape fails to read it
		}
		k = appendField(k, members[i])
	}
	if names := members[memberNames]; names != nil {
		if !eachMember(names, func(_ []byte, _ bool, v []byte) bool { return v[0] == '"' }) {
			return false
		}
		k = appendField(k, names)
	} else {
		k = appendField(k, nil)
	}
	// The key's form, as RequestShape writes it.
	raw := members[memberKey]
	if op == "PutItem" {
		raw = members[memberItem]
	}
	m.scratch = m.scratch[:0]
	if raw != nil && (op == "GetItem" || op == "UpdateItem" || op == "DeleteItem" || op == "PutItem") {
		// The server read the same member, once each here, into the same item (nil
		// when it does not parse) unless the body did not decode.
		it, read := dec.Item()
		if !read {
			it, _ = dynamojson.ParseItem(raw)
		}
		m.scratch = appendKeyShape(m.scratch, m.d.Table, it)
	}
	k = appendField(k, m.scratch)
	if values := members[memberValues]; values != nil {
		if values[0] != '{' {
			return false
		}
		if !eachMember(values, func(name []byte, _ bool, raw []byte) bool {
			k = appendField(k, name)
			if str, ok := plainS(raw); ok {
				m.scratch = appendAbstract(m.scratch[:0], str)
				k = appendField(k, m.scratch)
			} else if v, err := dynamojson.ParseValue(raw); err == nil {
				k = appendField(k, []byte(abstract(v)))
			} else {
				k = append(k, 2) // not a value: absent from RequestShape's
			}
			return true
		}) {
			return false
		}
	}
	m.key = k
	return true
}

// plainS is the text of the string of a value written {"S":"text"} (spaces
// allowed), text printable ASCII without escapes: what ParseValue reads as that
// string, found without building the value. ok is false for any other value.
func plainS(raw []byte) (text []byte, ok bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	i = skipSpace(raw, i+1)
	if !bytes.HasPrefix(raw[i:], []byte(`"S"`)) {
		return nil, false
	}
	if i = skipSpace(raw, i+3); i >= len(raw) || raw[i] != ':' {
		return nil, false
	}
	if i = skipSpace(raw, i+1); i >= len(raw) || raw[i] != '"' {
		return nil, false
	}
	start := i + 1
	for i = start; i < len(raw) && raw[i] != '"'; i++ {
		if raw[i] < 0x20 || raw[i] > 0x7e || raw[i] == '\\' {
			return nil, false
		}
	}
	if i >= len(raw) {
		return nil, false
	}
	text = raw[start:i]
	if i = skipSpace(raw, i+1); i >= len(raw) || raw[i] != '}' || skipSpace(raw, i+1) != len(raw) {
		return nil, false
	}
	return text, true
}

// appendField appends b, tagged and with its length before it: 0 for nil (absent),
// 1, the length and the text otherwise.
func appendField(k, b []byte) []byte {
	if b == nil {
		return append(k, 0)
	}
	return append(binary.AppendUvarint(append(k, 1), uint64(len(b))), b...)
}

// eachMember calls f with each member of the JSON object b (the text of its name,
// between the quotes, whether that holds an escape, and the text of its value)
// until f returns false. false when f stopped, or b is not an object. It checks
// only what it needs to find the members: b is valid JSON (serve.EachRecord
// checked it), and anything else ends in false, never a panic.
func eachMember(b []byte, f func(name []byte, escaped bool, value []byte) bool) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	if i = skipSpace(b, i+1); i < len(b) && b[i] == '}' {
		return true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return false
		}
		end, escaped := skipString(b, i)
		if end < 0 {
			return false
		}
		name := b[i+1 : end-1]
		if i = skipSpace(b, end); i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		vend := skipValue(b, i)
		if vend < 0 || !f(name, escaped, b[i:vend]) {
			return false
		}
		switch i = skipSpace(b, vend); {
		case i >= len(b):
			return false
		case b[i] == '}':
			return true
		case b[i] != ',':
			return false
		}
		i = skipSpace(b, i+1)
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString is the end of the string starting at b[i] (just past its closing
// quote) and whether it holds an escape; -1 when it does not end.
func skipString(b []byte, i int) (int, bool) {
	escaped := false
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			escaped = true
			j++
		case '"':
			return j + 1, escaped
		}
	}
	return -1, escaped
}

// skipValue is the end of the value starting at b[i]; -1 when there is none.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		end, _ := skipString(b, i)
		return end
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, _ := skipString(b, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i // a number, true, false or null: up to what follows it
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && skipSpace(b, j) == j {
		j++
	}
	if j == i {
		return -1
	}
	return j
}
