package ui

import (
	"fmt"
	"time"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
)

// Typing and pasting into a form field in time linear in the text (issue 15: a 1 MB
// paste froze the workbench). Every message that reaches bubbles' textinput costs
// time in proportion to the whole value, not to the runes it brings
// (textinput.handleOverflow measures the width of the whole value on every insert),
// and every check of the form parses every field. A terminal without bracketed paste
// delivers a paste as one message per read (256 bytes in Bubble Tea), so a megabyte
// was 4,096 whole-value passes: quadratic. So while the form's text is short, runes
// go in at once as before; once it is longer than typeAtOnce they gather in
// f.pending (a few microseconds a message) and go into the field in one insert,
// followed by one check, once no runes have come for typingQuiet (the paste has
// ended, or the typist paused), at the latest typingMaxWait after the first one, or
// as soon as any other key arrives (so enter, tab or esc act on the whole text, in
// order). A paste then costs a few whole-value passes, not one per message.

const (
	// typeAtOnce is the form's text size (bytes, all fields) up to which runes are
	// inserted and checked per message: too small for the per-message cost to show.
	typeAtOnce = 4 << 10
	// maxFieldBytes caps one field. DynamoDB's largest item is 400 KB
	// (ServiceQuotas.html#limits-items); its attributes written as text (binary in
	// base64, YAML punctuation) stay well under this.
	maxFieldBytes = 1 << 20
	// maxPromptRunes caps the one-line prompts (the palette, /): a command or a path
	// (PATH_MAX is 4,096) fits; bubbles' textinput then stays cheap per key, and a
	// paste beyond it is cut (textinput's CharLimit).
	maxPromptRunes = 4096
)

// typingQuiet is the pause after which pending runes go in: about a frame, too short
// to see, longer than the gaps between the reads of one paste. typingMaxWait bounds
// the wait during a long paste (the note under the field counts the bytes meanwhile).
const (
	typingQuiet   = 20 * time.Millisecond
	typingMaxWait = time.Second
)

// typingFlush asks form f to insert its pending runes (the tick takeRunes starts).
type typingFlush struct{ f *form }

// takeRunes gathers a message of runes for the focused field when inserting it now
// would cost time in proportion to the form's text; it reports whether it took the
// message, and the command that will flush it.
func (f *form) takeRunes(km tea.KeyMsg) (bool, tea.Cmd) {
	if km.Type != tea.KeyRunes || km.Alt {
		return false, nil
	}
	if len(f.pending) == 0 && f.textSize()+len(km.Runes) <= typeAtOnce {
		return false, nil
	}
	now := time.Now()
	if len(f.pending) == 0 {
		f.pendingSince = now
	}
	f.lastRunes = now
	fl := &f.fields[f.focus]
	for _, r := range km.Runes {
		n := utf8.RuneLen(r)
		if n < 0 {
			n = utf8.RuneLen(utf8.RuneError)
		}
		if fl.size+f.pendingBytes+n > maxFieldBytes {
			f.cut = true
			break
		}
		f.pending = append(f.pending, r)
		f.pendingBytes += n
	}
	if f.flushing {
		return true, nil
	}
	f.flushing = true
	return true, f.flushIn(typingQuiet)
}

func (f *form) flushIn(d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return typingFlush{f} })
}

// flushTick is the tick's arrival: the pending runes go in unless more came within
// typingQuiet and the first has waited less than typingMaxWait.
func (f *form) flushTick() tea.Cmd {
	now := time.Now()
	if len(f.pending) > 0 && now.Sub(f.lastRunes) < typingQuiet && now.Sub(f.pendingSince) < typingMaxWait {
		return f.flushIn(typingQuiet - now.Sub(f.lastRunes))
	}
	return f.flushTyping()
}

// textSize is the bytes the form's fields held at the last check.
func (f *form) textSize() int {
	n := 0
	for _, fl := range f.fields {
		n += fl.size
	}
	return n
}

// flushTyping inserts the pending runes into the focused field as one paste and
// checks the form once. The cap is applied again against the field's current text.
func (f *form) flushTyping() tea.Cmd {
	f.flushing = false
	if len(f.pending) == 0 && !f.cut {
		return nil
	}
	fl := &f.fields[f.focus]
	runes := f.pending
	f.pending, f.pendingBytes = nil, 0
	room := maxFieldBytes - len(fl.input.Value())
	for i, r := range runes {
		if room -= utf8.RuneLen(r); room < 0 {
			runes, f.cut = runes[:i], true
			break
		}
	}
	var cmd tea.Cmd
	if len(runes) > 0 {
		fl.input, cmd = fl.input.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: runes, Paste: true})
	}
	if f.cut {
		f.cut = false
		f.err = fmt.Sprintf("%s: the text was cut at %d bytes, the most a field holds (DynamoDB's largest item is 400 KB)", fl.label, maxFieldBytes)
	}
	f.validate()
	return cmd
}

// pendingNote is the line under the focused field while runes wait.
func (f *form) pendingNote() string {
	if len(f.pending) == 0 {
		return ""
	}
	return fmt.Sprintf("receiving text: %d bytes so far", f.pendingBytes)
}
