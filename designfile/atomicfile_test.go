package designfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A write to a symlinked design replaces the link's target and leaves the link a link,
// with the temporary file made in the target's directory.
func TestWriteFileAtomicWritesThroughSymlink(t *testing.T) {
	realDir, linkDir := t.TempDir(), t.TempDir()
	target := filepath.Join(realDir, "real.yaml")
	if err := os.WriteFile(target, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(linkDir, "link.yaml")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	chain := filepath.Join(linkDir, "chain.yaml") // a relative link to a link
	if err := os.Symlink("link.yaml", chain); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{link, chain} {
		want := "new via " + filepath.Base(name) + "\n"
		if err := WriteFileAtomic(name, []byte(want)); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Lstat(name); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%s is no longer a symlink (%v)", name, err)
		}
		got, _ := os.ReadFile(target)
		if string(got) != want {
			t.Fatalf("target holds %q, want %q", got, want)
		}
		if st, _ := os.Stat(target); st.Mode().Perm() != 0o600 {
			t.Errorf("target mode %v, want 0600 kept", st.Mode().Perm())
		}
	}
	if es, _ := os.ReadDir(linkDir); len(es) != 2 {
		t.Errorf("the link's directory holds %d entries, want the 2 links", len(es))
	}
	// A dangling link is written through to create its target.
	newTarget := filepath.Join(realDir, "new.yaml")
	dangling := filepath.Join(linkDir, "dangling.yaml")
	if err := os.Symlink(newTarget, dangling); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(dangling, []byte("x\n")); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(newTarget); err != nil || string(got) != "x\n" {
		t.Fatalf("dangling link's target: %q, %v", got, err)
	}
	if st, _ := os.Lstat(dangling); st.Mode()&os.ModeSymlink == 0 {
		t.Fatal("dangling link replaced by a file")
	}
}

// Every failing step of the atomic write removes its temporary file and leaves the
// old file as it was.
func TestWriteFileAtomicRemovesTempOnEveryError(t *testing.T) {
	boom := errors.New("injected failure")
	steps := map[string]func(){
		"write": func() { writeTemp = func(*os.File, []byte) (int, error) { return 0, boom } },
		"sync":  func() { syncTemp = func(*os.File) error { return boom } },
		"rename": func() {
			renameTemp = func(string, string) error { return boom }
		},
	}
	for name, inject := range steps {
		t.Run(name, func(t *testing.T) {
			w, s, r := writeTemp, syncTemp, renameTemp
			defer func() { writeTemp, syncTemp, renameTemp = w, s, r }()
			inject()
			dir := t.TempDir()
			path := filepath.Join(dir, "d.yaml")
			os.WriteFile(path, []byte("old\n"), 0o644)
			err := WriteFileAtomic(path, []byte("new\n"))
			if !errors.Is(err, boom) {
				t.Fatalf("err = %v, want the injected failure", err)
			}
			es, _ := os.ReadDir(dir)
			for _, e := range es {
				if strings.Contains(e.Name(), ".tmp-") {
					t.Errorf("temporary file %s left behind", e.Name())
				}
			}
			if got, _ := os.ReadFile(path); string(got) != "old\n" {
				t.Errorf("old file changed to %q", got)
			}
		})
	}
}

// Temporary files a killed write left beside the design: the ones older than the
// design are removed, a newer one is kept and reported, other files are left alone.
func TestStaleTempsRemovesOnlyOlderOwnTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "d[1].yaml")
	os.WriteFile(path, []byte("design\n"), 0o644)
	now := time.Now()
	os.Chtimes(path, now, now)
	old := filepath.Join(dir, ".d[1].yaml.tmp-111")
	newer := filepath.Join(dir, ".d[1].yaml.tmp-222")
	other := filepath.Join(dir, ".e.yaml.tmp-333")
	for _, f := range []string{old, newer, other} {
		os.WriteFile(f, []byte("partial"), 0o644)
	}
	os.Chtimes(old, now.Add(-time.Hour), now.Add(-time.Hour))
	os.Chtimes(other, now.Add(-time.Hour), now.Add(-time.Hour))
	os.Chtimes(newer, now.Add(time.Minute), now.Add(time.Minute))
	removed, kept, err := StaleTemps(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 1 || removed[0] != old {
		t.Errorf("removed %v, want [%s]", removed, old)
	}
	if len(kept) != 1 || kept[0] != newer {
		t.Errorf("reported %v, want [%s]", kept, newer)
	}
	for f, want := range map[string]bool{old: false, newer: true, other: true, path: true} {
		if _, err := os.Stat(f); (err == nil) != want {
			t.Errorf("%s exists=%v, want %v", filepath.Base(f), err == nil, want)
		}
	}
}
