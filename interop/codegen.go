package interop

// The one module that owns key construction, as the seeds insist ("one place builds
// every key"): generated Go and TypeScript with, per entity, a function that builds
// its key attributes from its template variables and one that parses the table key
// back into them; the item type as a union discriminated by the type attribute; and
// per access pattern a function returning the SDK's request input. What both
// languages need is worked out once here (genModel); codegen_go.go and
// codegen_ts.go only spell it.

import (
	"fmt"
	"strings"
	"unicode"

	"stwb/model"
)

type genModel struct {
	d        *model.Design
	keys     []genKeyAttr // every key attribute of the table and indexes
	entities []genEntity
	patterns []genPattern
}

type genKeyAttr struct {
	Name  string // attribute name
	Ident string // CamelCase identifier part
	Type  model.Type
}

type genEntity struct {
	Name   string
	Ident  string // CamelCase
	Params []genParam
	Keys   []genKey // in genModel.keys order, only those with a template
	Attrs  []genField
	// Parse lists, for the table's key attributes with templates, how to read the
	// variables back.
	Parse []genKey
}

type genParam struct {
	Attr  string // the template variable (an attribute name)
	Ident string // lowerCamel parameter name
}

type genKey struct {
	Attr     string
	Ident    string
	Type     model.Type
	Template string
	Parts    []model.TemplatePart
	// Parsable is false when two variables meet with no literal between them, so a
	// value cannot be split back.
	Parsable bool
}

type genField struct {
	Attr  string
	Ident string // CamelCase field name
	Type  model.Type
}

type genPattern struct {
	P      *model.Pattern
	Ident  string // "Pattern2ListACustomersOrders"
	Params []genValueParam
}

// genValueParam is a request value the caller supplies: a key attribute of
// GetItem/UpdateItem/DeleteItem, or an expression attribute value, when it is a
// string, number or boolean. Other values stay as the design gives them.
type genValueParam struct {
	Ident  string
	Type   model.Type
	Key    string // key attribute, for Key members
	Placer string // ":v" placeholder, for ExpressionAttributeValues
}

var goKeywords = map[string]bool{"break": true, "case": true, "chan": true, "const": true, "continue": true, "default": true,
	"defer": true, "else": true, "fallthrough": true, "for": true, "func": true, "go": true, "goto": true, "if": true,
	"import": true, "interface": true, "map": true, "package": true, "range": true, "return": true, "select": true,
	"struct": true, "switch": true, "type": true, "var": true}

// tsReserved are words TypeScript will not take as a parameter name.
var tsReserved = map[string]bool{"break": true, "case": true, "catch": true, "class": true, "const": true, "continue": true,
	"debugger": true, "default": true, "delete": true, "do": true, "else": true, "enum": true, "export": true, "extends": true,
	"false": true, "finally": true, "for": true, "function": true, "if": true, "import": true, "in": true, "instanceof": true,
	"new": true, "null": true, "return": true, "super": true, "switch": true, "this": true, "throw": true, "true": true,
	"try": true, "typeof": true, "var": true, "void": true, "while": true, "with": true, "let": true, "static": true,
	"yield": true, "await": true, "implements": true, "interface": true, "package": true, "private": true,
	"protected": true, "public": true, "arguments": true, "eval": true}

// camel turns any attribute name into a CamelCase identifier part (capitalWords),
// "X" in front where it would be empty or start with a digit.
func camel(s string) string {
	out := capitalWords(s)
	if out == "" {
		return "X"
	}
	if unicode.IsDigit(rune(out[0])) {
		out = "X" + out
	}
	return out
}

// capitalWords keeps the ASCII letters and digits of s, each word capitalised: words
// split at anything else ("GSI1-PK" -> "GSI1PK", "customerId" -> "CustomerId",
// "State#Date" -> "StateDate"). Identifiers in generated code and infrastructure
// logical IDs are both made from it.
func capitalWords(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if up {
				r = unicode.ToUpper(r)
			}
			b.WriteRune(r)
			up = false
			continue
		}
		up = true
	}
	return b.String()
}

// lowerCamel is camel with the first letter (or leading capitals of an acronym)
// lowered, and a trailing underscore where it would be a reserved word.
func lowerCamel(s string) string {
	c := []rune(camel(s))
	n := 0
	for n < len(c) && unicode.IsUpper(c[n]) {
		n++
	}
	// Lower the leading capitals ("PK" -> "pk", "GSI1PK" -> "gsi1PK"), but keep the
	// last one of an acronym that starts the next word ("URLValue" -> "urlValue").
	if n > 1 && n < len(c) && unicode.IsLower(c[n]) {
		n--
	}
	for i := 0; i < n; i++ {
		c[i] = unicode.ToLower(c[i])
	}
	id := string(c)
	if goKeywords[id] || tsReserved[id] {
		id += "_"
	}
	return id
}

// uniqueIdents makes identifiers unique by numbering repeats, in order.
func uniqueIdents(ids []string) []string {
	seen := map[string]int{}
	out := make([]string, len(ids))
	for i, id := range ids {
		seen[id]++
		if seen[id] > 1 {
			id = fmt.Sprintf("%s%d", id, seen[id])
		}
		out[i] = id
	}
	return out
}

func newGenModel(d *model.Design) (*genModel, error) {
	g := &genModel{d: d}
	t := &d.Table
	var keyIdents []string
	for _, k := range model.KeyAttributeNames(t) {
		keyIdents = append(keyIdents, camel(k))
	}
	keyIdents = uniqueIdents(keyIdents)
	for i, k := range model.KeyAttributeNames(t) {
		g.keys = append(g.keys, genKeyAttr{Name: k, Ident: keyIdents[i], Type: t.KeyAttributeType(k)})
	}
	var entIdents []string
	for _, e := range d.Entities {
		entIdents = append(entIdents, camel(e.Name))
	}
	// An entity may not take a name the module itself declares ("item" would make
	// type Item twice).
	for i, id := range entIdents {
		if reservedGenIdents[id] {
			entIdents[i] = id + "Entity"
		}
	}
	entIdents = uniqueIdents(entIdents)
	for i, e := range d.Entities {
		ge := genEntity{Name: e.Name, Ident: entIdents[i]}
		// Parameters: every template variable, in order of first use over the keys.
		var vars []string
		seen := map[string]bool{}
		for _, k := range g.keys {
			tmpl, ok := e.Keys[k.Name]
			if !ok {
				continue
			}
			for _, v := range model.TemplateVars(tmpl) {
				if !seen[v] {
					seen[v] = true
					vars = append(vars, v)
				}
			}
			parts, ok := model.TemplateParts(tmpl)
			if !ok {
				// model.Validate refuses such a design; a design built in code can
				// still hold one, and the module would not compile.
				return nil, fmt.Errorf("entity %s: keys.%s: template %q has unbalanced braces or an empty {}; write {attribute} for a variable part (stwb check lists every problem)", e.Name, k.Name, tmpl)
			}
			gk := genKey{Attr: k.Name, Ident: k.Ident, Type: k.Type, Template: tmpl, Parts: parts, Parsable: true}
			for j := 1; j < len(parts); j++ {
				if parts[j].Var != "" && parts[j-1].Var != "" {
					gk.Parsable = false
				}
			}
			ge.Keys = append(ge.Keys, gk)
			if k.Name == t.Key.Partition || k.Name == t.Key.Sort {
				ge.Parse = append(ge.Parse, gk)
			}
		}
		var pids []string
		for _, v := range vars {
			pids = append(pids, lowerCamel(v))
		}
		pids = uniqueIdents(pids)
		for j, v := range vars {
			ge.Params = append(ge.Params, genParam{Attr: v, Ident: pids[j]})
		}
		// Fields of the item type: the type attribute, the key attributes, then the
		// declared attributes.
		var fields []genField
		fseen := map[string]bool{}
		addField := func(a string, ty model.Type) {
			if !fseen[a] {
				fseen[a] = true
				fields = append(fields, genField{Attr: a, Type: ty})
			}
		}
		for _, k := range g.keys {
			if _, ok := e.Keys[k.Name]; ok || k.Name == t.Key.Partition || k.Name == t.Key.Sort {
				addField(k.Name, k.Type)
			}
		}
		for _, a := range e.Attributes {
			if a.Name != d.TypeAttr() {
				addField(a.Name, a.Type)
			}
		}
		var fids []string
		for _, f := range fields {
			fids = append(fids, camel(f.Attr))
		}
		fids = uniqueIdents(append([]string{"Type"}, fids...))[1:]
		for j := range fields {
			fields[j].Ident = fids[j]
		}
		ge.Attrs = fields
		g.entities = append(g.entities, ge)
	}
	var patIdents []string
	for i := range d.Patterns {
		p := &d.Patterns[i]
		// "customer's" reads as one word, not "CustomerS".
		name := camel(strings.NewReplacer("'", "", "\u2019", "").Replace(p.Name))
		if len(name) > 40 {
			name = name[:40]
		}
		if p.Name == "" {
			name = ""
		}
		patIdents = append(patIdents, fmt.Sprintf("Pattern%d%s", p.ID, name))
	}
	patIdents = uniqueIdents(patIdents)
	for i := range d.Patterns {
		p := &d.Patterns[i]
		gp := genPattern{P: p, Ident: patIdents[i]}
		var ids []string
		var params []genValueParam
		switch p.Operation {
		case model.OpGetItem, model.OpUpdateItem, model.OpDeleteItem:
			for _, k := range []string{t.Key.Partition, t.Key.Sort} {
				if v, ok := p.Key[k]; ok && k != "" && isParamType(v.Type) {
					params = append(params, genValueParam{Type: v.Type, Key: k})
					ids = append(ids, lowerCamel(k))
				}
			}
		}
		for _, ph := range sortedStrings(p.Values) {
			if v := p.Values[ph]; isParamType(v.Type) {
				params = append(params, genValueParam{Type: v.Type, Placer: ph})
				ids = append(ids, lowerCamel(strings.TrimPrefix(ph, ":")))
			}
		}
		ids = uniqueIdents(ids)
		for j := range params {
			params[j].Ident = ids[j]
		}
		gp.Params = params
		g.patterns = append(g.patterns, gp)
	}
	return g, nil
}

// reservedGenIdents are the names the generated modules declare themselves.
var reservedGenIdents = map[string]bool{"Item": true, "EntityType": true, "TableName": true, "TypeAttribute": true,
	"DecodeItem": true, "Attr": true}

func isParamType(t model.Type) bool {
	return t == model.TypeS || t == model.TypeN || t == model.TypeBOOL
}

// literalConsts lists the named constants for the literal parts of the templates:
// a constant template ("PROFILE") or the text before the first variable ("CUST#").
// Names are <Entity><Key>Prefix or <Entity><Key> for a whole constant.
func (g *genModel) literalConsts() [][2]string {
	var out [][2]string
	for _, e := range g.entities {
		for _, k := range e.Keys {
			if len(k.Parts) == 1 && k.Parts[0].Var == "" {
				out = append(out, [2]string{e.Ident + k.Ident, k.Parts[0].Literal})
			} else if len(k.Parts) > 0 && k.Parts[0].Var == "" {
				out = append(out, [2]string{e.Ident + k.Ident + "Prefix", k.Parts[0].Literal})
			}
		}
	}
	return out
}

// paramFor returns the parameter that supplies a key attribute or placeholder.
func (p *genPattern) paramFor(key, placer string) (genValueParam, bool) {
	for _, gp := range p.Params {
		if (key != "" && gp.Key == key) || (placer != "" && gp.Placer == placer) {
			return gp, true
		}
	}
	return genValueParam{}, false
}

// article is "a" or "an" for a name, for generated comments.
func article(name string) string {
	if name != "" && strings.ContainsRune("aeiouAEIOU", rune(name[0])) {
		return "an"
	}
	return "a"
}

// packageName derives a Go package name from the design's name.
// checkPackageName refuses a --package that is not a Go package name: an
// identifier (a letter or _, then letters, digits or _) that is not a keyword (The
// Go Programming Language Specification, "Identifiers", "Package clause").
func checkPackageName(pkg string) error {
	ok := pkg != "" && pkg != "_" && !goKeywords[pkg]
	for i, r := range pkg {
		if !(unicode.IsLetter(r) || r == '_' || i > 0 && unicode.IsDigit(r)) {
			ok = false
		}
	}
	if !ok {
		return fmt.Errorf("--package %q is not a Go package name; use letters, digits and _, starting with a letter (such as orderkeys)", model.CutValue(pkg))
	}
	return nil
}

func packageName(d *model.Design) string {
	var b strings.Builder
	for _, r := range strings.ToLower(designName(d)) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9' && b.Len() > 0) {
			b.WriteRune(r)
		}
	}
	s := b.String()
	if s == "" || goKeywords[s] {
		s = "tablekeys"
	}
	return s
}

// joinElems spells each element of a list or set and joins them ", " apart: the
// value literals of both generated languages are built from it.
func joinElems(elems []model.Value, spell func(model.Value) string) string {
	s := make([]string, len(elems))
	for i, e := range elems {
		s[i] = spell(e)
	}
	return strings.Join(s, ", ")
}

// joinMembers is joinElems for a map's members, in name order so that the
// generated code is the same on every run.
func joinMembers(m map[string]model.Value, spell func(name string, v model.Value) string) string {
	names := sortedStrings(m)
	s := make([]string, len(names))
	for i, k := range names {
		s[i] = spell(k, m[k])
	}
	return strings.Join(s, ", ")
}
