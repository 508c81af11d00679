package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"stwb/samples"
)

// AWS's partition key table (bp-partition-key-design.html) calls three keys bad; each
// design in testdata/badkeys is one of them under variable names that say nothing.
// `stwb check` must exit 1 with a hot-partition error carrying the figure, in text
// and in --json, and `stwb cost --json` must show the summed key over the limit.
func TestCheckFailsOnAWSBadKeys(t *testing.T) {
	cases := []struct {
		file, key, figure string
	}{
		{"creation-date.yaml", `"EV#{p:current}"`, "5,000 WCU a second"},
		{"status-code.yaml", `"S#PENDING"`, "4,000 WCU a second"},
		{"popular-key.yaml", `"D#{x}"`, "1,389.59 WCU a second"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join("testdata", "badkeys", c.file)
			code, out, errText := runSamplesCmd("check", path)
			if code != 1 {
				t.Fatalf("exit %d, want 1\n%s%s", code, out, errText)
			}
			if !strings.Contains(out, "[hot-partition]") || !strings.Contains(out, c.key) || !strings.Contains(out, c.figure) {
				t.Errorf("check names no hot %s at %s:\n%s", c.key, c.figure, out)
			}
			if !strings.Contains(out, "Assumed: ") {
				t.Errorf("the finding does not say what it assumed:\n%s", out)
			}
			code, out, _ = runSamplesCmd("check", path, "--json")
			var rep checkReport
			if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 {
				t.Fatalf("check --json: exit %d, %v", code, err)
			}
			hot := false
			for _, f := range rep.Findings {
				hot = hot || f.Rule == "hot-partition" && strings.Contains(f.Message, c.figure)
			}
			if !hot {
				t.Errorf("check --json has no hot-partition finding at %s", c.figure)
			}
			_, out, _ = runSamplesCmd("cost", path, "--json")
			var cost struct {
				Keys []struct {
					Value   string `json:"value"`
					Exceeds bool   `json:"exceeds"`
					Spread  string `json:"spread"`
				} `json:"keys"`
			}
			if err := json.Unmarshal([]byte(out), &cost); err != nil {
				t.Fatal(err)
			}
			found := false
			for _, k := range cost.Keys {
				found = found || `"`+k.Value+`"` == c.key && k.Exceeds && k.Spread != ""
			}
			if !found {
				t.Errorf("cost --json keys lack %s over the limit: %s", c.key, out)
			}
			_, out, _ = runSamplesCmd("cost", path)
			if !strings.Contains(out, "HOT") || !strings.Contains(out, "assumed (") {
				t.Errorf("cost text lacks the verdict or the assumption:\n%s", out)
			}
		})
	}
}

// Every sample but relational-reflex (whose point is its mistakes) passes check.
func TestCheckPassesOnSamples(t *testing.T) {
	for _, s := range samples.List() {
		if s.Name == "relational-reflex" {
			continue
		}
		var out, errb bytes.Buffer
		if code := run([]string{"check", "-"}, bytes.NewReader(s.Data), &out, &errb); code != 0 {
			t.Errorf("sample %s: exit %d\n%s%s", s.Name, code, out.String(), errb.String())
		}
	}
}
