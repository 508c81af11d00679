package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"stwb/designfile"
)

// `stwb import MODEL --into link.yaml` where link.yaml is a symlink to the design
// (issue 15): the design it points to is updated in place, the link stays the same
// link, and no temporary file is left in either directory (the atomic writer,
// designfile.WriteFileAtomic, writes through the link).
func TestImportIntoASymlinkWritesTheTarget(t *testing.T) {
	real, links := t.TempDir(), t.TempDir()
	design := deviceDesign(t, real)
	os.Chmod(design, 0o600)
	link := filepath.Join(links, "link.yaml")
	dest, _ := filepath.Rel(links, design) // a relative link, resolved from its own directory
	if err := os.Symlink(dest, link); err != nil {
		t.Fatal(err)
	}
	model := editedModel(t, t.TempDir(), "m.json", func(tb map[string]any) {
		tb["TableData"].([]any)[0].(map[string]any)["State"] = map[string]any{"S": "CHANGED"}
	})
	code, _, errText := runCmd(t, "", "import", model, "--into", link)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errText)
	}
	st, err := os.Lstat(link)
	if err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("link.yaml is no longer a symlink: %v %v", st.Mode(), err)
	}
	if got, _ := os.Readlink(link); got != dest {
		t.Errorf("the link points to %q, want %q as before", got, dest)
	}
	text, _ := os.ReadFile(design)
	if !strings.Contains(string(text), "CHANGED") || !strings.Contains(string(text), "# the access patterns, written by hand") {
		t.Errorf("the target was not updated with the model and its patterns kept:\n%s", text)
	}
	if st, _ := os.Stat(design); st.Mode().Perm() != 0o600 {
		t.Errorf("the target's mode is %v, want 0600 as before", st.Mode().Perm())
	}
	if _, err := designfile.Load(link); err != nil {
		t.Errorf("the design does not load through the link: %v", err)
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
