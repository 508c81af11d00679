package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// outside is what points out of the repository: a document of the project's
// first workspace (DESIGN.md, the seeds, the shared test data) or an absolute path
// of the machine it was written on.
var outside = regexp.MustCompile(`DESIGN\.md|/work/|\.\./shared/|shared/(seeds|testdata|DYNAMODB)`)

// No comment or test points outside the repository: a reader who clones it can
// follow every reference, and every test runs on what the clone holds.
func TestNothingPointsOutsideTheRepository(t *testing.T) {
	n := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != "..") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, ".md") {
			return nil
		}
		if path == filepath.Join("..", "docs", "outside_test.go") {
			return nil // this file names what it looks for
		}
		n++
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := outside.FindString(line); m != "" {
				t.Errorf("%s:%d: %q points outside the repository: %s", path, i+1, m, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("read only %d files; the test no longer walks the repository", n)
	}
}
