package layers

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// ARCHITECTURE.md is held to the code: every package of the module has its
// paragraph (**name**: ...), every paragraph names a package that exists, and each
// paragraph's "Imports:" line lists exactly the packages of the module that the
// package's own code imports (tests left out), or says "none of ours".
func TestArchitectureMatchesTheCode(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	pkgs := listModule(t)
	described := architecturePackages(string(doc))
	if len(described) < 10 {
		t.Fatalf("found %d package paragraphs in ARCHITECTURE.md; the test no longer reads it right", len(described))
	}
	for path, p := range pkgs {
		name := strings.TrimPrefix(path, "stwb/")
		listed, ok := described[name]
		if !ok {
			t.Errorf("ARCHITECTURE.md has no paragraph for package %s (**%s**: what it is ... Imports: ...)", name, name)
			continue
		}
		var own []string
		for _, imp := range p.imports {
			if strings.HasPrefix(imp, "stwb/") {
				own = append(own, strings.TrimPrefix(imp, "stwb/"))
			}
		}
		slices.Sort(own)
		if listed == nil {
			t.Errorf("ARCHITECTURE.md's paragraph on %s has no \"Imports:\" line; it imports %v", name, own)
			continue
		}
		if !slices.Equal(listed, own) {
			t.Errorf("ARCHITECTURE.md says %s imports %v; it imports %v", name, listed, own)
		}
	}
	for name := range described {
		if _, ok := pkgs["stwb/"+name]; !ok {
			t.Errorf("ARCHITECTURE.md describes package %s, which does not exist", name)
		}
	}
}

var (
	paragraphHead = regexp.MustCompile(`(?m)^\*\*([a-z][a-z0-9/]*)\*\*`)
	importsLine   = regexp.MustCompile(`(?m)^Imports: (.*)$`)
	backticked    = regexp.MustCompile("`([^`]+)`")
)

// architecturePackages reads each package paragraph: the package it names and the
// packages of its Imports line, sorted (nil when the line is missing, empty for
// "none of ours").
func architecturePackages(doc string) map[string][]string {
	out := map[string][]string{}
	heads := paragraphHead.FindAllStringSubmatchIndex(doc, -1)
	for i, h := range heads {
		end := len(doc)
		if i+1 < len(heads) {
			end = heads[i+1][0]
		}
		name := doc[h[2]:h[3]]
		m := importsLine.FindStringSubmatch(doc[h[0]:end])
		if m == nil {
			out[name] = nil
			continue
		}
		imports := []string{}
		for _, b := range backticked.FindAllStringSubmatch(m[1], -1) {
			imports = append(imports, b[1])
		}
		slices.Sort(imports)
		out[name] = imports
	}
	return out
}
