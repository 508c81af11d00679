package cost

import (
	"testing"

	"stwb/engine"
	"stwb/model"
)

// The default number of partition key values a pattern's traffic spreads over
// (the rule in Partitions' doc comment, which the README repeats).
func TestPartitions(t *testing.T) {
	d := testDesign()
	// An order line shares the order's partition: ORDER#{orderId} has as many values
	// as the fewer of the two entities.
	d.Entities = append(d.Entities, model.Entity{Name: "line", Keys: map[string]string{"PK": "ORDER#{orderId}", "SK": "LINE#{n}"}, Count: 200_000_000})
	cases := []struct {
		name     string
		set      int64
		attr     string
		v        model.Value
		has      bool
		want     int64
		wantRule string
	}{
		{"the pattern's partitions field wins", 12, "PK", model.Str("CUST#42"), true, 12, RulePattern},
		{"template variable: the entity's count", 0, "PK", model.Str("CUST#42"), true, 1_000_000, RuleEntity},
		{"shared partition: the smaller count", 0, "PK", model.Str("ORDER#9f2a"), true, 50_000_000, RuleEntity},
		{"constant template", 0, "PK", model.Str("CONFIG"), true, 1, RuleConstant},
		{"matches no template", 0, "PK", model.Str("SESSION#1"), true, 1, RuleConstant},
		{"GSI key from a template variable", 0, "GSI1PK", model.Str("STATUS#SHIPPED"), true, 50_000_000, RuleEntity},
		{"a Scan names no key", 0, "PK", model.Value{}, false, 1, RuleNoKey},
		{"partitions field applies without a key too", 4, "PK", model.Value{}, false, 4, RulePattern},
	}
	for _, c := range cases {
		p := &model.Pattern{ID: 1, Partitions: c.set}
		n, rule := Partitions(d, p, c.attr, c.v, c.has)
		if n != c.want || rule != c.wantRule {
			t.Errorf("%s: %d (%s), want %d (%s)", c.name, n, rule, c.want, c.wantRule)
		}
	}
	// An entity without a count: its sample items.
	d.Entities[0].Count = 0
	d.Items = []model.Item{{"type": model.Str("customer")}, {"type": model.Str("customer")}}
	if n, _ := Partitions(d, &model.Pattern{}, "PK", model.Str("CUST#1"), true); n != 2 {
		t.Errorf("uncounted entity: %d partitions, want its 2 samples", n)
	}
}

// Write shards: ceil(load / limit), at least 1 (the seeds: "ten shards buys 10,000
// writes per second"; limits from bp-partition-key-design.html).
func TestShards(t *testing.T) {
	cases := []struct {
		read, write float64
		want        int64
	}{
		{0, 0, 1},
		{3000, 1000, 1},
		{3000.5, 0, 2},
		{0, 1001, 2},
		{0, 10_000, 10},
		{9001, 2500, 4},
		{0, 2000.0000000001, 2}, // float dust from rate x units does not add a shard
	}
	for _, c := range cases {
		if got := Shards(c.read, c.write); got != c.want {
			t.Errorf("Shards(%v, %v) = %d, want %d", c.read, c.write, got, c.want)
		}
	}
}

// Per pattern: the units per second on one partition key value, table and GSI;
// flagged over 3,000 RCU / 1,000 WCU; a GSI over 1,000 WCU throttles the table
// (GSI.html, "Provisioned throughput considerations").
func TestHotPartitions(t *testing.T) {
	status := func(s string) model.Item { return model.Item{"GSI1PK": model.Str("STATUS#" + s)} }
	orderKey := model.Item{"PK": model.Str("ORDER#9f2a"), "SK": model.Str("METADATA")}
	cases := []struct {
		name    string
		p       model.Pattern
		res     *engine.Result
		table   HotKey
		gsi     *HotKey
		exceeds bool
	}{
		{
			name:    "a config item read 8,000 times a second: one value, over 3,000 RCU, 3 shards",
			p:       model.Pattern{ID: 1, Rate: 16000, Operation: model.OpGetItem, Key: model.Item{"PK": model.Str("CONFIG"), "SK": model.Str("GLOBAL")}},
			res:     &engine.Result{Consumed: capOf(0.5, 0, nil)},
			table:   HotKey{Read: 8000, Partitions: 1, Rule: RuleConstant, Value: "CONFIG", Exceeds: true, Shards: 3},
			exceeds: true,
		},
		{
			name:  "reads spread over a million customers",
			p:     model.Pattern{ID: 2, Rate: 2_000_000, Operation: model.OpGetItem, Key: model.Item{"PK": model.Str("CUST#42"), "SK": model.Str("PROFILE")}},
			res:   &engine.Result{Consumed: capOf(1, 0, nil)},
			table: HotKey{Read: 2, Partitions: 1_000_000, Rule: RuleEntity, Value: "CUST#42", Shards: 1},
		},
		{
			name: "status updates: orders spread, but the status GSI key is low-cardinality (partitions: 3) and throttles the table",
			p:    model.Pattern{ID: 6, Rate: 2400, Partitions: 3, Operation: model.OpUpdateItem, Key: orderKey},
			res: &engine.Result{Consumed: capOf(0, 1, map[string]engine.Units{"GSI1": {Write: 2}}),
				Changes: []engine.Change{{Key: orderKey, Before: status("NEW"), After: status("SHIPPED")}}},
			table:   HotKey{Write: 800, Partitions: 3, Rule: RulePattern, Value: "ORDER#9f2a", Shards: 1},
			gsi:     &HotKey{Write: 1600, Partitions: 3, Rule: RulePattern, Value: "STATUS#SHIPPED", Exceeds: true, Shards: 2, ThrottlesTable: true},
			exceeds: true,
		},
		{
			name:    "LSI units land on the table's partition key value",
			p:       model.Pattern{ID: 7, Rate: 600, Operation: model.OpPutItem, Item: model.Item{"PK": model.Str("CONFIG"), "SK": model.Str("X")}},
			res:     &engine.Result{Consumed: capOf(0, 1, map[string]engine.Units{"LSI1": {Write: 1}})},
			table:   HotKey{Write: 1200, Partitions: 1, Rule: RuleConstant, Value: "CONFIG", Exceeds: true, Shards: 2},
			exceeds: true,
		},
		{
			name: "a GSI Query's partition value comes from what it read",
			p:    model.Pattern{ID: 4, Rate: 1000, Operation: model.OpQuery, Index: "GSI1", KeyCondition: "GSI1PK = :s"},
			res: &engine.Result{Pages: []engine.Page{{Consumed: engine.Capacity{Indexes: map[string]engine.Units{"GSI1": {Read: 4}}},
				Visits: []engine.Visit{{Item: status("PENDING")}}}}},
			table: HotKey{Partitions: 1, Rule: RuleNoKey, Shards: 1},
			gsi:   &HotKey{Read: 4000 / 50_000_000.0, Partitions: 50_000_000, Rule: RuleEntity, Value: "STATUS#PENDING", Shards: 1},
		},
		{
			name: "a Query that read nothing: the value comes from its key condition",
			p: model.Pattern{ID: 5, Rate: 100, Operation: model.OpQuery, KeyCondition: "PK = :p AND begins_with(SK, :o)",
				Values: map[string]model.Value{":p": model.Str("CUST#42"), ":o": model.Str("ORDER#")}},
			res:   &engine.Result{Pages: []engine.Page{{Consumed: capOf(0.5, 0, nil)}}},
			table: HotKey{Read: 50 / 1_000_000.0, Partitions: 1_000_000, Rule: RuleEntity, Value: "CUST#42", Shards: 1},
		},
		{
			name:  "a Scan: no key value, one partition at a time",
			p:     model.Pattern{ID: 9, Rate: 10, Operation: model.OpScan},
			res:   &engine.Result{Pages: []engine.Page{{Consumed: capOf(128, 0, nil)}}},
			table: HotKey{Read: 1280, Partitions: 1, Rule: RuleNoKey, Shards: 1},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := testDesign()
			d.Patterns = []model.Pattern{c.p}
			r, err := Compute(Input{Design: d, Runner: fakeRunner{c.p.ID: c.res}})
			if err != nil {
				t.Fatal(err)
			}
			h := r.Patterns[0].Hot
			if !hotEqual(h.Table, c.table) {
				t.Errorf("table %+v\nwant  %+v", h.Table, c.table)
			}
			g, ok := h.Indexes["GSI1"]
			switch {
			case c.gsi == nil && ok:
				t.Errorf("GSI1 %+v, want none", g)
			case c.gsi != nil && !hotEqual(g, *c.gsi):
				t.Errorf("GSI1 %+v\nwant %+v", g, *c.gsi)
			}
			if h.Exceeds() != c.exceeds {
				t.Errorf("exceeds %v, want %v", h.Exceeds(), c.exceeds)
			}
		})
	}
}

func hotEqual(a, b HotKey) bool {
	return near(a.Read, b.Read) && near(a.Write, b.Write) && a.Partitions == b.Partitions && a.Rule == b.Rule &&
		a.Value == b.Value && a.Exceeds == b.Exceeds && a.Shards == b.Shards && a.ThrottlesTable == b.ThrottlesTable
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
