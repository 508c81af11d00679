package cost

import "testing"

// Write shards with headroom: ceil(load / (limit x 0.8)), at least 1 (the seeds:
// "choose the shard count from the throughput you need"; limits from
// bp-partition-key-design.html).
func TestShards(t *testing.T) {
	cases := []struct {
		read, write float64
		want        int64
	}{
		{0, 0, 1},
		{2400, 800, 1},
		{2400.5, 0, 2},
		{0, 801, 2},
		{0, 10_000, 13},
		{9001, 2500, 4},
		{0, 1600.0000000001, 2}, // float dust from rate x units does not add a shard
	}
	for _, c := range cases {
		if got := Shards(c.read, c.write); got != c.want {
			t.Errorf("Shards(%v, %v) = %d, want %d", c.read, c.write, got, c.want)
		}
	}
}
