package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The workbench in a real terminal: build the binary, start it in tmux at 120x40
// and at 80x24, press keys, read the screen, quit. Skips only when tmux is missing
// outside CI (.ci/run installs it).
func TestWorkbenchInTmux(t *testing.T) {
	dir, bin := tmuxAndBinary(t)
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			// A private tmux server (-S socket) so the test never touches the user's.
			tm := &tmux{t: t, sock: filepath.Join(dir, fmt.Sprintf("tmux-%d", size[0]))}
			saved := filepath.Join(dir, fmt.Sprintf("saved-%d.yaml", size[0]))
			tm.run("new-session", "-d", "-s", "w", "-x", fmt.Sprint(size[0]), "-y", fmt.Sprint(size[1]),
				"env", "TERM=xterm-256color", "NO_COLOR=1", bin)
			defer tm.run("kill-server")

			tm.waitFor("Get a customer's profile") // the orders sample, pattern 1
			tm.waitFor("capacity per request")     // its preview
			tm.keys("2")
			tm.waitFor("customerOrder") // the Items pane
			tm.keys("v")
			tm.waitFor("GSI GSI1")
			tm.keys("?")
			tm.waitFor("column right") // help from the KeyMap
			tm.keys("Escape")
			// The pane's body, not its footer: the footer stays on screen under the
			// help, and a key sent while the help is still open is taken as alt+key
			// (esc then 1) and only closes it.
			tm.waitFor("items carry its keys")
			tm.keys("1")
			tm.waitFor("c copy")
			tm.keys("a")
			tm.waitFor("Add an access pattern")
			tm.text("Lines of one order")
			for range 4 { // rate, operation, index, key
				tm.keys("Tab")
			}
			tm.text("PK = :pk AND begins_with(SK, :i)")
			tm.keys("Enter") // each value its field, under the key condition
			tm.text("ORDER#9f2a")
			tm.keys("Enter")
			tm.text("ITEM#")
			tm.keys("C-s")
			tm.waitFor("added pattern 8")
			tm.waitFor("Count 2, ScannedCount 2")
			tm.keys("C-s")
			tm.text(saved)
			tm.keys("Enter")
			tm.waitFor("saved /") // the status line; the header's "● unsaved " also holds "saved "
			tm.keys("q")
			tm.waitGone()
			data, err := os.ReadFile(saved)
			if err != nil || !strings.Contains(string(data), "Lines of one order") {
				t.Fatalf("saved file lacks the new pattern (%v)", err)
			}
		})
	}
}

// tmuxAndBinary skips without tmux outside CI (.ci/run installs it) and builds the
// binary into a temporary directory, which it returns with the binary's path.
func tmuxAndBinary(t *testing.T) (dir, bin string) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is missing in CI; .ci/run installs it")
		}
		t.Skip("tmux is not installed")
	}
	dir = t.TempDir()
	bin = filepath.Join(dir, "stwb")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir, bin
}

type tmux struct {
	t    *testing.T
	sock string
}

func (x *tmux) run(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", x.sock}, args...)...).CombinedOutput()
	if err != nil && args[0] != "kill-server" && args[0] != "has-session" {
		x.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (x *tmux) keys(k ...string) { x.run(append([]string{"send-keys", "-t", "w"}, k...)...) }
func (x *tmux) text(s string)    { x.run("send-keys", "-t", "w", "-l", s) }
func (x *tmux) screen() string   { return x.run("capture-pane", "-p", "-t", "w") }

func (x *tmux) waitFor(s string) {
	x.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Contains(x.screen(), s) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	x.t.Fatalf("screen never showed %q:\n%s", s, x.screen())
}

// waitGone waits for the program to exit (the session ends with it).
func (x *tmux) waitGone() {
	x.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if err := exec.Command("tmux", "-S", x.sock, "has-session", "-t", "w").Run(); err != nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	x.t.Fatalf("the workbench did not quit:\n%s", x.screen())
}
