package dynamojson

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"stwb/model"
)

// maxDepth is DynamoDB's limit on nesting of lists and maps (32 levels,
// ServiceQuotas.html "Nested attribute depth"); deeper input is refused rather than
// recursed into without bound.
const maxDepth = 32

// AppendValue appends v in DynamoDB JSON to buf, numbers as DynamoDB returns
// them.
func AppendValue(buf []byte, v model.Value) []byte { return appendWire(buf, v, false) }

// AppendValueExact appends v in DynamoDB JSON, numbers as written.
func AppendValueExact(buf []byte, v model.Value) []byte { return appendWire(buf, v, true) }

func numText(s string, exact bool) string {
	if exact {
		return s
	}
	return model.CanonicalNumber(s)
}

func appendWire(buf []byte, v model.Value, exact bool) []byte {
	buf = append(buf, '{')
	buf = appendJSONString(buf, v.Type.String())
	buf = append(buf, ':')
	switch v.Type {
	case model.TypeS:
		buf = appendJSONString(buf, v.Str)
	case model.TypeN:
		buf = appendJSONString(buf, numText(v.Str, exact))
	case model.TypeB:
		buf = appendJSONString(buf, base64.StdEncoding.EncodeToString([]byte(v.Str)))
	case model.TypeBOOL:
		buf = strconv.AppendBool(buf, v.Bool)
	case model.TypeNULL:
		buf = append(buf, "true"...)
	case model.TypeL:
		buf = append(buf, '[')
		for i, e := range v.List {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendWire(buf, e, exact)
		}
		buf = append(buf, ']')
	case model.TypeM:
		buf = appendWireMap(buf, v.Map, exact)
	case model.TypeSS, model.TypeNS, model.TypeBS:
		buf = append(buf, '[')
		for i, e := range v.List {
			if i > 0 {
				buf = append(buf, ',')
			}
			switch v.Type {
			case model.TypeNS:
				buf = appendJSONString(buf, numText(e.Str, exact))
			case model.TypeBS:
				buf = appendJSONString(buf, base64.StdEncoding.EncodeToString([]byte(e.Str)))
			default:
				buf = appendJSONString(buf, e.Str)
			}
		}
		buf = append(buf, ']')
	default:
		// A zero Value has no type; writing it as NULL keeps the output valid JSON
		// rather than inventing a type name DynamoDB would reject.
		buf = buf[:len(buf)-len(`"?":`)]
		buf = append(buf, `"NULL":true`...)
	}
	return append(buf, '}')
}

func appendWireMap(buf []byte, m map[string]model.Value, exact bool) []byte {
	// Most items have a handful of attributes: their names are sorted on the stack.
	var small [16]string
	names := small[:0]
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	buf = append(buf, '{')
	for i, k := range names {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendJSONString(buf, k)
		buf = append(buf, ':')
		buf = appendWire(buf, m[k], exact)
	}
	return append(buf, '}')
}

// AppendItem appends the item in DynamoDB JSON, attribute names sorted,
// numbers as DynamoDB returns them.
func AppendItem(buf []byte, it model.Item) []byte { return appendWireMap(buf, it, false) }

// AppendItemExact appends the item in DynamoDB JSON, numbers as written.
func AppendItemExact(buf []byte, it model.Item) []byte { return appendWireMap(buf, it, true) }

// MarshalItem returns the item in DynamoDB JSON, attribute names sorted. A nil
// item is written as JSON null (DynamoDB leaves out an absent item; callers that
// embed it choose). It never fails; the error is there for json.Marshaler parity.
func MarshalItem(it model.Item) ([]byte, error) {
	if it == nil {
		return []byte("null"), nil
	}
	return AppendItem(nil, it), nil
}

// Item is a model.Item that encoding/json writes and reads as DynamoDB JSON, for
// embedding items in larger JSON documents (query output, BatchWriteItem files).
type Item model.Item

// MarshalJSON writes the item in canonical DynamoDB JSON.
func (w Item) MarshalJSON() ([]byte, error) { return MarshalItem(model.Item(w)) }

// UnmarshalJSON reads an item in DynamoDB JSON. Error paths start at "$".
func (w *Item) UnmarshalJSON(data []byte) error {
	it, err := ParseItem(data)
	if err != nil {
		return err
	}
	*w = Item(it)
	return nil
}

// ItemExact is an Item whose numbers keep the text the design wrote.
type ItemExact model.Item

// MarshalJSON writes the item in DynamoDB JSON, numbers as written.
func (w ItemExact) MarshalJSON() ([]byte, error) {
	if w == nil {
		return []byte("null"), nil
	}
	return AppendItemExact(nil, model.Item(w)), nil
}

// Value is a model.Value that encoding/json writes and reads as DynamoDB JSON.
type Value model.Value

// MarshalJSON writes the value in DynamoDB JSON.
func (w Value) MarshalJSON() ([]byte, error) { return AppendValue(nil, model.Value(w)), nil }

// UnmarshalJSON reads a value in DynamoDB JSON.
func (w *Value) UnmarshalJSON(data []byte) error {
	v, err := ParseValue(data)
	if err != nil {
		return err
	}
	*w = Value(v)
	return nil
}

// ParseItem reads one item in DynamoDB JSON: {"PK": {"S": "x"}, ...}. Errors
// are *PathError with a path from "$".
func ParseItem(data []byte) (model.Item, error) {
	if it, ok := parseItemFast(data); ok {
		return it, nil
	}
	return parseItemSlow(data)
}

// parseItemSlow is ParseItem through the generic decoding, which names the place
// of any error.
func parseItemSlow(data []byte) (model.Item, error) {
	x, err := Decode(data)
	if err != nil {
		return nil, &PathError{Path: "$", Msg: err.Error()}
	}
	return ItemFromJSON(x, "$")
}

// ParseValue reads one attribute value in DynamoDB JSON: {"S": "x"}.
func ParseValue(data []byte) (model.Value, error) {
	if v, ok := parseValueFast(data); ok {
		return v, nil
	}
	return parseValueSlow(data)
}

func parseValueSlow(data []byte) (model.Value, error) {
	x, err := Decode(data)
	if err != nil {
		return model.Value{}, &PathError{Path: "$", Msg: err.Error()}
	}
	return ValueFromJSON(x, "$")
}

// ItemFromJSON reads an item from decoded JSON (see Decode); path names x
// in error messages, e.g. "$.Items[3]".
func ItemFromJSON(x any, path string) (model.Item, error) {
	m, ok := x.(map[string]any)
	if !ok {
		return nil, &PathError{Path: path, Msg: fmt.Sprintf("an item must be a JSON object of attribute values, not %s", Kind(x))}
	}
	it := make(model.Item, len(m))
	for _, name := range slices.Sorted(maps.Keys(m)) {
		v, err := wireValue(m[name], PathChild(path, name), 1)
		if err != nil {
			return nil, err
		}
		it[name] = v
	}
	return it, nil
}

// ValueFromJSON reads one attribute value from decoded JSON.
func ValueFromJSON(x any, path string) (model.Value, error) { return wireValue(x, path, 1) }

func wireValue(x any, path string, depth int) (model.Value, error) {
	if depth > maxDepth {
		return model.Value{}, &PathError{Path: path, Msg: fmt.Sprintf("nesting deeper than %d levels; DynamoDB refuses such an item", maxDepth)}
	}
	m, ok := x.(map[string]any)
	if !ok {
		return model.Value{}, &PathError{Path: path, Msg: fmt.Sprintf("an attribute value must be an object such as {\"S\": \"text\"}, not %s", Kind(x))}
	}
	if len(m) != 1 {
		// DynamoDB's own wording for this case (ValidationException).
		return model.Value{}, &PathError{Path: path, Msg: fmt.Sprintf("Supplied AttributeValue has %d members, must contain exactly one of the supported datatypes (S, N, B, BOOL, NULL, L, M, SS, NS, BS)", len(m))}
	}
	var tname string
	var body any
	for k, b := range m {
		tname, body = k, b
	}
	t, ok := model.ParseType(tname)
	if !ok {
		return model.Value{}, &PathError{Path: path, Msg: fmt.Sprintf("unknown attribute value type %q; use one of S, N, B, BOOL, NULL, L, M, SS, NS, BS", tname)}
	}
	bpath := PathChild(path, tname)
	switch t {
	case model.TypeS:
		s, ok := body.(string)
		if !ok {
			return model.Value{}, wantKind(bpath, "a string", body)
		}
		return model.Str(s), nil
	case model.TypeN:
		return wireNumber(body, bpath)
	case model.TypeB:
		return wireBinary(body, bpath)
	case model.TypeBOOL:
		b, ok := body.(bool)
		if !ok {
			return model.Value{}, wantKind(bpath, "true or false", body)
		}
		return model.Bool(b), nil
	case model.TypeNULL:
		if b, ok := body.(bool); !ok || !b {
			return model.Value{}, &PathError{Path: bpath, Msg: "Null attribute value types must have the value of true"}
		}
		return model.Null(), nil
	case model.TypeL:
		arr, ok := body.([]any)
		if !ok {
			return model.Value{}, wantKind(bpath, "an array of attribute values", body)
		}
		l := make([]model.Value, len(arr))
		for i, e := range arr {
			v, err := wireValue(e, PathIndex(bpath, i), depth+1)
			if err != nil {
				return model.Value{}, err
			}
			l[i] = v
		}
		return model.List(l...), nil
	case model.TypeM:
		obj, ok := body.(map[string]any)
		if !ok {
			return model.Value{}, wantKind(bpath, "an object of attribute values", body)
		}
		mm := make(map[string]model.Value, len(obj))
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			v, err := wireValue(obj[k], PathChild(bpath, k), depth+1)
			if err != nil {
				return model.Value{}, err
			}
			mm[k] = v
		}
		return model.Map(mm), nil
	default: // SS, NS, BS
		return wireSet(t, body, bpath)
	}
}

func wireNumber(body any, path string) (model.Value, error) {
	s, ok := body.(string)
	if !ok {
		// A bare JSON number is a common mistake; say how to write it.
		if n, isNum := body.(json.Number); isNum {
			return model.Value{}, &PathError{Path: path, Msg: fmt.Sprintf("a number travels as a string in DynamoDB JSON: write {\"N\": \"%s\"}", n)}
		}
		return model.Value{}, wantKind(path, "a number as a string", body)
	}
	if _, err := model.ParseNumber(s); err != nil {
		return model.Value{}, &PathError{Path: path, Msg: model.NumberMessage(s, err), Service: true}
	}
	return model.Num(s), nil
}

func wireBinary(body any, path string) (model.Value, error) {
	s, ok := body.(string)
	if !ok {
		return model.Value{}, wantKind(path, "a base64 string", body)
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return model.Value{}, &PathError{Path: path, Msg: fmt.Sprintf("not valid base64: %v", err)}
	}
	return model.Bin(b), nil
}

func wireSet(t model.Type, body any, path string) (model.Value, error) {
	arr, ok := body.([]any)
	if !ok {
		return model.Value{}, wantKind(path, "an array", body)
	}
	if len(arr) == 0 {
		return model.Value{}, &PathError{Path: path, Msg: model.EmptySetMessage(t), Service: true}
	}
	v := model.Value{Type: t, List: make([]model.Value, 0, len(arr))}
	dupAt := "" // the first element seen twice; the message shows the whole set
	for i, e := range arr {
		epath := PathIndex(path, i)
		var ev model.Value
		var err error
		switch t {
		case model.TypeSS:
			s, ok := e.(string)
			if !ok {
				return model.Value{}, wantKind(epath, "a string", e)
			}
			ev = model.Str(s)
		case model.TypeNS:
			ev, err = wireNumber(e, epath)
		case model.TypeBS:
			ev, err = wireBinary(e, epath)
		}
		if err != nil {
			return model.Value{}, err
		}
		if dupAt == "" && v.Contains(ev) {
			dupAt = epath
		}
		v.List = append(v.List, ev)
	}
	if dupAt != "" {
		return model.Value{}, &PathError{Path: dupAt, Msg: model.DuplicateSetMessage(v), Service: true}
	}
	return v, nil
}

func wantKind(path, want string, got any) error {
	return &PathError{Path: path, Msg: fmt.Sprintf("expected %s, found %s", want, Kind(got))}
}
