package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckRefusesWhatItAcceptedSilently: settings `stwb check` used to pass
// without a word are refused with exit 2 and a position: a review: setting naming
// no rule (the rule stayed on while the design said off) and a region that is no
// AWS region (check passed it, then cost refused it).
func TestCheckRefusesWhatItAcceptedSilently(t *testing.T) {
	orders, err := os.ReadFile(filepath.Join("..", "..", "samples", "orders.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, add, want string }{
		{"unknown review rule", "review:\n  unused-indexes: {severity: off, reason: \"read by the export\"}\n",
			`review.unused-indexes: there is no review rule of that name. did you mean "unused-index"?`},
		{"region mars-1", "region: mars-1\n", `region "mars-1" is not an AWS region name`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "d.yaml")
			os.WriteFile(file, append(append([]byte{}, orders...), c.add...), 0o644)
			var out, errb bytes.Buffer
			code := run([]string{"check", file}, nil, &out, &errb)
			if code != 2 || !strings.Contains(errb.String(), c.want) || !strings.Contains(errb.String(), "d.yaml:") {
				t.Errorf("exit %d, stderr %q; want 2 and %q with a position", code, errb.String(), c.want)
			}
		})
	}
}
