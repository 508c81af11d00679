package engine

import (
	"slices"

	"stwb/model"
)

// RunFanout runs a fan-out pattern (model.Fanout) as the caller would: one request
// per value, each run by run (the engine, or a live endpoint), and merges their
// results as the caller merges them. A pattern without a fan-out is run as it is.
//
// The merge: a Query's items in the order of the read index's sort key (the
// table's for the table), ascending or, with ScanIndexForward false, descending,
// items with equal sort keys in request order; when the index has no sort key, or
// an item lacks it (a projection left it out), the requests' items follow each
// other in request order, as they do for GetItem. Count and ScannedCount are summed,
// and so is the consumed capacity: DynamoDB bills every request on its own, so each
// is rounded on its own (read-write-operations.html). A Limit applies to each
// request, as DynamoDB applies it. The merged result has no LastEvaluatedKey (each
// request's own is in Requests); the first request that fails gives its error.
func RunFanout(t *model.Table, p *model.Pattern, run func(*model.Pattern) (*Result, error)) (*Result, error) {
	reqs := p.FanoutRequests()
	if reqs == nil {
		return run(p)
	}
	r := &Result{PatternID: p.ID, Operation: p.Operation, Index: p.Index, Fanout: p.Fanout}
	for i := range reqs {
		sub, err := run(&reqs[i])
		if err != nil {
			return nil, err
		}
		r.Requests = append(r.Requests, sub)
		r.Items = append(r.Items, sub.Items...)
		r.Count += sub.Count
		r.ScannedCount += sub.ScannedCount
		r.Consumed = r.Consumed.Add(sub.Consumed)
		if sub.Err != nil && r.Err == nil {
			r.Err = sub.Err
		}
	}
	if p.Operation == model.OpQuery {
		if attr := mergeSortKey(t, p); attr != "" && allHave(r.Items, attr) {
			slices.SortStableFunc(r.Items, func(a, b model.Item) int {
				c := model.CompareScalar(a[attr], b[attr])
				if !p.ScanForward() {
					c = -c
				}
				return c
			})
		}
	}
	return r, nil
}

// MergeOrder says in words how RunFanout merges a fan-out's items: "SK ascending",
// "GSI1SK descending", or "in request order".
func MergeOrder(t *model.Table, p *model.Pattern) string {
	attr := mergeSortKey(t, p)
	if p.Operation != model.OpQuery || attr == "" {
		return "in request order"
	}
	if !p.ScanForward() {
		return "by " + attr + " descending"
	}
	return "by " + attr + " ascending"
}

// mergeSortKey is the sort key of the index a Query reads (the table's for the
// table), "" when it has none.
func mergeSortKey(t *model.Table, p *model.Pattern) string {
	if p.Index == "" {
		return t.Key.Sort
	}
	if ix, ok := t.IndexByName(p.Index); ok {
		return ix.Key.Sort
	}
	return ""
}

func allHave(items []model.Item, attr string) bool {
	for _, it := range items {
		if _, ok := it[attr]; !ok {
			return false
		}
	}
	return true
}

// runFanout is RunFanout on the engine's items.
func (e *Engine) runFanout(p *model.Pattern, opts RunOptions) *Result {
	r, _ := RunFanout(&e.table, p, func(q *model.Pattern) (*Result, error) { return e.Run(q, opts), nil })
	return r
}
