package interop

// A small reader over decoded JSON (dynamojson.Decode) that remembers where it is,
// so every complaint about an imported file names its JSON path, e.g.
// "$.DataModel[0].KeyAttributes.PartitionKey: missing AttributeName".

import (
	"encoding/json"
	"fmt"
	"strconv"

	"stwb/dynamojson"
)

type jnode struct {
	v    any
	path string
}

func root(v any) jnode { return jnode{v: v, path: "$"} }

func (n jnode) errf(format string, args ...any) error {
	return &dynamojson.PathError{Path: n.path, Msg: fmt.Sprintf(format, args...)}
}

func (n jnode) object() (map[string]any, error) {
	m, ok := n.v.(map[string]any)
	if !ok {
		return nil, n.errf("expected an object, found %s", dynamojson.Kind(n.v))
	}
	return m, nil
}

// field returns member name; ok is false when it is absent or null.
func (n jnode) field(name string) (jnode, bool, error) {
	m, err := n.object()
	if err != nil {
		return jnode{}, false, err
	}
	v, ok := m[name]
	if !ok || v == nil {
		return jnode{}, false, nil
	}
	return jnode{v: v, path: dynamojson.PathChild(n.path, name)}, true, nil
}

// need returns member name or an error saying it is missing.
func (n jnode) need(name string) (jnode, error) {
	c, ok, err := n.field(name)
	if err != nil {
		return jnode{}, err
	}
	if !ok {
		return jnode{}, n.errf("missing %s", name)
	}
	return c, nil
}

func (n jnode) str() (string, error) {
	s, ok := n.v.(string)
	if !ok {
		return "", n.errf("expected a string, found %s", dynamojson.Kind(n.v))
	}
	return s, nil
}

// needStr returns a required, non-empty string member.
func (n jnode) needStr(name string) (string, error) {
	c, err := n.need(name)
	if err != nil {
		return "", err
	}
	s, err := c.str()
	if err == nil && s == "" {
		err = c.errf("must not be empty")
	}
	return s, err
}

// optStr returns an optional string member ("" when absent).
func (n jnode) optStr(name string) (string, error) {
	c, ok, err := n.field(name)
	if err != nil || !ok {
		return "", err
	}
	return c.str()
}

func (n jnode) array() ([]jnode, error) {
	a, ok := n.v.([]any)
	if !ok {
		return nil, n.errf("expected an array, found %s", dynamojson.Kind(n.v))
	}
	out := make([]jnode, len(a))
	for i, v := range a {
		out[i] = jnode{v: v, path: dynamojson.PathIndex(n.path, i)}
	}
	return out, nil
}

// optArray returns an optional array member (nil when absent).
func (n jnode) optArray(name string) ([]jnode, error) {
	c, ok, err := n.field(name)
	if err != nil || !ok {
		return nil, err
	}
	return c.array()
}

// int64 reads a whole, non-negative number.
func (n jnode) int64() (int64, error) {
	num, ok := n.v.(json.Number)
	if !ok {
		return 0, n.errf("expected a number, found %s", dynamojson.Kind(n.v))
	}
	i, err := strconv.ParseInt(string(num), 10, 64)
	if err != nil || i < 0 {
		return 0, n.errf("expected a whole number of at least 0, found %s", num)
	}
	return i, nil
}

// float reads a number.
func (n jnode) float() (float64, error) {
	num, ok := n.v.(json.Number)
	if !ok {
		return 0, n.errf("expected a number, found %s", dynamojson.Kind(n.v))
	}
	f, err := num.Float64()
	if err != nil {
		return 0, n.errf("not a usable number: %s", num)
	}
	return f, nil
}
