package serve

import (
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// signedAs is an SDK client signing with an access key in a region.
func (st *started) signedAs(key, region string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		HTTPClient: &http.Client{Timeout: time.Minute}, BaseEndpoint: aws.String(st.endpoint), Region: region,
		Credentials: credentials.NewStaticCredentialsProvider(key, "secret", ""), Retryer: onlyConnectionRetries(),
	})
}

// TestNamespacesByAccountAndRegion: a table made in one region, or by another
// account, is not there in another (namespace.go); the design's table is in every
// one; Options.Shared keeps one namespace. An ARN of another account is
// AccessDeniedException, a missing table of one's own account
// ResourceNotFoundException (ExtendDB/extenddb#227; the conformance suite's
// ListTagsOfResource capture).
func TestNamespacesByAccountAndRegion(t *testing.T) {
	d := sample(t, "orders")
	for _, shared := range []bool{false, true} {
		st := start(t, Options{Shared: shared}, d)
		c := ctx(t)
		east, west, other := st.signedAs("AKIDONE", "us-east-1"), st.signedAs("AKIDONE", "eu-west-1"), st.signedAs("123456789012", "us-east-1")
		made, err := east.CreateTable(c, &dynamodb.CreateTableInput{TableName: aws.String("regional"), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{attrDef("PK", types.ScalarAttributeTypeS)},
			KeySchema:            []types.KeySchemaElement{keyElem("PK", types.KeyTypeHash)}})
		if err != nil {
			t.Fatal(err)
		}
		arn := aws.ToString(made.TableDescription.TableArn)
		for _, cl := range []struct {
			name string
			db   *dynamodb.Client
			sees bool
		}{{"the same account and region", east, true}, {"another region", west, shared}, {"another account", other, shared}} {
			_, err := cl.db.DescribeTable(c, &dynamodb.DescribeTableInput{TableName: aws.String("regional")})
			if (err == nil) != cl.sees {
				t.Errorf("shared %v, %s: DescribeTable of the new table: %v, want found %v", shared, cl.name, err, cl.sees)
			}
			if _, err := cl.db.GetItem(c, &dynamodb.GetItemInput{TableName: aws.String(d.Table.Name),
				Key: map[string]types.AttributeValue{"PK": av("x"), "SK": av("y")}}); err != nil {
				t.Errorf("shared %v, %s: the design's table: %v", shared, cl.name, err)
			}
		}
		_, err = other.ListTagsOfResource(c, &dynamodb.ListTagsOfResourceInput{ResourceArn: aws.String(arn)})
		want := "AccessDeniedException: User: arn:aws:iam::123456789012:root is not authorized to perform: dynamodb:ListTagsOfResource on resource: " + arn +
			" because no resource-based policy allows the dynamodb:ListTagsOfResource action"
		if shared {
			want = "<nil>"
		}
		if got := errorText(err); got != want {
			t.Errorf("shared %v: another account's ARN:\n got: %s\nwant: %s", shared, got, want)
		}
		_, err = east.ListTagsOfResource(c, &dynamodb.ListTagsOfResourceInput{ResourceArn: aws.String(arn + "-gone")})
		if got, want := errorText(err), "ResourceNotFoundException: Requested resource not found: ResourcArn: "+arn+"-gone not found"; got != want {
			t.Errorf("shared %v: a missing table of one's own account:\n got: %s\nwant: %s", shared, got, want)
		}
	}
}
