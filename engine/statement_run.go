package engine

import (
	"maps"

	"stwb/model"
	"stwb/partiql"
)

// A design's ExecuteStatement pattern runs as its statement does over the wire
// (ExecuteStatement), and it is priced and reviewed as the pattern it stands for:
// StandIn, a pattern of the operation the statement runs as, with that
// operation's fields (key condition, filter, item, update, condition, names,
// values) and the statement kept, so that cost and review model it as they model
// any Query, Scan or write.

// statementFanoutVar names the fan-out of a SELECT's partition key values.
const statementFanoutVar = "partiql"

// ResourceNotFoundException is DynamoDB's error for a table it does not have.
const ResourceNotFoundException = "ResourceNotFoundException"

// runStatement runs an ExecuteStatement pattern: one page of a SELECT, or every
// page with AllPages; a write on a copy of the engine, as Run runs every write.
func (e *Engine) runStatement(p *model.Pattern, opts RunOptions, r *Result) *Error {
	st, perr := partiql.Parse(p.Statement)
	if perr != nil {
		return fromStatement(perr)
	}
	if st.Table != e.table.Name {
		// The statement names a table the design does not have.
		return &Error{Type: ResourceNotFoundException, Message: "Requested resource not found"}
	}
	standIn, err := e.standIn(p, st)
	if err != nil {
		return err
	}
	r.StandIn, r.Operation, r.Index = standIn, standIn.Operation, standIn.Index
	if standIn.Fanout != nil {
		// A SELECT of several partition key values runs as its fan-out stand-in:
		// the same Queries, each its own request (Result.Requests) for cost.
		*r = *e.runFanout(standIn, opts)
		r.StandIn = standIn
		for i, it := range r.Items {
			r.Items[i] = Row(st, it)
		}
		return r.Err
	}
	eng := e
	if st.Kind != partiql.Select {
		eng = e.Clone()
	}
	in := StatementInput{Statement: st, Parameters: p.Parameters, ConsistentRead: p.Consistent, Limit: p.Limit, Visits: true}
	if p.Limit != 0 {
		in.Given = GivenLimit
	}
	for n := 0; n < maxPages; n++ {
		out, err := eng.executeStatement(in)
		if out != nil {
			r.Consumed = r.Consumed.Add(out.Consumed)
			r.Changes = append(r.Changes, out.Changes...)
		}
		if err != nil {
			return err
		}
		if out.Page == nil {
			if len(out.Items) > 0 {
				r.Attributes = out.Items[0]
			}
			return nil
		}
		r.Pages = append(r.Pages, *out.Page)
		r.Items = append(r.Items, out.Items...)
		r.Count += out.Page.Count
		r.ScannedCount += out.Page.ScannedCount
		r.LastEvaluatedKey = out.LastEvaluatedKey
		if !(opts.AllPages || p.AllPages) || out.LastEvaluatedKey == nil {
			return nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	return nil
}

// standIn is the pattern an ExecuteStatement pattern stands for: p with the
// operation and fields of the request its statement runs as.
func (e *Engine) standIn(p *model.Pattern, st *partiql.Statement) (*model.Pattern, *Error) {
	q := *p
	if err := checkParameters(st, p.Parameters); err != nil {
		return nil, err
	}
	switch st.Kind {
	case partiql.Select:
		plan, err := e.planSelect(st, p.Parameters)
		if err != nil {
			return nil, err
		}
		if plan.scan {
			s := plan.scanI
			q.Operation, q.Index, q.Filter, q.Projection = model.OpScan, s.IndexName, s.FilterExpression, s.ProjectionExpression
			q.Names, q.Values = s.ExpressionAttributeNames, s.ExpressionAttributeValues
		} else {
			qi := plan.query
			q.Operation, q.Index, q.KeyCondition, q.Filter, q.Projection = model.OpQuery, qi.IndexName, qi.KeyConditionExpression, qi.FilterExpression, qi.ProjectionExpression
			q.Names, q.Values, q.Forward = qi.ExpressionAttributeNames, qi.ExpressionAttributeValues, qi.ScanIndexForward
			if plan.keys != nil {
				// Several partition key values: one Query each, as a fan-out over
				// them (model.Fanout), which cost prices request by request and
				// whose load falls on each value.
				f := &model.Fanout{Var: statementFanoutVar}
				for _, k := range plan.keys {
					f.Values = append(f.Values, k.Str)
				}
				q.Values = maps.Clone(q.Values)
				q.Values[plan.keyPH] = model.Value{Type: plan.keys[0].Type, Str: f.Placeholder()}
				q.Fanout = f
			}
		}
		return &q, nil
	case partiql.Exists:
		return nil, validation("EXISTS can only be used in ExecuteTransaction write requests.")
	}
	w, err := e.StatementWrite(st, p.Parameters)
	if err != nil {
		return nil, err
	}
	q.Item, q.Key, q.Update, q.Condition = w.Item, w.Key, w.UpdateExpression, w.ConditionExpression
	q.Names, q.Values, q.ReturnValues = w.ExpressionAttributeNames, w.ExpressionAttributeValues, returnValuesOf(st.Returning)
	switch w.Kind {
	case model.ActionPut:
		q.Operation = model.OpPutItem
	case model.ActionUpdate:
		q.Operation = model.OpUpdateItem
	default:
		q.Operation = model.OpDeleteItem
	}
	if q.ReturnValues == ReturnNone {
		q.ReturnValues = ""
	}
	return &q, nil
}
