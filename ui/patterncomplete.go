package ui

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"stwb/expr"
	"stwb/model"
)

// What the pattern form offers as the user types (formcomplete.go does the
// offering): the operations and indexes by their first letters, a key condition
// from the chosen index's key attributes, a value from the values the items hold
// for the attribute it is compared with (and the constant beginnings of the
// entities' templates for it), attribute and entity names in expressions and in
// the items a write puts.

// operationFits are the operations text stands for: those it begins (any case) and
// those whose capitals it begins (tw: TransactWriteItems).
func operationFits(text string) []string {
	t := strings.TrimSpace(text)
	if t == "" {
		return nil
	}
	var out []string
	for _, o := range model.Operations {
		s := string(o)
		if s == t {
			return []string{s}
		}
		if hasPrefixFold(s, t) || strings.HasPrefix(capitals(s), strings.ToUpper(t)) {
			out = append(out, s)
		}
	}
	return out
}

func capitals(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsUpper(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// indexFits are the indexes text begins (empty text is the table).
func indexFits(d *model.Design, text string) []string {
	t := strings.TrimSpace(text)
	if t == "" {
		return nil
	}
	var out []string
	for _, ix := range d.Table.Indexes {
		if ix.Name == t {
			return []string{t}
		}
		if hasPrefixFold(ix.Name, t) {
			out = append(out, ix.Name)
		}
	}
	return out
}

// keyConditions are the key conditions a Query on the table or index can have,
// written over its key attributes: the partition key's equality alone, then with
// each comparison of the sort key DynamoDB allows (Query.KeyConditionExpressions).
// names gets the #placeholder of each attribute whose name an expression cannot
// hold as it is (a reserved word, a dot), so the form can fill its field.
func keyConditions(d *model.Design, index string, names map[string]string) []string {
	k := d.Table.Key
	if ix, ok := d.Table.IndexByName(index); ok {
		k = d.Table.IndexKey(&ix)
	}
	ref := func(attr, short string) string {
		if attr != "" && !expr.IsReserved(attr) && plainName(attr) {
			return attr
		}
		names["#"+short] = attr
		return "#" + short
	}
	var eq []string
	parts := k.Partitions()
	for i, a := range parts {
		short := "pk"
		if len(parts) > 1 {
			short = "pk" + string(rune('1'+i))
		}
		eq = append(eq, ref(a, short)+" = :"+short)
	}
	base := strings.Join(eq, " AND ")
	out := []string{base}
	sorts := k.Sorts()
	if len(sorts) == 0 {
		return out
	}
	s := ref(sorts[0], "sk")
	for _, c := range []string{"begins_with(" + s + ", :sk)", s + " = :sk", s + " BETWEEN :lo AND :hi", s + " < :sk", s + " <= :sk", s + " > :sk", s + " >= :sk"} {
		out = append(out, base+" AND "+c)
	}
	return out
}

var plainNameRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

func plainName(s string) bool { return plainNameRE.MatchString(s) }

// keyConditionFits are the key conditions that begin with text, or, past them, text
// with its last word completed from the key attributes and the key condition's
// words.
func keyConditionFits(d *model.Design, index, text string, names map[string]string) []string {
	all := keyConditions(d, index, names)
	var out []string
	for _, c := range all {
		if hasPrefixFold(c, text) {
			out = append(out, c)
		}
	}
	if len(out) > 0 {
		return out
	}
	k := d.Table.Key
	if ix, ok := d.Table.IndexByName(index); ok {
		k = d.Table.IndexKey(&ix)
	}
	return wordFits(text, append(k.Attributes(), "begins_with(", "BETWEEN", "AND"))
}

// wordFits completes the word text ends with from words: text with that word
// replaced by each word it begins. Nothing when text does not end in a word.
func wordFits(text string, words []string) []string {
	start := strings.LastIndexFunc(text, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
	}) + 1
	partial := text[start:]
	if partial == "" || start > 0 && (text[start-1] == ':' || text[start-1] == '#') {
		return nil // a placeholder is the user's own name
	}
	var out []string
	for _, w := range words {
		if hasPrefixFold(w, partial) && w != partial && !slices.Contains(out, text[:start]+w) {
			out = append(out, text[:start]+w)
		}
	}
	return out
}

// expressionWords are the words offered in a filter, condition, update or
// projection: the design's attribute names and DynamoDB's functions and keywords.
func expressionWords(d *model.Design) []string {
	words := attributeNames(d)
	return append(words, "attribute_exists(", "attribute_not_exists(", "attribute_type(", "begins_with(", "contains(", "size(",
		"AND", "OR", "NOT", "BETWEEN", "IN", "SET", "REMOVE", "ADD", "DELETE", "if_not_exists(", "list_append(")
}

// attributeNames are the key attributes and every entity's attributes, once each.
func attributeNames(d *model.Design) []string {
	out := model.KeyAttributeNames(&d.Table)
	for _, e := range d.Entities {
		for _, a := range e.Attributes {
			if !slices.Contains(out, a.Name) {
				out = append(out, a.Name)
			}
		}
	}
	return out
}

// maxValueScan bounds the items read for the values offered, so that a large
// design's form stays quick; the values come from the first ones.
const (
	maxValueScan   = 20000
	maxValuesFound = 2000
)

// attributeValues are the values offered for attribute attr: the constant
// beginnings of the entities' templates for it (STUDENT# of STUDENT#{studentId}),
// then the values the items hold, as the form's text of them.
func attributeValues(d *model.Design, attr string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && len(out) < maxValuesFound && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, e := range d.Entities {
		if tpl, ok := e.Keys[attr]; ok {
			before, _, _ := strings.Cut(tpl, "{")
			add(before)
		}
	}
	for i, it := range d.Items {
		if i == maxValueScan || len(out) == maxValuesFound {
			break
		}
		if v, ok := it[attr]; ok && (v.Type == model.TypeS || v.Type == model.TypeN) {
			add(v.Str)
		}
	}
	return out
}

func prefixFits(cands []string, text string) []string {
	var out []string
	for _, c := range cands {
		if strings.HasPrefix(c, text) {
			out = append(out, c)
		}
	}
	return out
}

// comparedAttribute is the attribute an expression compares placeholder ph with
// (PK in "PK = :pk", SK in "begins_with(SK, :sk)"), a #name resolved through names;
// "" when no expression compares it with one.
func comparedAttribute(exprs []string, ph string, names func(string) string) string {
	q := regexp.QuoteMeta(ph)
	path := `([#A-Za-z_][#\w.]*)`
	res := []*regexp.Regexp{
		regexp.MustCompile(path + `\s*(?:=|<>|<=|>=|<|>)\s*` + q + `\b`),
		regexp.MustCompile(q + `\s*(?:=|<>|<=|>=|<|>)\s*` + path),
		regexp.MustCompile(`(?i:begins_with|contains)\(\s*` + path + `\s*,\s*` + q + `\b`),
		regexp.MustCompile(path + `\s+(?i:between)\s+` + q + `\b`),
		regexp.MustCompile(path + `\s+(?i:between)\s+:\w+\s+(?i:and)\s+` + q + `\b`),
	}
	for _, e := range exprs {
		for _, re := range res {
			if m := re.FindStringSubmatch(e); m != nil {
				a := m[1]
				if strings.HasPrefix(a, "#") {
					a = names(a)
				}
				return a
			}
		}
	}
	return ""
}

// placeholderRE finds the :values and #names an expression uses.
var placeholderRE = regexp.MustCompile(`[:#][A-Za-z0-9_]+`)

// errorTypes are the errors a pattern can be expected to end in: those the engine
// answers with (engine/writes.go, engine/statement.go), as DynamoDB names them.
var errorTypes = []string{"ConditionalCheckFailedException", "TransactionCanceledException", "ValidationException",
	"DuplicateItemException", "ResourceNotFoundException"}

func foldFits(cands []string, text string) []string {
	t := strings.TrimSpace(text)
	if t == "" {
		return nil
	}
	var out []string
	for _, c := range cands {
		if hasPrefixFold(c, t) && c != t {
			out = append(out, c)
		}
	}
	return out
}

// flowPlace is where the end of a YAML flow text is: the keys of the mappings it
// is inside, outermost first ("-" for a list's element), whether a key or a value
// is being typed there (and the key whose value), what the innermost mapping holds
// so far, and the word being typed.
type flowPlace struct {
	path  []string
	atKey bool
	key   string
	given map[string]string // the innermost mapping's keys, with their scalar values
	word  string
}

type flowFrame struct {
	list  bool
	key   string // the key being given (mapping), "" at a key
	atKey bool
	given map[string]string
	tok   strings.Builder
}

// readFlow reads a YAML flow text as far as it goes, without needing it to be
// whole: enough to know what may be typed next.
func readFlow(text string) (flowPlace, bool) {
	var stack []*flowFrame
	var quote rune
	top := func() *flowFrame {
		if len(stack) == 0 {
			return nil
		}
		return stack[len(stack)-1]
	}
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		fr := top()
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
			if fr != nil {
				fr.tok.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote = r
			if fr != nil {
				fr.tok.WriteRune(r)
			}
		case r == '{' || r == '[':
			stack = append(stack, &flowFrame{list: r == '[', atKey: r == '{', given: map[string]string{}})
		case r == '}' || r == ']':
			if fr == nil {
				return flowPlace{}, false
			}
			stack = stack[:len(stack)-1]
			if p := top(); p != nil && !p.list && p.key != "" {
				p.given[p.key] = ""
			}
		case r == ':' && fr != nil && !fr.list && fr.atKey && (i+1 == len(rs) || rs[i+1] == ' '):
			fr.key, fr.atKey = strings.TrimSpace(fr.tok.String()), false
			fr.tok.Reset()
		case r == ',' && fr != nil:
			if !fr.list {
				if fr.key != "" {
					if _, done := fr.given[fr.key]; !done {
						fr.given[fr.key] = strings.Trim(strings.TrimSpace(fr.tok.String()), `"'`)
					}
				}
				fr.key, fr.atKey = "", true
			}
			fr.tok.Reset()
		default:
			if fr != nil && (fr.tok.Len() > 0 || r != ' ') {
				fr.tok.WriteRune(r)
			}
		}
	}
	fr := top()
	if fr == nil {
		return flowPlace{}, false
	}
	var path []string
	for _, f := range stack[:len(stack)-1] {
		if f.list {
			path = append(path, "-")
		} else {
			path = append(path, f.key)
		}
	}
	if fr.list {
		path = append(path, "-")
	}
	return flowPlace{path: path, atKey: !fr.list && fr.atKey, key: fr.key, given: fr.given, word: fr.tok.String()}, true
}

// flowFits completes a write's item, keys or actions (field) typed as YAML flow:
// the structure an action takes, the entity after type:, an entity's attributes
// not given yet, a key's attributes, and an attribute's values (valuesOf, from the
// items).
func flowFits(d *model.Design, field, text string, valuesOf func(attr string) []string) []string {
	starts := map[string][]string{
		"item":    {"{type: "},
		"keys":    {"[{" + d.Table.Key.Partition + ": "},
		"actions": {"[{put: {type: ", "[{update: {key: {", "[{delete: {key: {", "[{check: {key: {"},
	}
	if strings.TrimSpace(text) == "" {
		return starts[field]
	}
	at, ok := readFlow(text)
	if !ok {
		return nil
	}
	stem := text[:len(text)-len(at.word)]
	var words []string
	// where is the path inside the field's root: for actions, below the list.
	where := strings.Join(at.path, "/")
	pk := d.Table.Key.Partition
	keyNames := []string{d.Table.Key.Partition, d.Table.Key.Sort}
	itemPlace := field == "item" && where == "" || field == "actions" && where == "-/put"
	keyPlace := field == "keys" && where == "-" || field == "actions" && strings.HasSuffix(where, "/key")
	switch {
	case field == "actions" && where == "-" && !at.atKey && at.key == "":
		// a list's next element
		for _, s := range starts["actions"] {
			words = append(words, s[1:])
		}
	case field == "actions" && where == "-" && at.atKey:
		if len(at.given) == 0 {
			words = []string{"put: {type: ", "update: {key: {", "delete: {key: {", "check: {key: {"}
		} else {
			words = []string{`condition: "attribute_not_exists(` + pk + `)"}`, `condition: "attribute_exists(` + pk + `)"}`}
		}
	case field == "actions" && where == "-" && at.key == "condition":
		words = []string{`"attribute_not_exists(` + pk + `)"}`, `"attribute_exists(` + pk + `)"}`}
	case field == "actions" && slices.Contains([]string{"-/update", "-/delete", "-/check"}, where) && at.atKey:
		words = []string{`condition: "`, `update: "SET `, "names: {", "values: {"}
	case itemPlace && at.atKey:
		if _, typed := at.given[d.TypeAttr()]; !typed {
			words = append(words, d.TypeAttr()+": ")
		} else if e, ok := entityNamed(d, at.given[d.TypeAttr()]); ok {
			for _, a := range e.Attributes {
				if _, given := at.given[a.Name]; !given {
					words = append(words, a.Name+": ")
				}
			}
		}
	case itemPlace && at.key == d.TypeAttr():
		for _, e := range d.Entities {
			words = append(words, e.Name+", ")
		}
	case keyPlace && at.atKey:
		for _, k := range keyNames {
			if _, given := at.given[k]; k != "" && !given {
				words = append(words, k+": ")
			}
		}
	case (itemPlace || keyPlace) && at.key != "":
		words = valuesOf(at.key)
	}
	var out []string
	for _, w := range words {
		if strings.HasPrefix(w, at.word) && w != at.word {
			out = append(out, stem+w)
		}
	}
	return out
}
