package model

import "testing"

// CompareNumberText orders numbers by value, whatever the notation
// (HowItWorks.NamingRulesDataTypes.html, "Number"), and agrees with the exact
// ParseNumber + Number.Compare path.
func TestCompareNumberTextTable(t *testing.T) {
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
		if got := CompareNumberText(c.a, c.b); got != c.want {
			t.Errorf("CompareNumberText(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// FuzzCompareNumberText holds the allocation-free comparison to the exact one.
func FuzzCompareNumberText(f *testing.F) {
	f.Add("1", "1e0")
	f.Add("-0.5", ".5")
	f.Add("12.3400", "1234e-2")
	f.Fuzz(func(t *testing.T, a, b string) {
		x, errx := parseNumberSyntax(a)
		y, erry := parseNumberSyntax(b)
		if errx != nil || erry != nil {
			return
		}
		if got, want := CompareNumberText(a, b), x.Compare(y); got != want {
			t.Fatalf("CompareNumberText(%q, %q) = %d, Number.Compare says %d", a, b, got, want)
		}
	})
}

func TestCompareNumberTextDoesNotAllocate(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { CompareNumberText("-12.5e3", "-1250E1") }); n != 0 {
		t.Errorf("%v allocations per comparison, want 0", n)
	}
}
