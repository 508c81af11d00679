package ui

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"stwb/render"
)

// The overlay stack. Each dialog (a form, the palette, the help, the / prompt, a
// question) is a component with the panes' contract: a tea.Model, a help.KeyMap and
// SetSize. Key routing, mouse routing, drawing and the footer all ask the top of
// the stack (Model.top), so their precedence is written once, here, in stack().

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

// stack is the open dialogs, bottom first: a form or the palette, the help over
// them, the / prompt, and a question over everything (it asks about what is below).
func (m *Model) stack() []dialog {
	var s []dialog
	if m.form != nil {
		s = append(s, formDialog{dialogBase{m}})
	}
	if m.palette != nil {
		s = append(s, paletteDialog{dialogBase{m}})
	}
	if m.showHelp {
		s = append(s, helpDialog{dialogBase{m}})
	}
	if m.searching != nil {
		s = append(s, searchDialog{dialogBase{m}})
	}
	if m.confirm != nil {
		s = append(s, confirmDialog{dialogBase{m}})
	}
	return s
}

// top is the dialog keys go to, nil when none is open.
func (m *Model) top() dialog {
	if s := m.stack(); len(s) > 0 {
		return s[len(s)-1]
	}
	return nil
}

// body is the topmost dialog drawn in the body, nil when the panes show.
func (m *Model) body() dialog {
	s := m.stack()
	for i := len(s) - 1; i >= 0; i-- {
		if !s[i].inStatusLine() {
			return s[i]
		}
	}
	return nil
}

// dialogBase is what every dialog holds: the root it belongs to, whose fields keep
// the dialog's state (m.form, m.palette, ...), so that stack() can list them; and
// what most dialogs do: no Init, no size of their own (the root's is read when
// drawing), drawn in the body, not a text field.
type dialogBase struct{ m *Model }

func (dialogBase) Init() tea.Cmd      { return nil }
func (dialogBase) SetSize(w, h int)   {}
func (dialogBase) inStatusLine() bool { return false }
func (dialogBase) takesText() bool    { return false }

type formDialog struct{ dialogBase }

func (d formDialog) takesText() bool  { return true }
func (d formDialog) SetSize(w, h int) { d.m.form.setSize(w, h) }
func (d formDialog) View() string     { return d.m.form.view() }
func (d formDialog) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.KeyMsg); !ok {
		return d, nil // the mouse does nothing in a form
	}
	return d, d.m.form.update(msg)
}
func (d formDialog) ShortHelp() []key.Binding {
	k := d.m.w.km
	return []key.Binding{k.NextField, k.PrevField, k.Submit, k.Close}
}
func (d formDialog) FullHelp() [][]key.Binding { return [][]key.Binding{d.ShortHelp()} }

type paletteDialog struct{ dialogBase }

func (d paletteDialog) takesText() bool { return true }
func (d paletteDialog) View() string    { return d.m.palette.view(d.m.width, d.m.bodyHeight()) }
func (d paletteDialog) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		return d, d.m.palette.update(d.m, k)
	}
	return d, nil
}
func (d paletteDialog) ShortHelp() []key.Binding {
	k := d.m.w.km
	run := k.Accept
	run.SetHelp("enter", "run")
	return []key.Binding{run, k.Close}
}
func (d paletteDialog) FullHelp() [][]key.Binding { return [][]key.Binding{d.ShortHelp()} }

type helpDialog struct{ dialogBase }

func (d helpDialog) View() string { return d.m.helpView(d.m.bodyHeight()) }

// Update scrolls the help; esc, ? or q closes it, and nothing reaches the pane below.
func (d helpDialog) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, km := d.m, d.m.w.km
	rows := m.bodyHeight()
	switch msg := msg.(type) {
	case tea.MouseMsg:
		switch msg.Button {
		case tea.MouseButtonWheelDown:
			m.helpTop += 3
		case tea.MouseButtonWheelUp:
			m.helpTop -= 3
		}
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, km.Close, km.Help, km.Quit) || msg.Alt:
			// An alt+key is what a terminal makes of esc pressed just before a key.
			m.showHelp = false
		case key.Matches(msg, km.Down):
			m.helpTop++
		case key.Matches(msg, km.Up):
			m.helpTop--
		case key.Matches(msg, km.PageDown):
			m.helpTop += rows - 1
		case key.Matches(msg, km.PageUp):
			m.helpTop -= rows - 1
		case key.Matches(msg, km.Top):
			m.helpTop = 0
		case key.Matches(msg, km.Bottom):
			m.helpTop = len(m.helpLines())
		}
	}
	m.helpTop = max(0, min(m.helpTop, len(m.helpLines())-rows))
	return d, nil
}
func (d helpDialog) ShortHelp() []key.Binding {
	k := d.m.w.km
	return []key.Binding{k.Down, k.Up, k.PageDown, k.Close}
}
func (d helpDialog) FullHelp() [][]key.Binding { return [][]key.Binding{d.ShortHelp()} }

type searchDialog struct{ dialogBase }

func (d searchDialog) inStatusLine() bool { return true }
func (d searchDialog) takesText() bool    { return true }
func (d searchDialog) View() string       { return render.Fit(d.m.searching.View(), d.m.width) }
func (d searchDialog) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		return d, d.m.searchKey(k, d.m.w.km)
	}
	return d, nil
}
func (d searchDialog) ShortHelp() []key.Binding {
	k := d.m.w.km
	find := k.Accept
	find.SetHelp("enter", "search")
	return []key.Binding{find, k.Close}
}
func (d searchDialog) FullHelp() [][]key.Binding { return [][]key.Binding{d.ShortHelp()} }

type confirmDialog struct{ dialogBase }

func (d confirmDialog) inStatusLine() bool { return true }
func (d confirmDialog) View() string {
	return d.m.w.st.Unsaved.Render(render.Fit(d.m.confirm.question, d.m.width))
}

// Update answers the question: y runs its yes, n or esc its no.
func (d confirmDialog) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, km := d.m, d.m.w.km
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return d, nil
	}
	c := m.confirm
	if k.String() == "ctrl+c" && m.quit {
		return d, m.leave() // ctrl+c twice always leaves
	}
	switch {
	case key.Matches(k, km.Confirm):
		m.confirm = nil
		return d, c.onYes
	case key.Matches(k, km.Cancel):
		m.confirm = nil
		m.quit = false
		m.status, m.statusErr = "cancelled", false
		return d, c.onNo
	}
	return d, nil
}
func (d confirmDialog) ShortHelp() []key.Binding {
	k := d.m.w.km
	return []key.Binding{k.Confirm, k.Cancel}
}
func (d confirmDialog) FullHelp() [][]key.Binding { return [][]key.Binding{d.ShortHelp()} }
