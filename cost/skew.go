package cost

import (
	"fmt"
	"math"

	"stwb/internal/numfmt"
	"stwb/model"
)

// DefaultZipf is the skew assumed where the design measures none: Zipf with s = 1,
// close to YCSB's default request distribution (θ = 0.99). Under it the hottest of N
// key values takes 1/H_N of the traffic, H_N ≈ ln N + 0.5772: 6.9% of it at N =
// 1,000,000, so the hottest customer of a million takes about 69,000 times the mean.
const DefaultZipf = 1.0

// harmonicExact is how many terms HarmonicNumber sums one by one before the
// Euler–Maclaurin tail takes over (its error there is below 1e-12).
const harmonicExact = 1000

// HarmonicNumber is the generalised harmonic number H(n, s) = Σ_{k=1..n} k^-s.
func HarmonicNumber(n int64, s float64) float64 {
	if n <= 0 {
		return 0
	}
	k := min(n, harmonicExact)
	h := 0.0
	for i := int64(1); i <= k; i++ {
		h += math.Pow(float64(i), -s)
	}
	if n == k {
		return h
	}
	// Σ_{i=k+1..n} f(i) ≈ ∫_k^n f + (f(n) − f(k))/2 + (f'(n) − f'(k))/12, f(x) = x^-s.
	a, b := float64(k), float64(n)
	var integral float64
	if math.Abs(s-1) < 1e-12 {
		integral = math.Log(b / a)
	} else {
		integral = (math.Pow(b, 1-s) - math.Pow(a, 1-s)) / (1 - s)
	}
	f := func(x float64) float64 { return math.Pow(x, -s) }
	df := func(x float64) float64 { return -s * math.Pow(x, -s-1) }
	return h + integral + (f(b)-f(a))/2 + (df(b)-df(a))/12
}

// HottestShare is the share of a load that its hottest key value takes when the
// load spreads over n values with skew sk, and the assumption in words. A measured
// hottest share wins (at least an even share, at most all); otherwise Zipf with
// sk's exponent, or DefaultZipf: 1/H(n, s). s = 0 is an even spread.
func HottestShare(n int64, sk model.Skew) (float64, string) {
	if n <= 1 {
		return 1, "one value"
	}
	if sk.Hottest > 0 {
		share := min(max(sk.Hottest, 1/float64(n)), 1)
		return share, fmt.Sprintf("hottest value %s of the load (as measured)", percent(share))
	}
	s := DefaultZipf
	if sk.Zipf != nil {
		s = *sk.Zipf
	}
	share := 1 / HarmonicNumber(n, s)
	if s == 0 {
		return share, fmt.Sprintf("even over %s values", numfmt.Int(n))
	}
	return share, fmt.Sprintf("Zipf s=%s over %s values: hottest %s", trimFloat(s), numfmt.Int(n), percent(share))
}

// skewOf is the skew a pattern's traffic follows: its own, else the design's.
func skewOf(d *model.Design, p *model.Pattern) model.Skew {
	if p.Skew.IsSet() {
		return p.Skew
	}
	return d.Skew
}

func percent(f float64) string {
	switch {
	case f >= 0.1:
		return fmt.Sprintf("%.0f%%", f*100)
	case f >= 0.01:
		return fmt.Sprintf("%.1f%%", f*100)
	}
	return fmt.Sprintf("%.2g%%", f*100)
}

func trimFloat(f float64) string {
	return fmt.Sprintf("%g", f)
}
