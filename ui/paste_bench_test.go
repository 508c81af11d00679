package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// BenchmarkPaste pastes text into a form field of the add-item form and draws
// the frame, as the workbench does (issue 15: a 1 MB paste froze it for ~35 s).
// "bracketed" is one Paste message, as terminals with bracketed paste send it;
// "chunks" is the same megabyte in 256-byte messages, as Bubble Tea reads a paste
// from a terminal without it. Measured (issue 15): bracketed 1 MB 0.37 s; chunks of
// 64 KB 2.3 s, growing with the square of the size (each message re-measures the
// whole value in textinput.handleOverflow and copies it in form.values), so 1 MB in
// chunks is minutes: not fixed yet.
func BenchmarkPaste(b *testing.B) {
	for _, c := range []struct {
		name  string
		size  int
		chunk int
		paste bool
	}{{"bracketed-1MB", 1 << 20, 1 << 20, true}, {"chunks-64KB", 64 << 10, 256, false}} {
		text := strings.Repeat("abcdefgh", c.size/8)
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				m, _ := openCourses(b)
				selectDesignItem(b, m, 0)
				send(b, m, keys("a")...)
				b.StartTimer()
				for i := 0; i < len(text); i += c.chunk {
					send(b, m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(text[i:min(len(text), i+c.chunk)]), Paste: c.paste})
					_ = m.View()
				}
				b.StopTimer()
				if got := len(m.form().fields[m.form().focus].input.Value()); got < len(text) {
					b.Fatalf("the field holds %d bytes, want %d", got, len(text))
				}
			}
		})
	}
}
