package render

import (
	"os/exec"
	"strings"
	"testing"
)

// render is pure text (ARCHITECTURE.md: nothing lower knows anything higher): it must never
// pull in Bubble Tea, nor the workbench, nor the AWS SDK (the verify report it
// draws comes from package verify, which has none; live talks to the endpoint).
func TestRenderIsPureText(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Skipf("go list unavailable: %v\n%s", err, out)
	}
	for _, bad := range []string{"github.com/charmbracelet/bubbletea", "github.com/charmbracelet/bubbles", "stwb/ui",
		"github.com/aws/aws-sdk-go-v2", "github.com/aws/smithy-go", "stwb/live"} {
		for _, dep := range strings.Fields(string(out)) {
			if dep == bad || strings.HasPrefix(dep, bad+"/") {
				t.Errorf("render depends on %s", dep)
			}
		}
	}
}
