package expr

import (
	"encoding/base64"
	"maps"
	"slices"
	"strconv"
	"strings"

	"stwb/model"
)

// Kind is which request parameter an expression came from. DynamoDB names it in
// every message ("Invalid FilterExpression: ..."), and the same condition grammar
// serves three of them.
type Kind uint8

// The expression kinds of a DynamoDB request.
const (
	KindKeyCondition Kind = iota + 1
	KindFilter
	KindCondition
	KindProjection
	KindUpdate
)

var kindNames = [...]string{"", "KeyConditionExpression", "FilterExpression",
	"ConditionExpression", "ProjectionExpression", "UpdateExpression"}

// String is the request parameter's name, as DynamoDB writes it in messages.
func (k Kind) String() string {
	if int(k) < len(kindNames) && k > 0 {
		return kindNames[k]
	}
	return "Expression"
}

// invalid makes the "Invalid <Kind>: ..." ValidationException of a parse-time error.
func (k Kind) invalid(msg string) *Error {
	return &Error{Type: ValidationException, Message: "Invalid " + k.String() + ": " + msg}
}

// emptyError is DynamoDB's answer to an expression parameter given as "".
func (k Kind) emptyError() *Error { return k.invalid("The expression can not be empty;") }

func orNew(ctx *Context) *Context {
	if ctx == nil {
		return NewContext(nil, nil)
	}
	return ctx
}

// name resolves a #name placeholder and records its use.
func (c *Context) name(ph string) (string, bool) { return lookupPlaceholder(c.Names, &c.usedNames, ph) }

// value resolves a :value placeholder and records its use.
func (c *Context) value(ph string) (model.Value, bool) {
	return lookupPlaceholder(c.Values, &c.usedValues, ph)
}

// lookupPlaceholder looks placeholder ph up in m and marks it in *used.
func lookupPlaceholder[V any](m map[string]V, used *placeholderSet, ph string) (V, bool) {
	v, ok := m[ph]
	if ok {
		used.add(ph, len(m))
	}
	return v, ok
}

// placeholderSet is the placeholders of one map that a request's expressions used.
// A request uses a few, so they are listed in a slice, made on first use: a map per
// request was 6% of what a replay allocated (issue 24). Past maxListedPlaceholders
// the list becomes a map, so that a request with hundreds is not searched
// quadratically.
type placeholderSet struct {
	list []string
	set  map[string]bool
}

const maxListedPlaceholders = 16

// add marks ph used; mapSize is the size of its map, which bounds how many can be.
func (s *placeholderSet) add(ph string, mapSize int) {
	switch {
	case s.set != nil:
		s.set[ph] = true
	case slices.Contains(s.list, ph):
	case len(s.list) < maxListedPlaceholders:
		if s.list == nil {
			s.list = make([]string, 0, min(mapSize, maxListedPlaceholders))
		}
		s.list = append(s.list, ph)
	default:
		s.set = make(map[string]bool, mapSize)
		for _, p := range s.list {
			s.set[p] = true
		}
		s.set[ph] = true
		s.list = nil
	}
}

func (s *placeholderSet) has(ph string) bool {
	if s.set != nil {
		return s.set[ph]
	}
	return slices.Contains(s.list, ph)
}

// Validate checks the maps themselves before any expression is compiled, with
// DynamoDB's messages (dynalite validations/index.js, validateExpressions): a map
// given but empty, and a key that is not # or : followed by [0-9A-Za-z_]+.
func (c *Context) Validate() error {
	if err := validateMap(c.Names, "ExpressionAttributeNames", '#'); err != nil {
		return err
	}
	// An empty name is refused before any expression is read. DynamoDB's message
	// (as applications match it and DynamoDB Local gives it; API_Query.html
	// "ExpressionAttributeNames": values are attribute names, at least 1 character):
	// "ExpressionAttributeNames contains invalid value: Empty attribute name for key #DE".
	if k, bad := leastKey(c.Names, func(_, name string) bool { return name == "" }); bad {
		return Validation("ExpressionAttributeNames contains invalid value: Empty attribute name for key %s", k)
	}
	return validateMap(c.Values, "ExpressionAttributeValues", ':')
}

// leastKey is the least key of m for which bad holds (ok is false when none does):
// the key a message names, the same on every run, found without sorting the keys
// of every request's maps.
func leastKey[V any](m map[string]V, bad func(k string, v V) bool) (key string, ok bool) {
	for k, v := range m {
		if bad(k, v) && (!ok || k < key) {
			key, ok = k, true
		}
	}
	return key, ok
}

// validateMap checks one of the two maps, named param in messages, whose keys start
// with lead.
func validateMap[V any](m map[string]V, param string, lead byte) error {
	if m != nil && len(m) == 0 {
		return Validation("%s must not be empty", param)
	}
	if k, bad := leastKey(m, func(k string, _ V) bool { return !placeholderOK(k, lead) }); bad {
		return Validation("%s contains invalid key: Syntax error; key: %q", param, k)
	}
	return nil
}

func placeholderOK(k string, lead byte) bool {
	if len(k) < 2 || k[0] != lead {
		return false
	}
	for i := 1; i < len(k); i++ {
		if !isIdentPart(k[i]) {
			return false
		}
	}
	return true
}

// CheckUnused reports a name or value of the context that no compiled expression
// used, with DynamoDB's message. Names are checked before values, as DynamoDB does;
// the keys are listed sorted so that the message is the same on every run.
func (c *Context) CheckUnused() error {
	if err := checkUsed(c.Names, c.usedNames, "ExpressionAttributeNames"); err != nil {
		return err
	}
	return checkUsed(c.Values, c.usedValues, "ExpressionAttributeValues")
}

// checkUsed reports the keys of m that used does not hold, in map param's message.
func checkUsed[V any](m map[string]V, used placeholderSet, param string) error {
	var unused []string
	for k := range m {
		if !used.has(k) {
			unused = append(unused, k)
		}
	}
	slices.Sort(unused)
	if len(unused) > 0 {
		return Validation("Value provided in %s unused in expressions: keys: {%s}", param, strings.Join(unused, ", "))
	}
	return nil
}

// ValueString formats a value as DynamoDB's messages show one: "{N:5}", "{S:abc}",
// binary as base64, sets and lists as their elements in brackets. Messages prefix it
// with "AttributeValue: " where DynamoDB does.
func ValueString(v model.Value) string {
	var b strings.Builder
	writeValue(&b, v)
	return b.String()
}

func writeValue(b *strings.Builder, v model.Value) {
	b.WriteByte('{')
	b.WriteString(v.Type.String())
	b.WriteByte(':')
	switch v.Type {
	case model.TypeS:
		b.WriteString(v.Str)
	case model.TypeN:
		b.WriteString(model.CanonicalNumber(v.Str))
	case model.TypeB:
		b.WriteString(base64.StdEncoding.EncodeToString([]byte(v.Str)))
	case model.TypeBOOL:
		b.WriteString(strconv.FormatBool(v.Bool))
	case model.TypeNULL:
		b.WriteString("true")
	case model.TypeSS, model.TypeNS, model.TypeBS, model.TypeL:
		b.WriteByte('[')
		for i, e := range v.List {
			if i > 0 {
				b.WriteString(", ")
			}
			if v.Type == model.TypeL {
				writeValue(b, e)
				continue
			}
			s := ValueString(e)
			// A set element shows without its type: {SS:[a, b]}.
			b.WriteString(s[strings.IndexByte(s, ':')+1 : len(s)-1])
		}
		b.WriteByte(']')
	case model.TypeM:
		b.WriteByte('{')
		for i, k := range slices.Sorted(maps.Keys(v.Map)) {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(k)
			b.WriteByte('=')
			writeValue(b, v.Map[k])
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
}
