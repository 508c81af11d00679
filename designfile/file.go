package designfile

import (
	"gopkg.in/yaml.v3"

	"stwb/model"
)

// File is a design as its file holds it: the design itself, where each of its items
// is written, and what saving needs to write the file back as people wrote it (the
// YAML tree with its comments, and each item's attribute order and comments). A file
// read by ParseLazily keeps its items as text instead (Lazy).
//
// A File is its design with more: the design's fields and methods are the File's.
// A File made in code, &File{Design: d}, saves in the canonical form.
type File struct {
	*model.Design
	// ItemPos[i] is where Design.Items[i] starts in the file; empty for a design
	// built in code.
	ItemPos []model.Pos
	// Lazy holds the items of a file read by ParseLazily, in place of Design.Items
	// and ItemPos; nil otherwise.
	Lazy *LazyItems
	// source is what reading kept for comment-keeping saves; nil for a File made in
	// code.
	source *source
}

// source is what reading kept of the file, for comment-keeping saves.
type source struct {
	root *yaml.Node // the loaded document
	// items holds, for each loaded item, what saving needs to write it back as it was
	// written: attribute order (derived keys are absent from it) and comments. The
	// item nodes themselves are not kept: for a large design they cost more memory
	// than the items. Saving finds an item's record by the item's key, so the list
	// need not follow edits of the items.
	items []itemRecord
}

// With is the file holding another design, such as an edited copy of f.Design: it
// saves with f's comments. Its ItemPos is empty, as d's items need not be f's.
func (f *File) With(d *model.Design) *File { return &File{Design: d, source: f.source} }

// ItemList is a file's items, each with where it is written: what the engine loads
// (engine.Items).
type ItemList interface {
	Len() int
	Item(i int) model.Item
	Pos(i int) model.Pos
}

// ItemList is the file's items with their places: Lazy when the file was read
// lazily, else Design.Items with ItemPos.
func (f *File) ItemList() ItemList {
	if f.Lazy != nil {
		return f.Lazy
	}
	return placedItems{f}
}

// placedItems is the ItemList of a file whose items are maps.
type placedItems struct{ f *File }

func (p placedItems) Len() int              { return len(p.f.Items) }
func (p placedItems) Item(i int) model.Item { return p.f.Items[i] }
func (p placedItems) Pos(i int) model.Pos {
	if i < len(p.f.ItemPos) {
		return p.f.ItemPos[i]
	}
	return model.Pos{}
}
