package ui

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"

	"stwb/internal/golden"
	"stwb/samples"
)

// writeKeysDoc writes docs/keys.md, the workbench's cheat sheet, from the KeyMap
// and the panes' own help, as the ? screen draws it: each pane's bindings, the
// global ones, the forms' and dialogs', and the palette's commands.
func writeKeysDoc(w io.Writer, m *Model) {
	k := m.w.km
	fmt.Fprint(w, "# The workbench's keys\n\n")
	fmt.Fprint(w, "Generated from the workbench's KeyMap (`ui/keys.go`) and its panes' help by `make docs`\n")
	fmt.Fprint(w, "(`go test ./ui -run TestKeysDocIsCurrent -update`); a test fails when they differ. In the\n")
	fmt.Fprint(w, "workbench, `?` shows the focused pane's keys and the commands.\n")
	table := func(title string, groups ...[]key.Binding) {
		fmt.Fprintf(w, "\n## %s\n\n| key | does |\n|---|---|\n", title)
		seen := map[string]bool{}
		for _, g := range groups {
			for _, b := range g {
				h := b.Help()
				if h.Key == "" || seen[h.Key+h.Desc] {
					continue
				}
				seen[h.Key+h.Desc] = true
				fmt.Fprintf(w, "| `%s` | %s |\n", strings.ReplaceAll(h.Key, "|", `\|`), h.Desc)
			}
		}
	}
	table("Everywhere",
		[]key.Binding{k.Pane[0], k.Pane[1], k.Pane[2], k.Pane[3], k.Pane[4], k.NextPane, k.PrevPane},
		[]key.Binding{k.Save, k.Open, k.Export, k.Undo, k.Redo, k.Palette, k.Help, k.Quit})
	for i, p := range m.panes {
		table(fmt.Sprintf("%d %s pane", i+1, p.Title()), p.FullHelp()...)
	}
	table("Forms and dialogs", []key.Binding{k.NextField, k.Complete, k.PrevField, k.Accept, k.Submit, k.Close, k.Confirm, k.Cancel})
	fmt.Fprint(w, "\n## Commands (press `:`)\n\n")
	for _, c := range paletteHelp() {
		name, desc, _ := strings.Cut(c, ": ")
		fmt.Fprintf(w, "- `:%s`: %s\n", name, desc)
	}
	fmt.Fprint(w, "\nMouse: the wheel scrolls, a click selects a row or a pane tab.\n")
}

// The checked-in docs/keys.md is what the KeyMap generates; -update rewrites it.
func TestKeysDocIsCurrent(t *testing.T) {
	doc, err := OpenSample(samples.Default)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	writeKeysDoc(&b, testModel(t, doc, 120, 40))
	path := filepath.Join("..", "docs", "keys.md")
	golden.CheckGenerated(t, path, b.Bytes(), "make docs (go test ./ui -run TestKeysDocIsCurrent -update)")
	for _, want := range []string{"`ctrl+s`", "`?`", "1 Patterns pane", "5 Review pane", "`:gsi"} {
		if !bytes.Contains(b.Bytes(), []byte(want)) {
			t.Errorf("docs/keys.md lacks %s", want)
		}
	}
}
