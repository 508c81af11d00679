package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"stwb/designfile"
	"stwb/interop"
)

func init() { register(newExportCmd) }

func newExportCmd(e *env) *cobra.Command {
	var o exportOptions
	cmd := &cobra.Command{
		Use:   "export FILE --format F",
		Short: "Write a design in another format (CloudFormation, Terraform, CDK, Markdown ...)",
		Long: `export reads the design FILE ("-": standard input) and writes it in the format
--format names, to standard output or atomically to --output (-o) OUT. It never
writes over the design file itself. dynamodb-json with -o writes numbered
BatchWriteItem request files into the directory OUT, which must not exist unless
--force is given.

Formats:
` + formatList() + `
Exit status: 0 written; 2 an invalid design, an unknown format or usage.`,
		Example: `  stwb export mydesign.yaml --format cloudformation -o table.yaml
  stwb export mydesign.yaml --format markdown > orders-design.md
  stwb export mydesign.yaml --format go --package keys -o keys/keys.go
  stwb export mydesign.yaml --format dynamodb-json -o requests/`,
		Args:              usageArgs(1, 1),
		ValidArgsFunction: completeDesignFiles,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(runExport(e, args[0], o))
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "", "one of "+strings.Join(interop.FormatNames(), ", "))
	f.StringVarP(&o.out, "output", "o", "", "output file (a directory for dynamodb-json); default standard output")
	f.StringVar(&o.pkg, "package", "", "package name of the generated Go (default: from the design name)")
	f.BoolVar(&o.quiet, "quiet", false, "no notes on standard error")
	f.BoolVar(&o.force, "force", false, "replace an existing dynamodb-json output directory")
	complete(cmd, "format", fixed(interop.FormatNames()...))
	complete(cmd, "output", completeFiles)
	complete(cmd, "package", cobra.NoFileCompletions)
	return cmd
}

// exportOptions are export's flags.
type exportOptions struct {
	format, out, pkg string
	quiet, force     bool
}

// formatList is the export formats, one a line with what each is.
func formatList() string {
	var b strings.Builder
	for _, f := range interop.Formats {
		fmt.Fprintf(&b, "  %-15s %s\n", f.Name, f.Summary)
	}
	return b.String()
}

// runExport writes a design in another format (issue 7). Output goes to standard
// output, or atomically to -o OUT; dynamodb-json with -o writes numbered request
// files into the directory OUT. It never overwrites the design file itself.
func runExport(e *env, file string, o exportOptions) int {
	stdin, stdout, stderr := e.stdin, e.stdout, e.stderr
	if o.format == "" {
		return usageError(stderr, "export", "--format is required, one of %s", strings.Join(interop.FormatNames(), ", "))
	}
	if o.out != "" && o.out != "-" && sameFile(o.out, file) {
		return usageError(stderr, "export", "-o %s is the design file itself; export to another file", o.out)
	}
	d, err := readDesign(file, stdin)
	if err != nil {
		return reportInvalid(stderr, err)
	}
	warnStaleTemps(stderr, file)
	res, warnings, err := interop.ExportFile(d.Design, file, d.ItemPos, o.format, interop.Options{GoPackage: o.pkg})
	for _, w := range warnings {
		fmt.Fprintf(stderr, "stwb export: warning: %s\n", w)
	}
	if err != nil {
		fmt.Fprintf(stderr, "stwb export: %v\n", err)
		return 2
	}
	if !o.quiet {
		for _, n := range res.Notes {
			fmt.Fprintf(stderr, "stwb export: note: %s\n", n)
		}
	}
	if o.out == "" || o.out == "-" {
		// Several request files go out one after another; `stwb import` reads such a
		// stream back.
		for _, f := range res.Files {
			stdout.Write(f.Data)
		}
		return 0
	}
	if o.format == "dynamodb-json" {
		if _, err := os.Lstat(o.out); err == nil && !o.force {
			return usageError(stderr, "export", "-o %s exists; pass --force to replace it", o.out)
		}
		if err := writeDirAtomic(o.out, res.Files); err != nil {
			fmt.Fprintf(stderr, "stwb export: %v\n", err)
			return 2
		}
		if !o.quiet {
			fmt.Fprintf(stderr, "stwb export: wrote %d request file(s) to %s\n", len(res.Files), o.out)
		}
		return 0
	}
	if err := designfile.WriteFileAtomic(o.out, res.Files[0].Data); err != nil {
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
