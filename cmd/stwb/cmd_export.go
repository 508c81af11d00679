package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"stwb/analysis"
	"stwb/designfile"
	"stwb/interop"
)

func init() {
	register("export", "FILE --format F [-o OUT]  workbench, cloudformation, terraform, cdk, markdown, dynamodb-json, go, typescript", runExport)
}

// runExport writes a design in another format (issue 7). Output goes to standard
// output, or atomically to -o OUT; dynamodb-json with -o writes numbered request
// files into the directory OUT. It never overwrites the design file itself. Exit
// status: 0 written; 2 invalid design, unknown format or usage.
func runExport(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "", "one of "+strings.Join(interop.FormatNames(), ", "))
	out := fs.String("o", "", "output file (a directory for dynamodb-json)")
	pkg := fs.String("package", "", "package name of the generated Go (default: from the design name)")
	quiet := fs.Bool("quiet", false, "no notes on standard error")
	force := fs.Bool("force", false, "replace an existing dynamodb-json output directory")
	pos, flags := splitFlags(args, map[string]bool{"format": true, "o": true, "package": true})
	if err := fs.Parse(flags); err != nil {
		return 2
	}
	if len(pos) != 1 || *format == "" {
		var b strings.Builder
		b.WriteString("usage: stwb export FILE --format F [-o OUT]\nformats:\n")
		for _, f := range interop.Formats {
			fmt.Fprintf(&b, "  %-15s %s\n", f.Name, f.Summary)
		}
		return usageError(stderr, "%s", strings.TrimRight(b.String(), "\n"))
	}
	if *out != "" && *out != "-" && sameFile(*out, pos[0]) {
		return usageError(stderr, "-o %s is the design file itself; export to another file", *out)
	}
	d, err := readDesign(pos[0], stdin)
	if err != nil {
		return reportInvalid(stderr, err)
	}
	warnStaleTemps(stderr, pos[0])
	opt := interop.Options{GoPackage: *pkg}
	if *format == "markdown" {
		// The design document carries the review, from the same run as its results
		// and costs.
		if opt.Analysis, err = analysis.Run(d.Design, analysis.Options{Review: true, ItemPos: d.ItemPos}); err != nil {
			fmt.Fprintf(stderr, "stwb export: %v\n", err)
			return 2
		}
	}
	design, warnings := interop.Exportable(d.Design, pos[0], d.ItemPos, *format)
	for _, w := range warnings {
		fmt.Fprintf(stderr, "stwb export: warning: %s\n", w)
	}
	res, err := interop.Export(design, *format, opt)
	if err != nil {
		fmt.Fprintf(stderr, "stwb export: %v\n", err)
		return 2
	}
	if !*quiet {
		for _, n := range res.Notes {
			fmt.Fprintf(stderr, "stwb export: note: %s\n", n)
		}
	}
	if *out == "" || *out == "-" {
		// Several request files go out one after another; `stwb import` reads such a
		// stream back.
		for _, f := range res.Files {
			stdout.Write(f.Data)
		}
		return 0
	}
	if *format == "dynamodb-json" {
		if _, err := os.Lstat(*out); err == nil && !*force {
			return usageError(stderr, "-o %s exists; pass --force to replace it", *out)
		}
		if err := writeDirAtomic(*out, res.Files); err != nil {
			fmt.Fprintf(stderr, "stwb export: %v\n", err)
			return 2
		}
		if !*quiet {
			fmt.Fprintf(stderr, "stwb export: wrote %d request file(s) to %s\n", len(res.Files), *out)
		}
		return 0
	}
	if err := designfile.WriteFileAtomic(*out, res.Files[0].Data); err != nil {
		fmt.Fprintf(stderr, "stwb export: %v\n", err)
		return 2
	}
	return 0
}

// writeDirAtomic writes files into a new directory dir as one step: into a temporary
// directory beside dir, each file synced, then renamed into place, so that a full
// disk or a kill leaves either the whole output or none of it. An existing dir (the
// caller has --force) is moved aside first and removed only once the new one is in.
func writeDirAtomic(dir string, files []interop.OutFile) (err error) {
	parent, base := filepath.Dir(dir), filepath.Base(dir)
	tmp, err := os.MkdirTemp(parent, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if err = os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		if err = designfile.WriteFileAtomic(filepath.Join(tmp, f.Name), f.Data); err != nil {
			return err
		}
	}
	var old string
	if st, serr := os.Lstat(dir); serr == nil {
		if !st.IsDir() {
			return fmt.Errorf("%s exists and is not a directory", dir)
		}
		old = tmp + ".old"
		if err = os.Rename(dir, old); err != nil {
			return err
		}
	}
	if err = os.Rename(tmp, dir); err != nil {
		if old != "" {
			os.Rename(old, dir) // put the previous output back
		}
		return err
	}
	if old != "" {
		os.RemoveAll(old)
	}
	if dh, derr := os.Open(parent); derr == nil { // the renames are durable once the parent is synced
		dh.Sync()
		dh.Close()
	}
	return nil
}
