package engine

import (
	"errors"

	"stwb/model"
)

// maxPages bounds RunOptions.AllPages, so that a design can never make Run loop
// for ever; each page reads at least one item, so this is far beyond any design.
const maxPages = 1 << 20

// Run runs a pattern as the DynamoDB operation it names, against the engine's items.
// Reads run on e; writes run on a copy (Clone), so a write pattern never changes e
// and its effect is not seen by other patterns. The result's Err is the request's
// error, if any; Run never returns nil.
func (e *Engine) Run(p *model.Pattern, opts RunOptions) *Result {
	if p == nil {
		return &Result{Err: validation("no pattern to run")}
	}
	if p.Fanout != nil {
		return e.runFanout(p, opts)
	}
	r := &Result{PatternID: p.ID, Operation: p.Operation, Index: p.Index}
	var err *Error
	switch p.Operation {
	case model.OpGetItem:
		err = e.runGet(p, r)
	case model.OpQuery, model.OpScan:
		err = e.runPages(p, opts, r, p.Statement != "")
	case model.OpBatchGetItem:
		var out *BatchGetItemOutput
		if out, err = e.batchGetItem(BatchGetItemInput{Keys: p.Keys, ProjectionExpression: p.Projection,
			ExpressionAttributeNames: p.Names, ConsistentRead: p.Consistent}); err == nil {
			r.Items, r.Count, r.Consumed = out.Responses, len(out.Responses), out.Consumed
		}
	case model.OpTransactGetItems:
		gets := make([]TransactGet, len(p.Keys))
		for i, k := range p.Keys {
			gets[i] = TransactGet{Key: k, ProjectionExpression: p.Projection, ExpressionAttributeNames: p.Names}
		}
		var out *TransactGetItemsOutput
		if out, err = e.transactGetItems(gets); err == nil {
			for _, it := range out.Responses {
				if it != nil {
					r.Items = append(r.Items, it)
				}
			}
			r.Count, r.Consumed = len(r.Items), out.Consumed
		}
	case model.OpPutItem, model.OpUpdateItem, model.OpDeleteItem, model.OpBatchWriteItem, model.OpTransactWriteItems:
		err = e.Clone().runWrite(p, r)
	case model.OpExecuteStatement:
		err = e.runStatement(p, opts, r)
	default:
		err = validation("Unknown operation %q in pattern %d: use one of GetItem, Query, Scan, BatchGetItem, TransactGetItems, PutItem, UpdateItem, DeleteItem, BatchWriteItem, TransactWriteItems, ExecuteStatement", p.Operation, p.ID)
	}
	switch p.Operation {
	case model.OpGetItem, model.OpBatchGetItem, model.OpTransactGetItems:
		r.CountKeyRead()
	}
	r.Err = err
	return r
}

func (e *Engine) runGet(p *model.Pattern, r *Result) *Error {
	out, err := e.getItem(GetItemInput{Key: p.Key, ProjectionExpression: p.Projection,
		ExpressionAttributeNames: p.Names, ConsistentRead: p.Consistent})
	if err != nil {
		return err
	}
	if out.Item != nil {
		r.Items, r.Count = []model.Item{out.Item}, 1
	}
	r.Consumed = out.Consumed
	return nil
}

// runPages runs a Query or Scan pattern: one page, or with AllPages (or the
// pattern's `pages: all`) every page, following LastEvaluatedKey.
//
// keyFilter lets a filter name the key: a PartiQL SELECT's stand-in (a pattern with
// a Statement) filters on a second sort key condition as its statement does.
func (e *Engine) runPages(p *model.Pattern, opts RunOptions, r *Result, keyFilter bool) *Error {
	var start model.Item
	for n := 0; n < maxPages; n++ {
		var pg *Page
		var err *Error
		if p.Operation == model.OpQuery {
			pg, err = e.query(QueryInput{IndexName: p.Index, KeyConditionExpression: p.KeyCondition,
				FilterExpression: p.Filter, ProjectionExpression: p.Projection,
				ExpressionAttributeNames: p.Names, ExpressionAttributeValues: p.Values,
				ExclusiveStartKey: start, Limit: p.Limit, ScanIndexForward: p.Forward,
				ConsistentRead: p.Consistent, Visits: true, keyFilter: keyFilter})
		} else {
			pg, err = e.scan(ScanInput{IndexName: p.Index, FilterExpression: p.Filter,
				ProjectionExpression: p.Projection, ExpressionAttributeNames: p.Names,
				ExpressionAttributeValues: p.Values, ExclusiveStartKey: start, Limit: p.Limit,
				ConsistentRead: p.Consistent, Visits: true})
		}
		if err != nil {
			return err
		}
		r.Pages = append(r.Pages, *pg)
		r.Items = append(r.Items, pg.Items...)
		r.Count += pg.Count
		r.ScannedCount += pg.ScannedCount
		r.LastEvaluatedKey = pg.LastEvaluatedKey
		r.Consumed = r.Consumed.Add(pg.Consumed)
		if !(opts.AllPages || p.AllPages) || pg.LastEvaluatedKey == nil {
			return nil
		}
		start = pg.LastEvaluatedKey
	}
	return nil
}

// runWrite runs a write pattern on e (Run passes a clone).
func (e *Engine) runWrite(p *model.Pattern, r *Result) *Error {
	var out *WriteOutput
	var err error
	switch p.Operation {
	case model.OpPutItem:
		out, err = e.PutItem(PutItemInput{Item: p.Item, ConditionExpression: p.Condition,
			ExpressionAttributeNames: p.Names, ExpressionAttributeValues: p.Values, ReturnValues: p.ReturnValues})
	case model.OpUpdateItem:
		out, err = e.UpdateItem(UpdateItemInput{Key: p.Key, UpdateExpression: p.Update,
			ConditionExpression: p.Condition, ExpressionAttributeNames: p.Names,
			ExpressionAttributeValues: p.Values, ReturnValues: p.ReturnValues})
	case model.OpDeleteItem:
		out, err = e.DeleteItem(DeleteItemInput{Key: p.Key, ConditionExpression: p.Condition,
			ExpressionAttributeNames: p.Names, ExpressionAttributeValues: p.Values, ReturnValues: p.ReturnValues})
	case model.OpBatchWriteItem:
		reqs := make([]WriteRequest, len(p.Actions))
		for i, a := range p.Actions {
			switch a.Kind {
			case model.ActionPut:
				reqs[i] = WriteRequest{Item: a.Item}
			case model.ActionDelete:
				reqs[i] = WriteRequest{Key: a.Key}
			default:
				return validation("Pattern %d action %d: BatchWriteItem takes only put and delete actions, not %s; use TransactWriteItems for updates and checks", p.ID, i, a.Kind)
			}
		}
		out, err = e.BatchWriteItem(reqs)
	case model.OpTransactWriteItems:
		items := make([]TransactWriteItem, len(p.Actions))
		for i, a := range p.Actions {
			names, values := a.Names, a.Values
			if len(names) == 0 && len(values) == 0 {
				// The design lets actions share the pattern's names and values; DynamoDB
				// checks each action's own for unused entries, so pass each action only
				// the ones its expressions mention.
				names, values = referenced(p.Names, p.Values, a.Update, a.Condition)
			}
			items[i] = TransactWriteItem{Kind: a.Kind, Item: a.Item, Key: a.Key,
				UpdateExpression: a.Update, ConditionExpression: a.Condition,
				ExpressionAttributeNames: names, ExpressionAttributeValues: values}
		}
		out, err = e.TransactWriteItems(items)
	}
	if out != nil {
		r.Changes, r.Attributes, r.Consumed = out.Changes, out.Attributes, out.Consumed
	}
	var ee *Error
	if errors.As(err, &ee) {
		return ee
	}
	return nil
}

// referenced keeps the names (#x) and values (:x) that occur as whole tokens in the
// expressions.
func referenced(names map[string]string, values map[string]model.Value, exprs ...string) (map[string]string, map[string]model.Value) {
	var n map[string]string
	var v map[string]model.Value
	for k, x := range names {
		if mentions(k, exprs) {
			if n == nil {
				n = map[string]string{}
			}
			n[k] = x
		}
	}
	for k, x := range values {
		if mentions(k, exprs) {
			if v == nil {
				v = map[string]model.Value{}
			}
			v[k] = x
		}
	}
	return n, v
}

// mentions reports whether tok occurs in one of the expressions not followed by a
// name character (so :a does not match inside :ab).
func mentions(tok string, exprs []string) bool {
	for _, s := range exprs {
		for i := 0; i+len(tok) <= len(s); i++ {
			if s[i:i+len(tok)] != tok {
				continue
			}
			j := i + len(tok)
			if j == len(s) || !isNameByte(s[j]) {
				return true
			}
		}
	}
	return false
}

func isNameByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// RunAll runs each pattern once on e, in order: RunAll(ps)[i] is ps[i]'s result.
// It is the first stage of the analysis pipeline (package analysis), whose cost and
// review read these results rather than running a pattern again.
func (e *Engine) RunAll(ps []model.Pattern, opts RunOptions) []*Result {
	rs := make([]*Result, len(ps))
	for i := range ps {
		rs[i] = e.Run(&ps[i], opts)
	}
	return rs
}

// CountKeyRead sets the counts of a GetItem, BatchGetItem or TransactGetItems result
// from its items. DynamoDB's response to a key read has no Count or ScannedCount: it
// reads exactly the items it returns, so both are the number of items. Keeping
// Count <= ScannedCount for every result is what the preview, the review and
// verify's comparison rely on; the live package counts the endpoint's answers here
// too, so that both sides follow one rule.
func (r *Result) CountKeyRead() {
	r.Count = len(r.Items)
	r.ScannedCount = r.Count
}
