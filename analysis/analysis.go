// Package analysis is the one pipeline from a design to what stwb says about it:
// every access pattern run once on the design's items (engine), those results
// priced (cost), and the design reviewed with the same results and prices
// (review). `stwb check`, `stwb cost`, the Markdown export and the workbench all
// call it, so a pattern's result, its cost and its findings always come from one
// run. It holds no state: each call builds what it returns.
//
// Imports: engine, cost, review, model. Start reading at Run.
package analysis

import (
	"slices"

	"stwb/cost"
	"stwb/designfile"
	"stwb/engine"
	"stwb/model"
	"stwb/review"
)

// Options choose the prices and what to compute beyond the runs and the cost.
type Options struct {
	// Prices is the price table; nil means cost.Builtin().
	Prices cost.Prices
	// Region overrides the design's region ("" keeps it; the design's "" is
	// us-east-1).
	Region string
	// Review also applies the review's rules (stwb cost and the design document
	// without a review section leave it false).
	Review bool
	// ItemPos[i] is where item i is in the design's file (designfile.File.ItemPos),
	// so that an item the engine refuses, and a finding on an item, name their
	// place; empty for a design built in code.
	ItemPos []model.Pos
	// AllPages runs every Query and Scan to its last page and prices it as every
	// page of its production result (`stwb cost --all-pages`; a pattern's
	// `pages: all` does this for itself).
	AllPages bool
	// lazy, set by Load for a design read lazily, says where its items are in place
	// of ItemPos.
	lazy *designfile.LazyItems
}

// itemPos is where the review finds each item's place: the lazily read file's
// items, or ItemPos; nil when neither is known.
func (o Options) itemPos() func(int) (model.Pos, bool) {
	switch {
	case o.lazy != nil:
		lz := o.lazy
		return func(i int) (model.Pos, bool) {
			if i < lz.Len() {
				return lz.Pos(i), true
			}
			return model.Pos{}, false
		}
	case o.ItemPos != nil:
		pos := o.ItemPos
		return func(i int) (model.Pos, bool) {
			if i < len(pos) {
				return pos[i], true
			}
			return model.Pos{}, false
		}
	}
	return nil
}

// Analysis is a design's patterns run, priced and (with Options.Review) reviewed.
type Analysis struct {
	Design *model.Design
	// Results are the runs, Results[i] for Design.Patterns[i], each one page of a
	// Query or Scan (engine.RunOptions{}); nil when the engine refused the items.
	Results []*engine.Result
	// Cost is the cost report; nil when CostErr says why there is none.
	Cost *cost.Report
	// CostErr is why the design is unpriced: a region without prices, or the
	// engine refusing the items. The review still runs without prices, and its
	// rules that need them say nothing.
	CostErr error
	// Reviewed is set when the review ran (Options.Review); Findings are then its
	// findings, sorted (review.Check), none when the design passes every rule.
	Reviewed bool
	Findings []review.Finding
	// LeftOut are the items over 400 KB (model.MaxItemSize), by index: DynamoDB
	// never stores them, so the engine holds none of them (engine.Load) and the
	// cost's storage and key figures leave them out too; review's item-too-large
	// names each.
	LeftOut []int
}

// Run builds the engine for d, runs every pattern once on it and analyses the
// results. The error is the engine refusing the items (a key missing or of the
// wrong type; an item over 400 KB is left out, not refused, see engine.Load): the
// analysis then has no results and no cost, and with
// Options.Review the findings of the rules that need no run.
func Run(d *model.Design, opt Options) (*Analysis, error) {
	e, err := engine.Load(d.Table, engine.ItemSlice{Items: d.Items, At: opt.ItemPos})
	if err != nil {
		a := &Analysis{Design: d, CostErr: err, Reviewed: opt.Review}
		if opt.Review {
			a.Findings = review.Check(review.Input{Design: d, ItemPos: opt.itemPos()})
		}
		return a, err
	}
	return OnEngine(d, e, opt), nil
}

// OnEngine analyses d on an engine that already holds its items (the workbench
// keeps one; stwb cost and stwb check load one): each pattern runs once on e.
func OnEngine(d *model.Design, e *engine.Engine, opt Options) *Analysis {
	return of(d, e.RunAll(d.Patterns, engine.RunOptions{AllPages: opt.AllPages}), nil, storedIn(e), opt)
}

// Of prices and reviews results that exist: results[i] is d.Patterns[i]'s run on
// the design's items.
func Of(d *model.Design, results []*engine.Result, opt Options) *Analysis {
	return of(d, results, nil, nil, opt)
}

// of is Of on the design's items as Load read them (nil: d.Items, sized here);
// stored looks a stored item up by its key in the engine the results came from
// (nil: none, cost.Input.Stored).
func of(d *model.Design, results []*engine.Result, sum *summaries, stored func(model.Item) model.Item, opt Options) *Analysis {
	var items model.ItemList = model.ItemMaps(d.Items)
	var sizes []int
	var pass *review.ItemPass
	var storage *cost.StorageTally
	if sum != nil {
		items, sizes, pass, storage = sum.items, sum.sizes, sum.pass, sum.storage
	} else {
		sizes = itemSizes(d.Items)
	}
	a := &Analysis{Design: d, Results: results, Reviewed: opt.Review}
	costItems, costSizes, leftOut := model.StoredList(items, sizes)
	a.LeftOut = leftOut
	as := standIns(d, results)
	a.Cost, a.CostErr = cost.Compute(cost.Input{Design: as, Results: results, Items: costItems, Sizes: costSizes,
		Storage: storage, Stored: stored, Prices: opt.Prices, Region: opt.Region, AllPages: opt.AllPages})
	if opt.Review {
		a.Findings = review.Check(review.Input{Design: as, ItemPos: opt.itemPos(), Results: results, Cost: a.Cost, Items: items, Sizes: sizes, Pass: pass})
	}
	return a
}

// standIns is the design as cost and review see it: each PartiQL pattern that ran
// replaced by the pattern its statement stands for (engine.Result.StandIn: a Query,
// a Scan, a PutItem ... keeping the statement), so that it is priced and reviewed
// as the request DynamoDB runs. d itself when it has no such pattern.
func standIns(d *model.Design, results []*engine.Result) *model.Design {
	var ps []model.Pattern
	for i, r := range results {
		if r == nil || r.StandIn == nil || i >= len(d.Patterns) {
			continue
		}
		if ps == nil {
			ps = slices.Clone(d.Patterns)
		}
		ps[i] = *r.StandIn
	}
	if ps == nil {
		return d
	}
	as := *d
	as.Patterns = ps
	return &as
}

// storedIn looks an item up by its table key in e, which holds the design's
// items as DynamoDB stores them (an item over 400 KB left out, as cost leaves it
// out): the item, or nil when e holds none with that key.
func storedIn(e *engine.Engine) func(model.Item) model.Item {
	t := e.Table()
	return func(it model.Item) model.Item {
		key := model.Item{t.Key.Partition: it[t.Key.Partition]}
		if t.Key.Sort != "" {
			key[t.Key.Sort] = it[t.Key.Sort]
		}
		out, err := e.GetItem(engine.GetItemInput{Key: key})
		if err != nil {
			return nil
		}
		return out.Item
	}
}

// itemSizes sizes each item once, for cost and review alike.
func itemSizes(items []model.Item) []int {
	sizes := make([]int, len(items))
	for i, it := range items {
		sizes[i] = model.ItemSize(it)
	}
	return sizes
}
