package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The temporary files a killed write left beside a design (issue 15) are found by
// the command line too, by designfile's one rule: a command that only reads the
// design names them on standard error and leaves them; import --into, which writes
// the design, removes the one older than the design and names the newer one.
func TestCommandsReportStaleTemps(t *testing.T) {
	dir := t.TempDir()
	design := deviceDesign(t, dir)
	st, _ := os.Stat(design)
	older, newer := filepath.Join(dir, ".d.yaml.tmp-111"), filepath.Join(dir, ".d.yaml.tmp-222")
	for path, at := range map[string]time.Time{older: st.ModTime().Add(-time.Hour), newer: st.ModTime().Add(time.Hour)} {
		os.WriteFile(path, []byte("half a design"), 0o644)
		os.Chtimes(path, at, at)
	}
	for _, args := range [][]string{
		{"query", design}, {"check", design}, {"cost", design}, {"export", design, "--format", "markdown"},
	} {
		_, _, errText := runCmd(t, "", args...)
		for _, want := range []string{older + " is left from an interrupted write of " + design, newer + " is newer than " + design} {
			if !strings.Contains(errText, want) {
				t.Errorf("stwb %s: stderr lacks %q:\n%s", args[0], want, errText)
			}
		}
		for _, f := range []string{older, newer} {
			if _, err := os.Stat(f); err != nil {
				t.Fatalf("stwb %s, which only reads, removed %s", args[0], f)
			}
		}
	}
	model := editedModel(t, t.TempDir(), "m.json", func(tb map[string]any) {
		tb["TableData"].([]any)[0].(map[string]any)["State"] = map[string]any{"S": "CHANGED"}
	})
	code, _, errText := runCmd(t, "", "import", model, "--into", design)
	if code != 0 {
		t.Fatalf("import: exit %d\n%s", code, errText)
	}
	if _, err := os.Stat(older); err == nil {
		t.Error("import --into left the temp file older than the design")
	}
	if _, err := os.Stat(newer); err != nil {
		t.Error("import --into removed the temp file newer than the design, which may hold unsaved work")
	}
	for _, want := range []string{"removed " + older, newer + " is newer than " + design} {
		if !strings.Contains(errText, want) {
			t.Errorf("import: stderr lacks %q:\n%s", want, errText)
		}
	}
}
