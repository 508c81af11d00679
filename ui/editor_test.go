package ui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// withEditor runs $EDITOR synchronously (tests have no terminal to hand over) as the
// shell script body, which gets the file as $1.
func withEditor(t *testing.T, script string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "editor.sh")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("EDITOR", path)
	old := runEditor
	runEditor = func(c *exec.Cmd, done func(error) tea.Msg) tea.Cmd { return func() tea.Msg { return done(c.Run()) } }
	t.Cleanup(func() { runEditor = old })
}

// e opens the selected pattern, item or entity in $EDITOR as the design file writes
// it, and takes it back through the loader and the one validation.
func TestEditInEditor(t *testing.T) {
	withEditor(t, `sed -i 's/name: Get a customer.s profile/name: Fetch a profile/' "$1"`)
	m := testModel(t, fixtureDoc(), 120, 40)
	send(t, m, keys("1", "e")...)
	if got := m.Doc().D.Patterns[0].Name; got != "Fetch a profile" {
		t.Fatalf("pattern name %q after the editor; status %q", got, m.status)
	}
	send(t, m, keys("ctrl+z")...)
	if m.Doc().D.Patterns[0].Name != "Get a customer's profile" {
		t.Error("undo did not take the editor's edit back")
	}

	// An item: its derived keys are left out of the text and follow its attributes.
	withEditor(t, `grep -q '^PK:' "$1" && exit 3; sed -i 's/customerId: "2"/customerId: "7"/' "$1"`)
	send(t, m, keys("2")...)
	send(t, m, selectItem{index: 3})
	send(t, m, keys("e")...)
	if got := m.Doc().D.Items[3]["PK"].Str; got != "CUST#7" {
		t.Fatalf("item PK %q after the editor; status %q", got, m.status)
	}

	// An entity.
	withEditor(t, `sed -i 's/count: 1000$/count: 42/' "$1"`)
	send(t, m, keys("3", "g", "j", "j", "j", "e")...)
	if got := m.Doc().D.Entities[0].Count; got != 42 {
		t.Fatalf("entity count %d after the editor; status %q", got, m.status)
	}
}

// Text the loader refuses is not taken: the question offers the editor again with
// the text kept; n drops it and the design is as it was.
func TestEditorTextRefused(t *testing.T) {
	withEditor(t, `echo 'SK: NOTPROFILE' >> "$1"`)
	m := testModel(t, fixtureDoc(), 120, 40)
	send(t, m, keys("2")...)
	send(t, m, selectItem{index: 3})
	send(t, m, keys("e")...)
	if m.confirm() == nil || !strings.Contains(m.confirm().question, `does not match the template "PROFILE"`) {
		t.Fatalf("no question with the loader's reason; status %q", m.status)
	}
	if m.Doc().Dirty {
		t.Fatal("refused text changed the design")
	}
	withEditor(t, `grep -q NOTPROFILE "$1" || exit 4; sed -i 's/NOTPROFILE/PROFILE/; s/^name: .*/name: Grace/' "$1"`)
	send(t, m, keys("y")...) // the editor again, on the kept text: fixed this time
	if m.confirm() != nil || m.Doc().D.Items[3]["name"].Str != "Grace" {
		t.Fatalf("the fixed text was not taken; status %q", m.status)
	}
	withEditor(t, `echo 'type: [' > "$1"`)
	send(t, m, keys("e")...)
	if m.confirm() == nil || !strings.Contains(m.confirm().question, "Not taken") {
		t.Fatalf("broken YAML was not refused; status %q", m.status)
	}
	send(t, m, keys("n")...)
	if m.confirm() != nil {
		t.Fatal("n did not drop the text")
	}
}
