package throttle

import (
	"strings"
	"testing"
)

// TestFaultsRepeatable: the same seed gives the same faults, another seed others,
// and each fault comes at about its rate.
func TestFaultsRepeatable(t *testing.T) {
	draw := func(seed uint64) []string {
		f, err := ParseFaults("internal=5%,throttle=10%,drop=1%,conflict=50%", seed)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]string, 20000)
		for i := range out {
			out[i] = f.Draw(i%2 == 0)
		}
		return out
	}
	a, b, c := draw(42), draw(42), draw(43)
	if strings.Join(a, ",") != strings.Join(b, ",") {
		t.Error("seed 42 drew two different sequences")
	}
	if strings.Join(a, ",") == strings.Join(c, ",") {
		t.Error("seeds 42 and 43 drew the same sequence")
	}
	n := map[string]int{}
	for _, x := range a {
		n[x]++
	}
	// conflict: only transactions (half) draw it, at 50% of those left unfaulted.
	for name, want := range map[string]float64{FaultInternal: 0.05, FaultThrottle: 0.10, FaultDrop: 0.01, FaultConflict: 0.5 * 0.84 * 0.5} {
		got := float64(n[name]) / float64(len(a))
		if got < want*0.8 || got > want*1.2 {
			t.Errorf("%s drawn %.4f of requests, want about %.4f", name, got, want)
		}
	}
}

// TestParseFaults: what --faults accepts and how it refuses the rest.
func TestParseFaults(t *testing.T) {
	for _, tc := range []struct{ spec, err string }{
		{"internal=0.5%,conflict=2%", ""},
		{"throttle=0.01", ""},
		{"drop=100%", ""},
		{"", "names no fault"},
		{"internal", "has no rate"},
		{"latency=1%", "is not a fault"},
		{"internal=abc", "is not a rate"},
		{"internal=150%", "outside"},
		{"internal=1%,internal=2%", "given twice"},
		{"internal=60%,throttle=60%", "more than 100%"},
	} {
		_, err := ParseFaults(tc.spec, 1)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("ParseFaults(%q) = %v, want %q", tc.spec, err, tc.err)
		}
	}
}
