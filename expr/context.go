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

// name resolves a #name placeholder and records its use. The usage maps are made
// on first use, so that a request without placeholders allocates none.
func (c *Context) name(ph string) (string, bool) {
	n, ok := c.Names[ph]
	if ok {
		if c.usedNames == nil {
			c.usedNames = make(map[string]bool, len(c.Names))
		}
		c.usedNames[ph] = true
	}
	return n, ok
}

// value resolves a :value placeholder and records its use.
func (c *Context) value(ph string) (model.Value, bool) {
	v, ok := c.Values[ph]
	if ok {
		if c.usedValues == nil {
			c.usedValues = make(map[string]bool, len(c.Values))
		}
		c.usedValues[ph] = true
	}
	return v, ok
}

// Validate checks the maps themselves before any expression is compiled, with
// DynamoDB's messages (dynalite validations/index.js, validateExpressions): a map
// given but empty, and a key that is not # or : followed by [0-9A-Za-z_]+.
func (c *Context) Validate() error {
	if c.Names != nil && len(c.Names) == 0 {
		return Validation("ExpressionAttributeNames must not be empty")
	}
	for _, k := range sortedKeys(c.Names) {
		if !placeholderOK(k, '#') {
			return Validation("ExpressionAttributeNames contains invalid key: Syntax error; key: %q", k)
		}
	}
	if c.Values != nil && len(c.Values) == 0 {
		return Validation("ExpressionAttributeValues must not be empty")
	}
	for _, k := range sortedKeys(c.Values) {
		if !placeholderOK(k, ':') {
			return Validation("ExpressionAttributeValues contains invalid key: Syntax error; key: %q", k)
		}
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
	var unused []string
	for _, k := range sortedKeys(c.Names) {
		if !c.usedNames[k] {
			unused = append(unused, k)
		}
	}
	if len(unused) > 0 {
		return Validation("Value provided in ExpressionAttributeNames unused in expressions: keys: {%s}",
			strings.Join(unused, ", "))
	}
	for _, k := range sortedKeys(c.Values) {
		if !c.usedValues[k] {
			unused = append(unused, k)
		}
	}
	if len(unused) > 0 {
		return Validation("Value provided in ExpressionAttributeValues unused in expressions: keys: {%s}",
			strings.Join(unused, ", "))
	}
	return nil
}

// sortedKeys is a map's keys in order, so that messages are the same on every run.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

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
		for i, k := range sortedKeys(v.Map) {
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
