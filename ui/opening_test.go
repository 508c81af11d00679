package ui

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// TestOpenRunsOffTheEventLoop: :open of a file that never finishes reading (a pipe
// with no writer yet) returns from Update at once, keys still work, ctrl+c stops
// waiting without quitting, and the late answer of the stopped open is dropped.
// Before, :open read and parsed on the event loop: the keys froze, ctrl+c too.
func TestOpenRunsOffTheEventLoop(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "slow.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	m := testModel(t, fixtureDoc(), 120, 40)
	send(t, m, keys(":")...)
	send(t, m, typeText("open "+fifo))
	done := make(chan tea.Cmd)
	go func() {
		_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
		done <- cmd
	}()
	var cmd tea.Cmd
	select {
	case cmd = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal(":open blocked the event loop on a pipe that never ends")
	}
	if !strings.Contains(m.status, "opening "+fifo) || !strings.Contains(m.status, "ctrl+c stops") {
		t.Errorf("status %q, want it to say the file is opening and how to stop", m.status)
	}
	// The command that reads runs as Bubble Tea would run it: on its own goroutine.
	answer := make(chan tea.Msg, 1)
	go func() { answer <- runToMsg(cmd) }()
	send(t, m, keys("2")...) // the keys still work
	if m.focus != paneItems {
		t.Errorf("a key while opening did not act: focus %d", m.focus)
	}
	send(t, m, keys("ctrl+c")...)
	if m.opening != nil || m.quit || m.confirm() != nil || !strings.Contains(m.status, "stopped opening") {
		t.Fatalf("ctrl+c while opening: opening %v quit %v confirm %v status %q; want the open stopped and the workbench kept",
			m.opening, m.quit, m.confirm(), m.status)
	}
	// Let the read finish: a writer comes and writes a design.
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString("version: 1\ntable: {name: other, key: {partition: PK}}\n")
	w.Close()
	var late tea.Msg
	select {
	case late = <-answer:
	case <-time.After(10 * time.Second):
		t.Fatal("the background open never finished")
	}
	send(t, m, late)
	if m.Doc().Sample != "fixture" {
		t.Errorf("the stopped open still replaced the design: now %q %q", m.Doc().Path, m.Doc().Sample)
	}
}

// TestOpenOpensAndReportsErrors: an :open that finishes replaces the design, and a
// refused file (a device, a broken design) is an error in the status line.
func TestOpenOpensAndReportsErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	os.WriteFile(good, []byte("version: 1\ntable: {name: good-data, key: {partition: PK}}\n"), 0o644)
	m := testModel(t, fixtureDoc(), 120, 40)
	for _, c := range []struct{ path, want string }{
		{"/dev/zero", "is a device"},
		{filepath.Join(dir, "bad.yaml"), ""},
	} {
		if c.want == "" {
			os.WriteFile(c.path, []byte("version: 1\ntable: {name: x, key: {partition: PK}, bogus: 1}\n"), 0o644)
			c.want = "bogus"
		}
		send(t, m, keys(":")...)
		send(t, m, typeText("open "+c.path))
		send(t, m, keys("enter")...)
		if !m.statusErr || !strings.Contains(m.status, c.want) || m.Doc().Sample != "fixture" {
			t.Errorf(":open %s: status %q (error %v), want an error containing %q and the design kept", c.path, m.status, m.statusErr, c.want)
		}
	}
	send(t, m, keys(":")...)
	send(t, m, typeText("open "+good))
	send(t, m, keys("enter")...)
	if m.Doc().Path != good {
		t.Errorf(":open of a good file: now on %q, status %q", m.Doc().Path, m.status)
	}
}

// runToMsg runs a command and, for a batch, the first of its commands that answers.
func runToMsg(cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			if c == nil {
				continue
			}
			if got := runToMsg(c); got != nil {
				if _, isOpen := got.(openedMsg); isOpen {
					return got
				}
			}
		}
		return nil
	}
	return msg
}
