package serve

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"stwb/engine"
	"stwb/model"
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
	"BatchWriteItem": true, "TransactWriteItems": true}

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
