package throttle

import (
	"math"
	"slices"
	"strconv"
	"sync"
	"time"

	"stwb/cost"
	"stwb/model"
)

// The limits DynamoDB enforces, per second, as the Limiter applies them. The
// per-partition limits are cost's (cost.PartitionReadLimit, PartitionWriteLimit),
// the ones `stwb check` judges a design by, so that check and a rehearsal agree.
const (
	// BurstSeconds is the unused provisioned capacity DynamoDB keeps for a burst:
	// up to five minutes of it (burst-adaptive-capacity.html, "Burst capacity").
	BurstSeconds = 300
	// AccountTableLimit is the per-table account quota of an on-demand table (and
	// of each of its GSIs): 40,000 read and 40,000 write request units a second
	// (ServiceQuotas.html, "Throughput default quotas").
	AccountTableLimit = 40000
)

// Options set up a Limiter.
type Options struct {
	// Scale divides every limit and every burst (stwb serve --scale N), so that a
	// laptop reaches them: at 100 a key value holds 10 WCU a second. 0 means 1.
	Scale float64
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// SplitAfter is how long a key value is throttled without a break before it
	// splits for heat; 0 means cost.SplitForHeatAfter.
	SplitAfter time.Duration
}

// Charge is what one request takes from one partition key value of the table or
// of a GSI: the units it consumed there, read and write.
type Charge struct {
	// Index is "" for the table (an LSI's units included: an LSI shares the table's
	// partitions and throughput) or a GSI's name.
	Index string
	// Key is the partition key value, as text (KeyText); "" for a Scan, which
	// names none.
	Key string
	// Item is the item's whole primary key, as text, when the request touches one
	// item; "" otherwise. Splits says DynamoDB can split the key value for heat
	// item by item (cost.SplitCaseOf, cost.SplitFor); its limit then applies per item once split.
	Item   string
	Splits bool
	Read   float64
	Write  float64
}

// Limiter holds the token buckets of every table served: its provisioned capacity
// with burst (or an on-demand table's account quota and maximum), its GSIs' the
// same, and each partition key value's. It is safe for concurrent use.
type Limiter struct {
	mu         sync.Mutex
	scale      float64
	now        func() time.Time
	splitAfter time.Duration
	tables     map[string]*tableState
}

// New makes a Limiter with no tables.
func New(o Options) *Limiter {
	if o.Scale <= 0 {
		o.Scale = 1
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.SplitAfter <= 0 {
		o.SplitAfter = cost.SplitForHeatAfter
	}
	return &Limiter{scale: o.Scale, now: o.Now, splitAfter: o.SplitAfter, tables: map[string]*tableState{}}
}

// Scale is the factor every limit is divided by.
func (l *Limiter) Scale() float64 { return l.scale }

// tableState is one table's buckets. limits is what they were made from: a table
// whose capacity changes (UpdateTable) gets new pool buckets.
type tableState struct {
	limits      tableLimits
	pools       map[string][]*limit // "" the table, or a GSI's name
	keys        map[string]*keyState
	sweepAt     int
	provisioned bool
}

// limit is one throughput limit of a table or GSI: its kind, and a bucket each for
// reads and writes.
type limit struct {
	kind        string // Provisioned, AccountLimit or MaxOnDemand
	read, write *bucket
}

// keyState is one partition key value's (or item's) buckets, and how long it has
// been throttled: a key throttled without a break for SplitAfter splits for heat.
type keyState struct {
	read, write       *bucket
	hotSince, lastHot time.Time
	split             bool
}

// tableLimits are the capacities a table's pools are made from.
type tableLimits struct {
	arn               string
	mode              model.BillingMode
	read, write       int64
	maxRead, maxWrite int64  // an on-demand table's maximum throughput (0: none)
	indexes           string // each GSI's name and capacity, to notice a change
}

func limitsOf(def *model.Table, arn string) tableLimits {
	tl := tableLimits{arn: arn, mode: def.Billing.Mode, read: def.Billing.Read, write: def.Billing.Write,
		maxRead: def.Billing.MaxRead, maxWrite: def.Billing.MaxWrite}
	for _, ix := range def.Indexes {
		if !ix.Local {
			r, w := indexCapacity(def, &ix)
			tl.indexes += ix.Name + "\x00" + strconv.FormatInt(r, 10) + "\x00" + strconv.FormatInt(w, 10) + "\x00"
		}
	}
	return tl
}

// indexCapacity is a GSI's provisioned capacity: its own, or the table's when the
// design gives none (model.Index: 0 is the table's).
func indexCapacity(def *model.Table, ix *model.Index) (int64, int64) {
	r, w := ix.Read, ix.Write
	if r == 0 {
		r = def.Billing.Read
	}
	if w == 0 {
		w = def.Billing.Write
	}
	return r, w
}

// state is table def's buckets, made (or remade, its capacity changed) now.
func (l *Limiter) state(def *model.Table, arn string, now time.Time) *tableState {
	tl := limitsOf(def, arn)
	ts := l.tables[def.Name]
	if ts != nil && ts.limits == tl {
		return ts
	}
	keys := map[string]*keyState{}
	if ts != nil {
		keys = ts.keys // a capacity change leaves the partitions as they are
	}
	ts = &tableState{limits: tl, pools: map[string][]*limit{}, keys: keys, sweepAt: 1024,
		provisioned: def.Billing.Mode == model.Provisioned}
	pool := func(r, w float64) []*limit {
		if ts.provisioned {
			return []*limit{{kind: Provisioned, read: newBucket(r/l.scale, BurstSeconds, now), write: newBucket(w/l.scale, BurstSeconds, now)}}
		}
		a := AccountTableLimit / l.scale
		return []*limit{{kind: AccountLimit, read: newBucket(a, 1, now), write: newBucket(a, 1, now)}}
	}
	ts.pools[""] = pool(float64(def.Billing.Read), float64(def.Billing.Write))
	if !ts.provisioned && (def.Billing.MaxRead > 0 || def.Billing.MaxWrite > 0) {
		// The table's own maximum (on-demand-capacity-mode-max-throughput.html);
		// a side it leaves unset has none.
		side := func(n int64) *bucket {
			if n <= 0 {
				return newBucket(math.Inf(1), 1, now)
			}
			return newBucket(float64(n)/l.scale, 1, now)
		}
		ts.pools[""] = append(ts.pools[""], &limit{kind: MaxOnDemand, read: side(def.Billing.MaxRead), write: side(def.Billing.MaxWrite)})
	}
	for i := range def.Indexes {
		ix := &def.Indexes[i]
		if ix.Local {
			continue
		}
		r, w := indexCapacity(def, ix)
		ts.pools[ix.Name] = pool(float64(r), float64(w))
	}
	l.tables[def.Name] = ts
	return ts
}

// Forget drops a table's buckets (the table was deleted).
func (l *Limiter) Forget(table string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.tables, table)
}

// need is the units a request asks of one bucket pair.
type need struct{ read, write float64 }

// Admit decides whether a request on table def (its ARN arn) that consumes cs may
// run: every limit it touches must have units left. When one has none the
// request is refused with every reason, and takes nothing; otherwise it takes its
// units from every bucket.
func (l *Limiter) Admit(def *model.Table, arn string, cs []Charge) *Refusal {
	if len(cs) == 0 {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	ts := l.state(def, arn, now)
	if r := l.check(ts, arn, now, cs); r != nil {
		return r
	}
	ts.take(cs, l.scale, now)
	ts.sweep(now)
	return nil
}

// Check decides, taking nothing, which parts of a request on table def would be
// throttled now (a transaction's actions, each with its charges): refusals[i] is
// part i's, nil when it may run; nil when every part may. A transaction is all
// or nothing: when no part of any of its tables is refused, Take takes its units.
func (l *Limiter) Check(def *model.Table, arn string, parts [][]Charge) []*Refusal {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	ts := l.state(def, arn, now)
	var out []*Refusal
	for i, cs := range parts {
		if r := l.check(ts, arn, now, cs); r != nil {
			if out == nil {
				out = make([]*Refusal, len(parts))
			}
			out[i] = r
		}
	}
	return out
}

// Take takes the units of cs, a request on table def that Check let through.
func (l *Limiter) Take(def *model.Table, arn string, cs []Charge) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	ts := l.state(def, arn, now)
	ts.take(cs, l.scale, now)
	ts.sweep(now)
}

// keyID is the bucket a charge takes from: its key value's, or its item's once
// the key value has split for heat.
func (ts *tableState) keyID(c *Charge) string {
	id := c.Index + "\x00" + c.Key
	if ks := ts.keys[id]; ks != nil && ks.split && c.Splits && c.Item != "" {
		id += "\x00" + c.Item
	}
	return id
}

// check is the refusal of a request taking cs, with every reason (nil when every
// limit it touches has units left); its throttled keys are marked hot. It takes
// nothing: a bucket lets a request through while it holds any unit at all
// (bucket.go), so whether one request passes does not depend on the others'
// units, only on the buckets.
func (l *Limiter) check(ts *tableState, arn string, now time.Time, cs []Charge) *Refusal {
	pools := map[string]*need{}
	var poolOrder []string
	keys := map[string]*need{}
	var keyOrder []string
	keyIndex := map[string]string{}
	for i := range cs {
		c := &cs[i]
		p := pools[c.Index]
		if p == nil {
			p = &need{}
			pools[c.Index] = p
			poolOrder = append(poolOrder, c.Index)
		}
		p.read += c.Read
		p.write += c.Write
		if c.Key == "" {
			continue
		}
		id := ts.keyID(c)
		k := keys[id]
		if k == nil {
			k = &need{}
			keys[id] = k
			keyOrder = append(keyOrder, id)
			keyIndex[id] = c.Index
		}
		k.read += c.Read
		k.write += c.Write
	}
	var reasons []Reason
	var limits []string
	add := func(index string, write bool, kind string) {
		r := Reason{Reason: ReasonName(index != "", write, kind), Resource: resourceARN(arn, index)}
		if !slices.Contains(reasons, r) {
			reasons = append(reasons, r)
		}
		if !slices.Contains(limits, kind) {
			limits = append(limits, kind)
		}
	}
	slices.Sort(poolOrder) // the table ("") first, then the GSIs by name
	for _, name := range poolOrder {
		n := pools[name]
		for _, lim := range ts.pools[name] {
			lim.read.refill(now)
			lim.write.refill(now)
			if n.read > 0 && lim.read.empty() {
				add(name, false, lim.kind)
			}
			if n.write > 0 && lim.write.empty() {
				add(name, true, lim.kind)
			}
		}
	}
	var hot []*keyState
	for _, id := range keyOrder {
		n := keys[id]
		ks := ts.key(id, l.scale, now)
		ks.read.refill(now)
		ks.write.refill(now)
		r, w := n.read > 0 && ks.read.empty(), n.write > 0 && ks.write.empty()
		if r {
			add(keyIndex[id], false, KeyRange)
		}
		if w {
			add(keyIndex[id], true, KeyRange)
		}
		if r || w {
			hot = append(hot, ks)
		}
	}
	if len(reasons) == 0 {
		return nil
	}
	for _, ks := range hot {
		l.markHot(ks, now)
	}
	return refusal(ts.provisioned, reasons, limits)
}

// take takes cs's units from every bucket they touch (a key's made again if a
// sweep forgot it since the check).
func (ts *tableState) take(cs []Charge, scale float64, now time.Time) {
	for i := range cs {
		c := &cs[i]
		for _, lim := range ts.pools[c.Index] {
			lim.read.take(c.Read)
			lim.write.take(c.Write)
		}
		if c.Key == "" {
			continue
		}
		ks := ts.key(ts.keyID(c), scale, now)
		ks.read.take(c.Read)
		ks.write.take(c.Write)
	}
}

// key is the buckets of key (or item) id, made full when new.
func (ts *tableState) key(id string, scale float64, now time.Time) *keyState {
	ks := ts.keys[id]
	if ks == nil {
		ks = &keyState{read: newBucket(cost.PartitionReadLimit/scale, 1, now), write: newBucket(cost.PartitionWriteLimit/scale, 1, now)}
		ts.keys[id] = ks
	}
	return ks
}

// markHot notes that key ks was throttled now: a second without a throttle breaks
// the run; a run of SplitAfter splits the key for heat.
func (l *Limiter) markHot(ks *keyState, now time.Time) {
	if ks.lastHot.IsZero() || now.Sub(ks.lastHot) > time.Second {
		ks.hotSince = now
	}
	ks.lastHot = now
	if now.Sub(ks.hotSince) >= l.splitAfter {
		ks.split = true
	}
}

// sweep forgets the key values whose buckets are full again and that are neither
// split nor in a run of throttles, once there are twice as many as after the last
// sweep: memory stays bounded by the keys in use, not every key ever touched.
func (ts *tableState) sweep(now time.Time) {
	if len(ts.keys) < ts.sweepAt {
		return
	}
	for id, ks := range ts.keys {
		ks.read.refill(now)
		ks.write.refill(now)
		if ks.read.full() && ks.write.full() && !ks.split && (ks.lastHot.IsZero() || now.Sub(ks.lastHot) > time.Second) {
			delete(ts.keys, id)
		}
	}
	ts.sweepAt = max(1024, 2*len(ts.keys))
}

// resourceARN is the ARN of the table or of its GSI index.
func resourceARN(tableARN, index string) string {
	if index == "" {
		return tableARN
	}
	return tableARN + "/index/" + index
}
