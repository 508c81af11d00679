// Package throttle is DynamoDB's throughput limits and its failures, for a
// rehearsal of production against `stwb serve --throttle` and `--faults`.
//
// A Limiter holds token buckets a second: each partition key value's 3,000 RCU and
// 1,000 WCU (cost's limits, per item once a key has split for heat, after the time
// cost.SplitForHeatAfter says), a provisioned table's and GSI's capacity with 300
// seconds of burst, an on-demand table's account quota and the maximum throughput
// the design sets; every limit and burst divided by a scale. A Charger says what a request takes from which key value, the
// way the production model lands its units. A refused request gets DynamoDB's
// exception and ThrottlingReasons (reasons.go). Faults draws injected failures
// (InternalServerError, ThrottlingException, a dropped connection, a transaction
// conflict) from a seeded stream, so a run is repeatable.
//
// Imports cost (the limits and the split-for-heat rule), engine (what a request
// consumed), expr (a Query's key value) and model. State: the buckets, behind one
// lock; the fault stream, behind another.
package throttle
