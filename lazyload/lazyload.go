// Package lazyload reads a design file and loads it into an engine in one pass over
// its items (designfile.ParseLazilyInto into an engine.Bulk), the way `stwb query`
// and the analysis pipeline load: each item line is read once, checked by the design
// file's reader and by the engine, and left as text. It joins the two packages so
// that neither imports the other.
package lazyload

import (
	"stwb/designfile"
	"stwb/engine"
	"stwb/model"
)

// Load reads a design file as designfile.ParseLazily does and loads it into an
// engine in the same pass over the items. A design that does not load lazily (see
// designfile.ParseLazily) is loaded as engine.Load loads it. The errors are
// designfile.Parse's and engine.Load's.
func Load(file string, data []byte) (*designfile.File, *engine.Engine, error) {
	return LoadVisiting(file, data, nil)
}

// Visitor looks at every item of a lazy load besides the engine, in the same pass
// (the analysis pipeline: what cost and review read of it).
type Visitor interface {
	// Open is called once the design is read but for its items, which are counted
	// (File.Lazy is set).
	Open(f *designfile.File)
	// Visit is called once for each item the engine takes, with its size
	// (model.ItemSize), on any of several goroutines at once; the map is reused for
	// the next item when Visit returns. w is the engine's worker that took it: what
	// it made of the item (BulkWorker.EntrySize) is there to read, not made again.
	Visit(i int, it model.Item, size int, w *engine.BulkWorker)
}

// LoadVisiting is Load with v given every item too. When the design ends up read
// whole (File.Lazy is nil) the visits, if any were made, are to be thrown away: its
// items are maps in Design.Items.
func LoadVisiting(file string, data []byte, v Visitor) (*designfile.File, *engine.Engine, error) {
	l := &loader{v: v}
	f, err := designfile.ParseLazilyInto(file, data, l)
	if err != nil {
		return nil, nil, err
	}
	if f.Lazy == nil || l.bulk == nil || l.file != f {
		// Read by designfile.Parse after all, or an engine that could not be made
		// (Load reports why).
		e, err := engine.Load(f.Table, f.ItemList())
		return f, e, err
	}
	e, err := l.bulk.Finish()
	if err != nil {
		return nil, nil, err
	}
	return f, e, nil
}

// loader is the designfile.Sinks of a lazy load: one engine.BulkWorker, and the
// visitor, per goroutine.
type loader struct {
	v    Visitor
	file *designfile.File
	bulk *engine.Bulk // nil when the table makes no engine
}

func (l *loader) Open(f *designfile.File) {
	bulk, err := engine.NewBulk(f.Table, f.Lazy)
	if err != nil {
		return // engine.Load reports it
	}
	l.file, l.bulk = f, bulk
	if l.v != nil {
		l.v.Open(f)
	}
}

func (l *loader) Sink() designfile.ItemSink {
	if l.bulk == nil {
		return discard{}
	}
	return &sink{w: l.bulk.Worker(), v: l.v}
}

// sink puts an item into the engine, then shows it to the visitor.
type sink struct {
	w *engine.BulkWorker
	v Visitor
}

func (s *sink) Put(i int, it model.Item) {
	size, err := s.w.Put(i, it)
	if err == nil && s.v != nil {
		s.v.Visit(i, it, size, s.w)
	}
}

// discard is the sink of a load whose engine could not be made.
type discard struct{}

func (discard) Put(int, model.Item) {}
