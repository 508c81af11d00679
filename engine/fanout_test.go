package engine

import (
	"testing"

	"stwb/model"
)

// A fan-out runs one request per value and merges them as the caller does
// (bp-write-sharding.html: query every suffix, then merge): sort key order per
// ScanIndexForward, counts summed, capacity summed with each request rounded on its
// own, Limit per request.
func TestRunFanout(t *testing.T) {
	table := model.Table{Name: "t", Key: model.KeySchema{Partition: "PK", Sort: "SK"},
		Attributes: map[string]model.Type{"PK": model.TypeS, "SK": model.TypeS}}
	item := func(pk, sk string) model.Item {
		return model.Item{"PK": model.Str(pk), "SK": model.Str(sk), "pad": model.Str(string(make([]byte, 3000)))}
	}
	items := []model.Item{
		item("D#0", "T02"), item("D#0", "T05"), item("D#0", "T09"),
		item("D#1", "T01"), item("D#1", "T07"),
		item("D#2", "T03"), item("D#2", "T05"),
	}
	e, err := Load(table, ItemSlice{Items: items})
	if err != nil {
		t.Fatal(err)
	}
	back := false
	cases := []struct {
		name    string
		forward *bool
		limit   int
		values  []string
		want    []string // PK/SK of the merged items
		count   int
		rcu     float64
		lek     int // requests ending with a LastEvaluatedKey
	}{
		// Each request reads 2 or 3 items of ~3 KB: 6 or 9 KB, ceil(/4 KB) x 0.5 =
		// 1 or 1.5 RCU each; summed 1.5 + 1 + 1 = 3.5 (one request of all seven items
		// would be ceil(21 KB / 4 KB) x 0.5 = 3).
		{"ascending", nil, 0, []string{"0", "1", "2"},
			[]string{"D#1/T01", "D#0/T02", "D#2/T03", "D#0/T05", "D#2/T05", "D#1/T07", "D#0/T09"}, 7, 3.5, 0},
		{"descending, ties in request order", &back, 0, []string{"0", "1", "2"},
			[]string{"D#0/T09", "D#1/T07", "D#0/T05", "D#2/T05", "D#2/T03", "D#0/T02", "D#1/T01"}, 7, 3.5, 0},
		{"limit per request", nil, 1, []string{"0", "1", "2"},
			[]string{"D#1/T01", "D#0/T02", "D#2/T03"}, 3, 1.5, 3},
		{"a value with no items", nil, 0, []string{"1", "9"},
			[]string{"D#1/T01", "D#1/T07"}, 2, 1.5, 0},
	}
	for _, c := range cases {
		p := &model.Pattern{ID: 1, Operation: model.OpQuery, KeyCondition: "PK = :pk", Forward: c.forward, Limit: c.limit,
			Values: map[string]model.Value{":pk": model.Str("D#{s}")}, Fanout: &model.Fanout{Var: "s", Values: c.values}}
		r := e.Run(p, RunOptions{})
		if r.Err != nil {
			t.Fatalf("%s: %v", c.name, r.Err)
		}
		var got []string
		for _, it := range r.Items {
			got = append(got, it["PK"].Str+"/"+it["SK"].Str)
		}
		if len(got) != len(c.want) {
			t.Fatalf("%s: items %v, want %v", c.name, got, c.want)
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Fatalf("%s: items %v, want %v", c.name, got, c.want)
			}
		}
		lek := 0
		for _, sub := range r.Requests {
			if sub.LastEvaluatedKey != nil {
				lek++
			}
		}
		if r.Count != c.count || r.ScannedCount != c.count || r.Consumed.Read() != c.rcu || len(r.Requests) != len(c.values) || lek != c.lek || r.LastEvaluatedKey != nil {
			t.Errorf("%s: count %d scanned %d RCU %v requests %d with LastEvaluatedKey %d; want %d, %d, %v, %d, %d",
				c.name, r.Count, r.ScannedCount, r.Consumed.Read(), len(r.Requests), lek, c.count, c.count, c.rcu, len(c.values), c.lek)
		}
	}

	// GetItem fans out in request order; an absent item is left out; each GetItem
	// of a ~3 KB item is 0.5 RCU, the absent one 0.5 too (GetItem bills a miss).
	g := &model.Pattern{ID: 2, Operation: model.OpGetItem,
		Key:    model.Item{"PK": model.Str("D#{s}"), "SK": model.Str("T05")},
		Fanout: &model.Fanout{Var: "s", Values: []string{"2", "1", "0"}}}
	r := e.Run(g, RunOptions{})
	if r.Err != nil || len(r.Items) != 2 || r.Items[0]["PK"].Str != "D#2" || r.Items[1]["PK"].Str != "D#0" || r.Count != 2 || r.Consumed.Read() != 1.5 {
		t.Errorf("GetItem fan-out: %d items %v, count %d, RCU %v, err %v; want D#2 then D#0, count 2, 1.5 RCU", len(r.Items), r.Items, r.Count, r.Consumed.Read(), r.Err)
	}
}
