package serve

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestItemCollectionMetrics: ReturnItemCollectionMetrics SIZE on a table with an
// LSI answers the partition key and a size range in GB (LSI.html "Item
// collections"); on a table without one, nothing (API_PutItem.html
// "ItemCollectionMetrics": "only returned if the table has one or more local
// secondary indexes").
func TestItemCollectionMetrics(t *testing.T) {
	st := start(t, Options{})
	c := ctx(t)
	for _, lsi := range []bool{true, false} {
		name := aws.String("plain")
		in := &dynamodb.CreateTableInput{TableName: name, BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{attrDef("PK", types.ScalarAttributeTypeS), attrDef("SK", types.ScalarAttributeTypeS)},
			KeySchema:            []types.KeySchemaElement{keyElem("PK", types.KeyTypeHash), keyElem("SK", types.KeyTypeRange)}}
		if lsi {
			name = aws.String("with-lsi")
			in.TableName = name
			in.AttributeDefinitions = append(in.AttributeDefinitions, attrDef("at", types.ScalarAttributeTypeS))
			in.LocalSecondaryIndexes = []types.LocalSecondaryIndex{{IndexName: aws.String("byAt"),
				KeySchema:  []types.KeySchemaElement{keyElem("PK", types.KeyTypeHash), keyElem("at", types.KeyTypeRange)},
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}
		}
		if _, err := st.db.CreateTable(c, in); err != nil {
			t.Fatal(err)
		}
		waitActive(t, st, *name)
		out, err := st.db.PutItem(c, &dynamodb.PutItemInput{TableName: name, ReturnItemCollectionMetrics: types.ReturnItemCollectionMetricsSize,
			Item: map[string]types.AttributeValue{"PK": av("P"), "SK": av("1"), "at": av("2026")}})
		if err != nil {
			t.Fatal(err)
		}
		m := out.ItemCollectionMetrics
		if !lsi {
			if m != nil {
				t.Errorf("a table without an LSI answered ItemCollectionMetrics %+v", m)
			}
			continue
		}
		if m == nil || m.ItemCollectionKey["PK"].(*types.AttributeValueMemberS).Value != "P" ||
			len(m.SizeEstimateRangeGB) != 2 || m.SizeEstimateRangeGB[0] != 0 || m.SizeEstimateRangeGB[1] != 1 {
			t.Errorf("ItemCollectionMetrics %+v, want key P and [0, 1] GB", m)
		}
	}
}
