package cost

import "testing"

// Write shards with headroom: ceil(load / (limit x 0.8)), at least 1 (write
// sharding: bp-partition-key-sharding.html, bp-write-sharding.html; the seeds:
// "choose the shard count from the throughput you need"; limits from
// bp-partition-key-design.html). 0.8 leaves each shard a fifth of a partition's
// limits as headroom.
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
		{0, 2000, 3},            // daily-orders-sharded: 2,000 WCU/s
		{0, 4000, 5},            // the status-code bad key's S#PENDING
		{0, 5000, 7},            // the creation-date bad key's current day
		{7200, 0, 3},            // reads: 7,200 / 2,400
	}
	for _, c := range cases {
		if got := Shards(c.read, c.write); got != c.want {
			t.Errorf("Shards(%v, %v) = %d, want %d", c.read, c.write, got, c.want)
		}
	}
}
