package rehearse

import (
	"math/rand/v2"
	"testing"

	"stwb/cost"
	"stwb/model"
)

// TestRankSampler: the hottest value's share of the draws is the share cost
// prices (cost.HottestShare) for Zipf, an even spread and a measured hottest.
func TestRankSampler(t *testing.T) {
	z := func(s float64) model.Skew { return model.Skew{Zipf: &s} }
	for _, tc := range []struct {
		name string
		n    int64
		sk   model.Skew
	}{
		{"Zipf s=1 over 1,000", 1000, model.Skew{}},
		{"Zipf s=1.2 over 1,000,000", 1000000, z(1.2)},
		{"Zipf s=0.5 over 100", 100, z(0.5)},
		{"even over 50", 50, z(0)},
		{"measured hottest 25% over 10,000", 10000, model.Skew{Hottest: 0.25}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, _ := cost.HottestShare(tc.n, tc.sk)
			r := newRankSampler(tc.n, tc.sk)
			rng := rand.New(rand.NewPCG(1, 2))
			const draws = 200000
			hot := 0
			for i := 0; i < draws; i++ {
				k := r.draw(rng)
				if k < 0 || k >= tc.n {
					t.Fatalf("rank %d out of 0..%d", k, tc.n-1)
				}
				if k == 0 {
					hot++
				}
			}
			got := float64(hot) / draws
			if d := got - want; d > 0.01+want*0.05 || -d > 0.01+want*0.05 {
				t.Errorf("hottest share %.4f, cost prices %.4f", got, want)
			}
		})
	}
}
