package difftest

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"stwb/engine"
	"stwb/live"
	"stwb/model"
	"stwb/verify"
)

// maxPages stops a runaway page loop; a generated design has a few hundred items.
const maxPages = 1000

// answer is what one request gave: the pages run (one unless the request follows
// LastEvaluatedKey), or the error of the first request that failed.
type answer struct {
	pages []engine.Result
	err   *engine.Error
}

// onEngine runs the request on stwb's engine.
func onEngine(e *engine.Engine, q request) (answer, error) {
	var a answer
	if q.op.IsWrite() {
		return writeOnEngine(e, q)
	}
	switch q.op {
	case model.OpGetItem:
		out, err := e.GetItem(q.get)
		if err != nil {
			return a, a.fail(err)
		}
		r := engine.Result{}
		if out.Item != nil {
			r.Items, r.Count = []model.Item{out.Item}, 1
		}
		a.pages = append(a.pages, r)
		return a, nil
	}
	query, scan := q.query, q.scan
	for n := 0; n < maxPages; n++ {
		var page *engine.Page
		var err error
		if q.op == model.OpQuery {
			page, err = e.Query(query)
		} else {
			page, err = e.Scan(scan)
		}
		if err != nil {
			return a, a.fail(err)
		}
		a.pages = append(a.pages, engine.Result{Items: page.Items, Count: page.Count,
			ScannedCount: page.ScannedCount, LastEvaluatedKey: page.LastEvaluatedKey})
		if !q.pages || page.LastEvaluatedKey == nil {
			return a, nil
		}
		prev := query.ExclusiveStartKey
		if q.op == model.OpScan {
			prev = scan.ExclusiveStartKey
		}
		if prev != nil && prev.Equal(page.LastEvaluatedKey) {
			return a, fmt.Errorf("engine: page %d's LastEvaluatedKey %s is its ExclusiveStartKey; paging would never end",
				n, verify.FormatItem(prev))
		}
		query.ExclusiveStartKey, scan.ExclusiveStartKey = page.LastEvaluatedKey, page.LastEvaluatedKey
	}
	return a, fmt.Errorf("engine: still a LastEvaluatedKey after %d pages", maxPages)
}

// fail records a DynamoDB error as the answer; any other error is returned.
func (a *answer) fail(err error) error {
	var ee *engine.Error
	if errors.As(err, &ee) {
		a.err = ee
		return nil
	}
	var api smithy.APIError
	if errors.As(err, &api) {
		a.err = &engine.Error{Type: api.ErrorCode(), Message: api.ErrorMessage()}
		return nil
	}
	return err
}

// onDynalite sends the same request to dynalite through aws-sdk-go-v2.
func onDynalite(ctx context.Context, db *dynamodb.Client, table string, q request) (answer, error) {
	var a answer
	if q.op.IsWrite() {
		return writeOnDynalite(ctx, db, table, q)
	}
	names, values, err := wire(q)
	if err != nil {
		return a, err
	}
	if q.op == model.OpGetItem {
		key, err := live.ToItem(q.get.Key)
		if err != nil {
			return a, err
		}
		out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: key,
			ConsistentRead: aws.Bool(q.get.ConsistentRead), ProjectionExpression: str(q.get.ProjectionExpression),
			ExpressionAttributeNames: names})
		if err != nil {
			return a, a.fail(err)
		}
		r := engine.Result{}
		if out.Item != nil {
			it, err := live.FromItem(out.Item)
			if err != nil {
				return a, err
			}
			r.Items, r.Count = []model.Item{it}, 1
		}
		a.pages = append(a.pages, r)
		return a, nil
	}
	var start map[string]types.AttributeValue
	if esk := q.query.ExclusiveStartKey; esk != nil {
		if start, err = live.ToItem(esk); err != nil {
			return a, err
		}
	}
	for n := 0; n < maxPages; n++ {
		var items []map[string]types.AttributeValue
		var count, scanned int32
		var lek map[string]types.AttributeValue
		if q.op == model.OpQuery {
			in := q.query
			out, err := db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(table), IndexName: str(in.IndexName),
				KeyConditionExpression: str(in.KeyConditionExpression), FilterExpression: str(in.FilterExpression),
				ProjectionExpression: str(in.ProjectionExpression), ExpressionAttributeNames: names,
				ExpressionAttributeValues: values, ExclusiveStartKey: start, Limit: limit(in.Limit),
				ScanIndexForward: in.ScanIndexForward, ConsistentRead: aws.Bool(in.ConsistentRead),
				Select: types.Select(in.Select)})
			if err != nil {
				return a, a.fail(err)
			}
			items, count, scanned, lek = out.Items, out.Count, out.ScannedCount, out.LastEvaluatedKey
		} else {
			in := q.scan
			out, err := db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(table), IndexName: str(in.IndexName),
				FilterExpression: str(in.FilterExpression), ProjectionExpression: str(in.ProjectionExpression),
				ExpressionAttributeNames: names, ExpressionAttributeValues: values, ExclusiveStartKey: start,
				Limit: limit(in.Limit), ConsistentRead: aws.Bool(in.ConsistentRead), Select: types.Select(in.Select)})
			if err != nil {
				return a, a.fail(err)
			}
			items, count, scanned, lek = out.Items, out.Count, out.ScannedCount, out.LastEvaluatedKey
		}
		r := engine.Result{Count: int(count), ScannedCount: int(scanned)}
		for _, av := range items {
			it, err := live.FromItem(av)
			if err != nil {
				return a, err
			}
			r.Items = append(r.Items, it)
		}
		if len(lek) > 0 {
			if r.LastEvaluatedKey, err = live.FromItem(lek); err != nil {
				return a, err
			}
		}
		a.pages = append(a.pages, r)
		if !q.pages || len(lek) == 0 {
			return a, nil
		}
		start = lek
	}
	return a, fmt.Errorf("dynalite: still a LastEvaluatedKey after %d pages", maxPages)
}

// wire converts the request's names and values; empty maps stay absent, as the
// engine's nil maps are.
func wire(q request) (map[string]string, map[string]types.AttributeValue, error) {
	var names map[string]string
	var values map[string]model.Value
	switch q.op {
	case model.OpGetItem:
		names = q.get.ExpressionAttributeNames
	case model.OpQuery:
		names, values = q.query.ExpressionAttributeNames, q.query.ExpressionAttributeValues
	default:
		names, values = q.scan.ExpressionAttributeNames, q.scan.ExpressionAttributeValues
	}
	var avs map[string]types.AttributeValue
	if values != nil {
		var err error
		if avs, err = live.ToItem(values); err != nil {
			return nil, nil, err
		}
	}
	return names, avs, nil
}

func str(s string) *string {
	if s == "" {
		return nil
	}
	return aws.String(s)
}

func limit(n int) *int32 {
	if n == 0 {
		return nil
	}
	return aws.Int32(int32(n))
}
