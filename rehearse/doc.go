// Package rehearse is `stwb load`: the design's own traffic driven at an endpoint
// (stwb serve --throttle, or a real table in a test account), every pattern at its
// declared rate divided by a scale, all at once, through aws-sdk-go-v2 with the
// SDK's standard retryer, so that what is measured is what the application would
// see.
//
// Keys and items come from the production model (draw.go: cost.KeySpace's value
// counts, the skew over them, periods, `partitions`, fan-out, new items for puts);
// the report (report.go) sets each pattern's achieved rate, throttles, retries,
// latency and consumed capacity beside `stwb cost`'s prediction, ranks the key
// values by consumed units as Contributor Insights does, and names where the run
// and `stwb check` disagree.
//
// Imports analysis (the design's cost and findings), cost, expr, live (attribute
// values for the SDK), model and the AWS SDK. State: a run's counters, behind
// locks, for the length of Run.
package rehearse
