package ui

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"stwb/render"
)

// The overlay stack. Each dialog (a form, the palette, the help, the / prompt, a
// question) is a component with the panes' contract: a tea.Model, a help.KeyMap and
// SetSize. Key routing, mouse routing, drawing and the footer all ask the top of
// the stack (Model.top): the root holds the open dialogs in m.dialogs, bottom
// first; opening one pushes it, and it pops itself when it closes.

// dialog is one layer of the stack.
type dialog interface {
	tea.Model
	help.KeyMap
	SetSize(w, h int)
	// inStatusLine says the dialog is drawn in the status line (a question, the
	// search prompt), the body below it staying on screen.
	inStatusLine() bool
	// takesText says runes typed together go to it whole (a text field), not as
	// one key each.
	takesText() bool
}

// push opens a dialog over the others: keys, the mouse, drawing and the footer go
// to it until it is closed.
func (m *Model) push(d dialog) {
	d.SetSize(m.width, m.bodyHeight())
	m.dialogs = append(m.dialogs, d)
}

// pop closes a dialog, the one below it (or the panes) taking over again. A dialog
// closes itself, so it is removed wherever it is, not blindly the top.
func (m *Model) pop(d dialog) {
	for i := len(m.dialogs) - 1; i >= 0; i-- {
		if m.dialogs[i] == d {
			m.dialogs = slices.Delete(m.dialogs, i, i+1)
			return
		}
	}
}

// top is the dialog keys go to, nil when none is open.
func (m *Model) top() dialog {
	if n := len(m.dialogs); n > 0 {
		return m.dialogs[n-1]
	}
	return nil
}

// body is the topmost dialog drawn in the body, nil when the panes show.
func (m *Model) body() dialog {
	for i := len(m.dialogs) - 1; i >= 0; i-- {
		if !m.dialogs[i].inStatusLine() {
			return m.dialogs[i]
		}
	}
	return nil
}

// topOf is the topmost open dialog of type D, nil when none is open.
func topOf[D dialog](m *Model) D {
	for i := len(m.dialogs) - 1; i >= 0; i-- {
		if d, ok := m.dialogs[i].(D); ok {
			return d
		}
	}
	var none D
	return none
}

// form is the topmost open form, nil when none is.
func (m *Model) form() *form {
	if d := topOf[*formDialog](m); d != nil {
		return d.f
	}
	return nil
}

// palette is the open command palette, nil when it is closed.
func (m *Model) palette() *palette {
	if d := topOf[*paletteDialog](m); d != nil {
		return d.p
	}
	return nil
}

// confirm is the question being asked, nil when none is.
func (m *Model) confirm() *askConfirm {
	if d := topOf[*confirmDialog](m); d != nil {
		return &d.c
	}
	return nil
}

// showHelp says the help is open.
func (m *Model) showHelp() bool { return topOf[*helpDialog](m) != nil }

// dialogBase is what every dialog holds: the root it belongs to (whose size and
// KeyMap it reads, and whose stack it closes itself in); and what most dialogs do:
// no Init, no size of their own (the root's is read when drawing), drawn in the
// body, not a text field.
type dialogBase struct{ m *Model }

func (dialogBase) Init() tea.Cmd      { return nil }
func (dialogBase) SetSize(w, h int)   {}
func (dialogBase) inStatusLine() bool { return false }
func (dialogBase) takesText() bool    { return false }

// formDialog is a form; it closes on formDone (the root's Update).
type formDialog struct {
	dialogBase
	f *form
}

func (d *formDialog) takesText() bool  { return true }
func (d *formDialog) SetSize(w, h int) { d.f.setSize(w, h) }
func (d *formDialog) View() string     { return d.f.view() }
func (d *formDialog) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.KeyMsg); !ok {
		return d, nil // the mouse does nothing in a form
	}
	return d, d.f.update(msg)
}
func (d *formDialog) ShortHelp() []key.Binding {
	k := d.m.w.km
	if len(d.f.offers) > 0 { // tab completes here: the line under the field says with what
		return []key.Binding{k.Complete, k.PrevField, k.Submit, k.Close}
	}
	return []key.Binding{k.NextField, k.PrevField, k.Submit, k.Close}
}
func (d *formDialog) FullHelp() [][]key.Binding { return [][]key.Binding{d.ShortHelp()} }

type paletteDialog struct {
	dialogBase
	p *palette
}

func (d *paletteDialog) takesText() bool { return true }
func (d *paletteDialog) View() string    { return d.p.view(d.m.width, d.m.bodyHeight()) }
func (d *paletteDialog) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		cmd, done := d.p.update(d.m, k)
		if done {
			d.m.pop(d)
		}
		return d, cmd
	}
	return d, nil
}
func (d *paletteDialog) ShortHelp() []key.Binding {
	k := d.m.w.km
	run := k.Accept
	run.SetHelp("enter", "run")
	return []key.Binding{run, k.Close}
}
func (d *paletteDialog) FullHelp() [][]key.Binding { return [][]key.Binding{d.ShortHelp()} }

type helpDialog struct {
	dialogBase
	top int // the first line of the help shown
}

func (d *helpDialog) View() string { return d.m.helpView(d.top, d.m.bodyHeight()) }

// Update scrolls the help; esc, ? or q closes it, and nothing reaches the pane below.
func (d *helpDialog) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, km := d.m, d.m.w.km
	rows := m.bodyHeight()
	switch msg := msg.(type) {
	case tea.MouseMsg:
		switch msg.Button {
		case tea.MouseButtonWheelDown:
			d.top += 3
		case tea.MouseButtonWheelUp:
			d.top -= 3
		}
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, km.Close, km.Help, km.Quit) || msg.Alt:
			// An alt+key is what a terminal makes of esc pressed just before a key.
			m.pop(d)
		case key.Matches(msg, km.Down):
			d.top++
		case key.Matches(msg, km.Up):
			d.top--
		case key.Matches(msg, km.PageDown):
			d.top += rows - 1
		case key.Matches(msg, km.PageUp):
			d.top -= rows - 1
		case key.Matches(msg, km.Top):
			d.top = 0
		case key.Matches(msg, km.Bottom):
			d.top = len(m.helpLines())
		}
	}
	d.top = max(0, min(d.top, len(m.helpLines())-rows))
	return d, nil
}
func (d *helpDialog) ShortHelp() []key.Binding {
	k := d.m.w.km
	return []key.Binding{k.Down, k.Up, k.PageDown, k.Close}
}
func (d *helpDialog) FullHelp() [][]key.Binding { return [][]key.Binding{d.ShortHelp()} }

// promptDialog is a one-line prompt in the status line: / (search) and # (go to a
// pattern by its number). enter closes it and hands run what was typed; esc drops it.
type promptDialog struct {
	dialogBase
	in   textinput.Model
	verb string // what enter does, for the footer
	run  func(text string) tea.Cmd
}

// openPrompt opens a prompt in the status line.
func (m *Model) openPrompt(prompt, verb string, run func(text string) tea.Cmd) {
	in := textinput.New()
	in.Prompt = prompt
	in.CharLimit = maxPromptRunes
	in.Cursor.SetMode(cursor.CursorStatic)
	in.Focus()
	m.push(&promptDialog{dialogBase{m}, in, verb, run})
}

func (d *promptDialog) inStatusLine() bool { return true }
func (d *promptDialog) takesText() bool    { return true }
func (d *promptDialog) View() string       { return render.Fit(d.in.View(), d.m.width) }

// Update is a key in the prompt: enter runs it, esc drops it.
func (d *promptDialog) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, km := d.m, d.m.w.km
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return d, nil
	}
	switch {
	case key.Matches(k, km.Close):
		m.pop(d)
		return d, nil
	case key.Matches(k, km.Accept):
		m.pop(d)
		return d, d.run(strings.TrimSpace(d.in.Value()))
	}
	var cmd tea.Cmd
	d.in, cmd = d.in.Update(k)
	return d, cmd
}
func (d *promptDialog) ShortHelp() []key.Binding {
	k := d.m.w.km
	run := k.Accept
	run.SetHelp("enter", d.verb)
	return []key.Binding{run, k.Close}
}
func (d *promptDialog) FullHelp() [][]key.Binding { return [][]key.Binding{d.ShortHelp()} }

type confirmDialog struct {
	dialogBase
	c askConfirm
}

func (d *confirmDialog) inStatusLine() bool { return true }
func (d *confirmDialog) View() string {
	return d.m.w.st.Unsaved.Render(render.Fit(d.c.question, d.m.width))
}

// Update answers the question: y runs its yes, n or esc its no.
func (d *confirmDialog) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, km := d.m, d.m.w.km
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return d, nil
	}
	c := d.c
	if k.String() == "ctrl+c" && m.quit {
		return d, m.leave() // ctrl+c twice always leaves
	}
	switch {
	case key.Matches(k, km.Confirm):
		m.pop(d)
		return d, answer(c.onYes)
	case key.Matches(k, km.Cancel) && k.Type == tea.KeyEsc && c.answerOnly:
		// The question stays: its footer names the two answers.
	case key.Matches(k, km.Cancel):
		m.pop(d)
		m.quit = false
		m.status, m.statusErr = "cancelled", false
		return d, answer(c.onNo)
	}
	return d, nil
}
func answer(f func() tea.Cmd) tea.Cmd {
	if f == nil {
		return nil
	}
	return f()
}

func (d *confirmDialog) ShortHelp() []key.Binding {
	if d.c.help != nil {
		return d.c.help
	}
	k := d.m.w.km
	return []key.Binding{k.Confirm, k.Cancel}
}
func (d *confirmDialog) FullHelp() [][]key.Binding { return [][]key.Binding{d.ShortHelp()} }
