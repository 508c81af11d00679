package expr

import (
	"testing"

	"stwb/model"
)

// compareNumbers must order numbers exactly as model.CompareNumberText does: by
// value, whatever the notation (HowItWorks.NamingRulesDataTypes.html, "Number").
func TestCompareNumbers(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"1", "1", 0},
		{"10", "1E1", 0},
		{"0.5", ".50", 0},
		{"-0", "0", 0},
		{"0.000", "-0e5", 0},
		{"007", "7", 0},
		{"10", "9", 1},
		{"10", "100", -1},
		{"-10", "-9", -1},
		{"-1", "1", -1},
		{"0", "-0.0001", 1},
		{"0", "1e-130", -1},
		{"1.5", "1.25", 1},
		{"1.25", "1.5", -1},
		{"123.45", "1.2345e2", 0},
		{"99999999999999999999999999999999999999", "1E38", -1},
		{"9.99E125", "1E125", 1},
		{"0.1", "0.10000000000000000000000000000000000001", -1},
		{"-0.1", "-0.10000000000000000000000000000000000001", 1},
		{"12", "12.0", 0},
		{"120", "12e1", 0},
		{"abc", "1", -1}, // not a number: sorts first, as model does
	}
	for _, c := range cases {
		if got := compareNumbers(c.a, c.b); got != c.want {
			t.Errorf("compareNumbers(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := model.CompareNumberText(c.a, c.b); got != c.want {
			t.Errorf("model.CompareNumberText(%q, %q) = %d, want %d (the table is wrong)", c.a, c.b, got, c.want)
		}
	}
}

// FuzzCompareNumbers holds the allocation-free comparison to model's.
func FuzzCompareNumbers(f *testing.F) {
	f.Add("1", "1e0")
	f.Add("-0.5", ".5")
	f.Add("12.3400", "1234e-2")
	f.Fuzz(func(t *testing.T, a, b string) {
		if got, want := compareNumbers(a, b), model.CompareNumberText(a, b); got != want {
			t.Fatalf("compareNumbers(%q, %q) = %d, model says %d", a, b, got, want)
		}
	})
}
