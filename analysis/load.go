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
	s.items, s.sizes = newItemColumns(f.Design, f.Lazy, s.sum.columns, n), make([]int, n)
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
// it projects fewer than all; an entity's template variables (cost.KeySpace reads
// their sample values); and an attribute of another type than its entity declares. An
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

// templateVar is one variable of an entity's key templates.
type templateVar struct {
	name string
	col  int // its column (summarizer.columns)
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
				if !slices.ContainsFunc(vars, func(tv templateVar) bool { return tv.name == v }) {
					vars = append(vars, templateVar{name: v})
				}
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
		// Each variable of the entity's templates the item has (cost.KeySpace
		// reads their sample values, the attribute before the keys; review's
		// template-mismatch expands the templates from them). Read here, while
		// the item is at hand, the attribute spares cost reading the variable
		// back out of each key later, when the key's text is no longer in the
		// cache.
		for _, tv := range s.vars[view.Type] {
			if out.hasAt(i, tv.col) {
				continue // kept already, as a key or projected attribute
			}
			if v, ok := it[tv.name]; ok {
				out.putAt(i, tv.col, v)
			}
		}
		// An attribute of another type than its entity declares is kept for review's
		// attribute-type-mismatch (rare; the rule is model.Entity.MismatchedAttributes).
		for _, n := range view.Mismatched {
			out.put(i, n, it[n])
		}
	}
}
