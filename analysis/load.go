package analysis

import (
	"maps"
	"slices"

	"stwb/cost"
	"stwb/designfile"
	"stwb/engine"
	"stwb/lazyload"
	"stwb/model"
	"stwb/review"
)

// Load reads a design file and analyses it with one pass over its items, the way
// `stwb query` loads (lazyload.Load): each item line is read once, into one
// reused map, for the engine (which keeps the line and reads it again only when a
// pattern returns it) and for cost and review, which keep only a summary of it:
// the attributes they read (summarizer) and its size. A design of 100,000
// items so never becomes 100,000 maps of every attribute. A design that does not
// load lazily (see designfile.ParseLazily) is read whole and analysed as Run does; the
// findings and figures are the same either way, and the errors are Run's.
//
// The design and the analysis hold parts of data: keep data unchanged while they
// are used.
func Load(file string, data []byte, opt Options) (*Analysis, error) {
	var sum summaries
	f, e, err := lazyload.LoadVisiting(file, data, &sum)
	if err != nil {
		return nil, err
	}
	d := f.Design
	if f.Lazy == nil {
		// Read whole after all: the items are maps in d.Items.
		opt.ItemPos = f.ItemPos
		return OnEngine(d, e, opt), nil
	}
	opt.lazy = f.Lazy
	return of(d, e.RunAll(d.Patterns, engine.RunOptions{AllPages: opt.AllPages}), &sum, storedIn(e), opt), nil
}

// summaries is what Load keeps of each item of a lazy load: its summary and its
// size, slot i for item i, filled from several goroutines (each item's own slot);
// and what the review's item pass (review.ItemPass) and the storage tally
// (cost.StorageTally) read of the whole item.
type summaries struct {
	design  *model.Design
	sum     *summarizer
	items   *itemColumns
	sizes   []int
	pass    *review.ItemPass
	storage *cost.StorageTally
}

func (s *summaries) Open(f *designfile.File) {
	n := f.Lazy.Len()
	s.design = f.Design
	s.sum = newSummarizer(f.Design)
	s.items, s.sizes = newItemColumns(f.Design, s.sum.columns, n), make([]int, n)
	s.pass, s.storage = review.NewItemPass(f.Design), cost.NewStorageTally(f.Design, n)
}

func (s *summaries) Visit(i int, it model.Item, size int, w *engine.BulkWorker) {
	v := s.design.View(it)
	entity := s.entityIndex(v.Entity)
	s.sum.summary(s.items, i, v)
	s.items.setType(i, entity)
	s.sizes[i] = size
	s.pass.Visit(i, v)
	if model.Stored(size) {
		// What DynamoDB stores, as cost reads it (model.StoredItems); the index
		// entries as the engine sized them.
		s.storage.Visit(i, entity, it, size, w)
	}
}

// entityIndex is e's index in the design's entities, -1 for nil.
func (s *summaries) entityIndex(e *model.Entity) int {
	for k := range s.design.Entities {
		if &s.design.Entities[k] == e {
			return k
		}
	}
	return -1
}

// summarizer cuts an item down to the attributes cost and review read of it: the
// type attribute; every key attribute of the table and of each index; every
// attribute an entity's key template sets; every attribute an index projects when
// it projects fewer than all; and an entity's template variables (cost.KeySpace
// reads their sample values) unless the item's keys give the same value back. An
// item cut down so, its whole size kept beside it, is priced and reviewed exactly
// as the whole item: TestLoadIsRun holds this for every sample, and review's
// TestRuleCasesLoadLazily for every rule's trigger. A rule that reads another
// attribute of the design's items must be given it here.
type summarizer struct {
	attrs []string
	// columns are the attributes a summary may keep (itemColumns); attrCol[j] is
	// attrs[j]'s column.
	columns  []string
	attrCol  []int
	typeAttr string
	vars     map[string][]templateVar // by entity name
	entities map[string]*model.Entity // by name, for their declared attribute types
}

// templateVar is one variable of an entity's key templates, with the templates
// that use it.
type templateVar struct {
	name string
	col  int // its column (summarizer.columns)
	keys []keyTemplate
}

// keyTemplate is a key attribute's template, parsed once (model.KeyTemplate reads
// a one-variable template's variable back without model.ExtractTemplate's search
// and maps).
type keyTemplate struct {
	attr string
	col  int // attr's column (summarizer.columns): a summary keeps every key attribute
	tmpl model.KeyTemplate
}

func newKeyTemplate(attr, tmpl string) keyTemplate {
	return keyTemplate{attr: attr, tmpl: model.NewKeyTemplate(tmpl, model.TypeS)}
}

// extract reads the template's variable name back out of a key value, as
// model.ExtractTemplate does.
func (k keyTemplate) extract(kv model.Value, name string) (string, bool) {
	return k.tmpl.Var(kv, name)
}

func newSummarizer(d *model.Design) *summarizer {
	t := &d.Table
	s := &summarizer{typeAttr: d.TypeAttr(), vars: map[string][]templateVar{}, entities: map[string]*model.Entity{}}
	names := []string{s.typeAttr}
	names = append(names, model.KeyAttributeNames(t)...)
	for i, e := range d.Entities {
		s.entities[e.Name] = &d.Entities[i]
		var vars []templateVar
		for _, a := range slices.Sorted(maps.Keys(e.Keys)) {
			names = append(names, a)
			for _, v := range model.TemplateVars(e.Keys[a]) {
				k := slices.IndexFunc(vars, func(tv templateVar) bool { return tv.name == v })
				if k < 0 {
					k = len(vars)
					vars = append(vars, templateVar{name: v})
				}
				vars[k].keys = append(vars[k].keys, newKeyTemplate(a, e.Keys[a]))
			}
		}
		s.vars[e.Name] = vars
	}
	for i := range t.Indexes {
		if ix := &t.Indexes[i]; ix.Projection.Type != model.ProjectAll {
			names = append(names, t.IndexEntryAttributes(ix)...)
		}
	}
	slices.Sort(names)
	s.attrs = slices.Compact(names)
	s.columns = s.columnNames()
	s.attrCol = make([]int, len(s.attrs))
	for j, a := range s.attrs {
		s.attrCol[j], _ = slices.BinarySearch(s.columns, a)
	}
	for _, vars := range s.vars {
		for k := range vars {
			vars[k].col, _ = slices.BinarySearch(s.columns, vars[k].name)
			for t := range vars[k].keys {
				vars[k].keys[t].col, _ = slices.BinarySearch(s.columns, vars[k].keys[t].attr)
			}
		}
	}
	return s
}

// columnNames are the attributes a summary may keep, sorted: those every summary
// keeps when the item has them (attrs), every template variable, every declared
// attribute.
func (s *summarizer) columnNames() []string {
	names := slices.Clone(s.attrs)
	for _, vars := range s.vars {
		for _, tv := range vars {
			names = append(names, tv.name)
		}
	}
	for _, e := range s.entities {
		for _, a := range e.Attributes {
			names = append(names, a.Name)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// summary copies what cost and review read of it into item i's cells of out (it
// is reused for the next item). The values are not copied: their text is the
// design file's.
func (s *summarizer) summary(out *itemColumns, i int, view model.ItemView) {
	it := view.Item
	for j, n := range s.attrs {
		if v, ok := it[n]; ok {
			out.putAt(i, s.attrCol[j], v)
		}
	}
	if view.Type != "" {
		for _, tv := range s.vars[view.Type] {
			if out.hasAt(i, tv.col) {
				continue
			}
			if v, ok := it[tv.name]; ok && !tv.inKeys(out, i, v) {
				// A key that does not give its variable back may not match its
				// template (review's template-mismatch): keep every variable of
				// the entity, so that the template expands from the summary
				// exactly as from the item.
				for _, tv := range s.vars[view.Type] {
					if v, ok := it[tv.name]; ok {
						out.putAt(i, tv.col, v)
					}
				}
				break
			}
		}
		// An attribute of another type than its entity declares is kept for review's
		// attribute-type-mismatch (rare; the rule is model.Entity.MismatchedAttributes).
		for _, n := range view.Mismatched {
			out.put(i, n, it[n])
		}
	}
}

// inKeys reports whether item i's keys give v back for the variable, so that
// cost.KeySpace finds the same sample value without the attribute: it takes the
// attribute's text (a string or number) when the item has it, else the variable
// read back out of a key built from one of its templates. True only when some
// template gives the value back and none gives another. The keys are read from
// item i's summary in out, which holds them already (summary puts them first).
func (tv templateVar) inKeys(out *itemColumns, i int, v model.Value) bool {
	if v.Type != model.TypeS && v.Type != model.TypeN {
		return false
	}
	found := false
	for _, k := range tv.keys {
		kv, ok := out.at(k.col, i)
		if !ok {
			continue
		}
		if x, ok := k.extract(kv, tv.name); ok {
			if x != v.Str {
				return false
			}
			found = true
		}
	}
	return found
}
