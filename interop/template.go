package interop

// Key templates as FORMAT.md writes them: literal text with {attr} references, e.g.
// "CUST#{customerId}" or "{State}#{Date}". Expanding and matching them is the model
// package's (model.ExpandKey, model.TemplateVars); the code generators also need the
// literal and variable parts in order, which model keeps unexported, so parseTemplate
// splits them here for that one use. The Workbench importer infers templates.

import (
	"sort"
	"strings"

	"stwb/model"
)

// tmplPart is one piece of a key template: literal text, or a reference to an
// attribute whose value is spliced in.
type tmplPart struct {
	Lit string
	Var string // attribute name; "" for a literal
}

// parseTemplate splits a template into parts. A "{" without a closing "}" (or with
// an empty name) is literal text, so any string is a valid constant template.
func parseTemplate(t string) []tmplPart {
	var parts []tmplPart
	for t != "" {
		open := strings.IndexByte(t, '{')
		if open < 0 {
			parts = appendLit(parts, t)
			break
		}
		closing := strings.IndexByte(t[open+1:], '}')
		if closing <= 0 {
			parts = appendLit(parts, t)
			break
		}
		parts = appendLit(parts, t[:open])
		parts = append(parts, tmplPart{Var: t[open+1 : open+1+closing]})
		t = t[open+1+closing+1:]
	}
	return parts
}

func appendLit(parts []tmplPart, s string) []tmplPart {
	if s == "" {
		return parts
	}
	if n := len(parts); n > 0 && parts[n-1].Var == "" {
		parts[n-1].Lit += s
		return parts
	}
	return append(parts, tmplPart{Lit: s})
}

// templateSeparator is where inferred templates split key values. "#" is the
// separator the seeds and AWS's own samples use ("c#12345", "State#Date").
const templateSeparator = "#"

// inferTemplate finds a template for key attribute key that the sample items all
// support, or "" when there is none. The rule is deliberately conservative, since
// a wrong template would make the design reject its own items:
//
//   - every item must hold key as a string;
//   - each value is split on "#", and every item must have the same number of parts;
//   - a part becomes {A} when A is a string attribute (candidates: not a key
//     attribute of the table or an index) that equals that part in every item;
//     otherwise it must be the same literal text in every item;
//   - a literal part holds no digit: digits mark an id that a small sample happens
//     to share ("o#12345" on both order lines of one order), not a constant;
//   - a template with no {A} at all (a constant such as "PROFILE") is inferred only
//     from two or more items, since one item cannot show that a value is constant;
//   - rendering the template for every item must give back its value exactly.
//
// A prefix alone ("c#" followed by an id that no attribute holds) is not enough:
// the template would need an attribute the items do not have.
func inferTemplate(key string, items []model.Item, candidates []string) string {
	if len(items) == 0 {
		return ""
	}
	var split [][]string
	for _, it := range items {
		v, ok := it[key]
		if !ok || v.Type != model.TypeS || v.Str == "" {
			return ""
		}
		parts := strings.Split(v.Str, templateSeparator)
		if len(split) > 0 && len(parts) != len(split[0]) {
			return ""
		}
		split = append(split, parts)
	}
	var b strings.Builder
	hasVar := false
	for i := range split[0] {
		if i > 0 {
			b.WriteString(templateSeparator)
		}
		if a := commonAttribute(i, split, items, candidates); a != "" {
			b.WriteString("{" + a + "}")
			hasVar = true
			continue
		}
		lit := split[0][i]
		for _, parts := range split[1:] {
			if parts[i] != lit {
				return ""
			}
		}
		if strings.ContainsAny(lit, "{}0123456789") {
			return "" // braces would read back as a reference; digits, see above
		}
		b.WriteString(lit)
	}
	t := b.String()
	if !hasVar && len(items) < 2 {
		return ""
	}
	for _, it := range items {
		if got, ok := model.ExpandTemplate(t, it); !ok || got.Str != it[key].Str {
			return ""
		}
	}
	return t
}

// aliasTemplate is the template a facet's key alias supports: when the facet names
// its key attribute differently (PartitionKeyAlias "CustomerId" for PK) and every
// item's value is one literal prefix, a "#", and the rest ("c#12345", "c#23456"),
// the key is "c#{CustomerId}". The prefix holds no digit, for the reason given at
// inferTemplate. Items need not hold CustomerId: the design matches a given key
// against its template (model.MatchTemplate).
func aliasTemplate(key, alias string, items []model.Item) string {
	if alias == "" || alias == key || strings.ContainsAny(alias, "{}#") || len(items) == 0 {
		return ""
	}
	prefix := ""
	for i, it := range items {
		v, ok := it[key]
		if !ok || v.Type != model.TypeS {
			return ""
		}
		head, rest, found := strings.Cut(v.Str, templateSeparator)
		if !found || head == "" || rest == "" || strings.ContainsAny(head, "{}0123456789") {
			return ""
		}
		if i == 0 {
			prefix = head
		} else if head != prefix {
			return ""
		}
	}
	return prefix + templateSeparator + "{" + alias + "}"
}

// commonAttribute returns the first candidate (in sorted order, for a stable
// result) that equals part i of every item's split key value.
func commonAttribute(i int, split [][]string, items []model.Item, candidates []string) string {
	for _, a := range candidates {
		all := true
		for k, it := range items {
			v, ok := it[a]
			if !ok || v.Type != model.TypeS || v.Str != split[k][i] || v.Str == "" {
				all = false
				break
			}
		}
		if all {
			return a
		}
	}
	return ""
}

// keyAttributes lists the table's and every index's key attribute names, table
// partition key first, without duplicates.
func keyAttributes(t *model.Table) []string {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	add(t.Key.Partition)
	add(t.Key.Sort)
	for _, ix := range t.Indexes {
		if !ix.Local {
			add(ix.Key.Partition)
		}
		add(ix.Key.Sort)
	}
	return names
}

// sortedStrings returns the map's keys sorted.
func sortedStrings[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
