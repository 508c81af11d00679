package interop

// Every problem at once (issue 16): the Workbench importer does not stop at the
// first bad value. A collector gathers each problem with its JSON path while the
// rest of the model is read, so that a model with nineteen invalid values takes
// one run to fix, not nineteen.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"stwb/dynamojson"
)

// PathErrors is every problem found in an imported file, in the file's order.
type PathErrors []*dynamojson.PathError

func (es PathErrors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// asPathError gives any error of the importer's a JSON path ("$" when it has none).
func asPathError(err error) *dynamojson.PathError {
	var pe *dynamojson.PathError
	if errors.As(err, &pe) {
		return pe
	}
	return &dynamojson.PathError{Path: "$", Msg: err.Error()}
}

// collector gathers problems; with skip, those of items are set aside as skipped.
type collector struct {
	errs    PathErrors
	skip    bool
	skipped []*dynamojson.PathError
	// badItems holds, by item path, the problems found before decoding (bytes
	// that are not UTF-8), for the item to be refused or skipped when read.
	badItems map[string][]*dynamojson.PathError
}

func (c *collector) add(err error) { c.errs = append(c.errs, asPathError(err)) }

// item records the problems of one item: errors, or skipped ones under skip.
func (c *collector) item(errs []*dynamojson.PathError) {
	if c.skip {
		c.skipped = append(c.skipped, errs...)
		return
	}
	c.errs = append(c.errs, errs...)
}

// field is n.field with the problem recorded; ok is false on a problem.
func (c *collector) field(n jnode, name string) (jnode, bool) {
	f, ok, err := n.field(name)
	if err != nil {
		c.add(err)
		return jnode{}, false
	}
	return f, ok
}

// optStr is n.optStr with the problem recorded.
func (c *collector) optStr(n jnode, name string) string {
	s, err := n.optStr(name)
	if err != nil {
		c.add(err)
	}
	return s
}

// optArray is n.optArray with the problem recorded.
func (c *collector) optArray(n jnode, name string) []jnode {
	a, err := n.optArray(name)
	if err != nil {
		c.add(err)
	}
	return a
}

// wireErrors lists every invalid value of a DynamoDB JSON item, each at its own
// path: every attribute is read on its own, and a bad map or list is searched for
// the values inside it that are bad, so that two bad members of one map are two
// problems, each named.
func wireErrors(n jnode) []*dynamojson.PathError {
	m, ok := n.v.(map[string]any)
	if !ok {
		_, err := dynamojson.ItemFromJSON(n.v, n.path)
		return []*dynamojson.PathError{asPathError(err)}
	}
	var out []*dynamojson.PathError
	for _, name := range sortedStrings(m) {
		out = append(out, wireValueErrors(m[name], dynamojson.PathChild(n.path, name), 1)...)
	}
	return out
}

// wireValueErrors is the problems of one attribute value at depth (1 for an
// item's attribute): those of the members of a map or list when they have any,
// else the value's own.
func wireValueErrors(x any, path string, depth int) []*dynamojson.PathError {
	_, err := dynamojson.ValueFromJSON(x, path)
	if err == nil {
		return nil
	}
	if depth < maxNestedSearch {
		if w, ok := x.(map[string]any); ok && len(w) == 1 {
			var out []*dynamojson.PathError
			switch body := w["M"].(type) {
			case map[string]any:
				for _, k := range sortedStrings(body) {
					out = append(out, wireValueErrors(body[k], dynamojson.PathChild(dynamojson.PathChild(path, "M"), k), depth+1)...)
				}
			}
			switch body := w["L"].(type) {
			case []any:
				for i, e := range body {
					out = append(out, wireValueErrors(e, dynamojson.PathIndex(dynamojson.PathChild(path, "L"), i), depth+1)...)
				}
			}
			if len(out) > 0 {
				return out
			}
		}
	}
	return []*dynamojson.PathError{asPathError(err)}
}

// maxNestedSearch bounds how deep wireValueErrors looks for the bad members of a
// bad value; below it, the value's first problem is reported. DynamoDB's own
// nesting limit is 32 levels, so this sees every real item whole.
const maxNestedSearch = 40

// maxUTF8Problems bounds how many bytes that are not UTF-8 are placed one by one
// (each costs a walk of the file); the rest are counted.
const maxUTF8Problems = 100

// utf8Problems lists every byte of data that is not UTF-8, at the JSON path of the
// value (or key) it is in, with its line and column: encoding/json would turn it
// into U+FFFD without a word, so an item would be imported with a character it
// never had. DynamoDB strings are UTF-8 (HowItWorks.NamingRulesDataTypes.html).
func utf8Problems(data []byte) []*dynamojson.PathError {
	if utf8.Valid(data) {
		return nil
	}
	var out []*dynamojson.PathError
	more := 0
	line, lineStart := 1, 0
	for off := 0; off < len(data); {
		r, n := utf8.DecodeRune(data[off:])
		if data[off] == '\n' {
			line, lineStart = line+1, off+1
		}
		if r == utf8.RuneError && n <= 1 {
			if len(out) < maxUTF8Problems {
				out = append(out, &dynamojson.PathError{Path: jsonPathAt(data, off),
					Msg: fmt.Sprintf("byte 0x%02x at line %d, column %d is not UTF-8; DynamoDB strings are UTF-8, so fix the file's encoding (iconv -f LATIN1 -t UTF-8)", data[off], line, off-lineStart+1)})
			} else {
				more++
			}
		}
		off += max(n, 1)
	}
	if more > 0 {
		out = append(out, &dynamojson.PathError{Path: "$", Msg: fmt.Sprintf("and %d more bytes that are not UTF-8", more)})
	}
	return out
}

// itemPathOf is the path of the item (…TableData[i]) that path lies in, or "".
func itemPathOf(path string) string {
	i := strings.LastIndex(path, ".TableData[")
	if i < 0 {
		return ""
	}
	j := strings.IndexByte(path[i:], ']')
	if j < 0 {
		return ""
	}
	return path[:i+j+1]
}

// JSONSyntaxError is a file that is not JSON, with the line and column where
// reading stopped (1-based, counted in bytes).
type JSONSyntaxError struct {
	Line, Col int
	Msg       string
}

func (e *JSONSyntaxError) Error() string {
	return fmt.Sprintf("$: not valid JSON at line %d, column %d: %s", e.Line, e.Col, e.Msg)
}

// decodeJSON is dynamojson.Decode with a syntax error placed at its line and column.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, jsonSyntaxError(data, err)
	}
	if dec.More() {
		line, col := lineCol(data, dec.InputOffset()+1)
		return nil, &JSONSyntaxError{Line: line, Col: col, Msg: "more data after the model's closing brace"}
	}
	return x, nil
}

// jsonSyntaxError places a decoding error of data at its line and column.
func jsonSyntaxError(data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := int64(len(data))
	msg := strings.TrimPrefix(err.Error(), "not valid JSON: ")
	switch {
	case errors.As(err, &se):
		off, msg = se.Offset, se.Error()
	case errors.As(err, &te):
		off = te.Offset
	}
	line, col := lineCol(data, off)
	return &JSONSyntaxError{Line: line, Col: col, Msg: msg}
}

// lineCol is the 1-based line and column of byte offset off in data; an offset
// just past a character points at that character.
func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off > 0 {
		off-- // encoding/json's offset is just after the byte that stopped it
	}
	line, col := 1, 1
	for _, b := range data[:off] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}
