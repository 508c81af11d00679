package review

import (
	"os"
	"strings"
	"testing"
)

// docs/review.md lists every rule with its default severity; this keeps the list true.
func TestDocsListEveryRule(t *testing.T) {
	data, err := os.ReadFile("../docs/review.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Rules() {
		row := "| `" + r.ID + "` | " + string(r.Severity) + " | " + r.Summary + " |"
		if !strings.Contains(string(data), row) {
			t.Errorf("docs/review.md lacks the row %s", row)
		}
	}
}
