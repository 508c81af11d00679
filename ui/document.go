package ui

import (
	"slices"

	"stwb/designfile"
	"stwb/model"
)

// Doc is the design being edited and everything about its life: where it lives,
// whether it has unsaved changes, its revision numbers, and the undo history.
//
// Copy-on-write rule: an edit never changes a slice, map or item of the design in
// place; it builds a new slice (or item) and stores it. So a shallow copy of the
// Design (Snapshot) stays valid for a background computation while the user goes on
// editing, without locks.
type Doc struct {
	D *model.Design
	// ItemPos[i] is where D.Items[i] is in the file, kept aligned by the edits that
	// insert and delete items while it is; empty for a design not read from a file.
	ItemPos []model.Pos
	// file is what D was read from, so that saving keeps the file's comments; nil
	// for a design that was not read from a file.
	file   *designfile.File
	Path   string // the design file; "" for a sample that was never saved
	Sample string // the sample it came from, if any
	New    bool   // Path does not exist yet: it is created on first save
	// blank is set when Path exists but held nothing but white space: a new design
	// that the first save writes there (the file is replaced without asking, unless
	// it changed on disk meanwhile).
	blank bool
	Dirty bool
	// loading is set on the stand-in shown while Path is read and parsed off the
	// event loop (a large design takes seconds to parse; the first frame does not wait).
	loading bool

	// Rev counts every edit; DataRev only those that change the items or the table,
	// which the grids and the engine depend on. Background results carry the revision
	// they were computed for and are dropped when it is no longer current.
	Rev     uint64
	DataRev uint64

	disk fileStamp // the file as last loaded or saved, to notice changes on disk
	// tempNote tells, in the opened status, what became of the temporary files a
	// crashed save left beside the design (designfile.StaleTemps); "" when none.
	tempNote string
	undo     []edit
	redo     []edit
	seq      uint64 // the last edit id given out
	saved    uint64 // id of the newest applied edit at the last save (0: none), so undoing back to it clears Dirty

	recoveredRev uint64 // Rev of the last recovery copy

	prob    map[string]bool // model.Validate's problems at probRev (see check.go)
	probRev uint64
}

// maxUndo bounds the history; every edit is an operation (not a copy of the design),
// so even a long history of a million-item design stays small.
const maxUndo = 1000

// edit is one undoable change: apply and revert are each other's inverse.
type edit struct {
	id     uint64 // given by Apply; the same edit keeps it through undo and redo
	label  string
	data   bool // changes items or the table
	apply  func(d *model.Design)
	revert func(d *model.Design)
	// An item edit says what each direction puts in, so that the one validation can
	// check that item alone (see world.refusal): scoped is set, and puts/revertPuts
	// are the item applying/reverting places (nil when it only removes one).
	scoped           bool
	puts, revertPuts *itemChange
	// applyPos and revertPos, when set, change Doc.ItemPos with the edit; each is
	// called with the design as it is before apply or revert.
	applyPos, revertPos func(d *model.Design, pos *[]model.Pos)
}

// itemChange is an item an edit puts into the design at index at; replacing says it
// takes the place of the item there (a set) rather than being inserted.
type itemChange struct {
	item      model.Item
	at        int
	replacing bool
}

// Snapshot is a shallow copy of the design for background work (see Doc).
func (doc *Doc) Snapshot() *model.Design {
	c := *doc.D
	return &c
}

// Apply performs an edit and records it for undo.
func (doc *Doc) Apply(e edit) {
	doc.seq++
	e.id = doc.seq
	if e.applyPos != nil {
		e.applyPos(doc.D, &doc.ItemPos)
	}
	e.apply(doc.D)
	doc.undo = append(doc.undo, e)
	if len(doc.undo) > maxUndo {
		doc.undo = slices.Delete(doc.undo, 0, 1)
	}
	doc.redo = nil
	doc.changed(e)
}

// Undo reverts the last edit; it returns the edit's label, "" when there is none.
func (doc *Doc) Undo() string {
	return doc.replay(&doc.undo, &doc.redo, func(e edit) (func(*model.Design), func(*model.Design, *[]model.Pos)) {
		return e.revert, e.revertPos
	})
}

// Redo applies the last undone edit again.
func (doc *Doc) Redo() string {
	return doc.replay(&doc.redo, &doc.undo, func(e edit) (func(*model.Design), func(*model.Design, *[]model.Pos)) {
		return e.apply, e.applyPos
	})
}

// replay moves the last edit of from to to, doing to the design what step picks
// (its revert for undo, its apply for redo, each with its change of ItemPos), and
// returns its label, "" when from is empty.
func (doc *Doc) replay(from, to *[]edit, step func(edit) (func(*model.Design), func(*model.Design, *[]model.Pos))) string {
	if len(*from) == 0 {
		return ""
	}
	e := (*from)[len(*from)-1]
	*from = (*from)[:len(*from)-1]
	do, doPos := step(e)
	if doPos != nil {
		doPos(doc.D, &doc.ItemPos)
	}
	do(doc.D)
	*to = append(*to, e)
	doc.changed(e)
	return e.label
}

func (doc *Doc) changed(e edit) {
	doc.Rev++
	if e.data {
		doc.DataRev++
	}
	doc.Dirty = doc.top() != doc.saved || doc.New
}

// top is the id of the newest applied edit, 0 when none.
func (doc *Doc) top() uint64 {
	if len(doc.undo) == 0 {
		return 0
	}
	return doc.undo[len(doc.undo)-1].id
}

// sliceOp is an edit of one element of a list of the design: set, insert, delete or
// swap with the next. One generic operation serves patterns, items, entities and
// indexes, so there is one implementation of copy-on-write list editing.
type opKind int

const (
	opSet opKind = iota
	opInsert
	opDelete
	opSwap // swap i and i+1
)

func sliceEdit[T any](label string, data bool, field func(*model.Design) *[]T, kind opKind, i int, old, nv T) edit {
	return edit{label: label, data: data,
		apply:  func(d *model.Design) { editSlice(field(d), kind, i, nv) },
		revert: func(d *model.Design) { editSlice(field(d), inverseOp[kind], i, old) },
	}
}

// inverseOp is the operation that undoes each.
var inverseOp = map[opKind]opKind{opSet: opSet, opInsert: opDelete, opDelete: opInsert, opSwap: opSwap}

// editSlice does operation k at i to *s, copying: the old slice is not changed.
func editSlice[T any](s *[]T, k opKind, i int, v T) {
	switch k {
	case opSet:
		c := slices.Clone(*s)
		c[i] = v
		*s = c
	case opInsert:
		c := make([]T, 0, len(*s)+1)
		c = append(append(append(c, (*s)[:i]...), v), (*s)[i:]...)
		*s = c
	case opDelete:
		c := make([]T, 0, len(*s)-1)
		*s = append(append(c, (*s)[:i]...), (*s)[i+1:]...)
	case opSwap:
		c := slices.Clone(*s)
		c[i], c[i+1] = c[i+1], c[i]
		*s = c
	}
}

func patternsOf(d *model.Design) *[]model.Pattern { return &d.Patterns }
func entitiesOf(d *model.Design) *[]model.Entity  { return &d.Entities }
func itemsOf(d *model.Design) *[]model.Item       { return &d.Items }

// itemEdit edits Items and keeps Doc.ItemPos (where each item is in the file)
// aligned with it, when the design has positions.
func itemEdit(label string, kind opKind, i int, old, nv model.Item) edit {
	e := sliceEdit(label, true, itemsOf, kind, i, old, nv)
	var puts, revertPuts *itemChange
	switch kind {
	case opSet:
		puts, revertPuts = &itemChange{nv, i, true}, &itemChange{old, i, true}
	case opInsert:
		puts = &itemChange{nv, i, false}
	case opDelete:
		revertPuts = &itemChange{old, i, false}
	}
	e.scoped, e.puts, e.revertPuts = kind != opSwap, puts, revertPuts
	if kind == opSet {
		return e
	}
	// The positions move with the items, while they are aligned with them.
	e.applyPos = func(d *model.Design, pos *[]model.Pos) {
		if len(*pos) == len(d.Items) {
			editSlice(pos, kind, i, model.Pos{})
		}
	}
	e.revertPos = func(d *model.Design, pos *[]model.Pos) {
		if len(*pos) == len(d.Items) {
			editSlice(pos, inverseOp[kind], i, model.Pos{})
		}
	}
	return e
}

// tableEdit replaces the table (keys, billing, class, indexes) as a whole.
func tableEdit(label string, old, nv model.Table) edit {
	return edit{label: label, data: true,
		apply:  func(d *model.Design) { d.Table = nv },
		revert: func(d *model.Design) { d.Table = old },
	}
}

// metaEdit changes the design's name and description.
func metaEdit(label string, oldName, oldDesc, name, desc string) edit {
	return edit{label: label,
		apply:  func(d *model.Design) { d.Name, d.Description = name, desc },
		revert: func(d *model.Design) { d.Name, d.Description = oldName, oldDesc },
	}
}

// freshRevs moves the revisions past 0, which the world's "computed for" fields
// hold before anything was computed, so a new document is always computed.
func (doc *Doc) freshRevs() {
	doc.Rev++
	doc.DataRev++
}
