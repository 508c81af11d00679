package ui

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// terminal runs the workbench as the real Bubble Tea program over a pipe, the way a
// terminal drives it: bytes written to the pipe are read and parsed by Bubble Tea
// (a run of printable bytes in one read becomes one message of runes, as a fast
// typist on a slow link, a paste without bracketed paste or a script produce), and
// each command runs in its own goroutine, its message arriving whenever it does.
type terminal struct {
	t    *testing.T
	p    *tea.Program
	in   *io.PipeWriter
	out  *lockedBuffer
	done chan tea.Model
	err  error // why the program ended (ui.Run's error), once done has sent
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startTerminal runs m at w x h; the program is ended when the test ends.
func startTerminal(t *testing.T, m *Model, w, h int) *terminal {
	t.Helper()
	r, wr := io.Pipe()
	tt := &terminal{t: t, in: wr, out: &lockedBuffer{}, done: make(chan tea.Model, 1)}
	tt.p = tea.NewProgram(m, tea.WithInput(r), tea.WithOutput(tt.out), tea.WithoutSignals())
	go func() {
		tt.err = Run(tt.p, m) // as the stwb command runs it
		tt.done <- m
	}()
	tt.p.Send(tea.WindowSizeMsg{Width: w, Height: h})
	t.Cleanup(func() {
		tt.p.Kill()
		wr.Close()
	})
	return tt
}

// write sends bytes as a terminal does: what one write holds is read together.
func (tt *terminal) write(s string) {
	tt.t.Helper()
	if _, err := tt.in.Write([]byte(s)); err != nil {
		tt.t.Fatal(err)
	}
}

// writeUnlessEnded is write for a program that may have ended meanwhile (a pipe
// nobody reads blocks): false when it has, its final model taken from done.
func (tt *terminal) writeUnlessEnded(s string) bool {
	wrote := make(chan struct{})
	go func() {
		tt.in.Write([]byte(s)) // returns once the test's cleanup closes the pipe
		close(wrote)
	}()
	select {
	case <-wrote:
		return true
	case <-tt.done:
		return false
	}
}

// each sends the runes of s as one key message each, back to back, without waiting
// for anything the workbench does in between.
func (tt *terminal) each(s string) {
	for _, r := range s {
		tt.p.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

// waitFor waits until the program has drawn each text since the last waitFor.
func (tt *terminal) waitFor(texts ...string) {
	tt.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		out := ansi.Strip(tt.out.String())
		all := true
		for _, s := range texts {
			all = all && strings.Contains(out, s)
		}
		if all {
			return
		}
		if time.Now().After(deadline) {
			tt.t.Fatalf("never drawn: %q; the last lines drawn:\n%s", texts, tail(out, 1500))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// settle waits until nothing has been drawn for a while: the keys sent have been
// handled and what they started has finished.
func (tt *terminal) settle() {
	last, since := "", time.Now()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if out := tt.out.String(); out != last {
			last, since = out, time.Now()
		} else if time.Since(since) > 250*time.Millisecond {
			return
		}
	}
}

// stop ends the program and returns the workbench as it was left, to inspect.
func (tt *terminal) stop() *Model {
	tt.t.Helper()
	tt.settle()
	go tt.p.Quit() // blocks while the program is stuck (an editor it started)
	select {
	case final := <-tt.done:
		return final.(*Model)
	case <-time.After(5 * time.Second):
		tt.t.Fatal("the program did not end: is it running something that took over the terminal (an editor)?")
		return nil
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// sizes are the terminal sizes the workbench is driven at.
var sizes = [][2]int{{120, 40}, {80, 24}}

func forSizes(t *testing.T, f func(t *testing.T, w, h int)) {
	for _, s := range sizes {
		t.Run(fmt.Sprintf("%dx%d", s[0], s[1]), func(t *testing.T) { f(t, s[0], s[1]) })
	}
}
