package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mattn/go-isatty"

	"stwb/interop"
	"stwb/model"
)

func init() {
	register("import", "FILE.json [-o OUT] [--table NAME] | --format dynamodb-json FILE... --into DESIGN [-o OUT]  NoSQL Workbench model or DynamoDB JSON items in", runImport)
}

const importUsage = `usage:
  stwb import MODEL.json [-o OUT.yaml|DIR] [--table NAME]
      a NoSQL Workbench data model (1.0, 2.0, 3.0) becomes a design; with several
      tables, pick one with --table or give -o DIR for one design file per table
  stwb import --format dynamodb-json DATA... --into DESIGN.yaml [-o OUT.yaml]
      adds items from S3 export lines, Scan output or BatchWriteItem files to a
      design (written in place unless -o); nothing is written if any item is bad`

// runImport reads another tool's files into a design (issue 7). Exit status: 0
// imported; 2 bad input (with the JSON path or line of the problem) or usage.
func runImport(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "", "workbench (default) or dynamodb-json")
	out := fs.String("o", "", "output file (or directory, for a model with several tables)")
	table := fs.String("table", "", "the table of a multi-table model to import")
	into := fs.String("into", "", "the design that dynamodb-json items are added to")
	quiet := fs.Bool("quiet", false, "no progress or notes on standard error")
	pos, flags := splitFlags(args, map[string]bool{"format": true, "o": true, "table": true, "into": true})
	if err := fs.Parse(flags); err != nil {
		return 2
	}
	if *format == "" && *into != "" {
		*format = "dynamodb-json"
	}
	switch *format {
	case "", "workbench":
		if len(pos) != 1 || *into != "" {
			return usageError(stderr, "%s", importUsage)
		}
		return importWorkbench(pos[0], *out, *table, *quiet, stdin, stdout, stderr)
	case "dynamodb-json":
		if len(pos) == 0 || *into == "" || *table != "" {
			return usageError(stderr, "%s", importUsage)
		}
		return importDynamoDBJSON(pos, *into, *out, *quiet, stdin, stdout, stderr)
	}
	return usageError(stderr, "unknown import format %q; use workbench or dynamodb-json", *format)
}

func importWorkbench(path, out, table string, quiet bool, stdin io.Reader, stdout, stderr io.Writer) int {
	data, err := readInput(path, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "stwb import: %v\n", err)
		return 2
	}
	r, err := interop.ImportWorkbench(data)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", path, err)
		return 2
	}
	designs := r.Designs
	if table != "" {
		var picked []*model.Design
		for _, d := range designs {
			if d.Table.Name == table {
				picked = append(picked, d)
			}
		}
		if len(picked) == 0 {
			fmt.Fprintf(stderr, "%s: no table %q in the model; it has %s\n", path, table, tableNames(designs))
			return 2
		}
		designs = picked
	}
	if !quiet {
		for _, n := range r.Notes {
			fmt.Fprintf(stderr, "stwb import: note: %s\n", n)
		}
	}
	// Render every design first and check it loads back as a valid design, so that
	// nothing is written when any table fails.
	texts := make([][]byte, len(designs))
	for i, d := range designs {
		text, err := model.Marshal(d)
		if err == nil {
			_, err = model.Parse(d.Table.Name+".yaml", text)
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: table %s does not make a valid design:\n", path, d.Table.Name)
			return reportInvalid(stderr, err)
		}
		texts[i] = text
	}
	if len(designs) > 1 {
		if out == "" {
			fmt.Fprintf(stderr, "%s: the model has %d tables (%s); pick one with --table NAME, or give -o DIR for one design file per table\n", path, len(designs), tableNames(designs))
			return 2
		}
		if err := os.MkdirAll(out, 0o755); err != nil {
			fmt.Fprintf(stderr, "stwb import: %v\n", err)
			return 2
		}
		for i, d := range designs {
			target := filepath.Join(out, fileSafe(d.Table.Name)+".yaml")
			if sameFile(target, path) {
				fmt.Fprintf(stderr, "stwb import: %s would overwrite the model being imported\n", target)
				return 2
			}
			if err := model.WriteFileAtomic(target, texts[i]); err != nil {
				fmt.Fprintf(stderr, "stwb import: %v\n", err)
				return 2
			}
			if !quiet {
				fmt.Fprintf(stderr, "stwb import: wrote %s (%d items)\n", target, len(d.Items))
			}
		}
		return 0
	}
	if out == "" || out == "-" {
		stdout.Write(texts[0])
		return 0
	}
	if sameFile(out, path) {
		fmt.Fprintf(stderr, "stwb import: -o %s would overwrite the model being imported\n", out)
		return 2
	}
	if err := model.WriteFileAtomic(out, texts[0]); err != nil {
		fmt.Fprintf(stderr, "stwb import: %v\n", err)
		return 2
	}
	return 0
}

func tableNames(ds []*model.Design) string {
	var ns []string
	for _, d := range ds {
		ns = append(ns, d.Table.Name)
	}
	sort.Strings(ns)
	return strings.Join(ns, ", ")
}

// fileSafe keeps a table name usable as a file name.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 || r == ':' {
			return '_'
		}
		return r
	}, s)
}

// largeInput is the size from which progress shows even when standard error is
// not a terminal (a CI log then sees that a long import is moving).
const largeInput = 64 << 20

func importDynamoDBJSON(files []string, into, out string, quiet bool, stdin io.Reader, stdout, stderr io.Writer) int {
	d, err := model.Load(into)
	if err != nil {
		return reportInvalid(stderr, err)
	}
	before := len(d.Items)
	var all []interop.SourceItem
	for _, f := range files {
		items, layout, err := readDataFile(f, quiet, stdin, stderr)
		if err != nil {
			var le *interop.LineError
			if errors.As(err, &le) {
				fmt.Fprintf(stderr, "%s:%d: %s\n", f, le.Line, strings.TrimPrefix(le.Error(), fmt.Sprintf("line %d: ", le.Line)))
			} else {
				fmt.Fprintf(stderr, "%s: %v\n", f, err)
			}
			fmt.Fprintln(stderr, "stwb import: nothing was imported")
			return 2
		}
		for i := range items {
			items[i].File = f
		}
		if !quiet {
			fmt.Fprintf(stderr, "stwb import: %s: %d items (%s)\n", f, len(items), layout)
		}
		all = append(all, items...)
	}
	added, replaced, err := interop.MergeItems(d, all)
	if err != nil {
		fmt.Fprintf(stderr, "stwb import: %v\n", err)
		return 2
	}
	target := into
	if out != "" {
		target = out
	}
	// The merged design must still be a valid design before it replaces anything.
	text, err := model.Marshal(d)
	if err == nil {
		_, err = model.Parse(target, text)
	}
	if err != nil {
		fmt.Fprintln(stderr, "stwb import: the design would not be valid with these items; nothing was written:")
		return reportInvalid(stderr, err)
	}
	if target == "-" {
		stdout.Write(text)
	} else if err := model.WriteFileAtomic(target, text); err != nil {
		fmt.Fprintf(stderr, "stwb import: %v\n", err)
		return 2
	}
	if !quiet {
		fmt.Fprintf(stderr, "stwb import: %d items added, %d replaced; the design has %d items (had %d)\n", added, replaced, len(d.Items), before)
	}
	return 0
}

// readDataFile reads one DynamoDB JSON file, showing progress on standard error
// when it is a terminal or the file is large.
func readDataFile(path string, quiet bool, stdin io.Reader, stderr io.Writer) ([]interop.SourceItem, interop.DataLayout, error) {
	var r io.Reader = stdin
	var size int64
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, "", err
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil {
			size = st.Size()
		}
		r = f
	}
	var progress interop.Progress
	tty := false
	if f, ok := stderr.(*os.File); ok {
		tty = isatty.IsTerminal(f.Fd())
	}
	if !quiet && (tty || size >= largeInput) {
		last := -1
		progress = func(done int64) {
			pct := 0
			if size > 0 {
				// done counts uncompressed bytes; a gzip file's size does not.
				pct = int(min(done*100/size, 100))
			}
			switch {
			case tty:
				fmt.Fprintf(stderr, "\rstwb import: %s: %3d%%", path, pct)
			case pct/10 != last/10:
				fmt.Fprintf(stderr, "stwb import: %s: %d%%\n", path, pct)
			}
			last = pct
		}
	}
	items, layout, err := interop.ReadDynamoDBJSON(r, progress)
	if progress != nil && tty {
		fmt.Fprint(stderr, "\r\033[K")
	}
	return items, layout, err
}

// sameFile reports whether two paths name the same file (false when either does
// not exist, or is standard input).
func sameFile(a, b string) bool {
	if a == "-" || b == "-" {
		return false
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	if err1 != nil || err2 != nil {
		aa, _ := filepath.Abs(a)
		bb, _ := filepath.Abs(b)
		return aa == bb
	}
	return os.SameFile(sa, sb)
}
