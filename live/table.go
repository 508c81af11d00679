package live

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"stwb/model"
)

// CreateTableInput is the CreateTable request for a design's table under the given
// name: every key attribute of the table and its indexes defined once with its
// declared type, the GSIs and LSIs with their projections, and the billing mode
// (API_CreateTable.html). A GSI on a provisioned table without its own figures gets
// the table's.
func CreateTableInput(name string, t model.Table) *dynamodb.CreateTableInput {
	in := &dynamodb.CreateTableInput{
		TableName: aws.String(name),
		KeySchema: keySchema(t.Key),
	}
	defined := map[string]bool{}
	define := func(ks model.KeySchema) {
		for _, n := range ks.Attributes() {
			if n != "" && !defined[n] {
				defined[n] = true
				in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{
					AttributeName: aws.String(n),
					AttributeType: types.ScalarAttributeType(t.KeyAttributeType(n).String()),
				})
			}
		}
	}
	define(t.Key)
	provisioned := t.Billing.Mode == model.Provisioned
	if provisioned {
		in.BillingMode = types.BillingModeProvisioned
		in.ProvisionedThroughput = throughput(t.Billing.Read, t.Billing.Write)
	} else {
		in.BillingMode = types.BillingModePayPerRequest
		if t.Billing.MaxRead > 0 || t.Billing.MaxWrite > 0 {
			// The design's maximum throughput (billing: {on-demand: {maxRead,
			// maxWrite}}); a side it leaves out is sent as -1, none
			// (API_OnDemandThroughput.html).
			side := func(n int64) *int64 {
				if n <= 0 {
					n = -1
				}
				return aws.Int64(n)
			}
			in.OnDemandThroughput = &types.OnDemandThroughput{MaxReadRequestUnits: side(t.Billing.MaxRead), MaxWriteRequestUnits: side(t.Billing.MaxWrite)}
		}
	}
	for _, ix := range t.Indexes {
		ks := t.IndexKey(&ix)
		define(ks)
		if ix.Local {
			in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, types.LocalSecondaryIndex{
				IndexName: aws.String(ix.Name), KeySchema: keySchema(ks), Projection: projection(ix.Projection),
			})
			continue
		}
		g := types.GlobalSecondaryIndex{IndexName: aws.String(ix.Name), KeySchema: keySchema(ks), Projection: projection(ix.Projection)}
		if provisioned {
			r, w := ix.Read, ix.Write
			if r == 0 {
				r = t.Billing.Read
			}
			if w == 0 {
				w = t.Billing.Write
			}
			g.ProvisionedThroughput = throughput(r, w)
		}
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, g)
	}
	// The design's stream (model.StreamView), created with the table.
	if t.Stream != "" {
		in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewType(t.Stream.ViewType())}
	}
	// A stable order makes the request (and the printed plan) the same every run.
	sort.Slice(in.AttributeDefinitions, func(i, j int) bool {
		return *in.AttributeDefinitions[i].AttributeName < *in.AttributeDefinitions[j].AttributeName
	})
	return in
}

// keySchema is a key's KeySchema: a HASH element for each partition key
// attribute, then a RANGE element for each sort key attribute, in key order (a
// multi-attribute GSI key lists several of each, GSI.DesignPattern.MultiAttributeKeys.html).
func keySchema(ks model.KeySchema) []types.KeySchemaElement {
	var out []types.KeySchemaElement
	for _, n := range ks.Partitions() {
		out = append(out, types.KeySchemaElement{AttributeName: aws.String(n), KeyType: types.KeyTypeHash})
	}
	for _, n := range ks.Sorts() {
		out = append(out, types.KeySchemaElement{AttributeName: aws.String(n), KeyType: types.KeyTypeRange})
	}
	return out
}

func projection(p model.Projection) *types.Projection {
	switch p.Type {
	case model.ProjectKeysOnly:
		return &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}
	case model.ProjectInclude:
		return &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: p.Include}
	}
	return &types.Projection{ProjectionType: types.ProjectionTypeAll}
}

// throughput keeps provisioned figures at least 1, DynamoDB's minimum.
func throughput(r, w int64) *types.ProvisionedThroughput {
	return &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(max(r, 1)), WriteCapacityUnits: aws.Int64(max(w, 1))}
}

// WaitActive polls DescribeTable until the table and every GSI are ACTIVE, or the
// timeout passes. DynamoDB creates a table in seconds to minutes; an emulator in
// about half a second.
func WaitActive(ctx context.Context, db *dynamodb.Client, name string, timeout time.Duration) (*types.TableDescription, error) {
	deadline := time.Now().Add(timeout)
	delay := 100 * time.Millisecond
	for {
		out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if err != nil {
			return nil, fmt.Errorf("waiting for table %s: %w", name, err)
		}
		if out.Table == nil {
			return nil, errNoTableDescription(name)
		}
		if active(out.Table) {
			return out.Table, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("table %s is still %s after %v; look at it in the console and run again", name, out.Table.TableStatus, timeout)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(delay):
		}
		delay = min(delay*2, 5*time.Second)
	}
}

// errNoTableDescription is the error for a DescribeTable answer without its Table:
// not DynamoDB's answer, so not a table that exists or is missing.
func errNoTableDescription(name string) error {
	return fmt.Errorf("DescribeTable of %s answered without a table description; is the endpoint DynamoDB?", name)
}

func active(t *types.TableDescription) bool {
	if t == nil || t.TableStatus != types.TableStatusActive {
		return false
	}
	for _, g := range t.GlobalSecondaryIndexes {
		if g.IndexStatus != "" && g.IndexStatus != types.IndexStatusActive {
			return false
		}
	}
	return true
}

// WaitGone polls until DescribeTable says the table does not exist.
func WaitGone(ctx context.Context, db *dynamodb.Client, name string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		_, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		var nf *types.ResourceNotFoundException
		if errors.As(err, &nf) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("waiting for table %s to go away: %w", name, err)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("table %s still exists after %v", name, timeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}
