package model

import (
	"encoding/base64"
	"errors"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// YAML values to DynamoDB values and back (FORMAT.md "Values"). The item fast path in
// fastitems.go reads the same scalars without yaml.v3 and calls the same functions
// below (scalarValue, setValue), so both paths give one meaning to one text.

// maxValueDepth is DynamoDB's nesting limit for documents (ServiceQuotas.html,
// "Nested attribute depth": 32 levels).
const maxValueDepth = 32

// The tags a set is written with.
const (
	tagSS = "!ss"
	tagNS = "!ns"
	tagBS = "!bs"
)

// valueProblem is what is wrong with a value: message and what to do.
type valueProblem struct{ msg, hint string }

const hintQuote = "quote it to make it a string"

// scalarValue turns a scalar of the given short tag ("!!str", "!!int", ...) and text
// into a value.
func scalarValue(tag, text string) (Value, *valueProblem) {
	switch tag {
	case "!!str", "!!timestamp":
		// A plain 2026-08-03 resolves to a timestamp in YAML; DynamoDB has no date
		// type, so the text is the value.
		return Str(text), nil
	case "!!int", "!!float":
		if p := numberProblem(text); p != nil {
			return Value{}, p
		}
		return Num(text), nil
	case "!!bool":
		switch text {
		case "true", "True", "TRUE":
			return Bool(true), nil
		case "false", "False", "FALSE":
			return Bool(false), nil
		}
		return Value{}, &valueProblem{"!!bool " + strconv.Quote(text) + " is not true or false", "write true or false"}
	case "!!null":
		return Null(), nil
	case "!!binary":
		b, p := decodeBase64(text)
		if p != nil {
			return Value{}, p
		}
		return Bin(b), nil
	case "!!merge":
		return Value{}, &valueProblem{"merge keys (<<) are not supported in a design file", "write the attributes out"}
	case tagSS, tagNS, tagBS:
		return Value{}, &valueProblem{tag + " needs a sequence", "write " + tag + " [a, b]"}
	}
	return Value{}, &valueProblem{"unknown tag " + tag, "use !ss, !ns, !bs or !!binary, or quote the value"}
}

// numberProblem checks a number's text against DynamoDB's number rules.
func numberProblem(text string) *valueProblem {
	_, err := ParseNumber(text)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNumberSyntax):
		low := strings.ToLower(strings.TrimLeft(text, "+-"))
		if low == ".inf" || low == ".nan" {
			return &valueProblem{text + " is not a DynamoDB number (DynamoDB has no infinity or NaN)", "write a finite number, or " + hintQuote}
		}
		return &valueProblem{strconv.Quote(text) + " is not a DynamoDB number", "write it in decimal (12, -0.5, 1e3), or " + hintQuote}
	}
	return &valueProblem{"number " + text + ": " + err.Error(), "DynamoDB numbers have at most 38 significant digits and a magnitude from 1E-130 to 9.99E+125"}
}

// decodeBase64 reads standard base64, allowing the line breaks and spaces a YAML
// block scalar puts into long !!binary values.
func decodeBase64(text string) ([]byte, *valueProblem) {
	clean := strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, text)
	b, err := base64.StdEncoding.DecodeString(clean)
	if err != nil {
		return nil, &valueProblem{"invalid base64 in binary value", "write the bytes in standard base64 (A-Z a-z 0-9 + /, = padding)"}
	}
	return b, nil
}

// setElement turns one element's text into a set element of type elem (S, N or B).
func setElement(elem Type, text string) (Value, *valueProblem) {
	switch elem {
	case TypeN:
		if p := numberProblem(text); p != nil {
			return Value{}, p
		}
		return Num(text), nil
	case TypeB:
		b, p := decodeBase64(text)
		if p != nil {
			return Value{}, p
		}
		return Bin(b), nil
	}
	return Str(text), nil
}

// setValue checks a finished set: DynamoDB rejects empty sets and duplicates
// (HowItWorks.NamingRulesDataTypes.html, "Sets"). Numbers are duplicates when equal
// by value (1 and 1.0).
func setValue(t Type, elems []Value) (Value, *valueProblem) {
	if len(elems) == 0 {
		return Value{}, &valueProblem{"empty " + t.String() + " set", "DynamoDB has no empty sets; leave the attribute out"}
	}
	v := Value{Type: t, List: elems}
	seen := make(map[string]bool, len(elems))
	for _, e := range elems {
		k := e.Str
		if e.Type == TypeN {
			k = CanonicalNumber(k)
		}
		if seen[k] {
			return Value{}, &valueProblem{"duplicate element " + strconv.Quote(e.Str) + " in " + t.String() + " set", "a set holds each element once; remove the duplicate"}
		}
		seen[k] = true
	}
	return v, nil
}

func setTypeOfTag(tag string) Type {
	switch tag {
	case tagSS:
		return TypeSS
	case tagNS:
		return TypeNS
	case tagBS:
		return TypeBS
	}
	return 0
}

// ValueFromNode reads one YAML node as a DynamoDB value. Its error is an ErrorList
// whose entries carry the node's line and column (and an empty file name).
func ValueFromNode(n *yaml.Node) (Value, error) {
	d := newDecoder("")
	v, _ := d.value(n, 1)
	return v, d.errs.err()
}

// value reads n; ok is false when it added an error.
func (d *decoder) value(n *yaml.Node, depth int) (Value, bool) {
	if depth > maxValueDepth {
		d.errs.add(d.pos(n), "flatten the value", "value nested more than %d levels deep", maxValueDepth)
		return Value{}, false
	}
	if n.Anchor != "" {
		d.errs.add(d.pos(n), "write the value out instead", "anchors (&%s) are not supported in a design file", n.Anchor)
		return Value{}, false
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 1 {
			return d.value(n.Content[0], depth)
		}
	case yaml.AliasNode:
		d.errs.add(d.pos(n), "write the value out instead", "aliases (*%s) are not supported in a design file", n.Value)
		return Value{}, false
	case yaml.ScalarNode:
		tag := n.ShortTag()
		if tag == "!!str" && n.Style == 0 && yamlDecimal(n.Value) {
			// yaml.v3 resolves a plain number beyond float64's range (1e999, a 400-digit
			// integer) as a string; FORMAT.md makes every plain number an N, so that
			// such a number is reported as out of DynamoDB's range.
			tag = "!!float"
		}
		v, p := scalarValue(tag, n.Value)
		if p != nil {
			d.errs.add(d.pos(n), p.hint, "%s", p.msg)
			return Value{}, false
		}
		if v.Type == TypeS {
			v.Str = d.text(v.Str)
		}
		return v, true
	case yaml.SequenceNode:
		if st := setTypeOfTag(n.Tag); st != 0 {
			return d.set(n, st)
		}
		if tag := n.ShortTag(); tag != "!!seq" {
			d.errs.add(d.pos(n), "use !ss, !ns or !bs for sets", "unknown tag %s on a sequence", tag)
			return Value{}, false
		}
		l := make([]Value, 0, len(n.Content))
		ok := true
		for _, c := range n.Content {
			v, good := d.value(c, depth+1)
			ok = ok && good
			l = append(l, v)
		}
		return List(l...), ok
	case yaml.MappingNode:
		if tag := n.ShortTag(); tag != "!!map" {
			d.errs.add(d.pos(n), "remove the tag", "unknown tag %s on a mapping", tag)
			return Value{}, false
		}
		m := make(map[string]Value, len(n.Content)/2)
		allOK := true
		pairsOK := d.eachPair(n, func(k string, kn, vn *yaml.Node) {
			if v, good := d.value(vn, depth+1); good {
				m[k] = v
			} else {
				allOK = false
			}
		})
		return Map(m), allOK && pairsOK
	}
	d.errs.add(d.pos(n), "write a scalar, sequence or mapping", "unexpected YAML node")
	return Value{}, false
}

// set reads a !ss, !ns or !bs sequence.
func (d *decoder) set(n *yaml.Node, st Type) (Value, bool) {
	elemType := SetElemType(st)
	elems := make([]Value, 0, len(n.Content))
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode {
			d.errs.add(d.pos(c), "write plain elements: !ss [a, b]", "a %s set holds scalars only", st)
			return Value{}, false
		}
		tag := c.ShortTag()
		if tag == "!!null" || tag == "!!bool" {
			d.errs.add(d.pos(c), hintQuote, "%s is not a valid %s set element", c.Value, st)
			return Value{}, false
		}
		e, p := setElement(elemType, c.Value)
		if p != nil {
			d.errs.add(d.pos(c), p.hint, "%s", p.msg)
			return Value{}, false
		}
		if e.Type == TypeS {
			e.Str = d.text(e.Str)
		}
		elems = append(elems, e)
	}
	v, p := setValue(st, elems)
	if p != nil {
		d.errs.add(d.pos(n), p.hint, "%s", p.msg)
		return Value{}, false
	}
	return v, true
}

// eachPair calls f for each key of a mapping whose key is a scalar, reporting
// duplicate and non-scalar keys (yaml.v3's node API does not). ok is false when it
// reported something.
func (d *decoder) eachPair(n *yaml.Node, f func(key string, kn, vn *yaml.Node)) bool {
	ok := true
	var seen map[string]bool
	if len(n.Content) > 2 {
		seen = make(map[string]bool, len(n.Content)/2)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		if kn.Kind != yaml.ScalarNode {
			d.errs.add(d.pos(kn), "write a plain name", "a mapping key must be a string")
			ok = false
			continue
		}
		if kn.ShortTag() == "!!merge" {
			d.errs.add(d.pos(kn), "write the entries out", "merge keys (<<) are not supported in a design file")
			ok = false
			continue
		}
		k := d.text(kn.Value)
		if seen != nil {
			if seen[k] {
				d.errs.add(d.pos(kn), "remove one of them", "duplicate key %q", k)
				ok = false
				continue
			}
			seen[k] = true
		}
		f(k, kn, vn)
	}
	return ok
}

// ValueToNode writes a value as a YAML node in the design file's canonical form:
// strings plain where that reads back as the same string and quoted otherwise,
// numbers with their exact text, mappings and sequences in flow style, mapping keys
// sorted.
func ValueToNode(v Value) *yaml.Node {
	switch v.Type {
	case TypeS:
		return stringNode(v.Str)
	case TypeN:
		return numberNode(v.Str)
	case TypeB:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!binary", Value: base64.StdEncoding.EncodeToString([]byte(v.Str))}
	case TypeBOOL:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v.Bool)}
	case TypeNULL:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case TypeL:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		for _, e := range v.List {
			n.Content = append(n.Content, ValueToNode(e))
		}
		return n
	case TypeM:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle}
		keys := make([]string, 0, len(v.Map))
		for k := range v.Map {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			n.Content = append(n.Content, stringNode(k), ValueToNode(v.Map[k]))
		}
		return n
	case TypeSS, TypeNS, TypeBS:
		tag := map[Type]string{TypeSS: tagSS, TypeNS: tagNS, TypeBS: tagBS}[v.Type]
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: tag, Style: yaml.FlowStyle | yaml.TaggedStyle}
		for _, e := range v.List {
			switch v.Type {
			case TypeBS:
				n.Content = append(n.Content, stringNode(base64.StdEncoding.EncodeToString([]byte(e.Str))))
			case TypeNS:
				n.Content = append(n.Content, numberNode(e.Str))
			default:
				n.Content = append(n.Content, stringNode(e.Str))
			}
		}
		return n
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
}

// numberNode writes a number's text plain, tagged as YAML resolves that text, so the
// encoder writes no tag; text that YAML would not read as a number keeps its tag.
func numberNode(text string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Value: text}
	switch tag := n.ShortTag(); tag {
	case "!!int", "!!float":
		n.Tag = tag
	default:
		n.Tag, n.Style = "!!float", yaml.TaggedStyle
	}
	return n
}

// stringNode writes a string plain when it reads back as this same string, both for
// yaml.v3 and for the item fast path, and double-quoted otherwise.
func stringNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if !plainSafe(s) {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// plainSafe reports whether s may be written as a plain scalar inside a flow
// collection and read back as the same string. It is stricter than YAML: strings that
// start like numbers, dates or YAML 1.1 booleans are quoted too, so older readers
// agree and the fast path (fastitems.go) reads them without falling back.
func plainSafe(s string) bool {
	if s == "" || !utf8.ValidString(s) {
		return false
	}
	switch strings.ToLower(s) {
	case "true", "false", "null", "~", "yes", "no", "on", "off", "<<":
		return false
	}
	c := s[0]
	if strings.IndexByte("-?:,[]{}#&*!|>'\"%@`+.0123456789 ", c) >= 0 {
		return false
	}
	last := s[len(s)-1]
	if last == ' ' || last == ':' {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case b < 0x20 || b == 0x7f:
			return false
		case b == ',' || b == '[' || b == ']' || b == '{' || b == '}' || b == '"' || b == '\\' || b == '?':
			// '?' too: yaml.v3 cannot read "a?b" inside a flow mapping.
			return false
		case b == ':' && i+1 < len(s) && s[i+1] == ' ':
			return false
		case b == '#' && i > 0 && s[i-1] == ' ':
			return false
		case b == ' ' && i+1 < len(s) && s[i+1] == ' ':
			// Runs of spaces survive YAML, but keeping them quoted makes them visible.
			return false
		}
	}
	for _, r := range s {
		if r == utf8.RuneError || r >= 0x80 && r <= 0x9f || r == '\u2028' || r == '\u2029' || r == '\ufeff' || r == 0xfffe || r == 0xffff {
			return false
		}
	}
	return true
}
