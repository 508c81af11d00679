package ui

import (
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
}

func newForm(title string, km KeyMap, st Styles) *form {
	return &form{title: title, km: km, st: st, initial: map[string]string{}}
}

// add appends a field with its initial value.
func (f *form) add(name, label, value, help string, check func(map[string]string) error) {
	in := textinput.New()
	in.Prompt = ""
	in.SetValue(value)
	in.CharLimit = 0
	// A static cursor: no blink ticks, so the screen only changes when the user acts.
	in.Cursor.SetMode(cursor.CursorStatic)
	f.fields = append(f.fields, formField{name: name, label: label, help: help, input: in, check: check})
	f.initial[name] = value
	if len(f.fields) == 1 {
		f.fields[0].input.Focus()
	}
	f.validate()
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
	return tea.Batch(flushed, f.key(km))
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
		if f.focus == len(f.fields)-1 {
			return f.trySubmit()
		}
		f.move(1)
		return nil
	case key.Matches(km, f.km.NextField):
		f.move(1)
		return nil
	case key.Matches(km, f.km.PrevField):
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
	// View changes nothing: the window is a function of the focused field, scrolled
	// just enough that the field and the line under it show.
	top := max(0, min(focusLine-room+2, len(lines)-room))
	end := min(len(lines), top+room)
	return strings.Join(append(head, lines[top:end]...), "\n")
}

// wrap breaks s into lines of at most w cells, at spaces where it can and inside a
// long word where it must.
func wrap(s string, w int) []string { return render.Wrap(s, w) }
