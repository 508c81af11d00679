package layers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// pkg is one package of the module as `go list` describes it.
type pkg struct {
	path    string
	dir     string
	imports []string // its own imports
	deps    []string // everything it imports, directly or not
	files   []string // its Go files, tests excluded
}

// listModule runs `go list -deps` over the whole module once.
func listModule(t *testing.T) map[string]pkg {
	t.Helper()
	const f = `{{.ImportPath}}|{{.Dir}}|{{join .Imports " "}}|{{join .Deps " "}}|{{join .GoFiles " "}}`
	cmd := exec.Command("go", "list", "-f", f, "stwb/...")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string]pkg{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.Split(line, "|")
		if len(parts) != 5 {
			t.Fatalf("go list: unexpected line %q", line)
		}
		p := pkg{path: parts[0], dir: parts[1], imports: strings.Fields(parts[2]), deps: strings.Fields(parts[3]), files: strings.Fields(parts[4])}
		pkgs[p.path] = p
	}
	if _, ok := pkgs["stwb/model"]; !ok {
		t.Fatalf("go list names no stwb/model: %v", out)
	}
	return pkgs
}

// TestModelIsTypesAndRules: model is the design's types and rules, at the bottom of
// the layers (ARCHITECTURE.md). Reading and writing files is designfile's, wire JSON
// dynamojson's; model imports no package of ours at all (not even under internal/),
// no YAML library and no unsafe, and starts no goroutine.
func TestModelIsTypesAndRules(t *testing.T) {
	pkgs := listModule(t)
	m := pkgs["stwb/model"]
	for _, d := range m.deps {
		switch {
		case d == "gopkg.in/yaml.v3":
			t.Errorf("model imports %s (go list -deps ./model)", d)
		case strings.HasPrefix(d, "stwb/"):
			t.Errorf("model imports %s (go list -deps ./model)", d)
		}
	}
	if slices.Contains(m.imports, "unsafe") {
		t.Errorf("model imports unsafe")
	}
	fset := token.NewFileSet()
	for _, name := range m.files {
		f, err := parser.ParseFile(fset, filepath.Join(m.dir, name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if g, ok := n.(*ast.GoStmt); ok {
				t.Errorf("%s: model starts a goroutine", fset.Position(g.Pos()))
			}
			return true
		})
	}
}

// TestOnlyTheUIImportsBubbleTea: the terminal UI framework is the workbench's
// (ui) and the command line's that starts it (cmd/stwb); every other package is
// usable without it.
func TestOnlyTheUIImportsBubbleTea(t *testing.T) {
	allowed := map[string]bool{"stwb/ui": true, "stwb/cmd/stwb": true}
	tea := []string{"github.com/charmbracelet/bubbletea", "github.com/charmbracelet/bubbles"}
	for path, p := range listModule(t) {
		if allowed[path] {
			continue
		}
		for _, d := range p.deps {
			for _, prefix := range tea {
				if d == prefix || strings.HasPrefix(d, prefix+"/") {
					t.Errorf("%s imports %s (go list -deps %s)", path, d, path)
				}
			}
		}
	}
}

// TestEngineReadsNoDesignFiles: the engine loads items from a small interface
// (engine.Items, engine.Bulk) and knows nothing of the design file that holds them;
// package lazyload joins the two for a one-pass load.
func TestEngineReadsNoDesignFiles(t *testing.T) {
	e := listModule(t)["stwb/engine"]
	for _, d := range e.deps {
		if d == "stwb/designfile" || d == "gopkg.in/yaml.v3" {
			t.Errorf("engine imports %s (go list -deps ./engine)", d)
		}
	}
}
