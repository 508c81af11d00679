package ui

import (
	"errors"
	"fmt"
	"slices"

	"stwb/model"
	"stwb/render"
)

// One validation: every change the workbench makes to a design (a form, a palette
// command, undo, redo) is held to the loader's rules, model.Validate, which checks
// what loading a file checks, and to the entities' key templates
// (model.TemplateMismatches: issue 13, an override that does not match its
// template cannot be saved). An edit is refused when the design after it has a
// problem the design before it did not have; the message is the loader's. A
// design that opened with a mismatched key (the loader takes it, as DynamoDB
// would store it; review reports it) keeps it through every other edit. Saving
// goes further and reads back the very bytes it is about to write (writeDesign),
// so no path writes a file that stwb would refuse to open.

// problems is what Validate finds in the design now, keyed by message; it is
// computed once per revision.
func (doc *Doc) problems() map[string]bool {
	if doc.probRev == doc.Rev && doc.prob != nil {
		return doc.prob
	}
	doc.prob, doc.probRev = problemSet(doc.editProblems()), doc.Rev
	return doc.prob
}

// editProblems is what an edit is held to (see above): the loader's problems and
// the keys that do not match their templates.
func (doc *Doc) editProblems() error {
	err := model.ValidateAt(doc.D, doc.ItemPos)
	mm := model.TemplateMismatches(doc.D, doc.ItemPos)
	if len(mm) == 0 {
		return err
	}
	var list model.ErrorList
	if !errors.As(err, &list) && err != nil {
		return err // not a list: a problem of another kind, which comes first
	}
	return append(slices.Clip(list), mm...)
}

func problemSet(err error) map[string]bool {
	set := map[string]bool{}
	var list model.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			set[problemText(e)] = true
		}
	} else if err != nil {
		set[err.Error()] = true
	}
	return set
}

// problemText is a problem without its position: a design edited in memory has no
// positions worth showing, and an item's position does not move its message.
func problemText(e *model.PosError) string {
	if e.Hint != "" {
		return e.Msg + ". " + e.Hint
	}
	return e.Msg
}

// newProblems lists what Validate finds now that before did not have, in the order
// Validate reports them.
func (doc *Doc) newProblems(before map[string]bool) []string {
	var out []string
	var list model.ErrorList
	err := doc.editProblems()
	if errors.As(err, &list) {
		for _, e := range list {
			if t := problemText(e); !before[t] {
				out = append(out, t)
			}
		}
	} else if err != nil && !before[err.Error()] {
		out = append(out, err.Error())
	}
	return out
}

// refusal tries e on the design and takes it back; it returns the loader's problems
// that e would add, none when e may be applied.
func (doc *Doc) refusal(e edit) []string {
	before := doc.problems()
	pos := doc.ItemPos // edits copy, so this is the positions as they were
	if e.applyPos != nil {
		e.applyPos(doc.D, &doc.ItemPos)
	}
	e.apply(doc.D)
	defer func() {
		e.revert(doc.D)
		doc.ItemPos = pos
	}()
	return doc.newProblems(before)
}

// refusal is Doc.refusal made fast for an item edit: a design the loader took, with
// one item put in or changed, is one the loader takes exactly when that item passes
// the loader's checks on its own (itemProblems: key types, sizes, templates, values)
// and no other item has its key, which the table's grid finds by binary search. A
// removal cannot break a rule. Other edits, or an item edit while the grid is being
// rebuilt, are checked whole (a million-item design takes seconds: see
// BenchmarkCheckedEdit).
func (w *world) refusal(e edit) []string {
	if p, ok := w.scopedProblems(e.scoped, e.puts); ok {
		return p
	}
	return w.doc.refusal(e)
}

func (w *world) scopedProblems(scoped bool, c *itemChange) ([]string, bool) {
	if !scoped {
		return nil, false
	}
	if c == nil {
		return nil, true // only removes an item
	}
	g := w.grid("")
	if g == nil {
		return nil, false
	}
	d := w.doc.D
	if p := itemProblems(d, c.item); len(p) > 0 {
		return p, true
	}
	if r := g.FindKey(d, c.item); r >= 0 {
		if other := int(g.Rows[r].Item); !c.replacing || other != c.at {
			// The loader's words (model's validator, items()).
			return []string{fmt.Sprintf("item %d has the same key as item %d (%s). give one of them another key; DynamoDB keeps one item per key",
				c.at, other, render.KeyString(c.item, d.Table.Key.Partition, d.Table.Key.Sort))}, true
		}
	}
	return nil, true
}

// refusedError is the loader's objection to an edit, for the status line.
func refusedError(problems []string) error {
	if len(problems) == 0 {
		return nil
	}
	msg := "stwb would not open the design after this: " + problems[0]
	if len(problems) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(problems)-1)
	}
	return errors.New(msg)
}

// checkedApply applies e unless the loader would refuse the design after it.
func (w *world) checkedApply(e edit) error {
	if err := refusedError(w.refusal(e)); err != nil {
		return err
	}
	w.doc.Apply(e)
	return nil
}

// checkedStep is undo or redo held to the same rule: a step that would leave a
// design the loader refuses is taken back at once (back is the opposite step). An
// item edit's step is checked for the item it puts back, as refusal checks it.
func (w *world) checkedStep(undo bool, step, back func() string) (string, error) {
	doc := w.doc
	from := doc.redo
	if undo {
		from = doc.undo
	}
	if len(from) > 0 {
		e := from[len(from)-1]
		c := e.puts
		if undo {
			c = e.revertPuts
		}
		if p, ok := w.scopedProblems(e.scoped, c); ok {
			if len(p) > 0 {
				return "", refusedError(p)
			}
			return step(), nil
		}
	}
	before := doc.problems()
	label := step()
	if label == "" {
		return "", nil
	}
	if p := doc.newProblems(before); len(p) > 0 {
		back()
		return "", refusedError(p)
	}
	return label, nil
}

// fieldOf is the form field a loader message is about: the field whose label or name
// is the message's first such word (a key attribute such as GSI1PK), else -1.
func fieldOf(f *form, msg string) int {
	for _, w := range messageWords(msg) {
		for i, fl := range f.fields {
			if w == fl.label || w == fl.name {
				return i
			}
		}
	}
	return -1
}
