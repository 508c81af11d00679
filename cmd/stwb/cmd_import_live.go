package main

// stwb import --endpoint URL --table NAME: a design from a live table (issue 16).
// DescribeTable gives the table; a bounded parallel Scan a sample of its items,
// whose read cost is printed before it runs (and confirmed on AWS, where it is
// billed); the items are grouped into entities with key templates as the
// Workbench import infers them.

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"stwb/interop"
	"stwb/live"
	"stwb/model"
)

// defaultSample is how many items a live import reads when --sample is not given:
// enough to show every entity of a typical design, a few cents of reads at most.
const defaultSample = 1000

// liveImport is what `stwb import --endpoint` needs beyond the file import's flags.
type liveImport struct {
	endpoint, region, profile, table string
	sample                           int
	all, yes                         bool
}

func importLive(li liveImport, out, into string, force, quiet bool, stdin io.Reader, stdout, stderr io.Writer) int {
	if li.table == "" {
		return usageError(stderr, "import", "--endpoint URL needs --table NAME: the table to start the design from")
	}
	ctx, cancel := interrupted()
	defer cancel()
	db, err := live.NewClient(ctx, live.Config{Endpoint: li.endpoint, Region: li.region, Profile: li.profile})
	if err != nil {
		fmt.Fprintln(stderr, "stwb import:", err)
		return 2
	}
	src, err := live.DescribeTableSource(ctx, db, li.table)
	if err != nil {
		fmt.Fprintln(stderr, "stwb import:", live.Explain(err, li.endpoint, live.DefaultRequestTimeout))
		return 2
	}
	n := li.sample
	what := fmt.Sprintf("a sample of up to %d items", n)
	if li.all {
		n = 0
		what = "every item"
	}
	planned := n
	if n <= 0 || int64(n) > src.ItemCount && src.ItemCount > 0 {
		planned = int(src.ItemCount)
	}
	const segments, page = 4, 100
	pages := (planned+page-1)/page + segments
	fmt.Fprintf(stderr, "stwb import: table %s holds about %d items (%d bytes, DynamoDB's estimate); reading %s with a parallel Scan (%d segments, Limit %d): about %.1f read units, eventually consistent\n",
		li.table, src.ItemCount, src.SizeBytes, what, segments, page, live.SampleReadUnits(src, planned, pages))
	if live.IsAWS(li.endpoint) && !li.yes {
		fmt.Fprint(stderr, "This reads from AWS and is billed. Read? [y/N] ")
		answer, _ := bufio.NewReader(stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			fmt.Fprintln(stderr, "stwb import: nothing was read or written")
			return 1
		}
	}
	items, stats, err := live.SampleItems(ctx, db, li.table, live.SampleOptions{Items: n, Segments: segments, PageSize: page})
	if err != nil {
		fmt.Fprintln(stderr, "stwb import:", live.Explain(err, li.endpoint, live.DefaultRequestTimeout))
		return 2
	}
	fmt.Fprintf(stderr, "stwb import: read %d items in %d Scan requests (%d scanned; %.1f read units consumed as the endpoint reports them)\n",
		len(items), stats.Requests, stats.Scanned, stats.CapacityUsed)
	d, notes := interop.InferDesign(src.Table, items)
	if !quiet {
		for _, n := range append(src.Notes, notes...) {
			fmt.Fprintf(stderr, "stwb import: note: %s\n", n)
		}
	}
	return writeDesigns(li.table, []*model.Design{d}, out, into, force, quiet, stdout, stderr)
}
