package engine

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"stwb/model"
)

// TestBatchWriteLength holds BatchWriteItem's length rule to DynamoDB's answers:
// each table's list is 1 to 25 requests, printed as DynamoDB prints the whole map,
// and the request as a whole is at most 25.
func TestBatchWriteLength(t *testing.T) {
	deletes := func(n int) []WriteRequest {
		var rs []WriteRequest
		for i := range n {
			rs = append(rs, WriteRequest{Key: item("PK", strings.Repeat("k", i+1), "SK", "s")})
		}
		return rs
	}
	const constraint = "' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: [Member must have length less than or equal to 25, Member must have length greater than or equal to 1]"
	wr := `com\.amazonaws\.dynamodb\.v20120810\.WriteRequest@[0-9a-f]+`
	cases := []struct {
		name, source string
		requests     map[string][]WriteRequest
		want         string // a regular expression of the whole message; "" : accepted
	}{
		{"26 requests for one table", "boto/boto3#483 (real DynamoDB: the map printed whole, each request as WriteRequest@hash)",
			map[string][]WriteRequest{"my-table": deletes(26)},
			`^1 validation error detected: Value '\{my-table=\[(` + wr + `, ){25}` + wr + `\]\}` + regexp.QuoteMeta(constraint) + `$`},
		{"an empty list", "elegantdevelopment/aws-cdk-dynamodb-seeder#3 (real DynamoDB: Value '{test-table=[]}')",
			map[string][]WriteRequest{"test-table": nil},
			`^` + regexp.QuoteMeta("1 validation error detected: Value '{test-table=[]}"+constraint) + `$`},
		{"26 for one table beside another's 1: the whole map", "API_BatchWriteItem.html RequestItems (a map of tables); boto/boto3#483",
			map[string][]WriteRequest{"b-table": deletes(26), "a-table": deletes(1)},
			`^1 validation error detected: Value '\{a-table=\[` + wr + `\], b-table=\[(` + wr + `, ){25}` + wr + `\]\}` + regexp.QuoteMeta(constraint) + `$`},
		{"13 and 13 over two tables", "API_BatchWriteItem.html (\"more than 25 requests in the batch\"); zio/zio-dynamodb#77",
			map[string][]WriteRequest{"a-table": deletes(13), "b-table": deletes(13)},
			`^Too many items requested for the BatchWriteItem call$`},
		{"25 for one table", "API_BatchWriteItem.html (maximum 25)", map[string][]WriteRequest{"t": deletes(25)}, ""},
		{"12 and 13 over two tables", "API_BatchWriteItem.html (maximum 25)", map[string][]WriteRequest{"a-table": deletes(12), "b-table": deletes(13)}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := errMsg(CheckBatchWriteLength(tc.requests))
			if tc.want == "" {
				if got != "" {
					t.Fatalf("%s: refused: %s", tc.source, got)
				}
				return
			}
			if !regexp.MustCompile(tc.want).MatchString(got) {
				t.Errorf("%s\n got: %q\nwant: %s", tc.source, got, tc.want)
			}
		})
	}
	// The same request prints the same hash; another request another.
	a := requestItemsText(map[string][]WriteRequest{"t": deletes(2)})
	if b := requestItemsText(map[string][]WriteRequest{"t": deletes(2)}); a != b {
		t.Errorf("the same requests print differently: %s, %s", a, b)
	}
	if h := regexp.MustCompile(`@[0-9a-f]+`).FindAllString(a, -1); len(h) != 2 || h[0] == h[1] {
		t.Errorf("two different requests should print two hashes: %s", a)
	}
}

// TestBatchGetLength: 1 to 100 keys a table, 100 in all (API_BatchGetItem.html),
// each table's bound first (getmoto/moto#3046), in the words checkBatchGetLength
// cites.
func TestBatchGetLength(t *testing.T) {
	cases := []struct {
		name   string
		counts map[string]int
		want   string // "" : accepted
	}{
		{"no keys for a table", map[string]int{"Auth": 0},
			"1 validation error detected: Value '[]' at 'requestItems.Auth.member.keys' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"101 keys for one table", map[string]int{"users": 101, "a-table": 1},
			"1 validation error detected: Value at 'RequestItems.users.member.Keys' failed to satisfy constraint: Member must have length less than or equal to 100"},
		{"75 and 26 over two tables", map[string]int{"users": 75, "users2": 26}, "Too many items requested for the BatchGetItem call"},
		{"100 for one table", map[string]int{"users": 100}, ""},
		{"50 and 50", map[string]int{"users": 50, "users2": 50}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := errMsg(CheckBatchGetLength(tc.counts)); got != tc.want {
				t.Errorf("\n got: %q\nwant: %q", got, tc.want)
			}
		})
	}
}

// TestBatchWriteItemOverTheLimit: the engine's own BatchWriteItem applies the rule to
// its table.
func TestBatchWriteItemOverTheLimit(t *testing.T) {
	e := newTestEngine(t)
	var rs []WriteRequest
	for i := range 26 {
		rs = append(rs, WriteRequest{Key: item("PK", strings.Repeat("k", i+1), "SK", "s")})
	}
	_, err := e.BatchWriteItem(rs)
	if got := errMsg(err); !strings.HasPrefix(got, "1 validation error detected: Value '{"+e.Table().Name+"=[com.amazonaws.dynamodb.v20120810.WriteRequest@") {
		t.Fatalf("got %q", got)
	}
}

// TestTransactionLength: 1 to 100 actions (API_TransactWriteItems.html,
// API_TransactGetItems.html), in real DynamoDB's words (checkTransactionLength
// cites the captures).
func TestTransactionLength(t *testing.T) {
	e := newTestEngine(t)
	var puts []TransactWriteItem
	var gets []TransactGet
	for i := range 101 {
		k := item("PK", strings.Repeat("k", i+1), "SK", "s")
		puts = append(puts, TransactWriteItem{Kind: model.ActionPut, Item: k})
		gets = append(gets, TransactGet{Key: k})
	}
	// A pattern's transaction over 100 is named, not echoed (its refusal is a
	// finding); CheckTransactionLength, serve's, echoes the list.
	const long = "1 validation error detected: Value at 'TransactItems' failed to satisfy constraint: Member must have length less than or equal to 100"
	cases := []struct {
		name string
		run  func() error
		want string // "" : accepted
	}{
		{"101 writes", func() error { _, err := e.TransactWriteItems(puts); return err }, long},
		{"101 gets", func() error { _, err := e.TransactGetItems(gets); return err }, long},
		{"no writes", func() error { _, err := e.TransactWriteItems(nil); return err },
			"1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"100 gets", func() error { _, err := e.TransactGetItems(gets[:100]); return err }, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := errMsg(tc.run()); got != tc.want {
				t.Errorf("\n got: %q\nwant: %q", got, tc.want)
			}
		})
	}
	echo := errMsg(CheckTransactionLength(puts, "TransactWriteItem"))
	first := "1 validation error detected: Value '[com.amazonaws.dynamodb.v20120810.TransactWriteItem@" + strconv.FormatUint(uint64(hashOf(puts[0])), 16) + ", "
	if !strings.HasPrefix(echo, first) || !strings.HasSuffix(echo, "]' at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to 100") ||
		strings.Count(echo, "TransactWriteItem@") != 101 {
		t.Errorf("serve's answer to 101 writes: %.200q...", echo)
	}
}

// TestTransactionBytes: the 4 MB limit is on the aggregate size of the items
// (API_TransactWriteItems.html "The aggregate size of the items in the transaction
// cannot exceed 4 MB").
func TestTransactionBytes(t *testing.T) {
	if err := CheckTransactionBytes(4 << 20); err != nil {
		t.Errorf("exactly 4 MB refused: %v", err)
	}
	if got := errMsg(CheckTransactionBytes(4<<20 + 1)); got != "Transaction request cannot be larger than 4 MB" {
		t.Errorf("4 MB + 1: %q", got)
	}
}
