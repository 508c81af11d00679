package traffic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"stwb/cost"
	"stwb/internal/golden"
	"stwb/model"
	"stwb/samples"
	"stwb/serve"
)

// mixedRecording is a recording of n requests an application made to the orders
// sample through stwb serve, in the order it made them, 5 ms apart: every shape the
// analysis tells apart and every path through it. Declared patterns and undeclared
// requests of every operation, batches and transactions, Scans and filters that
// drop what they read, legacy KeyConditions, placeholders for names, the same
// expression spaced differently, values written with JSON escapes, a member given
// twice (the last one counts), refusals (validation, a missing table, a failed
// condition), the control plane (a table made and written to a second later), and
// lines written as recordings before requests were kept as they came (every <, >
// and & escaped). It is seeded: the same n gives the same recording.
func mixedRecording(t testing.TB, d *model.Design, n int) []byte {
	t.Helper()
	var rec bytes.Buffer
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	srv := serve.New(serve.Options{Record: &rec, Now: func() time.Time { return now }})
	if err := srv.AddDesign(d); err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(24, 8))
	tb := `"TableName":"` + d.Table.Name + `"`
	cust := func() string { return strconv.Itoa(rnd.IntN(400)) }
	orders := []string{"9f2a", "3c7d", "71be", "a0c4", "e51f", "5d08"}
	order := func() string {
		if rnd.IntN(3) == 0 {
			return orders[rnd.IntN(len(orders))]
		}
		return strconv.FormatInt(rnd.Int64N(1<<20), 16)
	}
	key := func(pk, sk string) string { return `{"PK":{"S":"` + pk + `"},"SK":{"S":"` + sk + `"}}` }
	put := func(item string) string { return `{"Put":{` + tb + `,"Item":` + item + `}}` }
	var oldStyle []string // requests to write as the old, escaping recorder did
	for i := range n {
		now = now.Add(5 * time.Millisecond)
		c, o := cust(), order()
		var op, body string
		switch k := rnd.IntN(40); k {
		case 0, 1, 2, 3, 4, 5: // pattern 1, and the same with a projection
			op, body = "GetItem", `{`+tb+`,"Key":`+key("CUST#"+c, "PROFILE")+`}`
			if k == 5 {
				body = `{` + tb + `,"Key":` + key("CUST#"+c, "PROFILE") + `,"ProjectionExpression":"#n, email","ExpressionAttributeNames":{"#n":"name"},"ConsistentRead":true}`
			}
		case 6, 7, 8, 9: // pattern 2, spaced two ways
			kc := []string{"PK = :pk AND begins_with(SK, :sk)", "PK=:pk and begins_with ( SK ,:sk )"}[k%2]
			op, body = "Query", `{`+tb+`,"KeyConditionExpression":"`+kc+`","ExpressionAttributeValues":{":pk":{"S":"CUST#`+c+`"},":sk":{"S":"ORDER#"}},"ScanIndexForward":false,"Limit":25}`
		case 10, 11, 12: // pattern 3
			op, body = "Query", `{`+tb+`,"KeyConditionExpression":"PK = :pk","ExpressionAttributeValues":{":pk":{"S":"ORDER#`+o+`"}}}`
		case 13: // pattern 4 on the index, with and without a filter
			op, body = "Query", `{`+tb+`,"IndexName":"GSI1","KeyConditionExpression":"GSI1PK = :s","ExpressionAttributeValues":{":s":{"S":"STATUS#SHIPPED"}},"ScanIndexForward":false,"Limit":100}`
			if rnd.IntN(2) == 0 {
				body = `{` + tb + `,"IndexName":"GSI1","KeyConditionExpression":"GSI1PK = :s","FilterExpression":"#t > :t","ExpressionAttributeNames":{"#t":"total"},"ExpressionAttributeValues":{":s":{"S":"STATUS#PENDING"},":t":{"N":"20"}}}`
			}
		case 14: // pattern 5, the value written with JSON escapes
			op, body = "Query", `{`+tb+`,"KeyConditionExpression":"PK = :pk","ExpressionAttributeValues":{":pk":{"S":"PAY\u0023ch_`+c+`"}}}`
		case 15, 16, 17: // pattern 6
			pay := "ch_" + o + c
			op = "TransactWriteItems"
			body = `{"TransactItems":[` +
				`{"Put":{` + tb + `,"Item":{"type":{"S":"order"},"PK":{"S":"ORDER#` + o + `"},"SK":{"S":"METADATA"},"GSI1PK":{"S":"STATUS#PENDING"},"GSI1SK":{"S":"2026-12-01T10:00Z"},"orderId":{"S":"` + o + `"},"customerId":{"S":"` + c + `"},"status":{"S":"PENDING"},"total":{"N":"36.00"},"version":{"N":"1"}},"ConditionExpression":"attribute_not_exists(PK)"}},` +
				put(`{"PK":{"S":"ORDER#`+o+`"},"SK":{"S":"ITEM#001"},"sku":{"S":"NB-A5-DOT"},"qty":{"N":"4"}}`) + `,` +
				put(`{"PK":{"S":"CUST#`+c+`"},"SK":{"S":"ORDER#2026-12-01#`+o+`"},"orderId":{"S":"`+o+`"},"total":{"N":"36.00"}}`) + `,` +
				`{"Put":{` + tb + `,"Item":{"PK":{"S":"PAY#` + pay + `"},"SK":{"S":"ORDER#` + o + `"},"orderId":{"S":"` + o + `"}},"ConditionExpression":"attribute_not_exists(PK)"}}]}`
		case 18, 19: // pattern 7: the version right, or stale (ConditionalCheckFailed)
			op, body = "UpdateItem", `{`+tb+`,"Key":`+key("ORDER#"+o, "METADATA")+`,"UpdateExpression":"SET #s = :new, GSI1PK = :gpk, version = version + :one","ConditionExpression":"version = :expected","ExpressionAttributeNames":{"#s":"status"},"ExpressionAttributeValues":{":new":{"S":"SHIPPED"},":gpk":{"S":"STATUS#SHIPPED"},":expected":{"N":"`+strconv.Itoa(1+rnd.IntN(4))+`"},":one":{"N":"1"}}}`
		case 20, 21: // an undeclared PutItem of a profile, some of it large
			item := `{"PK":{"S":"CUST#` + c + `"},"SK":{"S":"PROFILE"},"type":{"S":"customer"},"email":{"S":"` + c + `@example.com"},"name":{"S":"Ré \"` + c + `\" <x&y>"},"bio":{"S":"` + strings.Repeat("x", rnd.IntN(3000)) + `"}}`
			op, body = "PutItem", `{`+tb+`,"Item":`+item+`}`
		case 22: // an undeclared DeleteItem, and UpdateItem with ADD
			op, body = "DeleteItem", `{`+tb+`,"Key":`+key("ORDER#"+o, "ITEM#001")+`}`
			if rnd.IntN(2) == 0 {
				op, body = "UpdateItem", `{`+tb+`,"Key":`+key("CUST#"+c, "PROFILE")+`,"UpdateExpression":"ADD visits :one","ExpressionAttributeValues":{":one":{"N":"1"}}}`
			}
		case 23: // a Scan with a filter, and one of a segment
			op, body = "Scan", `{`+tb+`,"FilterExpression":"#t = :t","ExpressionAttributeNames":{"#t":"type"},"ExpressionAttributeValues":{":t":{"S":"customer"}},"Limit":50}`
			if rnd.IntN(2) == 0 {
				body = `{` + tb + `,"Segment":1,"TotalSegments":4,"ProjectionExpression":"PK"}`
			}
		case 24: // a Query by email the design never declares, in the legacy form too
			op, body = "Query", `{`+tb+`,"KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"EMAIL#`+c+`@example.com"}}}`
			if rnd.IntN(2) == 0 {
				body = `{` + tb + `,"KeyConditions":{"PK":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"CUST#` + c + `"}]},"SK":{"ComparisonOperator":"BEGINS_WITH","AttributeValueList":[{"S":"ORDER#"}]}}}`
			}
		case 25: // batches
			op, body = "BatchGetItem", `{"RequestItems":{"`+d.Table.Name+`":{"Keys":[`+key("CUST#"+c, "PROFILE")+`,`+key("CUST#"+cust(), "PROFILE")+`],"ProjectionExpression":"#n, email","ExpressionAttributeNames":{"#n":"name"}}}}`
			if rnd.IntN(2) == 0 {
				op, body = "BatchWriteItem", `{"RequestItems":{"`+d.Table.Name+`":[{"DeleteRequest":{"Key":`+key("ORDER#"+o, "ITEM#002")+`}},{"PutRequest":{"Item":{"PK":{"S":"CUST#`+c+`"},"SK":{"S":"PROFILE"},"email":{"S":"n@x"}}}}]}}`
			}
		case 26: // transactions the design does not declare
			op, body = "TransactGetItems", `{"TransactItems":[{"Get":{`+tb+`,"Key":`+key("ORDER#"+o, "METADATA")+`}},{"Get":{`+tb+`,"Key":`+key("CUST#"+c, "PROFILE")+`}}]}`
			if rnd.IntN(2) == 0 {
				op, body = "TransactWriteItems", `{"TransactItems":[{"Update":{`+tb+`,"Key":`+key("ORDER#"+o, "METADATA")+`,"UpdateExpression":"SET #s = :s","ConditionExpression":"attribute_exists(PK)","ExpressionAttributeNames":{"#s":"status"},"ExpressionAttributeValues":{":s":{"S":"CANCELLED"}}}},`+
					`{"ConditionCheck":{`+tb+`,"Key":`+key("CUST#"+c, "PROFILE")+`,"ConditionExpression":"attribute_exists(PK)"}}]}`
			}
		case 27: // refused: no key condition; a table that does not exist; a key of the wrong type; a reserved word
			op, body = "Query", `{`+tb+`,"FilterExpression":"a = :a","ExpressionAttributeValues":{":a":{"S":"x"}}}`
			switch rnd.IntN(4) {
			case 0:
				op, body = "GetItem", `{"TableName":"missing","Key":`+key("CUST#"+c, "PROFILE")+`}`
			case 1:
				op, body = "GetItem", `{`+tb+`,"Key":{"PK":{"N":"`+c+`"},"SK":{"S":"PROFILE"}}}`
			case 2:
				body = `{` + tb + `,"KeyConditionExpression":"PK = :p","FilterExpression":"total > :t","ExpressionAttributeValues":{":p":{"S":"ORDER#` + o + `"},":t":{"N":"20"}}}`
			}
		case 28: // a member given twice: the last one counts
			op, body = "GetItem", `{"TableName":"missing",`+tb+`,"Key":`+key("CUST#"+c, "PROFILE")+`}`
		case 29: // the control plane, which asks nothing of the items
			op, body = "DescribeTable", `{`+tb+`}`
			if i%400 == 29 {
				op, body = "ListTables", `{}`
			}
		case 30: // a value in capitals stays as it is; other values are ?
			op, body = "Query", `{`+tb+`,"KeyConditionExpression":"PK = :p AND SK BETWEEN :a AND :b","ExpressionAttributeValues":{":p":{"S":"LIST"},":a":{"S":"a"},":b":{"N":"7"}}}`
		case 31: // written as the old recorder wrote lines
			op, body = "GetItem", `{`+tb+`,"Key":`+key("CUST#"+c, "PROFILE")+`,"ProjectionExpression":"#a","ExpressionAttributeNames":{"#a":"a<b>&c"}}`
			oldStyle = append(oldStyle, body)
		default: // more of pattern 1 and 3, the usual bulk of traffic
			op, body = "GetItem", `{`+tb+`,"Key":`+key("CUST#"+c, "PROFILE")+`}`
			if k%2 == 0 {
				op, body = "Query", `{`+tb+`,"KeyConditionExpression":"PK = :pk","ExpressionAttributeValues":{":pk":{"S":"ORDER#`+o+`"}}}`
			}
		}
		if i == n/2 {
			// A table made mid-run and written to a second later (the replay's
			// clock is the recording's).
			srv.Call("CreateTable", []byte(`{"TableName":"other","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}]}`))
			now = now.Add(time.Second)
			op, body = "PutItem", `{"TableName":"other","Item":{"id":{"S":"a"}}}`
		}
		srv.Call(op, []byte(body))
	}
	// The old recorder's lines, at the end: json.Marshal escaped <, > and &.
	for i, body := range oldStyle {
		line, err := json.Marshal(serve.Record{At: now.Add(time.Duration(i) * time.Millisecond), Op: "GetItem", Request: json.RawMessage(body)})
		if err != nil {
			t.Fatal(err)
		}
		rec.Write(append(line, '\n'))
	}
	return rec.Bytes()
}

// TestReplayFiguresHold: every figure check --traffic prints from a recording of
// every kind of request (the report: each shape, its pattern, requests, units,
// items read and returned, refusals and the first refusal's words, the pattern to
// add, the unused patterns, the run's cost) is the one the golden file holds,
// written by the replay as it was before it was made fast: a change in speed is
// never a change in a figure. The recording is read as a stream and as records
// held in memory, which must agree.
func TestReplayFiguresHold(t *testing.T) {
	f, err := samples.Load("orders")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{400, 30_000} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			if n > 1000 && testing.Short() {
				t.Skip("a 30,000-request recording")
			}
			rec := mixedRecording(t, f.Design, n)
			r, err := AnalyzeRecording(f.Design, bytes.NewReader(rec), cost.Builtin())
			if err != nil {
				t.Fatal(err)
			}
			got := reportText(t, r, f.Design)
			recs, err := serve.ReadRecords(bytes.NewReader(rec))
			if err != nil {
				t.Fatal(err)
			}
			r2, err := Analyze(f.Design, recs, cost.Builtin())
			if err != nil {
				t.Fatal(err)
			}
			if held := reportText(t, r2, f.Design); !bytes.Equal(held, got) {
				t.Errorf("the recording read as a stream and held in memory differ:\n%s\n---\n%s", got, held)
			}
			golden.Check(t, fmt.Sprintf("testdata/mixed-%d.golden", n), got)
		})
	}
}

// reportText is every figure of a report and its findings, as JSON.
func reportText(t *testing.T, r *Report, d *model.Design) []byte {
	out, err := json.MarshalIndent(struct {
		Report   *Report
		Findings any
	}{r, r.Findings(d)}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

// TestShapeMemoAgrees: the memo gives every request the shape RequestShape gives
// it, asked twice (the second time from what it remembered): every request of the
// mixed recording, and bodies that only encoding/json reads the same (a member in
// other letter case, twice, of another type, escaped, null; values that are not
// values; keys of the wrong form).
func TestShapeMemoAgrees(t *testing.T) {
	f, err := samples.Load("orders")
	if err != nil {
		t.Fatal(err)
	}
	d := f.Design
	recs, err := serve.ReadRecords(bytes.NewReader(mixedRecording(t, d, 400)))
	if err != nil {
		t.Fatal(err)
	}
	tb := `"TableName":"` + d.Table.Name + `"`
	odd := map[string][]string{
		"Query": {
			`{` + tb + `,"keyconditionexpression":"PK = :p","KeyConditionExpression":"SK = :p","ExpressionAttributeValues":{":p":{"S":"A#1"}}}`,
			`{` + tb + `,"KeyConditionExpression":"PK = :p","KeyConditionExpression":"SK = :p","ExpressionAttributeValues":{":p":{"S":"A#1"}}}`,
			`{` + tb + `,"KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"A#1"}},"ExpressionAttributeValues":{":q":{"S":"B#1"}}}`,
			`{` + tb + `,"KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"A#1"},":p":{"N":"1"}}}`,
			`{` + tb + `,"KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"A#1","N":"2"}}}`,
			`{` + tb + `,"KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":5}}}`,
			`{` + tb + `,"KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{"\u003ap":{"S":"A#1"}}}`,
			`{` + tb + `,"KeyConditionExpression":"#k = :p","ExpressionAttributeNames":{"#k":"PK","#j":5},"ExpressionAttributeValues":{":p":{"S":"A#1"}}}`,
			`{` + tb + `,"KeyConditionExpression":"#k = :p","ExpressionAttributeNames":null,"ExpressionAttributeValues":{":p":{"S":"A#1"}}}`,
			`{` + tb + `,"KeyConditionExpression":"PK = :p","ExpressionAttributeValues":[]}`,
			`{` + tb + `,"KeyConditionExpression":null}`,
			`{` + tb + `,"KeyConditionExpression":7}`,
			`{"Table\u004eame":"x","KeyConditionExpression":"PK = :p"}`,
			`{` + tb + `,"KeyConditions":{"PK":{"ComparisonOperator":"EQ"}}}`,
			`{` + tb + `,"KeyConditions":{"PK":{"ComparisonOperator":5}}}`,
			`{` + tb + `,"RequestItems":5}`,
			`{` + tb + `,"Limit":[1,{"a":"}"}],"KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"A\"#1"}}}`,
			` { "TableName" : "t" , "KeyConditionExpression" : "PK = :p" , "ExpressionAttributeValues" : { ":p" : { "S" : "A#1" } } } `,
			`{` + tb + `,"KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"ORDER_X"},":q":{"S":""},":r":{"S":"CUST#é"},":s":{"S":"ORD\u0045R#1"},":t":{"SS":["A#1"]},":u":{"S":"A#1","S":"B#2"}}}`,
			// Told apart only by an escape: the memo must not read the escaped text.
			`{` + tb + `,"KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"xyz"}}}`,
			`{` + tb + `,"KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"x\u0023z"}}}`,
			`[]`, `{}`, `{"TableName":"t"`,
		},
		"GetItem": {
			`{` + tb + `,"Key":{"PK":{"S":"CUST#1"},"SK":{"S":"PROFILE"}},"key":{"PK":{"S":"X"}}}`,
			`{` + tb + `,"Key":{"PK":{"S":"CUST#1"},"SK":{"S":"PROFILE"},"x":{"Q":"1"}}}`,
			`{` + tb + `,"Key":null}`,
			`{` + tb + `,"Key":{"PK":{"N":"1"},"SK":{"S":"PRO\u0046ILE"}}}`,
			`{` + tb + `,"Key":{"SK":{"S":"PROFILE"}}}`,
		},
		"PutItem": {
			`{` + tb + `,"Item":{"PK":{"S":"CUST#1"},"SK":{"S":"PROFILE"},"n":{"N":"x"}}}`,
			`{` + tb + `,"Item":{"PK":{"S":"CUST#1"},"SK":{"S":"PROFILE"}},"Key":{"PK":{"S":"ORDER#1"}}}`,
		},
		"DescribeTable": {`{` + tb + `}`},
	}
	for op, bodies := range odd {
		for _, body := range bodies {
			recs = append(recs, serve.Record{Op: op, Request: []byte(body)})
		}
	}
	a, err := NewAnalyzer(d)
	if err != nil {
		t.Fatal(err)
	}
	// Twice each: once as the replay asks (with the request as its server decoded
	// it, whose key the memo reads), once with nothing decoded (the memo parses).
	memo := newShapeMemo(d)
	for _, decoded := range []bool{true, false, true} {
		for _, rec := range recs {
			want, wantOK := RequestShape(d, rec.Op, rec.Request)
			var dec serve.Decoded
			if decoded {
				dec = a.srv.Decode(rec.Op, appendReplayed(nil, rec.Op, rec.Request))
			}
			got, ok := memo.shape(rec.Op, rec.Request, dec)
			if got != want || ok != wantOK {
				t.Errorf("%s %s:\nmemo  %v %q\nwants %v %q", rec.Op, rec.Request, ok, got, wantOK, want)
			}
		}
	}
}

// TestReplayedBody: the replay asks every request for its capacity, and a Query
// or Scan that names no Select and no projection (in any letter case, or escaped)
// for its count alone.
func TestReplayedBody(t *testing.T) {
	cases := []struct{ op, body, want string }{
		{"Query", `{"TableName":"t"}`, `{"TableName":"t","ReturnConsumedCapacity":"TOTAL","Select":"COUNT"}`},
		{"Scan", ` {} `, `{"ReturnConsumedCapacity":"TOTAL","Select":"COUNT"}`},
		{"GetItem", `{"TableName":"t"}`, `{"TableName":"t","ReturnConsumedCapacity":"TOTAL"}`},
		{"Query", `{"TableName":"t","select":"ALL_ATTRIBUTES"}`, `{"TableName":"t","select":"ALL_ATTRIBUTES","ReturnConsumedCapacity":"TOTAL"}`},
		{"Query", `{"TableName":"t","PROJECTIONEXPRESSION":"a"}`, `{"TableName":"t","PROJECTIONEXPRESSION":"a","ReturnConsumedCapacity":"TOTAL"}`},
		{"Scan", `{"AttributesToGet":["a"]}`, `{"AttributesToGet":["a"],"ReturnConsumedCapacity":"TOTAL"}`},
		{"Scan", `{"Sel\u0065ct":"SPECIFIC_ATTRIBUTES"}`, `{"Sel\u0065ct":"SPECIFIC_ATTRIBUTES","ReturnConsumedCapacity":"TOTAL"}`},
		{"Query", `[1]`, `[1]`},
	}
	for _, c := range cases {
		if got := string(appendReplayed(nil, c.op, []byte(c.body))); got != c.want {
			t.Errorf("%s %s:\n got %s\nwant %s", c.op, c.body, got, c.want)
		}
	}
}
