package serve

import (
	"container/heap"
	"context"
	"strconv"
	"time"

	"stwb/engine"
	"stwb/model"
)

// Time to live (TTL.html): a table may name a Number attribute holding an epoch
// time in seconds; DynamoDB deletes an item some time after that time passes
// ("typically within a few days"), and never an item whose value is more than five
// years in the past ("items with an expiration time older than five years ... are
// not deleted"). serve deletes expired items every ExpiryInterval, so a test waits
// at most that long.

// ExpiryInterval is how often Run removes expired items.
const ExpiryInterval = time.Second

const fiveYears = 5 * 365 * 24 * time.Hour

type ttlSpecification struct {
	Enabled       *bool
	AttributeName *string
}

type updateTTLInput struct {
	TableName               *string
	TimeToLiveSpecification *ttlSpecification
}

func updateTimeToLive(s *Server, in *updateTTLInput) (any, *apiError) {
	var v violations
	v.checkName(in.TableName, "tableName")
	spec := in.TimeToLiveSpecification
	if spec == nil {
		v.add("Value null at 'timeToLiveSpecification' failed to satisfy constraint: Member must not be null")
	} else {
		if spec.Enabled == nil {
			v.add("Value null at 'timeToLiveSpecification.enabled' failed to satisfy constraint: Member must not be null")
		}
		if spec.AttributeName == nil {
			v.add("Value null at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must not be null")
		} else if n := len(*spec.AttributeName); n < 1 || n > 255 {
			v.add("Value '%s' at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must have length greater than or equal to 1", *spec.AttributeName)
		}
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	t, err := s.tableByName(in.TableName)
	if err != nil {
		return nil, err
	}
	if *spec.Enabled == t.ttl.enabled {
		if t.ttl.enabled {
			return nil, validationError("TimeToLive is already enabled")
		}
		return nil, validationError("TimeToLive is already disabled")
	}
	if !*spec.Enabled && *spec.AttributeName != t.ttl.attribute {
		return nil, validationError("TimeToLive is active on a different AttributeName: current AttributeName is %s", t.ttl.attribute)
	}
	t.ttl = ttlSpec{attribute: *spec.AttributeName, enabled: *spec.Enabled}
	return struct{ TimeToLiveSpecification ttlSpecification }{*spec}, nil
}

func describeTimeToLive(s *Server, in *tableNameInput) (any, *apiError) {
	t, err := s.tableByName(in.TableName)
	if err != nil {
		return nil, err
	}
	type description struct {
		TimeToLiveStatus string
		AttributeName    string `json:",omitempty"`
	}
	d := description{TimeToLiveStatus: "DISABLED"}
	if t.ttl.enabled {
		d = description{TimeToLiveStatus: "ENABLED", AttributeName: t.ttl.attribute}
	}
	return struct{ TimeToLiveDescription description }{d}, nil
}

// Expiry works as DynamoDB's does, in the background, without stopping reads and
// writes: each TTL table keeps a queue of its items by expiry time (expiry),
// filled once when TTL is first seen enabled and then by every write the engine
// stores (Engine.OnStore). Each ExpiryInterval the due items are taken from the
// front of the queue and deleted, at most expiryBatch under one hold of the lock,
// so the work is proportional to what expires, not to the table, and no request
// waits behind more than a batch.

// expiryBatch is how many due items one hold of the lock deletes.
const expiryBatch = 256

// expiry is one TTL table's queue of items by the time their TTL attribute says.
// An entry may be stale (the item changed or went since): expireItem checks the
// item as it is before deleting it.
type expiry struct {
	attribute string
	key       model.KeySchema // the table's, which no update changes
	due       dueQueue
}

// dueItem is an item's key values and the epoch second it expires at: no map
// per item, and nothing of the item beyond its key is kept.
type dueItem struct {
	at     int64
	pk, sk model.Value
}

// dueQueue is a min-heap of dueItems by time (container/heap).
type dueQueue []dueItem

func (q dueQueue) Len() int           { return len(q) }
func (q dueQueue) Less(i, j int) bool { return q[i].at < q[j].at }
func (q dueQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *dueQueue) Push(x any)        { *q = append(*q, x.(dueItem)) }
func (q *dueQueue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}

// add queues an item that has a TTL value DynamoDB would ever expire.
func (x *expiry) add(it model.Item) {
	if d, ok := x.dueOf(it); ok {
		heap.Push(&x.due, d)
	}
}

func (x *expiry) dueOf(it model.Item) (dueItem, bool) {
	at, ok := ttlSeconds(it[x.attribute])
	if !ok {
		return dueItem{}, false
	}
	d := dueItem{at: at, pk: it[x.key.Partition]}
	if x.key.Sort != "" {
		d.sk = it[x.key.Sort]
	}
	return d, true
}

// keyOf is the key of the item a dueItem was queued for.
func (x *expiry) keyOf(d dueItem) model.Item {
	if x.key.Sort == "" {
		return model.Item{x.key.Partition: d.pk}
	}
	return model.Item{x.key.Partition: d.pk, x.key.Sort: d.sk}
}

// track makes t's expiry queue match its TTL setting, under the lock held alone:
// none when TTL is off; when it is on and the queue is missing or for another
// attribute, one built by a single walk of the table (once per enabling, as
// DynamoDB takes up to an hour to apply it), kept current by the engine's writes.
// It also rebuilds a queue grown to twice the table (stale entries of items
// written again and again), so its size stays bounded by the table's.
func (t *table) track() {
	if !t.ttl.enabled {
		if t.expiry != nil {
			t.expiry = nil
			t.eng.OnStore(nil)
		}
		return
	}
	if t.expiry != nil && t.expiry.attribute == t.ttl.attribute && t.expiry.due.Len() <= 2*t.eng.Len()+4096 {
		return
	}
	x := &expiry{attribute: t.ttl.attribute, key: t.def.Key}
	t.eng.Each(func(it model.Item) bool {
		if d, ok := x.dueOf(it); ok {
			x.due = append(x.due, d)
		}
		return true
	})
	heap.Init(&x.due)
	t.expiry = x
	t.eng.OnStore(x.add)
}

// ExpireNow deletes the items whose TTL attribute has passed, in every table with
// TTL enabled, and returns how many it deleted. The expiry loop calls it every
// ExpiryInterval; it takes the lock for at most expiryBatch deletions at a time.
func (s *Server) ExpireNow() int {
	n := 0
	for {
		s.mu.Lock()
		deleted, more := s.expireBatch(s.now())
		s.mu.Unlock()
		n += deleted
		if !more {
			return n
		}
	}
}

// expireBatch deletes up to expiryBatch due items, under the lock held alone, and
// says whether more are due.
func (s *Server) expireBatch(now time.Time) (deleted int, more bool) {
	budget := expiryBatch
	// Every namespace's tables (the design's once): expiry is DynamoDB's own
	// work, whoever made the table.
	for _, t := range s.allTables() {
		t.track()
		if t.expiry == nil {
			continue
		}
		q := &t.expiry.due
		for q.Len() > 0 && (*q)[0].at <= now.Unix() {
			if budget == 0 {
				return deleted, true
			}
			budget--
			d := heap.Pop(q).(dueItem)
			if s.expireItem(t, t.expiry.keyOf(d), now) {
				deleted++
			}
		}
	}
	return deleted, false
}

// expireItem is the one way TTL deletes an item: the item with key, if it is
// still there and its TTL attribute has passed (it may have changed since it was
// queued). Anything that must see TTL's deletions (a stream's REMOVE record by
// the service, "dynamodb.amazonaws.com") hooks here. Called under the lock held
// alone; reports whether it deleted.
func (s *Server) expireItem(t *table, key model.Item, now time.Time) bool {
	got, err := t.eng.GetItem(engine.GetItemInput{Key: key})
	if err != nil || got.Item == nil || !expiredAt(got.Item[t.ttl.attribute], now) {
		return false
	}
	out, err := t.eng.DeleteItem(engine.DeleteItemInput{Key: key})
	if err != nil {
		return false
	}
	// On the stream as the service's deletion (time-to-live-ttl-streams.html).
	s.recordChanges(t, out.Changes, true)
	return true
}

// ttlSeconds is the epoch second a TTL attribute value names, when it is a Number
// DynamoDB reads as one (TTL.html: "Number data type", epoch seconds).
func ttlSeconds(v model.Value) (int64, bool) {
	if v.Type != model.TypeN {
		return 0, false
	}
	f, err := strconv.ParseFloat(v.Str, 64)
	if err != nil || f > 1<<40 || f < -(1<<40) {
		return 0, false
	}
	return int64(f), true
}

// expiredAt reports whether a TTL attribute value has passed: a Number of epoch
// seconds at or before now and within the last five years (TTL.html). Any other
// type is ignored, as DynamoDB ignores it.
func expiredAt(v model.Value, now time.Time) bool {
	sec, ok := ttlSeconds(v)
	if !ok {
		return false
	}
	at := time.Unix(sec, 0)
	return !at.After(now) && now.Sub(at) <= fiveYears
}

// expireLoop removes expired items every ExpiryInterval until ctx ends.
func (s *Server) expireLoop(ctx context.Context) {
	tick := time.NewTicker(ExpiryInterval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			s.ExpireNow()
		}
	}
}
