package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"stwb/designfile"
	"stwb/render"
	"stwb/samples"
)

func init() {
	register(newSamplesCmd)
	register(newSampleCmd)
}

func newSamplesCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "samples",
		Short: "List the sample designs: name, patterns, items, title",
		Long: `samples lists the sample designs built into stwb, one a line: the name that
"stwb sample NAME" writes out, the number of patterns and items, and the title.
It reads and writes no file.`,
		Example: `  stwb samples
  stwb samples --json`,
		Args: usageArgs(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(runSamples(e, asJSON))
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON for programs")
	return cmd
}

func newSampleCmd(e *env) *cobra.Command {
	var out string
	var force bool
	cmd := &cobra.Command{
		Use:   "sample NAME",
		Short: "Write a sample design, to standard output or to a file",
		Long: `sample writes the sample design NAME ("stwb samples" lists them) exactly as
shipped, comments included, to standard output or atomically to --output (-o)
FILE. A FILE that exists is left alone unless --force is given.

Exit status: 0 written; 1 the write failed; 2 no such sample, FILE exists, or usage.`,
		Example: `  stwb sample orders -o orders.yaml
  stwb sample page-view-poor > poor.yaml`,
		Args: usageArgs(1, 1),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return samples.Names(), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(runSample(e, args[0], out, force))
		},
	}
	f := cmd.Flags()
	f.StringVarP(&out, "output", "o", "", "write to this file instead of standard output (\"-\": standard output)")
	f.BoolVar(&force, "force", false, "replace FILE if it exists")
	complete(cmd, "output", completeDesignFlag)
	return cmd
}

// sampleJSON is one row of `stwb samples --json`.
type sampleJSON struct {
	Name     string `json:"name"`
	Title    string `json:"title"`
	Patterns int    `json:"patterns"`
	Items    int    `json:"items"`
}

// runSamples lists the embedded samples as an aligned table, or as JSON for programs.
func runSamples(e *env, asJSON bool) int {
	stdout := e.stdout
	list := samples.List()
	if asJSON {
		rows := make([]sampleJSON, len(list))
		for i, s := range list {
			rows[i] = sampleJSON{s.Name, s.Title, s.Patterns, s.Items}
		}
		writeJSON(stdout, rows)
		return 0
	}
	io.WriteString(stdout, render.Samples(list))
	return 0
}

// runSample writes one sample's YAML exactly as shipped (comments included), to
// standard output or to the -o FILE. A FILE that exists is left alone unless --force
// is given: a sample written over someone's design would lose their work, and the
// write is atomic (temporary file, sync, rename) so a crash never leaves half a file.
// The existence check and the rename are two steps; a file created between them is
// replaced, which only a concurrent writer of the same path can cause.
func runSample(e *env, name, out string, force bool) int {
	stdout, stderr := e.stdout, e.stderr
	s, ok := samples.Get(name)
	if !ok {
		fmt.Fprintf(stderr, "stwb sample: no sample named %q. The samples are:\n", name)
		for _, n := range samples.Names() {
			fmt.Fprintf(stderr, "  %s\n", n)
		}
		return 2
	}
	if out == "" || out == "-" {
		if _, err := stdout.Write(s.Data); err != nil {
			fmt.Fprintf(stderr, "stwb sample: writing the sample: %v\n", err)
			return 1
		}
		return 0
	}
	if _, err := os.Lstat(out); err == nil && !force {
		fmt.Fprintf(stderr, "stwb sample: %s exists; pass --force to replace it, or choose another file\n", out)
		return 2
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(stderr, "stwb sample: %v\n", err)
		return 2
	}
	if err := designfile.WriteFileAtomic(out, s.Data); err != nil {
		fmt.Fprintf(stderr, "stwb sample: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "wrote %s (%d patterns, %d items)\n", out, s.Patterns, s.Items)
	return 0
}
