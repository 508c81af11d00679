package rehearse

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"stwb/live"
	"stwb/model"
)

// consumed is what one request consumed, from its ConsumedCapacity (asked for
// with INDEXES): read and write units on the table (its LSIs included) and on
// each GSI.
type consumed struct {
	read, write float64
	gsi         map[string][2]float64 // read, write
}

func (c *consumed) add(ccs ...types.ConsumedCapacity) {
	for _, cc := range ccs {
		if cc.Table != nil {
			c.read += aws.ToFloat64(cc.Table.ReadCapacityUnits)
			c.write += aws.ToFloat64(cc.Table.WriteCapacityUnits)
		} else {
			c.read += aws.ToFloat64(cc.ReadCapacityUnits)
			c.write += aws.ToFloat64(cc.WriteCapacityUnits)
		}
		for _, m := range []map[string]types.Capacity{cc.LocalSecondaryIndexes} {
			for _, u := range m {
				c.read += aws.ToFloat64(u.ReadCapacityUnits)
				c.write += aws.ToFloat64(u.WriteCapacityUnits)
			}
		}
		for name, u := range cc.GlobalSecondaryIndexes {
			if c.gsi == nil {
				c.gsi = map[string][2]float64{}
			}
			g := c.gsi[name]
			g[0] += aws.ToFloat64(u.ReadCapacityUnits)
			g[1] += aws.ToFloat64(u.WriteCapacityUnits)
			c.gsi[name] = g
		}
	}
}

const indexes = types.ReturnConsumedCapacityIndexes

// A batch's unprocessed part is sent again, as an application does: "If DynamoDB
// returns any unprocessed items, you should retry the batch operation on those
// items ... we strongly recommend that you use an exponential backoff algorithm"
// (API_BatchWriteItem.html, API_BatchGetItem.html). unprocessedTries bounds the
// requests of one batch, the first included (live.LoadOptions' default), the
// backoff the SDK's own, capped as live caps it.
const unprocessedTries = 12

var unprocessedBackoff = retry.NewExponentialJitterBackoff(live.DefaultMaxBackoff)

// resendAfter waits before a batch's try round+1, or says the batch is still
// unprocessed after its last try.
func resendAfter(ctx context.Context, round int, op, what string) error {
	if round >= unprocessedTries {
		return fmt.Errorf("%s: %s after %d tries", op, what, round)
	}
	d, _ := unprocessedBackoff.BackoffDelay(round, nil)
	return live.Sleep(ctx, d)
}

// send makes one request of a pattern to table through the SDK (its retryer
// included) and returns what it consumed.
func send(ctx context.Context, db *dynamodb.Client, table string, q *model.Pattern) (consumed, error) {
	var c consumed
	names := q.Names
	if len(names) == 0 {
		names = nil
	}
	values, err := avMap(q.Values)
	if err != nil {
		return c, err
	}
	opt := func(s string) *string {
		if s == "" {
			return nil
		}
		return aws.String(s)
	}
	switch q.Operation {
	case model.OpGetItem:
		key, err := live.ToItem(q.Key)
		if err != nil {
			return c, err
		}
		out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: &table, Key: key, ConsistentRead: aws.Bool(q.Consistent),
			ProjectionExpression: opt(q.Projection), ExpressionAttributeNames: names, ReturnConsumedCapacity: indexes})
		if err == nil && out.ConsumedCapacity != nil {
			c.add(*out.ConsumedCapacity)
		}
		return c, err
	case model.OpQuery, model.OpScan:
		var start map[string]types.AttributeValue
		for page := 0; ; page++ {
			var cc *types.ConsumedCapacity
			var last map[string]types.AttributeValue
			if q.Operation == model.OpQuery {
				in := &dynamodb.QueryInput{TableName: &table, IndexName: opt(q.Index), KeyConditionExpression: aws.String(q.KeyCondition),
					FilterExpression: opt(q.Filter), ProjectionExpression: opt(q.Projection), ExpressionAttributeNames: names,
					ExpressionAttributeValues: values, ScanIndexForward: aws.Bool(q.ScanForward()), ConsistentRead: aws.Bool(q.Consistent),
					ExclusiveStartKey: start, ReturnConsumedCapacity: indexes}
				if q.Limit > 0 {
					in.Limit = aws.Int32(int32(q.Limit))
				}
				out, err := db.Query(ctx, in)
				if err != nil {
					return c, err
				}
				cc, last = out.ConsumedCapacity, out.LastEvaluatedKey
			} else {
				in := &dynamodb.ScanInput{TableName: &table, IndexName: opt(q.Index), FilterExpression: opt(q.Filter),
					ProjectionExpression: opt(q.Projection), ExpressionAttributeNames: names, ExpressionAttributeValues: values,
					ConsistentRead: aws.Bool(q.Consistent), ExclusiveStartKey: start, ReturnConsumedCapacity: indexes}
				if q.Limit > 0 {
					in.Limit = aws.Int32(int32(q.Limit))
				}
				out, err := db.Scan(ctx, in)
				if err != nil {
					return c, err
				}
				cc, last = out.ConsumedCapacity, out.LastEvaluatedKey
			}
			if cc != nil {
				c.add(*cc)
			}
			// One page, as the pattern is priced, unless it reads them all (pages: all);
			// bounded so that an endpoint that always has more cannot hold a worker.
			if !q.AllPages || len(last) == 0 || page >= 1000 {
				return c, nil
			}
			start = last
		}
	case model.OpBatchGetItem:
		keys := make([]map[string]types.AttributeValue, len(q.Keys))
		for i, k := range q.Keys {
			if keys[i], err = live.ToItem(k); err != nil {
				return c, err
			}
		}
		req := map[string]types.KeysAndAttributes{table: {Keys: keys, ConsistentRead: aws.Bool(q.Consistent),
			ProjectionExpression: opt(q.Projection), ExpressionAttributeNames: names}}
		for round := 1; ; round++ {
			out, err := db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{ReturnConsumedCapacity: indexes, RequestItems: req})
			if err != nil {
				return c, err
			}
			c.add(out.ConsumedCapacity...)
			if req = out.UnprocessedKeys; len(req) == 0 {
				return c, nil
			}
			if err := resendAfter(ctx, round, "BatchGetItem", "UnprocessedKeys"); err != nil {
				return c, err
			}
		}
	case model.OpTransactGetItems:
		items := make([]types.TransactGetItem, len(q.Keys))
		for i, k := range q.Keys {
			key, err := live.ToItem(k)
			if err != nil {
				return c, err
			}
			items[i] = types.TransactGetItem{Get: &types.Get{TableName: &table, Key: key, ProjectionExpression: opt(q.Projection), ExpressionAttributeNames: names}}
		}
		out, err := db.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: items, ReturnConsumedCapacity: indexes})
		if err == nil {
			c.add(out.ConsumedCapacity...)
		}
		return c, err
	case model.OpPutItem:
		item, err := live.ToItem(q.Item)
		if err != nil {
			return c, err
		}
		out, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: item, ConditionExpression: opt(q.Condition),
			ExpressionAttributeNames: names, ExpressionAttributeValues: values, ReturnConsumedCapacity: indexes})
		if err == nil && out.ConsumedCapacity != nil {
			c.add(*out.ConsumedCapacity)
		}
		return c, err
	case model.OpUpdateItem:
		key, err := live.ToItem(q.Key)
		if err != nil {
			return c, err
		}
		out, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: &table, Key: key, UpdateExpression: opt(q.Update),
			ConditionExpression: opt(q.Condition), ExpressionAttributeNames: names, ExpressionAttributeValues: values, ReturnConsumedCapacity: indexes})
		if err == nil && out.ConsumedCapacity != nil {
			c.add(*out.ConsumedCapacity)
		}
		return c, err
	case model.OpDeleteItem:
		key, err := live.ToItem(q.Key)
		if err != nil {
			return c, err
		}
		out, err := db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: &table, Key: key, ConditionExpression: opt(q.Condition),
			ExpressionAttributeNames: names, ExpressionAttributeValues: values, ReturnConsumedCapacity: indexes})
		if err == nil && out.ConsumedCapacity != nil {
			c.add(*out.ConsumedCapacity)
		}
		return c, err
	case model.OpBatchWriteItem:
		reqs := make([]types.WriteRequest, len(q.Actions))
		for i, a := range q.Actions {
			if a.Kind == model.ActionPut {
				it, err := live.ToItem(a.Item)
				if err != nil {
					return c, err
				}
				reqs[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: it}}
			} else {
				k, err := live.ToItem(a.Key)
				if err != nil {
					return c, err
				}
				reqs[i] = types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: k}}
			}
		}
		req := map[string][]types.WriteRequest{table: reqs}
		for round := 1; ; round++ {
			out, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: req, ReturnConsumedCapacity: indexes})
			if err != nil {
				return c, err
			}
			c.add(out.ConsumedCapacity...)
			if req = out.UnprocessedItems; len(req) == 0 {
				return c, nil
			}
			if err := resendAfter(ctx, round, "BatchWriteItem", "UnprocessedItems"); err != nil {
				return c, err
			}
		}
	case model.OpTransactWriteItems:
		items := make([]types.TransactWriteItem, len(q.Actions))
		for i, a := range q.Actions {
			n, v := a.Names, a.Values
			if len(n) == 0 {
				n = q.Names
			}
			if len(v) == 0 {
				v = q.Values
			}
			if len(n) == 0 {
				n = nil
			}
			avs, err := avMap(v)
			if err != nil {
				return c, err
			}
			switch a.Kind {
			case model.ActionPut:
				it, err := live.ToItem(a.Item)
				if err != nil {
					return c, err
				}
				items[i].Put = &types.Put{TableName: &table, Item: it, ConditionExpression: opt(a.Condition), ExpressionAttributeNames: n, ExpressionAttributeValues: avs}
			default:
				k, err := live.ToItem(a.Key)
				if err != nil {
					return c, err
				}
				switch a.Kind {
				case model.ActionUpdate:
					items[i].Update = &types.Update{TableName: &table, Key: k, UpdateExpression: aws.String(a.Update), ConditionExpression: opt(a.Condition), ExpressionAttributeNames: n, ExpressionAttributeValues: avs}
				case model.ActionDelete:
					items[i].Delete = &types.Delete{TableName: &table, Key: k, ConditionExpression: opt(a.Condition), ExpressionAttributeNames: n, ExpressionAttributeValues: avs}
				default:
					items[i].ConditionCheck = &types.ConditionCheck{TableName: &table, Key: k, ConditionExpression: aws.String(a.Condition), ExpressionAttributeNames: n, ExpressionAttributeValues: avs}
				}
			}
		}
		out, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items, ReturnConsumedCapacity: indexes})
		if err == nil {
			c.add(out.ConsumedCapacity...)
		}
		return c, err
	}
	return c, fmt.Errorf("%s is not an operation stwb load sends", q.Operation)
}

// avMap converts expression attribute values (nil when there are none: DynamoDB
// refuses an empty map).
func avMap(m map[string]model.Value) (map[string]types.AttributeValue, error) {
	if len(m) == 0 {
		return nil, nil
	}
	out := make(map[string]types.AttributeValue, len(m))
	for k, v := range m {
		av, err := live.ToAttributeValue(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = av
	}
	return out, nil
}
