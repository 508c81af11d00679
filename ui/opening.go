package ui

import (
	tea "github.com/charmbracelet/bubbletea"
)

// Opening a design file from the palette (:open FILE) runs off the event loop, as
// the first load does: a large file (or a pipe that never ends) must not freeze the
// keys, and ctrl+c stops waiting for it. The read itself is bounded by
// internal/inputlimit, so a goroutine left reading ends too.

// opening is the :open in flight; seq tells its answer from one stopped before.
type opening struct {
	path string
	seq  int
}

// openedMsg is the answer of an :open.
type openedMsg struct {
	seq int
	doc *Doc
	err error
}

// startOpen reads and checks path in the background.
func (m *Model) startOpen(path string) tea.Cmd {
	m.openSeq++
	seq := m.openSeq
	m.opening = &opening{path: path, seq: seq}
	m.status, m.statusErr = "opening "+path+"… (ctrl+c stops)", false
	return func() tea.Msg {
		doc, err := OpenFile(path)
		return openedMsg{seq: seq, doc: doc, err: err}
	}
}

// opened takes the answer in, unless that :open was stopped or replaced.
func (m *Model) opened(msg openedMsg) tea.Cmd {
	if m.opening == nil || msg.seq != m.opening.seq {
		return nil
	}
	m.opening = nil
	if msg.err != nil {
		m.status, m.statusErr = "could not open: "+msg.err.Error(), true
		return nil
	}
	m.status, m.statusErr = "", false
	return m.confirmReplace(msg.doc)
}

// stopOpening is ctrl+c while an :open is in flight: the workbench stops waiting
// and stays on the design it has.
func (m *Model) stopOpening() {
	m.status, m.statusErr = "stopped opening "+m.opening.path+"; the design on screen is unchanged", false
	m.opening = nil
}
