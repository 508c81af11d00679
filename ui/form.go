package ui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"stwb/render"
)

// formField is one line of a form: a label, a text input, and a check that runs on
// every keystroke against all of the form's values (a key condition depends on the
// index chosen, a value placeholder on the values field).
type formField struct {
	name  string
	label string
	help  string // shown under the focused field when it has no error
	input textinput.Model
	check func(vals map[string]string) error
	err   string
	// live, when set, is a line drawn under the field whatever has focus: the key a
	// template builds from a sample item, the key an item's attributes derive.
	live func(vals map[string]string) string
	// suggested marks a value the form guessed (the entity of the row under the
	// cursor): the first character typed replaces it instead of appending to it.
	suggested bool
	// size is the value's length in bytes and liveText what live said, both at the
	// last check: drawing and deciding how to take a paste then cost no pass over
	// the text (formtyping.go).
	size     int
	liveText string
	// complete, when set, lists what the field's text may become, whole values that
	// fit what is typed (formcomplete.go): tab puts in what they agree on, the line
	// under the focused field shows them.
	complete func(vals map[string]string, text string) []string
	// choice says the field holds one of complete's values: a unique fit replaces
	// what is typed (tw: TransactWriteItems), and tab then moves on.
	choice bool
}

// form edits a record field by field. enter or tab moves to the next field, enter on
// the last field (or ctrl+s anywhere) submits; a failed submit keeps the form open
// with the reason at the top.
type form struct {
	title  string
	fields []formField
	focus  int
	err    string
	submit func(vals map[string]string) (edit, error)
	after  func() tea.Cmd // run after a successful submit (select the new row, ...)
	km     KeyMap
	st     Styles
	w, h   int
	// initial is what the fields held when the form opened: closing a form whose
	// values differ asks first.
	initial map[string]string
	// refuse is the loader's objection to the edit a submit makes (Doc.refusal); the
	// root sets it when it shows the form.
	refuse func(edit) []string
	// now is the root's world.now, set when the form is shown: closing the form
	// happens before the key after the one that closed it.
	now func(tea.Msg) tea.Cmd
	// pending holds runes for the focused field not inserted yet, pendingBytes their
	// UTF-8 length, pendingSince and lastRunes when the first and the last came;
	// flushing says a typingFlush is on its way; cut says runes were dropped at
	// maxFieldBytes (formtyping.go).
	pending                 []rune
	pendingBytes            int
	pendingSince, lastRunes time.Time
	flushing                bool
	cut                     bool

	// shape, when set, lists the fields the form shows for its values, in order, and
	// build makes a field it shows for the first time: the form reshapes after every
	// check (the pattern form shows what its operation takes). A field taken away
	// keeps its text in kept for when it comes back.
	shape func(vals map[string]string) []string
	build func(name string) formField
	kept  map[string]string
	// offer is what tab would put in the focused field, and offers what fits there,
	// both as of the last check (formcomplete.go).
	offer  string
	offers []string
	// aside, when set, draws under the fields what the values make (the pattern
	// form's preview); it hears of every change and gets its own messages.
	aside   formAside
	noticed string // the values aside last heard of
}

// formAside is what a form shows under its fields from its values. It computes in
// the background: changed and update return the commands that do it.
type formAside interface {
	changed(vals map[string]string) tea.Cmd
	update(msg tea.Msg) tea.Cmd
	view(w int) []string
}

// formAsideMsg carries a message for form f's aside, wherever f is in the stack.
type formAsideMsg struct {
	f   *form
	msg tea.Msg
}

func newForm(title string, km KeyMap, st Styles) *form {
	return &form{title: title, km: km, st: st, initial: map[string]string{}, kept: map[string]string{}}
}

// add appends a field with its initial value.
func (f *form) add(name, label, value, help string, check func(map[string]string) error) {
	f.fields = append(f.fields, formField{name: name, label: label, help: help, input: newFieldInput(value), check: check})
	f.initial[name] = value
	if len(f.fields) == 1 {
		f.fields[0].input.Focus()
	}
	f.validate()
}

func newFieldInput(value string) textinput.Model {
	in := textinput.New()
	in.Prompt = ""
	in.SetValue(value)
	in.CharLimit = 0
	// A static cursor: no blink ticks, so the screen only changes when the user acts.
	in.Cursor.SetMode(cursor.CursorStatic)
	return in
}

func (f *form) values() map[string]string {
	m := make(map[string]string, len(f.fields))
	for _, fl := range f.fields {
		m[fl.name] = fl.input.Value()
	}
	return m
}

// validate re-checks every field and what its live line says. It takes time in
// proportion to the form's text, so a long paste is checked once, not per message
// (formtyping.go).
func (f *form) validate() {
	vals := f.values()
	for i := range f.fields {
		fl := &f.fields[i]
		fl.size = len(vals[fl.name])
		fl.err = ""
		if c := fl.check; c != nil {
			if err := c(vals); err != nil {
				fl.err = err.Error()
			}
		}
		fl.liveText = ""
		if fl.live != nil {
			fl.liveText = fl.live(vals)
		}
	}
	if f.reshape(vals) {
		f.validate() // the fields shown changed: check them (shape is stable for them)
		return
	}
	f.offer, f.offers = f.offered(vals)
}

// reshape shows the fields shape lists for vals, keeping each field's text and the
// focus on the field it was on (or the one now in its place); it reports whether the
// fields changed.
func (f *form) reshape(vals map[string]string) bool {
	if f.shape == nil {
		return false
	}
	names := f.shape(vals)
	if slices.EqualFunc(names, f.fields, func(n string, fl formField) bool { return n == fl.name }) {
		return false
	}
	focused := f.fields[f.focus].name
	shown := map[string]formField{}
	for _, fl := range f.fields {
		shown[fl.name] = fl
	}
	fields := make([]formField, 0, len(names))
	for _, n := range names {
		fl, ok := shown[n]
		if !ok {
			fl = f.build(n)
			text, kept := f.kept[n]
			if !kept {
				text = f.initial[n]
			}
			if text == "" {
				text = fl.input.Value() // what build put in
			}
			fl.input = newFieldInput(text)
			fl.input.Width = max(10, f.w-labelWidth-4)
		}
		delete(shown, n)
		fields = append(fields, fl)
	}
	for n, fl := range shown {
		f.kept[n] = fl.input.Value()
	}
	at := min(f.focus, len(fields)-1)
	for i, fl := range fields {
		if fl.name == focused {
			at = i
		}
		fields[i].input.Blur()
	}
	f.fields, f.focus = fields, at
	f.fields[at].input.Focus()
	return true
}

// noticeChange tells the aside of values it has not heard of.
func (f *form) noticeChange() tea.Cmd {
	if f.aside == nil {
		return nil
	}
	vals := f.values()
	k := fmt.Sprint(vals)
	if k == f.noticed {
		return nil
	}
	f.noticed = k
	return f.aside.changed(vals)
}

func (f *form) setSize(w, h int) {
	f.w, f.h = w, h
	for i := range f.fields {
		f.fields[i].input.Width = max(10, w-labelWidth-4)
	}
}

const labelWidth = 14

func (f *form) move(d int) {
	f.fields[f.focus].input.Blur()
	f.focus = (f.focus + d + len(f.fields)) % len(f.fields)
	f.fields[f.focus].input.Focus()
	f.fields[f.focus].input.CursorEnd()
	// A choice holds one whole value: the first letter typed on it starts another.
	if fl := &f.fields[f.focus]; fl.choice && fl.input.Value() != "" {
		fl.suggested = true
	}
	f.offer, f.offers = f.offered(f.values())
}

// fieldNames are the names of the fields shown, in order.
func (f *form) fieldNames() []string {
	out := make([]string, len(f.fields))
	for i, fl := range f.fields {
		out[i] = fl.name
	}
	return out
}

// field is the field called name, nil when there is none.
func (f *form) field(name string) *formField {
	for i := range f.fields {
		if f.fields[i].name == name {
			return &f.fields[i]
		}
	}
	return nil
}

// changed reports whether any field differs from what it held when the form opened.
func (f *form) changed() bool {
	for _, fl := range f.fields {
		if fl.input.Value() != f.initial[fl.name] {
			return true
		}
	}
	return false
}

// formDone is sent when a form closes; e is nil when it was cancelled.
type formDone struct {
	e     *edit
	after func() tea.Cmd
}

func (f *form) update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	if fl := &f.fields[f.focus]; fl.suggested && km.Type == tea.KeyRunes {
		fl.suggested = false
		fl.input.SetValue("")
		f.validate()
	}
	if took, cmd := f.takeRunes(km); took {
		return cmd
	}
	// Any other key acts on the whole text typed before it.
	flushed := f.flushTyping()
	cmd := f.key(km)
	return tea.Batch(flushed, cmd, f.noticeChange())
}

func (f *form) key(km tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(km, f.km.Close):
		if f.changed() {
			return f.now(askConfirm{question: "Discard the changes in this form? (y: discard, n: keep editing)",
				onYes: func() tea.Cmd { return f.now(formDone{}) }})
		}
		return f.now(formDone{})
	case key.Matches(km, f.km.Submit):
		return f.trySubmit()
	case key.Matches(km, f.km.Accept):
		f.choose()
		if f.focus == len(f.fields)-1 {
			return f.trySubmit()
		}
		f.move(1)
		return nil
	case key.Matches(km, f.km.Complete) && f.completeFocused():
		return nil
	case key.Matches(km, f.km.NextField):
		f.choose()
		f.move(1)
		return nil
	case key.Matches(km, f.km.PrevField):
		f.choose()
		f.move(-1)
		return nil
	}
	f.fields[f.focus].suggested = false
	var cmd tea.Cmd
	f.fields[f.focus].input, cmd = f.fields[f.focus].input.Update(km)
	f.validate()
	return cmd
}

func (f *form) trySubmit() tea.Cmd {
	f.validate()
	for i, fl := range f.fields {
		if fl.err != "" {
			f.err = fl.label + ": " + fl.err
			f.fields[f.focus].input.Blur()
			f.focus = i
			f.fields[i].input.Focus()
			return nil
		}
	}
	e, err := f.submit(f.values())
	if err != nil {
		f.err = err.Error()
		return nil
	}
	if f.refuse != nil {
		if problems := f.refuse(e); len(problems) > 0 {
			f.err = refusedError(problems).Error()
			if i := fieldOf(f, problems[0]); i >= 0 {
				f.fields[i].err = problems[0]
				f.fields[f.focus].input.Blur()
				f.focus = i
				f.fields[i].input.Focus()
			}
			return nil
		}
	}
	return f.now(formDone{e: &e, after: f.after})
}

// view draws the form, scrolled so the focused field is on screen.
func (f *form) view() string {
	var lines []string
	focusLine := 0
	for i, fl := range f.fields {
		label := render.Fit(fl.label, labelWidth)
		if i == f.focus {
			label = f.st.Label.Bold(true).Render(render.Fit("› "+fl.label, labelWidth))
			focusLine = len(lines)
		} else {
			label = f.st.Label.Render(label)
		}
		lines = append(lines, render.Clip(label+" "+fl.input.View(), f.w))
		switch {
		case i == f.focus && f.pendingNote() != "": // the field's error is stale until then
			lines = append(lines, strings.Repeat(" ", labelWidth+1)+f.st.Render.Dim.Render(render.Clip(f.pendingNote(), f.w-labelWidth-1)))
		case fl.err != "":
			for _, l := range wrap("✗ "+fl.err, f.w-labelWidth-1) {
				lines = append(lines, strings.Repeat(" ", labelWidth+1)+f.st.FieldError.Render(l))
			}
		case i == f.focus && fl.help != "":
			lines = append(lines, strings.Repeat(" ", labelWidth+1)+f.st.Render.Dim.Render(render.Clip(fl.help, f.w-labelWidth-1)))
		}
		if i == f.focus && len(f.offers) > 0 {
			if l := offersLine(fl.input.Value(), f.offer, f.offers); l != "" {
				lines = append(lines, strings.Repeat(" ", labelWidth+1)+f.st.Render.Dim.Render(render.Clip(l, f.w-labelWidth-1)))
			}
		}
		if fl.liveText != "" {
			lines = append(lines, strings.Repeat(" ", labelWidth+1)+f.st.Render.Dim.Render(render.Clip(fl.liveText, f.w-labelWidth-1)))
		}
	}
	head := []string{f.st.Title.Render(render.Clip(f.title, f.w))}
	if f.err != "" {
		for _, l := range wrap(f.err, f.w) {
			head = append(head, f.st.StatusError.Render(l))
		}
	}
	head = append(head, f.st.Render.Dim.Render(render.Clip("enter/tab next field · shift+tab back · ctrl+s or enter on the last field apply · esc cancel", f.w)))
	room := max(1, f.h-len(head))
	var aside []string
	if f.aside != nil {
		// The fields keep at least half the room (and what they need, when less);
		// the aside has the rest.
		aside = f.aside.view(f.w)
		fieldRoom := min(len(lines), max(room/2, room-len(aside)))
		aside = aside[:min(len(aside), room-fieldRoom)]
		room = fieldRoom
	}
	// View changes nothing: the window is a function of the focused field, scrolled
	// just enough that the field and the line under it show.
	top := max(0, min(focusLine-room+2, len(lines)-room))
	end := min(len(lines), top+room)
	return strings.Join(append(append(head, lines[top:end]...), aside...), "\n")
}

// wrap breaks s into lines of at most w cells, at spaces where it can and inside a
// long word where it must.
func wrap(s string, w int) []string { return render.Wrap(s, w) }
