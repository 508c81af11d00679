package serve

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"stwb/designfile"
	"stwb/interop"
	"stwb/live"
	"stwb/model"
	"stwb/samples"
	"stwb/verify"
)

func attrDef(name string, t types.ScalarAttributeType) types.AttributeDefinition {
	return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: t}
}

func keyElem(name string, t types.KeyType) types.KeySchemaElement {
	return types.KeySchemaElement{AttributeName: aws.String(name), KeyType: t}
}

// TestTableLifecycle: CreateTable and the SDK's waiter, DescribeTable's counts,
// ListTables in pages, UpdateTable adding a GSI filled from the existing items and
// removing it, billing and streams, tags, DescribeLimits, DeleteTable and the
// not-exists waiter.
func TestTableLifecycle(t *testing.T) {
	st := start(t, Options{})
	c := ctx(t)
	name := aws.String("people")
	_, err := st.db.CreateTable(c, &dynamodb.CreateTableInput{TableName: name, BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{attrDef("PK", types.ScalarAttributeTypeS), attrDef("SK", types.ScalarAttributeTypeS)},
		KeySchema:            []types.KeySchemaElement{keyElem("PK", types.KeyTypeHash), keyElem("SK", types.KeyTypeRange)},
		Tags:                 []types.Tag{{Key: aws.String("team"), Value: aws.String("a")}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := dynamodb.NewTableExistsWaiter(st.db).Wait(c, &dynamodb.DescribeTableInput{TableName: name}, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		_, err := st.db.PutItem(c, &dynamodb.PutItemInput{TableName: name, Item: map[string]types.AttributeValue{
			"PK": av(fmt.Sprint("P", i)), "SK": av("x"), "email": av(fmt.Sprintf("p%d@x", i))}})
		if err != nil {
			t.Fatal(err)
		}
	}
	desc, err := st.db.DescribeTable(c, &dynamodb.DescribeTableInput{TableName: name})
	if err != nil || *desc.Table.ItemCount != 5 || *desc.Table.TableSizeBytes == 0 || desc.Table.TableStatus != types.TableStatusActive {
		t.Fatalf("describe: %+v %v", desc, err)
	}
	// A GSI added to a table with items holds them at once.
	_, err = st.db.UpdateTable(c, &dynamodb.UpdateTableInput{TableName: name,
		AttributeDefinitions: []types.AttributeDefinition{attrDef("email", types.ScalarAttributeTypeS)},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String("byEmail"), KeySchema: []types.KeySchemaElement{keyElem("email", types.KeyTypeHash)},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}}})
	if err != nil {
		t.Fatal(err)
	}
	waitActive(t, st, *name)
	q, err := st.db.Query(c, &dynamodb.QueryInput{TableName: name, IndexName: aws.String("byEmail"),
		KeyConditionExpression: aws.String("email = :e"), ExpressionAttributeValues: map[string]types.AttributeValue{":e": av("p3@x")}})
	if err != nil || len(q.Items) != 1 || q.Items[0]["PK"].(*types.AttributeValueMemberS).Value != "P3" {
		t.Fatalf("query on the new index: %v %v", q, err)
	}
	desc, _ = st.db.DescribeTable(c, &dynamodb.DescribeTableInput{TableName: name})
	if len(desc.Table.GlobalSecondaryIndexes) != 1 || *desc.Table.GlobalSecondaryIndexes[0].ItemCount != 5 ||
		desc.Table.GlobalSecondaryIndexes[0].IndexStatus != types.IndexStatusActive {
		t.Fatalf("index after backfill: %+v", desc.Table.GlobalSecondaryIndexes)
	}
	// Provisioned billing, then a stream.
	if _, err := st.db.UpdateTable(c, &dynamodb.UpdateTableInput{TableName: name, BillingMode: types.BillingModeProvisioned,
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(3)}}); err != nil {
		t.Fatal(err)
	}
	waitActive(t, st, *name)
	if _, err := st.db.UpdateTable(c, &dynamodb.UpdateTableInput{TableName: name,
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}}); err != nil {
		t.Fatal(err)
	}
	waitActive(t, st, *name)
	desc, _ = st.db.DescribeTable(c, &dynamodb.DescribeTableInput{TableName: name})
	if *desc.Table.ProvisionedThroughput.ReadCapacityUnits != 5 || desc.Table.StreamSpecification == nil || !*desc.Table.StreamSpecification.StreamEnabled {
		t.Fatalf("billing and stream not stored: %+v %+v", desc.Table.ProvisionedThroughput, desc.Table.StreamSpecification)
	}
	// Remove the index: the query on it is refused.
	if _, err := st.db.UpdateTable(c, &dynamodb.UpdateTableInput{TableName: name, GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{
		{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String("byEmail")}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.db.Query(c, &dynamodb.QueryInput{TableName: name, IndexName: aws.String("byEmail"),
		KeyConditionExpression: aws.String("email = :e"), ExpressionAttributeValues: map[string]types.AttributeValue{":e": av("p3@x")}}); err == nil {
		t.Fatal("a query on a deleted index succeeded")
	}
	// Tags.
	arn := desc.Table.TableArn
	if _, err := st.db.TagResource(c, &dynamodb.TagResourceInput{ResourceArn: arn, Tags: []types.Tag{{Key: aws.String("env"), Value: aws.String("test")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.db.UntagResource(c, &dynamodb.UntagResourceInput{ResourceArn: arn, TagKeys: []string{"team"}}); err != nil {
		t.Fatal(err)
	}
	tags, err := st.db.ListTagsOfResource(c, &dynamodb.ListTagsOfResourceInput{ResourceArn: arn})
	if err != nil || len(tags.Tags) != 1 || *tags.Tags[0].Key != "env" {
		t.Fatalf("tags: %+v %v", tags, err)
	}
	lim, err := st.db.DescribeLimits(c, &dynamodb.DescribeLimitsInput{})
	if err != nil || *lim.TableMaxReadCapacityUnits != 40000 {
		t.Fatalf("limits: %+v %v", lim, err)
	}
	// ListTables in pages of two.
	for _, n := range []string{"t-a", "t-b", "t-c", "t-d"} {
		if _, err := st.db.CreateTable(c, &dynamodb.CreateTableInput{TableName: aws.String(n), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{attrDef("id", types.ScalarAttributeTypeN)},
			KeySchema:            []types.KeySchemaElement{keyElem("id", types.KeyTypeHash)}}); err != nil {
			t.Fatal(err)
		}
	}
	var listed []string
	pages := 0
	lp := dynamodb.NewListTablesPaginator(st.db, &dynamodb.ListTablesInput{Limit: aws.Int32(2)})
	for lp.HasMorePages() {
		out, err := lp.NextPage(c)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		listed = append(listed, out.TableNames...)
	}
	if strings.Join(listed, ",") != "people,t-a,t-b,t-c,t-d" || pages != 3 {
		t.Fatalf("ListTables pages: %v in %d pages", listed, pages)
	}
	if _, err := st.db.DeleteTable(c, &dynamodb.DeleteTableInput{TableName: name}); err != nil {
		t.Fatal(err)
	}
	if err := dynamodb.NewTableNotExistsWaiter(st.db).Wait(c, &dynamodb.DescribeTableInput{TableName: name}, 10*time.Second); err != nil {
		t.Fatal(err)
	}
}

// TestCreateTableRefusals: definitions DynamoDB refuses, with its messages
// (dynalite validations/createTable.js; API_CreateTable.html).
func TestCreateTableRefusals(t *testing.T) {
	st := start(t, Options{})
	pk := keyElem("PK", types.KeyTypeHash)
	sk := keyElem("SK", types.KeyTypeRange)
	defs := func(names ...string) []types.AttributeDefinition {
		var out []types.AttributeDefinition
		for _, n := range names {
			out = append(out, attrDef(n, types.ScalarAttributeTypeS))
		}
		return out
	}
	cases := []struct {
		name string
		in   dynamodb.CreateTableInput
		want string
	}{
		{"unused attribute definition", dynamodb.CreateTableInput{TableName: aws.String("tab1"), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: defs("PK", "SK", "X"), KeySchema: []types.KeySchemaElement{pk, sk}},
			"One or more parameter values were invalid: Some AttributeDefinitions are not used. AttributeDefinitions: [PK, SK, X], keys used: [PK, SK]"},
		{"LSI with another partition key", dynamodb.CreateTableInput{TableName: aws.String("tab2"), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: defs("PK", "SK", "Q", "R"), KeySchema: []types.KeySchemaElement{pk, sk},
			LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("lsi"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
				KeySchema: []types.KeySchemaElement{keyElem("Q", types.KeyTypeHash), keyElem("R", types.KeyTypeRange)}}}},
			"One or more parameter values were invalid: Index KeySchema does not have the same leading hash key as table KeySchema for index: lsi. index hash key: Q, table hash key: PK"},
		{"key not defined", dynamodb.CreateTableInput{TableName: aws.String("tab3"), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: defs("PK", "X"), KeySchema: []types.KeySchemaElement{pk, sk}},
			"One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [PK, SK], AttributeDefinitions: [PK, X]"},
		{"provisioned without throughput", dynamodb.CreateTableInput{TableName: aws.String("tab4"),
			AttributeDefinitions: defs("PK"), KeySchema: []types.KeySchemaElement{pk}},
			"One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED"},
		{"bad table name", dynamodb.CreateTableInput{TableName: aws.String("a!"), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: defs("PK"), KeySchema: []types.KeySchemaElement{pk}},
			"2 validation errors detected: Value 'a!' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; Value 'a!' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := st.db.CreateTable(ctx(t), &tc.in)
			var ve interface{ ErrorMessage() string }
			if !errors.As(err, &ve) || ve.ErrorMessage() != tc.want {
				t.Fatalf("got %v\nwant %q", err, tc.want)
			}
		})
	}
	if len(st.srv.TableNames()) != 0 {
		t.Fatalf("a refused CreateTable left tables: %v", st.srv.TableNames())
	}
}

// TestTimeToLive: with TTL on, an item whose time has passed is removed by the next
// sweep; one in the future, one more than five years old, and one whose attribute
// is not a Number stay.
func TestTimeToLive(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	d := sample(t, "orders")
	st := start(t, Options{Now: clock}, d)
	c, table := ctx(t), aws.String(d.Table.Name)
	put := func(pk string, exp types.AttributeValue) {
		if _, err := st.db.PutItem(c, &dynamodb.PutItemInput{TableName: table, Item: map[string]types.AttributeValue{"PK": av(pk), "SK": av("t"), "exp": exp}}); err != nil {
			t.Fatal(err)
		}
	}
	put("TTL#past", avN("1799999999"))
	put("TTL#future", avN("1800000100"))
	put("TTL#ancient", avN("1000000000"))
	put("TTL#string", av("1799999999"))
	if _, err := st.db.UpdateTimeToLive(c, &dynamodb.UpdateTimeToLiveInput{TableName: table,
		TimeToLiveSpecification: &types.TimeToLiveSpecification{Enabled: aws.Bool(true), AttributeName: aws.String("exp")}}); err != nil {
		t.Fatal(err)
	}
	dt, err := st.db.DescribeTimeToLive(c, &dynamodb.DescribeTimeToLiveInput{TableName: table})
	if err != nil || dt.TimeToLiveDescription.TimeToLiveStatus != types.TimeToLiveStatusEnabled || *dt.TimeToLiveDescription.AttributeName != "exp" {
		t.Fatalf("describe TTL: %+v %v", dt, err)
	}
	if _, err := st.db.UpdateTimeToLive(c, &dynamodb.UpdateTimeToLiveInput{TableName: table,
		TimeToLiveSpecification: &types.TimeToLiveSpecification{Enabled: aws.Bool(true), AttributeName: aws.String("exp")}}); err == nil ||
		!strings.Contains(err.Error(), "TimeToLive is already enabled") {
		t.Fatalf("enabling twice: %v", err)
	}
	// Within ExpiryInterval (and a margin) the expired item is gone.
	deadline := time.Now().Add(ExpiryInterval + 2*time.Second)
	for {
		out, err := st.db.GetItem(c, &dynamodb.GetItemInput{TableName: table, Key: map[string]types.AttributeValue{"PK": av("TTL#past"), "SK": av("t")}})
		if err != nil {
			t.Fatal(err)
		}
		if out.Item == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the expired item is still there after %v", ExpiryInterval+2*time.Second)
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, pk := range []string{"TTL#future", "TTL#ancient", "TTL#string"} {
		out, _ := st.db.GetItem(c, &dynamodb.GetItemInput{TableName: table, Key: map[string]types.AttributeValue{"PK": av(pk), "SK": av("t")}})
		if out.Item == nil {
			t.Errorf("%s was removed; only an expired Number within five years is", pk)
		}
	}
}

// TestDeployAndVerifyEverySample: stwb deploy and stwb verify (the live package
// they run) against serve for every sample, as the live tests run them against
// dynalite: every read pattern answers as the design predicts.
func TestDeployAndVerifyEverySample(t *testing.T) {
	st := start(t, Options{})
	c := ctx(t)
	for _, name := range samples.Names() {
		t.Run(name, func(t *testing.T) {
			d := sample(t, name)
			rep, err := live.Deploy(c, st.db, d, live.DeployOptions{Table: "deployed-" + name})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Load.Items != len(d.Items) {
				t.Fatalf("loaded %d of %d items", rep.Load.Items, len(d.Items))
			}
			vr, err := live.Verify(c, st.db, &designfile.File{Design: d}, "deployed-"+name, st.endpoint)
			if err != nil {
				t.Fatal(err)
			}
			checked := 0
			for _, o := range vr.Patterns {
				switch o.Status {
				case verify.StatusOK:
					checked++
				case verify.StatusMismatch, verify.StatusUnsupported:
					t.Errorf("pattern %d (%s %s): %s %v %s", o.ID, o.Operation, o.Index, o.Status, o.Mismatches, o.Reason)
				}
			}
			if checked == 0 {
				t.Error("no pattern was verified")
			}
		})
	}
}

// TestDumpReadsBackWithImport: --dump's file is what `stwb import --format
// dynamodb-json` reads, and merged into the design it gives the served state.
func TestDumpReadsBackWithImport(t *testing.T) {
	d := sample(t, "orders")
	st := start(t, Options{}, d)
	if _, err := st.db.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: aws.String(d.Table.Name),
		Item: map[string]types.AttributeValue{"PK": av("NEW#1"), "SK": av("x"), "n": avN("1.50")}}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	n, err := st.srv.Dump(&buf, "")
	if err != nil || n != len(d.Items)+1 {
		t.Fatalf("dump: %d items, %v", n, err)
	}
	src, _, err := interop.ReadDynamoDBJSON(&buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	fresh := sample(t, "orders")
	added, replaced, err := interop.MergeItems(fresh, src)
	if err != nil || added != 1 || replaced != len(d.Items) {
		t.Fatalf("merge: %d added, %d replaced, %v", added, replaced, err)
	}
	found := false
	for _, it := range fresh.Items {
		if it["PK"].Str == "NEW#1" {
			found = it["n"].Equal(model.Num("1.5"))
		}
	}
	if !found {
		t.Fatal("the written item is not in the merged design")
	}
}
