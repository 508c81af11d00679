package interop

// Re-importing a model into a design that already exists (issue 16). The model
// (a NoSQL Workbench file, a live table) is where the table, its indexes, the
// entities' keys and the sample items are edited; the design is where the work
// that a model cannot hold lives: access patterns, descriptions, entity counts,
// review settings, the table class, local indexes, people's comments. A merge takes
// the first from the model and keeps the second from the design, and says what
// changed, so that re-importing after an edit in NoSQL Workbench never loses a
// pattern.

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"

	"stwb/engine"
	"stwb/model"
)

// MergeReport says what a re-import changed in the design.
type MergeReport struct {
	IndexesAdded, IndexesRemoved, IndexesChanged []string
	EntitiesAdded, EntitiesRemoved               []string
	EntitiesRenamed                              [][2]string // old name, new name
	ItemsAdded, ItemsChanged, ItemsRemoved       int
	// PatternsAdded are the model's saved queries that the design had no pattern
	// of that name for, as "id (name)"; PatternsKept those it had, whose request
	// differs from the model's and which stay as the design has them.
	PatternsAdded, PatternsKept []string
	// Broken lists the patterns that the merged design can no longer run: DynamoDB
	// would refuse their request (an index gone, a key attribute renamed).
	Broken []BrokenPattern
}

// BrokenPattern is a pattern the merge breaks, and why.
type BrokenPattern struct {
	ID     int
	Name   string
	Reason string
}

func (b BrokenPattern) String() string {
	return fmt.Sprintf("pattern %d (%s): %s", b.ID, b.Name, b.Reason)
}

// Lines is the report as lines of text for people, in a fixed order; none when
// nothing changed.
func (r *MergeReport) Lines() []string {
	var out []string
	list := func(what string, names []string) {
		if len(names) > 0 {
			out = append(out, fmt.Sprintf("%s: %s", what, strings.Join(names, ", ")))
		}
	}
	list("indexes added", r.IndexesAdded)
	list("indexes removed", r.IndexesRemoved)
	list("indexes changed", r.IndexesChanged)
	list("entities added", r.EntitiesAdded)
	list("entities removed", r.EntitiesRemoved)
	var renamed []string
	for _, rn := range r.EntitiesRenamed {
		renamed = append(renamed, rn[0]+" -> "+rn[1])
	}
	list("entities renamed", renamed)
	if r.ItemsAdded+r.ItemsChanged+r.ItemsRemoved > 0 {
		out = append(out, fmt.Sprintf("items: %d added, %d changed, %d removed", r.ItemsAdded, r.ItemsChanged, r.ItemsRemoved))
	}
	list("patterns added from the model's saved queries", r.PatternsAdded)
	list("patterns kept as the design has them, though the model's saved query of that name differs", r.PatternsKept)
	return out
}

// MergeDesign returns old with the table, indexes, entities and items of imported,
// and everything else of old: name, description, region, patterns, review
// settings, the table class, entity counts and unique flags, and local indexes that
// imported holds as global ones on the table's partition key. Saved with old's file
// (designfile.File.With), it keeps that file's comments. Neither argument is
// changed.
func MergeDesign(old, imported *model.Design) (*model.Design, *MergeReport) {
	m := *old
	r := &MergeReport{}
	m.Table = mergeTable(&old.Table, &imported.Table, r)
	m.Entities = mergeEntities(old.Entities, imported.Entities, r)
	m.Items = imported.Items
	if m.Description == "" {
		m.Description = imported.Description
	}
	countItemChanges(old, &m, r)
	r.Broken = brokenPatterns(old, &m)
	m.Patterns = mergePatterns(old.Patterns, imported.Patterns, &imported.Table, r)
	return &m, r
}

// mergePatterns keeps every pattern of the design and adds the model's (a
// Workbench model's saved queries) that it does not have, matched by name: a
// saved query of the same name as a pattern is that pattern, which the design
// keeps as it is (the design is where patterns are refined: rates, cardinality,
// expectations). Added ones are numbered after the design's highest id, in the
// model's order.
func mergePatterns(old, imp []model.Pattern, t *model.Table, r *MergeReport) []model.Pattern {
	if len(imp) == 0 {
		return old
	}
	byName := map[string]model.Pattern{}
	next := 1
	for _, p := range old {
		byName[strings.TrimSpace(p.Name)] = p
		next = max(next, p.ID+1)
	}
	out := slices.Clone(old)
	for _, p := range imp {
		if have, ok := byName[strings.TrimSpace(p.Name)]; ok {
			if !sameRequest(&have, &p, t) {
				r.PatternsKept = append(r.PatternsKept, fmt.Sprintf("%d (%s)", have.ID, have.Name))
			}
			continue
		}
		p.ID = next
		next++
		out = append(out, p)
		byName[strings.TrimSpace(p.Name)] = p
		r.PatternsAdded = append(r.PatternsAdded, fmt.Sprintf("%d (%s)", p.ID, p.Name))
	}
	return out
}

// sameRequest reports whether two Query patterns send the same request: the same
// expressions, names and values, or the same saved query (a design's pattern
// exported to the model and read back has the importer's placeholders, #pk and :pk).
func sameRequest(a, b *model.Pattern, t *model.Table) bool {
	if sameExpressions(a, b) {
		return true
	}
	qa, pa := savedQueryOf(a, t)
	qb, pb := savedQueryOf(b, t)
	return pa == "" && pb == "" && a.Operation == model.OpQuery && b.Operation == model.OpQuery && reflect.DeepEqual(qa, qb)
}

func sameExpressions(a, b *model.Pattern) bool {
	if a.Operation != b.Operation || a.Index != b.Index || a.KeyCondition != b.KeyCondition || a.Filter != b.Filter || !maps.Equal(a.Names, b.Names) || len(a.Values) != len(b.Values) {
		return false
	}
	for k, v := range a.Values {
		if w, ok := b.Values[k]; !ok || !v.Equal(w) {
			return false
		}
	}
	return true
}

// mergeTable takes the model's table and keeps what the model has no place for.
func mergeTable(old, imp *model.Table, r *MergeReport) model.Table {
	t := *old
	t.Name, t.Key, t.Billing = imp.Name, imp.Key, imp.Billing
	t.TypeAttribute = imp.TypeAttribute
	if imp.Class != "" {
		t.Class = imp.Class
	}
	t.Attributes = map[string]model.Type{}
	for k, v := range old.Attributes {
		t.Attributes[k] = v
	}
	for k, v := range imp.Attributes {
		t.Attributes[k] = v
	}
	t.Indexes = nil
	for _, ix := range imp.Indexes {
		prev, had := old.IndexByName(ix.Name)
		if !had {
			r.IndexesAdded = append(r.IndexesAdded, ix.Name)
			t.Indexes = append(t.Indexes, ix)
			continue
		}
		merged := prev
		merged.Projection = ix.Projection
		if prev.Local && ix.Key.Partition == imp.Key.Partition && !ix.Local {
			// The Workbench has no LSIs and the export writes them as GSIs on the
			// table's partition key: still the same local index.
			merged.Key = model.KeySchema{Partition: imp.Key.Partition, Sort: ix.Key.Sort}
		} else {
			merged.Local = ix.Local
			merged.Key = ix.Key
		}
		if ix.Read != 0 || ix.Write != 0 {
			merged.Read, merged.Write = ix.Read, ix.Write
		}
		if !merged.Key.Equal(prev.Key) || !projectionEqual(merged.Projection, prev.Projection) {
			r.IndexesChanged = append(r.IndexesChanged, ix.Name)
		}
		t.Indexes = append(t.Indexes, merged)
	}
	for _, ix := range old.Indexes {
		if _, kept := imp.IndexByName(ix.Name); !kept {
			r.IndexesRemoved = append(r.IndexesRemoved, ix.Name)
		}
	}
	// Only the types of attributes that are still keys belong in table.attributes.
	keys := model.KeyAttributeNames(&t)
	for k := range t.Attributes {
		if !slices.Contains(keys, k) {
			delete(t.Attributes, k)
		}
	}
	return t
}

func projectionEqual(a, b model.Projection) bool {
	return projType(a) == projType(b) && slices.Equal(a.Include, b.Include)
}

// mergeEntities takes the model's entities (names, keys, attribute types) and keeps
// each one's count, unique flags and anything else the design gives it. An entity
// is the same when it has the same name, or, renamed, the same key templates as an
// entity of old that the model no longer has.
func mergeEntities(old, imp []model.Entity, r *MergeReport) []model.Entity {
	byName := map[string]int{}
	for i, e := range old {
		byName[e.Name] = i
	}
	impNames := map[string]bool{}
	for _, e := range imp {
		impNames[e.Name] = true
	}
	used := map[int]bool{}
	var out []model.Entity
	for _, e := range imp {
		i, ok := byName[e.Name]
		if !ok {
			i = -1
			for j, o := range old {
				if !used[j] && !impNames[o.Name] && len(o.Keys) > 0 && mapsEqual(o.Keys, e.Keys) {
					i = j
					r.EntitiesRenamed = append(r.EntitiesRenamed, [2]string{o.Name, e.Name})
					break
				}
			}
		}
		if i < 0 {
			r.EntitiesAdded = append(r.EntitiesAdded, e.Name)
			out = append(out, e)
			continue
		}
		used[i] = true
		merged := old[i]
		merged.Name, merged.Keys, merged.Aliases = e.Name, e.Keys, e.Aliases
		unique := map[string]bool{}
		for _, a := range old[i].Attributes {
			unique[a.Name] = a.Unique
		}
		merged.Attributes = nil
		for _, a := range e.Attributes {
			a.Unique = a.Unique || unique[a.Name]
			merged.Attributes = append(merged.Attributes, a)
		}
		out = append(out, merged)
	}
	for i, e := range old {
		if !used[i] {
			r.EntitiesRemoved = append(r.EntitiesRemoved, e.Name)
		}
	}
	return out
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// countItemChanges compares the items by primary key, each design's items whole
// (keys built from templates included).
func countItemChanges(old, merged *model.Design, r *MergeReport) {
	before := map[string]model.Item{}
	for _, it := range old.Items {
		full := completeItem(old, it)
		before[primaryKeyString(full, &old.Table)] = full
	}
	seen := map[string]bool{}
	for _, it := range merged.Items {
		full := completeItem(merged, it)
		k := primaryKeyString(full, &merged.Table)
		seen[k] = true
		prev, ok := before[k]
		switch {
		case !ok:
			r.ItemsAdded++
		case !prev.Equal(full):
			r.ItemsChanged++
		}
	}
	for k := range before {
		if !seen[k] {
			r.ItemsRemoved++
		}
	}
}

// brokenPatterns runs every pattern on the design before and after and lists
// those whose request DynamoDB accepted before and refuses now. That is the test
// production would apply: a Query on a removed index, or naming a key attribute
// the table no longer has, is a ValidationException. A pattern refused before the
// merge is the design's own finding, not the merge's.
func brokenPatterns(old, merged *model.Design) []BrokenPattern {
	if len(merged.Patterns) == 0 {
		return nil
	}
	var out []BrokenPattern
	before := validationErrors(old)
	after := validationErrors(merged)
	for i, p := range merged.Patterns {
		if p.Index != "" {
			if _, ok := merged.Table.IndexByName(p.Index); !ok {
				if _, had := old.Table.IndexByName(p.Index); had {
					out = append(out, BrokenPattern{p.ID, p.Name, fmt.Sprintf("its index %s is gone", p.Index)})
					continue
				}
			}
		}
		if gone := renamedKeys(&p, &old.Table, &merged.Table); len(gone) > 0 {
			out = append(out, BrokenPattern{p.ID, p.Name, fmt.Sprintf("its key names %s, no longer a key attribute of %s (now %s)",
				strings.Join(gone, ", "), keysOwner(p.Index), strings.Join(keyNames(&merged.Table, p.Index), ", "))})
			continue
		}
		if after != nil && after[i] != "" && (before == nil || before[i] == "") {
			out = append(out, BrokenPattern{p.ID, p.Name, after[i]})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// validationErrors is each pattern's ValidationException message ("" when its
// request is valid); nil when the engine refuses the design's items.
func validationErrors(d *model.Design) []string {
	e, err := engine.FromDesign(d)
	if err != nil {
		return nil
	}
	out := make([]string, len(d.Patterns))
	for i := range d.Patterns {
		if res := e.Run(&d.Patterns[i], engine.RunOptions{}); res.Err != nil && res.Err.Type == "ValidationException" {
			out[i] = res.Err.Message
		}
	}
	return out
}

// renamedKeys lists the attributes that the pattern's key names and that were key
// attributes of its table or index before the merge but are not after it: a key
// attribute the model renamed or dropped.
func renamedKeys(p *model.Pattern, old, now *model.Table) []string {
	before, after := keyNames(old, p.Index), keyNames(now, p.Index)
	var gone []string
	for _, a := range patternKeyAttributes(p) {
		if slices.Contains(before, a) && !slices.Contains(after, a) && !slices.Contains(gone, a) {
			gone = append(gone, a)
		}
	}
	sort.Strings(gone)
	return gone
}

// keyNames is the key attributes of the table (index "") or of one index; nil
// for an index the table does not have.
func keyNames(t *model.Table, index string) []string {
	ks := t.Key
	if index != "" {
		ix, ok := t.IndexByName(index)
		if !ok {
			return nil
		}
		ks = model.KeySchema{Partition: t.IndexPartition(&ix), Sort: ix.Key.Sort}
	}
	var out []string
	for _, a := range []string{ks.Partition, ks.Sort} {
		if a != "" {
			out = append(out, a)
		}
	}
	return out
}

func keysOwner(index string) string {
	if index == "" {
		return "the table"
	}
	return "index " + index
}

// patternKeyAttributes is every attribute name a pattern's keys use: the words of
// its key condition (#names resolved), and the attributes of its key mappings.
func patternKeyAttributes(p *model.Pattern) []string {
	var out []string
	for _, w := range exprWords(p.KeyCondition) {
		if strings.HasPrefix(w, "#") {
			w = p.Names[w]
		}
		out = append(out, w)
	}
	keys := append([]model.Item{p.Key}, p.Keys...)
	for _, a := range p.Actions {
		keys = append(keys, a.Key)
	}
	for _, k := range keys {
		for a := range k {
			out = append(out, a)
		}
	}
	return out
}

// exprWords splits an expression into its names and #placeholders (":values" and
// punctuation left out); enough to see which attributes a key condition names.
func exprWords(e string) []string {
	var out []string
	word := func(c byte) bool { return isNameByte(c) || c == '#' || c == '.' }
	for i := 0; i < len(e); {
		if !word(e[i]) && e[i] != ':' {
			i++
			continue
		}
		j := i + 1
		for j < len(e) && word(e[j]) {
			j++
		}
		if e[i] != ':' {
			out = append(out, e[i:j])
		}
		i = j
	}
	return out
}

func isNameByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
