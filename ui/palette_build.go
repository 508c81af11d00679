package ui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"stwb/interop"
	"stwb/model"
)

// Palette commands that build a design without forms: :entity, :item, :import. Each
// goes through the same builder as its form (entityFromForm, itemFromForm), so the
// palette refuses what the form refuses, with the same message, and then through
// the loader's check (checkedEdit).

// splitWords splits a command line at spaces, except inside quotes, brackets and
// braces, so that name="Ada Lovelace" and tags=!ss [a, b] are one word each. The
// quotes stay in the word: a value is read as the design file reads it.
func splitWords(line string) ([]string, error) {
	var out []string
	var cur strings.Builder
	var quote rune
	depth := 0
	for _, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'':
			quote = r
		case r == '[' || r == '{':
			depth++
		case (r == ']' || r == '}') && depth > 0:
			depth--
		case r == ' ' && depth == 0 && !endsInTag(cur.String()):
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
			continue
		}
		cur.WriteRune(r)
	}
	if quote != 0 {
		return nil, fmt.Errorf("a %c quote is not closed", quote)
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out, nil
}

// endsInTag reports whether a word ends in a YAML tag (tags=!ss), which the value
// after the space belongs to: tags=!ss [a, b] is one word.
func endsInTag(w string) bool {
	i := strings.LastIndexAny(w, "= ")
	return strings.HasPrefix(w[i+1:], "!") && len(w) > i+2
}

// unquote is a word without the quotes around it, for text that is not a YAML
// value (a key template, a key's text).
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		return s[1 : len(s)-1]
	}
	return s
}

// entityCommand is ":entity NAME PK=TEMPLATE [SK=TEMPLATE] [GSI1PK=TEMPLATE ...]
// [attr:TYPE[:unique] ...]".
func (m *Model) entityCommand(f []string, _ string) (tea.Cmd, error) {
	const usage = "entity NAME PK=TEMPLATE [SK=TEMPLATE] [GSI1PK=TEMPLATE ...] [attr:TYPE[:unique] ...]"
	if len(f) < 3 {
		return nil, fmt.Errorf("entity takes a name and key templates: %s", usage)
	}
	keys := map[string]model.Value{}
	attrs := map[string]model.Value{}
	for _, w := range f[2:] {
		if k, tmpl, ok := strings.Cut(w, "="); ok {
			keys[k] = model.Str(unquote(tmpl))
			continue
		}
		parts := strings.Split(w, ":")
		switch {
		case len(parts) == 2:
			attrs[parts[0]] = model.Str(parts[1])
		case len(parts) == 3 && parts[2] == "unique":
			attrs[parts[0]] = model.Map(map[string]model.Value{"type": model.Str(parts[1]), "unique": model.Bool(true)})
		default:
			return nil, fmt.Errorf("%q is neither KEY=TEMPLATE nor attr:TYPE[:unique]: %s", w, usage)
		}
	}
	d := m.w.doc.D
	v := map[string]string{"name": f[1], "keys": formatMapping(keys), "attributes": formatMapping(attrs)}
	e, errs := entityFromForm(d, -1, v)
	for _, field := range []string{"name", "keys", "attributes"} {
		if msg, bad := errs[field]; bad {
			return nil, fmt.Errorf("%s: %s", field, msg)
		}
	}
	ed := sliceEdit("added entity "+e.Name, true, entitiesOf, opInsert, len(d.Entities), model.Entity{}, e)
	return m.checkedEdit(ed, m.w.nowFn(selectIndex{entity: e.Name}))
}

// itemCommand is ":item ENTITY attr=value ...": values are YAML as in the design
// file; a key attribute given is an override, held to the template.
func (m *Model) itemCommand(f []string, _ string) (tea.Cmd, error) {
	if len(f) < 2 {
		return nil, fmt.Errorf("item takes an entity and its attributes: item ENTITY attr=value ...")
	}
	d := m.w.doc.D
	v := map[string]string{"type": f[1]}
	if f[1] == "-" {
		v["type"] = "" // an untyped item: its keys are given
	} else if _, ok := entityNamed(d, f[1]); !ok {
		var names []string
		for _, e := range d.Entities {
			names = append(names, e.Name)
		}
		return nil, fmt.Errorf("there is no entity %q; the entities are %s (or - for an untyped item)", f[1], orNone(names))
	}
	keyNames := model.KeyAttributeNames(&d.Table)
	attrs := map[string]model.Value{}
	for _, w := range f[2:] {
		k, val, ok := strings.Cut(w, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("%q is not attr=value", w)
		}
		if slices.Contains(keyNames, k) {
			v["key:"+k] = unquote(val)
			continue
		}
		x, err := parseValue(val)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", k, err)
		}
		attrs[k] = x
	}
	v["attributes"] = formatMapping(attrs)
	it, errs := itemFromForm(m.w, -1, v)
	for _, field := range append([]string{"type", "attributes"}, prefixed("key:", keyNames)...) {
		if msg, bad := errs[field]; bad {
			return nil, fmt.Errorf("%s: %s", strings.TrimPrefix(field, "key:"), msg)
		}
	}
	idx := len(d.Items)
	e := itemEdit("added item "+keyPairText(d, it), opInsert, idx, nil, it)
	return m.checkedEdit(e, m.w.nowFn(selectItem{index: idx}))
}

func prefixed(p string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = p + n
	}
	return out
}

func keyPairText(d *model.Design, it model.Item) string {
	s := keyText(it[d.Table.Key.Partition])
	if d.Table.Key.Sort != "" {
		s += " / " + keyText(it[d.Table.Key.Sort])
	}
	return s
}

// parseValue reads one value as the design file reads it (FORMAT.md "Values").
func parseValue(src string) (model.Value, error) {
	m, err := parseMapping("{v: " + src + "}")
	if err != nil {
		return model.Value{}, err
	}
	v, ok := m["v"]
	if !ok {
		return model.Value{}, fmt.Errorf("give a value")
	}
	return v, nil
}

// importCommand is ":import FILE [TABLE]": a NoSQL Workbench model opens as a new
// design beside it (FILE.yaml, written on first save, asking if it exists); a
// DynamoDB JSON file (S3 export lines, Scan output, BatchWriteItem requests) adds its
// items to this design, as stwb import --into does, as one edit that undo takes back.
func (m *Model) importCommand(f []string, _ string) (tea.Cmd, error) {
	if len(f) < 2 || len(f) > 3 {
		return nil, fmt.Errorf("import takes a file: import FILE [TABLE]")
	}
	path := f[1]
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if r, werr := interop.ImportWorkbench(data); werr == nil {
		var names []string
		for _, d := range r.Designs {
			names = append(names, d.Table.Name)
			if len(f) == 3 && d.Table.Name == f[2] || len(f) == 2 && len(r.Designs) == 1 {
				out := strings.TrimSuffix(path, filepath.Ext(path)) + ".yaml"
				doc := &Doc{D: d, Path: out, New: true, Dirty: true}
				return m.confirmReplace(doc), nil
			}
		}
		return nil, fmt.Errorf("%s holds the tables %s: import FILE TABLE picks one", path, strings.Join(names, ", "))
	} else if bytes.Contains(data, []byte(`"DataModel"`)) {
		return nil, fmt.Errorf("%s: %v", path, werr)
	}
	items, _, err := interop.ReadDynamoDBJSON(bytes.NewReader(data), nil)
	if err != nil {
		return nil, fmt.Errorf("%s is neither a NoSQL Workbench model nor DynamoDB JSON: %v", path, err)
	}
	d := m.w.doc.D
	c := *d
	c.Items = slices.Clone(d.Items)
	added, replaced, err := interop.MergeItems(&c, items)
	if err != nil {
		return nil, err
	}
	oldItems, oldPos, newItems := d.Items, m.w.doc.ItemPos, c.Items
	e := edit{label: fmt.Sprintf("imported %s: %d items added, %d replaced", path, added, replaced), data: true,
		apply:     func(d *model.Design) { d.Items = newItems },
		revert:    func(d *model.Design) { d.Items = oldItems },
		applyPos:  func(_ *model.Design, pos *[]model.Pos) { *pos = nil },
		revertPos: func(_ *model.Design, pos *[]model.Pos) { *pos = oldPos },
	}
	return m.checkedEdit(e, nil)
}

// newPatternCommand is ":newpattern field=value ...": the pattern form's fields by
// name (operation defaults to Query, id to the next free one), read and refused by
// the form's own builder, patternFromForm.
func (m *Model) newPatternCommand(f []string, _ string) (tea.Cmd, error) {
	d := m.w.doc.D
	v := map[string]string{"id": fmt.Sprint(nextPatternID(d)), "operation": string(model.OpQuery)}
	known := map[string]bool{}
	for _, fl := range patternFields {
		known[fl[0]] = true
	}
	for _, w := range f[1:] {
		k, val, ok := strings.Cut(w, "=")
		if !ok || !known[k] {
			return nil, fmt.Errorf("%q is not field=value with a field of the pattern form (name, operation, index, key, values, actions, ...)", w)
		}
		v[k] = unquote(val)
	}
	p, errs := patternFromForm(d, model.Pattern{}, -1, v)
	for _, fl := range patternFields {
		if msg, bad := errs[fl[0]]; bad {
			return nil, fmt.Errorf("%s: %s", fl[0], msg)
		}
	}
	idx := len(d.Patterns)
	e := sliceEdit(fmt.Sprintf("added pattern %d", p.ID), false, patternsOf, opInsert, idx, model.Pattern{}, p)
	return m.checkedEdit(e, m.w.nowFn(selectPattern{index: idx}))
}
