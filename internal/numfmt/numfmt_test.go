package numfmt

import "testing"

func TestGroup(t *testing.T) {
	cases := map[string]string{
		"0": "0", "12": "12", "123": "123", "1234": "1,234", "1234567": "1,234,567",
		"-1234": "-1,234", "1234.5678": "1,234.5678", "-999999.5": "-999,999.5", "0.001": "0.001",
	}
	for in, want := range cases {
		if got := Group(in); got != want {
			t.Errorf("Group(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Int(-51000000); got != "-51,000,000" {
		t.Errorf("Int = %q", got)
	}
}

func TestCount(t *testing.T) {
	cases := []struct {
		n    int64
		want string
	}{{0, "0 notes"}, {1, "1 note"}, {2, "2 notes"}, {1204, "1,204 notes"}, {-1, "-1 notes"}}
	for _, c := range cases {
		if got := Count(c.n, "note", "notes"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

// TestFigure: one rounding rule for every printed figure (issue 21: the cost table
// printed 1,153.1991 beside the finding's 1,153.2).
func TestFigure(t *testing.T) {
	for f, want := range map[float64]string{
		1153.1991: "1,153.2", 1389.5908: "1,389.59", 5500: "5,500", 347.3977: "347.4", 6.948: "6.95",
		1: "1", 0.5: "0.5", 0.1291: "0.13", 0.0069: "0.0069", 0.00694: "0.0069", 0.999: "1",
		0.0001: "0.0001", 0.00001: "<0.0001", 0: "0", -2.5: "-2.5", 20000: "20,000",
	} {
		if got := Figure(f); got != want {
			t.Errorf("Figure(%v) = %q, want %q", f, got, want)
		}
	}
}
