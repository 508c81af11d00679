package serve

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestLimitsOverTables holds the limits of requests over several tables to
// DynamoDB's: BatchWriteItem's 25 requests are counted over the whole request and
// its refusal prints the whole RequestItems map (boto/boto3#483), and
// TransactWriteItems' 4 MB is the aggregate size of all its items
// (API_TransactWriteItems.html), not each table's. Nothing is written by a refused
// request.
func TestLimitsOverTables(t *testing.T) {
	a, b := sample(t, "orders"), sample(t, "users-orders")
	st := start(t, Options{}, a, b)
	c := ctx(t)
	puts := func(n int, prefix string, pad int) []types.WriteRequest {
		var rs []types.WriteRequest
		for i := range n {
			rs = append(rs, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
				"PK": av(fmt.Sprintf("%s#%d", prefix, i)), "SK": av("x"), "pad": av(strings.Repeat("p", pad))}}})
		}
		return rs
	}
	wr := `com\.amazonaws\.dynamodb\.v20120810\.WriteRequest@[0-9a-f]+`
	cases := []struct {
		name  string
		items map[string][]types.WriteRequest
		want  string // regular expression of the message
	}{
		{"13 and 13 over two tables", map[string][]types.WriteRequest{a.Table.Name: puts(13, "L", 1), b.Table.Name: puts(13, "L", 1)},
			`^Too many items requested for the BatchWriteItem call$`},
		{"26 for one table beside another's 1", map[string][]types.WriteRequest{a.Table.Name: puts(26, "L", 1), b.Table.Name: puts(1, "L", 1)},
			`^1 validation error detected: Value '\{` + regexp.QuoteMeta(a.Table.Name) + `=\[(` + wr + `, ){25}` + wr + `\], ` +
				regexp.QuoteMeta(b.Table.Name) + `=\[` + wr + `\]\}' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: \[Member must have length less than or equal to 25, Member must have length greater than or equal to 1\]$`},
		{"an empty list", map[string][]types.WriteRequest{a.Table.Name: {}},
			`^` + regexp.QuoteMeta("1 validation error detected: Value '{"+a.Table.Name+"=[]}' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: [Member must have length less than or equal to 25, Member must have length greater than or equal to 1]") + `$`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := st.db.BatchWriteItem(c, &dynamodb.BatchWriteItemInput{RequestItems: tc.items})
			if !regexp.MustCompile(tc.want).MatchString(apiMessage(err)) {
				t.Fatalf("\n got: %v\nwant: %s", err, tc.want)
			}
		})
	}
	// BatchGetItem: 100 keys over the request, each table's bound first.
	keys := func(n int) []map[string]types.AttributeValue {
		var ks []map[string]types.AttributeValue
		for i := range n {
			ks = append(ks, map[string]types.AttributeValue{"PK": av(fmt.Sprint("K#", i)), "SK": av("x")})
		}
		return ks
	}
	for _, tc := range []struct {
		name   string
		counts [2]int
		want   string
	}{
		{"60 and 41 keys", [2]int{60, 41}, "Too many items requested for the BatchGetItem call"},
		{"101 keys and 1", [2]int{101, 1}, "1 validation error detected: Value at 'RequestItems." + a.Table.Name + ".member.Keys' failed to satisfy constraint: Member must have length less than or equal to 100"},
	} {
		_, err := st.db.BatchGetItem(c, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
			a.Table.Name: {Keys: keys(tc.counts[0])}, b.Table.Name: {Keys: keys(tc.counts[1])}}})
		if apiMessage(err) != tc.want {
			t.Errorf("BatchGetItem %s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// 101 actions: refused before any table is looked up.
	var many []types.TransactWriteItem
	for i := range 101 {
		many = append(many, types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: aws.String("no-such-table"),
			Key: map[string]types.AttributeValue{"PK": av(fmt.Sprint(i))}, ConditionExpression: aws.String("attribute_exists(PK)")}})
	}
	_, err := st.db.TransactWriteItems(c, &dynamodb.TransactWriteItemsInput{TransactItems: many})
	// Echoed whole, as real DynamoDB does in us-east-1 (the conformance suite's
	// capture, anchored the same way: "TransactWriteItems — exact error messages").
	long := regexp.MustCompile(`^1 validation error detected: Value '\[(com\.amazonaws\.dynamodb\.v20120810\.TransactWriteItem@[0-9a-f]+(, )?){101}\]' at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to 100$`)
	if !long.MatchString(apiMessage(err)) {
		t.Errorf("101 actions: %v", err)
	}
	// Six items of ~390 KB on each table: 2.3 MB a table, 4.7 MB in all.
	var items []types.TransactWriteItem
	for _, name := range []string{a.Table.Name, b.Table.Name} {
		for _, r := range puts(6, "T", 390_000) {
			items = append(items, types.TransactWriteItem{Put: &types.Put{TableName: aws.String(name), Item: r.PutRequest.Item}})
		}
	}
	if _, err := st.db.TransactWriteItems(c, &dynamodb.TransactWriteItemsInput{TransactItems: items}); apiMessage(err) != "Transaction request cannot be larger than 4 MB" {
		t.Fatalf("a 4.7 MB transaction over two tables: %v", err)
	}
	for _, name := range []string{a.Table.Name, b.Table.Name} {
		got, err := st.db.GetItem(c, &dynamodb.GetItemInput{TableName: aws.String(name), Key: map[string]types.AttributeValue{"PK": av("T#0"), "SK": av("x")}})
		if err != nil || got.Item != nil {
			t.Fatalf("the refused transaction wrote to %s (%v)", name, err)
		}
	}
	// Half of it, over the two tables, is accepted.
	if _, err := st.db.TransactWriteItems(c, &dynamodb.TransactWriteItemsInput{TransactItems: append(items[:3:3], items[6:9]...)}); err != nil {
		t.Fatalf("a 2.3 MB transaction over two tables: %v", err)
	}
}
