package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// pasteChunks delivers text as one rune message per chunk bytes without running
// the commands they return, as the program does when a paste arrives faster than
// the flush tick: the runes wait in the form.
func pasteChunks(m *Model, text string, chunk int) {
	for i := 0; i < len(text); i += chunk {
		m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(text[i:min(len(text), i+chunk)])})
	}
}

// A long paste waits in the form, then goes in whole at the next key, before that
// key acts: tab moves on only after the attributes field holds the whole text.
func TestLongPasteGoesInBeforeTheNextKey(t *testing.T) {
	m, _ := openCourses(t)
	selectDesignItem(t, m, 0)
	send(t, m, keys("a", "tab", "ctrl+u")...)
	text := "{courseId: c-9, dept: " + strings.Repeat("x", 3*typeAtOnce) + "}"
	pasteChunks(m, text, 256)
	f := m.form()
	if len(f.pending) == 0 {
		t.Fatal("a paste longer than typeAtOnce went in message by message")
	}
	if !strings.Contains(screen(m), "receiving text:") {
		t.Errorf("no note while the paste waits:\n%s", screen(m))
	}
	send(t, m, keys("tab")...)
	if got := f.field("attributes").input.Value(); got != text {
		t.Fatalf("attributes hold %d bytes, want the %d pasted", len(got), len(text))
	}
	if f.focus != 2 || len(f.pending) != 0 {
		t.Errorf("focus %d, %d runes pending; want the next field, none", f.focus, len(f.pending))
	}
}

// The flush tick puts the waiting runes in and checks the form once.
func TestLongPasteGoesInOnTheTick(t *testing.T) {
	m, _ := openCourses(t)
	selectDesignItem(t, m, 0)
	send(t, m, keys("a", "tab", "ctrl+u")...)
	text := "{" + strings.Repeat("x", 2*typeAtOnce) // an open mapping: an error to report
	pasteChunks(m, text, 100)
	send(t, m, typingFlush{m.form()}) // typingQuiet has passed by the time send runs the retick
	f := m.form()
	if got := f.field("attributes"); got.input.Value() != text || got.err == "" {
		t.Fatalf("after the tick: %d bytes, error %q; want the %d pasted and the parse error", len(got.input.Value()), got.err, len(text))
	}
}

// A field holds at most maxFieldBytes; the rest of a paste is dropped with a message
// naming the limit, bracketed or not.
func TestPasteIsCutAtTheFieldLimit(t *testing.T) {
	for _, bracketed := range []bool{true, false} {
		m, _ := openCourses(t)
		selectDesignItem(t, m, 0)
		send(t, m, keys("a", "tab", "ctrl+u")...)
		text := strings.Repeat("é", maxFieldBytes/2+100) // two bytes a rune: the cut is at a rune
		if bracketed {
			send(t, m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(text), Paste: true})
		} else {
			pasteChunks(m, text, 4096)
			send(t, m, keys("right")...) // any other key puts the waiting runes in
		}
		f := m.form()
		got := f.field("attributes").input.Value()
		if len(got) != maxFieldBytes || !strings.HasPrefix(text, got) {
			t.Errorf("bracketed %v: the field holds %d bytes, want the first %d", bracketed, len(got), maxFieldBytes)
		}
		if !strings.Contains(f.err, "cut at 1048576 bytes") {
			t.Errorf("bracketed %v: form error %q, want the limit named", bracketed, f.err)
		}
	}
}

// Short text still goes in and is checked key by key.
func TestShortTypingIsImmediate(t *testing.T) {
	m, _ := openCourses(t)
	selectDesignItem(t, m, 0)
	send(t, m, keys("a", "tab", "ctrl+u")...)
	m.Update(typeText("{courseId: c-9"))
	f := m.form()
	if got := f.field("attributes"); got.input.Value() != "{courseId: c-9" || got.err == "" || len(f.pending) != 0 {
		t.Fatalf("value %q error %q pending %d; want the text in, checked at once", got.input.Value(), got.err, len(f.pending))
	}
}

// The palette takes a command line, not a megabyte: a paste stops at maxPromptRunes.
func TestPalettePasteIsCapped(t *testing.T) {
	m, _ := openCourses(t)
	send(t, m, keys(":")...)
	send(t, m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.Repeat("o", 3*maxPromptRunes)), Paste: true})
	if got := len(m.palette().in.Value()); got != maxPromptRunes {
		t.Fatalf("the palette holds %d runes, want %d", got, maxPromptRunes)
	}
}
