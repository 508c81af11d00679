package review

// NumericallyAfter is numericallyAfter, for the table test in package review_test
// (which runs the rules through the analysis pipeline, a package above this one).
var NumericallyAfter = numericallyAfter

// Prefixed is prefixed, for its test against the regular expression it spells out.
var Prefixed = prefixed
