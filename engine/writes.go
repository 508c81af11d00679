package engine

import (
	"strings"

	"stwb/expr"
	"stwb/model"
)

// ReturnValues and ReturnValuesOnConditionCheckFailure values (API_UpdateItem.html).
const (
	ReturnNone       = "NONE"
	ReturnAllOld     = "ALL_OLD"
	ReturnUpdatedOld = "UPDATED_OLD"
	ReturnAllNew     = "ALL_NEW"
	ReturnUpdatedNew = "UPDATED_NEW"
)

// PutItemInput is a PutItem request (API_PutItem.html).
type PutItemInput struct {
	Item                                model.Item
	ConditionExpression                 string
	ExpressionAttributeNames            map[string]string
	ExpressionAttributeValues           map[string]model.Value
	ReturnValues                        string // NONE or ALL_OLD
	ReturnValuesOnConditionCheckFailure string // NONE or ALL_OLD
	Given                               Given  // GivenCondition
}

// UpdateItemInput is an UpdateItem request (API_UpdateItem.html).
type UpdateItemInput struct {
	Key                                 model.Item
	UpdateExpression                    string
	ConditionExpression                 string
	ExpressionAttributeNames            map[string]string
	ExpressionAttributeValues           map[string]model.Value
	ReturnValues                        string // NONE, ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATED_NEW
	ReturnValuesOnConditionCheckFailure string
	Given                               Given // GivenUpdate, GivenCondition
}

// DeleteItemInput is a DeleteItem request (API_DeleteItem.html).
type DeleteItemInput struct {
	Key                                 model.Item
	ConditionExpression                 string
	ExpressionAttributeNames            map[string]string
	ExpressionAttributeValues           map[string]model.Value
	ReturnValues                        string // NONE or ALL_OLD
	ReturnValuesOnConditionCheckFailure string
	Given                               Given // GivenCondition
}

// WriteOutput is what a write returned: ReturnValues' Attributes, the capacity it
// consumed and the items it changed. A write whose condition failed returns its
// output too (a failed conditional write still consumes capacity, as the write would:
// read-write-operations.html "Conditional writes") along with the error.
type WriteOutput struct {
	Attributes model.Item
	Consumed   Capacity
	Changes    []Change
}

// write is one prepared single-item write: checked, its expressions compiled.
type write struct {
	kind   model.ActionKind
	key    model.Item // checked table key
	probe  *entry
	item   model.Item // put: the checked item
	size   int        // put: the checked item's size
	update *expr.Update
	cond   *expr.Condition
	// returnOnFail is ReturnValuesOnConditionCheckFailure=ALL_OLD.
	returnOnFail bool
}

// prepareWrite checks a write and compiles its expressions with one context, as
// DynamoDB validates a whole request before touching any item.
func (e *Engine) prepareWrite(kind model.ActionKind, item, key model.Item, update, condition string,
	names map[string]string, values map[string]model.Value, onFail string, given Given) (*write, *Error) {
	w := &write{kind: kind}
	hasUpdate := kind == model.ActionUpdate && given.has(GivenUpdate, update != "")
	hasCondition := given.has(GivenCondition, condition != "")
	params := []exprParam{{"ConditionExpression", hasCondition, true}}
	if kind == model.ActionUpdate {
		params = []exprParam{{"UpdateExpression", hasUpdate, true}, params[0]}
	}
	if err := checkExpressionParams(names, values, params...); err != nil {
		return nil, err
	}
	switch onFail {
	case "", ReturnNone:
	case ReturnAllOld:
		w.returnOnFail = true
	default:
		return nil, validation("1 validation error detected: Value '%s' at 'returnValuesOnConditionCheckFailure' failed to satisfy constraint: Member must satisfy enum value set: [ALL_OLD, NONE]", onFail)
	}
	ctx, err0 := newContext(names, values)
	if err0 != nil {
		return nil, err0
	}
	var err *Error
	if kind == model.ActionPut {
		if w.item, w.size, err = e.checkItem(item); err != nil {
			return nil, err
		}
		w.key = e.keyOf(w.item)
	} else if w.key, err = e.checkKey(key); err != nil {
		return nil, err
	}
	w.probe = e.probe(w.key)
	if hasUpdate {
		u, xerr := expr.CompileUpdate(update, ctx)
		if xerr != nil {
			return nil, fromExpr(xerr)
		}
		for _, a := range u.Attributes() {
			if a == e.key.Partition.Name || a == e.key.Sort.Name {
				return nil, validation("One or more parameter values were invalid: Cannot update attribute %s. This attribute is part of the key", a)
			}
		}
		w.update = u
	}
	if kind == model.ActionCheck && !hasCondition {
		return nil, validation("1 validation error detected: Value null at 'transactItems.member.conditionCheck.conditionExpression' failed to satisfy constraint: Member must not be null")
	}
	if hasCondition {
		c, xerr := expr.CompileCondition(condition, ctx)
		if xerr != nil {
			return nil, fromExpr(xerr)
		}
		w.cond = c
	}
	if err := fromExpr(ctx.CheckUnused()); err != nil {
		return nil, err
	}
	return w, nil
}

// outcome is a write evaluated against the current item.
type outcome struct {
	old *entry // the stored entry; nil when absent
	// before is the stored item (Engine.itemOf old); nil when absent.
	before model.Item
	after  model.Item // the item to store; nil for a delete or a check
	// afterSize is after's size (model.ItemSize), measured once by checkItem.
	afterSize int
	failed    bool // the condition was false
	size      int  // the size the table write is billed on
}

// evaluate runs a prepared write's condition and update against the item as stored,
// without storing anything.
func (e *Engine) evaluate(w *write) (*outcome, *Error) {
	o := &outcome{}
	if en, ok := e.tree.Get(w.probe); ok {
		o.old, o.before = en, e.itemOf(en)
	}
	before := o.before
	oldSize := 0
	if o.old != nil {
		oldSize = int(o.old.size)
	}
	switch w.kind {
	case model.ActionPut:
		o.after, o.afterSize = w.item, w.size
	case model.ActionUpdate:
		base := before
		if base == nil {
			base = w.key
		}
		if w.update != nil {
			u, err := w.update.Apply(base)
			if err != nil {
				return nil, fromExpr(err)
			}
			base = u
		}
		if err := e.emptyIndexKeyUpdate(base); err != nil {
			return nil, err
		}
		after, size, err := e.checkItem(base)
		if err != nil {
			if err.Message == msgItemTooLarge {
				err = validation(msgUpdateTooLarge)
			}
			return nil, err
		}
		o.after, o.afterSize = after, size
	}
	if o.after != nil {
		o.size = max(oldSize, o.afterSize)
	} else {
		o.size = oldSize
	}
	o.failed = w.cond != nil && !w.cond.Eval(before)
	return o, nil
}

// apply stores an evaluated write and returns its change with the units it cost;
// factor doubles the table write in a transaction.
func (e *Engine) apply(w *write, o *outcome, factor float64) Change {
	ch := Change{Key: w.key}
	if o.old != nil {
		ch.Before = o.before
	}
	var idx indexUnits
	switch w.kind {
	case model.ActionPut, model.ActionUpdate:
		_, idx = e.store(o.after, o.afterSize, true)
		ch.After = o.after
		ch.Table = factor * putUnits(o.size, 0)
	case model.ActionDelete:
		_, idx = e.remove(w.probe)
		ch.Table = factor * deleteUnits(o.size)
	case model.ActionCheck:
		ch.After = ch.Before // a check reads; the item stays as it was
		ch.Table = transactCheckUnits(o.size)
	}
	ch.Indexes, ch.IndexesMoved = idx.units, idx.moved
	return ch
}

// failedUnits is what a write whose condition failed consumes: the table write it
// would have made (no index is written).
//
// A write whose condition is false is billed on the item as it is, not on the
// write it would have made: "If a ConditionExpression evaluates to false during a
// conditional write, DynamoDB still consumes write capacity from the table. The
// amount consumed is dependent on the size of the existing item (or a minimum of
// 1)" (WorkingWithItems.html, "Conditional writes"; ProvisionedThroughput.html says
// the same). So a failed PutItem on an absent item costs 1 WCU whatever its size,
// and a failed UpdateItem costs the stored item's size, not the updated one's.
func failedUnits(w *write, o *outcome, factor float64) float64 {
	existing := 0
	if o.old != nil {
		existing = int(o.old.size)
	}
	if w.kind == model.ActionCheck {
		return transactCheckUnits(existing)
	}
	return factor * writeUnits(max(existing, 1))
}

func changeCapacity(chs []Change) Capacity {
	var c Capacity
	for _, ch := range chs {
		c.Table.Write += ch.Table
		for name, u := range ch.Indexes {
			// Like ConsumedCapacity, name only the indexes the write consumed on.
			if u == 0 {
				continue
			}
			if c.Indexes == nil {
				c.Indexes = map[string]Units{}
			}
			s := c.Indexes[name]
			s.Write += u
			c.Indexes[name] = s
		}
	}
	return c
}

// checkReturnValues checks ReturnValues against what the operation allows
// (API_PutItem.html, API_DeleteItem.html: NONE or ALL_OLD; UpdateItem: all five).
func checkReturnValues(rv string, update bool) *Error {
	switch rv {
	case "", ReturnNone, ReturnAllOld:
		return nil
	case ReturnUpdatedOld, ReturnAllNew, ReturnUpdatedNew:
		if update {
			return nil
		}
		return validation("ReturnValues can only be ALL_OLD or NONE")
	}
	return validation("1 validation error detected: Value '%s' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]", rv)
}

// single runs one prepared single-item write: evaluate, fail or apply, and pick the
// ReturnValues.
func (e *Engine) single(w *write, rv string) (*WriteOutput, *Error) {
	o, err := e.evaluate(w)
	if err != nil {
		return nil, err
	}
	out := &WriteOutput{}
	if o.failed {
		out.Consumed.Table.Write = failedUnits(w, o, 1)
		ce := &Error{Type: ConditionalCheckFailedException, Message: msgConditionFailed}
		if w.returnOnFail && o.old != nil {
			ce.Item = o.before
		}
		return out, ce
	}
	ch := e.apply(w, o, 1)
	out.Changes = []Change{ch}
	out.Consumed = changeCapacity(out.Changes)
	out.Attributes = returnValues(rv, ch.Before, ch.After, w.update)
	return out, nil
}

// returnValues picks what ReturnValues asks for. UPDATED_OLD and UPDATED_NEW hold
// only the document paths the update changed, as they were before or are after
// (API_UpdateItem.html "ReturnValues").
func returnValues(rv string, before, after model.Item, u *expr.Update) model.Item {
	switch rv {
	case ReturnAllOld:
		return before
	case ReturnAllNew:
		return after
	case ReturnUpdatedOld, ReturnUpdatedNew:
		src := before
		if rv == ReturnUpdatedNew {
			src = after
		}
		if u == nil || src == nil {
			return nil
		}
		out := expr.ProjectPaths(src, u.Paths())
		if len(out) == 0 {
			return nil
		}
		return out
	}
	return nil
}

// PutItem writes a whole item, replacing any item with its key.
func (e *Engine) PutItem(in PutItemInput) (*WriteOutput, error) {
	if err := checkReturnValues(in.ReturnValues, false); err != nil {
		return nil, err
	}
	w, err := e.prepareWrite(model.ActionPut, in.Item, nil, "", in.ConditionExpression,
		in.ExpressionAttributeNames, in.ExpressionAttributeValues, in.ReturnValuesOnConditionCheckFailure, in.Given)
	if err != nil {
		return nil, err
	}
	out, err := e.single(w, in.ReturnValues)
	return out, asError(err)
}

// UpdateItem edits an item's attributes, creating the item when none has the key.
func (e *Engine) UpdateItem(in UpdateItemInput) (*WriteOutput, error) {
	if err := checkReturnValues(in.ReturnValues, true); err != nil {
		return nil, err
	}
	w, err := e.prepareWrite(model.ActionUpdate, nil, in.Key, in.UpdateExpression, in.ConditionExpression,
		in.ExpressionAttributeNames, in.ExpressionAttributeValues, in.ReturnValuesOnConditionCheckFailure, in.Given)
	if err != nil {
		return nil, err
	}
	out, err := e.single(w, in.ReturnValues)
	return out, asError(err)
}

// DeleteItem deletes an item by key; deleting a missing item is not an error.
func (e *Engine) DeleteItem(in DeleteItemInput) (*WriteOutput, error) {
	if err := checkReturnValues(in.ReturnValues, false); err != nil {
		return nil, err
	}
	w, err := e.prepareWrite(model.ActionDelete, nil, in.Key, "", in.ConditionExpression,
		in.ExpressionAttributeNames, in.ExpressionAttributeValues, in.ReturnValuesOnConditionCheckFailure, in.Given)
	if err != nil {
		return nil, err
	}
	out, err := e.single(w, in.ReturnValues)
	return out, asError(err)
}

// WriteRequest is one BatchWriteItem request: a Put (Item set) or a Delete (Key set).
type WriteRequest struct {
	Item model.Item
	Key  model.Item
}

// BatchWriteItem puts and deletes up to 25 items, with no conditions; each item's
// write is billed on its own (API_BatchWriteItem.html). Every request is checked
// before any is applied.
func (e *Engine) BatchWriteItem(reqs []WriteRequest) (*WriteOutput, error) {
	out, err := e.batchWriteItem(reqs)
	return out, asError(err)
}

func (e *Engine) batchWriteItem(reqs []WriteRequest) (*WriteOutput, *Error) {
	if err := checkBatchWriteLength(map[string][]WriteRequest{e.table.Name: reqs}); err != nil {
		return nil, err
	}
	ws := make([]*write, len(reqs))
	seen := map[[2]string]bool{}
	for i, r := range reqs {
		var w *write
		var err *Error
		switch {
		case r.Item != nil && r.Key == nil:
			w, err = e.prepareWrite(model.ActionPut, r.Item, nil, "", "", nil, nil, "", 0)
		case r.Key != nil && r.Item == nil:
			w, err = e.prepareWrite(model.ActionDelete, nil, r.Key, "", "", nil, nil, "", 0)
		default:
			err = validation("Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes: a write request is a PutRequest or a DeleteRequest")
		}
		if err != nil {
			return nil, err
		}
		k := [2]string{w.probe.pk, w.probe.sk}
		if seen[k] {
			return nil, validation(msgDuplicateKeys)
		}
		seen[k] = true
		ws[i] = w
	}
	out := &WriteOutput{}
	for _, w := range ws {
		o, err := e.evaluate(w)
		if err != nil {
			return nil, err
		}
		out.Changes = append(out.Changes, e.apply(w, o, 1))
	}
	out.Consumed = changeCapacity(out.Changes)
	return out, nil
}

// cancelled is the TransactionCanceledException for these reasons, one per action.
func cancelled(reasons []CancellationReason) *Error {
	codes := make([]string, len(reasons))
	for i, r := range reasons {
		codes[i] = r.Code
	}
	return &Error{Type: TransactionCanceledException, Reasons: reasons,
		Message: "Transaction cancelled, please refer cancellation reasons for specific reasons [" + strings.Join(codes, ", ") + "]"}
}

// TransactWriteItem is one action of a TransactWriteItems request. Kind is put
// (Item), update (Key, UpdateExpression), delete (Key) or check (Key,
// ConditionExpression).
type TransactWriteItem struct {
	Kind                                model.ActionKind
	Item                                model.Item
	Key                                 model.Item
	UpdateExpression                    string
	ConditionExpression                 string
	ExpressionAttributeNames            map[string]string
	ExpressionAttributeValues           map[string]model.Value
	ReturnValuesOnConditionCheckFailure string
	Given                               Given // GivenUpdate, GivenCondition
}

// TransactWriteItems applies up to 100 actions all or nothing
// (transaction-apis.html). When a condition fails nothing is written and the error is
// a TransactionCanceledException with one reason per action in request order; its
// output still carries the capacity the attempt consumed.
func (e *Engine) TransactWriteItems(items []TransactWriteItem) (*WriteOutput, error) {
	out, err := e.transactWriteItems(items)
	return out, asError(err)
}

func (e *Engine) transactWriteItems(items []TransactWriteItem) (*WriteOutput, *Error) {
	if err := checkTransactionLength(len(items)); err != nil {
		return nil, err
	}
	ws := make([]*write, len(items))
	reasons := make([]CancellationReason, len(ws))
	failed := false
	seen := map[[2]string]bool{}
	for i, it := range items {
		switch it.Kind {
		case model.ActionPut, model.ActionUpdate, model.ActionDelete, model.ActionCheck:
		default:
			return nil, validation("TransactItems can only contain one of Check, Put, Update or Delete")
		}
		// A key attribute of another type cancels the transaction with the reason
		// on its action, where an empty key value or a bad expression refuses the
		// whole request (the conformance suite's captures of real DynamoDB,
		// "TransactWriteItems — exact error messages": a Put's item with the
		// PutItem message, another action's key with "The provided key element
		// does not match the schema").
		var keyErr *Error
		if it.Kind == model.ActionPut {
			keyErr = e.keyTypeError(it.Item)
		} else {
			keyErr = e.keyShapeError(it.Key)
		}
		if keyErr != nil {
			reasons[i] = CancellationReason{Code: "ValidationError", Message: keyErr.Message}
			failed = true
			continue
		}
		w, err := e.prepareWrite(it.Kind, it.Item, it.Key, it.UpdateExpression, it.ConditionExpression,
			it.ExpressionAttributeNames, it.ExpressionAttributeValues, it.ReturnValuesOnConditionCheckFailure, it.Given)
		if err != nil {
			return nil, err
		}
		k := [2]string{w.probe.pk, w.probe.sk}
		if seen[k] {
			return nil, validation(msgTransactSameItem)
		}
		seen[k] = true
		ws[i] = w
	}
	if err := checkTransactionBytes(TransactWriteBytes(items)); err != nil {
		return nil, err
	}
	outs := make([]*outcome, len(ws))
	var attempted float64
	for i, w := range ws {
		if w == nil {
			continue // refused above, its reason set
		}
		o, err := e.evaluate(w)
		if err != nil && err.wholeRequest {
			return nil, err
		}
		if err != nil {
			reasons[i] = CancellationReason{Code: "ValidationError", Message: err.Message}
			failed = true
			continue
		}
		outs[i] = o
		attempted += failedUnits(w, o, transactWriteFactor)
		reasons[i] = CancellationReason{Code: "None"}
		if o.failed {
			failed = true
			reasons[i] = CancellationReason{Code: "ConditionalCheckFailed", Message: msgConditionFailed}
			if w.returnOnFail && o.old != nil {
				reasons[i].Item = o.before
			}
		}
	}
	if failed {
		out := &WriteOutput{Consumed: Capacity{Table: Units{Write: attempted}}}
		return out, cancelled(reasons)
	}
	out := &WriteOutput{}
	for i, w := range ws {
		out.Changes = append(out.Changes, e.apply(w, outs[i], transactWriteFactor))
	}
	out.Consumed = changeCapacity(out.Changes)
	return out, nil
}
