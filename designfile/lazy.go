package designfile

import (
	"errors"
	"fmt"
	"hash/maphash"
	"slices"
	"unsafe"

	"gopkg.in/yaml.v3"

	"stwb/model"
)

// Lazily loaded items. A Go map per item costs about 1.5 KB for a dozen attributes,
// fifteen times the item's YAML line, and on this project's machines fresh memory is
// what a large load spends its time on (the kernel zeroes every page first): 100,000
// items as maps took 1.6 s to load, nearly all of it allocating. `stwb query` reads
// only the items its patterns touch, a few thousand, so it loads the design with
// ParseLazily: every item is read and checked once, into one map reused from item to
// item, and is read again into a map of its own only when it is asked for.

// LazyItems are a design's items kept as the lines of YAML they were written on. It
// is read-only and safe for use by several goroutines.
type LazyItems struct {
	file string
	text string // the whole file; every item line, and every value read, is part of it
	refs []lazyRef
	tmpl *model.Templater // nil when the design has no entities
}

// lazyRef is where one item's line is: 16 bytes, as a design may have millions.
type lazyRef struct {
	start, end int32 // the line's text in the file, without its newline
	line, ind  int32 // 1-based line, and the 0-based column of "- {"
}

// maxLazyFile is the largest file that loads lazily; offsets are 32-bit. Larger files
// load as Parse loads them.
const maxLazyFile = 1<<31 - 1

// ErrLazyDesign is returned when a design loaded by ParseLazily is to be saved:
// its items were never read into maps, so there is nothing to save them from.
var ErrLazyDesign = errors.New("this design was loaded read-only (designfile.ParseLazily); load it with designfile.Load to change and save it")

// ParseLazily reads a design as Parse does and finds exactly the same problems, but
// keeps the items as their text, in File.Lazy, with Design.Items and ItemPos nil.
// Each item is read once, to check it, and again whenever LazyItems.Item is asked for
// it.
//
// Only items written one flow mapping a line (as saving writes them) load lazily. A
// design in any other shape, or with any problem, is read by Parse instead: its items
// are then maps in Items as usual, and its errors are Parse's, word for word.
//
// The design keeps data: item values are substrings of it, so data must not be
// changed afterwards. A lazily loaded design cannot be saved (ErrLazyDesign).
func ParseLazily(file string, data []byte) (*File, error) {
	if f := parseLazily(file, data, nil); f != nil {
		return f, nil
	}
	return Parse(file, data)
}

// ItemSink is given each item of a lazily read design as it is checked, on one
// goroutine (see Sinks). The map is reused for the next item when Put returns.
type ItemSink interface {
	Put(i int, it model.Item)
}

// Sinks is a reader that needs something of every item of a lazily read design (the
// engine: keys and sizes), given it in the same pass instead of reading the text
// again (ParseLazilyInto).
type Sinks interface {
	// Open is called once the rest of the design is read: Lazy is set (so the items
	// are counted) and its items are not yet checked.
	Open(f *File)
	// Sink makes the sink for one goroutine, which alone puts items into it.
	Sink() ItemSink
}

// ParseLazilyInto is ParseLazily with a look at each item as it is checked: each
// item that passes its checks is put once into a sink of sinks. The puts are wasted
// when the design turns out to have a problem, or not to load lazily after all; then
// Open may not have been called, and the design returned has its Items as maps (or
// there is an error).
func ParseLazilyInto(file string, data []byte, sinks Sinks) (*File, error) {
	if f := parseLazily(file, data, sinks); f != nil {
		return f, nil
	}
	return Parse(file, data)
}

// parseLazily is ParseLazily's fast way; nil when the design must go to Parse, for
// its shape or for an error Parse is to report.
func parseLazily(file string, data []byte, sinks Sinks) (f *File) {
	if len(data) == 0 || len(data) > maxLazyFile {
		return nil
	}
	defer func() {
		// Whatever panicked here will panic in Parse too, which reports it as an
		// error the way it reports every panic of its own.
		if recoverPanics && recover() != nil {
			f = nil
		}
	}()
	sec := findItemSection(data)
	if sec == nil {
		return nil
	}
	var root yaml.Node
	if yaml.Unmarshal(sec.rest, &root) != nil {
		return nil
	}
	if _, two := secondDocument(data); two {
		return nil // Parse reports it
	}
	section := &fastItems{keyLine: sec.keyLine}
	if !section.fits(&root) {
		return nil
	}
	dec := newDecoder(file)
	f = dec.document(&root, section)
	if f == nil || len(dec.errs) > 0 || f.Design.Table.Key.Partition == "" {
		return nil
	}
	design := f.Design
	lz := &LazyItems{
		file: file,
		// No copy: data is the caller's to keep unchanged, as documented.
		text: unsafe.String(unsafe.SliceData(data), len(data)),
		refs: make([]lazyRef, len(sec.refs)),
		tmpl: model.NewTemplater(design),
	}
	for i, r := range sec.refs {
		lz.refs[i] = lazyRef{start: int32(r.start), end: int32(r.end), line: int32(r.line), ind: int32(r.ind)}
	}
	// The design now has its items; nothing is to be kept for saving them.
	f.Lazy, f.ItemPos, f.source = lz, nil, nil
	if sinks != nil {
		sinks.Open(f)
	}
	if lz.tmpl != nil {
		var errs model.ErrorList
		if lz.tmpl.ApplyToPatterns(design, &errs); len(errs) > 0 {
			return nil // the eager reader says where
		}
	}
	if !lz.check(design, sinks) || len(model.ValidateRead(design, nil)) > 0 {
		return nil
	}
	return f
}

// check reports whether every item is as validation requires (model.ItemChecker) and no
// two have the same table key, and puts each item that passes into a sink of sinks,
// when that is not nil. Duplicates are found by a 64-bit hash of the
// key; a collision of two different keys only sends the design to Parse, which
// compares keys whole.
func (lz *LazyItems) check(d *model.Design, sinks Sinks) bool {
	seed := maphash.MakeSeed()
	hashes := make([]uint64, len(lz.refs))
	if !lz.Each(func() func(int, model.Item) bool {
		checker := model.NewItemChecker(d)
		var key []byte
		var sink ItemSink
		if sinks != nil {
			sink = sinks.Sink()
		}
		return func(i int, it model.Item) bool {
			if !checker.Check(i, it, lz.Pos(i)) {
				return false
			}
			key = model.AppendItemKey(key[:0], &d.Table, it)
			hashes[i] = maphash.Bytes(seed, key)
			if sink != nil {
				sink.Put(i, it)
			}
			return true
		}
	}) {
		return false
	}
	slices.Sort(hashes)
	for i := 1; i < len(hashes); i++ {
		if hashes[i] == hashes[i-1] {
			return false
		}
	}
	return true
}

// Len is the number of items.
func (lz *LazyItems) Len() int { return len(lz.refs) }

// Offset is where s, a value's text as the reader gave it, lies in the file: its
// first byte's offset, ok false when s is not part of the file's text (a string
// with escapes is unescaped into a copy; an empty one may point anywhere). A
// reader that keeps many values' texts can keep their offsets and lengths
// instead, eight bytes and no pointer, and read them back with Text.
func (lz *LazyItems) Offset(s string) (off int, ok bool) {
	if s == "" || len(s) > len(lz.text) {
		return 0, false
	}
	p, base := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(lz.text)))
	if p < base || p-base > uintptr(len(lz.text)-len(s)) {
		return 0, false
	}
	return int(p - base), true
}

// Text is the n bytes of the file's text from offset off (Offset).
func (lz *LazyItems) Text(off, n int) string { return lz.text[off : off+n] }

// Pos is where item i starts in the file.
func (lz *LazyItems) Pos(i int) model.Pos {
	r := &lz.refs[i]
	return model.Pos{File: lz.file, Line: int(r.line), Col: int(r.ind) + 3}
}

// ErrTextChanged is what LazyItems.Item panics with when an item's line no longer
// reads as it did at load: the text under a design was changed, as another program
// writing a memory-mapped design file in place could do (see internal/mapfile).
var ErrTextChanged = errors.New("the design text changed after it was loaded")

// Item reads item i into a new map, exactly as Parse would have made it (key
// templates applied). The map is the caller's. It panics with ErrTextChanged, wrapped
// with the item's place, when the text has changed since it was loaded so that the
// line no longer reads.
func (lz *LazyItems) Item(i int) model.Item {
	it, ok := lz.newReader(nil).read(i)
	if !ok {
		panic(fmt.Errorf("%s: item %d: %w", lz.Pos(i), i, ErrTextChanged))
	}
	return it
}

// Each reads every item once, in item order within each of several goroutines, and
// calls a visit function with the item's index and the item as Parse would have made
// it. newVisit is called once in each goroutine for the visit function that
// goroutine uses, so that a visit function can keep state without locking. The map
// is reused for the next item once visit returns: keep copies, not the map. Each
// stops and reports false when a visit does, or when an item does not read cleanly
// (which for a design from ParseLazily happens only in check).
func (lz *LazyItems) Each(newVisit func() func(i int, it model.Item) bool) bool {
	_, ok := inChunks(len(lz.refs), func(_, lo, hi int) bool {
		r := lz.newReader(model.Item{})
		visit := newVisit()
		for i := lo; i < hi; i++ {
			it, ok := r.read(i)
			if !ok || !visit(i, it) {
				return false
			}
		}
		return true
	})
	return ok
}

// lazyReader reads item lines, one parser for all of them.
type lazyReader struct {
	lz *LazyItems
	p  *fastParser
}

// newReader makes a reader; with a scratch map, every item is read into it.
func (lz *LazyItems) newReader(scratch model.Item) *lazyReader {
	// A decoder without interning: the names are substrings of the text already.
	return &lazyReader{lz: lz, p: &fastParser{d: &decoder{file: lz.file}, scratch: scratch}}
}

// read reads item i and applies the key templates; ok is false when the line does
// not read, or reads with a problem.
func (r *lazyReader) read(i int) (model.Item, bool) {
	ref := &r.lz.refs[i]
	it, _, _, ok := r.p.itemLine(r.lz.text[ref.start:ref.end], int(ref.ind)+2, int(ref.line))
	if !ok || len(r.p.d.errs) > 0 {
		return nil, false
	}
	if r.lz.tmpl != nil {
		r.lz.tmpl.Apply(i, it, r.lz.Pos(i), &r.p.d.errs)
		if len(r.p.d.errs) > 0 {
			return nil, false
		}
	}
	return it, true
}
