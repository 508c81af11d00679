package dynamojson

// Where a value sits in a JSON document, so that every complaint about one, in
// DynamoDB JSON or in another format read from JSON, names its place as a path the
// user can paste into jq: $.Items[3].PK.M.city.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// PathError is a problem at a place in a JSON document: a value that is not valid
// DynamoDB JSON, or a member of an imported file that is missing or wrong. Path is
// a JSON path such as $.Items[3].PK.M.city, so the user can find the value in the
// file.
type PathError struct {
	Path string
	Msg  string
	// Service is set when Msg is DynamoDB's own refusal of the value, in its words
	// (a number it cannot store, a set it refuses): serve answers it as DynamoDB's
	// ValidationException.
	Service bool
}

func (e *PathError) Error() string { return e.Path + ": " + e.Msg }

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

// Kind names a decoded JSON value's kind (Decode) for error messages:
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
