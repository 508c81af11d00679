package interop

// Key templates as FORMAT.md writes them: literal text with {attr} references, e.g.
// "CUST#{customerId}" or "{State}#{Date}". Splitting, expanding and matching them is
// the model package's (model.TemplateParts, model.ExpandKey, model.MatchTemplate);
// what is here is interop's own: the Workbench importer infers templates.

import (
	"maps"
	"slices"
	"strings"

	"stwb/model"
)

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

// sortedStrings returns the map's keys sorted.
func sortedStrings[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
