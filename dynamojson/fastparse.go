package dynamojson

import (
	"encoding/base64"
	"unicode/utf8"

	"stwb/model"
)

// fastParser reads DynamoDB JSON in one pass, straight into model values, for the
// common case: a valid item whose strings carry no escapes and whose values are
// not sets. Anything else (an escape, a set, a duplicate name, a value DynamoDB
// refuses, JSON it is not sure of) makes it give up, and ParseItem or ParseValue
// then read the data through Decode and wireValue, which give the error with its
// path, or the same value: the fast path decides nothing the slow one would decide
// otherwise (FuzzFastParse holds the two to that). It exists because serve reads
// every key and value of every request through here, and the generic decoding
// (maps of any, a sorted copy of every object's names, a path string per value)
// was a third of a GetItem's own work.
type fastParser struct {
	data []byte
	i    int
}

// parseItemFast is ParseItem's fast path; ok is false when it gave up.
func parseItemFast(data []byte) (it model.Item, ok bool) {
	p := fastParser{data: data}
	p.space()
	m, ok := p.object(1)
	if !ok {
		return nil, false
	}
	p.space()
	return m, p.i == len(p.data)
}

// parseValueFast is ParseValue's fast path.
func parseValueFast(data []byte) (v model.Value, ok bool) {
	p := fastParser{data: data}
	p.space()
	v, ok = p.value(1)
	if !ok {
		return model.Value{}, false
	}
	p.space()
	return v, p.i == len(p.data)
}

func (p *fastParser) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// next skips white space and reports whether the next byte is c, consuming it.
func (p *fastParser) next(c byte) bool {
	p.space()
	if p.i < len(p.data) && p.data[p.i] == c {
		p.i++
		return true
	}
	return false
}

// str reads a JSON string with no escapes and no control characters, in valid
// UTF-8 (encoding/json would replace invalid bytes; the slow path does that).
func (p *fastParser) str() (string, bool) {
	if !p.next('"') {
		return "", false
	}
	start := p.i
	ascii := true
	for p.i < len(p.data) {
		c := p.data[p.i]
		switch {
		case c == '"':
			b := p.data[start:p.i]
			p.i++
			if !ascii && !utf8.Valid(b) {
				return "", false
			}
			return string(b), true
		case c == '\\' || c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
		p.i++
	}
	return "", false
}

// literal reads true or false.
func (p *fastParser) literal() (b, ok bool) {
	p.space()
	rest := p.data[p.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		p.i += 4
		return true, true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		p.i += 5
		return false, true
	}
	return false, false
}

// object reads a map of attribute values (an item, or the body of an M) whose
// values sit at depth.
func (p *fastParser) object(depth int) (map[string]model.Value, bool) {
	if !p.next('{') {
		return nil, false
	}
	m := make(map[string]model.Value, 4)
	if p.next('}') {
		return m, true
	}
	for {
		name, ok := p.str()
		if !ok || !p.next(':') {
			return nil, false
		}
		if _, dup := m[name]; dup {
			return nil, false
		}
		v, ok := p.value(depth)
		if !ok {
			return nil, false
		}
		m[name] = v
		if p.next(',') {
			continue
		}
		return m, p.next('}')
	}
}

// value reads one attribute value, {"S": "x"}, at depth (an item's own values are
// at depth 1, as wireValue counts).
func (p *fastParser) value(depth int) (model.Value, bool) {
	if depth > maxDepth || !p.next('{') {
		return model.Value{}, false
	}
	tname, ok := p.str()
	if !ok || !p.next(':') {
		return model.Value{}, false
	}
	var v model.Value
	switch tname {
	case "S":
		s, ok := p.str()
		if !ok {
			return v, false
		}
		v = model.Str(s)
	case "N":
		s, ok := p.str()
		if !ok {
			return v, false
		}
		if _, err := model.ParseNumber(s); err != nil {
			return v, false
		}
		v = model.Num(s)
	case "B":
		s, ok := p.str()
		if !ok {
			return v, false
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return v, false
		}
		v = model.Bin(b)
	case "BOOL":
		b, ok := p.literal()
		if !ok {
			return v, false
		}
		v = model.Bool(b)
	case "NULL":
		if b, ok := p.literal(); !ok || !b {
			return v, false
		}
		v = model.Null()
	case "L":
		if !p.next('[') {
			return v, false
		}
		l := make([]model.Value, 0, 4)
		if !p.next(']') {
			for {
				e, ok := p.value(depth + 1)
				if !ok {
					return v, false
				}
				l = append(l, e)
				if p.next(',') {
					continue
				}
				if !p.next(']') {
					return v, false
				}
				break
			}
		}
		v = model.List(l...)
	case "M":
		m, ok := p.object(depth + 1)
		if !ok {
			return v, false
		}
		v = model.Map(m)
	default: // sets, and names that are no type: the slow path says which
		return v, false
	}
	return v, p.next('}')
}
