package traffic

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"stwb/cost"
	"stwb/designfile"
	"stwb/samples"
	"stwb/serve"
)

// TestReplayFollowsTheRecordedClock: an application that made a table and waited a
// second before writing to it (no DescribeTable) was not refused in the run, and
// is not in the replay: the replay runs each request at its recorded time, so the
// table is ACTIVE by then (serve's CREATING lasts until a DescribeTable or shortly
// after).
func TestReplayFollowsTheRecordedClock(t *testing.T) {
	f, err := samples.Load("orders")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	recs := []serve.Record{
		{At: at, Op: "CreateTable", Request: []byte(`{"TableName":"other","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}]}`)},
		{At: at.Add(time.Second), Op: "PutItem", Request: []byte(`{"TableName":"other","Item":{"id":{"S":"a"}}}`)},
	}
	r, err := Analyze(f.Design, recs, cost.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Uses) != 1 || r.Uses[0].Refused != 0 {
		t.Fatalf("the PutItem a second after CreateTable: %+v, want it accepted as in the run", r.Uses)
	}
}

// TestBatchAndTransactionShapes: a batch or transaction over the design's table is
// shaped by the forms of its keys (or its actions' kinds and keys), so the orders
// sample's declared transaction (pattern 6) matches one placing another order, and
// the ones the design does not declare get a ready pattern: added to the design, each
// matches the request it came from.
func TestBatchAndTransactionShapes(t *testing.T) {
	f, err := samples.Load("orders")
	if err != nil {
		t.Fatal(err)
	}
	d := f.Design
	var rec bytes.Buffer
	send := recording(t, d, &rec)
	tb := `"TableName":"` + d.Table.Name + `"`
	put := func(pk, sk string) string {
		return `{"Put":{` + tb + `,"Item":{"PK":{"S":"` + pk + `"},"SK":{"S":"` + sk + `"}}}}`
	}
	// Pattern 6's shape, another order.
	send("TransactWriteItems", `{"TransactItems":[`+put("ORDER#c3f0", "METADATA")+`,`+put("ORDER#c3f0", "ITEM#001")+`,`+
		put("CUST#7", "ORDER#2026-09-01#c3f0")+`,`+put("PAY#ch_9", "ORDER#c3f0")+`]}`)
	undeclared := map[string]string{
		"BatchGetItem": `{"RequestItems":{"` + d.Table.Name + `":{"Keys":[{"PK":{"S":"CUST#1"},"SK":{"S":"PROFILE"}},{"PK":{"S":"CUST#2"},"SK":{"S":"PROFILE"}}],` +
			`"ProjectionExpression":"#n, email","ExpressionAttributeNames":{"#n":"name"}}}}`,
		"BatchWriteItem": `{"RequestItems":{"` + d.Table.Name + `":[{"DeleteRequest":{"Key":{"PK":{"S":"ORDER#x1"},"SK":{"S":"ITEM#001"}}}},` +
			`{"PutRequest":{"Item":{"PK":{"S":"CUST#9"},"SK":{"S":"PROFILE"},"email":{"S":"n@x"}}}}]}}`,
		"TransactGetItems": `{"TransactItems":[{"Get":{` + tb + `,"Key":{"PK":{"S":"ORDER#9f2a"},"SK":{"S":"METADATA"}}}},` +
			`{"Get":{` + tb + `,"Key":{"PK":{"S":"CUST#42"},"SK":{"S":"PROFILE"}}}}]}`,
		"TransactWriteItems": `{"TransactItems":[{"Update":{` + tb + `,"Key":{"PK":{"S":"ORDER#9f2a"},"SK":{"S":"METADATA"}},` +
			`"UpdateExpression":"SET #s = :s","ConditionExpression":"attribute_exists(PK)","ExpressionAttributeNames":{"#s":"status"},"ExpressionAttributeValues":{":s":{"S":"CANCELLED"}}}},` +
			`{"ConditionCheck":{` + tb + `,"Key":{"PK":{"S":"CUST#42"},"SK":{"S":"PROFILE"}},"ConditionExpression":"attribute_exists(PK)"}}]}`,
	}
	for _, op := range []string{"BatchGetItem", "BatchWriteItem", "TransactGetItems", "TransactWriteItems"} {
		send(op, undeclared[op])
	}
	recs, err := serve.ReadRecords(&rec)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Analyze(d, recs, cost.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	if r.Uses[0].Pattern != 6 {
		t.Errorf("the order placed should be pattern 6: %+v", r.Uses[0])
	}
	und := r.Undeclared()
	if len(und) != 4 {
		t.Fatalf("undeclared %+v, want the 4 others", und)
	}
	text, err := (&designfile.File{Design: d}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range und {
		if u.Suggest == "" {
			t.Errorf("%s: no ready pattern", u.Shape)
			continue
		}
		// The ready pattern, added to the design, is the request's pattern.
		with := strings.Replace(string(text), "\npatterns:\n", "\npatterns:\n"+u.Suggest+"\n", 1)
		f2, err := designfile.Parse("with.yaml", []byte(with))
		if err != nil {
			t.Errorf("%s: the design with the ready pattern does not load: %v\n%s", u.Shape, err, u.Suggest)
			continue
		}
		var one []serve.Record
		for _, rc := range recs {
			if s, ok := RequestShape(d, rc.Op, rc.Request); ok && s == u.Shape {
				one = append(one, rc)
			}
		}
		r2, err := Analyze(f2.Design, one, cost.Builtin())
		if err != nil || len(one) != 1 || len(r2.Uses) != 1 || r2.Uses[0].Pattern != 8 {
			t.Errorf("%s: with its ready pattern added the request is %+v (%v); want pattern 8\n%s", u.Shape, r2, err, u.Suggest)
		}
	}
}
