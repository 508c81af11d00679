package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
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
	opts := serve.Options{Log: stderr}
	if *record != "" {
		f, err := os.Create(*record)
		if err != nil {
			fmt.Fprintf(stderr, "stwb serve: --record: %v\n", err)
			return 2
		}
		defer f.Close()
		opts.Record = f
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
	fmt.Fprintln(stdout, "Ctrl-C stops it.")
	if err := srv.Serve(ctx, l); err != nil {
		fmt.Fprintf(stderr, "stwb serve: %v\n", err)
		return 1
	}
	if err := srv.RecordError(); err != nil {
		fmt.Fprintf(stderr, "stwb serve: --record %s stopped: %v\n", *record, err)
		return 1
	}
	if *record != "" {
		fmt.Fprintf(stdout, "stwb serve: recorded the requests in %s; stwb check DESIGN --traffic %s holds them to the patterns\n", *record, *record)
	}
	if *dump != "" {
		var buf bytes.Buffer
		n, err := srv.Dump(&buf, *dumpTable)
		if err == nil {
			err = designfile.WriteFileAtomic(*dump, buf.Bytes())
		}
		if err != nil {
			fmt.Fprintf(stderr, "stwb serve: --dump %s: %v\n", *dump, err)
			return 1
		}
		fmt.Fprintf(stdout, "stwb serve: wrote %d items to %s\n", n, *dump)
	}
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
