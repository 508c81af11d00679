package designfile

import (
	"encoding/base64"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"stwb/model"
)

// YAML values to DynamoDB values and back (FORMAT.md "Values"). The item fast path in
// fastitems.go reads the same scalars without yaml.v3 and calls the same functions
// below (scalarValue, setValue), so both paths give one meaning to one text.

// The tags a set is written with.
const (
	tagSS = "!ss"
	tagNS = "!ns"
	tagBS = "!bs"
)

// scalarValue turns a scalar of the given short tag ("!!str", "!!int", ...) and text
// into a value.
func scalarValue(tag, text string) (model.Value, *model.ValueProblem) {
	switch tag {
	case "!!str", "!!timestamp":
		// A plain 2026-08-03 resolves to a timestamp in YAML; DynamoDB has no date
		// type, so the text is the value.
		return model.Str(text), nil
	case "!!int", "!!float":
		if p := model.NumberProblem(text); p != nil {
			return model.Value{}, p
		}
		return model.Num(text), nil
	case "!!bool":
		switch text {
		case "true", "True", "TRUE":
			return model.Bool(true), nil
		case "false", "False", "FALSE":
			return model.Bool(false), nil
		}
		return model.Value{}, &model.ValueProblem{Msg: "!!bool " + strconv.Quote(text) + " is not true or false", Hint: "write true or false"}
	case "!!null":
		return model.Null(), nil
	case "!!binary":
		b, p := decodeBase64(text)
		if p != nil {
			return model.Value{}, p
		}
		return model.Bin(b), nil
	case "!!merge":
		return model.Value{}, &model.ValueProblem{Msg: "merge keys (<<) are not supported in a design file", Hint: "write the attributes out"}
	case tagSS, tagNS, tagBS:
		return model.Value{}, &model.ValueProblem{Msg: tag + " needs a sequence", Hint: "write " + tag + " [a, b]"}
	}
	return model.Value{}, &model.ValueProblem{Msg: "unknown tag " + tag, Hint: "use !ss, !ns, !bs or !!binary, or quote the value"}
}

// decodeBase64 reads standard base64, allowing the line breaks and spaces a YAML
// block scalar puts into long !!binary values.
func decodeBase64(text string) ([]byte, *model.ValueProblem) {
	clean := strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, text)
	b, err := base64.StdEncoding.DecodeString(clean)
	if err != nil {
		return nil, &model.ValueProblem{Msg: "invalid base64 in binary value", Hint: "write the bytes in standard base64 (A-Z a-z 0-9 + /, = padding)"}
	}
	return b, nil
}

// setElement turns one element's text into a set element of type elem (S, N or B).
func setElement(elem model.Type, text string) (model.Value, *model.ValueProblem) {
	switch elem {
	case model.TypeN:
		if p := model.NumberProblem(text); p != nil {
			return model.Value{}, p
		}
		return model.Num(text), nil
	case model.TypeB:
		b, p := decodeBase64(text)
		if p != nil {
			return model.Value{}, p
		}
		return model.Bin(b), nil
	}
	return model.Str(text), nil
}

func setTypeOfTag(tag string) model.Type {
	switch tag {
	case tagSS:
		return model.TypeSS
	case tagNS:
		return model.TypeNS
	case tagBS:
		return model.TypeBS
	}
	return 0
}

// ValueFromNode reads one YAML node as a DynamoDB value. Its error is an ErrorList
// whose entries carry the node's line and column (and an empty file name).
func ValueFromNode(n *yaml.Node) (model.Value, error) {
	d := newDecoder("")
	v, _ := d.value(n, 1)
	return v, d.errs.Err()
}

// value reads n; ok is false when it added an error.
func (d *decoder) value(n *yaml.Node, depth int) (model.Value, bool) {
	if depth > model.MaxValueDepth {
		d.errs.Add(d.pos(n), "flatten the value", "value nested more than %d levels deep", model.MaxValueDepth)
		return model.Value{}, false
	}
	if n.Anchor != "" {
		d.errs.Add(d.pos(n), "write the value out instead", "anchors (&%s) are not supported in a design file", n.Anchor)
		return model.Value{}, false
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 1 {
			return d.value(n.Content[0], depth)
		}
	case yaml.AliasNode:
		d.errs.Add(d.pos(n), "write the value out instead", "aliases (*%s) are not supported in a design file", n.Value)
		return model.Value{}, false
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
			d.errs.Add(d.pos(n), p.Hint, "%s", p.Msg)
			return model.Value{}, false
		}
		if v.Type == model.TypeS {
			v.Str = d.text(v.Str)
		}
		return v, true
	case yaml.SequenceNode:
		if st := setTypeOfTag(n.Tag); st != 0 {
			return d.set(n, st)
		}
		if tag := n.ShortTag(); tag != "!!seq" {
			d.errs.Add(d.pos(n), "use !ss, !ns or !bs for sets", "unknown tag %s on a sequence", tag)
			return model.Value{}, false
		}
		l := make([]model.Value, 0, len(n.Content))
		ok := true
		for _, c := range n.Content {
			v, good := d.value(c, depth+1)
			ok = ok && good
			l = append(l, v)
		}
		return model.List(l...), ok
	case yaml.MappingNode:
		if tag := n.ShortTag(); tag != "!!map" {
			d.errs.Add(d.pos(n), "remove the tag", "unknown tag %s on a mapping", tag)
			return model.Value{}, false
		}
		m := make(map[string]model.Value, len(n.Content)/2)
		allOK := true
		pairsOK := d.eachPair(n, func(k string, kn, vn *yaml.Node) {
			if v, good := d.value(vn, depth+1); good {
				m[k] = v
			} else {
				allOK = false
			}
		})
		return model.Map(m), allOK && pairsOK
	}
	d.errs.Add(d.pos(n), "write a scalar, sequence or mapping", "unexpected YAML node")
	return model.Value{}, false
}

// set reads a !ss, !ns or !bs sequence.
func (d *decoder) set(n *yaml.Node, st model.Type) (model.Value, bool) {
	elemType := model.SetElemType(st)
	elems := make([]model.Value, 0, len(n.Content))
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode {
			d.errs.Add(d.pos(c), "write plain elements: !ss [a, b]", "a %s set holds scalars only", st)
			return model.Value{}, false
		}
		tag := c.ShortTag()
		if tag == "!!null" || tag == "!!bool" {
			d.errs.Add(d.pos(c), model.HintQuote, "%s is not a valid %s set element", c.Value, st)
			return model.Value{}, false
		}
		e, p := setElement(elemType, c.Value)
		if p != nil {
			d.errs.Add(d.pos(c), p.Hint, "%s", p.Msg)
			return model.Value{}, false
		}
		if e.Type == model.TypeS {
			e.Str = d.text(e.Str)
		}
		elems = append(elems, e)
	}
	v, p := model.SetValue(st, elems)
	if p != nil {
		d.errs.Add(d.pos(n), p.Hint, "%s", p.Msg)
		return model.Value{}, false
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
			d.errs.Add(d.pos(kn), "write a plain name", "a mapping key must be a string")
			ok = false
			continue
		}
		if kn.ShortTag() == "!!merge" {
			d.errs.Add(d.pos(kn), "write the entries out", "merge keys (<<) are not supported in a design file")
			ok = false
			continue
		}
		k := d.text(kn.Value)
		if seen != nil {
			if seen[k] {
				d.errs.Add(d.pos(kn), "remove one of them", "duplicate key %q", k)
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
func ValueToNode(v model.Value) *yaml.Node {
	switch v.Type {
	case model.TypeS:
		return stringNode(v.Str)
	case model.TypeN:
		return numberNode(v.Str)
	case model.TypeB:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!binary", Value: base64.StdEncoding.EncodeToString([]byte(v.Str))}
	case model.TypeBOOL:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v.Bool)}
	case model.TypeNULL:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case model.TypeL:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		for _, e := range v.List {
			n.Content = append(n.Content, ValueToNode(e))
		}
		return n
	case model.TypeM:
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
	case model.TypeSS, model.TypeNS, model.TypeBS:
		tag := map[model.Type]string{model.TypeSS: tagSS, model.TypeNS: tagNS, model.TypeBS: tagBS}[v.Type]
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: tag, Style: yaml.FlowStyle | yaml.TaggedStyle}
		for _, e := range v.List {
			switch v.Type {
			case model.TypeBS:
				n.Content = append(n.Content, stringNode(base64.StdEncoding.EncodeToString([]byte(e.Str))))
			case model.TypeNS:
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
