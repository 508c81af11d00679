package live

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"stwb/engine"
	"stwb/model"
	"stwb/partiql"
)

// maxPages bounds RunPattern with AllPages, so that an endpoint that keeps returning
// a LastEvaluatedKey cannot loop forever. A design's items fit in far fewer pages.
const maxPages = 100000

// RunPattern sends a read pattern (GetItem, Query, Scan, BatchGetItem) to the
// endpoint's table and returns what came back in the engine's Result form, so that
// the prediction and the answer compare field by field. A DynamoDB error (a
// ValidationException, ...) is the Result's Err, as the engine reports it; the error
// return is for what is not DynamoDB's answer: a conversion or transport failure.
// With opts.AllPages (or the pattern's `pages: all`) a Query or Scan follows
// LastEvaluatedKey to the end. A fan-out pattern is sent through engine.RunFanout.
func RunPattern(ctx context.Context, db *dynamodb.Client, table string, p *model.Pattern, opts engine.RunOptions) (*engine.Result, error) {
	r := &engine.Result{PatternID: p.ID, Operation: p.Operation, Index: p.Index}
	var err error
	switch p.Operation {
	case model.OpGetItem:
		err = runGet(ctx, db, table, p, r)
	case model.OpQuery, model.OpScan:
		err = runPages(ctx, db, table, p, opts, r)
	case model.OpBatchGetItem:
		err = runBatchGet(ctx, db, table, p, r)
	case model.OpTransactGetItems:
		err = runTransactGet(ctx, db, table, p, r)
	case model.OpExecuteStatement:
		err = runStatement(ctx, db, table, p, opts, r)
	default:
		return nil, fmt.Errorf("pattern %d: %s is not a read that verify can send; it is skipped", p.ID, p.Operation)
	}
	if err != nil {
		var api smithy.APIError
		if errors.As(err, &api) {
			r.Err = &engine.Error{Type: api.ErrorCode(), Message: api.ErrorMessage()}
			return r, nil
		}
		return nil, fmt.Errorf("pattern %d: %w", p.ID, err)
	}
	return r, nil
}

// runStatement sends a PartiQL pattern's statement, retargeted at the table, with
// its parameters; with AllPages it follows NextToken. The answer has no
// ScannedCount: Count is the items returned, and ScannedCount is left at it.
func runStatement(ctx context.Context, db *dynamodb.Client, table string, p *model.Pattern, opts engine.RunOptions, r *engine.Result) error {
	st, perr := partiql.Parse(p.Statement)
	if perr != nil {
		r.Err = &engine.Error{Type: perr.Type, Message: perr.Message}
		return nil
	}
	params := make([]types.AttributeValue, len(p.Parameters))
	for i, v := range p.Parameters {
		av, err := ToAttributeValue(v)
		if err != nil {
			return fmt.Errorf("parameters[%d]: %w", i, err)
		}
		params[i] = av
	}
	in := &dynamodb.ExecuteStatementInput{Statement: aws.String(st.OnTable(table)), Parameters: params,
		ConsistentRead: aws.Bool(p.Consistent), ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes}
	if p.Limit > 0 {
		in.Limit = aws.Int32(int32(p.Limit))
	}
	for n := 0; n < maxPages; n++ {
		out, err := db.ExecuteStatement(ctx, in)
		if err != nil {
			return err
		}
		r.Consumed = r.Consumed.Add(capacityOf(out.ConsumedCapacity, false))
		for _, av := range out.Items {
			it, err := FromItem(av)
			if err != nil {
				return err
			}
			r.Items = append(r.Items, it)
		}
		r.LastEvaluatedKey = nil
		if out.LastEvaluatedKey != nil {
			if r.LastEvaluatedKey, err = FromItem(out.LastEvaluatedKey); err != nil {
				return err
			}
		}
		if out.NextToken == nil || !(opts.AllPages || p.AllPages) {
			break
		}
		in.NextToken = out.NextToken
	}
	r.Count = len(r.Items)
	r.ScannedCount = r.Count
	return nil
}

// expressionParts are the parts of a request that every read shares. Empty maps are
// sent as absent: DynamoDB rejects an empty ExpressionAttributeNames.
type expressionParts struct {
	names  map[string]string
	values map[string]types.AttributeValue
	proj   *string
	filter *string
}

func partsOf(p *model.Pattern) (expressionParts, error) {
	var x expressionParts
	if len(p.Names) > 0 {
		x.names = p.Names
	}
	if len(p.Values) > 0 {
		vs, err := toMap(p.Values)
		if err != nil {
			return x, fmt.Errorf("values: %w", err)
		}
		x.values = vs
	}
	if p.Projection != "" {
		x.proj = aws.String(p.Projection)
	}
	if p.Filter != "" {
		x.filter = aws.String(p.Filter)
	}
	return x, nil
}

func runGet(ctx context.Context, db *dynamodb.Client, table string, p *model.Pattern, r *engine.Result) error {
	x, err := partsOf(p)
	if err != nil {
		return err
	}
	key, err := ToItem(p.Key)
	if err != nil {
		return fmt.Errorf("key: %w", err)
	}
	out, err := db.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String(table), Key: key, ConsistentRead: aws.Bool(p.Consistent),
		ProjectionExpression: x.proj, ExpressionAttributeNames: x.names,
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
	})
	if err != nil {
		return err
	}
	r.Consumed = capacityOf(out.ConsumedCapacity, false)
	if out.Item != nil {
		it, err := FromItem(out.Item)
		if err != nil {
			return err
		}
		r.Items = []model.Item{it}
	}
	r.CountKeyRead()
	return nil
}

func runBatchGet(ctx context.Context, db *dynamodb.Client, table string, p *model.Pattern, r *engine.Result) error {
	x, err := partsOf(p)
	if err != nil {
		return err
	}
	keys := make([]map[string]types.AttributeValue, len(p.Keys))
	for i, k := range p.Keys {
		if keys[i], err = ToItem(k); err != nil {
			return fmt.Errorf("keys[%d]: %w", i, err)
		}
	}
	ka := types.KeysAndAttributes{Keys: keys, ConsistentRead: aws.Bool(p.Consistent),
		ProjectionExpression: x.proj, ExpressionAttributeNames: x.names}
	// UnprocessedKeys are asked again until none remain; DynamoDB returns them under
	// load, and the prediction is of the whole request's answer.
	req := map[string]types.KeysAndAttributes{table: ka}
	for round := 0; len(req) > 0; round++ {
		if round == maxBatchGetRounds {
			return fmt.Errorf("BatchGetItem still has UnprocessedKeys after %d requests", maxBatchGetRounds)
		}
		out, err := db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: req,
			ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
		if err != nil {
			return err
		}
		for _, cc := range out.ConsumedCapacity {
			r.Consumed = r.Consumed.Add(capacityOf(&cc, false))
		}
		for _, av := range out.Responses[table] {
			it, err := FromItem(av)
			if err != nil {
				return err
			}
			r.Items = append(r.Items, it)
		}
		req = out.UnprocessedKeys
	}
	r.CountKeyRead()
	return nil
}

func runTransactGet(ctx context.Context, db *dynamodb.Client, table string, p *model.Pattern, r *engine.Result) error {
	x, err := partsOf(p)
	if err != nil {
		return err
	}
	items := make([]types.TransactGetItem, len(p.Keys))
	for i, k := range p.Keys {
		key, err := ToItem(k)
		if err != nil {
			return fmt.Errorf("keys[%d]: %w", i, err)
		}
		items[i] = types.TransactGetItem{Get: &types.Get{TableName: aws.String(table), Key: key,
			ProjectionExpression: x.proj, ExpressionAttributeNames: x.names}}
	}
	out, err := db.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: items,
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
	if err != nil {
		return err
	}
	for _, cc := range out.ConsumedCapacity {
		r.Consumed = r.Consumed.Add(capacityOf(&cc, false))
	}
	// A key with no item answers an empty response; the engine leaves it out.
	for _, resp := range out.Responses {
		if resp.Item == nil {
			continue
		}
		it, err := FromItem(resp.Item)
		if err != nil {
			return err
		}
		r.Items = append(r.Items, it)
	}
	r.CountKeyRead()
	return nil
}

func runPages(ctx context.Context, db *dynamodb.Client, table string, p *model.Pattern, opts engine.RunOptions, r *engine.Result) error {
	x, err := partsOf(p)
	if err != nil {
		return err
	}
	var limit *int32
	if p.Limit > 0 {
		limit = aws.Int32(int32(min(p.Limit, 1<<31-1)))
	}
	var index *string
	if p.Index != "" {
		index = aws.String(p.Index)
	}
	var start map[string]types.AttributeValue
	for n := 0; n < maxPages; n++ {
		var items []map[string]types.AttributeValue
		var count, scanned int32
		var lek map[string]types.AttributeValue
		var cc *types.ConsumedCapacity
		if p.Operation == model.OpQuery {
			out, err := db.Query(ctx, &dynamodb.QueryInput{
				TableName: aws.String(table), IndexName: index,
				KeyConditionExpression: aws.String(p.KeyCondition),
				FilterExpression:       x.filter, ProjectionExpression: x.proj,
				ExpressionAttributeNames: x.names, ExpressionAttributeValues: x.values,
				ScanIndexForward: aws.Bool(p.ScanForward()), Limit: limit,
				ConsistentRead: aws.Bool(p.Consistent), ExclusiveStartKey: start,
				ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
			})
			if err != nil {
				return err
			}
			items, count, scanned, lek, cc = out.Items, out.Count, out.ScannedCount, out.LastEvaluatedKey, out.ConsumedCapacity
		} else {
			out, err := db.Scan(ctx, &dynamodb.ScanInput{
				TableName: aws.String(table), IndexName: index,
				FilterExpression: x.filter, ProjectionExpression: x.proj,
				ExpressionAttributeNames: x.names, ExpressionAttributeValues: x.values,
				Limit: limit, ConsistentRead: aws.Bool(p.Consistent), ExclusiveStartKey: start,
				ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
			})
			if err != nil {
				return err
			}
			items, count, scanned, lek, cc = out.Items, out.Count, out.ScannedCount, out.LastEvaluatedKey, out.ConsumedCapacity
		}
		page := engine.Page{Count: int(count), ScannedCount: int(scanned), Consumed: capacityOf(cc, false)}
		for _, av := range items {
			it, err := FromItem(av)
			if err != nil {
				return err
			}
			page.Items = append(page.Items, it)
		}
		if len(lek) > 0 {
			if page.LastEvaluatedKey, err = FromItem(lek); err != nil {
				return fmt.Errorf("LastEvaluatedKey: %w", err)
			}
		}
		r.Pages = append(r.Pages, page)
		r.Items = append(r.Items, page.Items...)
		r.Count += page.Count
		r.ScannedCount += page.ScannedCount
		r.LastEvaluatedKey = page.LastEvaluatedKey
		r.Consumed = r.Consumed.Add(page.Consumed)
		if !(opts.AllPages || p.AllPages) || len(lek) == 0 {
			return nil
		}
		start = lek
	}
	return fmt.Errorf("still a LastEvaluatedKey after %d pages", maxPages)
}

// capacityOf reads a ConsumedCapacity (ReturnConsumedCapacity INDEXES) into the
// engine's form. DynamoDB gives the table's and each index's CapacityUnits, and may
// split them into read and write units; where it does not, the units count as reads
// or writes by the operation (write is true for a write).
func capacityOf(cc *types.ConsumedCapacity, write bool) engine.Capacity {
	var c engine.Capacity
	if cc == nil {
		return c
	}
	units := func(k types.Capacity) engine.Units {
		var u engine.Units
		if k.ReadCapacityUnits != nil || k.WriteCapacityUnits != nil {
			u.Read, u.Write = aws.ToFloat64(k.ReadCapacityUnits), aws.ToFloat64(k.WriteCapacityUnits)
			return u
		}
		if write {
			u.Write = aws.ToFloat64(k.CapacityUnits)
		} else {
			u.Read = aws.ToFloat64(k.CapacityUnits)
		}
		return u
	}
	switch {
	case cc.Table != nil:
		c.Table = units(*cc.Table)
	default:
		// Without a per-table figure the total is the table's: an endpoint that
		// ignores INDEXES still says what the request cost.
		c.Table = units(types.Capacity{CapacityUnits: cc.CapacityUnits,
			ReadCapacityUnits: cc.ReadCapacityUnits, WriteCapacityUnits: cc.WriteCapacityUnits})
	}
	for _, m := range []map[string]types.Capacity{cc.GlobalSecondaryIndexes, cc.LocalSecondaryIndexes} {
		for name, k := range m {
			if c.Indexes == nil {
				c.Indexes = map[string]engine.Units{}
			}
			c.Indexes[name] = units(k)
		}
	}
	return c
}
