package ui

import (
	"bytes"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"stwb/designfile"
	"stwb/model"
)

// Form fields that hold an item, a key or ExpressionAttributeValues take a YAML flow
// mapping, exactly as the design file writes them ({PK: "CUST#42", total: 12.5}), so
// there is nothing new to learn. The value rules are model's (ValueFromNode).

// parseMapping reads a flow mapping into attribute values; "" is an empty mapping.
func parseMapping(src string) (map[string]model.Value, error) {
	if strings.TrimSpace(src) == "" {
		return nil, nil
	}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		return nil, fmt.Errorf("not a YAML mapping: %s; write it as {name: value, other: value}", yamlReason(err))
	}
	v, err := designfile.ValueFromNode(&n)
	if err != nil {
		return nil, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), ":"))
	}
	if v.Type != model.TypeM {
		return nil, fmt.Errorf("a %s value, not a mapping: write it as {name: value, other: value}", v.Type)
	}
	return v.Map, nil
}

// parseNames reads ExpressionAttributeNames: a flow mapping of strings such as
// {"#s": status}.
func parseNames(src string) (map[string]string, error) {
	m, err := parseMapping(src)
	if err != nil {
		return nil, err
	}
	var out map[string]string
	for k, v := range m {
		if v.Type != model.TypeS {
			return nil, fmt.Errorf("name %s maps to a %s value; each must be an attribute name (a string)", k, v.Type)
		}
		if !strings.HasPrefix(k, "#") {
			return nil, fmt.Errorf("name %q must start with # (ExpressionAttributeNames placeholders do)", k)
		}
		if out == nil {
			out = map[string]string{}
		}
		out[k] = v.Str
	}
	return out, nil
}

// formatMapping writes values as a one-line flow mapping, keys sorted, in the design
// file's canonical value form (ValueToNode).
func formatMapping(m map[string]model.Value) string {
	if len(m) == 0 {
		return ""
	}
	return formatNode(designfile.ValueToNode(model.Map(m)))
}

func formatNames(m map[string]string) string {
	if len(m) == 0 {
		return ""
	}
	vm := make(map[string]model.Value, len(m))
	for k, v := range m {
		vm[k] = model.Str(v)
	}
	return formatMapping(vm)
}

func formatNode(n *yaml.Node) string {
	n.Style |= yaml.FlowStyle
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return ""
	}
	return strings.TrimSpace(strings.ReplaceAll(b.String(), "\n", " "))
}

// yamlReason drops yaml.v3's "yaml: " prefix and the line number (the field is one line).
func yamlReason(err error) string {
	s := strings.TrimPrefix(err.Error(), "yaml: ")
	if i := strings.Index(s, ": "); i >= 0 && strings.HasPrefix(s, "line ") {
		s = s[i+2:]
	}
	return s
}
