package ui

import "github.com/charmbracelet/bubbles/key"

// KeyMap is every binding of the workbench, in one value that is passed to each pane
// (never a mutable global). Panes enable or disable bindings with SetEnabled when they
// do not apply, and the help screen is generated from it.
type KeyMap struct {
	// Global.
	Quit, Save, Open, Export, Undo, Redo, Help, Palette, NextPane, PrevPane key.Binding
	Pane                                                                    [5]key.Binding
	// Movement.
	Up, Down, PageUp, PageDown, Top, Bottom, Left, Right key.Binding
	// Editing.
	Add, Edit, Delete, Copy, MoveUp, MoveDown, Duplicate, CycleView, AddLSI key.Binding
	// Pin sets a pattern's expect (or expectError) from its current result.
	Pin key.Binding
	// Search opens / in a list; NextMatch and PrevMatch go to the next and previous
	// row that holds the last search.
	Search, NextMatch, PrevMatch key.Binding
	// Inspect shows the item under the cursor whole; Facet shows one entity's items
	// alone; Widen draws the column under the column cursor (← →) at full width, Narrow undoes it.
	Inspect, Facet, Widen, Narrow key.Binding
	// GotoPattern (#) in the Patterns pane asks for a pattern's number and goes to it.
	GotoPattern key.Binding
	// EditYAML opens the selected pattern, item or entity as YAML in $EDITOR.
	EditYAML key.Binding
	// The Patterns pane's detail and preview scroll on their own.
	DetailDown, DetailUp key.Binding
	// Dialogs and forms.
	Confirm, Cancel, NextField, PrevField, Submit key.Binding
	// Complete (tab) in a field that offers completions (the pattern form's) puts
	// in what is offered, and moves to the next field when nothing is.
	Complete key.Binding
	// Close leaves a form or the palette (esc; Cancel's n is text there); Accept is
	// enter in a form: the next field, or apply on the last one.
	Close, Accept key.Binding
}

// DefaultKeyMap is the workbench's bindings.
func DefaultKeyMap() KeyMap {
	b := func(keys []string, help, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	k := KeyMap{
		Quit:     b([]string{"q", "ctrl+c"}, "q", "quit"),
		Save:     b([]string{"ctrl+s"}, "ctrl+s", "save"),
		Open:     b([]string{"ctrl+o"}, "ctrl+o", "open design or sample"),
		Export:   b([]string{"ctrl+e"}, "ctrl+e", "export"),
		Undo:     b([]string{"ctrl+z"}, "ctrl+z", "undo"),
		Redo:     b([]string{"ctrl+y"}, "ctrl+y", "redo"),
		Help:     b([]string{"?"}, "?", "help"),
		Palette:  b([]string{":"}, ":", "commands"),
		NextPane: b([]string{"tab"}, "tab", "next pane"),
		PrevPane: b([]string{"shift+tab"}, "shift+tab", "previous pane"),

		Up:       b([]string{"up", "k"}, "↑/k", "up"),
		Down:     b([]string{"down", "j"}, "↓/j", "down"),
		PageUp:   b([]string{"pgup", "ctrl+u"}, "pgup", "page up"),
		PageDown: b([]string{"pgdown", "ctrl+d"}, "pgdn", "page down"),
		Top:      b([]string{"home", "g"}, "g", "first"),
		Bottom:   b([]string{"end", "G"}, "G", "last"),
		Left:     b([]string{"left", "h"}, "←/h", "scroll left"),
		Right:    b([]string{"right", "l"}, "→/l", "scroll right"),

		Add:         b([]string{"a"}, "a", "add"),
		Edit:        b([]string{"enter"}, "enter", "edit"),
		Delete:      b([]string{"d"}, "d", "delete"),
		Copy:        b([]string{"c"}, "c", "copy"),
		MoveUp:      b([]string{"K"}, "K", "move up"),
		MoveDown:    b([]string{"J"}, "J", "move down"),
		Duplicate:   b([]string{"y"}, "y", "duplicate"),
		CycleView:   b([]string{"v"}, "v", "table/index view"),
		AddLSI:      b([]string{"L"}, "L", "add LSI (new table only)"),
		Pin:         b([]string{"p"}, "p", "pin expect to the result"),
		Search:      b([]string{"/"}, "/", "search"),
		Inspect:     b([]string{"i"}, "i", "inspect item"),
		Facet:       b([]string{"f"}, "f", "one entity only"),
		EditYAML:    b([]string{"e"}, "e", "edit as YAML in $EDITOR"),
		GotoPattern: b([]string{"#"}, "#", "go to pattern by number"),
		Widen:       b([]string{"+"}, "+", "widen column"),
		Narrow:      b([]string{"-"}, "-", "narrow column"),
		NextMatch:   b([]string{"n"}, "n", "next match"),
		PrevMatch:   b([]string{"N"}, "N", "previous match"),

		DetailDown: b([]string{"]"}, "]", "scroll preview down"),
		DetailUp:   b([]string{"["}, "[", "scroll preview up"),

		Confirm:   b([]string{"y", "enter"}, "y", "yes"),
		Cancel:    b([]string{"esc", "n"}, "esc", "cancel"),
		NextField: b([]string{"tab", "down"}, "tab/↓", "next field"),
		Complete:  b([]string{"tab"}, "tab", "complete"),
		PrevField: b([]string{"shift+tab", "up"}, "shift+tab/↑", "previous field"),
		Submit:    b([]string{"ctrl+s", "ctrl+enter"}, "ctrl+s", "apply"),
		Close:     b([]string{"esc"}, "esc", "close"),
		Accept:    b([]string{"enter"}, "enter", "next field / apply"),
	}
	names := [5]string{"patterns", "items", "table", "cost", "review"}
	for i := range k.Pane {
		n := string(rune('1' + i))
		k.Pane[i] = b([]string{n}, n, names[i])
	}
	return k
}

// global is the bindings shown for every pane, after the pane's own.
func (k KeyMap) global() []key.Binding {
	return []key.Binding{k.NextPane, k.Save, k.Undo, k.Redo, k.Palette, k.Help, k.Quit}
}
