package docs

import (
	"os"
	"strings"
	"testing"
)

// The README is the guide a newcomer reads top to bottom, at most 350 lines; the
// reference lives in docs/. It keeps the test command and one performance table
// whose rows are a target, a short figure and a command.
func TestReadmeIsAGuide(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	lines := strings.Split(strings.TrimRight(readme, "\n"), "\n")
	if len(lines) > 350 {
		t.Errorf("README.md has %d lines; at most 350 (move the reference to docs/)", len(lines))
	}
	if !strings.Contains(readme, "go test -count=1 ./...") {
		t.Error("README.md lost the test command")
	}
	tables := 0
	for i, l := range lines {
		if strings.HasPrefix(l, "| target | figure | command |") {
			tables++
		}
		if strings.HasPrefix(l, "| ") && len(l) > 400 {
			t.Errorf("README.md:%d: a table row of %d characters; move the long record to docs/performance.md", i+1, len(l))
		}
	}
	if tables != 1 {
		t.Errorf("README.md has %d performance tables (| target | figure | command |); it keeps one", tables)
	}
}
