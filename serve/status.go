package serve

import (
	"slices"
	"sync/atomic"
	"time"
)

// A table's status, as DynamoDB reports it while it makes a change that takes time
// (WorkingWithTables.Basics.html: a new table is CREATING until it is ACTIVE; a
// table being changed is UPDATING; a new GSI is CREATING, Backfilling, until it is
// ACTIVE, GSI.OnlineOps.html). DynamoDB takes seconds to minutes; serve takes until
// the first DescribeTable after the change, or settleTime, whichever comes first, so
// that an application that waits (an SDK waiter polling DescribeTable) goes on at
// once, and one that does not wait meets DynamoDB's refusals, as it would in
// production:
//   - an item operation on a CREATING table is ResourceNotFoundException
//     "Requested resource not found" (dynalite db/index.js getTable; verified
//     against DynamoDB in ExtendDB/extenddb#204; cirello-io/dynamolock#120);
//   - a Query or Scan of a backfilling index is "Cannot read from backfilling
//     global secondary index" (a real DynamoDB report,
//     aws-cloudformation/cloudformation-coverage-roadmap#1075);
//   - DeleteTable or UpdateTable of a CREATING table is ResourceInUseException
//     "Attempt to change a resource which is still in use: Table is being created:
//     NAME" (terraform-aws-modules/terraform-aws-dynamodb-table#51; dynalite
//     actions/deleteTable.js), and UpdateTable of an UPDATING one "...: Table is
//     being updated: NAME" (sebdah/dynamic-dynamodb#36).
// The table stays fully usable while UPDATING, as DynamoDB's does.
// A design's tables are ACTIVE from the start.

// settleTime bounds how long a change stays pending when nothing describes the
// table: short, so that an application that sleeps instead of waiting is not held
// up, and long enough that one writing at once after CreateTable is refused.
const settleTime = 10 * time.Millisecond

// pending is a change under way: the table's status until it ends, and the GSIs it
// is creating.
type pending struct {
	status   string // CREATING or UPDATING
	indexes  []string
	until    time.Time
	answered atomic.Bool // a DescribeTable ended it (set under the shared lock)
}

// begin marks a change under way on the table from now.
func (s *Server) begin(t *table, status string, indexes []string) {
	t.pending = &pending{status: status, indexes: indexes, until: s.now().Add(settleTime)}
}

// current is the change still under way on the table; nil when it is ACTIVE.
func (s *Server) current(t *table) *pending {
	p := t.pending
	if p == nil || p.answered.Load() {
		return nil
	}
	if !s.now().Before(p.until) {
		p.answered.Store(true) // over: later requests skip the clock
		return nil
	}
	return p
}

// settle ends the table's change: DescribeTable's answer is the state after it.
func (t *table) settle() {
	if p := t.pending; p != nil {
		p.answered.Store(true)
	}
}

// creating reports whether the table is still being created.
func (s *Server) creating(t *table) bool {
	if t.pending == nil {
		return false
	}
	p := s.current(t)
	return p != nil && p.status == "CREATING"
}

// readableIndex refuses a Query or Scan of an index still being backfilled.
func (s *Server) readableIndex(t *table, index string) *apiError {
	if t.pending == nil || index == "" {
		return nil
	}
	if p := s.current(t); p != nil && slices.Contains(p.indexes, index) {
		return validationError("Cannot read from backfilling global secondary index")
	}
	return nil
}

// changeable refuses a DeleteTable or UpdateTable while a change is under way.
func (s *Server) changeable(t *table, op string) *apiError {
	p := s.current(t)
	switch {
	case p == nil:
		return nil
	case p.status == "CREATING":
		return inUse("Attempt to change a resource which is still in use: Table is being created: %s", t.def.Name)
	case op == "UpdateTable":
		return inUse("Attempt to change a resource which is still in use: Table is being updated: %s", t.def.Name)
	}
	return nil
}
