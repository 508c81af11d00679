// Package difftest holds the differential suite: random designs and random requests
// run against both stwb's engine and dynalite (the DynamoDB emulator from npm), which
// must agree on the items returned, their order, Count, ScannedCount,
// LastEvaluatedKey and the error type. Everything is in its _test.go files; run it
// with `go test ./difftest`. Scale it with STWB_DIFF_DESIGNS and STWB_DIFF_REQUESTS,
// and replay one failing design with STWB_DIFF_SEED (the failure message prints it).
package difftest
