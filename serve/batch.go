package serve

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"stwb/engine"
	"stwb/model"
	"stwb/throttle"
)

// BatchGetItem, BatchWriteItem, TransactGetItems and TransactWriteItems: requests
// over several tables. Each table's part runs on its engine; a write over several
// tables runs on copies of their engines (engine.Clone shares storage until
// written) that replace the originals only when every part succeeded, so the
// request is all or nothing across tables too.

type keysAndAttributes struct {
	Keys                 []rawItem
	ProjectionExpression *string
	ConsistentRead       bool
	AttributesToGet      []string
	exprMembers
}

type batchGetInput struct {
	RequestItems           map[string]keysAndAttributes
	ReturnConsumedCapacity *string
}

func batchGetItem(s *Server, in *batchGetInput) (any, *apiError) {
	var v violations
	mode := capacityMode(&v, in.ReturnConsumedCapacity)
	if in.RequestItems == nil {
		v.add("Value null at 'requestItems' failed to satisfy constraint: Member must not be null")
	} else if len(in.RequestItems) == 0 {
		return nil, requestItemsRequired("BatchGetItem")
	}
	counts := make(map[string]int, len(in.RequestItems))
	for _, name := range slices.Sorted(maps.Keys(in.RequestItems)) {
		n := name
		v.checkName(&n, "requestItems."+name+".member.tableName")
		counts[name] = len(in.RequestItems[name].Keys)
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	if err := engine.CheckBatchGetLength(counts); err != nil {
		return nil, fromEngine(err)
	}
	out := struct {
		Responses        map[string][]wireItem
		UnprocessedKeys  map[string]any
		ConsumedCapacity []*consumedCapacity `json:",omitempty"`
	}{Responses: map[string][]wireItem{}, UnprocessedKeys: map[string]any{}}
	var refusals []*throttle.Refusal // under --throttle, every key's that was refused
	read := 0                        // and the number read
	for _, name := range slices.Sorted(maps.Keys(in.RequestItems)) {
		ka := in.RequestItems[name]
		t, ok := s.tables[name]
		if !ok {
			return nil, itemTableNotFound()
		}
		ein := engine.BatchGetItemInput{ConsistentRead: ka.ConsistentRead, ExpressionAttributeNames: ka.ExpressionAttributeNames}
		for _, raw := range ka.Keys {
			k, err := readItem(raw, "Keys")
			if err != nil {
				return nil, err
			}
			ein.Keys = append(ein.Keys, k)
		}
		proj := legacyProjection{AttributesToGet: ka.AttributesToGet}
		if err := proj.apply(&ein.ProjectionExpression, &ein.ExpressionAttributeNames, &ein.Given, ka.ProjectionExpression); err != nil {
			return nil, err
		}
		var res *engine.BatchGetItemOutput
		var err error
		if s.opts.Throttle == nil {
			res, err = t.eng.BatchGetItem(ein)
		} else {
			var refused []*throttle.Refusal
			if res, refused, err = s.batchGetThrottled(t, ein); err == nil {
				if left := unprocessedKeys(ka, refused); left != nil {
					out.UnprocessedKeys[name] = left
				}
				refusals = appendRefused(refusals, refused)
				read += len(ein.Keys) - countRefused(refused)
			}
		}
		if err != nil {
			return nil, fromEngine(err)
		}
		items := make([]wireItem, len(res.Responses))
		for i, it := range res.Responses {
			items[i] = wireItem(it)
		}
		out.Responses[name] = items
		if c := capacityOf(mode, t, res.Consumed); c != nil {
			out.ConsumedCapacity = append(out.ConsumedCapacity, c)
		}
	}
	if len(refusals) > 0 && read == 0 {
		return nil, batchRefused(refusals)
	}
	return out, nil
}

// unprocessedKeys is a table's entry in UnprocessedKeys: the keys refused, with
// the request's other members, "in the same form as RequestItems, so the value can
// be provided directly to a subsequent BatchGetItem operation"
// (API_BatchGetItem.html); nil when every key was read.
func unprocessedKeys(ka keysAndAttributes, refused []*throttle.Refusal) any {
	var keys []rawItem
	for j, r := range refused {
		if r != nil {
			keys = append(keys, ka.Keys[j])
		}
	}
	if keys == nil {
		return nil
	}
	return struct {
		Keys                     []rawItem
		ProjectionExpression     *string           `json:",omitempty"`
		ExpressionAttributeNames map[string]string `json:",omitempty"`
		AttributesToGet          []string          `json:",omitempty"`
		ConsistentRead           bool              `json:",omitempty"`
	}{keys, ka.ProjectionExpression, ka.ExpressionAttributeNames, ka.AttributesToGet, ka.ConsistentRead}
}

// appendRefused appends the refusals of rs (nil for an item that ran).
func appendRefused(to, rs []*throttle.Refusal) []*throttle.Refusal {
	for _, r := range rs {
		if r != nil {
			to = append(to, r)
		}
	}
	return to
}

func countRefused(rs []*throttle.Refusal) int {
	n := 0
	for _, r := range rs {
		if r != nil {
			n++
		}
	}
	return n
}

// requestItemsRequired is DynamoDB's answer to an empty RequestItems ({}), given
// alone, in the words real DynamoDB answered in us-east-1 (the conformance suite's
// captures, "BatchGetItem — exact error messages", "BatchWriteItem — exact error
// messages"; the older "Value '{}' at 'requestItems' ... length greater than or
// equal to 1" is gone from there).
func requestItemsRequired(op string) *apiError {
	return validationError("The requestItems parameter is required for %s", op)
}

type writeRequest struct {
	PutRequest    *struct{ Item rawItem }
	DeleteRequest *struct{ Key rawItem }
}

type batchWriteInput struct {
	RequestItems                map[string][]writeRequest
	ReturnConsumedCapacity      *string
	ReturnItemCollectionMetrics *string
}

func batchWriteItem(s *Server, in *batchWriteInput) (any, *apiError) {
	var v violations
	mode := capacityMode(&v, in.ReturnConsumedCapacity)
	v.checkEnum(in.ReturnItemCollectionMetrics, "returnItemCollectionMetrics", "SIZE", "NONE")
	if in.RequestItems == nil {
		v.add("Value null at 'requestItems' failed to satisfy constraint: Member must not be null")
	} else if len(in.RequestItems) == 0 {
		return nil, requestItemsRequired("BatchWriteItem")
	}
	for _, name := range slices.Sorted(maps.Keys(in.RequestItems)) {
		n := name
		v.checkName(&n, "requestItems."+name+".member.tableName")
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	type part struct {
		t    *table
		eng  *engine.Engine
		reqs []engine.WriteRequest
	}
	// Every request is read, and the request's length checked (DynamoDB's
	// constraint on RequestItems, engine.CheckBatchWriteLength), before any table
	// is looked up.
	requests := make(map[string][]engine.WriteRequest, len(in.RequestItems))
	for _, name := range slices.Sorted(maps.Keys(in.RequestItems)) {
		reqs := make([]engine.WriteRequest, 0, len(in.RequestItems[name]))
		for _, r := range in.RequestItems[name] {
			var wr engine.WriteRequest
			var err *apiError
			switch {
			case r.PutRequest != nil && r.DeleteRequest == nil:
				if wr.Item, err = readItem(r.PutRequest.Item, "Item"); err == nil && wr.Item == nil {
					err = validationError("1 validation error detected: Value null at 'requestItems.%s.member.putRequest.item' failed to satisfy constraint: Member must not be null", name)
				}
			case r.DeleteRequest != nil && r.PutRequest == nil:
				if wr.Key, err = readItem(r.DeleteRequest.Key, "Key"); err == nil && wr.Key == nil {
					err = validationError("1 validation error detected: Value null at 'requestItems.%s.member.deleteRequest.key' failed to satisfy constraint: Member must not be null", name)
				}
			default:
				err = validationError("Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes")
			}
			if err != nil {
				return nil, err
			}
			reqs = append(reqs, wr)
		}
		requests[name] = reqs
	}
	if err := engine.CheckBatchWriteLength(requests); err != nil {
		return nil, fromEngine(err)
	}
	var parts []part
	for _, name := range slices.Sorted(maps.Keys(requests)) {
		t, ok := s.tables[name]
		if !ok {
			return nil, itemTableNotFound()
		}
		parts = append(parts, part{t: t, eng: t.eng, reqs: requests[name]})
	}
	if len(parts) > 1 {
		for i := range parts {
			parts[i].eng = parts[i].eng.Clone()
		}
	}
	out := struct {
		UnprocessedItems      map[string]any
		ConsumedCapacity      []*consumedCapacity                 `json:",omitempty"`
		ItemCollectionMetrics map[string][]*itemCollectionMetrics `json:",omitempty"`
	}{UnprocessedItems: map[string]any{}}
	changes := make([][]engine.Change, len(parts))
	ran := make([][]*throttle.Refusal, len(parts)) // under --throttle: each request's refusal, nil when it ran
	var refusals []*throttle.Refusal
	written := 0
	for i := range parts {
		p := &parts[i]
		var res *engine.WriteOutput
		var err error
		if s.opts.Throttle == nil {
			res, err = p.eng.BatchWriteItem(p.reqs)
		} else if res, ran[i], err = s.batchWriteThrottled(p.t, &p.eng, p.reqs); err == nil {
			name := p.t.def.Name
			for j, r := range ran[i] {
				if r != nil {
					left, _ := out.UnprocessedItems[name].([]any)
					out.UnprocessedItems[name] = append(left, unprocessedWrite(in.RequestItems[name][j]))
				}
			}
			refusals = appendRefused(refusals, ran[i])
			written += len(p.reqs) - countRefused(ran[i])
		}
		if err != nil {
			return nil, fromEngine(err)
		}
		changes[i] = res.Changes
		if c := capacityOf(mode, p.t, res.Consumed); c != nil {
			out.ConsumedCapacity = append(out.ConsumedCapacity, c)
		}
	}
	if len(refusals) > 0 && written == 0 {
		return nil, batchRefused(refusals)
	}
	for i, p := range parts {
		p.t.eng = p.eng
		s.recordChanges(p.t, changes[i], false)
		for j, r := range p.reqs {
			if ran[i] != nil && ran[i][j] != nil {
				continue // unprocessed: no metrics
			}
			k := r.Key
			if k == nil {
				k = r.Item
			}
			if m := collectionMetrics(in.ReturnItemCollectionMetrics, p.t, k); m != nil {
				if out.ItemCollectionMetrics == nil {
					out.ItemCollectionMetrics = map[string][]*itemCollectionMetrics{}
				}
				out.ItemCollectionMetrics[p.t.def.Name] = append(out.ItemCollectionMetrics[p.t.def.Name], m)
			}
		}
	}
	return out, nil
}

// unprocessedWrite is a request in UnprocessedItems, as it was sent: "in the same
// form as RequestItems" (API_BatchWriteItem.html).
func unprocessedWrite(r writeRequest) any {
	return struct {
		PutRequest    *struct{ Item rawItem } `json:",omitempty"`
		DeleteRequest *struct{ Key rawItem }  `json:",omitempty"`
	}{r.PutRequest, r.DeleteRequest}
}

type transactGetInput struct {
	TransactItems []struct {
		Get *struct {
			TableName            string
			Key                  rawItem
			ProjectionExpression *string
			exprMembers
		}
	}
	ReturnConsumedCapacity *string
}

func transactGetItems(s *Server, in *transactGetInput) (any, *apiError) {
	var v violations
	mode := capacityMode(&v, in.ReturnConsumedCapacity)
	if err := v.err(); err != nil {
		return nil, err
	}
	if in.TransactItems == nil {
		return nil, validationError("1 validation error detected: Value null at 'transactItems' failed to satisfy constraint: Member must not be null")
	}
	if err := engine.CheckTransactionLength(in.TransactItems, "TransactGetItem"); err != nil {
		return nil, fromEngine(err)
	}
	var names violations
	for i, ti := range in.TransactItems {
		if ti.Get != nil {
			names.checkName(&ti.Get.TableName, fmt.Sprintf("transactItems.%d.member.get.tableName", i+1))
		}
	}
	if err := names.err(); err != nil {
		return nil, err
	}
	groups := newGroups[engine.TransactGet]()
	for i, ti := range in.TransactItems {
		g := ti.Get
		if g == nil {
			return nil, validationError("1 validation error detected: Value null at 'transactItems.%d.member.get' failed to satisfy constraint: Member must not be null", i+1)
		}
		t, err := s.lookup(g.TableName)
		if err != nil {
			return nil, err
		}
		key, err := readItem(g.Key, "Key")
		if err != nil {
			return nil, err
		}
		tg := engine.TransactGet{Key: key, ExpressionAttributeNames: g.ExpressionAttributeNames}
		if g.ProjectionExpression != nil {
			tg.ProjectionExpression, tg.Given = *g.ProjectionExpression, engine.GivenProjection
		}
		groups.add(t, i, tg)
	}
	responses := make([]struct {
		Item *wireItem `json:",omitempty"` // {} for an item the projection left empty
	}, len(in.TransactItems))
	reasons := make([]engine.CancellationReason, len(in.TransactItems))
	var caps []*consumedCapacity
	var cancel *engine.Error
	var tps []transactionPart
	for _, g := range groups.list {
		res, err := g.t.eng.TransactGetItems(g.actions)
		if err != nil {
			ae := fromEngine(err)
			if ae.code != engine.TransactionCanceledException {
				return nil, ae
			}
			for j, r := range ae.reasons {
				reasons[g.at[j]] = r
			}
			cancel = &engine.Error{}
			continue
		}
		if s.opts.Throttle != nil {
			tps = append(tps, s.readParts(g, res.Consumed))
		}
		for j, it := range res.Responses {
			if it != nil {
				w := wireItem(it)
				responses[g.at[j]].Item = &w
			}
			reasons[g.at[j]] = engine.CancellationReason{Code: "None"}
		}
		if c := capacityOf(mode, g.t, res.Consumed); c != nil {
			caps = append(caps, c)
		}
	}
	if cancel != nil {
		return nil, cancelledError(reasons)
	}
	if tps != nil {
		if reasons := s.admitTransaction(tps, len(in.TransactItems)); reasons != nil {
			return nil, cancelledError(reasons)
		}
	}
	return struct {
		Responses        any
		ConsumedCapacity []*consumedCapacity `json:",omitempty"`
	}{responses, caps}, nil
}

// cancelledError is a TransactionCanceledException over several tables' reasons.
func cancelledError(reasons []engine.CancellationReason) *apiError {
	for i := range reasons {
		if reasons[i].Code == "" {
			reasons[i].Code = "None"
		}
	}
	codes := make([]string, len(reasons))
	for i, r := range reasons {
		codes[i] = r.Code
	}
	return &apiError{status: 400, prefix: nsDynamoDB, code: engine.TransactionCanceledException, reasons: reasons,
		message: "Transaction cancelled, please refer cancellation reasons for specific reasons [" + joinCodes(codes) + "]"}
}

func joinCodes(codes []string) string {
	out := ""
	for i, c := range codes {
		if i > 0 {
			out += ", "
		}
		out += c
	}
	return out
}

// groups gathers a request's actions by table, keeping each one's place.
type groups[A any] struct {
	list []*group[A]
}

type group[A any] struct {
	t       *table
	actions []A
	at      []int // at[j] is actions[j]'s place in the request
}

func newGroups[A any]() *groups[A] { return &groups[A]{} }

func (gs *groups[A]) add(t *table, i int, a A) {
	for _, g := range gs.list {
		if g.t == t {
			g.actions, g.at = append(g.actions, a), append(g.at, i)
			return
		}
	}
	gs.list = append(gs.list, &group[A]{t: t, actions: []A{a}, at: []int{i}})
}

type transactWriteMember struct {
	TableName                           string
	Key                                 rawItem
	Item                                rawItem
	UpdateExpression                    *string
	ConditionExpression                 *string
	ReturnValuesOnConditionCheckFailure *string
	exprMembers
}

type transactWriteItem struct {
	ConditionCheck *transactWriteMember
	Put            *transactWriteMember
	Delete         *transactWriteMember
	Update         *transactWriteMember
}

// actions are the item's four members, each with its kind and its name in a
// member path.
func (ti *transactWriteItem) actions() []struct {
	m      *transactWriteMember
	k      model.ActionKind
	member string
} {
	return []struct {
		m      *transactWriteMember
		k      model.ActionKind
		member string
	}{{ti.ConditionCheck, model.ActionCheck, "conditionCheck"}, {ti.Put, model.ActionPut, "put"},
		{ti.Delete, model.ActionDelete, "delete"}, {ti.Update, model.ActionUpdate, "update"}}
}

type transactWriteInput struct {
	TransactItems               []transactWriteItem
	ReturnConsumedCapacity      *string
	ReturnItemCollectionMetrics *string
	ClientRequestToken          *string
}

func transactWriteItems(s *Server, in *transactWriteInput) (any, *apiError) {
	var v violations
	mode := capacityMode(&v, in.ReturnConsumedCapacity)
	v.checkEnum(in.ReturnItemCollectionMetrics, "returnItemCollectionMetrics", "SIZE", "NONE")
	checkClientToken(&v, in.ClientRequestToken)
	if in.TransactItems == nil {
		v.add("Value null at 'transactItems' failed to satisfy constraint: Member must not be null")
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	return s.idempotentReplay(in.ClientRequestToken, in, func() (any, *apiError) { return s.transactWrite(in, mode) },
		func(first any) any { return s.replayed(in, mode, first) })
}

// checkClientToken checks a ClientRequestToken: 1 to 36 characters, each bound
// its own constraint message (API_TransactWriteItems.html,
// API_ExecuteTransaction.html).
func checkClientToken(v *violations, tok *string) {
	if tok != nil && len(*tok) < 1 {
		v.add("Value '%s' at 'clientRequestToken' failed to satisfy constraint: Member must have length greater than or equal to 1", *tok)
	} else if tok != nil && len(*tok) > 36 {
		v.add("Value '%s' at 'clientRequestToken' failed to satisfy constraint: Member must have length less than or equal to 36", *tok)
	}
}

// idempotent runs a transaction once per ClientRequestToken: with a token seen
// before (tokenCache), the same request gets the first answer again, and run is
// not called.
func (s *Server) idempotent(token *string, in any, run func() (any, *apiError)) (any, *apiError) {
	return s.idempotentReplay(token, in, run, nil)
}

// idempotentReplay is idempotent with the first answer, when replayed, changed by
// replayed (nil: given again as it was).
func (s *Server) idempotentReplay(token *string, in any, run func() (any, *apiError), replayed func(first any) any) (any, *apiError) {
	var digest [32]byte
	if token != nil {
		b, _ := json.Marshal(in)
		digest = requestDigest(b)
		if out, err, ok := s.tokens.replay(*token, digest, s.now()); ok {
			if err == nil && replayed != nil {
				out = replayed(out)
			}
			return out, err
		}
	}
	out, err := run()
	if token != nil && (err == nil || err.code == engine.TransactionCanceledException && !throttleCancelled(err)) {
		s.tokens.store(*token, digest, s.now(), out, err)
	}
	return out, err
}

// transactWriteOutput is TransactWriteItems' answer.
type transactWriteOutput struct {
	ConsumedCapacity      []*consumedCapacity                 `json:",omitempty"`
	ItemCollectionMetrics map[string][]*itemCollectionMetrics `json:",omitempty"`
}

// replayed is the answer to a TransactWriteItems repeated with its
// ClientRequestToken: nothing is written again, and the capacity it reports is
// reads, not writes (API_TransactWriteItems.html "ClientRequestToken": "If the
// ReturnConsumedCapacity parameter is set, then the initial TransactWriteItems call
// returns the amount of write capacity units consumed in making the changes.
// Subsequent TransactWriteItems calls with the same client token return the number
// of read capacity units consumed in reading the item."): a strongly consistent
// read of each item the transaction names, as it is stored now.
func (s *Server) replayed(in *transactWriteInput, mode string, first any) any {
	prev, ok := first.(transactWriteOutput)
	if !ok || (mode != "TOTAL" && mode != "INDEXES") {
		return first
	}
	out := transactWriteOutput{ItemCollectionMetrics: prev.ItemCollectionMetrics}
	type tableRead struct {
		t    *table
		used engine.Capacity
	}
	var reads []*tableRead
	for _, ti := range in.TransactItems {
		for _, c := range ti.actions() {
			if c.m == nil {
				continue
			}
			t, ok := s.tables[c.m.TableName]
			if !ok {
				continue
			}
			raw := c.m.Key
			if c.k == model.ActionPut {
				raw = c.m.Item
			}
			it, err := readItem(raw, "Key")
			if err != nil || it == nil {
				continue
			}
			got, gerr := t.eng.GetItem(engine.GetItemInput{Key: itemKey(t.def, it), ConsistentRead: true})
			if gerr != nil {
				continue
			}
			i := slices.IndexFunc(reads, func(r *tableRead) bool { return r.t == t })
			if i < 0 {
				reads = append(reads, &tableRead{t: t})
				i = len(reads) - 1
			}
			reads[i].used = reads[i].used.Add(got.Consumed)
		}
	}
	for _, r := range reads {
		out.ConsumedCapacity = append(out.ConsumedCapacity, capacityOf(mode, r.t, r.used))
	}
	return out
}

func (s *Server) transactWrite(in *transactWriteInput, mode string) (any, *apiError) {
	if err := engine.CheckTransactionLength(in.TransactItems, "TransactWriteItem"); err != nil {
		return nil, fromEngine(err)
	}
	// Every action's table name is checked, with the action's place and kind in
	// the member path, before any table is looked up (the conformance suite's
	// captures: "Value 'bad!name' at 'transactItems.2.member.update.tableName'").
	var names violations
	for i, ti := range in.TransactItems {
		for _, c := range ti.actions() {
			if c.m != nil {
				names.checkName(&c.m.TableName, fmt.Sprintf("transactItems.%d.member.%s.tableName", i+1, c.member))
			}
		}
	}
	if err := names.err(); err != nil {
		return nil, err
	}
	groups := newGroups[engine.TransactWriteItem]()
	keys := make([]model.Item, len(in.TransactItems))
	tables := make([]*table, len(in.TransactItems))
	for i, ti := range in.TransactItems {
		var m *transactWriteMember
		var kind model.ActionKind
		n := 0
		for _, c := range ti.actions() {
			if c.m != nil {
				m, kind = c.m, c.k
				n++
			}
		}
		switch {
		case n == 0:
			// us-east-1's words, serve's default region (the conformance suite's
			// capture; eu-west-2 answers "1 validation error detected: Value '' at
			// 'transactItems' failed to satisfy constraint: TransactWriteRequest
			// should contain Delete or Put or Update or ConditionCheck").
			return nil, validationError("Invalid Request: TransactWriteRequest should contain Delete or Put or Update request")
		case n > 1:
			return nil, validationError("TransactItems can only contain one of Check, Put, Update or Delete")
		}
		t, err := s.lookup(m.TableName)
		if err != nil {
			return nil, err
		}
		a := engine.TransactWriteItem{Kind: kind, ExpressionAttributeNames: m.ExpressionAttributeNames,
			ReturnValuesOnConditionCheckFailure: str(m.ReturnValuesOnConditionCheckFailure)}
		if kind == model.ActionPut {
			if a.Item, err = readItem(m.Item, "Item"); err != nil {
				return nil, err
			}
			if a.Item == nil {
				return nil, validationError("1 validation error detected: Value null at 'transactItems.%d.member.put.item' failed to satisfy constraint: Member must not be null", i+1)
			}
			keys[i] = a.Item
		} else {
			if a.Key, err = readItem(m.Key, "Key"); err != nil {
				return nil, err
			}
			keys[i] = a.Key
		}
		if m.UpdateExpression != nil && kind == model.ActionUpdate {
			a.UpdateExpression, a.Given = *m.UpdateExpression, a.Given|engine.GivenUpdate
		}
		if m.ConditionExpression != nil {
			a.ConditionExpression, a.Given = *m.ConditionExpression, a.Given|engine.GivenCondition
		}
		if a.ExpressionAttributeValues, err = m.values(); err != nil {
			return nil, err
		}
		tables[i] = t
		groups.add(t, i, a)
	}
	// The 4 MB limit is on the whole transaction, summed over its tables; each
	// table's engine checks only its own part.
	total := 0
	for _, g := range groups.list {
		total += engine.TransactWriteBytes(g.actions)
	}
	if err := engine.CheckTransactionBytes(total); err != nil {
		return nil, fromEngine(err)
	}
	caps, reasons, err := applyTransactWrites(s, groups, len(in.TransactItems), mode)
	if err != nil {
		return nil, err
	}
	if reasons != nil {
		return nil, cancelledError(reasons)
	}
	out := transactWriteOutput{ConsumedCapacity: caps}
	for i, k := range keys {
		if m := collectionMetrics(in.ReturnItemCollectionMetrics, tables[i], k); m != nil {
			if out.ItemCollectionMetrics == nil {
				out.ItemCollectionMetrics = map[string][]*itemCollectionMetrics{}
			}
			name := tables[i].def.Name
			out.ItemCollectionMetrics[name] = append(out.ItemCollectionMetrics[name], m)
		}
	}
	return out, nil
}

// tokenCache holds TransactWriteItems' answers by ClientRequestToken for ten
// minutes (API_TransactWriteItems.html "ClientRequestToken": "A client request
// token is valid for 10 minutes after the first request that uses it is
// completed"): the same token with the same request gets the same answer without
// writing again; with another request, IdempotentParameterMismatchException.
type tokenCache struct {
	entries map[string]tokenEntry
}

type tokenEntry struct {
	digest [32]byte
	at     time.Time
	out    any
	err    *apiError
}

const tokenLifetime = 10 * time.Minute

func newTokenCache() *tokenCache { return &tokenCache{entries: map[string]tokenEntry{}} }

func (c *tokenCache) replay(token string, digest [32]byte, now time.Time) (any, *apiError, bool) {
	for k, e := range c.entries {
		if now.Sub(e.at) > tokenLifetime {
			delete(c.entries, k)
		}
	}
	e, ok := c.entries[token]
	if !ok {
		return nil, nil, false
	}
	if e.digest != digest {
		return nil, &apiError{status: 400, prefix: nsDynamoDB, code: "IdempotentParameterMismatchException",
			message: "The request uses the same client token as a previous, but non-identical request. Do not reuse a client token with different requests, unless the requests are identical."}, true
	}
	return e.out, e.err, true
}

func (c *tokenCache) store(token string, digest [32]byte, now time.Time, out any, err *apiError) {
	c.entries[token] = tokenEntry{digest: digest, at: now, out: out, err: err}
}

// requestDigest identifies a request's content whatever its members' order or
// spacing: the hash of its canonical JSON (decoded and encoded again, keys sorted).
func requestDigest(body []byte) [32]byte {
	var x any
	if json.Unmarshal(body, &x) == nil {
		if b, err := json.Marshal(x); err == nil {
			body = b
		}
	}
	return sha256.Sum256(body)
}
