package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"

	"stwb/designfile"
	"stwb/render"
	"stwb/samples"
)

func init() {
	register("samples", "[--json]  list the sample designs: name, patterns, items, title", runSamples)
	register("sample", "NAME [-o FILE] [--force]  write a sample design (to standard output, or to FILE)", runSample)
}

// sampleJSON is one row of `stwb samples --json`.
type sampleJSON struct {
	Name     string `json:"name"`
	Title    string `json:"title"`
	Patterns int    `json:"patterns"`
	Items    int    `json:"items"`
}

// runSamples lists the embedded samples as an aligned table, or as JSON for programs.
func runSamples(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("samples", flag.ContinueOnError)
	fset.SetOutput(stderr)
	asJSON := fset.Bool("json", false, "print JSON for programs")
	if err := fset.Parse(args); err != nil {
		return 2
	}
	if fset.NArg() != 0 {
		return usageError(stderr, "usage: stwb samples [--json]; to write one out: stwb sample NAME")
	}
	list := samples.List()
	if *asJSON {
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
func runSample(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("sample", flag.ContinueOnError)
	fset.SetOutput(stderr)
	out := fset.String("o", "", "write to this file instead of standard output (\"-\": standard output)")
	force := fset.Bool("force", false, "replace FILE if it exists")
	pos, flags := splitFlags(args, map[string]bool{"o": true})
	if err := fset.Parse(flags); err != nil {
		return 2
	}
	if len(pos) != 1 {
		return usageError(stderr, "usage: stwb sample NAME [-o FILE] [--force]; stwb samples lists the names")
	}
	s, ok := samples.Get(pos[0])
	if !ok {
		fmt.Fprintf(stderr, "stwb: no sample named %q. The samples are:\n", pos[0])
		for _, n := range samples.Names() {
			fmt.Fprintf(stderr, "  %s\n", n)
		}
		return 2
	}
	if *out == "" || *out == "-" {
		if _, err := stdout.Write(s.Data); err != nil {
			fmt.Fprintf(stderr, "stwb: writing the sample: %v\n", err)
			return 1
		}
		return 0
	}
	if _, err := os.Lstat(*out); err == nil && !*force {
		fmt.Fprintf(stderr, "stwb: %s exists; pass --force to replace it, or choose another file\n", *out)
		return 2
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(stderr, "stwb: %v\n", err)
		return 2
	}
	if err := designfile.WriteFileAtomic(*out, s.Data); err != nil {
		fmt.Fprintf(stderr, "stwb: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "wrote %s (%d patterns, %d items)\n", *out, s.Patterns, s.Items)
	return 0
}
