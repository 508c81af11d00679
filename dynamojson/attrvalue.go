package dynamojson

// DynamoDB JSON, the wire form of attribute values (API_AttributeValue.html in the
// DynamoDB API reference): each value is an object with exactly one member naming
// its type, {"S": "x"}, {"N": "12.5"}, {"B": "<base64>"}, {"BOOL": true},
// {"NULL": true}, {"L": [...]}, {"M": {...}}, {"SS": [...]}, {"NS": [...]},
// {"BS": [...]}. Numbers travel as strings, so their exact digits survive.
//
// Output is canonical so that command-line output and exported files are stable:
// attribute and map names sorted by their bytes, binary in standard base64, no HTML
// escaping. Sets keep their element order, as DynamoDB does not define one. Numbers
// come in two spellings: AppendValue and AppendItem write DynamoDB's
// returned form (CanonicalNumber: "1e3" -> "1000"), for showing what a request
// returns; the *Exact variants keep the text the design wrote, for files that must
// read back as the same design (a key template spliced "4e10" into "ORDER#4e10").

import (
	. "stwb/model"

	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"unicode/utf8"
)

// PathError is a value that is not valid DynamoDB JSON. Path is a JSON path such as
// $.Items[3].PK.M.city, so the user can find the value in the file.
type PathError struct {
	Path string
	Msg  string
}

func (e *PathError) Error() string { return e.Path + ": " + e.Msg }

// maxDepth is DynamoDB's limit on nesting of lists and maps (32 levels,
// ServiceQuotas.html "Nested attribute depth"); deeper input is refused rather than
// recursed into without bound.
const maxDepth = 32

// AppendValue appends v in DynamoDB JSON to buf, numbers as DynamoDB returns
// them.
func AppendValue(buf []byte, v Value) []byte { return appendWire(buf, v, false) }

// AppendValueExact appends v in DynamoDB JSON, numbers as written.
func AppendValueExact(buf []byte, v Value) []byte { return appendWire(buf, v, true) }

func numText(s string, exact bool) string {
	if exact {
		return s
	}
	return CanonicalNumber(s)
}

func appendWire(buf []byte, v Value, exact bool) []byte {
	buf = append(buf, '{')
	buf = appendJSONString(buf, v.Type.String())
	buf = append(buf, ':')
	switch v.Type {
	case TypeS:
		buf = appendJSONString(buf, v.Str)
	case TypeN:
		buf = appendJSONString(buf, numText(v.Str, exact))
	case TypeB:
		buf = appendJSONString(buf, base64.StdEncoding.EncodeToString([]byte(v.Str)))
	case TypeBOOL:
		buf = strconv.AppendBool(buf, v.Bool)
	case TypeNULL:
		buf = append(buf, "true"...)
	case TypeL:
		buf = append(buf, '[')
		for i, e := range v.List {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendWire(buf, e, exact)
		}
		buf = append(buf, ']')
	case TypeM:
		buf = appendWireMap(buf, v.Map, exact)
	case TypeSS, TypeNS, TypeBS:
		buf = append(buf, '[')
		for i, e := range v.List {
			if i > 0 {
				buf = append(buf, ',')
			}
			switch v.Type {
			case TypeNS:
				buf = appendJSONString(buf, numText(e.Str, exact))
			case TypeBS:
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

func appendWireMap(buf []byte, m map[string]Value, exact bool) []byte {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
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
func AppendItem(buf []byte, it Item) []byte { return appendWireMap(buf, it, false) }

// AppendItemExact appends the item in DynamoDB JSON, numbers as written.
func AppendItemExact(buf []byte, it Item) []byte { return appendWireMap(buf, it, true) }

// MarshalItem returns the item in DynamoDB JSON, attribute names sorted. A nil
// item is written as JSON null (DynamoDB leaves out an absent item; callers that
// embed it choose). It never fails; the error is there for json.Marshaler parity.
func MarshalItem(it Item) ([]byte, error) {
	if it == nil {
		return []byte("null"), nil
	}
	return AppendItem(nil, it), nil
}

// WireItem is an Item that encoding/json writes and reads as DynamoDB JSON, for
// embedding items in larger JSON documents (query output, BatchWriteItem files).
type WireItem Item

// MarshalJSON writes the item in canonical DynamoDB JSON.
func (w WireItem) MarshalJSON() ([]byte, error) { return MarshalItem(Item(w)) }

// UnmarshalJSON reads an item in DynamoDB JSON. Error paths start at "$".
func (w *WireItem) UnmarshalJSON(data []byte) error {
	it, err := ParseItem(data)
	if err != nil {
		return err
	}
	*w = WireItem(it)
	return nil
}

// ItemExact is a WireItem whose numbers keep the text the design wrote.
type ItemExact Item

// MarshalJSON writes the item in DynamoDB JSON, numbers as written.
func (w ItemExact) MarshalJSON() ([]byte, error) {
	if w == nil {
		return []byte("null"), nil
	}
	return AppendItemExact(nil, Item(w)), nil
}

// WireValue is a Value that encoding/json writes and reads as DynamoDB JSON.
type WireValue Value

// MarshalJSON writes the value in DynamoDB JSON.
func (w WireValue) MarshalJSON() ([]byte, error) { return AppendValue(nil, Value(w)), nil }

// UnmarshalJSON reads a value in DynamoDB JSON.
func (w *WireValue) UnmarshalJSON(data []byte) error {
	v, err := ParseValue(data)
	if err != nil {
		return err
	}
	*w = WireValue(v)
	return nil
}

// ParseItem reads one item in DynamoDB JSON: {"PK": {"S": "x"}, ...}. Errors
// are *PathError with a path from "$".
func ParseItem(data []byte) (Item, error) {
	x, err := Decode(data)
	if err != nil {
		return nil, &PathError{Path: "$", Msg: err.Error()}
	}
	return ItemFromJSON(x, "$")
}

// ParseValue reads one attribute value in DynamoDB JSON: {"S": "x"}.
func ParseValue(data []byte) (Value, error) {
	x, err := Decode(data)
	if err != nil {
		return Value{}, &PathError{Path: "$", Msg: err.Error()}
	}
	return ValueFromJSON(x, "$")
}

// Decode decodes one JSON document into the generic form ItemFromJSON
// reads (map[string]any, []any, string, json.Number, bool, nil), keeping numbers'
// text. Trailing data after the document is an error.
func Decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("not valid JSON: more data after the value at offset %d", dec.InputOffset())
	}
	return x, nil
}

// ItemFromJSON reads an item from decoded JSON (see Decode); path names x
// in error messages, e.g. "$.Items[3]".
func ItemFromJSON(x any, path string) (Item, error) {
	m, ok := x.(map[string]any)
	if !ok {
		return nil, &PathError{Path: path, Msg: fmt.Sprintf("an item must be a JSON object of attribute values, not %s", Kind(x))}
	}
	it := make(Item, len(m))
	for _, name := range sortedKeys(m) {
		v, err := wireValue(m[name], PathChild(path, name), 1)
		if err != nil {
			return nil, err
		}
		it[name] = v
	}
	return it, nil
}

// ValueFromJSON reads one attribute value from decoded JSON.
func ValueFromJSON(x any, path string) (Value, error) { return wireValue(x, path, 1) }

func wireValue(x any, path string, depth int) (Value, error) {
	if depth > maxDepth {
		return Value{}, &PathError{Path: path, Msg: fmt.Sprintf("nesting deeper than %d levels; DynamoDB refuses such an item", maxDepth)}
	}
	m, ok := x.(map[string]any)
	if !ok {
		return Value{}, &PathError{Path: path, Msg: fmt.Sprintf("an attribute value must be an object such as {\"S\": \"text\"}, not %s", Kind(x))}
	}
	if len(m) != 1 {
		// DynamoDB's own wording for this case (ValidationException).
		return Value{}, &PathError{Path: path, Msg: fmt.Sprintf("Supplied AttributeValue has %d members, must contain exactly one of the supported datatypes (S, N, B, BOOL, NULL, L, M, SS, NS, BS)", len(m))}
	}
	var tname string
	var body any
	for k, b := range m {
		tname, body = k, b
	}
	t, ok := ParseType(tname)
	if !ok {
		return Value{}, &PathError{Path: path, Msg: fmt.Sprintf("unknown attribute value type %q; use one of S, N, B, BOOL, NULL, L, M, SS, NS, BS", tname)}
	}
	bpath := PathChild(path, tname)
	switch t {
	case TypeS:
		s, ok := body.(string)
		if !ok {
			return Value{}, wantKind(bpath, "a string", body)
		}
		return Str(s), nil
	case TypeN:
		return wireNumber(body, bpath)
	case TypeB:
		return wireBinary(body, bpath)
	case TypeBOOL:
		b, ok := body.(bool)
		if !ok {
			return Value{}, wantKind(bpath, "true or false", body)
		}
		return Bool(b), nil
	case TypeNULL:
		if b, ok := body.(bool); !ok || !b {
			return Value{}, &PathError{Path: bpath, Msg: "Null attribute value types must have the value of true"}
		}
		return Null(), nil
	case TypeL:
		arr, ok := body.([]any)
		if !ok {
			return Value{}, wantKind(bpath, "an array of attribute values", body)
		}
		l := make([]Value, len(arr))
		for i, e := range arr {
			v, err := wireValue(e, PathIndex(bpath, i), depth+1)
			if err != nil {
				return Value{}, err
			}
			l[i] = v
		}
		return List(l...), nil
	case TypeM:
		obj, ok := body.(map[string]any)
		if !ok {
			return Value{}, wantKind(bpath, "an object of attribute values", body)
		}
		mm := make(map[string]Value, len(obj))
		for _, k := range sortedKeys(obj) {
			v, err := wireValue(obj[k], PathChild(bpath, k), depth+1)
			if err != nil {
				return Value{}, err
			}
			mm[k] = v
		}
		return Map(mm), nil
	default: // SS, NS, BS
		return wireSet(t, body, bpath)
	}
}

func wireNumber(body any, path string) (Value, error) {
	s, ok := body.(string)
	if !ok {
		// A bare JSON number is a common mistake; say how to write it.
		if n, isNum := body.(json.Number); isNum {
			return Value{}, &PathError{Path: path, Msg: fmt.Sprintf("a number travels as a string in DynamoDB JSON: write {\"N\": \"%s\"}", n)}
		}
		return Value{}, wantKind(path, "a number as a string", body)
	}
	if _, err := ParseNumber(s); err != nil {
		return Value{}, &PathError{Path: path, Msg: err.Error()}
	}
	return Num(s), nil
}

func wireBinary(body any, path string) (Value, error) {
	s, ok := body.(string)
	if !ok {
		return Value{}, wantKind(path, "a base64 string", body)
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return Value{}, &PathError{Path: path, Msg: fmt.Sprintf("not valid base64: %v", err)}
	}
	return Bin(b), nil
}

func wireSet(t Type, body any, path string) (Value, error) {
	arr, ok := body.([]any)
	if !ok {
		return Value{}, wantKind(path, "an array", body)
	}
	if len(arr) == 0 {
		return Value{}, &PathError{Path: path, Msg: fmt.Sprintf("One or more parameter values were invalid: An %s may not be empty", setWord(t))}
	}
	v := Value{Type: t, List: make([]Value, 0, len(arr))}
	for i, e := range arr {
		epath := PathIndex(path, i)
		var ev Value
		var err error
		switch t {
		case TypeSS:
			s, ok := e.(string)
			if !ok {
				return Value{}, wantKind(epath, "a string", e)
			}
			ev = Str(s)
		case TypeNS:
			ev, err = wireNumber(e, epath)
		case TypeBS:
			ev, err = wireBinary(e, epath)
		}
		if err != nil {
			return Value{}, err
		}
		if v.Contains(ev) {
			return Value{}, &PathError{Path: epath, Msg: "One or more parameter values were invalid: Input collection contains duplicates"}
		}
		v.List = append(v.List, ev)
	}
	return v, nil
}

func setWord(t Type) string {
	switch t {
	case TypeNS:
		return "number set"
	case TypeBS:
		return "binary set"
	}
	return "string set"
}

func wantKind(path, want string, got any) error {
	return &PathError{Path: path, Msg: fmt.Sprintf("expected %s, found %s", want, Kind(got))}
}

// Kind names a decoded JSON value's kind (model.Decode) for error messages:
// "a string", "an object", "null"; importers reading other JSON shapes say it the same way.
func Kind(x any) string {
	switch x.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case json.Number, float64:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", x)
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// PathChild extends a JSON path by a member name: $.a, or $["odd name"] when
// the name is not a plain identifier, so the path can be pasted into jq.
func PathChild(path, name string) string {
	if isPlainJSONName(name) {
		return path + "." + name
	}
	return path + "[" + string(appendJSONString(nil, name)) + "]"
}

// PathIndex extends a JSON path by an array index: $.a[3].
func PathIndex(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

func isPlainJSONName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r == '$' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'):
		case i > 0 && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string. Unlike encoding/json it leaves <, >
// and & alone (the output is read by people and tools, not embedded in HTML);
// invalid UTF-8 becomes U+FFFD as encoding/json does.
func appendJSONString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			buf = append(buf, s[start:i]...)
			switch c {
			case '"', '\\':
				buf = append(buf, '\\', c)
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			default:
				buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
			i += size
			start = i
			continue
		}
		// U+2028 and U+2029 are valid JSON but break JavaScript string literals;
		// escaping them keeps the output safe to paste into a .js file.
		if r == '\u2028' || r == '\u2029' {
			buf = append(buf, s[start:i]...)
			buf = append(buf, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// AppendString appends s as a JSON string, without HTML escaping.
func AppendString(buf []byte, s string) []byte { return appendJSONString(buf, s) }
