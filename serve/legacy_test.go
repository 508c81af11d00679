package serve

import (
	"testing"
)

// TestLegacyParameters: the legacy parameters give what their expressions give
// (LegacyConditionalParameters.html), through the same engine.
func TestLegacyParameters(t *testing.T) {
	st := start(t, Options{}, sample(t, "orders"))
	table := st.srv.TableNames()[0]
	put := func(body string) {
		t.Helper()
		if status, out := st.raw(t, "PutItem", body); status != 200 {
			t.Fatalf("PutItem %s: %v", body, out)
		}
	}
	for _, sk := range []string{"a", "b", "c"} {
		put(`{"TableName":"` + table + `","Item":{"PK":{"S":"L#1"},"SK":{"S":"` + sk + `"},"n":{"N":"1"},"tag":{"S":"t` + sk + `"}}}`)
	}
	// KeyConditions, QueryFilter and AttributesToGet.
	status, out := st.raw(t, "Query", `{"TableName":"`+table+`","KeyConditions":{"PK":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"L#1"}]},`+
		`"SK":{"ComparisonOperator":"GT","AttributeValueList":[{"S":"a"}]}},"QueryFilter":{"tag":{"ComparisonOperator":"NE","AttributeValueList":[{"S":"tc"}]}},`+
		`"AttributesToGet":["SK"]}`)
	if status != 200 || out["Count"] != 1.0 || out["ScannedCount"] != 2.0 {
		t.Fatalf("legacy query: %d %v", status, out)
	}
	items := out["Items"].([]any)
	if got := items[0].(map[string]any); len(got) != 1 || got["SK"].(map[string]any)["S"] != "b" {
		t.Fatalf("legacy query items %v, want only SK b", items)
	}
	// KeyConditions beside FilterExpression and ProjectionExpression, with the
	// request's own placeholders (one named like the legacy builder's): DynamoDB
	// applies both (dynalite validations/index.js validateExpressionParams lets
	// KeyConditions stand beside expressions; guregu/dynamo sends filtered queries
	// this way).
	status, out = st.raw(t, "Query", `{"TableName":"`+table+`","KeyConditions":{"PK":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"L#1"}]}},`+
		`"FilterExpression":"#l0 <> :l0","ProjectionExpression":"SK, #l0","ExpressionAttributeNames":{"#l0":"tag"},"ExpressionAttributeValues":{":l0":{"S":"tb"}}}`)
	if status != 200 || out["Count"] != 2.0 || out["ScannedCount"] != 3.0 {
		t.Fatalf("KeyConditions with a FilterExpression: %d %v", status, out)
	}
	for _, it := range out["Items"].([]any) {
		got := it.(map[string]any)
		if len(got) != 2 || got["SK"] == nil || got["tag"].(map[string]any)["S"] == "tb" {
			t.Errorf("KeyConditions with a filter and a projection gave %v, want SK and tag, not tb", got)
		}
	}
	// ScanFilter with ConditionalOperator OR.
	status, out = st.raw(t, "Scan", `{"TableName":"`+table+`","ScanFilter":{"tag":{"ComparisonOperator":"IN","AttributeValueList":[{"S":"ta"},{"S":"tc"}]},`+
		`"PK":{"ComparisonOperator":"BEGINS_WITH","AttributeValueList":[{"S":"nothing"}]}},"ConditionalOperator":"OR","Select":"COUNT"}`)
	if status != 200 || out["Count"] != 2.0 {
		t.Fatalf("legacy scan: %d %v", status, out)
	}
	// Expected: a conditional put that fails, then AttributeUpdates with Expected.
	status, out = st.raw(t, "PutItem", `{"TableName":"`+table+`","Item":{"PK":{"S":"L#1"},"SK":{"S":"a"}},"Expected":{"PK":{"Exists":false}}}`)
	if status != 400 || out["__type"] != "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException" {
		t.Fatalf("Expected Exists false on an existing item: %d %v", status, out)
	}
	status, out = st.raw(t, "UpdateItem", `{"TableName":"`+table+`","Key":{"PK":{"S":"L#1"},"SK":{"S":"a"}},`+
		`"AttributeUpdates":{"n":{"Action":"ADD","Value":{"N":"4"}},"tag":{"Action":"DELETE"},"note":{"Value":{"S":"x"}}},`+
		`"Expected":{"n":{"Value":{"N":"1"}}},"ReturnValues":"ALL_NEW"}`)
	if status != 200 {
		t.Fatalf("legacy update: %d %v", status, out)
	}
	attrs := out["Attributes"].(map[string]any)
	if attrs["n"].(map[string]any)["N"] != "5" || attrs["tag"] != nil || attrs["note"].(map[string]any)["S"] != "x" {
		t.Fatalf("legacy update gave %v", attrs)
	}
	// Refusals, in DynamoDB's words.
	refusals := []struct{ op, body, msg string }{
		{"GetItem", `{"TableName":"` + table + `","Key":{"PK":{"S":"L#1"},"SK":{"S":"a"}},"AttributesToGet":["n"],"ProjectionExpression":"n"}`,
			"Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}"},
		{"Scan", `{"TableName":"` + table + `","ScanFilter":{"n":{"ComparisonOperator":"EQ"}}}`,
			"One or more parameter values were invalid: Invalid number of argument(s) for the EQ ComparisonOperator"},
		{"PutItem", `{"TableName":"` + table + `","Item":{"PK":{"S":"L#9"},"SK":{"S":"a"}},"Expected":{"n":{"Exists":true}}}`,
			"One or more parameter values were invalid: Value must be provided when Exists is true for Attribute: n"},
		{"Query", `{"TableName":"` + table + `","KeyConditions":{"PK":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"L#1"}]}},"ExpressionAttributeNames":{"#a":"a"}}`,
			"ExpressionAttributeNames can only be specified when using expressions"},
	}
	for _, r := range refusals {
		status, out := st.raw(t, r.op, r.body)
		if status != 400 || out["message"] != r.msg {
			t.Errorf("%s %s:\n got %d %v\nwant %q", r.op, r.body, status, out["message"], r.msg)
		}
	}
}
