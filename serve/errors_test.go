package serve

import (
	"net/http"
	"strings"
	"testing"
)

// TestErrors sends requests DynamoDB refuses and holds the answer to DynamoDB's:
// the status, the error type after '#' and the message. The server keeps serving
// after each. Sources: the engine's own table tests cite theirs; the protocol
// errors are DynamoDB's JSON 1.0 answers as dynalite (index.js) reproduces them.
func TestErrors(t *testing.T) {
	st := start(t, Options{}, sample(t, "orders"))
	table := st.srv.TableNames()[0]
	key := `"Key":{"PK":{"S":"a"},"SK":{"S":"b"}}`
	cases := []struct {
		name, op, body string
		code, msg      string // msg "" : not checked
	}{
		{"unknown operation", "Bogus", `{}`, "UnknownOperationException", ""},
		{"malformed JSON", "GetItem", `{"TableName":`, "SerializationException", ""},
		{"wrong type in a member", "Query", `{"TableName":"` + table + `","Limit":"two"}`, "SerializationException", "STRING_VALUE cannot be converted to Integer"},
		{"object for a string", "GetItem", `{"TableName":{"a":1}}`, "SerializationException", "Start of structure or map found where not expected"},
		{"bad table name", "GetItem", `{"TableName":"a b",` + key + `}`, "ValidationException",
			"1 validation error detected: Value 'a b' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"},
		{"short table name", "GetItem", `{"TableName":"ab",` + key + `}`, "ValidationException",
			"1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3"},
		{"bad index name on a missing table", "Query", `{"TableName":"nothere","IndexName":"a b","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"a"}}}`, "ValidationException",
			"1 validation error detected: Value 'a b' at 'indexName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"},
		{"bad table and index names together", "Scan", `{"TableName":"ab","IndexName":"x"}`, "ValidationException",
			"2 validation errors detected: Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3; Value 'x' at 'indexName' failed to satisfy constraint: Member must have length greater than or equal to 3"},
		{"missing table", "GetItem", `{"TableName":"nothere",` + key + `}`, "ResourceNotFoundException", "Requested resource not found"},
		{"Query Limit 0", "Query", `{"TableName":"` + table + `","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"Limit":0}`,
			"ValidationException", "1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"Scan Limit 0", "Scan", `{"TableName":"` + table + `","Limit":0}`,
			"ValidationException", "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		// The conformance suite's captures of real DynamoDB (tier3 error-messages
		// and validation-ordering, us-east-1):
		{"PutItem without TableName", "PutItem", `{"Item":{"PK":{"S":"a"},"SK":{"S":"b"}}}`, "ValidationException",
			"1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null"},
		{"PutItem with an empty TableName", "PutItem", `{"TableName":"","Item":{"PK":{"S":"a"},"SK":{"S":"b"}}}`, "ValidationException",
			"1 validation error detected: Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"invalid enums before the missing table", "DeleteItem", `{"TableName":"nothere",` + key + `,"ReturnValues":"BAD","ReturnConsumedCapacity":"BAD"}`, "ValidationException",
			"2 validation errors detected: Value 'BAD' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]; Value 'BAD' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]"},
		{"GetItem capacity before the missing table", "GetItem", `{"TableName":"nothere",` + key + `,"ReturnConsumedCapacity":"BAD"}`, "ValidationException",
			"1 validation error detected: Value 'BAD' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"},
		{"empty RequestItems, BatchGetItem", "BatchGetItem", `{"RequestItems":{}}`, "ValidationException", "The requestItems parameter is required for BatchGetItem"},
		{"empty RequestItems, BatchWriteItem", "BatchWriteItem", `{"RequestItems":{}}`, "ValidationException", "The requestItems parameter is required for BatchWriteItem"},
		{"CreateTable without TableName", "CreateTable", `{"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`,
			"ValidationException", "The parameter 'TableName' is required but was not present in the request"},
		// scylladb/scylladb#13870 quotes real DynamoDB's answer:
		{"attribute defined twice", "CreateTable", `{"TableName":"dup","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"x","AttributeType":"S"},{"AttributeName":"x","AttributeType":"N"}],` +
			`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`, "ValidationException", "Attribute Name is duplicated: x"},
		{"Scan Segment without TotalSegments", "Scan", `{"TableName":"` + table + `","Segment":0}`, "ValidationException",
			"The TotalSegments parameter is required but was not present in the request when Segment parameter is present"},
		{"Scan TotalSegments without Segment", "Scan", `{"TableName":"` + table + `","TotalSegments":2}`, "ValidationException",
			"The Segment parameter is required but was not present in the request when parameter TotalSegments is present"},
		{"empty FilterExpression", "Scan", `{"TableName":"` + table + `","FilterExpression":""}`, "ValidationException", "Invalid FilterExpression: The expression can not be empty;"},
		{"empty UpdateExpression", "UpdateItem", `{"TableName":"` + table + `",` + key + `,"UpdateExpression":""}`, "ValidationException", "Invalid UpdateExpression: The expression can not be empty;"},
		{"empty ConditionExpression", "DeleteItem", `{"TableName":"` + table + `",` + key + `,"ConditionExpression":""}`, "ValidationException", "Invalid ConditionExpression: The expression can not be empty;"},
		{"values without an expression", "PutItem", `{"TableName":"` + table + `","Item":{"PK":{"S":"a"},"SK":{"S":"b"}},"ExpressionAttributeValues":{":v":{"S":"x"}}}`,
			"ValidationException", "ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null"},
		{"NULL false", "PutItem", `{"TableName":"` + table + `","Item":{"PK":{"S":"a"},"SK":{"S":"b"},"x":{"NULL":false}}}`,
			"ValidationException", "One or more parameter values were invalid: Null attribute value types must have the value of true"},
		{"two types in a value", "PutItem", `{"TableName":"` + table + `","Item":{"PK":{"S":"a","N":"1"},"SK":{"S":"b"}}}`,
			"ValidationException", "Supplied AttributeValue has 2 members, must contain exactly one of the supported datatypes (S, N, B, BOOL, NULL, L, M, SS, NS, BS)"},
		{"empty string set", "PutItem", `{"TableName":"` + table + `","Item":{"PK":{"S":"a"},"SK":{"S":"b"},"s":{"SS":[]}}}`,
			"ValidationException", "One or more parameter values were invalid: An string set  may not be empty"},
		{"duplicate in a string set", "PutItem", `{"TableName":"` + table + `","Item":{"PK":{"S":"a"},"SK":{"S":"b"},"s":{"SS":["a","a"]}}}`,
			"ValidationException", "One or more parameter values were invalid: Input collection [a, a] contains duplicates."},
		{"duplicate in a value's set", "Scan", `{"TableName":"` + table + `","FilterExpression":"s = :s","ExpressionAttributeValues":{":s":{"SS":["a","a"]}}}`,
			"ValidationException", "ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: Input collection [a, a] contains duplicates. for key :s"},
		{"empty TransactItems", "TransactWriteItems", `{"TransactItems":[]}`, "ValidationException",
			"1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"empty ClientRequestToken", "TransactWriteItems", `{"TransactItems":[{"ConditionCheck":{"TableName":"` + table + `",` + key + `,"ConditionExpression":"attribute_exists(PK)"}}],"ClientRequestToken":""}`, "ValidationException",
			"1 validation error detected: Value '' at 'clientRequestToken' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"long ClientRequestToken", "TransactWriteItems", `{"TransactItems":[{"ConditionCheck":{"TableName":"` + table + `",` + key + `,"ConditionExpression":"attribute_exists(PK)"}}],"ClientRequestToken":"` + strings.Repeat("t", 37) + `"}`, "ValidationException",
			"1 validation error detected: Value '" + strings.Repeat("t", 37) + "' at 'clientRequestToken' failed to satisfy constraint: Member must have length less than or equal to 36"},
		{"TransactGetItems key off the schema", "TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"` + table + `","Key":{"PK":{"S":"a"}}}}]}`,
			"TransactionCanceledException", "Transaction cancelled, please refer cancellation reasons for specific reasons [ValidationError]"},
		// The conformance suite's captures of real DynamoDB ("TransactWriteItems —
		// exact error messages"):
		{"transaction table name, second action", "TransactWriteItems", `{"TransactItems":[{"Put":{"TableName":"` + table + `","Item":{"PK":{"S":"a"},"SK":{"S":"b"}}}},` +
			`{"Update":{"TableName":"bad!name",` + key + `,"UpdateExpression":"SET a = :a","ExpressionAttributeValues":{":a":{"S":"x"}}}}]}`, "ValidationException",
			"1 validation error detected: Value 'bad!name' at 'transactItems.2.member.update.tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"},
		{"transaction get table name", "TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"bad!name",` + key + `}}]}`, "ValidationException",
			"1 validation error detected: Value 'bad!name' at 'transactItems.1.member.get.tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"},
		{"transaction action with no operation", "TransactWriteItems", `{"TransactItems":[{}]}`, "ValidationException",
			"Invalid Request: TransactWriteRequest should contain Delete or Put or Update request"},
		{"transaction Put with a wrong-typed key", "TransactWriteItems", `{"TransactItems":[{"Put":{"TableName":"` + table + `","Item":{"PK":{"N":"5"},"SK":{"S":"b"}}}}]}`,
			"TransactionCanceledException", "Transaction cancelled, please refer cancellation reasons for specific reasons [ValidationError]"},
		{"transaction Delete with an empty key", "TransactWriteItems", `{"TransactItems":[{"Delete":{"TableName":"` + table + `","Key":{"PK":{"S":""},"SK":{"S":"b"}}}}]}`,
			"ValidationException", "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: PK"},
		{"GetItem with an empty key", "GetItem", `{"TableName":"` + table + `","Key":{"PK":{"S":""},"SK":{"S":"b"}}}`,
			"ValidationException", "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: PK"},
		{"legacy and expression mixed", "Query", `{"TableName":"` + table + `","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"QueryFilter":{"x":{"ComparisonOperator":"NULL"}}}`,
			"ValidationException", "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {QueryFilter} Expression parameters: {KeyConditionExpression}"},
		{"Query without a key condition", "Query", `{"TableName":"` + table + `"}`, "ValidationException",
			"Either the KeyConditions or KeyConditionExpression parameter must be specified in the request."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, out := st.raw(t, tc.op, tc.body)
			typ, _ := out["__type"].(string)
			if status != http.StatusBadRequest || !strings.HasSuffix(typ, "#"+tc.code) {
				t.Fatalf("status %d, __type %q; want 400 and %s (%v)", status, typ, tc.code, out)
			}
			if tc.msg != "" && out["message"] != tc.msg {
				t.Errorf("message\n got: %q\nwant: %q", out["message"], tc.msg)
			}
		})
	}
	// The server still answers.
	if status, out := st.raw(t, "ListTables", `{}`); status != 200 || out["TableNames"] == nil {
		t.Fatalf("after the refusals ListTables gave %d %v", status, out)
	}
}

// TestBodyOver16MB: a body over DynamoDB's 16 MB request limit is refused with 413,
// and the server keeps serving.
func TestBodyOver16MB(t *testing.T) {
	st := start(t, Options{}, sample(t, "orders"))
	big := `{"TableName":"x","Pad":"` + strings.Repeat("x", MaxRequestBytes) + `"}`
	req, _ := http.NewRequest(http.MethodPost, st.endpoint+"/", strings.NewReader(big))
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.PutItem")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d, want 413", resp.StatusCode)
	}
	if status, _ := st.raw(t, "ListTables", `{}`); status != 200 {
		t.Fatalf("after the large body ListTables gave %d", status)
	}
}
