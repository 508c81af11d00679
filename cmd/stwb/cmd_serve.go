package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"

	"stwb/designfile"
	"stwb/engine"
	"stwb/model"
	"stwb/serve"
)

func init() {
	register("serve", "[FILE] [--host H] [--port P] [--dump OUT] [--record REC]  the design as a local DynamoDB endpoint", runServe)
}

const serveUsage = "stwb serve [FILE] [--host 127.0.0.1] [--port 8000] [--dump OUT.json] [--dump-table NAME] [--record REQUESTS.jsonl]"

func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// Ctrl-C, or SIGTERM from a CI job or a container stopping: either ends serving
	// and writes --dump.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serveMain(ctx, args, stdin, stdout, stderr)
}

// serveMain is stwb serve until ctx ends (Ctrl-C): it loads the design, listens,
// prints the URL and tables, answers requests, and on the way out writes --dump.
func serveMain(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	host := fs.String("host", "127.0.0.1", "address to listen on (loopback unless told otherwise)")
	port := fs.Int("port", 8000, "port to listen on (0: any free port)")
	dump := fs.String("dump", "", "on shutdown, write the table's items here as DynamoDB JSON (stwb import --format dynamodb-json reads it)")
	dumpTable := fs.String("dump-table", "", "the table --dump writes (default: the design's, or the only one)")
	record := fs.String("record", "", "write every request the application makes here, for stwb check DESIGN --traffic FILE")
	pos, flags := splitFlags(args, map[string]bool{"host": true, "port": true, "dump": true, "dump-table": true, "record": true})
	if err := fs.Parse(flags); err != nil {
		return 2
	}
	if len(pos) > 1 {
		return usageError(stderr, "usage: %s", serveUsage)
	}
	designPath := ""
	if len(pos) == 1 {
		designPath = pos[0]
	}
	if code := checkServeOutputs(designPath, *record, *dump, stderr); code != 0 {
		return code
	}
	opts := serve.Options{Log: stderr}
	var rec recording
	if *record != "" {
		var err error
		if rec, err = createRecording(*record); err != nil {
			fmt.Fprintf(stderr, "stwb serve: --record %s: %v\n", *record, err)
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
		if *dumpTable == "" {
			*dumpTable = d.Table.Name
		}
	}
	l, err := net.Listen("tcp", net.JoinHostPort(*host, strconv.Itoa(*port)))
	if err != nil {
		fmt.Fprintf(stderr, "stwb serve: %v (choose another --port, or 0 for any free one)\n", err)
		return 1
	}
	url := "http://" + l.Addr().String()
	fmt.Fprintf(stdout, "stwb serve: DynamoDB at %s (any credentials and region; signatures are not checked)\n", url)
	if ip := net.ParseIP(*host); ip == nil || !ip.IsLoopback() {
		fmt.Fprintf(stdout, "stwb serve: listening on %s, not loopback: anyone who can reach it can read and change the tables\n", *host)
	}
	names := srv.TableNames()
	if len(names) == 0 {
		fmt.Fprintln(stdout, "  no tables yet (CreateTable makes one)")
	}
	for _, n := range names {
		fmt.Fprintf(stdout, "  table %s\n", n)
	}
	fmt.Fprintf(stdout, "  e.g. aws dynamodb list-tables --endpoint-url %s\n", url)
	if rec != nil {
		fmt.Fprintf(stdout, "  recording to %s; it becomes %s when serve stops\n", rec.TempName(), *record)
	}
	fmt.Fprintln(stdout, "Ctrl-C stops it.")
	code := 0
	if err := srv.Serve(ctx, l); err != nil {
		fmt.Fprintf(stderr, "stwb serve: %v\n", err)
		code = 1
	}
	// Each output is written or refused on its own: a failed recording never costs
	// the dump, nor the dump the recording.
	if rec != nil {
		if code2 := finishRecording(srv, rec, *record, stdout, stderr); code2 != 0 {
			code = code2
		}
	}
	if *dump != "" {
		if code2 := writeDump(srv, *dump, *dumpTable, stdout, stderr); code2 != 0 {
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
