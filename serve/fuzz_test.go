package serve

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzRequests sends arbitrary bodies to every operation: each answer is JSON
// (an error names its __type), never a panic, and the server's tables stay usable.
func FuzzRequests(f *testing.F) {
	seeds := []string{`{}`, `{"TableName":"orders-service-data","Key":{"PK":{"S":"a"},"SK":{"S":"b"}}}`,
		`{"TableName":"orders-service-data","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"x"}},"Limit":1}`,
		`{"RequestItems":{"orders-service-data":[{"PutRequest":{"Item":{"PK":{"S":"a"},"SK":{"S":"b"}}}}]}}`,
		`{"TransactItems":[{"Put":{"TableName":"orders-service-data","Item":{"PK":{"S":"a"},"SK":{"S":"b"},"x":{"L":[{"M":{}}]}}}}]}`,
		`{"TableName":"fz1","AttributeDefinitions":[{"AttributeName":"a","AttributeType":"S"}],"KeySchema":[{"AttributeName":"a","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`,
		`{"TableName":"orders-service-data","ScanFilter":{"a":{"ComparisonOperator":"IN","AttributeValueList":[{"N":"1"}]}}}`,
		`[`, `{"TableName":7}`, `null`}
	for i, s := range seeds {
		f.Add(i, s)
	}
	d, err := sampleDesign("orders")
	if err != nil {
		f.Fatal(err)
	}
	srv := New(Options{})
	if err := srv.AddDesign(d); err != nil {
		f.Fatal(err)
	}
	var names []string
	for n := range srv.ops {
		names = append(names, n)
	}
	f.Fuzz(func(t *testing.T, op int, body string) {
		name := names[((op%len(names))+len(names))%len(names)]
		if name == "DeleteTable" || name == "UpdateTable" {
			name = "DescribeTable" // keep the design's table for the next input
		}
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+name)
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		if !json.Valid(w.Body.Bytes()) {
			t.Fatalf("%s %q: answer is not JSON: %q", name, body, w.Body.String())
		}
		if w.Code != 200 && !strings.Contains(w.Body.String(), `"__type"`) {
			t.Fatalf("%s %q: error %d without __type: %s", name, body, w.Code, w.Body.String())
		}
	})
}
