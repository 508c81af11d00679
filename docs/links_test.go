package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README and ARCHITECTURE.md link only files inside the repository, and files
// that exist: a user who clones stwb can follow every link.
func TestDocumentsLinkInsideTheRepository(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, doc := range []string{"../README.md", "../ARCHITECTURE.md", "../docs/FORMAT.md"} {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			p := filepath.Clean(filepath.Join(filepath.Dir(doc), target))
			if rel, err := filepath.Rel("..", p); err != nil || strings.HasPrefix(rel, "..") {
				t.Errorf("%s links %s, outside the repository", doc, m[1])
				continue
			}
			if _, err := os.Stat(p); err != nil {
				t.Errorf("%s links %s, which does not exist", doc, m[1])
			}
		}
	}
}
