package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"stwb/model"
)

// Sort keys of type S are ordered by their UTF-8 bytes
// (Query.html "Key condition expressions": "sorted by ... UTF-8 bytes").
func TestQueryOrderStrings(t *testing.T) {
	sks := []string{"中文", "a", "A#1", "é", "😀", "A#", "B", "Z", "A", "ab", "aa"}
	var items []model.Item
	for _, s := range sks {
		items = append(items, item("PK", "P", "SK", s))
	}
	items = append(items, item("PK", "Q", "SK", "A#"), item("PK", "O", "SK", "zz"))
	e := newTestEngine(t, items...)
	want := []string{"A", "A#", "A#1", "B", "Z", "a", "aa", "ab", "é", "中文", "😀"}
	for _, tc := range []struct {
		name    string
		forward *bool
		want    []string
	}{
		{"forward", nil, want},
		{"backward", ptr(false), reversed(want)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pg, err := e.Query(QueryInput{KeyConditionExpression: "PK = :p",
				ExpressionAttributeValues: vals(":p", "P"), ScanIndexForward: tc.forward})
			if err != nil {
				t.Fatal(err)
			}
			if got := attr(pg.Items, "SK"); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func reversed(s []string) []string {
	r := slices.Clone(s)
	slices.Reverse(r)
	return r
}

// Sort keys of type N are ordered by numeric value (Query.html), negatives,
// decimals, exponents and 38 digits included.
func TestQueryOrderNumbers(t *testing.T) {
	tab := model.Table{Name: "n", Key: model.KeySchema{Partition: "PK", Sort: "SK"},
		Attributes: map[string]model.Type{"SK": model.TypeN}}
	e, err := New(tab)
	if err != nil {
		t.Fatal(err)
	}
	in := []string{"10", "-1.5", "0", "1e3", "-10", "0.001", "2", "1.5", "-1", "1", "-0.0015",
		"12345678901234567890123456789012345678", "-9.9E+125", "1E-130", "99.99", "100"}
	for _, n := range in {
		if err := e.load(item("PK", "P", "SK", model.Num(n))); err != nil {
			t.Fatal(n, err)
		}
	}
	want := []string{"-9.9E+125", "-10", "-1.5", "-1", "-0.0015", "0", "1E-130", "0.001", "1", "1.5", "2",
		"10", "99.99", "100", "1000", "12345678901234567890123456789012345678"}
	pg, err := e.Query(QueryInput{KeyConditionExpression: "PK = :p", ExpressionAttributeValues: vals(":p", "P")})
	if err != nil {
		t.Fatal(err)
	}
	got := attr(pg.Items, "SK")
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if model.CompareNumberText(got[i], want[i]) != 0 {
			t.Errorf("position %d: got %s, want %s (all: %q)", i, got[i], want[i], got)
		}
	}
	// Stored numbers are canonical, as DynamoDB returns them.
	if !slices.Contains(got, "1000") {
		t.Errorf("1e3 not stored as 1000: %q", got)
	}
	t.Run("range on numbers", func(t *testing.T) {
		pg, err := e.Query(QueryInput{KeyConditionExpression: "PK = :p AND SK BETWEEN :a AND :b",
			ExpressionAttributeValues: vals(":p", "P", ":a", model.Num("-1.5"), ":b", model.Num("1.5"))})
		if err != nil {
			t.Fatal(err)
		}
		got := attr(pg.Items, "SK")
		want := []string{"-1.5", "-1", "-0.0015", "0", "1E-130", "0.001", "1", "1.5"}
		if !slices.EqualFunc(got, want, func(a, b string) bool { return model.CompareNumberText(a, b) == 0 }) {
			t.Errorf("got %q", got)
		}
	})
}

// Every sort key condition of Query.KeyConditionExpressions.html, both directions.
func TestQueryKeyConditions(t *testing.T) {
	var items []model.Item
	for _, s := range []string{"A", "A#", "A#1", "A#2", "B", "B#1", "C"} {
		items = append(items, item("PK", "P", "SK", s))
	}
	items = append(items, item("PK", "P#", "SK", "A"), item("PK", "O", "SK", "A"))
	e := newTestEngine(t, items...)
	for _, tc := range []struct {
		cond string
		v    map[string]model.Value
		want []string
	}{
		{"PK = :p", vals(":p", "P"), []string{"A", "A#", "A#1", "A#2", "B", "B#1", "C"}},
		{"PK = :p AND SK = :a", vals(":p", "P", ":a", "A#1"), []string{"A#1"}},
		{"PK = :p AND SK < :a", vals(":p", "P", ":a", "A#1"), []string{"A", "A#"}},
		{"PK = :p AND SK <= :a", vals(":p", "P", ":a", "A#1"), []string{"A", "A#", "A#1"}},
		{"PK = :p AND SK > :a", vals(":p", "P", ":a", "A#2"), []string{"B", "B#1", "C"}},
		{"PK = :p AND SK >= :a", vals(":p", "P", ":a", "A#2"), []string{"A#2", "B", "B#1", "C"}},
		{"PK = :p AND SK BETWEEN :a AND :b", vals(":p", "P", ":a", "A#", ":b", "B"), []string{"A#", "A#1", "A#2", "B"}},
		{"PK = :p AND begins_with(SK, :a)", vals(":p", "P", ":a", "A#"), []string{"A#", "A#1", "A#2"}},
		{"PK = :p AND begins_with(SK, :a)", vals(":p", "P", ":a", "B"), []string{"B", "B#1"}},
		{"PK = :p AND SK > :a", vals(":p", "P", ":a", "Z"), nil},
		{"PK = :p AND SK = :a", vals(":p", "P", ":a", "A#3"), nil},
		{"PK = :p", vals(":p", "nobody"), nil},
	} {
		for _, fwd := range []bool{true, false} {
			want := tc.want
			if !fwd {
				want = reversed(want)
			}
			pg, err := e.Query(QueryInput{KeyConditionExpression: tc.cond, ExpressionAttributeValues: tc.v, ScanIndexForward: ptr(fwd)})
			if err != nil {
				t.Fatalf("%s: %v", tc.cond, err)
			}
			if got := attr(pg.Items, "SK"); !slices.Equal(got, want) && len(got)+len(want) > 0 {
				t.Errorf("%s %v forward=%v: got %q, want %q", tc.cond, tc.v, fwd, got, want)
			}
		}
	}
}

// Limit counts items READ, before the filter; the page stops there and carries a
// LastEvaluatedKey even when no item follows (API_Query.html "Limit"; dynalite
// db/index.js queryTable). ExclusiveStartKey continues after it.
func TestQueryLimitPages(t *testing.T) {
	var items []model.Item
	for _, s := range []string{"1", "2", "3", "4", "5"} {
		items = append(items, item("PK", "P", "SK", s, "keep", s))
	}
	e := newTestEngine(t, items...)
	for _, tc := range []struct {
		limit   int
		forward bool
		pages   [][]string // SKs per page
		leks    []string   // SK of each page's LastEvaluatedKey, "" for none
	}{
		{2, true, [][]string{{"1", "2"}, {"3", "4"}, {"5"}}, []string{"2", "4", ""}},
		{5, true, [][]string{{"1", "2", "3", "4", "5"}, nil}, []string{"5", ""}},
		{6, true, [][]string{{"1", "2", "3", "4", "5"}}, []string{""}},
		{0, true, [][]string{{"1", "2", "3", "4", "5"}}, []string{""}},
		{2, false, [][]string{{"5", "4"}, {"3", "2"}, {"1"}}, []string{"4", "2", ""}},
		{1, false, [][]string{{"5"}, {"4"}, {"3"}, {"2"}, {"1"}, nil}, []string{"5", "4", "3", "2", "1", ""}},
	} {
		var start model.Item
		for i := 0; ; i++ {
			pg, err := e.Query(QueryInput{KeyConditionExpression: "PK = :p", ExpressionAttributeValues: vals(":p", "P"),
				Limit: tc.limit, ScanIndexForward: ptr(tc.forward), ExclusiveStartKey: start})
			if err != nil {
				t.Fatal(err)
			}
			if i >= len(tc.pages) {
				t.Fatalf("limit %d: more pages than %d", tc.limit, len(tc.pages))
			}
			if got := attr(pg.Items, "SK"); !slices.Equal(got, tc.pages[i]) {
				t.Errorf("limit %d page %d: got %q, want %q", tc.limit, i, got, tc.pages[i])
			}
			lek := ""
			if pg.LastEvaluatedKey != nil {
				lek = pg.LastEvaluatedKey["SK"].Str
				if len(pg.LastEvaluatedKey) != 2 {
					t.Errorf("LastEvaluatedKey %v is not the table key", pg.LastEvaluatedKey)
				}
			}
			if lek != tc.leks[i] {
				t.Errorf("limit %d page %d: LastEvaluatedKey %q, want %q", tc.limit, i, lek, tc.leks[i])
			}
			if pg.LastEvaluatedKey == nil {
				break
			}
			start = pg.LastEvaluatedKey
		}
	}
}

// A filter runs after the read: Count <= ScannedCount, and a page can be empty and
// still carry a LastEvaluatedKey (Query.html "Filter expressions for Query").
func TestQueryFilterAfterLimit(t *testing.T) {
	var items []model.Item
	for i, s := range []string{"1", "2", "3", "4", "5"} {
		status := "old"
		if i >= 3 {
			status = "new"
		}
		items = append(items, item("PK", "P", "SK", s, "status", status))
	}
	e := newTestEngine(t, items...)
	pg, err := e.Query(QueryInput{KeyConditionExpression: "PK = :p", FilterExpression: "#s = :n",
		ExpressionAttributeNames: map[string]string{"#s": "status"}, ExpressionAttributeValues: vals(":p", "P", ":n", "new"), Limit: 3, Visits: true})
	if err != nil {
		t.Fatal(err)
	}
	if pg.Count != 0 || pg.ScannedCount != 3 || len(pg.Items) != 0 || pg.LastEvaluatedKey["SK"].Str != "3" {
		t.Errorf("got count %d scanned %d items %v lek %v", pg.Count, pg.ScannedCount, pg.Items, pg.LastEvaluatedKey)
	}
	if len(pg.Visits) != 3 || pg.Visits[0].Kept {
		t.Errorf("visits %v", pg.Visits)
	}
	pg, err = e.Query(QueryInput{KeyConditionExpression: "PK = :p", FilterExpression: "#s = :n",
		ExpressionAttributeNames: map[string]string{"#s": "status"}, ExpressionAttributeValues: vals(":p", "P", ":n", "new"),
		ExclusiveStartKey: pg.LastEvaluatedKey, Select: SelectCount, Visits: true})
	if err != nil {
		t.Fatal(err)
	}
	if pg.Count != 2 || pg.ScannedCount != 2 || pg.Items != nil || pg.LastEvaluatedKey != nil {
		t.Errorf("COUNT page: count %d scanned %d items %v lek %v", pg.Count, pg.ScannedCount, pg.Items, pg.LastEvaluatedKey)
	}
	if !pg.Visits[0].Kept || !pg.Visits[1].Kept {
		t.Errorf("visits %v", pg.Visits)
	}
}

// A page stops once 1 MB (1,048,576 bytes of item size) has been read; the item that
// crosses the line is included (Query.html "Paginating table query results").
func TestQueryOneMegabytePages(t *testing.T) {
	for _, tc := range []struct {
		name  string
		size  int
		n     int
		pages []int // items per page
		units []float64
	}{
		// 4 x 256 KB is exactly 1 MB: the page stops after the 4th item.
		{"exact", 262144, 5, []int{4, 1}, []float64{256, 64}},
		// 3 x 300,000 < 1 MB; the 4th crosses and is included.
		{"crossing", 300000, 9, []int{4, 4, 1}, []float64{293, 293, 74}},
		// just under: 4 x 262,143 = 1,048,572; the 5th crosses.
		{"under", 262143, 6, []int{5, 1}, []float64{320, 64}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var items []model.Item
			for i := range tc.n {
				items = append(items, sized(item("PK", "P", "SK", string(rune('a'+i))), tc.size))
			}
			e := newTestEngine(t, items...)
			var start model.Item
			for i, want := range tc.pages {
				pg, err := e.Query(QueryInput{KeyConditionExpression: "PK = :p", ExpressionAttributeValues: vals(":p", "P"),
					ExclusiveStartKey: start, ConsistentRead: true})
				if err != nil {
					t.Fatal(err)
				}
				if len(pg.Items) != want {
					t.Errorf("page %d: %d items, want %d", i, len(pg.Items), want)
				}
				if u := pg.Consumed.Table.Read; u != tc.units[i] {
					t.Errorf("page %d: %v RCU, want %v", i, u, tc.units[i])
				}
				last := i == len(tc.pages)-1
				if (pg.LastEvaluatedKey == nil) != last {
					t.Errorf("page %d: LastEvaluatedKey %v", i, pg.LastEvaluatedKey)
				}
				start = pg.LastEvaluatedKey
			}
		})
	}
}

// GSI reads: sparse membership, projections, LastEvaluatedKey with the index key, a
// stable tie-break on the table key (GSI.html "Sparse indexes", "Attribute
// projections"; API_Query.html "LastEvaluatedKey").
func TestQueryGSI(t *testing.T) {
	e := newTestEngine(t,
		item("PK", "c#1", "SK", "o#1", "GSI1PK", "S#new", "GSI1SK", "2026-01", "G2", "x", "status", "new", "amount", model.Num("5")),
		item("PK", "c#1", "SK", "o#2", "GSI1PK", "S#new", "GSI1SK", "2026-03", "G2", "x", "status", "new"),
		item("PK", "c#2", "SK", "o#3", "GSI1PK", "S#new", "GSI1SK", "2026-02", "status", "new"),
		item("PK", "c#0", "SK", "o#9", "GSI1PK", "S#new", "G2", "x"), // no GSI1SK: not in GSI1
		item("PK", "c#3", "SK", "o#4", "GSI1PK", "S#old", "GSI1SK", "2026-01", "G3", "g", "n", model.Num("2"), "status", "old", "amount", model.Num("1")),
		item("PK", "c#3", "SK", "o#5", "G3", "g", "n", model.Num("-1"), "other", "o"),
	)
	t.Run("sparse and ordered", func(t *testing.T) {
		pg, err := e.Query(QueryInput{IndexName: "GSI1", KeyConditionExpression: "GSI1PK = :p", ExpressionAttributeValues: vals(":p", "S#new")})
		if err != nil {
			t.Fatal(err)
		}
		if got := attr(pg.Items, "SK"); !slices.Equal(got, []string{"o#1", "o#3", "o#2"}) {
			t.Errorf("got %q", got)
		}
	})
	t.Run("tie-break on the table key", func(t *testing.T) {
		pg, err := e.Query(QueryInput{IndexName: "G2", KeyConditionExpression: "G2 = :p", ExpressionAttributeValues: vals(":p", "x")})
		if err != nil {
			t.Fatal(err)
		}
		if got := attr(pg.Items, "SK"); !slices.Equal(got, []string{"o#9", "o#1", "o#2"}) {
			t.Errorf("got %q", got)
		}
		// KEYS_ONLY: the table keys and the index key only.
		for _, it := range pg.Items {
			if len(it) != 3 {
				t.Errorf("KEYS_ONLY item %v", it)
			}
		}
	})
	t.Run("INCLUDE projection", func(t *testing.T) {
		pg, err := e.Query(QueryInput{IndexName: "G3", KeyConditionExpression: "G3 = :p", ExpressionAttributeValues: vals(":p", "g")})
		if err != nil {
			t.Fatal(err)
		}
		want := []model.Item{
			item("PK", "c#3", "SK", "o#5", "G3", "g", "n", model.Num("-1")),
			item("PK", "c#3", "SK", "o#4", "G3", "g", "n", model.Num("2"), "status", "old"),
		}
		if len(pg.Items) != 2 || !pg.Items[0].Equal(want[0]) || !pg.Items[1].Equal(want[1]) {
			t.Errorf("got %v", pg.Items)
		}
	})
	t.Run("pages with the index key in LastEvaluatedKey", func(t *testing.T) {
		var got []string
		var start model.Item
		for range 5 {
			pg, err := e.Query(QueryInput{IndexName: "GSI1", KeyConditionExpression: "GSI1PK = :p",
				ExpressionAttributeValues: vals(":p", "S#new"), Limit: 1, ScanIndexForward: ptr(false), ExclusiveStartKey: start})
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, attr(pg.Items, "SK")...)
			if pg.LastEvaluatedKey == nil {
				break
			}
			if names := pg.LastEvaluatedKey.Names(); !slices.Equal(names, []string{"GSI1PK", "GSI1SK", "PK", "SK"}) {
				t.Errorf("LastEvaluatedKey names %q", names)
			}
			start = pg.LastEvaluatedKey
		}
		if !slices.Equal(got, []string{"o#2", "o#3", "o#1"}) {
			t.Errorf("got %q", got)
		}
	})
	t.Run("GSI capacity is on the index and eventual", func(t *testing.T) {
		pg, err := e.Query(QueryInput{IndexName: "G2", KeyConditionExpression: "G2 = :p", ExpressionAttributeValues: vals(":p", "x")})
		if err != nil {
			t.Fatal(err)
		}
		if pg.Consumed.Table.Read != 0 || pg.Consumed.Indexes["G2"].Read != 0.5 {
			t.Errorf("consumed %+v", pg.Consumed)
		}
	})
}

// An LSI query that asks for attributes the index does not project fetches each item
// from the table and pays ceil(item/4 KB) for each (LSI.html "Reads").
func TestQueryLSIFetch(t *testing.T) {
	e := newTestEngine(t,
		sized(item("PK", "c", "SK", "1", "placedAt", "2026-01", "amount", "a"), 5000),
		sized(item("PK", "c", "SK", "2", "placedAt", "2026-02", "amount", "b"), 3000),
		item("PK", "c", "SK", "3"), // no placedAt: not in LSI1
	)
	pg, err := e.Query(QueryInput{IndexName: "LSI1", KeyConditionExpression: "PK = :p AND placedAt > :t",
		ExpressionAttributeValues: vals(":p", "c", ":t", "2026"), ProjectionExpression: "amount", ConsistentRead: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := attr(pg.Items, "amount"); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("got %v", pg.Items)
	}
	// Index entries: PK(2+1) SK(2+1) placedAt(8+7) = 21 bytes each -> 1 RCU; the
	// fetches: ceil(5000/4096)=2 and ceil(3000/4096)=1.
	if pg.Consumed.Indexes["LSI1"].Read != 1 || pg.Consumed.Table.Read != 3 {
		t.Errorf("consumed %+v", pg.Consumed)
	}
	pg, err = e.Query(QueryInput{IndexName: "LSI1", KeyConditionExpression: "PK = :p",
		ExpressionAttributeValues: vals(":p", "c")})
	if err != nil {
		t.Fatal(err)
	}
	if pg.Consumed.Table.Read != 0 || len(pg.Items) != 2 || len(pg.Items[0]) != 3 {
		t.Errorf("projected-only LSI read: %+v %v", pg.Consumed, pg.Items)
	}
}

// An LSI read that fetches counts each fetched item as 4 KB toward the 1 MB page
// (LSI.html "Read capacity units"): 400 items of 3 KB end the page after 256 of
// them, with a LastEvaluatedKey, though their entries are tiny.
func TestQueryLSIFetchPage(t *testing.T) {
	var items []model.Item
	for i := 0; i < 400; i++ {
		items = append(items, sized(item("PK", "c", "SK", fmt.Sprintf("%03d", i), "placedAt", fmt.Sprintf("2026-%03d", i), "amount", "a"), 3000))
	}
	e := newTestEngine(t, items...)
	pg, err := e.Query(QueryInput{IndexName: "LSI1", KeyConditionExpression: "PK = :p",
		ExpressionAttributeValues: vals(":p", "c"), ProjectionExpression: "amount", ConsistentRead: true})
	if err != nil {
		t.Fatal(err)
	}
	if pg.ScannedCount != 256 || pg.LastEvaluatedKey == nil {
		t.Errorf("read %d items (LastEvaluatedKey %v), want 256 and a LastEvaluatedKey", pg.ScannedCount, pg.LastEvaluatedKey)
	}
	if pg.Consumed.Table.Read != 256 {
		t.Errorf("fetches %v RCU, want 256 (one per 3 KB item, strongly consistent)", pg.Consumed.Table.Read)
	}
}

// Query and Scan validation errors, DynamoDB's wording (dynalite actions/query.js,
// actions/scan.js; API_Query.html).
func TestReadErrors(t *testing.T) {
	e := newTestEngine(t, item("PK", "P", "SK", "1", "GSI1PK", "g", "GSI1SK", "s"))
	for _, tc := range []struct {
		name string
		in   QueryInput
		msg  string
	}{
		{"missing index", QueryInput{IndexName: "nope", KeyConditionExpression: "PK = :p", ExpressionAttributeValues: vals(":p", "P")},
			"The table does not have the specified index: nope"},
		{"consistent GSI", QueryInput{IndexName: "GSI1", KeyConditionExpression: "GSI1PK = :p", ExpressionAttributeValues: vals(":p", "g"), ConsistentRead: true},
			"Consistent reads are not supported on global secondary indexes"},
		{"filter on key", QueryInput{KeyConditionExpression: "PK = :p", FilterExpression: "SK = :s", ExpressionAttributeValues: vals(":p", "P", ":s", "1")},
			"Filter Expression can only contain non-primary key attributes: Primary key attribute: SK"},
		{"filter on index key", QueryInput{IndexName: "GSI1", KeyConditionExpression: "GSI1PK = :p", FilterExpression: "GSI1SK = :s", ExpressionAttributeValues: vals(":p", "g", ":s", "1")},
			"Filter Expression can only contain non-primary key attributes: Primary key attribute: GSI1SK"},
		{"start key missing sort", QueryInput{KeyConditionExpression: "PK = :p", ExpressionAttributeValues: vals(":p", "P"), ExclusiveStartKey: item("PK", "P")},
			"The provided starting key is invalid: The provided key element does not match the schema"},
		{"start key other partition", QueryInput{KeyConditionExpression: "PK = :p", ExpressionAttributeValues: vals(":p", "P"), ExclusiveStartKey: item("PK", "Q", "SK", "1")},
			"The provided starting key is outside query boundaries based on provided conditions"},
		{"start key outside range", QueryInput{KeyConditionExpression: "PK = :p AND SK > :s", ExpressionAttributeValues: vals(":p", "P", ":s", "5"), ExclusiveStartKey: item("PK", "P", "SK", "1")},
			"The provided starting key does not match the range key predicate"},
		{"index start key without index key", QueryInput{IndexName: "GSI1", KeyConditionExpression: "GSI1PK = :p", ExpressionAttributeValues: vals(":p", "g"), ExclusiveStartKey: item("PK", "P", "SK", "1")},
			"The provided starting key is invalid: The provided key element does not match the schema"},
		{"GSI unprojected", QueryInput{IndexName: "G2", KeyConditionExpression: "G2 = :p", ExpressionAttributeValues: vals(":p", "x"), ProjectionExpression: "amount"},
			"One or more parameter values were invalid: Global secondary index G2 does not project the attributes [amount]; project them into the index or read them from the table"},
		{"GSI ALL_ATTRIBUTES", QueryInput{IndexName: "G2", KeyConditionExpression: "G2 = :p", ExpressionAttributeValues: vals(":p", "x"), Select: SelectAllAttributes},
			"One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index G2 because its projection type is not ALL"},
		// A real Query answers an oversized partition key value with the same message
		// as PutItem (facebook/ThreatExchange#1324: "An error occurred
		// (ValidationException) when calling the Query operation: One or more
		// parameter values were invalid: Size of hashkey has exceeded the maximum size
		// limit of2048 bytes"; HowItWorks.NamingRulesDataTypes.html: 2048 bytes).
		{"partition key over 2048 bytes", QueryInput{KeyConditionExpression: "PK = :p", ExpressionAttributeValues: vals(":p", strings.Repeat("k", 2049))},
			"One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"},
		{"index partition key over 2048 bytes", QueryInput{IndexName: "GSI1", KeyConditionExpression: "GSI1PK = :p", ExpressionAttributeValues: vals(":p", strings.Repeat("k", 2049))},
			"One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"},
		{"start key partition over 2048 bytes", QueryInput{KeyConditionExpression: "PK = :p", ExpressionAttributeValues: vals(":p", "P"), ExclusiveStartKey: item("PK", strings.Repeat("k", 2049), "SK", "1")},
			"The provided starting key is invalid: One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"},
		{"negative limit", QueryInput{KeyConditionExpression: "PK = :p", ExpressionAttributeValues: vals(":p", "P"), Limit: -1},
			"1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.Query(tc.in)
			if errType(err) != ValidationException || errMsg(err) != tc.msg {
				t.Errorf("got %v\nwant ValidationException: %s", err, tc.msg)
			}
		})
	}
	_, err := e.Scan(ScanInput{IndexName: "GSI1", ConsistentRead: true})
	if errMsg(err) != msgGSIConsistent {
		t.Errorf("scan consistent GSI: %v", err)
	}
	// Scan's ExclusiveStartKey is checked as Query's is, with the same message.
	_, err = e.Scan(ScanInput{ExclusiveStartKey: item("PK", strings.Repeat("k", 2049), "SK", "1")})
	if want := "The provided starting key is invalid: One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"; errMsg(err) != want {
		t.Errorf("scan start key over 2048 bytes: %v\nwant %s", err, want)
	}
	_, err = e.Query(QueryInput{KeyConditionExpression: "PK = :p", ExpressionAttributeValues: vals(":p", "P", ":unused", "x")})
	if errType(err) != ValidationException || !strings.Contains(errMsg(err), "unused") {
		t.Errorf("unused value: %v", err)
	}
}

// Scan walks every item, the filter may name key attributes, and segments split the
// table without overlap (Scan.html, "Parallel scan").
func TestScan(t *testing.T) {
	var items []model.Item
	for i := range 40 {
		items = append(items, item("PK", string(rune('A'+i)), "SK", "x", "GSI1PK", "g", "GSI1SK", string(rune('A'+i))))
	}
	e := newTestEngine(t, items...)
	all, err := e.Scan(ScanInput{})
	if err != nil {
		t.Fatal(err)
	}
	if all.Count != 40 || all.ScannedCount != 40 || all.LastEvaluatedKey != nil {
		t.Fatalf("scan: %d %d %v", all.Count, all.ScannedCount, all.LastEvaluatedKey)
	}
	var paged []string
	var start model.Item
	for {
		pg, err := e.Scan(ScanInput{Limit: 7, ExclusiveStartKey: start})
		if err != nil {
			t.Fatal(err)
		}
		paged = append(paged, attr(pg.Items, "PK")...)
		if pg.LastEvaluatedKey == nil {
			break
		}
		start = pg.LastEvaluatedKey
	}
	if !slices.Equal(paged, attr(all.Items, "PK")) {
		t.Errorf("paged scan %q differs from one page %q", paged, attr(all.Items, "PK"))
	}
	var segs []string
	for s := range 3 {
		pg, err := e.Scan(ScanInput{Segment: s, TotalSegments: 3})
		if err != nil {
			t.Fatal(err)
		}
		segs = append(segs, attr(pg.Items, "PK")...)
	}
	a, b := slices.Sorted(slices.Values(segs)), slices.Sorted(slices.Values(attr(all.Items, "PK")))
	if !slices.Equal(a, b) {
		t.Errorf("segments cover %q, want %q", a, b)
	}
	pg, err := e.Scan(ScanInput{FilterExpression: "PK = :a", ExpressionAttributeValues: vals(":a", "C")})
	if err != nil || pg.Count != 1 || pg.ScannedCount != 40 {
		t.Errorf("scan filter on key: %v %+v", err, pg)
	}
	pg, err = e.Scan(ScanInput{IndexName: "GSI1", Limit: 2})
	if err != nil || len(pg.LastEvaluatedKey) != 4 {
		t.Errorf("index scan: %v %v", err, pg)
	}
	if _, err := e.Scan(ScanInput{Segment: 3, TotalSegments: 3}); errType(err) != ValidationException {
		t.Errorf("segment out of range: %v", err)
	}
}

// LastEvaluatedKey / ExclusiveStartKey round trip on an LSI: the key holds the table
// key and the LSI sort key (LSI.html "Querying a local secondary index";
// API_Query.html "LastEvaluatedKey").
func TestQueryLSIPages(t *testing.T) {
	var items []model.Item
	for i, at := range []string{"2026-03", "2026-01", "2026-02", "2026-01", "2026-05"} {
		items = append(items, item("PK", "c", "SK", string(rune('a'+i)), "placedAt", at))
	}
	items = append(items, item("PK", "c", "SK", "z")) // no placedAt: not in the LSI
	e := newTestEngine(t, items...)
	for _, fwd := range []bool{true, false} {
		want := []string{"b", "d", "c", "a", "e"} // by placedAt, ties by SK
		if !fwd {
			want = reversed(want)
		}
		var got []string
		var start model.Item
		for range 10 {
			pg, err := e.Query(QueryInput{IndexName: "LSI1", KeyConditionExpression: "PK = :p AND placedAt >= :t",
				ExpressionAttributeValues: vals(":p", "c", ":t", "2026-01"), Limit: 2, ScanIndexForward: ptr(fwd),
				ExclusiveStartKey: start, ConsistentRead: true})
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, attr(pg.Items, "SK")...)
			if pg.LastEvaluatedKey == nil {
				break
			}
			if names := pg.LastEvaluatedKey.Names(); !slices.Equal(names, []string{"PK", "SK", "placedAt"}) {
				t.Errorf("LastEvaluatedKey names %q", names)
			}
			start = pg.LastEvaluatedKey
		}
		if !slices.Equal(got, want) {
			t.Errorf("forward=%v: got %q, want %q", fwd, got, want)
		}
	}
}

// Tables with only a partition key, and numeric and binary keys
// (HowItWorks.CoreComponents.html "Primary key": simple and composite keys, S, N or B).
func TestSimpleAndTypedKeys(t *testing.T) {
	e, err := New(model.Table{Name: "s", Key: model.KeySchema{Partition: "id"}, Attributes: map[string]model.Type{"id": model.TypeN, "b": model.TypeB},
		Indexes: []model.Index{{Name: "byBin", Key: model.KeySchema{Partition: "g", Sort: "b"}, Projection: model.Projection{Type: model.ProjectAll}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range []model.Item{
		item("id", model.Num("10"), "g", "x", "b", model.Bin([]byte{0x80})),
		item("id", model.Num("-2"), "g", "x", "b", model.Bin([]byte{0x01, 0xff})),
		item("id", model.Num("3.5"), "g", "x", "b", model.Bin([]byte{0x01})),
	} {
		if _, err := e.PutItem(PutItemInput{Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	g, err := e.GetItem(GetItemInput{Key: item("id", model.Num("3.50"))})
	if err != nil || g.Item == nil {
		t.Fatalf("GetItem by an equal number written differently: %v %v", err, g)
	}
	if _, err := e.GetItem(GetItemInput{Key: item("id", "3.5")}); errMsg(err) != msgKeySchema {
		t.Errorf("S value for an N key: %v", err)
	}
	pg, err := e.Query(QueryInput{IndexName: "byBin", KeyConditionExpression: "g = :g", ExpressionAttributeValues: vals(":g", "x")})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, it := range pg.Items {
		ids = append(ids, it["id"].Str)
	}
	// Binary sort keys by unsigned bytes: 01 < 01ff < 80.
	if !slices.Equal(ids, []string{"3.5", "-2", "10"}) {
		t.Errorf("got %q", ids)
	}
	pg, err = e.Query(QueryInput{KeyConditionExpression: "id = :i", ExpressionAttributeValues: vals(":i", model.Num("1e1")), Limit: 1})
	if err != nil || pg.Count != 1 || pg.LastEvaluatedKey["id"].Str != "10" {
		t.Fatalf("query by numeric partition key: %v %+v", err, pg)
	}
	// Without a sort key the start key is the whole partition: the next page is
	// empty and ends the query, in both directions.
	for _, fwd := range []bool{true, false} {
		next, err := e.Query(QueryInput{KeyConditionExpression: "id = :i", ExpressionAttributeValues: vals(":i", model.Num("10")),
			Limit: 1, ExclusiveStartKey: pg.LastEvaluatedKey, ScanIndexForward: ptr(fwd)})
		if err != nil || next.Count != 0 || next.ScannedCount != 0 || next.LastEvaluatedKey != nil {
			t.Errorf("forward=%v: page after the only item: %v %+v", fwd, err, next)
		}
	}
}
