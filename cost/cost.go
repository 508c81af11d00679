// Package cost prices a design: what each access pattern consumes per request (from
// the engine's run of it), per second at its peak rate, and per month on-demand and
// provisioned; what the table and each index store; and which partition key values
// run hot. It never computes capacity itself: request units come from
// engine.Result.Consumed, item sizes from model.ItemSize. The prices are one table,
// prices.yaml.
package cost

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"

	"stwb/engine"
	"stwb/model"
)

// Input is what a cost report is computed from. The report prices results that
// already exist: it never runs a pattern itself. analysis.Run is the pipeline that
// makes them (each pattern run once) and hands the same results on to the review.
type Input struct {
	Design *model.Design
	// Results are the design's patterns as the engine ran them on its items:
	// Results[i] is Patterns[i]'s, one page of a Query or Scan (engine.RunOptions{}).
	// A pattern without a result (a short slice, a nil entry) is left unpriced with
	// an InternalError.
	Results []*engine.Result
	// Items are the design's items as stored, keys filled from the entity templates.
	// Nil means Design.Items. With Sizes, an item may hold only the attributes cost
	// reads (its type, its key, key-template and projected attributes): what
	// analysis.Load passes for a design loaded lazily, which has no maps of its
	// items (model.ItemList).
	Items model.ItemList
	// Sizes are the items' sizes, model.ItemSize of each whole item, Sizes[i] for
	// Items[i]; nil computes them from Items.
	Sizes []int
	// Storage is the storage tally of the stored items, when the caller filled it
	// as it read them (analysis.Load); nil: ComputeStorage reads Items.
	Storage *StorageTally
	// Stored, when set, returns the stored item whose table key is key's (nil when
	// none): the engine the results came from holds the items by key, so the entity
	// of an index entry that leaves the type out is looked up there rather than in
	// a map of every item's key (KeySpace.EntityOf).
	Stored func(key model.Item) model.Item
	// Prices is the price table; nil means Builtin().
	Prices Prices
	// Region overrides the design's region ("" keeps it; the design's "" is us-east-1).
	Region string
	// AllPages prices every Query and Scan as every page of its production result
	// (`stwb cost --all-pages`), as a pattern's `pages: all` does for itself; the
	// Results should then be runs with engine.RunOptions{AllPages: true}.
	AllPages bool
}

// Units are read units (RCU: an eventually consistent read of up to 4 KB is 0.5)
// and write units (WCU), for the table and for each index by name.
type Units struct {
	Read    float64 // table and indexes
	Write   float64 // table and indexes
	Table   engine.Units
	Indexes map[string]engine.Units
}

// Monthly are a pattern's (or the design's) throughput dollars per month.
type Monthly struct {
	// OnDemand bills request units: read request units, where an eventually
	// consistent read of up to 4 KB is 0.5 RRU, a strongly consistent one 1 RRU and a
	// transactional one 2 RRU (so RRU = RCU figure for figure), and write request
	// units likewise (1 WRU per KB, 2 in a transaction). Units per second x
	// 2,628,000 s x the price per million.
	OnDemand float64
	// Provisioned is the capacity the peak needs (whole RCU and WCU for the table and
	// for each GSI, an LSI's units on the table's) x 730 h x the hourly price, at 100%
	// utilisation.
	Provisioned float64
	// AtTarget is Provisioned at the design's autoscaling target utilisations
	// (capacity / target, rounded up, each pool's read and write at their own
	// targets: poolTargets); 0 when the design sets no target.
	AtTarget float64
}

// Pool is one body of provisioned throughput: the table (its own units and its
// LSIs') or one GSI, with the capacity a load needs.
type Pool struct {
	Name        string  // "table" or the GSI's name
	Read        float64 // RCU per second
	Write       float64 // WCU per second
	NeedRead    int64   // whole RCU the load needs at 100%
	NeedWrite   int64
	TargetRead  int64 // at the autoscaling target; 0 without one
	TargetWrite int64
	// ReadTarget and WriteTarget are the utilisations each side is sized at
	// (poolTargets); 0 for a side sized at 100%.
	ReadTarget, WriteTarget float64
	// Configured capacity when the table is provisioned (a GSI without its own
	// figures has the table's); 0 on-demand.
	ConfiguredRead, ConfiguredWrite int64
}

// Required is the capacity the pool must be provisioned at for its peak: at the
// autoscaling target when the design sets one (the load over the target, rounded
// up), else at 100%.
func (p Pool) Required() (read, write int64) {
	return max(p.NeedRead, p.TargetRead), max(p.NeedWrite, p.TargetWrite)
}

// SizedAt says in words what utilisation Required sizes the pool at: "at 100%
// utilisation (no autoscaling target)", "at the 70% autoscaling target", or "at
// the 50% read and 70% write autoscaling targets".
func (p Pool) SizedAt() string {
	pct := func(f float64) string { return strconv.FormatFloat(f*100, 'f', -1, 64) + "%" }
	switch {
	case p.ReadTarget == 0 && p.WriteTarget == 0:
		return "at 100% utilisation (no autoscaling target)"
	case p.ReadTarget == p.WriteTarget:
		return "at the " + pct(p.ReadTarget) + " autoscaling target"
	}
	side := func(f float64, name string) string {
		if f == 0 {
			return "100% " + name
		}
		return pct(f) + " " + name
	}
	return "at the " + side(p.ReadTarget, "read") + " and " + side(p.WriteTarget, "write") + " autoscaling targets"
}

// Short reports whether the configured capacity is below what the peak requires;
// for a GSI that means writes to the base table throttle (GSI.html, "Provisioned
// throughput considerations for global secondary indexes"). The under-provisioned
// rule and the cost report both ask it.
func (p Pool) Short() bool {
	r, w := p.Required()
	return p.ConfiguredRead+p.ConfiguredWrite > 0 && (r > p.ConfiguredRead || w > p.ConfiguredWrite)
}

// PatternCost is what one access pattern costs.
type PatternCost struct {
	Index      int // the pattern's position in the design
	ID         int
	Name       string
	Operation  model.Operation
	IndexName  string // the index a Query or Scan reads; "" for the table
	Rate       float64
	Consistent bool
	Batch      bool

	// PerRequest is one request: for a Query or Scan the page production would
	// serve (Page), else the engine's run; Sample is the engine's run on the sample
	// items, shown beside it. For a fan-out (Requests > 0) both are summed over its
	// requests, each billed on its own, and Page is the first request's.
	PerRequest Units
	Sample     Units
	Page       Page
	// Requests is how many requests a fan-out pattern runs (model.Fanout); 0 for a
	// pattern that is one request.
	Requests  int
	PerSecond Units // PerRequest x Rate
	Pools     []Pool
	Monthly   Monthly
	// Hot is the pattern's own hottest key on the table and each GSI; the verdicts
	// rest on Report.Keys, the load of every pattern summed per key.
	Hot Hot

	loads []contribution // where the pattern's load lands, for Report.Keys
	res   *engine.Result // the run it was priced from, for ShardReads

	// Err is the request's DynamoDB error. A ConditionalCheckFailedException is
	// still billed (the engine reports what it consumed); any other error leaves the
	// pattern unpriced.
	Err *engine.Error
}

// Totals are the design's sums over its patterns.
type Totals struct {
	PerSecond Units
	Pools     []Pool
	Monthly   Monthly
	// Configured is what the design's provisioned capacity costs per month as
	// configured (table and GSIs); 0 on-demand.
	Configured float64
	// Storage is the storage dollars per month (the free tier NOT subtracted).
	Storage float64
	// PerRequestRead and PerRequestWrite sum every pattern's per-request units: a page
	// view served by several patterns, one request each, costs this much.
	PerRequestRead, PerRequestWrite float64
}

// Report is a design's cost.
type Report struct {
	Design   string
	Region   string
	Class    model.TableClass
	Billing  model.Billing
	Prices   ClassPrices
	Patterns []PatternCost
	Storage  Storage
	Totals   Totals
	// Keys is the load on each key of the table and of each GSI, summed over every
	// pattern, hottest first (the load model in load.go).
	Keys []KeyLoad
	// TTL is the table's TTL attribute ("" none); Expiries what each entity's
	// expiring items would cost deleted by hand, which TTL deletes do not (ttl.go).
	TTL      string
	Expiries []Expiry

	keys *KeySpace

	allPages bool          // Input.AllPages
	design   *model.Design // the design last priced, for ShardReads

	gsis   []string            // the design's GSIs, in design order
	local  map[string]bool     // LSI names: their units draw on the table's throughput
	indexW map[string][2]int64 // configured GSI capacity
	// The autoscaling targets of the table's pool and of each GSI's (poolTargets);
	// anyTarget when the design sets one anywhere, and so AtTarget is priced.
	tableTarget sideTargets
	gsiTarget   map[string]sideTargets
	anyTarget   bool
}

// KeySpace is what the report knew of the design's key values (nil before a
// pattern was priced): review reads the same, rather than reading every sample
// item again.
func (r *Report) KeySpace() *KeySpace { return r.keys }

// Targets lists the distinct autoscaling targets that AtTarget is priced at, from
// the lowest; none when the design sets no target.
func (r *Report) Targets() []float64 {
	var out []float64
	add := func(t sideTargets) {
		for _, v := range []float64{t.read, t.write} {
			if v > 0 && !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	add(r.tableTarget)
	for _, g := range r.gsis {
		add(r.gsiTarget[g])
	}
	slices.Sort(out)
	return out
}

// sideTargets is one pool's autoscaling target utilisation for reads and for
// writes; 0 for a side that has none.
type sideTargets struct{ read, write float64 }

// poolTargets gives each pool's read and write the target they scale to.
// DynamoDB autoscaling tracks a target per scalable dimension: a table's read
// capacity and its write capacity are two scalable targets, each GSI's two more,
// each with its own target-tracking policy (AutoScaling.html, "target utilization";
// ApplicationAutoScaling's dynamodb:table:ReadCapacityUnits, WriteCapacityUnits,
// dynamodb:index:ReadCapacityUnits, WriteCapacityUnits). So a side's own target
// (billing.provisioned.autoscaling.read/write, an index's autoscaling) prices it;
// a table side without one takes billing.provisioned.target; a GSI side without
// one takes the table's side, as the console's "apply the same settings to global
// secondary indexes" does.
func poolTargets(d *model.Design) (table sideTargets, gsis map[string]sideTargets) {
	b := d.Table.Billing
	side := func(s *model.Scaling, fallback float64) float64 {
		if s != nil && s.Target > 0 {
			return s.Target
		}
		return fallback
	}
	table = sideTargets{side(b.Autoscaling.Read, b.Target), side(b.Autoscaling.Write, b.Target)}
	gsis = map[string]sideTargets{}
	for _, ix := range d.Table.Indexes {
		if !ix.Local {
			gsis[ix.Name] = sideTargets{side(ix.Autoscaling.Read, table.read), side(ix.Autoscaling.Write, table.write)}
		}
	}
	return table, gsis
}

// Compute prices every pattern of the design and its storage.
func Compute(in Input) (*Report, error) {
	r, err := newReport(in)
	if err != nil {
		return nil, err
	}
	d := in.Design
	items := in.Items
	if items == nil {
		items = model.ItemMaps(d.Items)
	}
	// Storage first: its entity counts (the samples' number where the design gives
	// none) are what hot-partition analysis divides by.
	if in.Storage != nil {
		r.Storage = in.Storage.Storage(r.Prices)
		r.keys = NewKeySpaceOf(d, items, r.entityCount)
	} else {
		// The key space's reads of each item are made in the same pass; the
		// sample index only when no stored item can be looked up instead.
		t, ks := readItems(d, items, in.Sizes, r.entityCount, true, in.Stored == nil)
		r.Storage, r.keys = t.Storage(r.Prices), ks
	}
	r.TTL, r.Expiries = d.Table.TTL, r.expiries(d)
	r.keys.stored = in.Stored
	r.Patterns = make([]PatternCost, len(d.Patterns))
	for i := range d.Patterns {
		var res *engine.Result
		if i < len(in.Results) {
			res = in.Results[i]
		}
		r.Patterns[i] = r.pattern(d, i, res)
	}
	r.total()
	return r, nil
}

// Pattern reprices pattern i of design d from its new result res (one run of the
// edited pattern on the engine that holds the design's items) and puts it in the
// report with the totals redone: what an edit to one pattern costs, one run and no
// rebuild. Storage is left as it is; call Compute when items change.
func (r *Report) Pattern(d *model.Design, i int, res *engine.Result) (PatternCost, error) {
	if i < 0 || i >= len(d.Patterns) {
		return PatternCost{}, fmt.Errorf("pattern index %d is out of range: the design has %d patterns", i, len(d.Patterns))
	}
	pc := r.pattern(d, i, res)
	for len(r.Patterns) < len(d.Patterns) {
		r.Patterns = append(r.Patterns, PatternCost{})
	}
	r.Patterns = r.Patterns[:len(d.Patterns)]
	r.Patterns[i] = pc
	r.total()
	return pc, nil
}

// entityCount is an entity's production count as storage took it: its `count`, or
// its number of sample items when it has none.
func (r *Report) entityCount(e *model.Entity) int64 {
	for _, es := range r.Storage.Entities {
		if es.Name == e.Name {
			return es.Count
		}
	}
	return e.Count
}

func newReport(in Input) (*Report, error) {
	d := in.Design
	if d == nil {
		return nil, fmt.Errorf("no design to price")
	}
	prices := in.Prices
	if prices == nil {
		prices = Builtin()
	}
	region := in.Region
	if region == "" {
		region = d.Region
	}
	if region == "" {
		region = DefaultRegion
	}
	class := d.Table.Class
	if class == "" {
		class = model.ClassStandard
	}
	cp, err := prices.For(region, class)
	if err != nil {
		return nil, err
	}
	r := &Report{Design: d.Name, Region: region, Class: class, Billing: d.Table.Billing, Prices: cp,
		local: map[string]bool{}, indexW: map[string][2]int64{}, allPages: in.AllPages}
	r.tableTarget, r.gsiTarget = poolTargets(d)
	r.anyTarget = r.tableTarget.read > 0 || r.tableTarget.write > 0
	for _, t := range r.gsiTarget {
		r.anyTarget = r.anyTarget || t.read > 0 || t.write > 0
	}
	for _, ix := range d.Table.Indexes {
		if ix.Local {
			r.local[ix.Name] = true
			continue
		}
		r.gsis = append(r.gsis, ix.Name)
		rd, wr := ix.Read, ix.Write
		if rd == 0 {
			rd = d.Table.Billing.Read
		}
		if wr == 0 {
			wr = d.Table.Billing.Write
		}
		r.indexW[ix.Name] = [2]int64{rd, wr}
	}
	return r, nil
}

// firstRequest is the capacity of one request: a Query or Scan's first page, any
// other operation's whole result.
func firstRequest(res *engine.Result) engine.Capacity {
	if len(res.Pages) > 0 {
		return res.Pages[0].Consumed
	}
	return res.Consumed
}

// Billed reports whether DynamoDB charges a request that ended in err: a failed
// condition consumes write capacity (read-write-operations.html, "Conditional
// writes"), and so does a cancelled transaction (transaction-apis.html, "Capacity
// management for transactions"); a validation error is refused before any work.
// Every view that says whether a pattern is priced asks this (issue 25: the
// Markdown export said "not priced" of a failed transaction its total billed).
func Billed(err *engine.Error) bool {
	return err == nil || err.Type == "ConditionalCheckFailedException" || err.Type == "TransactionCanceledException"
}

// pattern prices pattern i of d from its result.
func (r *Report) pattern(d *model.Design, i int, res *engine.Result) PatternCost {
	p := &d.Patterns[i]
	pc := PatternCost{Index: i, ID: p.ID, Name: p.Name, Operation: p.Operation, IndexName: p.Index,
		Rate: p.EffectiveRate(), Consistent: p.Consistent, Batch: p.Batch}
	if res == nil {
		pc.Err = &engine.Error{Type: "InternalError", Message: "the engine returned no result"}
		return pc
	}
	pc.Err, pc.res, r.design = res.Err, res, d
	if r.keys == nil {
		r.keys = NewKeySpace(d, d.Items, r.entityCount)
	}
	if len(res.Requests) > 0 {
		r.fanout(d, p, res, &pc)
	} else if Billed(res.Err) {
		pc.Sample, pc.Page, pc.PerRequest = r.request(d, p, res, nil)
	}
	pc.PerSecond = pc.PerRequest.scale(pc.Rate)
	pc.Pools = r.pools(pc.PerSecond)
	pc.Monthly = r.monthly(pc.PerSecond, pc.Pools)
	if pc.loads == nil {
		pc.loads = r.loadsOf(d, r.keys, p, res, pc.Rate, pc.PerRequest)
	}
	pc.Hot = hotOf(pc.loads, r.gsis)
	return pc
}

// request prices one request of pattern p from its result: the sample's units, the
// production page of a Query or Scan, and the units the request is priced at (the
// production page's where it is known). shown are a fan-out's variables
// (productionPage).
func (r *Report) request(d *model.Design, p *model.Pattern, res *engine.Result, shown []string) (sample Units, pg Page, per Units) {
	sample = unitsOf(firstRequest(res))
	if p.AllPages || r.allPages {
		sample = unitsOf(res.Consumed) // the run followed every page
	}
	per = sample
	if res.Err == nil && (p.Operation == model.OpQuery || p.Operation == model.OpScan) {
		// Reads are priced on the page production would serve, not the sample's.
		pg = r.productionPage(d, p, res, shown)
		if pg.Known {
			per = pg.Units
		}
	}
	return sample, pg, per
}

// fanout prices a fan-out pattern as its requests (engine.RunFanout): each request
// priced on its own (DynamoDB bills every Query on its own, each rounded up), the
// units summed into one call of the pattern, and the load of each request on its
// own key value, so that the N key values each take the pattern's rate of one
// request (bp-write-sharding.html: a read of a sharded key is a query per shard).
func (r *Report) fanout(d *model.Design, p *model.Pattern, res *engine.Result, pc *PatternCost) {
	subs := p.FanoutRequests()
	n := min(len(subs), len(res.Requests))
	pc.Requests = n
	sk := skewOf(d, p)
	shown := r.fanoutVars(d, subs[:n], res.Requests[:n])
	for i := 0; i < n; i++ {
		sub := res.Requests[i]
		if !Billed(sub.Err) {
			continue
		}
		sample, pg, per := r.request(d, &subs[i], sub, shown)
		pc.Sample, pc.PerRequest = pc.Sample.add(sample), pc.PerRequest.add(per)
		if i == 0 {
			pc.Page = pg
			if pg.Because != "" {
				pc.Page.Because = fmt.Sprintf("each of the %d requests: %s", n, pg.Because)
			}
		}
		for _, c := range r.loadsOf(d, r.keys, &subs[i], sub, pc.Rate, per) {
			c.key = fanoutKey(c.key, int64(n))
			c.share, c.spread, c.atLeast, c.unknown = hottestOf(c.key, sk)
			c.spread = fmt.Sprintf("each of the fan-out's %d requests loads its own key value", n)
			pc.loads = append(pc.loads, c)
		}
	}
	if pc.loads == nil {
		pc.loads = []contribution{}
	}
}

// fanoutVars are the variables of the partition key's template that a fan-out's
// Query requests set: those whose value differs between its first two requests'
// keys (ORDERS#{orderDay}#{shard} read for shard 0 and 1: shard). None for a
// fan-out of one request or of GetItems, which have no page to describe.
func (r *Report) fanoutVars(d *model.Design, subs []model.Pattern, res []*engine.Result) []string {
	if len(subs) < 2 || subs[0].Operation != model.OpQuery {
		return nil
	}
	var keys [2]KeyInfo
	for k := range keys {
		_, attr, _ := readPool(d, &subs[k])
		v, has := queryPartitionValue(d, &subs[k], res[k], attr)
		keys[k] = r.keys.Key(attr, v, has)
	}
	if keys[0].Template == "" || keys[0].Template != keys[1].Template {
		return nil
	}
	var out []string
	for _, name := range model.TemplateVars(keys[0].Template) {
		if keys[0].vals[name] != keys[1].vals[name] && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

func unitsOf(c engine.Capacity) Units {
	u := Units{Read: c.Read(), Write: c.Write(), Table: c.Table}
	if len(c.Indexes) > 0 {
		u.Indexes = make(map[string]engine.Units, len(c.Indexes))
		for k, v := range c.Indexes {
			u.Indexes[k] = v
		}
	}
	return u
}

func (u Units) scale(f float64) Units {
	s := Units{Read: u.Read * f, Write: u.Write * f,
		Table: engine.Units{Read: u.Table.Read * f, Write: u.Table.Write * f}}
	if len(u.Indexes) > 0 {
		s.Indexes = make(map[string]engine.Units, len(u.Indexes))
		for k, v := range u.Indexes {
			s.Indexes[k] = engine.Units{Read: v.Read * f, Write: v.Write * f}
		}
	}
	return s
}

func (u Units) add(o Units) Units {
	s := Units{Read: u.Read + o.Read, Write: u.Write + o.Write,
		Table: engine.Units{Read: u.Table.Read + o.Table.Read, Write: u.Table.Write + o.Table.Write}}
	if len(u.Indexes)+len(o.Indexes) > 0 {
		s.Indexes = map[string]engine.Units{}
		for _, m := range []map[string]engine.Units{u.Indexes, o.Indexes} {
			for k, v := range m {
				t := s.Indexes[k]
				s.Indexes[k] = engine.Units{Read: t.Read + v.Read, Write: t.Write + v.Write}
			}
		}
	}
	return s
}

// IndexNames lists the indexes that units name, sorted, so output is stable.
func (u Units) IndexNames() []string {
	ns := make([]string, 0, len(u.Indexes))
	for k := range u.Indexes {
		ns = append(ns, k)
	}
	sort.Strings(ns)
	return ns
}

// ceilUnits is the whole capacity units a load needs. A tiny tolerance keeps float
// sums such as 0.1 x 3 from asking for one unit more than they are.
func ceilUnits(x float64) int64 {
	if x <= 0 {
		return 0
	}
	return int64(math.Ceil(x - 1e-9))
}

// pools splits per-second units into the bodies of throughput DynamoDB provisions:
// the table (with its LSIs, which share its throughput, LSI.html) and each GSI
// (which has its own, GSI.html).
func (r *Report) pools(ps Units) []Pool {
	tab := Pool{Name: "table", Read: ps.Table.Read, Write: ps.Table.Write}
	for name, u := range ps.Indexes {
		if r.local[name] || !r.isGSI(name) {
			tab.Read += u.Read
			tab.Write += u.Write
		}
	}
	pools := []Pool{r.need(tab, r.Billing.Read, r.Billing.Write, r.tableTarget)}
	for _, g := range r.gsis {
		u, ok := ps.Indexes[g]
		if !ok {
			continue
		}
		c := r.indexW[g]
		pools = append(pools, r.need(Pool{Name: g, Read: u.Read, Write: u.Write}, c[0], c[1], r.gsiTarget[g]))
	}
	return pools
}

func (r *Report) isGSI(name string) bool {
	for _, g := range r.gsis {
		if g == name {
			return true
		}
	}
	return false
}

// need is what pool p's load needs at 100% and at its targets. A side without a
// target, when another has one, is priced at 100% in AtTarget: it does not scale.
func (r *Report) need(p Pool, confRead, confWrite int64, t sideTargets) Pool {
	p.NeedRead, p.NeedWrite = ceilUnits(p.Read), ceilUnits(p.Write)
	p.ReadTarget, p.WriteTarget = t.read, t.write
	if r.anyTarget {
		p.TargetRead, p.TargetWrite = p.NeedRead, p.NeedWrite
		if t.read > 0 {
			p.TargetRead = ceilUnits(p.Read / t.read)
		}
		if t.write > 0 {
			p.TargetWrite = ceilUnits(p.Write / t.write)
		}
	}
	if r.Billing.Mode == model.Provisioned {
		p.ConfiguredRead, p.ConfiguredWrite = confRead, confWrite
	}
	return p
}

// monthly prices per-second units: on-demand by request units, provisioned by the
// whole capacity each pool needs.
func (r *Report) monthly(ps Units, pools []Pool) Monthly {
	m := Monthly{OnDemand: OnDemandMonthly(ps.Read, ps.Write, r.Prices)}
	for _, p := range pools {
		m.Provisioned += ProvisionedMonthly(float64(p.NeedRead), float64(p.NeedWrite), r.Prices)
		if r.anyTarget {
			m.AtTarget += ProvisionedMonthly(float64(p.TargetRead), float64(p.TargetWrite), r.Prices)
		}
	}
	return m
}

// OnDemandMonthly is a month of on-demand requests: read and write request units per
// second x 2,628,000 seconds (730 h) x the price per million. Read units are RCU
// figures, which equal read request units: 0.5 for an eventually consistent read of
// up to 4 KB, 1 strongly consistent, 2 transactional
// (https://aws.amazon.com/dynamodb/pricing/on-demand/, "Read request units").
func OnDemandMonthly(readPerSec, writePerSec float64, p ClassPrices) float64 {
	return (readPerSec*p.ReadRequestUnitPerMillion + writePerSec*p.WriteRequestUnitPerMillion) * SecondsPerMonth / 1e6
}

// ProvisionedMonthly is a month of provisioned capacity: RCU and WCU x 730 h x the
// hourly price (https://aws.amazon.com/dynamodb/pricing/provisioned/).
func ProvisionedMonthly(rcu, wcu float64, p ClassPrices) float64 {
	return (rcu*p.RCUHour + wcu*p.WCUHour) * HoursPerMonth
}

// total redoes the design's sums from its patterns and storage. Pools are summed
// per second first and rounded up once, as one table is provisioned once.
func (r *Report) total() {
	var t Totals
	for _, pc := range r.Patterns {
		t.PerSecond = t.PerSecond.add(pc.PerSecond)
		t.PerRequestRead += pc.PerRequest.Read
		t.PerRequestWrite += pc.PerRequest.Write
	}
	t.Pools = r.pools(t.PerSecond)
	t.Monthly = r.monthly(t.PerSecond, t.Pools)
	if r.Billing.Mode == model.Provisioned {
		t.Configured = ProvisionedMonthly(float64(r.Billing.Read), float64(r.Billing.Write), r.Prices)
		for _, g := range r.gsis {
			c := r.indexW[g]
			t.Configured += ProvisionedMonthly(float64(c[0]), float64(c[1]), r.Prices)
		}
	}
	t.Storage = r.Storage.Monthly
	r.Totals = t
	r.Keys = r.keyLoads()
	r.shardReads()
}
