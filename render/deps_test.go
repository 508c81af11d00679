package render

import (
	"os/exec"
	"strings"
	"testing"
)

// render is pure text (DESIGN.md "Imports point down this list only"): it must never
// pull in Bubble Tea, nor the workbench.
func TestRenderDoesNotImportTheUI(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Skipf("go list unavailable: %v\n%s", err, out)
	}
	for _, bad := range []string{"github.com/charmbracelet/bubbletea", "github.com/charmbracelet/bubbles", "stwb/ui"} {
		for _, dep := range strings.Fields(string(out)) {
			if dep == bad || strings.HasPrefix(dep, bad+"/") {
				t.Errorf("render depends on %s", dep)
			}
		}
	}
}
