package serve

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"stwb/engine"
	"stwb/model"
	"stwb/partiql"
	"stwb/throttle"
)

// Throttling and injected faults (stwb serve --throttle, --faults): package
// throttle holds the limits and the fault stream; this file asks it, at the one
// place each operation knows what it consumed. With neither set, each hook is one
// nil test.

// itemWrites are the operations that write items: under --throttle they run on a
// copy of each table's engine, kept only when the write is let through, so that a
// throttled write leaves nothing written.
var itemWrites = map[string]bool{"PutItem": true, "UpdateItem": true, "DeleteItem": true,
	"BatchWriteItem": true, "TransactWriteItems": true, "ExecuteStatement": true}

// runThrottled runs a write operation on copies of the tables' engines and keeps
// them unless the write was throttled.
func (s *Server) runThrottled(run func(*Server) (any, *apiError)) (any, *apiError) {
	saved := make(map[*table]*engine.Engine, len(s.tables))
	for _, t := range s.tables {
		saved[t] = t.eng
		t.eng = t.eng.Clone()
	}
	out, err := run(s)
	if err != nil && err.throttled != nil {
		for t, e := range saved {
			t.eng = e
		}
	}
	return out, err
}

// chargerOf is table t's Charger, made again when its indexes changed.
func (s *Server) chargerOf(t *table) *throttle.Charger {
	t.chargeMu.Lock()
	defer t.chargeMu.Unlock()
	if t.charger == nil || !t.charger.Serves(t.def) {
		t.charger = throttle.NewCharger(t.def, t.source, t.sourceItems)
	}
	return t.charger
}

// admit asks the limiter whether a request on t taking cs may run.
func (s *Server) admit(t *table, cs []throttle.Charge) *apiError {
	r := s.opts.Throttle.Admit(&t.def, t.arn, cs)
	if r == nil {
		return nil
	}
	return &apiError{status: http.StatusBadRequest, prefix: nsDynamoDB, code: r.Code, message: r.Message, throttled: r.Reasons}
}

// admitKeys: a read of the items at keys of t.
func (s *Server) admitKeys(t *table, keys []model.Item, c engine.Capacity) *apiError {
	return s.admit(t, s.chargerOf(t).Keys(keys, c))
}

// admitWrite: a write on t that changed changes, or (changing nothing) named keys.
func (s *Server) admitWrite(t *table, out *engine.WriteOutput, named []model.Item) *apiError {
	if out == nil {
		return nil
	}
	return s.admit(t, s.chargerOf(t).Writes(out.Changes, named, out.Consumed))
}

// injectFault answers a request with the fault the stream draws for it, if any:
// true when it has answered (or dropped the connection).
func (s *Server) injectFault(w http.ResponseWriter, name string, body []byte) bool {
	transact := name == "TransactWriteItems" || name == "TransactGetItems"
	switch s.opts.Faults.Draw(transact) {
	case throttle.FaultInternal:
		s.writeError(w, &apiError{status: http.StatusInternalServerError, prefix: nsDynamoDB, code: "InternalServerError", message: "Internal server error"})
	case throttle.FaultThrottle:
		s.writeError(w, &apiError{status: http.StatusBadRequest, prefix: nsDynamoDB, code: throttle.ThrottlingException, message: "Rate of requests exceeds the allowed throughput."})
	case throttle.FaultDrop:
		// The connection closes with no answer, as when the network fails.
		panic(http.ErrAbortHandler)
	case throttle.FaultConflict:
		var in struct{ TransactItems []json.RawMessage }
		if json.Unmarshal(body, &in) != nil || len(in.TransactItems) == 0 {
			return false // not a transaction DynamoDB would run: answered as it is
		}
		reasons := make([]engine.CancellationReason, len(in.TransactItems))
		codes := make([]string, len(reasons))
		for i := range reasons {
			reasons[i].Code = "None"
		}
		// Another transaction holds the first item (transaction-apis.html).
		reasons[0] = engine.CancellationReason{Code: "TransactionConflict", Message: "Transaction is ongoing for the item"}
		for i, r := range reasons {
			codes[i] = r.Code
		}
		s.writeError(w, &apiError{status: http.StatusBadRequest, prefix: nsDynamoDB, code: engine.TransactionCanceledException,
			message: "Transaction cancelled, please refer cancellation reasons for specific reasons [" + strings.Join(codes, ", ") + "]", reasons: reasons})
	default:
		return false
	}
	return true
}

// appendThrottling writes a throttled error's reasons. DynamoDB's model names the
// member throttlingReasons on ThrottlingException and ThrottlingReasons on
// ProvisionedThroughputExceededException and RequestLimitExceeded; an SDK reads
// only the name its model gives (aws-sdk-go-v2 service/dynamodb schemas).
func appendThrottling(b []byte, code string, rs []throttle.Reason) []byte {
	if code == throttle.ThrottlingException {
		b = append(b, `,"throttlingReasons":`...)
	} else {
		b = append(b, `,"ThrottlingReasons":`...)
	}
	j, _ := json.Marshal(slices.Clip(rs))
	return append(b, j...)
}

// Batches and transactions under --throttle. DynamoDB throttles a batch item by
// item: "If any requested operations fail because the table's provisioned
// throughput is exceeded ..., the failed operations are returned in the
// UnprocessedItems response parameter" (API_BatchWriteItem.html; BatchGetItem's
// UnprocessedKeys the same, API_BatchGetItem.html), and the request fails only
// when none of its items could be processed (throttle.BatchRefusal). A
// transaction is all or nothing: DynamoDB cancels it when "there is insufficient
// provisioned capacity for the transaction to be completed", each throttled
// action's cancellation reason saying why (API_TransactWriteItems.html, "Errors").

// batchWriteThrottled runs a BatchWriteItem's requests on table t one by one, each
// on a copy of *eng kept only when the limiter lets its write through. refused[j]
// is request j's refusal, nil when it ran; res sums the requests that ran.
func (s *Server) batchWriteThrottled(t *table, eng **engine.Engine, reqs []engine.WriteRequest) (*engine.WriteOutput, []*throttle.Refusal, error) {
	// A batch DynamoDB refuses (a duplicate key, an item too large) is refused
	// whole, before any item runs.
	if _, err := (*eng).Clone().BatchWriteItem(reqs); err != nil {
		return nil, nil, err
	}
	res := &engine.WriteOutput{}
	refused := make([]*throttle.Refusal, len(reqs))
	for j := range reqs {
		trial := (*eng).Clone()
		one, err := trial.BatchWriteItem(reqs[j : j+1])
		if err != nil {
			return nil, nil, err
		}
		if refused[j] = s.opts.Throttle.Admit(&t.def, t.arn, s.chargerOf(t).Writes(one.Changes, nil, one.Consumed)); refused[j] != nil {
			continue
		}
		*eng = trial
		res.Changes = append(res.Changes, one.Changes...)
		res.Consumed = res.Consumed.Add(one.Consumed)
	}
	return res, refused, nil
}

// batchGetThrottled reads a BatchGetItem's keys of table t one by one, each let
// through or not by the limiter: refused[j] is key j's refusal, nil when it was
// read; out holds the items read and their capacity.
func (s *Server) batchGetThrottled(t *table, in engine.BatchGetItemInput) (*engine.BatchGetItemOutput, []*throttle.Refusal, error) {
	if _, err := t.eng.BatchGetItem(in); err != nil {
		return nil, nil, err // refused whole, as above
	}
	out := &engine.BatchGetItemOutput{}
	refused := make([]*throttle.Refusal, len(in.Keys))
	for j := range in.Keys {
		one := in
		one.Keys = in.Keys[j : j+1]
		res, err := t.eng.BatchGetItem(one)
		if err != nil {
			return nil, nil, err
		}
		if refused[j] = s.opts.Throttle.Admit(&t.def, t.arn, s.chargerOf(t).Keys(one.Keys, res.Consumed)); refused[j] != nil {
			continue
		}
		out.Responses = append(out.Responses, res.Responses...)
		out.Consumed = out.Consumed.Add(res.Consumed)
	}
	return out, refused, nil
}

// batchRefused is the answer to a batch none of whose items ran, every item
// refused as rs (throttle.BatchRefusal).
func batchRefused(rs []*throttle.Refusal) *apiError {
	r := throttle.BatchRefusal(rs)
	return &apiError{status: http.StatusBadRequest, prefix: nsDynamoDB, code: r.Code, message: r.Message, throttled: r.Reasons}
}

// transactionPart is one table's share of a transaction under --throttle: the
// charges of each of its actions, and each action's place in the request.
type transactionPart struct {
	t     *table
	parts [][]throttle.Charge
	at    []int
}

// writeParts is the charges of each of a table's transaction actions, from the
// changes its engine made (one per action, in order).
func (s *Server) writeParts(t *table, n int, changes []engine.Change) [][]throttle.Charge {
	parts := make([][]throttle.Charge, n)
	for j := range min(n, len(changes)) {
		parts[j] = s.chargerOf(t).Writes(changes[j:j+1], nil, engine.Capacity{})
	}
	return parts
}

// admitTransaction decides a transaction of n actions, all or nothing: when any
// action would be throttled nothing is taken, and the answer is the cancellation
// reasons (the throttled actions' ProvisionedThroughputExceeded or
// ThrottlingError, throttle.Refusal.Cancellation; the others None); otherwise
// every action's units are taken and reasons is nil.
func (s *Server) admitTransaction(tps []transactionPart, n int) []engine.CancellationReason {
	var reasons []engine.CancellationReason
	for _, tp := range tps {
		for j, r := range s.opts.Throttle.Check(&tp.t.def, tp.t.arn, tp.parts) {
			if r == nil {
				continue
			}
			if reasons == nil {
				reasons = make([]engine.CancellationReason, n)
			}
			code, msg := r.Cancellation()
			reasons[tp.at[j]] = engine.CancellationReason{Code: code, Message: msg}
		}
	}
	if reasons != nil {
		for i := range reasons {
			if reasons[i].Code == "" {
				reasons[i].Code = "None"
			}
		}
		return reasons
	}
	for _, tp := range tps {
		s.opts.Throttle.Take(&tp.t.def, tp.t.arn, slices.Concat(tp.parts...))
	}
	return nil
}

// throttleCancelled reports whether a transaction was cancelled because it was
// throttled: a state that passes, so its ClientRequestToken keeps no answer and a
// retry with the same token runs it again.
func throttleCancelled(err *apiError) bool {
	return slices.ContainsFunc(err.reasons, func(r engine.CancellationReason) bool {
		return r.Code == throttle.CodeProvisioned || r.Code == throttle.CodeThrottling
	})
}

// readParts is the charges of each of a table's transaction reads (a
// TransactGetItems' or an ExecuteTransaction's SELECTs) that consumed cp.
func (s *Server) readParts(g *group[engine.TransactGet], cp engine.Capacity) transactionPart {
	keys := make([]model.Item, len(g.actions))
	for j, a := range g.actions {
		keys[j] = a.Key
	}
	return transactionPart{t: g.t, parts: s.chargerOf(g.t).KeysEach(keys, cp), at: g.at}
}

// PartiQL statements are throttled as the operations they run as
// (engine/statement.go): a SELECT as its Query or Scan (in a batch, its GetItem),
// a write as its PutItem, UpdateItem or DeleteItem, a failed condition's units on
// the key it named.

// statementCharges is what a statement on t that ran as out takes, params its
// parameters.
func (s *Server) statementCharges(t *table, st *partiql.Statement, params []model.Value, out *engine.StatementOutput) []throttle.Charge {
	if out == nil {
		return nil
	}
	switch out.Operation {
	case model.OpScan:
		return s.chargerOf(t).Scan(st.Index, out.Consumed)
	case model.OpQuery:
		var items []model.Item
		if out.Page != nil {
			for _, v := range out.Page.Visits {
				items = append(items, v.Item)
			}
		}
		return s.chargerOf(t).Visited(st.Index, items, out.Consumed)
	}
	var named []model.Item
	if w, err := t.eng.StatementWrite(st, params); err == nil {
		if named = []model.Item{w.Key}; w.Item != nil {
			named[0] = w.Item
		}
	}
	return s.chargerOf(t).Writes(out.Changes, named, out.Consumed)
}

// statementThrottled is a batch statement's error when the limiter refused it
// (throttle.Refusal.StatementError).
func statementThrottled(r *throttle.Refusal) *apiError {
	code, msg := r.StatementError()
	return &apiError{status: http.StatusBadRequest, prefix: nsDynamoDB, code: code, message: msg}
}
