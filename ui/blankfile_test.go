package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"stwb/designfile"
)

// A blank file is where the user means to start a design (`touch new.yaml; stwb
// new.yaml`): the workbench opens a new design there, and the first save writes it.
func TestBlankFileOpensAsNewDesign(t *testing.T) {
	for _, content := range []string{"", "\n", "  \n\t\n"} {
		path := filepath.Join(t.TempDir(), "new.yaml")
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		doc, err := OpenFile(path)
		if err != nil {
			t.Fatalf("%q: OpenFile: %v, want a new design", content, err)
		}
		m := testModel(t, doc, 80, 24)
		if !strings.Contains(m.status, "is empty: a new design") {
			t.Errorf("%q: status %q, want it to say the file is empty and a new design starts", content, m.status)
		}
		send(t, m, keys("ctrl+s")...)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := designfile.Parse(path, data); err != nil {
			t.Errorf("%q: the saved file does not open: %v\n%s", content, err, data)
		}
		if m.Doc().Dirty {
			t.Errorf("%q: still dirty after ctrl+s, status %q", content, m.status)
		}
	}
}

// A blank file that someone fills while the new design is open is not replaced
// without asking.
func TestBlankFileChangedOnDiskAsks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.yaml")
	os.WriteFile(path, nil, 0o644)
	doc, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := testModel(t, doc, 80, 24)
	other := []byte("version: 1\ntable: {name: theirs, key: {partition: PK}}\n")
	os.WriteFile(path, other, 0o644)
	send(t, m, keys("ctrl+s")...)
	if got, _ := os.ReadFile(path); string(got) != string(other) {
		t.Errorf("ctrl+s replaced a file changed on disk without asking:\n%s", got)
	}
}

// A new design takes its table name from the file's name, made valid: e5.yaml's
// table is e5-data, so the first save is one stwb opens.
func TestNewDesignNamedAfterAShortFileSaves(t *testing.T) {
	for _, base := range []string{"e5.yaml", "my design.yaml", "x.yaml"} {
		path := filepath.Join(t.TempDir(), base)
		doc, err := OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m := testModel(t, doc, 80, 24)
		send(t, m, keys("ctrl+s")...)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: not saved: %v (status %q)", base, err, m.status)
		}
		if _, err := designfile.Parse(path, data); err != nil {
			t.Errorf("%s: the saved file does not open: %v", base, err)
		}
	}
}
