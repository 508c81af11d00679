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

// ctrl+s on a design opened through a symlink (issue 15) writes the file the link
// points to; the link stays the same link, no temporary file is left, and the next
// ctrl+s does not take the saved file for an outside change.
func TestSaveThroughASymlinkWritesTheTarget(t *testing.T) {
	real, links := t.TempDir(), t.TempDir()
	target := filepath.Join(real, "d.yaml")
	if err := (&designfile.File{Design: fixture()}).Save(target); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(links, "link.yaml")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	doc, err := OpenFile(link)
	if err != nil {
		t.Fatal(err)
	}
	m := testModel(t, doc, 120, 40)
	for round := 1; round <= 2; round++ {
		send(t, m, keys("c", "ctrl+s")...)
		if m.Doc().Dirty || m.confirm() != nil {
			t.Fatalf("save %d: still unsaved (status %q, question %v)", round, m.status, m.confirm())
		}
		if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("save %d: link.yaml is no longer a symlink (%v)", round, err)
		}
		if got, _ := os.Readlink(link); got != target {
			t.Fatalf("save %d: the link points to %q", round, got)
		}
		back, err := designfile.Load(target)
		if err != nil || len(back.Patterns) != 3+round {
			t.Fatalf("save %d: the target holds %d patterns (%v), want %d", round, len(back.Patterns), err, 3+round)
		}
	}
	for _, dir := range []string{real, links} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.Contains(e.Name(), ".tmp-") {
				t.Errorf("temporary file %s left in %s", e.Name(), dir)
			}
		}
	}
}
