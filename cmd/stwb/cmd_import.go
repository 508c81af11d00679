package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"stwb/designfile"
	"stwb/interop"
	"stwb/model"
)

func init() { register(newImportCmd) }

func newImportCmd(e *env) *cobra.Command {
	var o importOptions
	cmd := &cobra.Command{
		Use:   "import MODEL.json | --endpoint URL --table NAME | --format dynamodb-json DATA... --into DESIGN",
		Short: "Read a NoSQL Workbench model, a live table or DynamoDB JSON items into a design",
		Long: strings.TrimPrefix(importUsage, "usage:\n") + `

The design is written to standard output, or atomically to -o; nothing is written
when any part fails. Exit status: 0 imported; 2 bad input (with the JSON path or
line of the problem), a refused overwrite or merge, or usage.`,
		Example: `  stwb import model.json -o mydesign.yaml
  stwb import model.json --into mydesign.yaml
  stwb import --endpoint http://localhost:8000 --table Orders -o orders.yaml
  stwb import --format dynamodb-json dump.json --into mydesign.yaml`,
		Args: cobra.ArbitraryArgs,
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			return []string{"json", "jsonl"}, cobra.ShellCompDirectiveFilterFileExt
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(runImport(e, args, o))
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "", "workbench or dynamodb-json (default: read from the file)")
	f.StringVarP(&o.out, "output", "o", "", "output file (or directory, for a model with several tables)")
	f.StringVar(&o.table, "table", "", "the table of a multi-table model to import; with dynamodb-json, the table whose BatchWriteItem requests may go into the design")
	f.StringVar(&o.into, "into", "", "the design that the model is merged into, or dynamodb-json items are added to")
	f.BoolVar(&o.force, "force", false, "replace an existing file, or merge even when it breaks patterns")
	f.StringVar(&o.endpoint, "endpoint", "", "import from a live table at this endpoint (with --table); AWS when --region or --profile is given instead")
	f.StringVar(&o.region, "region", "", "live import: AWS region")
	f.StringVar(&o.profile, "profile", "", "live import: profile of ~/.aws/config")
	f.IntVar(&o.sample, "sample", defaultSample, "live import: read at most this many items")
	f.BoolVar(&o.all, "all", false, "live import: read every item of the table (billed per page)")
	f.BoolVar(&o.yes, "yes", false, "live import: do not ask before reading from AWS")
	f.BoolVar(&o.skipInvalid, "skip-invalid", false, "import the valid items of a model or data file and list the invalid ones")
	f.BoolVar(&o.quiet, "quiet", false, "no progress or notes on standard error")
	complete(cmd, "format", fixed("workbench", "dynamodb-json"))
	complete(cmd, "output", completeFiles)
	complete(cmd, "into", completeDesignFlag)
	for _, name := range []string{"table", "endpoint", "region", "profile", "sample"} {
		complete(cmd, name, cobra.NoFileCompletions)
	}
	return cmd
}

// importOptions are import's flags.
type importOptions struct {
	format, out, table, into            string
	endpoint, region, profile           string
	sample                              int
	force, all, yes, skipInvalid, quiet bool
}

const importUsage = `usage:
  stwb import MODEL.json [-o OUT.yaml|DIR] [--into DESIGN.yaml] [--table NAME] [--force] [--skip-invalid]
      a NoSQL Workbench data model (1.0, 2.0, 3.0) becomes a design; with several
      tables, pick one with --table or give -o DIR for one design file per table.
      Into an existing design (--into, or -o onto a design file) the model's table,
      indexes, entities and items are merged and the design's patterns kept; a
      merge that would break a pattern, or replacing any other file, needs --force
  stwb import --endpoint URL --table NAME [-o OUT.yaml] [--into DESIGN.yaml] [--sample N | --all] [--yes]
      a live table becomes a design: DescribeTable, then a sample of its items
      (parallel Scan, 1000 items unless --sample; the read cost is printed first and
      confirmed on AWS), grouped into entities with inferred key templates
  stwb import --format dynamodb-json DATA... --into DESIGN.yaml [-o OUT.yaml] [--table NAME] [--skip-invalid]
      adds items from S3 export lines, Scan output or BatchWriteItem files to a
      design (written in place unless -o); nothing is written if any item is bad,
      unless --skip-invalid (the valid items are added, the invalid ones listed).
      BatchWriteItem requests for another table than the design's are refused
      unless --table names that table`

// runImport reads another tool's files into a design (issues 7 and 16). Exit
// status: 0 imported; 2 bad input (with the JSON path or line of the problem), a
// refused overwrite or merge, or usage.
func runImport(e *env, pos []string, o importOptions) int {
	stdin, stdout, stderr := e.stdin, e.stdout, e.stderr
	format := o.format
	if o.endpoint != "" || ((o.region != "" || o.profile != "") && len(pos) == 0) {
		if len(pos) != 0 || format != "" {
			return usageError(stderr, "import", "%s", importUsage)
		}
		if o.sample < 1 {
			return usageError(stderr, "import", "--sample must be at least 1; --all reads the whole table")
		}
		return importLive(liveImport{endpoint: o.endpoint, region: o.region, profile: o.profile, table: o.table, sample: o.sample, all: o.all, yes: o.yes},
			o.out, o.into, o.force, o.quiet, stdin, stdout, stderr)
	}
	if format == "" && o.into != "" {
		format = "dynamodb-json"
		if len(pos) == 1 && sniffFile(pos[0]) == interop.FormatWorkbench {
			format = "workbench"
		}
	}
	switch format {
	case "", "workbench":
		if len(pos) != 1 {
			return usageError(stderr, "import", "%s", importUsage)
		}
		return importWorkbench(pos[0], o.out, o.into, o.table, o.force, o.skipInvalid, o.quiet, stdin, stdout, stderr)
	case "dynamodb-json":
		if len(pos) == 0 || o.into == "" {
			return usageError(stderr, "import", "%s", importUsage)
		}
		return importDynamoDBJSON(pos, o.into, o.out, o.table, o.force, o.skipInvalid, o.quiet, stdin, stdout, stderr)
	}
	return usageError(stderr, "import", "unknown import format %q; use workbench or dynamodb-json", format)
}

func importWorkbench(path, out, into, table string, force, skipInvalid, quiet bool, stdin io.Reader, stdout, stderr io.Writer) int {
	data, err := readInput(path, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "stwb import: %v\n", err)
		return 2
	}
	r, err := interop.ImportWorkbenchWith(data, interop.WorkbenchOptions{SkipInvalid: skipInvalid})
	if err != nil {
		return reportImportErrors(stderr, path, data, err)
	}
	if len(r.Skipped) > 0 {
		fmt.Fprintf(stderr, "stwb import: --skip-invalid: left out the invalid items (DynamoDB would refuse them too):\n")
		for _, e := range r.Skipped {
			fmt.Fprintf(stderr, "  skipped %s: %s\n", path, e)
		}
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
	return writeDesigns(path, designs, out, into, force, quiet, stdout, stderr)
}

// writeDesigns writes imported designs (from the source named source) to their
// targets: standard output, -o FILE, -o DIR (one file per table), or merged into
// an existing design (mergeTarget). Every design is rendered and checked before
// anything is written, so nothing is written when any fails.
func writeDesigns(path string, designs []*model.Design, out, into string, force, quiet bool, stdout, stderr io.Writer) int {
	if len(designs) > 1 {
		if into != "" {
			fmt.Fprintf(stderr, "%s: the model has %d tables (%s); pick the one to merge into %s with --table NAME\n", path, len(designs), tableNames(designs), into)
			return 2
		}
		if out == "" || out == "-" {
			fmt.Fprintf(stderr, "%s: the model has %d tables (%s); pick one with --table NAME, or give -o DIR for one design file per table\n", path, len(designs), tableNames(designs))
			return 2
		}
		if st, err := os.Stat(out); (err == nil && !st.IsDir()) || (err != nil && isDesignFileName(out)) {
			fmt.Fprintf(stderr, "%s: the model has %d tables (%s); -o %s must be a directory (one design file per table), or pick one table with --table NAME\n", path, len(designs), tableNames(designs), out)
			return 2
		}
	}
	// Decide every target and render every design first, so that nothing is written
	// when any table fails.
	type write struct {
		target string
		text   []byte
		d      *model.Design
	}
	var writes []write
	for _, d := range designs {
		w := write{target: out, d: d}
		switch {
		case into != "":
			w.target = into
			if out != "" {
				w.target = out
			}
		case len(designs) > 1:
			w.target = filepath.Join(out, fileSafe(d.Table.Name)+".yaml")
		}
		if w.target != "" && w.target != "-" && sameFile(w.target, path) {
			fmt.Fprintf(stderr, "stwb import: %s would overwrite the model being imported\n", w.target)
			return 2
		}
		merged, code := mergeTarget(d, into, w.target, force, quiet, stderr)
		if code != 0 {
			return code
		}
		w.d = merged.Design
		text, err := merged.Marshal()
		if err == nil {
			_, err = designfile.Parse(w.target, text)
		}
		if err != nil {
			if merged.Design != d {
				fmt.Fprintf(stderr, "stwb import: %s merged with table %s would not be a valid design (lines of the file as it would be written); nothing was written:\n", w.target, d.Table.Name)
			} else {
				fmt.Fprintf(stderr, "%s: table %s does not make a valid design:\n", path, d.Table.Name)
			}
			return reportInvalid(stderr, err)
		}
		w.text = text
		writes = append(writes, w)
	}
	for _, w := range writes {
		if w.target == "" || w.target == "-" {
			stdout.Write(w.text)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(w.target), 0o755); err != nil {
			fmt.Fprintf(stderr, "stwb import: %v\n", err)
			return 2
		}
		if err := writeDesignFile(stderr, w.target, w.text); err != nil {
			fmt.Fprintf(stderr, "stwb import: %v\n", err)
			return 2
		}
		if !quiet {
			fmt.Fprintf(stderr, "stwb import: wrote %s (%d items, %d patterns)\n", w.target, len(w.d.Items), len(w.d.Patterns))
		}
	}
	return 0
}

// mergeTarget decides what an imported design becomes at target. A target that
// does not exist gets the design as imported. An existing design (the --into
// design, or a design file at -o) gets the model merged in, keeping its patterns
// and everything else the model cannot hold (interop.MergeDesign); the merge is
// refused, naming each pattern, when it would break one, unless force. Any other
// existing file is replaced only with force. Standard output is never a merge.
func mergeTarget(d *model.Design, into, target string, force, quiet bool, stderr io.Writer) (*designfile.File, int) {
	from := into
	if from == "" {
		if target == "" || target == "-" {
			return &designfile.File{Design: d}, 0
		}
		if _, err := os.Lstat(target); errors.Is(err, fs.ErrNotExist) {
			return &designfile.File{Design: d}, 0
		} else if err != nil {
			fmt.Fprintf(stderr, "stwb import: %v\n", err)
			return nil, 2
		}
		from = target
	} else if target != into && target != "-" {
		if _, err := os.Lstat(target); err == nil && !force {
			fmt.Fprintf(stderr, "stwb import: %s exists; pass --force to replace it with the merged design, or choose another file\n", target)
			return nil, 2
		}
	}
	old, err := designfile.Load(from)
	if err != nil {
		if into == "" && !errors.Is(err, fs.ErrNotExist) {
			if force {
				return &designfile.File{Design: d}, 0
			}
			fmt.Fprintf(stderr, "stwb import: %s exists and is not a design stwb can merge into (%s); pass --force to replace it, or choose another file\n", from, firstLine(err))
			return nil, 2
		}
		fmt.Fprintf(stderr, "stwb import: --into %s: ", from)
		return nil, reportInvalid(stderr, err)
	}
	merged, rep := interop.MergeDesign(old.Design, d)
	if len(rep.Broken) > 0 && !force {
		fmt.Fprintf(stderr, "stwb import: merging into %s would break %d access patterns; nothing was written:\n", from, len(rep.Broken))
		for _, b := range rep.Broken {
			fmt.Fprintf(stderr, "  %s\n", b)
		}
		fmt.Fprintln(stderr, "Fix the model (or the patterns) and import again, or pass --force to merge anyway and keep the patterns as they are.")
		return nil, 2
	}
	if !quiet {
		lines := rep.Lines()
		if len(lines) == 0 {
			lines = []string{"no change to the table, indexes, entities or items"}
		}
		fmt.Fprintf(stderr, "stwb import: merging into %s (its %d patterns kept):\n", from, len(old.Patterns))
		for _, l := range lines {
			fmt.Fprintf(stderr, "  %s\n", l)
		}
		for _, b := range rep.Broken {
			fmt.Fprintf(stderr, "  broken by the merge (--force): %s\n", b)
		}
	}
	// Saved with old's file, the merged design keeps its comments.
	return old.With(merged), 0
}

// isDesignFileName reports whether a path names a YAML file rather than a directory.
func isDesignFileName(p string) bool {
	ext := strings.ToLower(filepath.Ext(p))
	return ext == ".yaml" || ext == ".yml"
}

// firstLine is the first line of an error's text.
func firstLine(err error) string {
	s := strings.TrimSpace(err.Error())
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}

// reportImportErrors prints every problem of a model, each with its JSON path (or
// line and column for a file that is not JSON), and says what to do.
func reportImportErrors(stderr io.Writer, path string, data []byte, err error) int {
	var se *interop.JSONSyntaxError
	if errors.As(err, &se) {
		fmt.Fprintf(stderr, "%s:%d:%d: not valid JSON: %s\n", path, se.Line, se.Col, se.Msg)
		hintDynamoDBJSON(stderr, path, data)
		return 2
	}
	var list interop.PathErrors
	if !errors.As(err, &list) {
		fmt.Fprintf(stderr, "%s: %v\n", path, err)
		return 2
	}
	items := 0
	for _, e := range list {
		fmt.Fprintf(stderr, "%s: %s\n", path, e)
		if strings.Contains(e.Path, ".TableData[") {
			items++
		}
	}
	if len(list) == 1 && list[0].Path == "$" && strings.HasPrefix(list[0].Msg, "missing DataModel") && hintDynamoDBJSON(stderr, path, data) {
		return 2
	}
	fmt.Fprintf(stderr, "stwb import: %d problems; nothing was written", len(list))
	if items > 0 {
		fmt.Fprintf(stderr, " (--skip-invalid imports the valid items and lists the %d invalid values it leaves out)", items)
	}
	fmt.Fprintln(stderr)
	return 2
}

// hintDynamoDBJSON says which --format reads a file that the Workbench importer
// refused, when it is DynamoDB JSON; it reports whether it said so.
func hintDynamoDBJSON(stderr io.Writer, path string, data []byte) bool {
	if interop.SniffFormat(data) != interop.FormatDynamoDBJSON {
		return false
	}
	fmt.Fprintf(stderr, "%s is DynamoDB JSON (S3 export lines, Scan output or a BatchWriteItem request), not a NoSQL Workbench model: add its items to a design with\n  stwb import --format dynamodb-json %s --into DESIGN.yaml\n", path, path)
	return true
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

// importDynamoDBJSON adds the items of DynamoDB JSON files to a design. A
// BatchWriteItem file's requests name their table; requests for a table other than
// the design's are refused unless --table names that table, so that another table's
// items never slip into this design by mistake.
func importDynamoDBJSON(files []string, into, out, fromTable string, force, skipInvalid, quiet bool, stdin io.Reader, stdout, stderr io.Writer) int {
	if out != "" && out != "-" && !sameFile(out, into) && !force {
		if _, err := os.Lstat(out); err == nil {
			fmt.Fprintf(stderr, "stwb import: %s exists; pass --force to replace it, or choose another file\n", out)
			return 2
		}
	}
	d, err := designfile.Load(into)
	if err != nil {
		return reportInvalid(stderr, err)
	}
	before := len(d.Items)
	var all []interop.SourceItem
	for _, f := range files {
		items, facts, err := readDataFile(f, skipInvalid, quiet, stdin, stderr)
		if err != nil {
			var le *interop.LineError
			if errors.As(err, &le) {
				fmt.Fprintf(stderr, "%s\n", placedLineError(f, le))
			} else {
				fmt.Fprintf(stderr, "%s: %v\n", f, err)
			}
			fmt.Fprint(stderr, "stwb import: nothing was imported")
			if le != nil && !skipInvalid && strings.Contains(le.Msg, "not UTF-8") {
				fmt.Fprint(stderr, " (--skip-invalid imports the valid items and lists the invalid ones it leaves out)")
			}
			fmt.Fprintln(stderr)
			return 2
		}
		for i := range items {
			items[i].File = f
		}
		for _, tn := range facts.Tables {
			switch {
			case tn == d.Table.Name:
			case tn == fromTable:
				if !quiet {
					fmt.Fprintf(stderr, "stwb import: note: %s: the requests are for table %s (taken as --table asks), the design's table is %s\n", f, tn, d.Table.Name)
				}
			default:
				fmt.Fprintf(stderr, "%s: the requests are for table %s, but the design %s is table %s; nothing was imported.\n  If these items belong in this design, pass --table %s to take that table's requests; otherwise import them into %s's own design\n",
					f, tn, into, d.Table.Name, tn, tn)
				return 2
			}
		}
		if !quiet {
			fmt.Fprintf(stderr, "stwb import: %s: %d items (%s)\n", f, len(items), facts.Layout)
			for _, more := range facts.Unfinished {
				fmt.Fprintf(stderr, "stwb import: note: %s: the Scan did not finish (%s says more pages follow); only the items in the file are imported: scan to the end to import the table whole\n", f, more)
			}
		}
		if len(facts.Skipped) > 0 {
			fmt.Fprintf(stderr, "stwb import: --skip-invalid: left out the invalid items of %s (DynamoDB would refuse them too):\n", f)
			for _, e := range facts.Skipped {
				fmt.Fprintf(stderr, "  skipped %s\n", placedLineError(f, e))
			}
		}
		all = append(all, items...)
	}
	added, replaced, err := interop.MergeItems(d.Design, all)
	if err != nil {
		fmt.Fprintf(stderr, "stwb import: %v\n", err)
		return 2
	}
	target := into
	if out != "" {
		target = out
	}
	// The merged design must still be a valid design before it replaces anything.
	text, err := d.Marshal()
	if err == nil {
		_, err = designfile.Parse(target, text)
	}
	if err != nil {
		fmt.Fprintln(stderr, "stwb import: the design would not be valid with these items; nothing was written:")
		return reportInvalid(stderr, err)
	}
	if target == "-" {
		stdout.Write(text)
	} else if err := writeDesignFile(stderr, target, text); err != nil {
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
func readDataFile(path string, skipInvalid, quiet bool, stdin io.Reader, stderr io.Writer) ([]interop.SourceItem, interop.DataFile, error) {
	var r io.Reader = stdin
	var size int64
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, interop.DataFile{}, err
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
	items, facts, err := interop.ReadDynamoDBJSONWith(r, interop.DataOptions{Progress: progress, SkipInvalid: skipInvalid})
	if progress != nil && tty {
		fmt.Fprint(stderr, "\r\033[K")
	}
	return items, facts, err
}

// placedLineError is a data file's problem as FILE:LINE: PATH: what.
func placedLineError(file string, e *interop.LineError) string {
	return fmt.Sprintf("%s:%d: %s", file, e.Line, strings.TrimPrefix(e.Error(), fmt.Sprintf("line %d: ", e.Line)))
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

// sniffFile says which importer a file is for, from its first bytes (standard
// input cannot be read twice and says nothing).
func sniffFile(path string) string {
	if path == "-" {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	return interop.SniffFormat(head[:n])
}
