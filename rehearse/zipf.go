package rehearse

import (
	"math"
	"math/rand/v2"

	"stwb/cost"
	"stwb/model"
)

// rankSampler draws a key value's rank (0 the hottest) out of n values the way
// the production model spreads a load over them (cost.HottestShare): a measured
// hottest share (skew: {hottest: h}) puts h on rank 0 and spreads the rest evenly;
// otherwise Zipf with exponent s (cost.DefaultZipf unless the skew gives one), 0
// an even spread. So the hottest value's share of the requests is the share cost
// prices.
type rankSampler struct {
	n       int64
	hottest float64 // > 0: measured share of rank 0
	s       float64
	// Zipf by rejection-inversion (Hörmann and Derflinger, "Rejection-inversion to
	// generate variates from monotone discrete distributions", 1996), which draws
	// in constant time for any n and any s > 0.
	hX1, hN, sVal float64
}

func newRankSampler(n int64, sk model.Skew) *rankSampler {
	r := &rankSampler{n: max(n, 1)}
	if sk.Hottest > 0 {
		r.hottest = min(max(sk.Hottest, 1/float64(r.n)), 1)
		return r
	}
	r.s = cost.DefaultZipf
	if sk.Zipf != nil {
		r.s = *sk.Zipf
	}
	if r.s > 0 {
		r.hX1 = r.hIntegral(1.5) - 1
		r.hN = r.hIntegral(float64(r.n) + 0.5)
		r.sVal = 2 - r.hIntegralInverse(r.hIntegral(2.5)-r.h(2))
	}
	return r
}

// draw is a rank from 0 to n-1.
func (r *rankSampler) draw(rng *rand.Rand) int64 {
	switch {
	case r.n <= 1:
		return 0
	case r.hottest > 0:
		if rng.Float64() < r.hottest {
			return 0
		}
		return 1 + rng.Int64N(r.n-1)
	case r.s == 0:
		return rng.Int64N(r.n)
	}
	for {
		u := r.hN + rng.Float64()*(r.hX1-r.hN)
		x := r.hIntegralInverse(u)
		k := int64(x + 0.5)
		k = min(max(k, 1), r.n)
		if float64(k)-x <= r.sVal || u >= r.hIntegral(float64(k)+0.5)-r.h(float64(k)) {
			return k - 1
		}
	}
}

func (r *rankSampler) h(x float64) float64 { return math.Exp(-r.s * math.Log(x)) }

func (r *rankSampler) hIntegral(x float64) float64 {
	lx := math.Log(x)
	return helper2((1-r.s)*lx) * lx
}

func (r *rankSampler) hIntegralInverse(x float64) float64 {
	t := x * (1 - r.s)
	if t < -1 {
		t = -1 // numerical safety
	}
	return math.Exp(helper1(t) * x)
}

// helper1 is log(1+x)/x, exact near 0.
func helper1(x float64) float64 {
	if math.Abs(x) > 1e-8 {
		return math.Log1p(x) / x
	}
	return 1 - x*(0.5-x*(1.0/3-0.25*x))
}

// helper2 is (exp(x)-1)/x, exact near 0.
func helper2(x float64) float64 {
	if math.Abs(x) > 1e-8 {
		return math.Expm1(x) / x
	}
	return 1 + x*0.5*(1+x*(1.0/3)*(1+0.25*x))
}
