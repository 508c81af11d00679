package serve

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"

	"stwb/dynamojson"
	"stwb/engine"
	"stwb/model"
	"stwb/partiql"
)

// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction: PartiQL
// statements, each parsed (package partiql) and run by the engine as the
// operation it stands for (engine/statement.go), so that its items, capacity and
// errors are that operation's. The wire shapes are API_ExecuteStatement.html,
// API_BatchExecuteStatement.html and API_ExecuteTransaction.html.

type executeStatementInput struct {
	Statement                           *string
	Parameters                          []json.RawMessage
	ConsistentRead                      bool
	NextToken                           *string
	ReturnConsumedCapacity              *string
	Limit                               *int
	ReturnValuesOnConditionCheckFailure *string
}

// checkStatement checks a Statement member's length (1 to 8192,
// API_ExecuteStatement.html) at the member path at.
func checkStatement(v *violations, st *string, at string) {
	switch {
	case st == nil:
		v.add("Value null at '%s' failed to satisfy constraint: Member must not be null", at)
	case len(*st) < 1:
		v.add("Value '%s' at '%s' failed to satisfy constraint: Member must have length greater than or equal to 1", *st, at)
	case len(*st) > partiql.MaxStatementBytes:
		v.add("Value '%s' at '%s' failed to satisfy constraint: Member must have length less than or equal to %d", *st, at, partiql.MaxStatementBytes)
	}
}

// readParameters reads a statement's Parameters, attribute values in order.
func readParameters(raws []json.RawMessage) ([]model.Value, *apiError) {
	out := make([]model.Value, len(raws))
	for i, raw := range raws {
		v, err := dynamojson.ParseValue(raw)
		if err != nil {
			return nil, wireError(err, fmt.Sprintf("Parameters[%d]", i), "")
		}
		out[i] = v
	}
	return out, nil
}

// prepareStatement parses a statement and reads its parameters.
func prepareStatement(src string, raws []json.RawMessage) (*partiql.Statement, []model.Value, *apiError) {
	st, perr := partiql.Parse(src)
	if perr != nil {
		return nil, nil, validationError("%s", perr.Message)
	}
	params, err := readParameters(raws)
	if err != nil {
		return nil, nil, err
	}
	return st, params, nil
}

// statementTable is the table a statement names, with the answer DynamoDB gives
// for one it does not have.
func (s *Server) statementTable(st *partiql.Statement) (*table, *apiError) {
	t, ok := s.tables[st.Table]
	if !ok {
		return nil, itemTableNotFound()
	}
	return t, nil
}

func executeStatement(s *Server, in *executeStatementInput) (any, *apiError) {
	var v violations
	mode := capacityMode(&v, in.ReturnConsumedCapacity)
	checkStatement(&v, in.Statement, "statement")
	v.checkEnum(in.ReturnValuesOnConditionCheckFailure, "returnValuesOnConditionCheckFailure", engine.ReturnAllOld, engine.ReturnNone)
	if in.Limit != nil {
		n := int64(*in.Limit)
		v.checkMin(&n, "limit", 1)
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	st, params, err := prepareStatement(*in.Statement, in.Parameters)
	if err != nil {
		return nil, err
	}
	t, err := s.statementTable(st)
	if err != nil {
		return nil, err
	}
	ein := engine.StatementInput{Statement: st, Parameters: params, ConsistentRead: in.ConsistentRead,
		ReturnValuesOnConditionCheckFailure: str(in.ReturnValuesOnConditionCheckFailure)}
	if in.Limit != nil {
		ein.Limit, ein.Given = *in.Limit, engine.GivenLimit
	}
	digest := statementDigest(*in.Statement, in.Parameters)
	if in.NextToken != nil {
		if ein.ExclusiveStartKey, err = readNextToken(*in.NextToken, digest); err != nil {
			return nil, err
		}
	}
	if s.opts.Throttle != nil {
		ein.Visits = true // the items a Query read name the key values it read
	}
	out, eerr := t.eng.ExecuteStatement(ein)
	if s.opts.Throttle != nil {
		if terr := s.admit(t, s.statementCharges(t, st, params, out)); terr != nil {
			return nil, terr
		}
	}
	if eerr != nil {
		return nil, fromEngine(eerr)
	}
	s.recordChanges(t, out.Changes, false)
	buf := newAnswer()
	b := append(*buf, `{"Items":[`...)
	for i, it := range out.Items {
		if i > 0 {
			b = append(b, ',')
		}
		b = dynamojson.AppendItem(b, it)
	}
	b = append(b, ']')
	if out.LastEvaluatedKey != nil {
		// API_ExecuteStatement.html "Response Elements": NextToken to go on, and
		// LastEvaluatedKey, the key the page stopped at.
		b = append(b, `,"NextToken":`...)
		b = dynamojson.AppendString(b, nextToken(out.LastEvaluatedKey, digest))
		b = append(b, `,"LastEvaluatedKey":`...)
		b = dynamojson.AppendItem(b, out.LastEvaluatedKey)
	}
	return finishAnswer(buf, b, true, mode, t, out.Consumed)
}

// A NextToken carries the key a SELECT's page stopped at, and a digest of the
// statement and parameters it belongs to: given with another statement it is
// refused, as DynamoDB refuses it.
type tokenBody struct {
	Digest []byte
	Key    json.RawMessage
}

func statementDigest(statement string, params []json.RawMessage) []byte {
	b, _ := json.Marshal(struct {
		S string
		P []json.RawMessage
	}{statement, params})
	d := sha256.Sum256(b)
	return d[:8]
}

func nextToken(key model.Item, digest []byte) string {
	k, _ := dynamojson.MarshalItem(key)
	b, _ := json.Marshal(tokenBody{Digest: digest, Key: k})
	return base64.StdEncoding.EncodeToString(b)
}

func readNextToken(tok string, digest []byte) (model.Item, *apiError) {
	raw, err := base64.StdEncoding.DecodeString(tok)
	var body tokenBody
	if err != nil || json.Unmarshal(raw, &body) != nil || len(body.Key) == 0 {
		return nil, validationError("Invalid NextToken")
	}
	if string(body.Digest) != string(digest) {
		return nil, validationError("NextToken does not match request")
	}
	key, perr := dynamojson.ParseItem(body.Key)
	if perr != nil {
		return nil, validationError("Invalid NextToken")
	}
	return key, nil
}

type batchStatementRequest struct {
	Statement                           *string
	Parameters                          []json.RawMessage
	ConsistentRead                      bool
	ReturnValuesOnConditionCheckFailure *string
}

type batchExecuteInput struct {
	Statements             []batchStatementRequest
	ReturnConsumedCapacity *string
}

// batchStatementError is one statement's failure in a BatchExecuteStatement
// (API_BatchStatementError.html): the error's code without "Exception"
// (ConditionalCheckFailed, DuplicateItem, ResourceNotFound, ValidationError, ...).
type batchStatementError struct {
	Code    string
	Message string
	Item    wireItem `json:",omitempty"`
}

type batchStatementResponse struct {
	TableName string               `json:",omitempty"`
	Item      wireItem             `json:",omitempty"`
	Error     *batchStatementError `json:",omitempty"`
}

// maxBatchStatements is BatchExecuteStatement's limit (API_BatchExecuteStatement.html
// "Statements": 1 to 25 items).
const maxBatchStatements = 25

// statementErrorCode is an error's code as a batch's answer names it.
func statementErrorCode(code string) string {
	switch code {
	case engine.ValidationException:
		return "ValidationError"
	case "ResourceNotFoundException":
		return "ResourceNotFound"
	case engine.ConditionalCheckFailedException:
		return "ConditionalCheckFailed"
	case engine.DuplicateItemException:
		return engine.DuplicateItem
	}
	if len(code) > len("Exception") && code[len(code)-len("Exception"):] == "Exception" {
		return code[:len(code)-len("Exception")]
	}
	return code
}

func batchExecuteStatement(s *Server, in *batchExecuteInput) (any, *apiError) {
	var v violations
	mode := capacityMode(&v, in.ReturnConsumedCapacity)
	switch {
	case in.Statements == nil:
		v.add("Value null at 'statements' failed to satisfy constraint: Member must not be null")
	case len(in.Statements) < 1:
		v.add("Value '[]' at 'statements' failed to satisfy constraint: Member must have length greater than or equal to 1")
	case len(in.Statements) > maxBatchStatements:
		v.add("Value '%d' at 'statements' failed to satisfy constraint: Member must have length less than or equal to %d", len(in.Statements), maxBatchStatements)
	}
	for i, r := range in.Statements {
		checkStatement(&v, r.Statement, fmt.Sprintf("statements.%d.member.statement", i+1))
		v.checkEnum(r.ReturnValuesOnConditionCheckFailure, fmt.Sprintf("statements.%d.member.returnValuesOnConditionCheckFailure", i+1), engine.ReturnAllOld, engine.ReturnNone)
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	responses := make([]batchStatementResponse, len(in.Statements))
	consumed := map[*table]engine.Capacity{}
	var order []*table
	for i, r := range in.Statements {
		resp := &responses[i]
		t, item, c, err := s.batchStatement(r)
		if t != nil {
			resp.TableName = t.def.Name
			if _, seen := consumed[t]; !seen {
				order = append(order, t)
			}
			consumed[t] = consumed[t].Add(c)
		}
		if err != nil {
			resp.Error = &batchStatementError{Code: statementErrorCode(err.code), Message: err.message, Item: wireItem(err.item)}
			continue
		}
		resp.Item = wireItem(item)
	}
	out := struct {
		Responses        []batchStatementResponse
		ConsumedCapacity []*consumedCapacity `json:",omitempty"`
	}{Responses: responses}
	for _, t := range order {
		if c := capacityOf(mode, t, consumed[t]); c != nil {
			out.ConsumedCapacity = append(out.ConsumedCapacity, c)
		}
	}
	return out, nil
}

// batchStatement runs one statement of a BatchExecuteStatement: a SELECT of one
// item by its whole key (a GetItem), or a write; its table (nil when it names
// none that exists), the item read, and the capacity consumed.
func (s *Server) batchStatement(r batchStatementRequest) (*table, model.Item, engine.Capacity, *apiError) {
	st, params, err := prepareStatement(*r.Statement, r.Parameters)
	if err != nil {
		return nil, nil, engine.Capacity{}, err
	}
	t, err := s.statementTable(st)
	if err != nil {
		return nil, nil, engine.Capacity{}, err
	}
	if st.Kind == partiql.Select {
		get, gerr := t.eng.StatementGet(st, params, "BatchExecuteStatement")
		if gerr != nil {
			return t, nil, engine.Capacity{}, fromEngine(gerr)
		}
		get.ConsistentRead = r.ConsistentRead
		out, eerr := t.eng.GetItem(get)
		if eerr != nil {
			return t, nil, engine.Capacity{}, fromEngine(eerr)
		}
		if s.opts.Throttle != nil {
			if r := s.opts.Throttle.Admit(&t.def, t.arn, s.chargerOf(t).Keys([]model.Item{get.Key}, out.Consumed)); r != nil {
				return t, nil, engine.Capacity{}, statementThrottled(r)
			}
		}
		return t, engine.Row(st, out.Item), out.Consumed, nil
	}
	// Under --throttle a write runs on a copy of the table's engine, kept only
	// when the limiter lets it through: a throttled statement writes nothing.
	eng := t.eng
	if s.opts.Throttle != nil {
		eng = eng.Clone()
	}
	out, eerr := eng.ExecuteStatement(engine.StatementInput{Statement: st, Parameters: params,
		ReturnValuesOnConditionCheckFailure: str(r.ReturnValuesOnConditionCheckFailure)})
	if s.opts.Throttle != nil {
		if r := s.opts.Throttle.Admit(&t.def, t.arn, s.statementCharges(t, st, params, out)); r != nil {
			return t, nil, engine.Capacity{}, statementThrottled(r)
		}
		t.eng = eng
	}
	var c engine.Capacity
	if out != nil {
		c = out.Consumed
	}
	if eerr != nil {
		return t, nil, c, fromEngine(eerr)
	}
	s.recordChanges(t, out.Changes, false)
	return t, nil, c, nil
}

type parameterizedStatement struct {
	Statement                           *string
	Parameters                          []json.RawMessage
	ReturnValuesOnConditionCheckFailure *string
}

type executeTransactionInput struct {
	TransactStatements     []parameterizedStatement
	ClientRequestToken     *string
	ReturnConsumedCapacity *string
}

// inStatement is DynamoDB's wrapping of one transaction statement's refusal.
func inStatement(i int, err *apiError) *apiError {
	if err.code != engine.ValidationException {
		return err
	}
	return validationError("Validation failed in TransactStatements[%d]: %s", i, err.message)
}

func executeTransaction(s *Server, in *executeTransactionInput) (any, *apiError) {
	var v violations
	mode := capacityMode(&v, in.ReturnConsumedCapacity)
	switch {
	case in.TransactStatements == nil:
		v.add("Value null at 'transactStatements' failed to satisfy constraint: Member must not be null")
	case len(in.TransactStatements) < 1:
		v.add("Value '[]' at 'transactStatements' failed to satisfy constraint: Member must have length greater than or equal to 1")
	case len(in.TransactStatements) > 100:
		v.add("Value '%d' at 'transactStatements' failed to satisfy constraint: Member must have length less than or equal to 100", len(in.TransactStatements))
	}
	checkClientToken(&v, in.ClientRequestToken)
	for i, r := range in.TransactStatements {
		checkStatement(&v, r.Statement, fmt.Sprintf("transactStatements.%d.member.statement", i+1))
		v.checkEnum(r.ReturnValuesOnConditionCheckFailure, fmt.Sprintf("transactStatements.%d.member.returnValuesOnConditionCheckFailure", i+1), engine.ReturnAllOld, engine.ReturnNone)
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	return s.idempotent(in.ClientRequestToken, in, func() (any, *apiError) { return s.executeTransaction(in, mode) })
}

func (s *Server) executeTransaction(in *executeTransactionInput, mode string) (any, *apiError) {
	type prepared struct {
		st     *partiql.Statement
		params []model.Value
		t      *table
	}
	stmts := make([]prepared, len(in.TransactStatements))
	reads := 0
	for i, r := range in.TransactStatements {
		st, params, err := prepareStatement(*r.Statement, r.Parameters)
		if err != nil {
			return nil, inStatement(i, err)
		}
		t, err := s.statementTable(st)
		if err != nil {
			return nil, err
		}
		stmts[i] = prepared{st, params, t}
		if st.Kind == partiql.Select {
			reads++
		}
	}
	if reads > 0 && reads < len(stmts) {
		for i, p := range stmts {
			if p.st.Kind == partiql.Select {
				return nil, inStatement(i, validationError("Unsupported operation in transaction."))
			}
		}
	}
	if reads > 0 {
		gets := newGroups[engine.TransactGet]()
		for i, p := range stmts {
			g, err := p.t.eng.StatementGet(p.st, p.params, "ExecuteTransaction")
			if err != nil {
				return nil, inStatement(i, fromEngine(err))
			}
			gets.add(p.t, i, engine.TransactGet{Key: g.Key, ProjectionExpression: g.ProjectionExpression,
				ExpressionAttributeNames: g.ExpressionAttributeNames, Given: g.Given})
		}
		responses := make([]struct {
			Item wireItem `json:",omitempty"`
		}, len(stmts))
		var caps []*consumedCapacity
		var tps []transactionPart
		for _, g := range gets.list {
			res, err := g.t.eng.TransactGetItems(g.actions)
			if err != nil {
				return nil, fromEngine(err)
			}
			if s.opts.Throttle != nil {
				tps = append(tps, s.readParts(g, res.Consumed))
			}
			for j, it := range res.Responses {
				responses[g.at[j]].Item = wireItem(engine.Row(stmts[g.at[j]].st, it))
			}
			if c := capacityOf(mode, g.t, res.Consumed); c != nil {
				caps = append(caps, c)
			}
		}
		if tps != nil {
			if reasons := s.admitTransaction(tps, len(stmts)); reasons != nil {
				return nil, cancelledError(reasons)
			}
		}
		return struct {
			Responses        any
			ConsumedCapacity []*consumedCapacity `json:",omitempty"`
		}{responses, caps}, nil
	}
	writes := newGroups[engine.TransactWriteItem]()
	for i, p := range stmts {
		w, err := p.t.eng.StatementWrite(p.st, p.params)
		if err != nil {
			return nil, inStatement(i, fromEngine(err))
		}
		w.ReturnValuesOnConditionCheckFailure = str(in.TransactStatements[i].ReturnValuesOnConditionCheckFailure)
		writes.add(p.t, i, w)
	}
	caps, reasons, err := applyTransactWrites(s, writes, len(stmts), mode)
	if err != nil {
		return nil, err
	}
	if reasons != nil {
		// An INSERT whose key is taken fails its condition; the transaction names
		// it as DynamoDB does.
		for i, p := range stmts {
			if p.st.Kind == partiql.Insert && reasons[i].Code == "ConditionalCheckFailed" {
				reasons[i] = engine.CancellationReason{Code: engine.DuplicateItem, Message: engine.MsgDuplicateItem}
			}
		}
		return nil, cancelledError(reasons)
	}
	return struct {
		ConsumedCapacity []*consumedCapacity `json:",omitempty"`
	}{caps}, nil
}

// applyTransactWrites runs a transaction's actions, grouped by table, all or
// nothing: over several tables each runs on a copy of its table's engine, and the
// copies replace the engines only when every table's part succeeded. n is the
// number of actions; reasons is non-nil when the transaction was cancelled (one
// per action, in request order).
func applyTransactWrites(s *Server, groups *groups[engine.TransactWriteItem], n int, mode string) ([]*consumedCapacity, []engine.CancellationReason, *apiError) {
	engines := make([]*engine.Engine, len(groups.list))
	for i, g := range groups.list {
		engines[i] = g.t.eng
		// Under --throttle even one table's part runs on a copy: the limiter
		// decides after it ran, and a throttled transaction writes nothing.
		if len(groups.list) > 1 || s.opts.Throttle != nil {
			engines[i] = g.t.eng.Clone()
		}
	}
	var tps []transactionPart
	reasons := make([]engine.CancellationReason, n)
	var caps []*consumedCapacity
	cancelled := false
	changes := make([][]engine.Change, len(groups.list))
	for i, g := range groups.list {
		res, err := engines[i].TransactWriteItems(g.actions)
		if err != nil {
			ae := fromEngine(err)
			if ae.code != engine.TransactionCanceledException {
				return nil, nil, ae
			}
			for j, r := range ae.reasons {
				reasons[g.at[j]] = r
			}
			cancelled = true
			continue
		}
		if s.opts.Throttle != nil {
			tps = append(tps, transactionPart{t: g.t, parts: s.writeParts(g.t, len(g.actions), res.Changes), at: g.at})
		}
		changes[i] = res.Changes
		if c := capacityOf(mode, g.t, res.Consumed); c != nil {
			caps = append(caps, c)
		}
	}
	if cancelled {
		return nil, reasons, nil
	}
	if tps != nil {
		if reasons := s.admitTransaction(tps, n); reasons != nil {
			return nil, reasons, nil
		}
	}
	for i, g := range groups.list {
		g.t.eng = engines[i]
		s.recordChanges(g.t, changes[i], false)
	}
	return caps, nil, nil
}
