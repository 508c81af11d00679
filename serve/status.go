package serve

// A table's status. DynamoDB makes a change that takes time: a new table is
// CREATING for seconds until it is ACTIVE (WorkingWithTables.Basics.html), a table
// being changed is UPDATING, and a new GSI is CREATING, Backfilling, until it is
// ACTIVE (GSI.OnlineOps.html). Meanwhile it refuses what a CREATING table or a
// backfilling index cannot do.
//
// serve makes every change at once: the answer to CreateTable says CREATING and the
// answer to UpdateTable UPDATING (with each GSI it adds CREATING, and Backfilling
// when the table already existed), as DynamoDB's answers do, so an application's
// waiter polls DescribeTable as it would; every request after that answer finds the
// table and its indexes ACTIVE. So a test suite's result never depends on timing:
// a suite that writes right after CreateTable without waiting passes on every run
// (in production it would meet ResourceNotFoundException "Requested resource not
// found" until the table is ACTIVE; serve does not reproduce that window, because
// any window it kept would make such a suite pass on some runs and fail on others).
// The same holds for DeleteTable or UpdateTable right after a change, which
// DynamoDB refuses with ResourceInUseException while the change is under way, and
// for a Query of a new index while DynamoDB is still backfilling it. DynamoDB
// Local and dynalite with zero delays behave the same way.

// changing is a change's answer: the status the table is described with and the
// GSIs the change is creating (shown CREATING, Backfilling when backfill is set).
type changing struct {
	status   string // CREATING, UPDATING or DELETING
	indexes  []string
	backfill bool
}

// active describes a table as every request after a change's answer finds it.
var active = changing{status: "ACTIVE"}
