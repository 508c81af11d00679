package throttle

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
)

// The faults `stwb serve --faults` injects, by the name its spec gives them.
const (
	// FaultInternal answers 500 InternalServerError, which the SDKs retry.
	FaultInternal = "internal"
	// FaultThrottle answers ThrottlingException, which the SDKs retry as a throttle.
	FaultThrottle = "throttle"
	// FaultDrop closes the connection without an answer, as a network failure does.
	FaultDrop = "drop"
	// FaultConflict cancels a transaction with TransactionConflict, as DynamoDB does
	// when another transaction holds one of its items (transaction-apis.html,
	// "Transaction conflict handling"); the SDKs do not retry it.
	FaultConflict = "conflict"
)

// faultNames are the faults in the order a draw tests them.
var faultNames = []string{FaultInternal, FaultThrottle, FaultDrop, FaultConflict}

// Faults draws injected failures from a seeded stream: the same seed and the same
// sequence of requests give the same failures. It is safe for concurrent use.
type Faults struct {
	mu    sync.Mutex
	rng   *rand.Rand
	rates map[string]float64
}

// ParseFaults reads a spec such as "internal=0.5%,conflict=2%" (each rate a
// percentage, or a fraction from 0 to 1) with a seed.
func ParseFaults(spec string, seed uint64) (*Faults, error) {
	f := &Faults{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), rates: map[string]float64{}}
	total := 0.0
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, val, ok := strings.Cut(part, "=")
		name = strings.TrimSpace(name)
		if !ok {
			return nil, fmt.Errorf("--faults %q: %q has no rate; write NAME=RATE, such as internal=0.5%%", spec, part)
		}
		known := false
		for _, n := range faultNames {
			known = known || n == name
		}
		if !known {
			return nil, fmt.Errorf("--faults %q: %q is not a fault; the faults are %s", spec, name, strings.Join(faultNames, ", "))
		}
		if _, dup := f.rates[name]; dup {
			return nil, fmt.Errorf("--faults %q: %s is given twice", spec, name)
		}
		r, err := parseRate(strings.TrimSpace(val))
		if err != nil {
			return nil, fmt.Errorf("--faults %q: %s: %v", spec, name, err)
		}
		f.rates[name] = r
		if name != FaultConflict {
			total += r
		}
	}
	if len(f.rates) == 0 {
		return nil, fmt.Errorf("--faults %q names no fault; write such as internal=0.5%%,conflict=2%%", spec)
	}
	if total > 1 {
		return nil, fmt.Errorf("--faults %q: internal, throttle and drop add up to more than 100%%", spec)
	}
	return f, nil
}

// parseRate reads "0.5%" as 0.005 and "0.005" as itself.
func parseRate(s string) (float64, error) {
	pct := strings.HasSuffix(s, "%")
	n, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a rate; write a percentage such as 0.5%%", s)
	}
	if pct {
		n /= 100
	}
	if n < 0 || n > 1 {
		return 0, fmt.Errorf("%q is outside 0%% to 100%%", s)
	}
	return n, nil
}

// Rate is the rate given for a fault (0 when not given).
func (f *Faults) Rate(name string) float64 { return f.rates[name] }

// Draw picks the fault, if any, that one request meets: internal, throttle or drop
// ("" for none), from one draw of the stream. A transaction (transact true) then
// draws again for a conflict.
func (f *Faults) Draw(transact bool) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	u := f.rng.Float64()
	acc := 0.0
	for _, name := range faultNames[:3] {
		acc += f.rates[name]
		if u < acc {
			return name
		}
	}
	if transact && f.rates[FaultConflict] > 0 && f.rng.Float64() < f.rates[FaultConflict] {
		return FaultConflict
	}
	return ""
}
