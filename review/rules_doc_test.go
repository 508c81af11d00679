package review

import (
	"os"
	"strings"
	"testing"
)

// The README lists every rule with its default severity; this keeps the list true.
func TestREADMEListsEveryRule(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Rules() {
		row := "| `" + r.ID + "` | " + string(r.Severity) + " | " + r.Summary + " |"
		if !strings.Contains(string(data), row) {
			t.Errorf("README.md lacks the row %s", row)
		}
	}
}
