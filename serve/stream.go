package serve

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"stwb/engine"
	"stwb/model"
)

// A table's stream (Streams.html): every change to an item, in the order the
// changes were made, kept 24 hours, read through the dynamodbstreams service
// (streams_ops.go) on the same endpoint.
//
// What a record holds follows Streams.html and API_streams_StreamRecord.html: an
// INSERT when the item did not exist, a MODIFY when it did and changed, a REMOVE
// when it was deleted; no record for a write that changed nothing ("If you perform
// a PutItem or UpdateItem operation that does not change any data in an item,
// DynamoDB Streams does not write a stream record for that operation"), nor for a
// delete of an absent item or a transaction's ConditionCheck. Keys are always
// there; NewImage and OldImage as the view type says. SizeBytes is the size of the
// keys and images the record carries, each sized as DynamoDB sizes an item (the
// API reference's and real records' figures agree: keys ID "2", Title "aaa" and a
// new image of the same, 22 bytes). ApproximateCreationDateTime is rounded down to
// the second. A deletion by TTL is a REMOVE made by the service: its userIdentity
// is {"Type": "Service", "PrincipalId": "dynamodb.amazonaws.com"}
// (time-to-live-ttl-streams.html).
//
// serve keeps one shard per stream, open while the stream is enabled and closed
// (its EndingSequenceNumber set) when the stream is disabled or its table
// deleted; DynamoDB splits and rolls shards over time (about every four hours),
// which no consumer that follows DescribeStream's shards and each shard's end can
// tell apart from one shard. A disabled stream stays readable for 24 hours, as
// DynamoDB keeps it.

const (
	// streamRetention is how long records, and a disabled stream, are kept
	// (Streams.html "Data retention": "stream records ... are removed
	// automatically after 24 hours").
	streamRetention = 24 * time.Hour
	// iteratorLifetime: "A shard iterator expires 15 minutes after it is
	// returned to the requester" (API_streams_GetShardIterator.html).
	iteratorLifetime = 15 * time.Minute
)

// stream is one stream of one table: its identity, its shard and its records in
// sequence-number order.
type stream struct {
	arn, label, table string
	account, region   string
	keys              model.KeySchema
	viewType          string
	created           time.Time
	shardID           string
	// start is the shard's StartingSequenceNumber; end its EndingSequenceNumber
	// once the stream is disabled (0 while it is enabled).
	start, end uint64
	disabled   time.Time // when it was disabled; zero while enabled
	records    []streamRecord
}

// streamRecord is one change as the stream holds it.
type streamRecord struct {
	seq      uint64
	at       time.Time
	event    string // INSERT, MODIFY or REMOVE
	keys     model.Item
	newImage model.Item // kept as the view type says; nil otherwise
	oldImage model.Item
	size     int
	service  bool // made by DynamoDB itself (a TTL deletion)
}

// enabled reports whether the stream still takes records.
func (st *stream) enabled() bool { return st.disabled.IsZero() }

// status is the StreamStatus DescribeStream reports.
func (st *stream) status() string {
	if st.enabled() {
		return "ENABLED"
	}
	return "DISABLED"
}

// gone reports whether a disabled stream has passed its 24 hours.
func (st *stream) gone(now time.Time) bool {
	return !st.enabled() && now.Sub(st.disabled) > streamRetention
}

// trim drops the records older than 24 hours.
func (st *stream) trim(now time.Time) {
	n := 0
	for n < len(st.records) && now.Sub(st.records[n].at) > streamRetention {
		n++
	}
	if n > 0 {
		st.records = append(st.records[:0:0], st.records[n:]...)
	}
}

// horizon is the oldest sequence number still readable at now: the first record
// not yet 24 hours old, or the next one to be written when there is none.
func (st *stream) horizon(now time.Time, next uint64) uint64 {
	for _, r := range st.records {
		if now.Sub(r.at) <= streamRetention {
			return r.seq
		}
	}
	if !st.enabled() {
		return st.end + 1
	}
	return next
}

// newStream makes the stream a table gets when its stream is enabled at now;
// seq is the sequence number its shard starts at.
func (s *Server) newStream(t *table, viewType, label string, now time.Time, seq uint64) *stream {
	arn := t.arn + "/stream/" + label
	sum := sha256.Sum256([]byte(arn))
	return &stream{arn: arn, label: label, table: t.def.Name, keys: t.def.Key, viewType: viewType,
		account: s.account, region: s.region, created: now, start: seq,
		// DynamoDB's shard ids: "shardId-" and 20 digits (its creation time), a
		// hyphen and 8 hex digits (API_streams_Shard.html: 28 to 65 characters).
		shardID: fmt.Sprintf("shardId-%020d-%s", now.UnixMilli(), hex.EncodeToString(sum[:4]))}
}

// recordChanges appends a write's changes to the table's stream, if it has one
// enabled: service marks a deletion DynamoDB made itself (TTL).
func (s *Server) recordChanges(t *table, changes []engine.Change, service bool) {
	st := t.live
	if st == nil || len(changes) == 0 {
		return
	}
	now := s.now()
	st.trim(now)
	for _, ch := range changes {
		r := streamRecord{at: now, service: service}
		switch {
		case ch.Before == nil && ch.After == nil:
			continue
		case ch.Before == nil:
			r.event = "INSERT"
		case ch.After == nil:
			r.event = "REMOVE"
		case ch.Before.Equal(ch.After):
			continue // nothing changed (or a ConditionCheck): no record
		default:
			r.event = "MODIFY"
		}
		r.keys = itemKey(t.def, firstOf(ch.After, ch.Before))
		if st.viewType == "NEW_IMAGE" || st.viewType == "NEW_AND_OLD_IMAGES" {
			r.newImage = ch.After
		}
		if st.viewType == "OLD_IMAGE" || st.viewType == "NEW_AND_OLD_IMAGES" {
			r.oldImage = ch.Before
		}
		r.size = model.ItemSize(r.keys) + model.ItemSize(r.newImage) + model.ItemSize(r.oldImage)
		r.seq = s.nextSequence()
		st.records = append(st.records, r)
	}
}

// nextSequence gives the next stream sequence number: one counter for the server,
// so records are ordered across tables as they were made (under mu, held alone).
func (s *Server) nextSequence() uint64 {
	s.seq++
	return s.seq
}

// lastSequence is the last sequence number given (0 before any).
func (s *Server) lastSequence() uint64 { return s.seq }

// streamsOf lists the streams a namespace can read: each table's (its current
// one and those it had before), then those of deleted tables, oldest first,
// without those gone past their 24 hours.
func (s *Server) visibleStreams() []*stream {
	now := s.now()
	var out []*stream
	for _, t := range s.tables {
		out = append(out, t.streams...)
	}
	out = append(out, s.dropped...)
	out = slices.DeleteFunc(out, func(st *stream) bool { return st.gone(now) })
	slices.SortFunc(out, func(a, b *stream) int {
		if c := a.created.Compare(b.created); c != 0 {
			return c
		}
		return strings.Compare(a.arn, b.arn)
	})
	return out
}

// enableStream gives the table a new stream of the view type, labelled with the
// time it was made (DynamoDB's labels: "2015-05-11T21:21:33.291").
func (s *Server) enableStream(t *table, viewType string) {
	now := s.now()
	label := now.UTC().Format("2006-01-02T15:04:05.000")
	// Two streams of one table never share a label (a clock that did not move).
	for slices.ContainsFunc(t.streams, func(st *stream) bool { return st.label == label }) {
		now = now.Add(time.Millisecond)
		label = now.UTC().Format("2006-01-02T15:04:05.000")
	}
	st := s.newStream(t, viewType, label, now, s.lastSequence()+1)
	t.streams = append(t.streams, st)
	t.live = st
}

// designStream enables the stream the design declares on its table.
func (s *Server) designStream(t *table) error {
	if t.def.Stream == "" {
		return nil
	}
	s.enableStream(t, t.def.Stream.ViewType())
	return nil
}

func firstOf(a, b model.Item) model.Item {
	if a != nil {
		return a
	}
	return b
}

// disableStream closes the table's stream: no more records, its shard ended at
// the last sequence number given so far; readable for 24 hours more.
func (s *Server) disableStream(t *table) {
	if t.live == nil {
		return
	}
	t.live.disabled = s.now()
	t.live.end = s.lastSequence()
	if t.live.end < t.live.start {
		t.live.end = t.live.start
	}
	t.live = nil
}
