package rehearse

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"

	"stwb/analysis"
	"stwb/cost"
	"stwb/model"
)

// Options set up a run.
type Options struct {
	// Scale divides every pattern's rate (as stwb serve --scale divides the
	// limits): at 100 a pattern of 1,500 a second sends 15.
	Scale    float64
	Duration time.Duration
	// Table is the table's name at the endpoint ("" the design's).
	Table string
	// Progress receives a line per pattern each second while the run goes; nil
	// for none.
	Progress io.Writer
	// Seed makes the key draws repeatable.
	Seed uint64
	// MaxInFlight bounds the requests under way at once, every pattern together
	// (0: 512): a slow endpoint lowers the achieved rate, which the report shows,
	// rather than piling up goroutines.
	MaxInFlight int
}

// throttleCodes are the errors DynamoDB throttles with (throttle.go in package
// throttle; API_ThrottlingReason.html).
var throttleCodes = map[string]bool{"ProvisionedThroughputExceededException": true, "ThrottlingException": true, "RequestLimitExceeded": true}

// counter counts one pattern's attempts as the SDK makes them (attemptCounter).
type counter struct {
	mu        sync.Mutex
	attempts  int64
	throttled int64
	reasons   map[string]int64
}

type counterKey struct{}

// countAttempts is a middleware after the SDK's retry step: it sees every attempt,
// retries included, and counts the throttled ones with their reasons.
func countAttempts(stack *middleware.Stack) error {
	return stack.Finalize.Insert(middleware.FinalizeMiddlewareFunc("stwbCountAttempts",
		func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
			out, md, err := next.HandleFinalize(ctx, in)
			if c, ok := ctx.Value(counterKey{}).(*counter); ok {
				c.mu.Lock()
				c.attempts++
				if reasons, throttled := throttledTry(out.Result, err); throttled {
					c.throttled++
					for _, r := range reasons {
						if c.reasons == nil {
							c.reasons = map[string]int64{}
						}
						c.reasons[r]++
					}
				}
				c.mu.Unlock()
			}
			return out, md, err
		}), "Retry", middleware.After)
}

// throttledTry reports whether one try was throttled, and why: a throttling
// error (its ThrottlingReasons); a transaction cancelled because an action was
// throttled (its cancellation codes, ProvisionedThroughputExceeded or
// ThrottlingError, API_TransactWriteItems.html); a batch answered with part of
// its items unprocessed, which is how DynamoDB throttles a batch
// (API_BatchWriteItem.html, API_BatchGetItem.html).
func throttledTry(result any, err error) ([]string, bool) {
	var ae smithy.APIError
	var tc *types.TransactionCanceledException
	switch {
	case errors.As(err, &tc):
		var codes []string
		for _, r := range tc.CancellationReasons {
			if c := aws.ToString(r.Code); c == "ProvisionedThroughputExceeded" || c == "ThrottlingError" {
				codes = append(codes, c)
			}
		}
		return codes, len(codes) > 0
	case errors.As(err, &ae):
		return throttlingReasons(err), throttleCodes[ae.ErrorCode()]
	}
	switch out := result.(type) {
	case *dynamodb.BatchWriteItemOutput:
		return []string{"UnprocessedItems"}, len(out.UnprocessedItems) > 0
	case *dynamodb.BatchGetItemOutput:
		return []string{"UnprocessedKeys"}, len(out.UnprocessedKeys) > 0
	}
	return nil, false
}

// throttlingReasons are the reasons a throttling error carries.
func throttlingReasons(err error) []string {
	var rs []types.ThrottlingReason
	var p *types.ProvisionedThroughputExceededException
	var t *types.ThrottlingException
	var l *types.RequestLimitExceeded
	switch {
	case errors.As(err, &p):
		rs = p.ThrottlingReasons
	case errors.As(err, &t):
		rs = t.ThrottlingReasons
	case errors.As(err, &l):
		rs = l.ThrottlingReasons
	}
	out := make([]string, 0, len(rs))
	for _, r := range rs {
		if r.Reason != nil {
			out = append(out, *r.Reason)
		}
	}
	return out
}

// patternRun is one pattern's state during a run.
type patternRun struct {
	p     *model.Pattern
	dr    *drawer
	rate  float64
	rng   *rand.Rand
	count counter
	mu    sync.Mutex
	sent  int64
	ok    int64
	errs  map[string]int64
	lat   []time.Duration
	read  float64
	write float64
	keys  map[[2]string]*[2]float64 // (pool, key) -> read, write units
	cost  *cost.PatternCost
	// seeded and unseeded count the drawn key values given copies of the
	// sample's items, and those left without (past maxSeeded, or a failed write).
	seeded, unseeded int64
}

// Run drives every pattern of the analysed design at its rate divided by the
// scale, all at once, for the duration, through db (whose retryer is the SDK's
// standard one), and reports what happened beside what cost and check predicted.
func Run(ctx context.Context, db *dynamodb.Client, a *analysis.Analysis, o Options) (*Report, error) {
	d := a.Design
	if o.Scale <= 0 {
		o.Scale = 1
	}
	if o.Duration <= 0 {
		o.Duration = 30 * time.Second
	}
	if o.MaxInFlight <= 0 {
		o.MaxInFlight = 512
	}
	table := o.Table
	if table == "" {
		table = d.Table.Name
	}
	db = dynamodb.New(db.Options(), func(opt *dynamodb.Options) { opt.APIOptions = append(opt.APIOptions, countAttempts) })
	seededTotal.Store(0)
	ks := cost.NewKeySpace(d, d.Items, func(e *model.Entity) int64 { return e.Count })
	var runs []*patternRun
	for i := range d.Patterns {
		p := &d.Patterns[i]
		pr := &patternRun{p: p, dr: newDrawer(d, ks, p), rate: p.EffectiveRate() / o.Scale,
			rng: rand.New(rand.NewPCG(o.Seed, uint64(p.ID))), errs: map[string]int64{}, keys: map[[2]string]*[2]float64{}}
		if a.Cost != nil {
			for j := range a.Cost.Patterns {
				if a.Cost.Patterns[j].ID == p.ID {
					pr.cost = &a.Cost.Patterns[j]
				}
			}
		}
		runs = append(runs, pr)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sem := make(chan struct{}, o.MaxInFlight)
	var wg sync.WaitGroup
	start := time.Now()
	end := start.Add(o.Duration)
	for _, pr := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pr.drive(ctx, db, table, d, start, end, sem, &wg)
		}()
	}
	if o.Progress != nil {
		go progress(ctx, o.Progress, runs, start, end)
	}
	wg.Wait()
	elapsed := time.Since(start)
	return report(a, runs, o, elapsed), ctx.Err()
}

// drive sends the pattern's requests on schedule: the n-th at start + n/rate, each
// in its own goroutine (bounded by sem), until end.
func (pr *patternRun) drive(ctx context.Context, db *dynamodb.Client, table string, d *model.Design, start, end time.Time, sem chan struct{}, wg *sync.WaitGroup) {
	if pr.rate <= 0 {
		return
	}
	interval := time.Duration(float64(time.Second) / pr.rate)
	for n := 0; ; n++ {
		at := start.Add(time.Duration(n) * interval)
		if !at.Before(end) {
			return
		}
		if wait := time.Until(at); wait > 0 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
		}
		select {
		case <-ctx.Done():
			return
		case sem <- struct{}{}:
		}
		dw := pr.dr.next(pr.rng)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			pr.seed(ctx, db, table, dw)
			pr.one(ctx, db, table, d, dw.reqs)
		}()
	}
}

// maxSeeded bounds the items a run writes to seed drawn key values, every pattern
// together; past it a drawn value goes unseeded (the report says how many).
const maxSeeded = 20000

// seeded counts the seed items written, every pattern together.
var seededTotal atomic.Int64

// seed gives a drawn key value copies of the pattern's family of sample items
// before its first request, once, outside the pattern's counts and timing: the
// request then reads or updates items as production's would.
func (pr *patternRun) seed(ctx context.Context, db *dynamodb.Client, table string, dw draw) {
	items := pr.dr.seedItems(dw)
	if items == nil {
		return
	}
	pr.dr.once(dw.rank).Do(func() {
		if seededTotal.Add(int64(len(items))) > maxSeeded {
			pr.mu.Lock()
			pr.unseeded++
			pr.mu.Unlock()
			return
		}
		for _, it := range items {
			q := model.Pattern{Operation: model.OpPutItem, Item: it}
			if _, err := send(ctx, db, table, &q); err != nil {
				pr.mu.Lock()
				pr.unseeded++
				pr.mu.Unlock()
				return
			}
		}
		pr.mu.Lock()
		pr.seeded++
		pr.mu.Unlock()
	})
}

// one sends one request of the pattern (every request of a fan-out, in turn) and
// records how it went: its latency from the first attempt to the answer the
// application gets, retries included.
func (pr *patternRun) one(ctx context.Context, db *dynamodb.Client, table string, d *model.Design, reqs []model.Pattern) {
	cctx := context.WithValue(ctx, counterKey{}, &pr.count)
	t0 := time.Now()
	var total consumed
	var err error
	for i := range reqs {
		var c consumed
		c, err = send(cctx, db, table, &reqs[i])
		total.read += c.read
		total.write += c.write
		pr.land(d, &reqs[i], c)
		if err != nil {
			break
		}
	}
	lat := time.Since(t0)
	pr.mu.Lock()
	defer pr.mu.Unlock()
	pr.sent++
	pr.lat = append(pr.lat, lat)
	pr.read += total.read
	pr.write += total.write
	if err == nil {
		pr.ok++
		return
	}
	code := "error"
	var ae smithy.APIError
	if errors.As(err, &ae) {
		code = ae.ErrorCode()
	} else if ctx.Err() != nil {
		code = "cancelled"
	}
	pr.errs[code]++
}

// land adds what one request consumed to its partition key values, table and
// GSIs, as Contributor Insights counts them: the table's key value of the item it
// names (or the Query's), each GSI's key value of the item it writes.
func (pr *patternRun) land(d *model.Design, q *model.Pattern, c consumed) {
	add := func(pool string, v model.Value, r, w float64) {
		if r == 0 && w == 0 || v.Type == 0 {
			return
		}
		k := [2]string{pool, v.Str}
		pr.mu.Lock()
		u := pr.keys[k]
		if u == nil {
			u = &[2]float64{}
			pr.keys[k] = u
		}
		u[0] += r
		u[1] += w
		pr.mu.Unlock()
	}
	if v, ok := keyValue(d, q, pr.dr.pool, pr.dr.attr); ok {
		if pr.dr.pool == "table" {
			add("table", v, c.read, c.write)
		} else {
			g := c.gsi[pr.dr.pool]
			add(pr.dr.pool, v, g[0], g[1])
		}
	}
	for name, g := range c.gsi {
		if name == pr.dr.pool {
			continue
		}
		ix, ok := d.Table.IndexByName(name)
		if !ok || q.Item == nil {
			continue
		}
		if v, ok := q.Item[d.Table.IndexPartition(&ix)]; ok {
			add(name, v, g[0], g[1])
		}
	}
}

// progress prints a line per pattern each second: sent, throttled, retries and
// latency so far.
func progress(ctx context.Context, w io.Writer, runs []*patternRun, start, end time.Time) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			if now.After(end) {
				return
			}
			for _, pr := range runs {
				pr.mu.Lock()
				lat := slices.Clone(pr.lat)
				sent := pr.sent
				pr.mu.Unlock()
				pr.count.mu.Lock()
				att, thr := pr.count.attempts, pr.count.throttled
				pr.count.mu.Unlock()
				p50, p99, _ := percentiles(lat)
				fmt.Fprintf(w, "%3.0fs  pattern %d %-18s sent %d  throttled %d  retries %d  p50 %s  p99 %s\n",
					now.Sub(start).Seconds(), pr.p.ID, pr.p.Operation, sent, thr, max(att-sent, 0), ms(p50), ms(p99))
			}
		}
	}
}

// percentiles are the 50th and 99th percentile and the largest of a sample
// (nearest rank).
func percentiles(ds []time.Duration) (p50, p99, top time.Duration) {
	if len(ds) == 0 {
		return 0, 0, 0
	}
	slices.Sort(ds)
	at := func(q float64) time.Duration {
		i := int(q*float64(len(ds))+0.999999) - 1
		return ds[min(max(i, 0), len(ds)-1)]
	}
	return at(0.50), at(0.99), ds[len(ds)-1]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }

// topKeys ranks the key values of every pattern by consumed units, reads and
// writes apart, per table and GSI: the n hottest of each.
func topKeys(runs []*patternRun, secs float64, n int) []KeyUnits {
	sum := map[[2]string]*[2]float64{}
	for _, pr := range runs {
		for k, u := range pr.keys {
			s := sum[k]
			if s == nil {
				s = &[2]float64{}
				sum[k] = s
			}
			s[0] += u[0]
			s[1] += u[1]
		}
	}
	var out []KeyUnits
	for _, kind := range []string{"read", "write"} {
		byPool := map[string][]KeyUnits{}
		for k, u := range sum {
			v := u[0]
			if kind == "write" {
				v = u[1]
			}
			if v > 0 {
				byPool[k[0]] = append(byPool[k[0]], KeyUnits{Pool: k[0], Key: k[1], Kind: kind, Units: v, PerSecond: v / secs})
			}
		}
		pools := make([]string, 0, len(byPool))
		for p := range byPool {
			pools = append(pools, p)
		}
		sort.Slice(pools, func(i, j int) bool { return pools[i] == "table" || pools[j] != "table" && pools[i] < pools[j] })
		for _, p := range pools {
			ks := byPool[p]
			sort.Slice(ks, func(i, j int) bool {
				return ks[i].Units > ks[j].Units || ks[i].Units == ks[j].Units && ks[i].Key < ks[j].Key
			})
			out = append(out, ks[:min(n, len(ks))]...)
		}
	}
	return out
}

// flaggedBy is what check says of a pattern's throttling: the findings of the
// rules about throughput (hot-partition, under-provisioned) that name it, or a
// key over the limits that its load is part of.
func flaggedBy(a *analysis.Analysis, id int) []string {
	var out []string
	for _, f := range a.Findings {
		if (f.Rule == "hot-partition" || f.Rule == "under-provisioned") && (f.Pattern == id || f.Pattern == 0) && !slices.Contains(out, f.Rule) {
			out = append(out, f.Rule)
		}
	}
	if len(out) == 0 && a.Cost != nil && a.Cost.InHotKey(id) {
		out = append(out, "a key over a partition's limits")
	}
	return out
}

func joinCodes(m map[string]int64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
