package review

// NumericallyAfter is numericallyAfter, for the table test in package review_test
// (which runs the rules through the analysis pipeline, a package above this one).
var NumericallyAfter = numericallyAfter

// Prefixed is prefixed, for its test against the regular expression it spells out.
var Prefixed = prefixed

// Rules lists every rule in the order they run. The ids are the ones the design
// file's `review:` key and `stwb check --json` use.
func Rules() []Rule { return rules }
