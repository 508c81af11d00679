package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"stwb/designfile"
)

// Opening a design removes the temporary file a killed save left before a later
// complete save, and names in the status one newer than the design.
func TestOpenHandlesStaleTempFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "d.yaml")
	if err := (&designfile.File{Design: fixture()}).Save(path); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	stale := filepath.Join(dir, ".d.yaml.tmp-1")
	os.WriteFile(stale, []byte("half"), 0o644)
	os.Chtimes(stale, st.ModTime().Add(-time.Hour), st.ModTime().Add(-time.Hour))
	doc, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("stale temp file older than the design was not removed")
	}
	if s := doc.openedStatus(); !strings.Contains(s, "removed 1 stale temporary file") {
		t.Errorf("status %q does not tell of the removal", s)
	}

	newer := filepath.Join(dir, ".d.yaml.tmp-2")
	os.WriteFile(newer, []byte("maybe unsaved work"), 0o644)
	os.Chtimes(newer, st.ModTime().Add(time.Hour), st.ModTime().Add(time.Hour))
	doc, err = OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(newer); err != nil {
		t.Error("a temp file newer than the design was removed")
	}
	if s := doc.openedStatus(); !strings.Contains(s, ".d.yaml.tmp-2 is newer than the design") {
		t.Errorf("status %q does not name the newer temp file", s)
	}
}
