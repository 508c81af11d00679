package serve

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestStatusWhileChanging: a table is CREATING, and a GSI added to it CREATING and
// Backfilling, until the next DescribeTable or settleTime; meanwhile DynamoDB's
// refusals hold (status.go cites each): item operations on a CREATING table are
// ResourceNotFoundException, a backfilling index cannot be read, and a table being
// created or updated cannot be changed. The design's table is ACTIVE from the start.
func TestStatusWhileChanging(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); defer mu.Unlock(); now = now.Add(d) }
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
	refusals := []struct {
		name string
		call func() error
		want string // the message; the type is checked by its prefix below
	}{
		{"PutItem on a CREATING table", func() error {
			_, err := st.db.PutItem(c, &dynamodb.PutItemInput{TableName: name, Item: item})
			return err
		}, "ResourceNotFoundException: Requested resource not found"},
		{"GetItem on a CREATING table", func() error {
			_, err := st.db.GetItem(c, &dynamodb.GetItemInput{TableName: name, Key: key})
			return err
		}, "ResourceNotFoundException: Requested resource not found"},
		{"BatchWriteItem on a CREATING table", func() error {
			_, err := st.db.BatchWriteItem(c, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{*name: {{PutRequest: &types.PutRequest{Item: item}}}}})
			return err
		}, "ResourceNotFoundException: Requested resource not found"},
		{"DeleteTable of a CREATING table", func() error {
			_, err := st.db.DeleteTable(c, &dynamodb.DeleteTableInput{TableName: name})
			return err
		}, "ResourceInUseException: Attempt to change a resource which is still in use: Table is being created: people"},
		{"UpdateTable of a CREATING table", func() error {
			_, err := st.db.UpdateTable(c, &dynamodb.UpdateTableInput{TableName: name, DeletionProtectionEnabled: aws.Bool(false)})
			return err
		}, "ResourceInUseException: Attempt to change a resource which is still in use: Table is being created: people"},
	}
	for _, r := range refusals {
		if got := errorText(r.call()); got != r.want {
			t.Errorf("%s:\n got: %s\nwant: %s", r.name, got, r.want)
		}
	}
	// settleTime later, the table is ACTIVE even though nothing described it.
	advance(settleTime)
	if _, err := st.db.PutItem(c, &dynamodb.PutItemInput{TableName: name, Item: item}); err != nil {
		t.Fatalf("PutItem after settleTime: %v", err)
	}

	// A GSI added: the table UPDATING and usable, the index CREATING and
	// backfilling, unreadable until a DescribeTable.
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
	queryEmail := func() error {
		_, err := st.db.Query(c, &dynamodb.QueryInput{TableName: name, IndexName: aws.String("byEmail"),
			KeyConditionExpression: aws.String("email = :e"), ExpressionAttributeValues: map[string]types.AttributeValue{":e": av("a@x")}})
		return err
	}
	if got, want := errorText(queryEmail()), "ValidationException: Cannot read from backfilling global secondary index"; got != want {
		t.Errorf("Query of a backfilling index:\n got: %s\nwant: %s", got, want)
	}
	if _, err := st.db.PutItem(c, &dynamodb.PutItemInput{TableName: name, Item: item}); err != nil {
		t.Errorf("PutItem on an UPDATING table: %v (DynamoDB keeps it usable)", err)
	}
	_, err = st.db.UpdateTable(c, &dynamodb.UpdateTableInput{TableName: name, DeletionProtectionEnabled: aws.Bool(false)})
	if got, want := errorText(err), "ResourceInUseException: Attempt to change a resource which is still in use: Table is being updated: people"; got != want {
		t.Errorf("UpdateTable of an UPDATING table:\n got: %s\nwant: %s", got, want)
	}
	// The waiter's DescribeTable ends the change: ACTIVE, the index readable.
	desc, err := st.db.DescribeTable(c, &dynamodb.DescribeTableInput{TableName: name})
	if err != nil || desc.Table.TableStatus != types.TableStatusActive {
		t.Fatalf("DescribeTable: %v %v", desc, err)
	}
	for _, ix := range desc.Table.GlobalSecondaryIndexes {
		if ix.IndexStatus != types.IndexStatusActive || ix.Backfilling != nil {
			t.Errorf("index %s after DescribeTable: %s, backfilling %v", *ix.IndexName, ix.IndexStatus, ix.Backfilling)
		}
	}
	if err := queryEmail(); err != nil {
		t.Errorf("Query of the index once ACTIVE: %v", err)
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
