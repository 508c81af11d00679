package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"stwb/internal/golden"
)

// writeCommandsDoc writes docs/commands.md: every command of the tree, as its
// --help says it, in one page. The page is generated from the tree, so it cannot
// drift from the command line (TestCommandsDocIsCurrent holds the checked-in copy
// to it).
func writeCommandsDoc(w io.Writer, root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	root.InitDefaultVersionFlag()
	fmt.Fprint(w, "# stwb's commands\n\n")
	fmt.Fprint(w, "Generated from the command line itself by `make docs` (`go test ./cmd/stwb -run TestCommandsDocIsCurrent -update`);\n")
	fmt.Fprint(w, "a test fails when this page and `stwb CMD --help` differ. The design file's fields and the\n")
	fmt.Fprint(w, "output shapes are in [FORMAT.md](FORMAT.md).\n\n")
	var cmds []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" {
			return
		}
		c.InitDefaultHelpFlag()
		cmds = append(cmds, c)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for _, c := range cmds {
		fmt.Fprintf(w, "- [`%s`](#%s): %s\n", c.CommandPath(), strings.ReplaceAll(c.CommandPath(), " ", "-"), c.Short)
	}
	for _, c := range cmds {
		fmt.Fprintf(w, "\n## %s\n\n%s\n\n", c.CommandPath(), c.Short)
		fmt.Fprintf(w, "```\n%s\n```\n", c.UseLine())
		if c.Long != "" {
			fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.Long))
		}
		if c.Example != "" {
			fmt.Fprintf(w, "\nExamples:\n\n```\n%s\n```\n", strings.TrimRight(c.Example, "\n"))
		}
		if flags := c.NonInheritedFlags().FlagUsages(); strings.TrimSpace(flags) != "" {
			fmt.Fprintf(w, "\nFlags:\n\n```\n%s```\n", flags)
		}
	}
}

// The checked-in docs/commands.md is what the command tree generates; -update
// rewrites it.
func TestCommandsDocIsCurrent(t *testing.T) {
	var b bytes.Buffer
	writeCommandsDoc(&b, newRootCmd(&env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}))
	path := filepath.Join("..", "..", "docs", "commands.md")
	golden.CheckGenerated(t, path, b.Bytes(), "make docs (go test ./cmd/stwb -run TestCommandsDocIsCurrent -update)")
}
