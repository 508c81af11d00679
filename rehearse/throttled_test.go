package rehearse

import (
	"context"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"stwb/live"
	"stwb/model"
)

// TestThrottledTries: what stwb load counts as a throttled try, each the way
// DynamoDB throttles it (throttledTry): an error of the three throttling
// exceptions, a transaction cancelled for an action's throughput, a batch with an
// unprocessed part; a condition's cancellation and a whole batch are not.
func TestThrottledTries(t *testing.T) {
	tp := func(code string) types.CancellationReason { return types.CancellationReason{Code: aws.String(code)} }
	cases := []struct {
		name      string
		result    any
		err       error
		throttled bool
		reasons   []string
	}{
		{"ThrottlingException", nil, &types.ThrottlingException{ThrottlingReasons: []types.ThrottlingReason{{Reason: aws.String("TableWriteKeyRangeThroughputExceeded")}}},
			true, []string{"TableWriteKeyRangeThroughputExceeded"}},
		{"ProvisionedThroughputExceededException", nil, &types.ProvisionedThroughputExceededException{}, true, []string{}},
		{"transaction throttled", nil, &types.TransactionCanceledException{CancellationReasons: []types.CancellationReason{tp("None"), tp("ThrottlingError")}},
			true, []string{"ThrottlingError"}},
		{"transaction over provisioned capacity", nil, &types.TransactionCanceledException{CancellationReasons: []types.CancellationReason{tp("ProvisionedThroughputExceeded")}},
			true, []string{"ProvisionedThroughputExceeded"}},
		{"transaction condition failed", nil, &types.TransactionCanceledException{CancellationReasons: []types.CancellationReason{tp("ConditionalCheckFailed")}},
			false, nil},
		{"batch write, part unprocessed", &dynamodb.BatchWriteItemOutput{UnprocessedItems: map[string][]types.WriteRequest{"t": {{}}}}, nil,
			true, []string{"UnprocessedItems"}},
		{"batch write, all written", &dynamodb.BatchWriteItemOutput{UnprocessedItems: map[string][]types.WriteRequest{}}, nil, false, nil},
		{"batch get, part unprocessed", &dynamodb.BatchGetItemOutput{UnprocessedKeys: map[string]types.KeysAndAttributes{"t": {}}}, nil,
			true, []string{"UnprocessedKeys"}},
		{"a read", &dynamodb.GetItemOutput{}, nil, false, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reasons, throttled := throttledTry(tc.result, tc.err)
			if throttled != tc.throttled || (tc.throttled && fmt.Sprint(reasons) != fmt.Sprint(tc.reasons)) {
				t.Errorf("throttledTry = %v %v, want %v %v", reasons, throttled, tc.throttled, tc.reasons)
			}
		})
	}
}

// TestBatchResent: a BatchWriteItem over one key value's second of units against
// serve --throttle: its unprocessed part is sent again until every item is
// written, each answer with unprocessed items a throttled try.
func TestBatchResent(t *testing.T) {
	url, _ := endpoint(t, "../throttle/testdata/counter.yaml", 100) // 10 WCU a second a key value
	db, err := live.NewClient(context.Background(), live.Config{Endpoint: url, Region: "us-east-1",
		Credentials: credentials.NewStaticCredentialsProvider("k", "s", "")})
	if err != nil {
		t.Fatal(err)
	}
	db = dynamodb.New(db.Options(), func(opt *dynamodb.Options) { opt.APIOptions = append(opt.APIOptions, countAttempts) })
	q := model.Pattern{ID: 1, Operation: model.OpBatchWriteItem}
	for i := range 25 {
		q.Actions = append(q.Actions, model.Action{Kind: model.ActionPut, Item: model.Item{"PK": model.Str("COUNTER#hot"), "SK": model.Str(fmt.Sprint("S", i))}})
	}
	var c counter
	used, err := send(context.WithValue(context.Background(), counterKey{}, &c), db, "counter-data", &q)
	if err != nil {
		t.Fatal(err)
	}
	// Every try but the last is throttled: answered with unprocessed items, or,
	// when a resend finds the key value's units not yet back, refused whole
	// (ThrottlingException, which the SDK retries).
	if c.attempts < 3 || c.throttled != c.attempts-1 || c.reasons["UnprocessedItems"] == 0 ||
		c.reasons["UnprocessedItems"]+c.reasons["TableWriteKeyRangeThroughputExceeded"] != c.throttled {
		t.Errorf("%d tries, %d throttled (%v): want every try but the last throttled, some with unprocessed items", c.attempts, c.throttled, c.reasons)
	}
	if used.write != 25 {
		t.Errorf("consumed %v WCU over the tries, want the 25 items' 25", used.write)
	}
	out, err := db.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String("counter-data"), Select: types.SelectCount})
	if err != nil {
		t.Fatal(err)
	}
	if out.Count != 26 { // the counter item and the 25
		t.Errorf("%d items after the batch, want 26", out.Count)
	}
}
