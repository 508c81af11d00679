package engine

import (
	"slices"
	"strings"
	"testing"

	"stwb/model"
)

// The engine's table of cases for multi-attribute GSI keys
// (GSI.DesignPattern.MultiAttributeKeys.html). No peer the differential suite
// runs supports them (dynalite refuses the KeySchema), so these cases, each
// naming its source, are the reference: [aws] the conformance suite's "Query -
// GSI with a multi-attribute key", run against AWS (October 2026), whose items,
// orders and messages these repeat; [moto] getmoto/moto#9710's aws_verified
// tests (numbers ordered as numbers; a page's LastEvaluatedKey); [guide] the
// developer guide page.

// multiTable is the conformance suite's index: h, then a, b, c, d (all S); and
// moto's: gsi_pk, then gsi_sk (S) and gsi_sk2 (N); and one on two partition
// attributes t, r with round (N) sorting.
func multiTable() model.Table {
	attrs := map[string]model.Type{"pk": model.TypeS, "gsi_sk2": model.TypeN, "round": model.TypeN}
	return model.Table{Name: "multi", Key: model.KeySchema{Partition: "pk"}, Attributes: attrs,
		Indexes: []model.Index{
			{Name: "gsi", Key: model.NewKeySchema([]string{"h"}, []string{"a", "b", "c", "d"}), Projection: model.Projection{Type: model.ProjectAll}},
			{Name: "test_gsi", Key: model.NewKeySchema([]string{"gsi_pk"}, []string{"gsi_sk", "gsi_sk2"}), Projection: model.Projection{Type: model.ProjectKeysOnly}},
			{Name: "byRegion", Key: model.NewKeySchema([]string{"t", "r"}, []string{"round"}), Projection: model.Projection{Type: model.ProjectAll}},
		}}
}

func multiEngine(t *testing.T) *Engine {
	t.Helper()
	var items []model.Item
	for _, it := range [][5]string{{"p1", "T", "live", "b", "r1"}, {"p2", "T", "live", "a", "r2"}, {"p3", "T", "live", "a", "r1"},
		{"p4", "T", "draft", "c", "r1"}, {"p5", "F", "live", "a", "r0"}, {"p6", "T", "live", "", "r1"}} {
		item := model.Item{"pk": model.Str(it[0]), "h": model.Str("o1"), "a": model.Str(it[1]), "b": model.Str(it[2]), "d": model.Str(it[4])}
		if it[3] != "" { // p6 has no c: it is not in the index [aws]
			item["c"] = model.Str(it[3])
		}
		items = append(items, item)
	}
	for _, it := range []struct{ pk, p, s, n string }{{"m1", "pk1", "skA", "100"}, {"m2", "pk1", "skA", "200"}, {"m3", "pk1", "skA", "30"},
		{"m4", "pk1", "skB", "-5"}, {"m5", "pk2", "skA", "250"}, {"m6", "pk1", "skA", ""}} {
		item := model.Item{"pk": model.Str(it.pk), "gsi_pk": model.Str(it.p), "gsi_sk": model.Str(it.s)}
		if it.n != "" {
			item["gsi_sk2"] = model.Num(it.n)
		}
		items = append(items, item)
	}
	for _, it := range []struct{ pk, t, r, round string }{{"x1", "W26", "NA", "2"}, {"x2", "W26", "NA", "10"}, {"x3", "W26", "EU", "1"}, {"x4", "S26", "NA", "3"}} {
		items = append(items, model.Item{"pk": model.Str(it.pk), "t": model.Str(it.t), "r": model.Str(it.r), "round": model.Num(it.round)})
	}
	e, err := Load(multiTable(), ItemSlice{Items: items})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

var multiValues = map[string]model.Value{":h": model.Str("o1"), ":a": model.Str("T"), ":b": model.Str("live"), ":c": model.Str("a"),
	":d": model.Str("r"), ":x": model.Str("r1"), ":y": model.Str("r1"), ":p": model.Str("pk1"), ":s": model.Str("skA"),
	":n": model.Num("100"), ":t": model.Str("W26"), ":r": model.Str("NA"), ":one": model.Num("1")}

func usedValues(src string) map[string]model.Value {
	out := map[string]model.Value{}
	for k, v := range multiValues {
		if strings.Contains(src, k+" ") || strings.HasSuffix(src, k) || strings.Contains(src, k+")") {
			out[k] = v
		}
	}
	return out
}

func tableKeys(items []model.Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it["pk"].Str)
	}
	return out
}

func TestMultiAttributeQuery(t *testing.T) {
	e := multiEngine(t)
	back := false
	cases := []struct {
		source, index, cond string
		forward             *bool
		want                []string
		err                 string
	}{
		{"[aws] h alone: key order, without the item missing c", "gsi", "h = :h", nil, []string{"p5", "p4", "p3", "p2", "p1"}, ""},
		{"[aws] = on the first sort attribute", "gsi", "h = :h AND a = :a", nil, []string{"p4", "p3", "p2", "p1"}, ""},
		{"[aws] ScanIndexForward false reverses", "gsi", "h = :h AND a = :a", &back, []string{"p1", "p2", "p3", "p4"}, ""},
		{"[aws] = on the first two", "gsi", "h = :h AND a = :a AND b = :b", nil, []string{"p3", "p2", "p1"}, ""},
		{"[aws] = on the first three", "gsi", "h = :h AND a = :a AND b = :b AND c = :c", nil, []string{"p3", "p2"}, ""},
		{"[aws] a range on the last given", "gsi", "h = :h AND a = :a AND b = :b AND c > :c", nil, []string{"p1"}, ""},
		{"[aws] begins_with on the fourth", "gsi", "h = :h AND a = :a AND b = :b AND c = :c AND begins_with(d, :d)", nil, []string{"p3", "p2"}, ""},
		{"[aws] BETWEEN on the fourth", "gsi", "h = :h AND a = :a AND b = :b AND c = :c AND d BETWEEN :x AND :y", nil, []string{"p3"}, ""},
		{"[aws] a range on the second", "gsi", "h = :h AND a = :a AND b < :b", nil, []string{"p4"}, ""},
		{"[aws] clauses in any order", "gsi", "b = :b AND h = :h AND a = :a", nil, []string{"p3", "p2", "p1"}, ""},
		{"[aws] a gap", "gsi", "h = :h AND a = :a AND c = :c", nil, nil, "RANGE key attributes b must have equality conditions specified in the query because a condition is present on key attribute c"},
		{"[aws] a range before the last given", "gsi", "h = :h AND a = :a AND b > :b AND c = :c", nil, nil, "RANGE key attributes b must have equality conditions specified in the query because a condition is present on key attribute c"},
		{"[aws] skipping the first", "gsi", "h = :h AND b = :b", nil, nil, "RANGE key attributes a must have equality conditions specified in the query because a condition is present on key attribute b"},
		{"[moto] numbers in numeric order within skA, then skB; m6 lacks gsi_sk2", "test_gsi", "gsi_pk = :p", nil, []string{"m3", "m1", "m2", "m4"}, ""},
		{"[moto] <= on the number after = on the string", "test_gsi", "gsi_pk = :p AND gsi_sk = :s AND gsi_sk2 <= :n", nil, []string{"m3", "m1"}, ""},
		{"[moto] >= on the number", "test_gsi", "gsi_pk = :p AND gsi_sk = :s AND gsi_sk2 >= :n", nil, []string{"m1", "m2"}, ""},
		{"[moto] < on the first, a string", "test_gsi", "gsi_pk = :p AND gsi_sk < :s", nil, []string{}, ""},
		{"[moto] > on the first: past every skA tuple", "test_gsi", "gsi_pk = :p AND gsi_sk > :s", nil, []string{"m4"}, ""},
		{"[moto] a skipped sort attribute", "test_gsi", "gsi_pk = :p AND gsi_sk2 > :n", nil, nil, "RANGE key attributes gsi_sk must have equality conditions specified in the query because a condition is present on key attribute gsi_sk2"},
		{"[guide] both partition attributes", "byRegion", "t = :t AND r = :r", nil, []string{"x1", "x2"}, ""},
		{"[guide] a range on round", "byRegion", "t = :t AND r = :r AND round > :one", nil, []string{"x1", "x2"}, ""},
		{"[guide] one partition attribute is not enough", "byRegion", "t = :t", nil, nil, "Query condition missed key schema element: r"},
	}
	for _, c := range cases {
		pg, err := e.Query(QueryInput{IndexName: c.index, KeyConditionExpression: c.cond, ExpressionAttributeValues: usedValues(c.cond),
			ExpressionAttributeNames: nil, ScanIndexForward: c.forward})
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %q: got %v, want %q", c.source, c.cond, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %q: %v", c.source, c.cond, err)
			continue
		}
		if got := tableKeys(pg.Items); !slices.Equal(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("%s: %q: got %v, want %v", c.source, c.cond, got, c.want)
		}
	}
}

// TestMultiAttributePages: [aws] a page's LastEvaluatedKey holds the table key and
// every index key attribute; [moto] following it returns every item once, in
// order, in either direction.
func TestMultiAttributePages(t *testing.T) {
	e := multiEngine(t)
	for _, forward := range []bool{true, false} {
		var got []string
		var start model.Item
		for range 10 {
			pg, err := e.Query(QueryInput{IndexName: "gsi", KeyConditionExpression: "h = :h AND a = :a",
				ExpressionAttributeValues: usedValues("h = :h AND a = :a"), Limit: 2, ExclusiveStartKey: start, ScanIndexForward: &forward})
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, tableKeys(pg.Items)...)
			if pg.LastEvaluatedKey == nil {
				break
			}
			keys := slices.Sorted(func(yield func(string) bool) {
				for k := range pg.LastEvaluatedKey {
					if !yield(k) {
						return
					}
				}
			})
			if !slices.Equal(keys, []string{"a", "b", "c", "d", "h", "pk"}) {
				t.Fatalf("LastEvaluatedKey %v", pg.LastEvaluatedKey)
			}
			start = pg.LastEvaluatedKey
		}
		want := []string{"p4", "p3", "p2", "p1"}
		if !forward {
			slices.Reverse(want)
		}
		if !slices.Equal(got, want) {
			t.Errorf("forward %v: pages gave %v, want %v", forward, got, want)
		}
	}
	// A start key without every index key attribute is refused, as any start key
	// that is not the index's is (API_Query.html "ExclusiveStartKey").
	_, err := e.Query(QueryInput{IndexName: "gsi", KeyConditionExpression: "h = :h", ExpressionAttributeValues: usedValues("h = :h"),
		ExclusiveStartKey: model.Item{"pk": model.Str("p1"), "h": model.Str("o1"), "a": model.Str("T")}})
	if err == nil || !strings.Contains(err.Error(), "The provided starting key is invalid") {
		t.Errorf("a start key with some index attributes: %v", err)
	}
}

// TestMultiAttributeWrites: a write that changes any key attribute moves the
// item's entry (a delete and a put on the index); one that removes a key
// attribute drops it (sparse); one that gives a key attribute another type is
// refused, as for any index key; a new index is backfilled (Rebuild).
func TestMultiAttributeWrites(t *testing.T) {
	e := multiEngine(t)
	q := func() []string {
		pg, err := e.Query(QueryInput{IndexName: "byRegion", KeyConditionExpression: "t = :t AND r = :r", ExpressionAttributeValues: usedValues("t = :t AND r = :r")})
		if err != nil {
			t.Fatal(err)
		}
		return tableKeys(pg.Items)
	}
	if _, err := e.UpdateItem(UpdateItemInput{Key: model.Item{"pk": model.Str("x3")}, UpdateExpression: "SET r = :r",
		ExpressionAttributeValues: map[string]model.Value{":r": model.Str("NA")}}); err != nil {
		t.Fatal(err)
	}
	if got := q(); !slices.Equal(got, []string{"x3", "x1", "x2"}) {
		t.Errorf("after moving x3 to NA: %v", got)
	}
	if _, err := e.UpdateItem(UpdateItemInput{Key: model.Item{"pk": model.Str("x1")}, UpdateExpression: "REMOVE round"}); err != nil {
		t.Fatal(err)
	}
	if got := q(); !slices.Equal(got, []string{"x3", "x2"}) {
		t.Errorf("after removing x1's round: %v", got)
	}
	_, err := e.PutItem(PutItemInput{Item: model.Item{"pk": model.Str("x9"), "t": model.Str("W26"), "r": model.Str("NA"), "round": model.Str("2")}})
	if err == nil || !strings.Contains(err.Error(), "Type mismatch for Index Key round Expected: N Actual: S IndexName: byRegion") {
		t.Errorf("a string round: %v", err)
	}
	def := multiTable()
	def.Indexes = append(def.Indexes, model.Index{Name: "byRound", Key: model.NewKeySchema([]string{"t"}, []string{"round", "r"}), Projection: model.Projection{Type: model.ProjectKeysOnly}})
	n, bad, err := e.Rebuild(def)
	if err != nil || len(bad) != 0 {
		t.Fatal(err, bad)
	}
	pg, err := n.Query(QueryInput{IndexName: "byRound", KeyConditionExpression: "t = :t", ExpressionAttributeValues: usedValues("t = :t")})
	if err != nil {
		t.Fatal(err)
	}
	if got := tableKeys(pg.Items); !slices.Equal(got, []string{"x3", "x2"}) {
		t.Errorf("backfilled index: %v", got)
	}
}

// TestTupleOrder: the tuple encoding compares as the tuples do, attribute by
// attribute, each by its type, whatever bytes the values hold.
func TestTupleOrder(t *testing.T) {
	attrs := []keyAttr{{"s", model.TypeS}, {"n", model.TypeN}, {"b", model.TypeB}}
	tuples := [][3]model.Value{
		{model.Str("a"), model.Num("-10"), model.Bin([]byte{0})},
		{model.Str("a"), model.Num("-9.5"), model.Bin([]byte{0, 0})},
		{model.Str("a"), model.Num("0"), model.Bin([]byte{0, 1})},
		{model.Str("a"), model.Num("2"), model.Bin([]byte{0})},
		{model.Str("a"), model.Num("10"), model.Bin([]byte{0xff})},
		{model.Str("a\x01"), model.Num("-1"), model.Bin([]byte{1})},
		{model.Str("ab"), model.Num("1"), model.Bin([]byte{1})},
		{model.Str("b"), model.Num("1e10"), model.Bin([]byte{1})},
	}
	var prev string
	for i, tu := range tuples {
		enc, ok := encodeTuple(attrs, model.Item{"s": tu[0], "n": tu[1], "b": tu[2]})
		if !ok {
			t.Fatalf("tuple %d not encoded", i)
		}
		if i > 0 && enc <= prev {
			t.Errorf("tuple %d does not sort after tuple %d", i, i-1)
		}
		prev = enc
	}
}

// TestKeyAttrsInOrder checks eachAttr's order, which checkItem's messages follow:
// the partition key's attributes, then the sort key's, each in key order; a
// loop that stops early stops the walk.
func TestKeyAttrsInOrder(t *testing.T) {
	a := func(n string) keyAttr { return keyAttr{Name: n, Type: model.TypeS} }
	cases := []struct {
		k    keySchema
		want string
	}{
		{keySchema{Partition: a("p")}, "p"},
		{keySchema{Partition: a("p"), Sort: a("s")}, "p s"},
		{keySchema{Partition: a("p"), morePartition: []keyAttr{a("p2"), a("p3")}, Sort: a("s"), moreSort: []keyAttr{a("s2")}}, "p p2 p3 s s2"},
		{keySchema{Partition: a("p"), morePartition: []keyAttr{a("p2")}}, "p p2"},
	}
	for _, c := range cases {
		var names []string
		for _, x := range c.k.attrs() {
			names = append(names, x.Name)
		}
		if got := strings.Join(names, " "); got != c.want {
			t.Errorf("attrs: %q, want %q", got, c.want)
		}
		n := 0
		for range c.k.eachAttr() {
			if n++; n == 2 {
				break
			}
		}
		if !c.k.has(names[len(names)-1]) || c.k.has("other") {
			t.Errorf("%q: has disagrees", c.want)
		}
		if got := c.k.attrCount(); got != len(names) {
			t.Errorf("%q: attrCount %d, want %d", c.want, got, len(names))
		}
	}
}
