package ui

import (
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// panicky is a pane whose Update panics: a stand-in for a bug.
type panicky struct{ pane }

func (panicky) Update(tea.Msg) (tea.Model, tea.Cmd) { panic("boom") }

// In tests (no CrashDir) a panic in Update is not recovered, so the test that
// causes it fails; in the program it is written to a crash file and the session
// goes on with the error in the status line.
func TestPanicInUpdate(t *testing.T) {
	m := testModel(t, fixtureDoc(), 120, 40)
	m.panes[m.focus] = panicky{m.panes[m.focus]}
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("without CrashDir, Update recovered (%v); a test's panic must reach the test", r)
			}
		}()
		m.Update(keys("j")[0])
	}()

	dir := t.TempDir()
	m = testModel(t, fixtureDoc(), 120, 40)
	m.opts.CrashDir = dir
	m.panes[m.focus] = panicky{m.panes[m.focus]}
	m.Update(keys("j")[0])
	if !m.statusErr || !strings.Contains(m.status, "internal error (boom)") || !strings.Contains(m.status, dir) {
		t.Fatalf("status %q; want the error and the crash file", m.status)
	}
	files, _ := os.ReadDir(dir)
	if len(files) != 1 {
		t.Fatalf("%d crash files", len(files))
	}
	b, _ := os.ReadFile(dir + "/" + files[0].Name())
	if !strings.Contains(string(b), "boom") || !strings.Contains(string(b), "goroutine") {
		t.Errorf("crash file lacks the value or the stack:\n%s", b)
	}
}
