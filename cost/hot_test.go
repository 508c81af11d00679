package cost

import (
	"testing"

	"stwb/model"
)

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

// PartitionCount: a parent entity (constant sort key) has one item per partition key
// value, so the largest parent count is the number of values, whatever a small
// sibling entity counts; without a parent the smallest count bounds it.
func TestPartitionCount(t *testing.T) {
	d := &model.Design{Table: model.Table{Key: model.KeySchema{Partition: "PK", Sort: "SK"}}}
	ent := func(name, sk string, n int64) *model.Entity {
		return &model.Entity{Name: name, Keys: map[string]string{"PK": "VIDEO#{videoId}", "SK": sk}, Count: n}
	}
	count := func(e *model.Entity) int64 { return e.Count }
	cases := []struct {
		name     string
		entities []*model.Entity
		want     int64
	}{
		{"parents decide", []*model.Entity{ent("video", "#METADATA", 5_000_000), ent("teaching", "#METADATA", 1), ent("view", "VIEW#{at}", 90_000_000)}, 5_000_000},
		{"no parent: smallest", []*model.Entity{ent("a", "A#{x}", 300), ent("b", "B#{y}", 20)}, 20},
		{"no counts", []*model.Entity{ent("a", "A#{x}", 0)}, 0},
	}
	for _, c := range cases {
		if got := PartitionCount(d, "PK", c.entities, count); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}
