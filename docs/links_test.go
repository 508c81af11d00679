package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README, ARCHITECTURE.md and every page of docs/ link only files inside the
// repository, and files that exist: a user who clones stwb can follow every link.
func TestDocumentsLinkInsideTheRepository(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	docs, err := filepath.Glob("../docs/*.md")
	if err != nil || len(docs) < 5 {
		t.Fatalf("docs/*.md: %v %v", docs, err)
	}
	for _, doc := range append([]string{"../README.md", "../ARCHITECTURE.md"}, docs...) {
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
