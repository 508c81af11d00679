// Package engine is an in-memory DynamoDB for one design: the table and each
// secondary index in ordered storage, and the API operations a pattern can run,
// with DynamoDB's results, pages, errors and consumed capacity.
package engine

import "stwb/model"

// Error is a DynamoDB API error: ValidationException,
// ConditionalCheckFailedException, TransactionCanceledException,
// ResourceNotFoundException, ... with DynamoDB's message.
type Error struct {
	Type    string
	Message string
	// Reasons holds a TransactionCanceledException's cancellation reasons, one per
	// action in request order (Code "None" for an action that did not fail).
	Reasons []CancellationReason
	// Item is the item a failed condition saw, when ReturnValuesOnConditionCheckFailure
	// asked for it; nil otherwise.
	Item model.Item
	// wholeRequest marks an error found while evaluating one action that DynamoDB
	// reports for the whole request, not as that action's cancellation reason.
	wholeRequest bool
}

func (e *Error) Error() string { return e.Type + ": " + e.Message }

// CancellationReason is one action's outcome in a cancelled transaction.
type CancellationReason struct {
	Code    string // None, ConditionalCheckFailed, ValidationError, TransactionConflict, ...
	Message string
	Item    model.Item
}

// Units are read and write capacity units.
type Units struct {
	Read  float64
	Write float64
}

// Capacity is what one request consumed: on the table, on each index (GSIs and
// LSIs by name), and in total. Reads are in RCU (an eventually consistent 4 KB read
// is 0.5), writes in WCU. LSI units are billed against the table's throughput but
// reported under the index, as DynamoDB's ConsumedCapacity does.
type Capacity struct {
	Table   Units
	Indexes map[string]Units
}

// Total is the request's CapacityUnits: every read and write unit, table and indexes.
func (c Capacity) Total() float64 {
	t := c.Table.Read + c.Table.Write
	for _, u := range c.Indexes {
		t += u.Read + u.Write
	}
	return t
}

// Read is the request's read units, table and indexes.
func (c Capacity) Read() float64 {
	t := c.Table.Read
	for _, u := range c.Indexes {
		t += u.Read
	}
	return t
}

// Write is the request's write units, table and indexes.
func (c Capacity) Write() float64 {
	t := c.Table.Write
	for _, u := range c.Indexes {
		t += u.Write
	}
	return t
}

// Add returns the sum of two capacities.
func (c Capacity) Add(o Capacity) Capacity {
	r := Capacity{Table: Units{c.Table.Read + o.Table.Read, c.Table.Write + o.Table.Write}}
	if len(c.Indexes)+len(o.Indexes) > 0 {
		r.Indexes = map[string]Units{}
		for _, m := range []map[string]Units{c.Indexes, o.Indexes} {
			for k, u := range m {
				s := r.Indexes[k]
				r.Indexes[k] = Units{s.Read + u.Read, s.Write + u.Write}
			}
		}
	}
	return r
}

// Visit is one item a Query or Scan read, in the order read, and whether the
// FilterExpression kept it. Item is the item as stored in the table or index read
// (an index entry holds only its projected attributes).
type Visit struct {
	Item model.Item
	Kept bool
}

// Change is one item a write touched: its key, the item before and after (nil when
// absent), and the write units it cost on the table and on each index.
type Change struct {
	Key     model.Item
	Before  model.Item
	After   model.Item
	Table   float64
	Indexes map[string]float64
	// IndexesMoved holds, for an index whose partition key value the write changed,
	// the part of Indexes[name] that is the delete on the old value (the rest is the
	// put on the new one), so that load per key value charges each its half.
	IndexesMoved map[string]float64
}

// Page is one request's worth of a Query or Scan.
type Page struct {
	Items []model.Item
	// Encoded is, with QueryInput.Encoded or ScanInput.Encoded, the Encoded of
	// each of Items (Items[i]'s is Encoded[i]): nil where the item was made for
	// this read (a projection, an index that projects some attributes).
	Encoded          []*Encoded
	Count            int
	ScannedCount     int
	LastEvaluatedKey model.Item // nil on the last page
	Consumed         Capacity
	Visits           []Visit
}

// Result is what running a pattern gave: for reads the first page (or every page
// with RunOptions.AllPages), for writes the changes it would make. A write never
// changes the engine it ran on; it runs on a copy.
type Result struct {
	PatternID int
	Operation model.Operation // what ran: the pattern's, or its statement's stand-in's
	Index     string

	Items            []model.Item // returned items, in DynamoDB's order (all pages with AllPages)
	Count            int
	ScannedCount     int
	LastEvaluatedKey model.Item // of the last page run; nil when there are no more
	Consumed         Capacity   // summed over the pages run
	Pages            []Page     // Query and Scan: each page run

	// Requests are a fan-out pattern's requests, one per value in order (model.Fanout);
	// the fields above are then their merged result (RunFanout). Nil otherwise.
	Requests []*Result
	Fanout   *model.Fanout // the fan-out the Requests ran over; nil otherwise

	Changes    []Change   // writes: every item touched, in request order
	Attributes model.Item // ReturnValues of a single-item write
	Err        *Error     // the request's error, nil on success

	// StandIn is, for an ExecuteStatement pattern, the pattern its statement
	// stands for (a Query, Scan, PutItem, UpdateItem or DeleteItem with that
	// operation's fields and the statement kept), which cost and review price and
	// review; Operation is then that operation. Nil for other patterns, and for a
	// statement that did not get as far.
	StandIn *model.Pattern
}

// RunOptions change how a pattern runs.
type RunOptions struct {
	AllPages bool // follow LastEvaluatedKey to the end (as a pattern's `pages: all` does)
}
