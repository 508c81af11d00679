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
