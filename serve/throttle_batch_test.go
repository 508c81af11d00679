package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"stwb/model"
	"stwb/throttle"
)

// Batches, transactions and PartiQL under --throttle, each as DynamoDB answers
// (serve/throttle.go): at --scale 100 a key value holds 10 WCU and 30 RCU a
// second, and every bucket starts with one second's units; the clock stands
// still, so what a bucket lets through is what the case says.

const (
	onDemandTable    = "ondemand"
	provisionedTable = "prov"
	tableARNPrefix   = "arn:aws:dynamodb:us-east-1:000000000000:table/"
)

// throttledTables serves an on-demand table and a provisioned one (500 WCU and
// RCU: 5 a second at scale 100), both keyed PK, SK, with a stopped clock.
func throttledTables(t *testing.T) (*Server, *fakeClock) {
	t.Helper()
	c := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := New(Options{Throttle: throttle.New(throttle.Options{Scale: 100, Now: c.now})})
	for _, tb := range []model.Table{
		{Name: onDemandTable, Key: model.KeySchema{Partition: "PK", Sort: "SK"}, Billing: model.Billing{Mode: model.OnDemand}},
		{Name: provisionedTable, Key: model.KeySchema{Partition: "PK", Sort: "SK"}, Billing: model.Billing{Mode: model.Provisioned, Read: 500, Write: 500}},
	} {
		if err := s.AddDesign(&model.Design{Name: tb.Name, Table: tb}); err != nil {
			t.Fatal(err)
		}
	}
	return s, c
}

// puts is a BatchWriteItem's RequestItems for table: n puts, on one partition
// key value (pk) or each on its own ("" pk).
func puts(table, pk string, n int) string {
	var reqs []string
	for i := 0; i < n; i++ {
		p := pk
		if p == "" {
			p = fmt.Sprint("K", i)
		}
		reqs = append(reqs, fmt.Sprintf(`{"PutRequest":{"Item":{"PK":{"S":%q},"SK":{"S":"%02d"}}}}`, p, i))
	}
	return fmt.Sprintf(`{"RequestItems":{%q:[%s]},"ReturnConsumedCapacity":"TOTAL"}`, table, strings.Join(reqs, ","))
}

type batchWriteAnswer struct {
	Type              string `json:"__type"`
	Message           string
	ThrottlingReasons []throttle.Reason
	TLReasons         []throttle.Reason `json:"throttlingReasons"`
	UnprocessedItems  map[string][]struct {
		PutRequest struct {
			Item map[string]map[string]string
		}
	}
	UnprocessedKeys map[string]struct {
		Keys                 []map[string]map[string]string
		ProjectionExpression string
	}
	Responses        map[string][]map[string]map[string]string
	ConsumedCapacity []struct{ CapacityUnits float64 }
}

func call(t *testing.T, s *Server, op, body string) (int, batchWriteAnswer, string) {
	t.Helper()
	status, raw := s.Call(op, []byte(body))
	var a batchWriteAnswer
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatalf("%s: %v in %s", op, err, raw)
	}
	return status, a, string(raw)
}

func itemCount(t *testing.T, s *Server, table string) int {
	t.Helper()
	_, raw := s.Call("Scan", []byte(fmt.Sprintf(`{"TableName":%q,"Select":"COUNT"}`, table)))
	var c struct{ Count int }
	json.Unmarshal(raw, &c)
	return c.Count
}

// TestThrottleBatchWrite: API_BatchWriteItem.html: the throttled part of a batch
// comes back in UnprocessedItems, as sent; the batch fails only when none of its
// items could be processed: ProvisionedThroughputExceededException when
// provisioned throughput refused them all, ThrottlingException for any other
// throttle (a partition's limit), both with every reason.
func TestThrottleBatchWrite(t *testing.T) {
	cases := []struct {
		name        string
		table, pk   string
		first       int // items the first batch of 25 writes
		secondCode  string
		reason      string
		description string
	}{
		{"on-demand, one key value", onDemandTable, "HOT", 10, "ThrottlingException", "TableWriteKeyRangeThroughputExceeded",
			"a key value's 10 WCU a second: 10 items written, 15 returned"},
		{"provisioned, every item its own key", provisionedTable, "", 5, "ProvisionedThroughputExceededException", "TableWriteProvisionedThroughputExceeded",
			"the table's 5 WCU a second: 5 written, 20 returned"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := throttledTables(t)
			status, a, raw := call(t, s, "BatchWriteItem", puts(tc.table, tc.pk, 25))
			if status != http.StatusOK {
				t.Fatalf("first batch refused whole: %s", raw)
			}
			left := a.UnprocessedItems[tc.table]
			if len(left) != 25-tc.first || itemCount(t, s, tc.table) != tc.first {
				t.Fatalf("%s: %d unprocessed, %d written; want %d written", tc.description, len(left), itemCount(t, s, tc.table), tc.first)
			}
			// The unprocessed requests are the later ones, as they were sent.
			if sk := left[0].PutRequest.Item["SK"]["S"]; sk != fmt.Sprintf("%02d", tc.first) {
				t.Errorf("first unprocessed item SK %s, want %02d: %s", sk, tc.first, raw)
			}
			if strings.Contains(raw, "DeleteRequest") {
				t.Errorf("unprocessed puts carry a DeleteRequest member: %s", raw)
			}
			if len(a.ConsumedCapacity) != 1 || a.ConsumedCapacity[0].CapacityUnits != float64(tc.first) {
				t.Errorf("consumed %+v, want the %d items written", a.ConsumedCapacity, tc.first)
			}
			status, a, raw = call(t, s, "BatchWriteItem", puts(tc.table, tc.pk, 25))
			if status != http.StatusBadRequest || !strings.HasSuffix(a.Type, "#"+tc.secondCode) {
				t.Fatalf("second batch, nothing processed: %d %s, want %s", status, raw, tc.secondCode)
			}
			reasons := append(a.ThrottlingReasons, a.TLReasons...)
			if len(reasons) != 1 || reasons[0].Reason != tc.reason || reasons[0].Resource != tableARNPrefix+tc.table {
				t.Errorf("reasons %+v, want %s", reasons, tc.reason)
			}
			if n := itemCount(t, s, tc.table); n != tc.first {
				t.Errorf("%d items after the refused batch, want %d", n, tc.first)
			}
		})
	}
}

// TestThrottleBatchWriteHotKeyProvisioned: a provisioned table with capacity to
// spare whose batch all lands on one hot key value: none processed by a
// partition's limit, so ThrottlingException, not
// ProvisionedThroughputExceededException ("For all tables and indexes, if none
// of the items can be processed due to other throttling scenarios (such as
// exceeding partition level limits), then BatchWriteItem returns a
// ThrottlingException", API_BatchWriteItem.html).
func TestThrottleBatchWriteHotKeyProvisioned(t *testing.T) {
	c := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := New(Options{Throttle: throttle.New(throttle.Options{Scale: 100, Now: c.now})})
	def := model.Table{Name: provisionedTable, Key: model.KeySchema{Partition: "PK", Sort: "SK"}, Billing: model.Billing{Mode: model.Provisioned, Read: 100000, Write: 100000}}
	if err := s.AddDesign(&model.Design{Name: "p", Table: def}); err != nil {
		t.Fatal(err)
	}
	call(t, s, "BatchWriteItem", puts(provisionedTable, "HOT", 25))
	status, a, raw := call(t, s, "BatchWriteItem", puts(provisionedTable, "HOT", 25))
	if status != http.StatusBadRequest || !strings.HasSuffix(a.Type, "#ThrottlingException") || !strings.Contains(raw, "TableWriteKeyRangeThroughputExceeded") {
		t.Fatalf("hot key on a provisioned table, nothing processed: %s", raw)
	}
}

// TestThrottleBatchGet: API_BatchGetItem.html: "If at least one of the items is
// successfully processed, then BatchGetItem completes successfully, while
// returning the keys of the unread items in UnprocessedKeys", in the same form as
// RequestItems (its ProjectionExpression kept); none read: the throttle's
// exception.
func TestThrottleBatchGet(t *testing.T) {
	s, _ := throttledTables(t)
	// 100 keys on one key value, each 0.5 RCU (eventually consistent): its 30 RCU
	// a second read 60, and 40 come back.
	var keys []string
	for i := 0; i < 100; i++ {
		keys = append(keys, fmt.Sprintf(`{"PK":{"S":"HOT"},"SK":{"S":"%02d"}}`, i))
	}
	get := fmt.Sprintf(`{"RequestItems":{%q:{"Keys":[%s],"ProjectionExpression":"SK"}},"ReturnConsumedCapacity":"TOTAL"}`, onDemandTable, strings.Join(keys, ","))
	status, a, raw := call(t, s, "BatchGetItem", get)
	if status != http.StatusOK {
		t.Fatalf("first BatchGetItem refused whole: %s", raw)
	}
	left := a.UnprocessedKeys[onDemandTable]
	if len(left.Keys) != 40 || left.ProjectionExpression != "SK" || left.Keys[0]["SK"]["S"] != "60" {
		t.Fatalf("unprocessed %d keys from %v with projection %q, want 40 from SK 60 with SK: %s", len(left.Keys), left.Keys[:min(1, len(left.Keys))], left.ProjectionExpression, raw)
	}
	if len(a.ConsumedCapacity) != 1 || a.ConsumedCapacity[0].CapacityUnits != 30 {
		t.Errorf("consumed %+v, want 30 (60 keys read)", a.ConsumedCapacity)
	}
	status, a, raw = call(t, s, "BatchGetItem", get)
	if status != http.StatusBadRequest || !strings.HasSuffix(a.Type, "#ThrottlingException") || !strings.Contains(raw, "TableReadKeyRangeThroughputExceeded") {
		t.Fatalf("second BatchGetItem, nothing read: %s", raw)
	}
}

type cancelAnswer struct {
	Type                string `json:"__type"`
	Message             string
	CancellationReasons []struct{ Code, Message string }
}

func cancelled(t *testing.T, s *Server, op, body string) (int, cancelAnswer, string) {
	t.Helper()
	status, raw := s.Call(op, []byte(body))
	var a cancelAnswer
	json.Unmarshal(raw, &a)
	return status, a, string(raw)
}

// exhaust spends key value pk's second of write units (10 WCU at scale 100) and
// of read units (30 RCU) on table.
func exhaust(t *testing.T, s *Server, table, pk string) {
	t.Helper()
	if status, raw := s.Call("PutItem", []byte(fmt.Sprintf(`{"TableName":%q,"Item":{"PK":{"S":%q},"SK":{"S":"big"},"pad":{"S":%q}}}`, table, pk, strings.Repeat("x", 12*1024)))); status != http.StatusOK {
		t.Fatalf("exhausting %s: %s", pk, raw)
	}
	for i := 0; i < 10; i++ { // 12 KB strongly consistent: 3 RCU a read
		s.Call("GetItem", []byte(fmt.Sprintf(`{"TableName":%q,"Key":{"PK":{"S":%q},"SK":{"S":"big"}},"ConsistentRead":true}`, table, pk)))
	}
}

// TestThrottleTransactions: DynamoDB cancels a transaction when "there is
// insufficient provisioned capacity for the transaction to be completed"
// (TransactionCanceledException), each throttled action's reason saying why in the
// words of API_TransactWriteItems.html's list: ProvisionedThroughputExceeded on a
// provisioned table, ThrottlingError on an on-demand one; the others None.
// Nothing is written, and the ClientRequestToken keeps no answer: the same
// request runs once the key value has units again.
func TestThrottleTransactions(t *testing.T) {
	const onDemandHot = "Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try again shortly. If exceptions persist, check if you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html"
	const provisioned = "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API."
	put := func(table, pk string) string {
		return fmt.Sprintf(`{"Put":{"TableName":%q,"Item":{"PK":{"S":%q},"SK":{"S":"t"}}}}`, table, pk)
	}
	get := func(table, pk string) string {
		return fmt.Sprintf(`{"Get":{"TableName":%q,"Key":{"PK":{"S":%q},"SK":{"S":"big"}}}}`, table, pk)
	}
	cases := []struct {
		name, op, body string
		codes          []string
		message        string
	}{
		{"write, on-demand hot key", "TransactWriteItems",
			`{"TransactItems":[` + put(onDemandTable, "COLD") + `,` + put(onDemandTable, "HOT") + `],"ClientRequestToken":"tok-1"}`,
			[]string{"None", "ThrottlingError"}, onDemandHot},
		{"write, provisioned table", "TransactWriteItems",
			`{"TransactItems":[` + put(provisionedTable, "HOT") + `,` + put(onDemandTable, "COLD") + `]}`,
			[]string{"ProvisionedThroughputExceeded", "None"}, provisioned},
		{"read, on-demand hot key", "TransactGetItems",
			`{"TransactItems":[` + get(onDemandTable, "HOT") + `,` + get(onDemandTable, "COLD") + `]}`,
			[]string{"ThrottlingError", "None"}, onDemandHot},
		{"PartiQL write", "ExecuteTransaction",
			`{"TransactStatements":[{"Statement":"UPDATE \"` + onDemandTable + `\" SET n = 1 WHERE PK = 'HOT' AND SK = 'big'"},{"Statement":"INSERT INTO \"` + onDemandTable + `\" VALUE {'PK': 'COLD', 'SK': 't'}"}]}`,
			[]string{"ThrottlingError", "None"}, onDemandHot},
		{"PartiQL read", "ExecuteTransaction",
			`{"TransactStatements":[{"Statement":"SELECT * FROM \"` + onDemandTable + `\" WHERE PK = 'COLD' AND SK = 'big'"},{"Statement":"SELECT * FROM \"` + onDemandTable + `\" WHERE PK = 'HOT' AND SK = 'big'"}]}`,
			[]string{"None", "ThrottlingError"}, onDemandHot},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := throttledTables(t)
			exhaust(t, s, onDemandTable, "HOT")
			exhaust(t, s, provisionedTable, "HOT") // and the provisioned table's 5 WCU
			before := itemCount(t, s, onDemandTable)
			status, a, raw := cancelled(t, s, tc.op, tc.body)
			if status != http.StatusBadRequest || !strings.HasSuffix(a.Type, "#TransactionCanceledException") || len(a.CancellationReasons) != len(tc.codes) {
				t.Fatalf("%d %s, want TransactionCanceledException", status, raw)
			}
			for i, want := range tc.codes {
				r := a.CancellationReasons[i]
				if r.Code != want || (want != "None" && r.Message != tc.message) {
					t.Errorf("reason %d: %s %q, want %s %q", i, r.Code, r.Message, want, tc.message)
				}
			}
			if want := "Transaction cancelled, please refer cancellation reasons for specific reasons [" + strings.Join(tc.codes, ", ") + "]"; a.Message != want {
				t.Errorf("message %q, want %q", a.Message, want)
			}
			if n := itemCount(t, s, onDemandTable); n != before {
				t.Errorf("%d items after the cancelled transaction, %d before: it wrote", n, before)
			}
		})
	}
	// The token of a throttled transaction keeps no answer: once HOT has units
	// again the same request runs.
	c := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := New(Options{Throttle: throttle.New(throttle.Options{Scale: 100, Now: c.now})})
	s.AddDesign(&model.Design{Name: "od", Table: model.Table{Name: onDemandTable, Key: model.KeySchema{Partition: "PK", Sort: "SK"}, Billing: model.Billing{Mode: model.OnDemand}}})
	exhaust(t, s, onDemandTable, "HOT")
	body := cases[0].body
	if status, _, raw := cancelled(t, s, "TransactWriteItems", body); status != http.StatusBadRequest {
		t.Fatalf("not throttled: %s", raw)
	}
	c.t = c.t.Add(2 * time.Second)
	if status, _, raw := cancelled(t, s, "TransactWriteItems", body); status != http.StatusOK {
		t.Fatalf("retried with its token after the throttle passed: %s", raw)
	}
}

// TestThrottlePartiQL: ExecuteStatement is throttled as the operation it runs as
// (an UPDATE as UpdateItem, a SELECT on a key value as that Query), with that
// operation's exception; in a BatchExecuteStatement each statement on its own,
// a throttled one answered with its BatchStatementError (ThrottlingError on an
// on-demand table, API_BatchStatementError.html) and not run, the others run.
func TestThrottlePartiQL(t *testing.T) {
	s, c := throttledTables(t)
	exhaust(t, s, onDemandTable, "HOT")
	for _, tc := range []struct{ statement, reason string }{
		{`UPDATE "` + onDemandTable + `" SET n = 1 WHERE PK = 'HOT' AND SK = 'big'`, "TableWriteKeyRangeThroughputExceeded"},
		{`SELECT * FROM "` + onDemandTable + `" WHERE PK = 'HOT'`, "TableReadKeyRangeThroughputExceeded"},
	} {
		status, raw := s.Call("ExecuteStatement", []byte(fmt.Sprintf(`{"Statement":%q,"ConsistentRead":true}`, tc.statement)))
		if status != http.StatusBadRequest || !strings.Contains(string(raw), "#ThrottlingException") || !strings.Contains(string(raw), `"reason":"`+tc.reason+`"`) {
			t.Errorf("%s: %d %s, want ThrottlingException with %s", tc.statement, status, raw, tc.reason)
		}
	}
	// The throttled UPDATE wrote nothing (read a second later, with units again),
	// then HOT is spent again.
	c.t = c.t.Add(time.Second)
	_, raw := s.Call("GetItem", []byte(`{"TableName":"`+onDemandTable+`","Key":{"PK":{"S":"HOT"},"SK":{"S":"big"}},"ProjectionExpression":"n"}`))
	if string(raw) != `{"Item":{}}` {
		t.Errorf("after the throttled UPDATE the item holds %s", raw)
	}
	exhaust(t, s, onDemandTable, "HOT")
	status, raw := s.Call("BatchExecuteStatement", []byte(`{"Statements":[
		{"Statement":"INSERT INTO \"`+onDemandTable+`\" VALUE {'PK': 'HOT', 'SK': 'b1'}"},
		{"Statement":"INSERT INTO \"`+onDemandTable+`\" VALUE {'PK': 'COLD', 'SK': 'b2'}"}]}`))
	var out struct {
		Responses []struct {
			TableName string
			Error     *struct{ Code, Message string }
		}
	}
	json.Unmarshal(raw, &out)
	if status != http.StatusOK || len(out.Responses) != 2 || out.Responses[0].Error == nil || out.Responses[0].Error.Code != "ThrottlingError" || out.Responses[1].Error != nil {
		t.Fatalf("BatchExecuteStatement: %d %s, want the HOT insert's ThrottlingError and the COLD one run", status, raw)
	}
	c.t = c.t.Add(time.Second)
	for _, k := range []struct {
		pk, sk string
		want   bool
	}{{"HOT", "b1", false}, {"COLD", "b2", true}} {
		_, raw := s.Call("GetItem", []byte(fmt.Sprintf(`{"TableName":%q,"Key":{"PK":{"S":%q},"SK":{"S":%q}}}`, onDemandTable, k.pk, k.sk)))
		if got := string(raw) != "{}"; got != k.want {
			t.Errorf("%s/%s written: %v, want %v", k.pk, k.sk, got, k.want)
		}
	}
}
