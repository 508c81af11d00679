package serve

import (
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestChangesAreCompleteOnceAnswered: CreateTable answers CREATING (its GSI
// CREATING, not backfilling) and UpdateTable UPDATING (the GSI it adds CREATING and
// Backfilling), as DynamoDB answers; every request after the answer finds the table
// and its indexes ACTIVE (status.go says why: no window whose length a suite's
// result could depend on). The clock is frozen, so nothing here depends on timing
// either: before this decision, writes right after CreateTable were refused until
// a DescribeTable or 10 ms passed.
func TestChangesAreCompleteOnceAnswered(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	clock := func() time.Time { return now }
	d := sample(t, "orders")
	st := start(t, Options{Now: clock}, d)
	c := ctx(t)

	// The design's table: usable at once, ACTIVE.
	if _, err := st.db.GetItem(c, &dynamodb.GetItemInput{TableName: aws.String(d.Table.Name),
		Key: map[string]types.AttributeValue{"PK": av("x"), "SK": av("y")}}); err != nil {
		t.Fatalf("the design's table at start: %v", err)
	}

	name := aws.String("people")
	key := map[string]types.AttributeValue{"PK": av("a")}
	item := map[string]types.AttributeValue{"PK": av("a"), "email": av("a@x")}
	created, err := st.db.CreateTable(c, &dynamodb.CreateTableInput{TableName: name, BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{attrDef("PK", types.ScalarAttributeTypeS), attrDef("g", types.ScalarAttributeTypeS)},
		KeySchema:            []types.KeySchemaElement{keyElem("PK", types.KeyTypeHash)},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byG"), KeySchema: []types.KeySchemaElement{keyElem("g", types.KeyTypeHash)},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}})
	if err != nil {
		t.Fatal(err)
	}
	if td := created.TableDescription; td.TableStatus != types.TableStatusCreating || td.GlobalSecondaryIndexes[0].IndexStatus != types.IndexStatusCreating ||
		td.GlobalSecondaryIndexes[0].Backfilling != nil {
		t.Fatalf("CreateTable answered %s, index %s backfilling %v; want CREATING, CREATING, no backfilling", td.TableStatus,
			td.GlobalSecondaryIndexes[0].IndexStatus, td.GlobalSecondaryIndexes[0].Backfilling)
	}
	// Right after the answer, without a DescribeTable: every operation works.
	for _, op := range []struct {
		name string
		call func() error
	}{
		{"PutItem", func() error {
			_, err := st.db.PutItem(c, &dynamodb.PutItemInput{TableName: name, Item: item})
			return err
		}},
		{"GetItem", func() error {
			_, err := st.db.GetItem(c, &dynamodb.GetItemInput{TableName: name, Key: key})
			return err
		}},
		{"BatchWriteItem", func() error {
			_, err := st.db.BatchWriteItem(c, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
				"people": {{PutRequest: &types.PutRequest{Item: item}}}}})
			return err
		}},
		{"UpdateTable", func() error {
			_, err := st.db.UpdateTable(c, &dynamodb.UpdateTableInput{TableName: name, DeletionProtectionEnabled: aws.Bool(false)})
			return err
		}},
	} {
		if err := op.call(); err != nil {
			t.Errorf("%s right after CreateTable: %v", op.name, err)
		}
	}

	// A GSI added: the answer says UPDATING, the index CREATING and backfilling;
	// the index is readable, and the table changeable, at once.
	upd, err := st.db.UpdateTable(c, &dynamodb.UpdateTableInput{TableName: name,
		AttributeDefinitions: []types.AttributeDefinition{attrDef("email", types.ScalarAttributeTypeS)},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String("byEmail"), KeySchema: []types.KeySchemaElement{keyElem("email", types.KeyTypeHash)},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}}})
	if err != nil {
		t.Fatal(err)
	}
	td := upd.TableDescription
	if td.TableStatus != types.TableStatusUpdating || len(td.GlobalSecondaryIndexes) != 2 {
		t.Fatalf("UpdateTable answered %s with %d GSIs", td.TableStatus, len(td.GlobalSecondaryIndexes))
	}
	for _, ix := range td.GlobalSecondaryIndexes {
		backfilling := ix.Backfilling != nil && *ix.Backfilling
		if want := *ix.IndexName == "byEmail"; backfilling != want || (ix.IndexStatus == types.IndexStatusCreating) != want {
			t.Errorf("index %s: %s, backfilling %v", *ix.IndexName, ix.IndexStatus, backfilling)
		}
	}
	got, err := st.db.Query(c, &dynamodb.QueryInput{TableName: name, IndexName: aws.String("byEmail"),
		KeyConditionExpression: aws.String("email = :e"), ExpressionAttributeValues: map[string]types.AttributeValue{":e": av("a@x")}})
	if err != nil || got.Count != 1 {
		t.Errorf("Query of the new index right after UpdateTable: %v, %v", got, err)
	}
	if _, err = st.db.UpdateTable(c, &dynamodb.UpdateTableInput{TableName: name, DeletionProtectionEnabled: aws.Bool(false)}); err != nil {
		t.Errorf("UpdateTable right after UpdateTable: %v", err)
	}
	desc, err := st.db.DescribeTable(c, &dynamodb.DescribeTableInput{TableName: name})
	if err != nil || desc.Table.TableStatus != types.TableStatusActive {
		t.Fatalf("DescribeTable: %v %v", desc, err)
	}
	for _, ix := range desc.Table.GlobalSecondaryIndexes {
		if ix.IndexStatus != types.IndexStatusActive || ix.Backfilling != nil {
			t.Errorf("index %s: %s, backfilling %v", *ix.IndexName, ix.IndexStatus, ix.Backfilling)
		}
	}

	// The SDK's waiter after CreateTable: its first DescribeTable sees ACTIVE.
	if _, err := st.db.CreateTable(c, &dynamodb.CreateTableInput{TableName: aws.String("waited"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{attrDef("PK", types.ScalarAttributeTypeS)},
		KeySchema:            []types.KeySchemaElement{keyElem("PK", types.KeyTypeHash)}}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := dynamodb.NewTableExistsWaiter(st.db).Wait(c, &dynamodb.DescribeTableInput{TableName: aws.String("waited")}, time.Minute); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("TableExistsWaiter took %v; its first poll should find the table ACTIVE", took)
	}
	if _, err := st.db.PutItem(c, &dynamodb.PutItemInput{TableName: aws.String("waited"), Item: item}); err != nil {
		t.Errorf("PutItem after the waiter: %v", err)
	}
}

// errorText is an SDK error as "Code: message".
func errorText(err error) string {
	if err == nil {
		return "<nil>"
	}
	var ae interface {
		ErrorCode() string
		ErrorMessage() string
	}
	if !errors.As(err, &ae) {
		return err.Error()
	}
	return ae.ErrorCode() + ": " + ae.ErrorMessage()
}
