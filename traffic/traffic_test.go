package traffic

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"stwb/cost"
	"stwb/model"
	"stwb/samples"
	"stwb/serve"
)

// TestRecordedTrafficAgainstTheDesign records an application's requests through
// stwb serve and holds them to the orders sample: a declared GetItem with another
// customer's key matches pattern 1; a Query by email the design never declares is
// undeclared, with a pattern to add; a Scan is called out; patterns never asked for
// are listed; and the run is priced by replaying it.
func TestRecordedTrafficAgainstTheDesign(t *testing.T) {
	f, err := samples.Load("orders")
	if err != nil {
		t.Fatal(err)
	}
	d := f.Design
	var rec bytes.Buffer
	send := recording(t, d, &rec)
	table := d.Table.Name
	for range 3 {
		send("GetItem", `{"TableName":"`+table+`","Key":{"PK":{"S":"CUST#77"},"SK":{"S":"PROFILE"}}}`)
	}
	send("Query", `{"TableName":"`+table+`","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"EMAIL#a@example.com"}}}`)
	send("Scan", `{"TableName":"`+table+`","FilterExpression":"#t = :t","ExpressionAttributeNames":{"#t":"type"},"ExpressionAttributeValues":{":t":{"S":"customer"}}}`)
	send("DescribeTable", `{"TableName":"`+table+`"}`)

	recs, err := serve.ReadRecords(&rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 6 {
		t.Fatalf("%d records, want the 6 requests", len(recs))
	}
	r, err := Analyze(d, recs, cost.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	if r.Requests != 5 {
		t.Errorf("%d item requests, want 5 (DescribeTable asks nothing of the items)", r.Requests)
	}
	if len(r.Uses) == 0 || r.Uses[0].Pattern != 1 || r.Uses[0].Requests != 3 {
		t.Fatalf("the GetItems should be pattern 1, three times: %+v", r.Uses)
	}
	und := r.Undeclared()
	if len(und) != 2 {
		t.Fatalf("undeclared %+v, want the Query by email and the Scan", und)
	}
	var q Use
	for _, u := range und {
		if u.Shape.Op == "Query" {
			q = u
		}
	}
	if q.Shape.Key != "PK = EMAIL#…" || !strings.Contains(q.Suggest, "operation: Query") || !strings.Contains(q.Suggest, `EMAIL#a@example.com`) || !strings.Contains(q.Suggest, "id: 8") {
		t.Fatalf("the undeclared Query: shape %q, suggestion:\n%s", q.Shape.Key, q.Suggest)
	}
	scans := r.Scans()
	if len(scans) != 1 || scans[0].Shape.Op != "Scan" || scans[0].Scanned <= scans[0].Returned {
		t.Fatalf("scans %+v, want the Scan, reading more than it returns", scans)
	}
	if !slices.Contains(r.Unused, 2) || slices.Contains(r.Unused, 1) {
		t.Fatalf("unused %v: pattern 2 was never asked for, 1 was", r.Unused)
	}
	// Three eventually consistent GetItems of a small item: 1.5 RRU, plus the Query
	// and the Scan; nothing written.
	if r.Read <= 1.5 || r.Write != 0 || r.Dollars <= 0 {
		t.Fatalf("cost: %v read, %v write units, $%v", r.Read, r.Write, r.Dollars)
	}
}

// recording serves the design, recording into rec, and returns a function that
// sends one request and fails the test unless it succeeds.
func recording(t *testing.T, d *model.Design, rec *bytes.Buffer) func(op, body string) {
	srv := serve.New(serve.Options{Record: rec})
	if err := srv.AddDesign(d); err != nil {
		t.Fatal(err)
	}
	return func(op, body string) {
		t.Helper()
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		if w.Code != 200 {
			t.Fatalf("%s: %d %s", op, w.Code, w.Body.String())
		}
	}
}

// TestShapes: values become their key prefix, names resolve, spacing does not
// matter, nor the letter case of a condition's keywords (AND, OR, NOT, BETWEEN,
// IN), which DynamoDB reads in any case; a function's name keeps its spelling
// (Expressions.OperatorsAndFunctions.html: function names are case-sensitive).
func TestShapes(t *testing.T) {
	f, _ := samples.Load("orders")
	d := f.Design
	cases := []struct{ body, want string }{
		{`{"TableName":"t","KeyConditionExpression":"#p = :v AND begins_with(SK,:s)","ExpressionAttributeNames":{"#p":"PK"},"ExpressionAttributeValues":{":v":{"S":"CUST#9"},":s":{"S":"ORDER#"}}}`,
			"Query t key PK = CUST#… AND begins_with ( SK , ORDER#… )"},
		{`{"TableName":"t","KeyConditionExpression":"PK=:v","ExpressionAttributeValues":{":v":{"S":"LIST"}}}`, "Query t key PK = LIST"},
		{`{"TableName":"t","KeyConditionExpression":"PK = :v","FilterExpression":"n >= :n","ExpressionAttributeValues":{":v":{"S":"x1"},":n":{"N":"3"}}}`,
			"Query t key PK = ? filter n >= ?"},
		{`{"TableName":"t","KeyConditionExpression":"PK = :v and begins_with(SK,:s)","ExpressionAttributeValues":{":v":{"S":"CUST#9"},":s":{"S":"ORDER#"}}}`,
			"Query t key PK = CUST#… AND begins_with ( SK , ORDER#… )"},
		{`{"TableName":"t","KeyConditionExpression":"PK = :v And SK between :a aNd :b","FilterExpression":"not n in (:a, :b) or attribute_exists(x)","ExpressionAttributeValues":{":v":{"S":"CUST#9"},":a":{"S":"A"},":b":{"S":"B"}}}`,
			"Query t key PK = CUST#… AND SK BETWEEN A AND B filter NOT n IN ( ? , ? ) OR attribute_exists ( x )"},
		{`{"TableName":"t","KeyConditionExpression":"PK = :v AND BEGINS_WITH(SK,:s)","ProjectionExpression":"andy, #a","ExpressionAttributeNames":{"#a":"and"},"ExpressionAttributeValues":{":v":{"S":"CUST#9"},":s":{"S":"ORDER#"}}}`,
			"Query t key PK = CUST#… AND BEGINS_WITH ( SK , ORDER#… ) projection andy , and"},
	}
	for _, c := range cases {
		s, ok := RequestShape(d, "Query", []byte(c.body))
		if !ok || s.String() != c.want {
			t.Errorf("%s\n got %q\nwant %q", c.body, s.String(), c.want)
		}
	}
}
