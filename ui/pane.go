package ui

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// pane is the component contract (soft-serve's pkg/ui/common/component.go): a
// tea.Model that also describes its keys for help and is told its size. The root
// handles its own bindings first, routes other keys to the focused pane, and sends
// data messages to every pane.
type pane interface {
	tea.Model
	help.KeyMap
	SetSize(w, h int)
	Title() string
}

// The data messages every pane receives.
type (
	// docChanged says the design changed (an edit, undo, redo or a new design).
	docChanged struct{}
	// selectPattern asks the Patterns pane to select a pattern by index and focus it.
	selectPattern struct{ index int }
	// selectItem asks the Items pane to show design item idx.
	selectItem struct{ index int }
	// selectIndex asks the Table pane to select an index (or an entity) by name.
	selectIndex struct{ name, entity string }
	// statusMsg puts a message in the status line; err colours it as an error.
	statusMsg struct {
		text string
		err  bool
	}
	// applyEdit asks the root to apply an edit (through undo history).
	applyEdit struct {
		e     edit
		after func() tea.Cmd
	}
	// openForm asks the root to show a form.
	openForm struct{ f *form }
	// askConfirm asks a yes/no question; the answer runs onYes or onNo when it is
	// given (so what it opens or changes is on screen for the next key: world.now).
	askConfirm struct {
		question string
		onYes    func() tea.Cmd
		onNo     func() tea.Cmd // nil: just cancel
		// answerOnly leaves the question up on esc: its no destroys the user's
		// work (a recovery copy), so only n says no. help is the keys the footer
		// shows, nil for y and esc.
		answerOnly bool
		help       []key.Binding
	}
)

// status and statusErr put text in the status line before the next key is handled
// (world.now): as a command's message it could arrive after the keys that followed
// and overwrite what they said (issue 25).
func (w *world) status(text string) tea.Cmd    { return w.now(statusMsg{text: text}) }
func (w *world) statusErr(text string) tea.Cmd { return w.now(statusMsg{text: text, err: true}) }

// follow moves top, the first line a window of rows lines shows, as little as it
// must for line cur to show. The panes' lists scroll with their cursors this way;
// each clamps the result to its own length.
func follow(top, cur, rows int) int {
	if cur < top {
		return cur
	}
	if cur >= top+rows {
		return cur - rows + 1
	}
	return top
}
