package serve

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestMultiAttributeIndexServed: a GSI keyed on several attributes
// (GSI.DesignPattern.MultiAttributeKeys.html) through the wire: CreateTable
// accepts up to four HASH and four RANGE elements, DescribeTable gives them back
// in order, Query follows the engine's rules (engine/multikey_test.go), and
// UpdateTable adds such an index with its backfill. What DynamoDB refuses is
// refused with its message and member path.
func TestMultiAttributeIndexServed(t *testing.T) {
	st := start(t, Options{})
	c := ctx(t)
	name := aws.String("matches")
	s, n := types.ScalarAttributeTypeS, types.ScalarAttributeTypeN
	hash, rng := types.KeyTypeHash, types.KeyTypeRange
	defs := []types.AttributeDefinition{attrDef("matchId", s), attrDef("tournamentId", s), attrDef("region", s), attrDef("round", n), attrDef("bracket", s)}
	gsi := types.GlobalSecondaryIndex{IndexName: aws.String("byRegion"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		KeySchema: []types.KeySchemaElement{keyElem("tournamentId", hash), keyElem("region", hash), keyElem("round", rng), keyElem("bracket", rng)}}
	if _, err := st.db.CreateTable(c, &dynamodb.CreateTableInput{TableName: name, BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs, KeySchema: []types.KeySchemaElement{keyElem("matchId", hash)},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{gsi}}); err != nil {
		t.Fatal(err)
	}
	if err := dynamodb.NewTableExistsWaiter(st.db).Wait(c, &dynamodb.DescribeTableInput{TableName: name}, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	desc, err := st.db.DescribeTable(c, &dynamodb.DescribeTableInput{TableName: name})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, k := range desc.Table.GlobalSecondaryIndexes[0].KeySchema {
		got = append(got, *k.AttributeName+" "+string(k.KeyType))
	}
	if want := []string{"tournamentId HASH", "region HASH", "round RANGE", "bracket RANGE"}; !slices.Equal(got, want) {
		t.Errorf("DescribeTable KeySchema %v, want %v", got, want)
	}
	for _, m := range []struct{ id, t, r, round, b string }{{"m1", "W26", "NA", "2", "UPPER"}, {"m2", "W26", "NA", "10", "LOWER"},
		{"m3", "W26", "NA", "2", "LOWER"}, {"m4", "W26", "EU", "1", "UPPER"}, {"m5", "W26", "NA", "3", ""}} {
		it := map[string]types.AttributeValue{"matchId": av(m.id), "tournamentId": av(m.t), "region": av(m.r), "round": avN(m.round)}
		if m.b != "" {
			it["bracket"] = av(m.b)
		}
		if _, err := st.db.PutItem(c, &dynamodb.PutItemInput{TableName: name, Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	query := func(index, cond string, vals map[string]types.AttributeValue) ([]string, error) {
		in := &dynamodb.QueryInput{TableName: name, IndexName: aws.String(index), KeyConditionExpression: aws.String(cond), ExpressionAttributeValues: vals}
		if strings.Contains(cond, "#r") {
			in.ExpressionAttributeNames = map[string]string{"#r": "region"}
		}
		out, err := st.db.Query(c, in)
		if err != nil {
			return nil, err
		}
		var ids []string
		for _, it := range out.Items {
			ids = append(ids, it["matchId"].(*types.AttributeValueMemberS).Value)
		}
		return ids, nil
	}
	tr := map[string]types.AttributeValue{":t": av("W26"), ":r": av("NA")}
	ids, err := query("byRegion", "tournamentId = :t AND #r = :r", tr)
	if err != nil || !slices.Equal(ids, []string{"m3", "m1", "m2"}) {
		t.Errorf("by tournament and region: %v %v, want [m3 m1 m2] (round as a number, then bracket; m5 has no bracket)", ids, err)
	}
	_, err = query("byRegion", "tournamentId = :t AND #r = :r AND bracket = :b", map[string]types.AttributeValue{":t": av("W26"), ":r": av("NA"), ":b": av("UPPER")})
	if want := "RANGE key attributes round must have equality conditions specified in the query because a condition is present on key attribute bracket"; apiMessage(err) != want {
		t.Errorf("a gap: %v, want %q", err, want)
	}
	// UpdateTable adds an index on round and bracket, backfilled from the items.
	if _, err := st.db.UpdateTable(c, &dynamodb.UpdateTableInput{TableName: name, AttributeDefinitions: defs,
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String("byRound"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
			KeySchema: []types.KeySchemaElement{keyElem("tournamentId", hash), keyElem("round", rng), keyElem("bracket", rng), keyElem("region", rng)}}}}}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		d, err := st.db.DescribeTable(c, &dynamodb.DescribeTableInput{TableName: name})
		if err != nil || time.Now().After(deadline) {
			t.Fatalf("the new index never became active: %v", err)
		}
		if d.Table.GlobalSecondaryIndexes[1].IndexStatus == types.IndexStatusActive {
			break
		}
	}
	ids, err = query("byRound", "tournamentId = :t AND round = :two", map[string]types.AttributeValue{":t": av("W26"), ":two": avN("2")})
	if err != nil || !slices.Equal(ids, []string{"m3", "m1"}) {
		t.Errorf("the backfilled index: %v %v", ids, err)
	}
	refused := []struct {
		name string
		keys []types.KeySchemaElement
		want string
	}{
		{"nine elements", []types.KeySchemaElement{keyElem("a", hash), keyElem("b", hash), keyElem("c", hash), keyElem("d", hash), keyElem("e", rng),
			keyElem("f", rng), keyElem("g", rng), keyElem("h", rng), keyElem("i", rng)}, "at 'globalSecondaryIndexes.1.member.keySchema' failed to satisfy constraint: Member must have length less than or equal to 8"},
		{"five HASH", []types.KeySchemaElement{keyElem("a", hash), keyElem("b", hash), keyElem("c", hash), keyElem("d", hash), keyElem("e", hash)},
			"a key may have at most 4 HASH key elements, found 5"},
		{"HASH after RANGE", []types.KeySchemaElement{keyElem("a", hash), keyElem("b", rng), keyElem("c", hash)},
			"Invalid KeySchema: All HASH key elements must come before the RANGE key elements"},
		{"an attribute twice", []types.KeySchemaElement{keyElem("a", hash), keyElem("b", rng), keyElem("a", rng)},
			"Both the Hash Key and the Range Key element in the KeySchema have the same name"},
	}
	for _, r := range refused {
		var defs []types.AttributeDefinition
		for _, k := range r.keys {
			if !slices.ContainsFunc(defs, func(d types.AttributeDefinition) bool { return *d.AttributeName == *k.AttributeName }) {
				defs = append(defs, attrDef(*k.AttributeName, s))
			}
		}
		defs = append(defs, attrDef("id", s))
		_, err := st.db.CreateTable(c, &dynamodb.CreateTableInput{TableName: aws.String("refused"), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: defs, KeySchema: []types.KeySchemaElement{keyElem("id", hash)},
			GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi"), KeySchema: r.keys, Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}})
		if !strings.Contains(apiMessage(err), r.want) {
			t.Errorf("%s: %v, want %q", r.name, err, r.want)
		}
	}
	// A table's key stays at two elements.
	_, err = st.db.CreateTable(c, &dynamodb.CreateTableInput{TableName: aws.String("refused"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{attrDef("a", s), attrDef("b", s), attrDef("c", s)},
		KeySchema:            []types.KeySchemaElement{keyElem("a", hash), keyElem("b", hash), keyElem("c", rng)}})
	if want := "at 'keySchema' failed to satisfy constraint: Member must have length less than or equal to 2"; !strings.Contains(apiMessage(err), want) {
		t.Errorf("a table key of three: %v", err)
	}
}
