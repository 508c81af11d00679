// Package golden is the one golden-file helper of the module's tests: Check
// compares what a test produced with a file under testdata and, when the tests run
// with -update, writes the file first. Every package with golden files uses it, so
// every one is rewritten with the same flag (go test ./PKG -update, then review the
// diff). The flag is charmbracelet/x/exp/golden's, which teatest's end-to-end runs
// already register; this package imports it so that there is exactly one -update
// in every test binary.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	xgolden "github.com/charmbracelet/x/exp/golden"
)

// The import above registers -update; teatest's goldens compare with RequireEqual.
var _ = xgolden.RequireEqual

// Updating reports whether the tests run with -update, for a golden test of its own
// shape (a file of hashes, a diff of its own).
func Updating() bool {
	f := flag.Lookup("update")
	if f == nil {
		return false
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return false
	}
	on, _ := g.Get().(bool)
	return on
}

// Check compares got with the golden file at path; with -update it writes got there
// first (making its directory).
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if !matches(t, path, got) {
		t.Errorf("%s differs from what the test produced; if the change is meant, run the tests with -update and review the diff\n--- got\n%s\n--- want\n%s", path, got, readOrEmpty(path))
	}
}

// CheckGenerated is Check for a checked-in document the code generates (docs/keys.md,
// docs/commands.md): its failure says how to regenerate it, regenerate being the
// command, and leaves out the document itself, which git diff shows better.
func CheckGenerated(t testing.TB, path string, got []byte, regenerate string) {
	t.Helper()
	if !matches(t, path, got) {
		t.Errorf("%s differs from what the code generates; run %s and commit it", path, regenerate)
	}
}

// matches writes got to path first under -update, then reports whether the file
// holds exactly got.
func matches(t testing.TB, path string, got []byte) bool {
	t.Helper()
	if Updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the tests with -update to write it)", err)
	}
	return bytes.Equal(got, want)
}

func readOrEmpty(path string) []byte {
	b, _ := os.ReadFile(path)
	return b
}
