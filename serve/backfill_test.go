package serve

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestBackfillLeavesViolationsOut: UpdateTable adding a GSI over items whose key
// attribute has another type (or is empty) is not refused: those items stay in the
// table and out of the index (GSI.OnlineOps.ViolationDetection.html), the log names
// them, and writes to them are refused until they are fixed.
func TestBackfillLeavesViolationsOut(t *testing.T) {
	var log bytes.Buffer
	st := start(t, Options{Log: &log})
	c := ctx(t)
	name := aws.String("people")
	if _, err := st.db.CreateTable(c, &dynamodb.CreateTableInput{TableName: name, BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{attrDef("PK", types.ScalarAttributeTypeS)},
		KeySchema:            []types.KeySchemaElement{keyElem("PK", types.KeyTypeHash)}}); err != nil {
		t.Fatal(err)
	}
	if err := dynamodb.NewTableExistsWaiter(st.db).Wait(c, &dynamodb.DescribeTableInput{TableName: name}, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	for _, it := range []map[string]types.AttributeValue{
		{"PK": av("a"), "email": av("a@x")},
		{"PK": av("b"), "email": avN("7")},
		{"PK": av("c"), "email": av("")},
		{"PK": av("d")},
	} {
		if _, err := st.db.PutItem(c, &dynamodb.PutItemInput{TableName: name, Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.db.UpdateTable(c, &dynamodb.UpdateTableInput{TableName: name,
		AttributeDefinitions: []types.AttributeDefinition{attrDef("email", types.ScalarAttributeTypeS)},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String("byEmail"), KeySchema: []types.KeySchemaElement{keyElem("email", types.KeyTypeHash)},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}}}); err != nil {
		t.Fatalf("UpdateTable over items of another type: %v (DynamoDB leaves them out, it does not refuse)", err)
	}
	desc, err := st.db.DescribeTable(c, &dynamodb.DescribeTableInput{TableName: name})
	if err != nil || *desc.Table.ItemCount != 4 || len(desc.Table.GlobalSecondaryIndexes) != 1 || *desc.Table.GlobalSecondaryIndexes[0].ItemCount != 1 {
		t.Fatalf("after the backfill: table %v items, index %+v (%v); want 4 and 1", desc.Table.ItemCount, desc.Table.GlobalSecondaryIndexes, err)
	}
	for _, want := range []string{"2 items left out of the new index", `{"PK":{"S":"b"}} (byEmail.email)`, `{"PK":{"S":"c"}} (byEmail.email)`} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log %q lacks %q", log.String(), want)
		}
	}
	_, err = st.db.UpdateItem(c, &dynamodb.UpdateItemInput{TableName: name, Key: map[string]types.AttributeValue{"PK": av("b")},
		UpdateExpression: aws.String("SET v = :v"), ExpressionAttributeValues: map[string]types.AttributeValue{":v": av("x")}})
	if want := "One or more parameter values were invalid: Type mismatch for Index Key email Expected: S Actual: N IndexName: byEmail"; apiMessage(err) != want {
		t.Fatalf("a write to a violating item: %v, want %q", err, want)
	}
	if _, err := st.db.PutItem(c, &dynamodb.PutItemInput{TableName: name, Item: map[string]types.AttributeValue{"PK": av("b"), "email": av("b@x")}}); err != nil {
		t.Fatalf("fixing the violating item: %v", err)
	}
	desc, _ = st.db.DescribeTable(c, &dynamodb.DescribeTableInput{TableName: name})
	if *desc.Table.GlobalSecondaryIndexes[0].ItemCount != 2 {
		t.Fatalf("the fixed item is not in the index: %+v", desc.Table.GlobalSecondaryIndexes[0])
	}
}
