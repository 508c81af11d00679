package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"stwb/designfile"
	"stwb/model"
	"stwb/throttle"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func throttled(t *testing.T, scale float64, c *fakeClock, path string) *Server {
	t.Helper()
	f, err := designfile.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	s := New(Options{Throttle: throttle.New(throttle.Options{Scale: scale, Now: c.now})})
	if err := s.AddFile(f); err != nil {
		t.Fatal(err)
	}
	return s
}

type errorBody struct {
	Type              string `json:"__type"`
	ThrottlingReasons []throttle.Reason
	Item              map[string]map[string]any
}

// TestThrottleCounter: the counter, one item updated 15 times a second at
// --scale 100 (1,500 at full scale) for 20 s: a third of the updates are
// throttled with TableWriteKeyRangeThroughputExceeded on the table's ARN, and a
// throttled update writes nothing (the counter holds the updates let through).
func TestThrottleCounter(t *testing.T) {
	c := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := throttled(t, 100, c, "../throttle/testdata/counter.yaml")
	update := `{"TableName":"counter-data","Key":{"PK":{"S":"COUNTER#views"},"SK":{"S":"TOTAL"}},"UpdateExpression":"ADD n :one","ExpressionAttributeValues":{":one":{"N":"1"}}}`
	ok, refused := 0, 0
	for i := 0; i < 15*20; i++ {
		status, body := s.Call("UpdateItem", []byte(update))
		c.t = c.t.Add(time.Second / 15)
		if status == http.StatusOK {
			ok++
			continue
		}
		refused++
		var e errorBody
		if err := json.Unmarshal(body, &e); err != nil {
			t.Fatal(err)
		}
		want := throttle.Reason{Reason: "TableWriteKeyRangeThroughputExceeded", Resource: "arn:aws:dynamodb:us-east-1:000000000000:table/counter-data"}
		if e.Type != "com.amazonaws.dynamodb.v20120810#ThrottlingException" || len(e.ThrottlingReasons) != 1 || e.ThrottlingReasons[0] != want {
			t.Fatalf("throttled answer %s", body)
		}
		// ThrottlingException's member is throttlingReasons in DynamoDB's model (the
		// SDKs read no other name).
		if !strings.Contains(string(body), `"throttlingReasons":[`) {
			t.Fatalf("throttled answer %s: no throttlingReasons member", body)
		}
	}
	if share := float64(refused) / float64(ok+refused); share < 0.28 || share > 0.38 {
		t.Errorf("%d of %d updates throttled (%.2f), want about a third", refused, ok+refused, share)
	}
	c.t = c.t.Add(time.Minute)
	_, body := s.Call("GetItem", []byte(`{"TableName":"counter-data","Key":{"PK":{"S":"COUNTER#views"},"SK":{"S":"TOTAL"}}}`))
	var got struct{ Item map[string]map[string]string }
	json.Unmarshal(body, &got)
	if n := got.Item["n"]["N"]; n != fmt.Sprint(ok) {
		t.Errorf("counter n = %s after %d updates let through: a throttled update wrote", n, ok)
	}
}

// TestThrottleGSIBackPressure: a GSI short of write capacity throttles the writes
// to its table (GSI.html), with the index's reason and ARN, and the item is not
// written to the table either.
func TestThrottleGSIBackPressure(t *testing.T) {
	d := &model.Design{Name: "gsi", Table: model.Table{Name: "orders", Key: model.KeySchema{Partition: "PK", Sort: "SK"},
		Billing: model.Billing{Mode: model.Provisioned, Read: 100000, Write: 100000},
		Indexes: []model.Index{{Name: "byStatus", Key: model.KeySchema{Partition: "status"}, Projection: model.Projection{Type: model.ProjectAll}, Read: 100000, Write: 100}}}}
	c := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := New(Options{Throttle: throttle.New(throttle.Options{Scale: 100, Now: c.now})})
	if err := s.AddDesign(d); err != nil {
		t.Fatal(err)
	}
	var refusedKey string
	for i := 0; i < 10 && refusedKey == ""; i++ { // the GSI holds 1 WCU a second at scale 100
		key := fmt.Sprintf("O#%d", i)
		status, body := s.Call("PutItem", []byte(`{"TableName":"orders","Item":{"PK":{"S":"`+key+`"},"SK":{"S":"A"},"status":{"S":"NEW`+fmt.Sprint(i)+`"}}}`))
		if status == http.StatusOK {
			continue
		}
		var e errorBody
		json.Unmarshal(body, &e)
		want := throttle.Reason{Reason: "IndexWriteProvisionedThroughputExceeded", Resource: "arn:aws:dynamodb:us-east-1:000000000000:table/orders/index/byStatus"}
		if e.Type != "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException" || len(e.ThrottlingReasons) != 1 || e.ThrottlingReasons[0] != want ||
			!strings.Contains(string(body), `"ThrottlingReasons":[`) {
			t.Fatalf("throttled answer %s", body)
		}
		refusedKey = key
	}
	if refusedKey == "" {
		t.Fatal("10 writes in the same instant through a GSI of 1 WCU a second: none throttled")
	}
	c.t = c.t.Add(time.Hour)
	_, body := s.Call("GetItem", []byte(`{"TableName":"orders","Key":{"PK":{"S":"`+refusedKey+`"},"SK":{"S":"A"}}}`))
	if string(body) != "{}" {
		t.Errorf("the throttled put wrote %s", body)
	}
}

// TestThrottleOffByDefault: without --throttle nothing is throttled.
func TestThrottleOffByDefault(t *testing.T) {
	f, err := designfile.Load("../throttle/testdata/counter.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := New(Options{})
	s.AddFile(f)
	for i := 0; i < 2000; i++ {
		if status, body := s.Call("UpdateItem", []byte(`{"TableName":"counter-data","Key":{"PK":{"S":"COUNTER#views"},"SK":{"S":"TOTAL"}},"UpdateExpression":"ADD n :one","ExpressionAttributeValues":{":one":{"N":"1"}}}`)); status != 200 {
			t.Fatalf("update %d: %s", i, body)
		}
	}
}

// retrying is an SDK client with the standard retryer, as an application has it,
// allowed enough attempts to ride out what the test injects.
func retrying(endpoint string, attempts int) *dynamodb.Client {
	c := client(endpoint, http.DefaultTransport.(*http.Transport).Clone())
	return dynamodb.New(c.Options(), func(o *dynamodb.Options) {
		o.RetryMaxAttempts = 0
		o.Retryer = retry.NewStandard(func(so *retry.StandardOptions) {
			so.MaxAttempts = attempts
			so.MaxBackoff = 50 * time.Millisecond
			so.RateLimiter = noRateLimit{}
		})
	})
}

// noRateLimit lets every retry through: the test counts on the attempts, not on
// the client's retry quota.
type noRateLimit struct{}

func (noRateLimit) GetToken(context.Context, uint) (func() error, error) {
	return func() error { return nil }, nil
}
func (noRateLimit) AddTokens(uint) error { return nil }

// TestRetryerRecovers: the SDK's standard retryer rides out throttling (one key at
// 10 WCU a second) and each injected fault it retries (InternalServerError,
// ThrottlingException, a dropped connection): every call succeeds, and the item
// count shows each was written once.
func TestRetryerRecovers(t *testing.T) {
	for _, tc := range []struct{ name, faults string }{
		{"throttling", ""}, {"internal", "internal=30%"}, {"throttle fault", "throttle=30%"}, {"dropped connection", "drop=30%"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := Options{Throttle: throttle.New(throttle.Options{Scale: 100})}
			if tc.faults != "" {
				f, err := throttle.ParseFaults(tc.faults, 7)
				if err != nil {
					t.Fatal(err)
				}
				o.Faults = f
			}
			f, err := designfile.Load("../throttle/testdata/counter.yaml")
			if err != nil {
				t.Fatal(err)
			}
			st := start(t, o, f.Design)
			db := retrying(st.endpoint, 30)
			for i := 0; i < 25; i++ {
				_, err := db.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: aws.String("counter-data"),
					Key:              map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "COUNTER#views"}, "SK": &types.AttributeValueMemberS{Value: "TOTAL"}},
					UpdateExpression: aws.String("ADD n :one"), ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}}})
				if err != nil {
					t.Fatalf("update %d: %v", i, err)
				}
			}
			out, err := db.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: aws.String("counter-data"), ConsistentRead: aws.Bool(true),
				Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "COUNTER#views"}, "SK": &types.AttributeValueMemberS{Value: "TOTAL"}}})
			if err != nil {
				t.Fatal(err)
			}
			if n := out.Item["n"].(*types.AttributeValueMemberN).Value; n != "25" {
				t.Errorf("n = %s after 25 updates", n)
			}
		})
	}
}

// TestConflictFault: conflict=100% cancels every transaction with
// TransactionConflict, which the SDK does not retry, and writes nothing.
func TestConflictFault(t *testing.T) {
	f, err := throttle.ParseFaults("conflict=100%", 1)
	if err != nil {
		t.Fatal(err)
	}
	d, err := designfile.Load("../throttle/testdata/counter.yaml")
	if err != nil {
		t.Fatal(err)
	}
	st := start(t, Options{Faults: f}, d.Design)
	db := retrying(st.endpoint, 3)
	_, err = db.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String("counter-data"), Item: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "A"}, "SK": &types.AttributeValueMemberS{Value: "1"}}}},
		{Put: &types.Put{TableName: aws.String("counter-data"), Item: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "B"}, "SK": &types.AttributeValueMemberS{Value: "1"}}}},
	}})
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) || len(tce.CancellationReasons) != 2 || aws.ToString(tce.CancellationReasons[0].Code) != "TransactionConflict" || aws.ToString(tce.CancellationReasons[1].Code) != "None" {
		t.Fatalf("got %v, want TransactionCanceledException [TransactionConflict, None]", err)
	}
	out, err := db.Scan(ctx(t), &dynamodb.ScanInput{TableName: aws.String("counter-data")})
	if err != nil || out.Count != 1 {
		t.Errorf("after a conflicted transaction the table holds %d items (%v), want the 1 it had", out.Count, err)
	}
}

// TestSDKReadsThrottlingReasons: the SDK finds the reasons and the resource ARN
// in the typed error, for ThrottlingException (on-demand) and
// ProvisionedThroughputExceededException (provisioned).
func TestSDKReadsThrottlingReasons(t *testing.T) {
	f, err := designfile.Load("../throttle/testdata/counter.yaml")
	if err != nil {
		t.Fatal(err)
	}
	prov := *f.Design
	prov.Table.Name, prov.Table.Billing = "counter-provisioned", model.Billing{Mode: model.Provisioned, Read: 100000, Write: 100000}
	st := start(t, Options{Throttle: throttle.New(throttle.Options{Scale: 1000})}, f.Design, &prov)
	for _, table := range []string{"counter-data", "counter-provisioned"} {
		var got []types.ThrottlingReason
		for i := 0; i < 10 && got == nil; i++ {
			_, err := st.db.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: aws.String(table),
				Key:              map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "COUNTER#views"}, "SK": &types.AttributeValueMemberS{Value: "TOTAL"}},
				UpdateExpression: aws.String("ADD n :one"), ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}}})
			var te *types.ThrottlingException
			var pe *types.ProvisionedThroughputExceededException
			switch {
			case errors.As(err, &te):
				got = te.ThrottlingReasons
			case errors.As(err, &pe):
				got = pe.ThrottlingReasons
			}
		}
		if len(got) != 1 || aws.ToString(got[0].Reason) != "TableWriteKeyRangeThroughputExceeded" ||
			aws.ToString(got[0].Resource) != "arn:aws:dynamodb:us-east-1:000000000000:table/"+table {
			t.Errorf("%s: the SDK read reasons %+v", table, got)
		}
	}
}

// TestThrottleOnDemandMaximum: a table created on-demand with OnDemandThroughput
// (as stwb deploy creates one from billing: {on-demand: {maxWrite}}) is held to it:
// ThrottlingException with TableWriteMaxOnDemandThroughputExceeded.
func TestThrottleOnDemandMaximum(t *testing.T) {
	c := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := New(Options{Throttle: throttle.New(throttle.Options{Scale: 100, Now: c.now})})
	if status, body := s.Call("CreateTable", []byte(`{"TableName":"capped","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"}],"KeySchema":[{"AttributeName":"PK","KeyType":"HASH"}],
		"OnDemandThroughput":{"MaxWriteRequestUnits":500,"MaxReadRequestUnits":-1}}`)); status != 200 {
		t.Fatalf("CreateTable: %s", body)
	}
	c.t = c.t.Add(time.Second) // ACTIVE
	s.Call("DescribeTable", []byte(`{"TableName":"capped"}`))
	refused := 0
	for i := 0; i < 20; i++ { // 20 writes on 20 keys in one instant: 5 WRU a second at scale 100
		status, body := s.Call("PutItem", []byte(fmt.Sprintf(`{"TableName":"capped","Item":{"PK":{"S":"K%d"}}}`, i)))
		if status == http.StatusOK {
			continue
		}
		refused++
		if !strings.Contains(string(body), `"reason":"TableWriteMaxOnDemandThroughputExceeded"`) || !strings.Contains(string(body), "#ThrottlingException") {
			t.Fatalf("refused with %s", body)
		}
	}
	if refused < 10 {
		t.Errorf("%d of 20 writes refused past a maximum of 5 a second", refused)
	}
}
