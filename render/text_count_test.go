package render

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 patterns"}, {1, "1 pattern"}, {2, "2 patterns"}, {1204, "1,204 patterns"}} {
		if got := Count(c.n, "pattern"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
