package ui

import (
	"io"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"stwb/internal/cputime"
)

// BenchmarkPaste pastes text into the attributes field of the add-item form through
// a real Bubble Tea program reading the input, as the workbench gets it from a
// terminal (issue 15: a 1 MB paste froze it for ~35 s). "bracketed" is the text
// between the bracketed-paste marks, which Bubble Tea delivers as one message;
// "chunks" is the bare text (a terminal without bracketed paste) read 255 bytes at a
// time: Bubble Tea ends a message of runes at a short read, so this is the most
// messages a paste can become (4,112 for a megabyte). Each op ends when the field
// holds the whole text; every message is drawn, as the program draws it. Before
// formtyping.go, 64 KB in 256-byte messages took 2.0-2.3 s and 1 MB did not finish
// in 300 s.
func BenchmarkPaste(b *testing.B) {
	for _, c := range []struct {
		name      string
		size      int
		bracketed bool
	}{{"bracketed-1MB", 1 << 20, true}, {"chunks-64KB", 64 << 10, false}, {"chunks-1MB", 1 << 20, false}} {
		text := strings.Repeat("abcdefgh", c.size/8)
		input := text
		if c.bracketed {
			input = "\x1b[200~" + text + "\x1b[201~"
		}
		b.Run(c.name, func(b *testing.B) {
			var cpu int64
			for range b.N {
				b.StopTimer()
				m, _ := openCourses(b)
				selectDesignItem(b, m, 0)
				send(b, m, keys("a", "tab", "ctrl+u")...)
				b.StartTimer()
				cpu0 := cputime.Process()
				p := tea.NewProgram(pasteWatch{m, len(text)}, tea.WithInput(shortReads{strings.NewReader(input), 255}),
					tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
				if _, err := p.Run(); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				cpu += cputime.Process() - cpu0
				f := m.form()
				if got := f.fields[f.focus].input.Value(); got != text {
					b.Fatalf("the field holds %d bytes, want the %d pasted", len(got), len(text))
				}
			}
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// pasteWatch is the workbench, quitting once the focused form field holds want runes
// (the cursor's position: a measure that costs no pass over the text).
type pasteWatch struct {
	*Model
	want int
}

func (w pasteWatch) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := w.Model.Update(msg)
	if f := w.Model.form(); f != nil && f.fields[f.focus].input.Position() >= w.want {
		return w, tea.Quit
	}
	return w, cmd
}

// shortReads returns at most n bytes a read, as a terminal delivering a paste in
// small bursts does.
type shortReads struct {
	r io.Reader
	n int
}

func (s shortReads) Read(p []byte) (int, error) { return s.r.Read(p[:min(len(p), s.n)]) }
