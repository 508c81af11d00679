package cost

// The per-partition rules production throttles by, in one place: the load model
// here reads them, and so does `stwb serve --throttle`, so that check and serve
// agree by construction. Each rule cites the AWS page it follows.

// Per-partition limits: one partition serves at most 3,000 read units and 1,000
// write units a second, whatever adaptive capacity does; a partition key value's
// item collection lives on one partition until split for heat spreads it, and an
// item isolated on a partition of its own still gets no more
// (burst-adaptive-capacity.html: "throttling will occur if a single partition
// receives more than 3000 read operation or more than 1000 write operations";
// "Isolate frequently accessed items": "up to the partition maximum of 3,000 RCUs
// and 1,000 WCUs to that single item's primary key"; bp-partition-key-design.html).
const (
	PartitionReadLimit  = 3000
	PartitionWriteLimit = 1000
)

// OverLimits reports whether a load a second on one partition (one partition key
// value, or one item) is over what a partition serves. Reads and writes are
// throttled independently (burst-adaptive-capacity.html): either over is over.
func OverLimits(read, write float64) bool {
	return read > PartitionReadLimit || write > PartitionWriteLimit
}

// SplitCase is what decides whether DynamoDB may split a hot partition key value
// across partitions (split for heat): the key's table or index and how the
// requests reach its items.
type SplitCase struct {
	// SortKey: the table (or index) has a sort key; without one a key value is one
	// item, and one item never splits.
	SortKey bool
	// LSI: a load on the table's key of a table with a local secondary index: the
	// item collection stays on one partition ("Adaptive capacity will not split item
	// collections across multiple partitions of the table when there is a local
	// secondary index on the table").
	LSI bool
	// OneItem: every request of the load touches one and the same item (a counter, a
	// constant sort key): the split can isolate that item, never divide it.
	OneItem bool
	// Monotonic: the writes follow a sort key that increases or decreases (a
	// timestamp, a sequence, a ULID): each split's new half takes every new write,
	// so DynamoDB does not split for it.
	Monotonic bool
	// ProvisionedStreams: a provisioned table with DynamoDB Streams enabled, where
	// split for heat is not done
	// (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html).
	ProvisionedStreams bool
}

// Split is the verdict on a SplitCase: whether the key's load can spread over
// partitions by sort key, and why not when it cannot.
type Split struct {
	Can bool
	Why string // why the split cannot happen ("" when it can)
}

// SplitFor decides whether split for heat can spread a partition key value's load
// (burst-adaptive-capacity.html, "Isolate frequently accessed items";
// bp-partition-key-design.html). It can go at best as far as one item per
// partition: the hottest partition after the split carries the hottest item's load
// (AfterSplit). Even where it can, it is not a promise: it follows minutes of
// sustained throttling and "might" happen, so a design that needs it throttles
// until then (NeedsSplit).
func SplitFor(c SplitCase) Split {
	switch {
	case !c.SortKey:
		return Split{Why: "no sort key: the key value is one item, and an item never splits"}
	case c.OneItem:
		return Split{Why: "every request touches one item: a split can isolate it, never divide it"}
	case c.LSI:
		return Split{Why: "an LSI keeps each item collection on one partition"}
	case c.Monotonic:
		return Split{Why: "the sort key increases with each write: the newest items take every write, so no split helps"}
	case c.ProvisionedStreams:
		return Split{Why: "a provisioned table with Streams is not split for heat"}
	}
	return Split{Can: true}
}

// AfterSplit is the hottest partition's load when a key value's items are split as
// far as DynamoDB can (one item a partition): the load of the requests that cannot
// split (a Query over a range stays on the partition it reads) plus the hottest
// item's share of the ones that can.
func AfterSplit(unsplitRead, unsplitWrite, hottestItemRead, hottestItemWrite float64) (read, write float64) {
	return unsplitRead + hottestItemRead, unsplitWrite + hottestItemWrite
}

// NeedsSplit reports whether a partition key value's load is over the limits while
// its load after the split is under them: it throttles until DynamoDB splits the
// key value, and the split is not guaranteed (burst-adaptive-capacity.html: adaptive
// capacity "might rebalance your data"). Its guidance for such a key is write
// sharding (bp-partition-key-sharding.html, bp-write-sharding.html).
func NeedsSplit(keyRead, keyWrite, afterRead, afterWrite float64) bool {
	return OverLimits(keyRead, keyWrite) && !OverLimits(afterRead, afterWrite)
}
