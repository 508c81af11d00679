package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"stwb/cost"
	"stwb/designfile"
	"stwb/engine"
	"stwb/internal/numfmt"
	"stwb/model"
	"stwb/serve"
	"stwb/throttle"
)

func init() { register(newServeCmd) }

func newServeCmd(e *env) *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve [FILE]",
		Short: "Serve the design as a local DynamoDB endpoint for an application's tests",
		Long: `serve reads the design FILE ("-": standard input), or none for an empty
endpoint, and answers DynamoDB's JSON 1.0 HTTP protocol on --host:--port with the
design's table and items, as DynamoDB would answer (any credentials and region;
signatures are not checked), and DynamoDB Streams (the dynamodbstreams service)
on the same endpoint. Tables made by CreateTable belong to the account (the access
key) and region the request is signed with, as DynamoDB's do; the design's tables
are seen from every one; --shared keeps one namespace for every request. It prints
its URL and tables, then serves until Ctrl-C or SIGTERM.

It writes only what its flags name: --record a line for every request the
application makes (for "stwb check DESIGN --traffic FILE"), and on shutdown --dump
the table's items as DynamoDB JSON (for "stwb import --format dynamodb-json").
The design file itself is never changed. Before serving, each output is refused
with its reason when it names the design or the other output, or cannot be
written (a missing or read-only directory, a directory). The recording goes to a
temporary file beside its target (the banner names it) and replaces the target,
whole, when serve stops; the dump is written then, also whole. If the recording
fails while serving (a full disk), serve says so at once, on standard error and
in an X-Stwb-Record-Failed header on every answer from then on, and goes on
serving; at shutdown it drops the partial recording (the target keeps what it
held, and the space is freed) and still writes --dump. A dump that cannot be
written leaves its target as it was.

With --throttle it throttles as DynamoDB does (each partition key value's 3,000
RCU and 1,000 WCU a second, per item once split for heat; provisioned capacity
with 300 s of burst; a GSI short of capacity refusing its table's writes; an
on-demand table's account quota), each limit divided by --scale: a batch item by
item (the refused ones in UnprocessedItems / UnprocessedKeys), a transaction whole
(TransactionCanceledException), a PartiQL statement as the operation it runs as.
--faults injects failures at rates, repeatable with --seed.

Exit status: 0 served and stopped; 1 the port was taken, or --record or --dump
failed (the other output is still written); 2 an invalid design, an output
refused, or usage.`,
		Example: `  stwb serve mydesign.yaml                          # DynamoDB at http://127.0.0.1:8000
  stwb serve mydesign.yaml --port 0                 # any free port
  stwb serve design.yaml --record requests.jsonl    # then: stwb check design.yaml --traffic requests.jsonl
  stwb serve design.yaml --throttle --scale 100      # then: stwb load design.yaml --endpoint URL --scale 100
  stwb serve design.yaml --faults internal=0.5%,conflict=2% --seed 7
  stwb serve design.yaml --dump items.json          # then: stwb import --format dynamodb-json items.json --into design.yaml`,
		Args:              usageArgs(0, 1),
		ValidArgsFunction: completeDesignFiles,
		RunE: func(cmd *cobra.Command, args []string) error {
			// Ctrl-C, or SIGTERM from a CI job or a container stopping: either ends
			// serving and writes --dump.
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return exit(runServe(ctx, e, args, o))
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.host, "host", "127.0.0.1", "address to listen on (loopback unless told otherwise)")
	f.IntVar(&o.port, "port", 8000, "port to listen on (0: any free port)")
	f.StringVar(&o.dump, "dump", "", "on shutdown, write the table's items here as DynamoDB JSON (stwb import --format dynamodb-json reads it)")
	f.StringVar(&o.dumpTable, "dump-table", "", "the table --dump writes (default: the design's, or the only one)")
	f.StringVar(&o.record, "record", "", "write every request the application makes here (in place when serve stops), for stwb check DESIGN --traffic FILE")
	f.BoolVar(&o.throttle, "throttle", false, "throttle as DynamoDB does: each key value's 3,000 RCU and 1,000 WCU a second, provisioned capacity with burst, a GSI's back-pressure")
	f.Float64Var(&o.scale, "scale", 1, "with --throttle, divide every limit and burst by N (at 100 a key value holds 10 WCU a second)")
	f.StringVar(&o.faults, "faults", "", "inject failures at rates: internal=0.5%,throttle=1%,drop=0.1%,conflict=2%")
	f.Uint64Var(&o.seed, "seed", 1, "the seed of --faults' draws: the same seed and requests give the same failures")
	f.BoolVar(&o.shared, "shared", false, "one namespace of tables for every request, whatever account and region it signs with")
	complete(cmd, "dump", completeFiles)
	complete(cmd, "record", completeFiles)
	for _, name := range []string{"host", "port", "dump-table", "scale", "faults", "seed"} {
		complete(cmd, name, cobra.NoFileCompletions)
	}
	return cmd
}

// serveOptions are serve's flags.
type serveOptions struct {
	host, dump, dumpTable, record string
	port                          int
	throttle                      bool
	scale                         float64
	faults                        string
	seed                          uint64
	shared                        bool
}

// serveMain is stwb serve with args until ctx ends, as the tests run it.
func serveMain(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runContext(ctx, append([]string{"serve"}, args...), stdin, stdout, stderr)
}

// runServe is stwb serve until ctx ends (Ctrl-C): it loads the design, listens,
// prints the URL and tables, answers requests, and on the way out writes --dump.
func runServe(ctx context.Context, e *env, pos []string, o serveOptions) int {
	stdin, stdout, stderr := e.stdin, e.stdout, e.stderr
	designPath := ""
	if len(pos) == 1 {
		designPath = pos[0]
	}
	if code := checkServeOutputs(designPath, o.record, o.dump, stderr); code != 0 {
		return code
	}
	opts := serve.Options{Log: stderr, Shared: o.shared}
	if o.scale < 1 {
		return usageError(stderr, "serve", "--scale %v: give 1 or more (it divides every limit)", o.scale)
	}
	if o.scale != 1 && !o.throttle {
		return usageError(stderr, "serve", "--scale divides --throttle's limits; add --throttle")
	}
	if o.throttle {
		opts.Throttle = throttle.New(throttle.Options{Scale: o.scale})
	}
	if o.faults != "" {
		f, err := throttle.ParseFaults(o.faults, o.seed)
		if err != nil {
			return usageError(stderr, "serve", "%v", err)
		}
		opts.Faults = f
	}
	var rec recording
	if o.record != "" {
		var err error
		if rec, err = createRecording(o.record); err != nil {
			fmt.Fprintf(stderr, "stwb serve: --record %s: %v\n", o.record, err)
			return 2
		}
		// Whatever happens, the recording's temporary file is not left behind
		// unless it was put in place.
		defer rec.Abort()
		opts.Record = rec
	}
	srv := serve.New(opts)
	var d *model.Design
	if len(pos) == 1 {
		f, err := readDesign(pos[0], stdin)
		if err != nil {
			return reportInvalid(stderr, err)
		}
		warnStaleTemps(stderr, pos[0])
		d = f.Design
		if err := srv.AddFile(f); err != nil {
			return reportInvalid(stderr, err)
		}
		for _, note := range unservable(f) {
			fmt.Fprintln(stderr, "stwb serve: note:", note)
		}
		if o.dumpTable == "" {
			o.dumpTable = d.Table.Name
		}
	}
	l, err := net.Listen("tcp", net.JoinHostPort(o.host, strconv.Itoa(o.port)))
	if err != nil {
		fmt.Fprintf(stderr, "stwb serve: %v (choose another --port, or 0 for any free one)\n", err)
		return 1
	}
	url := "http://" + l.Addr().String()
	fmt.Fprintf(stdout, "stwb serve: DynamoDB and DynamoDB Streams at %s (any credentials; signatures are not checked)\n", url)
	if !o.shared {
		fmt.Fprintln(stdout, "  tables made by CreateTable are per access key and region (--shared: one namespace); the design's are in every one")
	}
	if ip := net.ParseIP(o.host); ip == nil || !ip.IsLoopback() {
		fmt.Fprintf(stdout, "stwb serve: listening on %s, not loopback: anyone who can reach it can read and change the tables\n", o.host)
	}
	names := srv.TableNames()
	if len(names) == 0 {
		fmt.Fprintln(stdout, "  no tables yet (CreateTable makes one)")
	}
	for _, n := range names {
		fmt.Fprintf(stdout, "  table %s\n", n)
	}
	if opts.Throttle != nil {
		fmt.Fprintf(stdout, "  throttled as DynamoDB throttles, every limit divided by %s (a key value: %s RCU and %s WCU a second); a key splits for heat after %v of throttling\n",
			strconv.FormatFloat(o.scale, 'g', -1, 64), numfmt.Group(strconv.FormatFloat(cost.PartitionReadLimit/o.scale, 'g', 4, 64)),
			numfmt.Group(strconv.FormatFloat(cost.PartitionWriteLimit/o.scale, 'g', 4, 64)), cost.SplitForHeatAfter)
	}
	if o.faults != "" {
		fmt.Fprintf(stdout, "  injecting faults %s (seed %d)\n", o.faults, o.seed)
	}
	fmt.Fprintf(stdout, "  e.g. aws dynamodb list-tables --endpoint-url %s\n", url)
	if rec != nil {
		fmt.Fprintf(stdout, "  recording to %s; it becomes %s when serve stops\n", rec.TempName(), o.record)
	}
	fmt.Fprintln(stdout, "Ctrl-C stops it.")
	defer keepHeapHeadroom(ctx, serveHeapHeadroom, time.Second)()
	code := 0
	if err := srv.Serve(ctx, l); err != nil {
		fmt.Fprintf(stderr, "stwb serve: %v\n", err)
		code = 1
	}
	// Each output is written or refused on its own: a failed recording never costs
	// the dump, nor the dump the recording.
	if rec != nil {
		if code2 := finishRecording(srv, rec, o.record, stdout, stderr); code2 != 0 {
			code = code2
		}
	}
	if o.dump != "" {
		if code2 := writeDump(srv, o.dump, o.dumpTable, stdout, stderr); code2 != 0 {
			code = code2
		}
	}
	return code
}

// recording is where --record's requests go until serve stops: a
// designfile.AtomicFile, put in place whole at the end.
type recording interface {
	io.Writer
	TempName() string
	Commit() error
	Abort()
}

// createRecording starts the recording (a variable so that a test can fill the
// disk).
var createRecording = func(path string) (recording, error) { return designfile.CreateAtomic(path) }

// checkServeOutputs refuses, before anything is served, an output that names the
// design or the other output, and one that cannot be written (a missing or
// read-only directory, a directory), each with its reason: found at shutdown, the
// run's state would be lost.
func checkServeOutputs(design, record, dump string, stderr io.Writer) int {
	refuse := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "stwb serve: "+format+"; nothing was served\n", args...)
		return 2
	}
	outs := []struct{ flag, path string }{{"--record", record}, {"--dump", dump}}
	for i, o := range outs {
		if o.path == "" {
			continue
		}
		if o.path == "-" {
			return refuse("%s -: name a file (standard output carries serve's banner)", o.flag)
		}
		if design != "" && design != "-" && sameTarget(o.path, design) {
			return refuse("%s %s is the design file itself: name another file", o.flag, o.path)
		}
		for _, p := range outs[:i] {
			if p.path != "" && sameTarget(o.path, p.path) {
				return refuse("%s %s is also %s's file: each output needs its own", o.flag, o.path, p.flag)
			}
		}
		if err := designfile.CheckWritable(o.path); err != nil {
			return refuse("%s %s cannot be written (%v)", o.flag, o.path, err)
		}
	}
	return 0
}

// sameTarget reports whether writes to a and b would land in one file: the same
// file, a link to it, or the same path not yet made.
func sameTarget(a, b string) bool {
	if sameFile(a, b) {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(filepath.Dir(a))
	rb, err2 := filepath.EvalSymlinks(filepath.Dir(b))
	return err1 == nil && err2 == nil && ra == rb && filepath.Base(a) == filepath.Base(b)
}

// finishRecording puts the recording in place, unless it stopped (the disk filled
// up): then it is dropped, which also frees its space for the dump, and the file
// named keeps what it held.
func finishRecording(srv *serve.Server, rec recording, path string, stdout, stderr io.Writer) int {
	if err := srv.RecordError(); err != nil {
		rec.Abort()
		fmt.Fprintf(stderr, "stwb serve: --record %s was not written: recording stopped while serving (%v); %s is as it was\n", path, err, path)
		return 1
	}
	if err := rec.Commit(); err != nil {
		fmt.Fprintf(stderr, "stwb serve: --record %s: %v\n", path, err)
		return 1
	}
	fmt.Fprintf(stdout, "stwb serve: recorded the requests in %s; stwb check DESIGN --traffic %s holds them to the patterns\n", path, path)
	return 0
}

// writeDump writes --dump atomically, streamed from the tables.
func writeDump(srv *serve.Server, path, table string, stdout, stderr io.Writer) int {
	f, err := designfile.CreateAtomic(path)
	n := 0
	if err == nil {
		if n, err = srv.Dump(f, table); err == nil {
			err = f.Commit()
		} else {
			f.Abort()
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "stwb serve: --dump %s: %v\n", path, err)
		return 1
	}
	fmt.Fprintf(stdout, "stwb serve: wrote %d items to %s\n", n, path)
	return 0
}

// unservable says what of a design DynamoDB would refuse but the design file may
// hold (review reports it: too-many-indexes, item-too-large), for serve to say
// while it serves the rest as DynamoDB would hold it: a table over the index
// limits is served, though CreateTable refuses it; an item over 400 KB is not,
// since DynamoDB never stores it.
func unservable(f *designfile.File) []string {
	var notes []string
	if err := engine.CheckCreateTable(f.Design.Table); err != nil {
		notes = append(notes, fmt.Sprintf("table %s is served, but CreateTable would refuse it (%v)", f.Design.Table.Name, err))
	}
	for i, it := range f.Design.Items {
		if size := model.ItemSize(it); !model.Stored(size) {
			notes = append(notes, fmt.Sprintf("%s %s; it is not served", model.ItemWhere("", f.ItemPos, i), engine.TooLarge(size)))
		}
	}
	return notes
}
