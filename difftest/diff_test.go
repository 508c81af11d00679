package difftest

import (
	"context"
	"fmt"
	"net"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"stwb/designfile"
	"stwb/engine"
	"stwb/internal/dynalitetest"
	"stwb/lazyload"
	"stwb/live"
	"stwb/model"
	"stwb/serve"
	"stwb/verify"
)

// The differential suite. For each random design (gen_test.go) it creates the table
// with its GSIs and LSI in dynalite, loads the items there with BatchWriteItem and
// into the engine, then sends random requests (req_test.go, write_test.go) to both
// and requires the same items in the same order, Count, ScannedCount,
// LastEvaluatedKey and error type, page by page; for writes, the same error type and
// ReturnValues. Writes change both stores, so later reads see their effect.
//
// Each request also goes, through the same SDK calls, to stwb serve holding the same
// design: the wire path (JSON in and out, Given for what the JSON carried) must give
// exactly the engine's answer, error messages included.
//
// Where dynalite is known to differ from DynamoDB, the suite does not compare, and
// says so here (dynalite 4.0.0, github.com/architect/dynalite):
//
//   - Capacity: dynalite sizes strings in UTF-16 units and charges no index writes
//     (db/index.js itemSize, updateIndexes). ConsumedCapacity is never compared;
//     the engine's capacity is tested against DYNAMODB.md in package engine.
//   - The 1 MB page limit: dynalite measures a page with its own itemSize, so a page
//     would end at a different item. Generated designs hold at most ~200 small items,
//     far below 1 MB, so no page here ends by size.
//   - Items with equal index keys: DynamoDB returns them in no defined order
//     (GSI.html); dynalite orders them by an md5 of the table key, the engine by the
//     table key. Index reads compare such runs as sets, and a LastEvaluatedKey only
//     on the index key attributes; and an index read with Limit always follows every
//     page, since where one page ends inside such a run is not defined either.
//   - LSI reads of attributes the LSI does not project: DynamoDB fetches them from
//     the table (LSI.html "Projected attributes"); dynalite only does for
//     Select=ALL_ATTRIBUTES (db/index.js queryTable, fetchFromItemDb), so it would
//     return them missing. Filters and projections on an LSI name only projected
//     attributes (world.projects).
//   - ProjectionExpression naming an attribute a GSI does not project: dynalite
//     returns the entry without it; the engine answers with a ValidationException.
//     No generated request does this.
//   - Error messages differ in wording between every emulator; only the error type
//     is compared (DynamoDB's wording is tested in package expr and engine).

// Scale: STWB_DIFF_DESIGNS designs of STWB_DIFF_REQUESTS requests each, from
// STWB_DIFF_SEED on. The defaults run in CI in well under a minute.
const (
	defaultDesigns  = 30
	defaultRequests = 200
	defaultSeed     = 20260101
	maxFailures     = 5 // per design, so that one bug does not bury the log
)

func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		t.Fatalf("%s=%q is not a whole number", name, s)
	}
	return n
}

func TestDifferential(t *testing.T) {
	designs := envInt(t, "STWB_DIFF_DESIGNS", defaultDesigns)
	requests := envInt(t, "STWB_DIFF_REQUESTS", defaultRequests)
	base := uint64(envInt(t, "STWB_DIFF_SEED", defaultSeed))
	if testing.Short() {
		designs, requests = min(designs, 5), min(requests, 60)
	}
	endpoint := dynalitetest.StartWith(t, dynalitetest.Options{CreateTableMs: 1, DeleteTableMs: 1})
	ctx := context.Background()
	db, err := live.NewClient(ctx, live.Config{Endpoint: endpoint, Region: "us-east-1",
		Credentials: credentials.NewStaticCredentialsProvider("difftest", "difftest", "")})
	if err != nil {
		t.Fatal(err)
	}
	srv := serve.New(serve.Options{})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(sctx, l) }()
	t.Cleanup(func() {
		stop()
		if err := <-served; err != nil {
			t.Errorf("stwb serve: %v", err)
		}
	})
	// A plain SDK client, not live's (which bounds what it reads from an endpoint,
	// cutting long messages): serve's answers are compared whole.
	sdb := dynamodb.New(dynamodb.Options{BaseEndpoint: aws.String("http://" + l.Addr().String()), Region: "us-east-1",
		Credentials: credentials.NewStaticCredentialsProvider("difftest", "difftest", "")})
	t.Logf("differential suite: %d designs x %d requests from seed %d (STWB_DIFF_SEED)", designs, requests, base)
	var tally tally
	t.Cleanup(func() {
		// What was compared, so that a green run shows it compared something.
		t.Logf("compared %d requests: %d rejected by both (same error type), %d returning items, %d pages; "+
			"%d Query, %d Scan, %d GetItem, %d writes, %d on an index", tally.requests.Load(), tally.errors.Load(),
			tally.nonEmpty.Load(), tally.pages.Load(), tally.queries.Load(), tally.scans.Load(), tally.gets.Load(),
			tally.writes.Load(), tally.index.Load())
		if tally.requests.Load() > 100 && (tally.errors.Load() == 0 || tally.nonEmpty.Load() == 0 || tally.index.Load() == 0) {
			t.Errorf("the generator produced no errors, no items or no index reads: it has stopped testing something")
		}
	})
	for i := 0; i < designs; i++ {
		seed := base + uint64(i)
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			// Designs use separate tables, so they run side by side: while dynalite
			// (one node process) answers one, the SDK encodes the next request.
			t.Parallel()
			runDesign(t, ctx, db, sdb, srv, seed, requests, &tally)
		})
	}
}

// tally counts what the suite compared.
type tally struct {
	requests, errors, nonEmpty, pages, queries, scans, gets, writes, index atomic.Int64
}

func (c *tally) add(q request, a answer) {
	c.requests.Add(1)
	switch q.op {
	case model.OpQuery:
		c.queries.Add(1)
	case model.OpScan:
		c.scans.Add(1)
	case model.OpGetItem:
		c.gets.Add(1)
	default:
		c.writes.Add(1)
	}
	if q.query.IndexName != "" || q.scan.IndexName != "" {
		c.index.Add(1)
	}
	if a.err != nil {
		c.errors.Add(1)
		return
	}
	c.pages.Add(int64(len(a.pages)))
	for _, p := range a.pages {
		if len(p.Items) > 0 {
			c.nonEmpty.Add(1)
			return
		}
	}
}

func runDesign(t *testing.T, ctx context.Context, db, sdb *dynamodb.Client, srv *serve.Server, seed uint64, requests int, tl *tally) {
	w := newWorld(seed)
	replay := fmt.Sprintf("replay: STWB_DIFF_SEED=%d STWB_DIFF_DESIGNS=1 go test ./difftest -run TestDifferential", seed)
	if _, err := db.CreateTable(ctx, live.CreateTableInput(w.table.Name, w.table)); err != nil {
		t.Fatalf("CreateTable: %v (%s)", err, replay)
	}
	if _, err := live.WaitActive(ctx, db, w.table.Name, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := live.LoadItems(ctx, db, w.table.Name, w.items, live.LoadOptions{}); err != nil {
		t.Fatalf("loading %d items into dynalite: %v (%s)", len(w.items), err, replay)
	}
	d := &model.Design{Version: 1, Name: "difftest", Table: w.table, Items: w.items}
	e, err := engine.FromDesign(d)
	if err != nil {
		t.Fatalf("engine: %v (%s)", err, replay)
	}
	if err := srv.AddDesign(d); err != nil {
		t.Fatalf("stwb serve: %v (%s)", err, replay)
	}
	// The same design saved and loaded lazily, as stwb query loads it, must answer
	// every request as the engine loaded from maps does.
	text, err := (&designfile.File{Design: d}).Marshal()
	if err != nil {
		t.Fatalf("saving the design: %v (%s)", err, replay)
	}
	ld, lazy, err := lazyload.Load("difftest.yaml", text)
	if err != nil {
		t.Fatalf("loading the saved design lazily: %v (%s)\n%s", err, replay, text)
	}
	if ld.Lazy == nil {
		t.Fatalf("the saved design did not load lazily (%s)", replay)
	}
	failures := 0
	for j := 0; j < requests && failures < maxFailures; j++ {
		q := w.request()
		want, err := onDynalite(ctx, db, w.table.Name, q)
		if err != nil {
			t.Fatalf("request %d %v: dynalite: %v (%s)", j, q, err, replay)
		}
		got, err := onEngine(e, q)
		if err != nil {
			failures++
			t.Errorf("request %d %v: engine: %v\ndynalite: %s\n(%s)", j, q, err, describe(want), replay)
			continue
		}
		if wired, err := onDynalite(ctx, sdb, w.table.Name, q); err != nil || !sameAnswer(wired, got) {
			failures++
			t.Errorf("request %d %v: stwb serve answers otherwise than the engine: %v\nserve:  %s\nengine: %s\n(%s)", j, q, err, describe(wired), describe(got), replay)
		}
		if gotLazy, err := onEngine(lazy, q); err != nil || !reflect.DeepEqual(gotLazy, got) {
			failures++
			t.Errorf("request %d %v: the lazily loaded engine answers otherwise: %v\nlazy:  %s\nmaps:  %s\n(%s)", j, q, err, describe(gotLazy), describe(got), replay)
		}
		tl.add(q, want)
		if os.Getenv("STWB_DIFF_DEBUG") != "" && want.err != nil && !strings.HasPrefix(q.desc, "invalid") {
			t.Logf("valid-looking request rejected by both: %s: %s", q.desc, want.err.Message)
		}
		if diff := compareAnswers(got, want, q); diff != "" {
			failures++
			t.Errorf("request %d: %v\n%s\nengine:   %s\ndynalite: %s\n(%s)", j, q, diff, describe(got), describe(want), replay)
		}
	}
}

// sameAnswer reports whether two answers are the same to the byte: the error (type
// and message), or every page's items (whole), counts and LastEvaluatedKey.
func sameAnswer(a, b answer) bool {
	if (a.err == nil) != (b.err == nil) || (a.err != nil && errText(a.err) != errText(b.err)) || len(a.pages) != len(b.pages) {
		return false
	}
	for i, p := range a.pages {
		q := b.pages[i]
		if p.Count != q.Count || p.ScannedCount != q.ScannedCount || len(p.Items) != len(q.Items) ||
			!p.LastEvaluatedKey.Equal(q.LastEvaluatedKey) || !p.Attributes.Equal(q.Attributes) {
			return false
		}
		for j, it := range p.Items {
			if !it.Equal(q.Items[j]) {
				return false
			}
		}
	}
	return true
}

// compareAnswers describes how the engine's answer differs from dynalite's; "" when
// they agree.
func compareAnswers(got, want answer, q request) string {
	if (got.err == nil) != (want.err == nil) || (got.err != nil && got.err.Type != want.err.Type) {
		return fmt.Sprintf("error: engine %s, dynalite %s", errText(got.err), errText(want.err))
	}
	if got.err != nil {
		return ""
	}
	if q.tie != nil {
		g, w := total(got.pages), total(want.pages)
		if ms := verify.Compare(&w, &g, verify.CompareOptions{TieKey: q.tie}); len(ms) > 0 {
			return fmt.Sprintf("over %d engine pages and %d dynalite pages (dynalite is 'predicted'): %v",
				len(got.pages), len(want.pages), ms)
		}
		return ""
	}
	for i := 0; i < max(len(got.pages), len(want.pages)); i++ {
		if i >= len(got.pages) || i >= len(want.pages) {
			return fmt.Sprintf("pages: engine %d, dynalite %d", len(got.pages), len(want.pages))
		}
		if ms := verify.Compare(&want.pages[i], &got.pages[i], verify.CompareOptions{}); len(ms) > 0 {
			return fmt.Sprintf("page %d (dynalite is 'predicted', the engine 'got'): %v", i, ms)
		}
	}
	return ""
}

// total joins pages into one result: the items in order, the counts summed, and the
// last page's LastEvaluatedKey.
func total(pages []engine.Result) engine.Result {
	var r engine.Result
	for _, p := range pages {
		r.Items = append(r.Items, p.Items...)
		r.Count += p.Count
		r.ScannedCount += p.ScannedCount
		r.LastEvaluatedKey = p.LastEvaluatedKey
	}
	return r
}

// describe lists an answer's pages: the keys of each page's items and its
// LastEvaluatedKey, for a failure message.
func describe(a answer) string {
	if a.err != nil {
		return errText(a.err)
	}
	var b strings.Builder
	for i, p := range a.pages {
		fmt.Fprintf(&b, "[page %d: count %d scanned %d items", i, p.Count, p.ScannedCount)
		for _, it := range p.Items {
			k := model.Item{}
			for _, n := range []string{attrPK, attrSK} {
				if v, ok := it[n]; ok {
					k[n] = v
				}
			}
			b.WriteString(" " + verify.FormatItem(k))
		}
		fmt.Fprintf(&b, " lek %s] ", verify.FormatItem(p.LastEvaluatedKey))
	}
	return b.String()
}

func errText(e *engine.Error) string {
	if e == nil {
		return "no error"
	}
	return e.Type + ": " + e.Message
}
