package serve

import (
	"encoding/json"
	"strconv"
)

// The commonest request bodies, read without encoding/json. A GetItem, Query,
// PutItem, UpdateItem or DeleteItem body is a flat object of a few members; encoding/json checks it whole, then
// walks it again by reflection and copies every member: a sixth of serve's own CPU
// for a Query (BenchmarkServerCPU, issue 24). decodeFast reads the plainest form of
// those bodies (members in their exact spelling, once each, strings without escapes
// or non-ASCII bytes) and gives up on anything else, which encoding/json then
// reads as before: so an accepted body decodes exactly as encoding/json decodes
// it, and every refusal keeps encoding/json's words. TestFastDecodeAgrees holds
// the two to that.

// fastDecoder is an operation's input that can read the plainest bodies itself:
// decodeFast reports whether it did (and nothing else may be relied on if not).
type fastDecoder interface {
	decodeFast(body []byte) bool
}

// jsonScan reads one JSON text strictly, a member at a time: b from i; the names
// of the top object's members read so far are seen[:n].
type jsonScan struct {
	b    []byte
	i    int
	n    int
	seen [maxFastMembers][]byte
}

// maxFastDepth bounds the nesting decodeFast follows; deeper values are left to
// encoding/json.
const maxFastDepth = 32

func (s *jsonScan) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *jsonScan) byte(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// plainString reads a string of printable ASCII without escapes, its text
// returned as a slice of the body.
func (s *jsonScan) plainString() ([]byte, bool) {
	if !s.byte('"') {
		return nil, false
	}
	start := s.i
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			return s.b[start : s.i-1], true
		case c < 0x20 || c >= 0x80 || c == '\\':
			return nil, false
		}
	}
	return nil, false
}

// raw reads any JSON value (of plain strings) and returns its text as it came.
func (s *jsonScan) raw() ([]byte, bool) {
	s.space()
	start := s.i
	if !s.skip(0) {
		return nil, false
	}
	return s.b[start:s.i], true
}

func (s *jsonScan) skip(depth int) bool {
	s.space()
	if s.i >= len(s.b) || depth > maxFastDepth {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		_, ok := s.plainString()
		return ok
	case c == '{':
		s.i++
		if s.byte('}') {
			return true
		}
		for {
			if _, ok := s.plainString(); !ok || !s.byte(':') || !s.skip(depth+1) {
				return false
			}
			if s.byte('}') {
				return true
			}
			if !s.byte(',') {
				return false
			}
		}
	case c == '[':
		s.i++
		if s.byte(']') {
			return true
		}
		for {
			if !s.skip(depth + 1) {
				return false
			}
			if s.byte(']') {
				return true
			}
			if !s.byte(',') {
				return false
			}
		}
	case c == 't':
		return s.word("true")
	case c == 'f':
		return s.word("false")
	case c == 'n':
		return s.word("null")
	default:
		return s.number()
	}
}

func (s *jsonScan) word(w string) bool {
	if len(s.b)-s.i >= len(w) && string(s.b[s.i:s.i+len(w)]) == w {
		s.i += len(w)
		return true
	}
	return false
}

// number reads a number as JSON writes one: -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?
func (s *jsonScan) number() bool {
	digits := func() int {
		n := 0
		for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	if s.i < len(s.b) && s.b[s.i] == '0' {
		s.i++
	} else if digits() == 0 {
		return false
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if digits() == 0 {
			return false
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if digits() == 0 {
			return false
		}
	}
	return true
}

// bool reads true or false.
func (s *jsonScan) bool() (v, ok bool) {
	s.space()
	switch {
	case s.word("true"):
		return true, true
	case s.word("false"):
		return false, true
	}
	return false, false
}

// int reads an integer as encoding/json reads one into an int: digits, maybe
// signed, in range.
func (s *jsonScan) int() (int, bool) {
	s.space()
	start := s.i
	if !s.number() {
		return 0, false
	}
	n, err := strconv.Atoi(string(s.b[start:s.i]))
	return n, err == nil
}

// str reads a plain string into a new string.
func (s *jsonScan) str() (*string, bool) {
	b, ok := s.plainString()
	if !ok {
		return nil, false
	}
	v := string(b)
	return &v, true
}

// names reads ExpressionAttributeNames: an object of plain strings.
func (s *jsonScan) names() (map[string]string, bool) {
	if !s.byte('{') {
		return nil, false
	}
	m := map[string]string{}
	if s.byte('}') {
		return m, true
	}
	for {
		k, ok := s.plainString()
		if !ok || !s.byte(':') {
			return nil, false
		}
		v, ok := s.plainString()
		if !ok {
			return nil, false
		}
		if _, dup := m[string(k)]; dup {
			return nil, false // encoding/json keeps the last: left to it
		}
		m[string(k)] = string(v)
		if s.byte('}') {
			return m, true
		}
		if !s.byte(',') {
			return nil, false
		}
	}
}

// member reads the next member's name and the colon after it, the scanner then at
// its value; name is nil at the object's end. ok is false for anything decodeFast
// leaves to encoding/json: a name seen before (encoding/json keeps the last
// value), more than maxFastMembers members, anything not JSON.
func (s *jsonScan) member() (name []byte, ok bool) {
	if s.n == 0 {
		if !s.byte('{') {
			return nil, false
		}
		if s.byte('}') {
			return nil, true
		}
	} else {
		if s.byte('}') {
			return nil, true
		}
		if !s.byte(',') {
			return nil, false
		}
	}
	if name, ok = s.plainString(); !ok || !s.byte(':') || s.n == maxFastMembers {
		return nil, false
	}
	for _, seen := range s.seen[:s.n] {
		if string(seen) == string(name) {
			return nil, false
		}
	}
	s.seen[s.n] = name
	s.n++
	return name, true
}

// validJSON is json.Valid(b), read by skip when b holds only plain strings (a
// recorded request, mostly): encoding/json's scanner, a step per byte through a
// function value, was the replay's largest single cost (stwb check --traffic checks
// every recorded request). Anything skip does not read goes to json.Valid.
func validJSON(b []byte) bool {
	s := jsonScan{b: b}
	if s.skip(0) && s.end() {
		return true
	}
	return json.Valid(b)
}

// end reports whether the body ends after the object.
func (s *jsonScan) end() bool {
	s.space()
	return s.i == len(s.b)
}

// maxFastMembers is the most members a body decodeFast reads may have: more than
// any GetItem or Query has.
const maxFastMembers = 16

// object reads an object as it came (an item, a key, the values).
func (s *jsonScan) object() (json.RawMessage, bool) {
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return nil, false
	}
	return s.raw()
}

// members reads the object's members in turn, each value through read, and reports
// whether the whole body was read to its end with every member read. The request
// types' decodeFast each say which members they take; the walk is this one.
func (s *jsonScan) members(read func(name []byte) bool) bool {
	for {
		name, ok := s.member()
		if !ok {
			return false
		}
		if name == nil {
			return s.end()
		}
		if !read(name) {
			return false
		}
	}
}

// member reads ExpressionAttributeNames or ExpressionAttributeValues.
func (m *exprMembers) member(name []byte, s *jsonScan) (ok bool) {
	switch string(name) {
	case "ExpressionAttributeNames":
		m.ExpressionAttributeNames, ok = s.names()
	case "ExpressionAttributeValues":
		m.ExpressionAttributeValues, ok = s.object()
	}
	return ok
}

func (in *getItemInput) decodeFast(body []byte) bool {
	s := jsonScan{b: body}
	return s.members(func(name []byte) (ok bool) {
		switch string(name) {
		case "TableName":
			in.TableName, ok = s.str()
		case "Key":
			in.Key, ok = s.object()
		case "ProjectionExpression":
			in.ProjectionExpression, ok = s.str()
		case "ConsistentRead":
			in.ConsistentRead, ok = s.bool()
		case "ReturnConsumedCapacity":
			in.ReturnConsumedCapacity, ok = s.str()
		default:
			ok = in.exprMembers.member(name, &s)
		}
		return ok
	})
}

func (in *queryInput) decodeFast(body []byte) bool {
	s := jsonScan{b: body}
	return s.members(func(name []byte) (ok bool) {
		switch string(name) {
		case "KeyConditionExpression":
			in.KeyConditionExpression, ok = s.str()
		case "ScanIndexForward":
			var v bool
			if v, ok = s.bool(); ok {
				in.ScanIndexForward = &v
			}
		default:
			ok = in.readMembers.member(name, &s)
		}
		return ok
	})
}

// member reads a member Query and Scan share.
func (in *readMembers) member(name []byte, s *jsonScan) (ok bool) {
	switch string(name) {
	case "TableName":
		in.TableName, ok = s.str()
	case "IndexName":
		in.IndexName, ok = s.str()
	case "FilterExpression":
		in.FilterExpression, ok = s.str()
	case "ProjectionExpression":
		in.ProjectionExpression, ok = s.str()
	case "ExclusiveStartKey":
		in.ExclusiveStartKey, ok = s.object()
	case "Limit":
		var n int
		if n, ok = s.int(); ok {
			in.Limit = &n
		}
	case "ConsistentRead":
		in.ConsistentRead, ok = s.bool()
	case "Select":
		in.Select, ok = s.str()
	case "ReturnConsumedCapacity":
		in.ReturnConsumedCapacity, ok = s.str()
	default:
		ok = in.exprMembers.member(name, s)
	}
	return ok
}

func (in *putItemInput) decodeFast(body []byte) bool {
	s := jsonScan{b: body}
	return s.members(func(name []byte) (ok bool) {
		if string(name) == "Item" {
			in.Item, ok = s.object()
			return ok
		}
		return in.writeMembers.member(name, &s)
	})
}

func (in *updateItemInput) decodeFast(body []byte) bool {
	s := jsonScan{b: body}
	return s.members(func(name []byte) (ok bool) {
		switch string(name) {
		case "Key":
			in.Key, ok = s.object()
		case "UpdateExpression":
			in.UpdateExpression, ok = s.str()
		default:
			ok = in.writeMembers.member(name, &s)
		}
		return ok
	})
}

func (in *deleteItemInput) decodeFast(body []byte) bool {
	s := jsonScan{b: body}
	return s.members(func(name []byte) (ok bool) {
		if string(name) == "Key" {
			in.Key, ok = s.object()
			return ok
		}
		return in.writeMembers.member(name, &s)
	})
}

// member reads a member PutItem, UpdateItem and DeleteItem share (Expected is left
// to encoding/json).
func (in *writeMembers) member(name []byte, s *jsonScan) (ok bool) {
	switch string(name) {
	case "TableName":
		in.TableName, ok = s.str()
	case "ConditionExpression":
		in.ConditionExpression, ok = s.str()
	case "ReturnValues":
		in.ReturnValues, ok = s.str()
	case "ReturnValuesOnConditionCheckFailure":
		in.ReturnValuesOnConditionCheckFailure, ok = s.str()
	case "ReturnConsumedCapacity":
		in.ReturnConsumedCapacity, ok = s.str()
	case "ReturnItemCollectionMetrics":
		in.ReturnItemCollectionMetrics, ok = s.str()
	case "ConditionalOperator":
		in.ConditionalOperator, ok = s.str()
	default:
		ok = in.exprMembers.member(name, s)
	}
	return ok
}
