package engine

import (
	"strings"
	"testing"

	"stwb/model"
)

// TestAbsentAndZero holds the engine to DynamoDB where a parameter given as zero is
// not the same as one left out, and to the request-size limits in DynamoDB's words.
// Each case names its source: the API reference page, dynalite's validations (which
// copy DynamoDB's messages) or the conformance measurement of issue 17.
func TestAbsentAndZero(t *testing.T) {
	e := newTestEngine(t, item("PK", "P", "SK", "1"))
	key := item("PK", "P", "SK", "1")
	pq := func(in QueryInput) error {
		in.KeyConditionExpression, in.ExpressionAttributeValues = "PK = :p", vals(":p", "P")
		_, err := e.Query(in)
		return err
	}
	scan := func(in ScanInput) error { _, err := e.Scan(in); return err }
	keys := func(n int) []model.Item {
		var ks []model.Item
		for i := range n {
			ks = append(ks, item("PK", strings.Repeat("k", i+1), "SK", "s"))
		}
		return ks
	}
	puts := func(n, size int) []TransactWriteItem {
		var ws []TransactWriteItem
		for i := range n {
			ws = append(ws, TransactWriteItem{Kind: model.ActionPut, Item: sized(item("PK", strings.Repeat("k", i+1), "SK", "s"), size)})
		}
		return ws
	}
	cases := []struct {
		name, source string
		run          func() error
		want         string // "" : no error
	}{
		{"Query Limit 0", "API_Query.html Limit (minimum 1); the conformance suite's capture, tier3/error-messages/query.test.ts",
			func() error { return pq(QueryInput{Given: GivenLimit}) },
			"1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"Query Limit absent", "API_Query.html Limit", func() error { return pq(QueryInput{}) }, ""},
		{"Scan Limit 0", "API_Scan.html Limit (minimum 1); dynalite validations/scan.js",
			func() error { return scan(ScanInput{Given: GivenLimit}) },
			"1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"Segment 0 without TotalSegments", "API_Scan.html Segment; dynalite validations/scan.js",
			func() error { return scan(ScanInput{Given: GivenSegment}) },
			"The TotalSegments parameter is required but was not present in the request when Segment parameter is present"},
		{"TotalSegments without Segment", "API_Scan.html Segment; dynalite validations/scan.js",
			func() error { return scan(ScanInput{TotalSegments: 4, Given: GivenTotalSegments}) },
			"The Segment parameter is required but was not present in the request when parameter TotalSegments is present"},
		{"Segment 0 of 4 built in code", "API_Scan.html Segment", func() error { return scan(ScanInput{TotalSegments: 4}) }, ""},
		{"TotalSegments 0", "API_Scan.html TotalSegments (minimum 1)",
			func() error { return scan(ScanInput{Given: GivenSegment | GivenTotalSegments}) },
			"1 validation error detected: Value '0' at 'totalSegments' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"empty FilterExpression", "dynalite validations/index.js parse",
			func() error { return pq(QueryInput{Given: GivenFilter}) },
			"Invalid FilterExpression: The expression can not be empty;"},
		{"empty ProjectionExpression", "dynalite validations/index.js parse",
			func() error { _, err := e.GetItem(GetItemInput{Key: key, Given: GivenProjection}); return err },
			"Invalid ProjectionExpression: The expression can not be empty;"},
		{"empty ConditionExpression", "dynalite validations/index.js parse",
			func() error { _, err := e.PutItem(PutItemInput{Item: key, Given: GivenCondition}); return err },
			"Invalid ConditionExpression: The expression can not be empty;"},
		{"empty UpdateExpression", "dynalite validations/index.js parse",
			func() error { _, err := e.UpdateItem(UpdateItemInput{Key: key, Given: GivenUpdate}); return err },
			"Invalid UpdateExpression: The expression can not be empty;"},
		{"values without an expression (PutItem)", "dynalite validations/index.js validateExpressionParams",
			func() error {
				_, err := e.PutItem(PutItemInput{Item: key, ExpressionAttributeValues: vals(":v", "x")})
				return err
			},
			"ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null"},
		{"values without an expression (UpdateItem)", "dynalite validations/index.js validateExpressionParams",
			func() error {
				_, err := e.UpdateItem(UpdateItemInput{Key: key, ExpressionAttributeValues: vals(":v", "x")})
				return err
			},
			"ExpressionAttributeValues can only be specified when using expressions: UpdateExpression and ConditionExpression are null"},
		{"names without an expression (GetItem)", "dynalite validations/index.js validateExpressionParams",
			func() error {
				_, err := e.GetItem(GetItemInput{Key: key, ExpressionAttributeNames: map[string]string{"#a": "a"}})
				return err
			},
			"ExpressionAttributeNames can only be specified when using expressions"},
		{"NULL false", "API_AttributeValue.html NULL; issue 17 measurement",
			func() error {
				_, err := e.PutItem(PutItemInput{Item: item("PK", "P", "SK", "2", "n", model.Value{Type: model.TypeNULL})})
				return err
			},
			"One or more parameter values were invalid: Null attribute value types must have the value of true"},
		{"BatchGetItem 101 keys", "API_BatchGetItem.html (up to 100 items); issue 17 measurement",
			func() error { _, err := e.BatchGetItem(BatchGetItemInput{Keys: keys(101)}); return err },
			"1 validation error detected: Value at 'RequestItems.t.member.Keys' failed to satisfy constraint: Member must have length less than or equal to 100"},
		{"empty TransactItems", "API_TransactWriteItems.html (1 to 100); issue 17 measurement",
			func() error { _, err := e.TransactWriteItems(nil); return err },
			"1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"TransactWriteItems over 4 MB", "API_TransactWriteItems.html: the aggregate size of the items cannot exceed 4 MB",
			func() error { _, err := e.TransactWriteItems(puts(11, 390_000)); return err },
			"Transaction request cannot be larger than 4 MB"},
		{"TransactGetItems key without its sort key", "issue 17 measurement: TransactionCanceledException, reason ValidationError",
			func() error {
				_, err := e.TransactGetItems([]TransactGet{{Key: key}, {Key: item("PK", "P")}})
				return err
			},
			"Transaction cancelled, please refer cancellation reasons for specific reasons [None, ValidationError]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			if got := errMsg(err); got != tc.want {
				t.Errorf("%s\n got: %q\nwant: %q", tc.source, got, tc.want)
			}
		})
	}
}

// TestLSIWithAnotherPartitionKey: an LSI is on the table's partition key; a table
// built in code with another is refused in CreateTable's words, not silently given
// the table's (LSI.html; dynalite validations/createTable.js).
func TestLSIWithAnotherPartitionKey(t *testing.T) {
	tb := testTable()
	for i := range tb.Indexes {
		if tb.Indexes[i].Local {
			tb.Indexes[i].Key.Partition = "G2"
		}
	}
	_, err := New(tb)
	want := "One or more parameter values were invalid: Index KeySchema does not have the same leading hash key as table KeySchema for index: LSI1. index hash key: G2, table hash key: PK"
	if errMsg(err) != want {
		t.Fatalf("got %v\nwant %q", err, want)
	}
	tb = testTable()
	for i := range tb.Indexes {
		if tb.Indexes[i].Local {
			tb.Indexes[i].Key.Partition = "PK" // the table's own: fine
		}
	}
	if _, err := New(tb); err != nil {
		t.Fatal(err)
	}
}
