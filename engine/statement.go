package engine

import (
	"maps"
	"strings"

	"stwb/model"
	"stwb/partiql"
)

// PartiQL statements (ql-reference.html) run as the operation each stands for, so
// that their results, capacity and errors are that operation's:
//   - SELECT with an equality on the partition key (of the table, or of the index
//     it names) is a Query, a sort key condition its key condition and the rest
//     its filter; without one it is a Scan of the whole table or index, the WHERE
//     clause its filter (ql-reference.select.html: "Using the SELECT statement can
//     result in a full table scan if an equality or IN condition with a partition
//     key is not provided in the WHERE clause"). Either is charged and paged as
//     that operation is (Limit, NextToken). A SELECT naming several partition
//     key values (pk IN [...], or pk = a OR pk = b) is a Query of each.
//   - INSERT is a PutItem on condition that no item has its key: it never
//     replaces an item (ql-reference.insert.html), an existing key is a
//     DuplicateItemException.
//   - UPDATE is an UpdateItem of the item the WHERE clause names by its whole key,
//     on condition that the item exists and the rest of the WHERE clause holds
//     (ql-reference.update.html); RETURNING is its ReturnValues.
//   - DELETE is a DeleteItem of that item, on condition that the rest of the WHERE
//     clause holds of it if it exists (a missing item is no error).
//   - EXISTS(SELECT ...) is a transaction's ConditionCheck.

// DuplicateItemException is the error of an INSERT whose key is taken, with its
// message (API_ExecuteStatement.html "Errors"; DynamoDB's answer:
// "DuplicateItemException: Duplicate primary key exists in table").
const (
	DuplicateItemException = "DuplicateItemException"
	MsgDuplicateItem       = "Duplicate primary key exists in table"
	// DuplicateItem is the code of an INSERT's failure in a batch's or a
	// transaction's answer (API_BatchStatementError.html "Code").
	DuplicateItem = "DuplicateItem"
)

// StatementInput is one PartiQL statement to run (API_ExecuteStatement.html).
type StatementInput struct {
	Statement  *partiql.Statement
	Parameters []model.Value
	// ConsistentRead, Limit and ExclusiveStartKey (NextToken's key) apply to a
	// SELECT, as to the Query or Scan it is.
	ConsistentRead    bool
	Limit             int
	ExclusiveStartKey model.Item
	// ReturnValuesOnConditionCheckFailure: ALL_OLD puts the item a failed
	// condition saw in the error.
	ReturnValuesOnConditionCheckFailure string
	Visits                              bool  // fill Page.Visits, as QueryInput.Visits
	Given                               Given // GivenLimit
}

// StatementOutput is what a statement returned: the SELECT's page of items, or
// RETURNING's item (Items is empty, never nil, when there is none), the key to go
// on from (NextToken's), the capacity, and for a write the change it made.
type StatementOutput struct {
	Operation        model.Operation // what the statement ran as
	Items            []model.Item
	LastEvaluatedKey model.Item
	Consumed         Capacity
	Page             *Page    // a SELECT's page, as the Query or Scan gave it
	Changes          []Change // a write's change
}

// ExecuteStatement runs one statement on the engine's table.
func (e *Engine) ExecuteStatement(in StatementInput) (*StatementOutput, error) {
	out, err := e.executeStatement(in)
	return out, asError(err)
}

// checkParameters refuses parameters that do not match the statement's ?s.
func checkParameters(st *partiql.Statement, params []model.Value) *Error {
	if st.Params != len(params) {
		return validation("Number of parameters in request and statement don't match.")
	}
	return nil
}

func (e *Engine) executeStatement(in StatementInput) (*StatementOutput, *Error) {
	st := in.Statement
	if err := checkParameters(st, in.Parameters); err != nil {
		return nil, err
	}
	if st.Kind == partiql.Select {
		return e.selectStatement(in)
	}
	if st.Kind == partiql.Exists {
		return nil, validation("EXISTS can only be used in ExecuteTransaction write requests.")
	}
	w, err := e.StatementWrite(st, in.Parameters)
	if err != nil {
		return nil, err
	}
	w.ReturnValuesOnConditionCheckFailure = in.ReturnValuesOnConditionCheckFailure
	rv := returnValuesOf(st.Returning)
	var res *WriteOutput
	var werr error
	out := &StatementOutput{Items: []model.Item{}}
	switch w.Kind {
	case model.ActionPut:
		out.Operation = model.OpPutItem
		res, werr = e.PutItem(PutItemInput{Item: w.Item, ConditionExpression: w.ConditionExpression,
			ExpressionAttributeNames: w.ExpressionAttributeNames, ExpressionAttributeValues: w.ExpressionAttributeValues,
			ReturnValuesOnConditionCheckFailure: w.ReturnValuesOnConditionCheckFailure, Given: w.Given})
	case model.ActionUpdate:
		out.Operation = model.OpUpdateItem
		res, werr = e.UpdateItem(UpdateItemInput{Key: w.Key, UpdateExpression: w.UpdateExpression, ConditionExpression: w.ConditionExpression,
			ExpressionAttributeNames: w.ExpressionAttributeNames, ExpressionAttributeValues: w.ExpressionAttributeValues,
			ReturnValues: rv, ReturnValuesOnConditionCheckFailure: w.ReturnValuesOnConditionCheckFailure, Given: w.Given})
	default:
		out.Operation = model.OpDeleteItem
		res, werr = e.DeleteItem(DeleteItemInput{Key: w.Key, ConditionExpression: w.ConditionExpression,
			ExpressionAttributeNames: w.ExpressionAttributeNames, ExpressionAttributeValues: w.ExpressionAttributeValues,
			ReturnValues: rv, ReturnValuesOnConditionCheckFailure: w.ReturnValuesOnConditionCheckFailure, Given: w.Given})
	}
	if res != nil {
		out.Consumed, out.Changes = res.Consumed, res.Changes
	}
	if werr != nil {
		ee, _ := werr.(*Error)
		if ee != nil && ee.Type == ConditionalCheckFailedException && st.Kind == partiql.Insert {
			return out, &Error{Type: DuplicateItemException, Message: MsgDuplicateItem}
		}
		return out, ee
	}
	if res.Attributes != nil {
		out.Items = append(out.Items, res.Attributes)
	}
	return out, nil
}

// returnValuesOf is the ReturnValues a RETURNING clause asks for.
func returnValuesOf(r string) string {
	switch r {
	case "ALL OLD":
		return ReturnAllOld
	case "MODIFIED OLD":
		return ReturnUpdatedOld
	case "ALL NEW":
		return ReturnAllNew
	case "MODIFIED NEW":
		return ReturnUpdatedNew
	}
	return ReturnNone
}

// StatementWrite is an INSERT, UPDATE, DELETE or EXISTS as the write it stands
// for (a transaction's action): its kind, item or key, and expressions.
func (e *Engine) StatementWrite(st *partiql.Statement, params []model.Value) (TransactWriteItem, *Error) {
	if err := checkParameters(st, params); err != nil {
		return TransactWriteItem{}, err
	}
	b := newExprBuilder(st, params)
	var w TransactWriteItem
	pk := b.name(e.key.Partition.Name)
	switch st.Kind {
	case partiql.Insert:
		v, err := b.literal(st.Value)
		if err != nil {
			return w, err
		}
		w.Kind, w.Item = model.ActionPut, model.Item(v.Map)
		w.ConditionExpression = "attribute_not_exists(" + pk + ")"
	case partiql.Update, partiql.Delete, partiql.Exists:
		key, rest, err := e.statementKey(st, b)
		if err != nil {
			return w, err
		}
		cond, err := b.andOf(rest)
		if err != nil {
			return w, err
		}
		w.Key = key
		switch st.Kind {
		case partiql.Update:
			w.Kind = model.ActionUpdate
			if w.UpdateExpression, err = b.update(st.Actions); err != nil {
				return w, err
			}
			w.Given |= GivenUpdate
			w.ConditionExpression = "attribute_exists(" + pk + ")"
			if cond != "" {
				w.ConditionExpression += " AND (" + cond + ")"
			}
		case partiql.Delete:
			w.Kind = model.ActionDelete
			if cond != "" {
				w.ConditionExpression = "attribute_not_exists(" + pk + ") OR (" + cond + ")"
			}
		default:
			if cond == "" {
				return w, validation("EXISTS() must contain a single item read with additional condition")
			}
			w.Kind = model.ActionCheck
			w.ConditionExpression = "attribute_exists(" + pk + ") AND (" + cond + ")"
		}
	default:
		return w, validation("Unsupported operation in transaction.")
	}
	if w.ConditionExpression != "" {
		w.Given |= GivenCondition
	}
	w.ExpressionAttributeNames, w.ExpressionAttributeValues = b.maps()
	if w.ConditionExpression == "" && w.UpdateExpression == "" {
		// The key's placeholder was made for a condition the statement turned out
		// not to need: a request carries no names then.
		w.ExpressionAttributeNames, w.ExpressionAttributeValues = nil, nil
	}
	return w, nil
}

// statementKey finds the item a write or a key read names: an equality on every
// key attribute among the WHERE clause's top-level ANDs, and the conditions left.
func (e *Engine) statementKey(st *partiql.Statement, b *exprBuilder) (model.Item, []partiql.Expr, *Error) {
	key := model.Item{}
	var rest []partiql.Expr
	names := e.key.names()
	for _, c := range conjuncts(st.Where) {
		n, v, ok := keyEquality(c)
		isKey := ok && (n == names[0] || (len(names) > 1 && n == names[1]))
		if !isKey {
			rest = append(rest, c)
			continue
		}
		if _, dup := key[n]; dup {
			return nil, nil, validation("Multiple conditions on same key %s. Only single item Update/Insert/Delete are supported", n)
		}
		val, err := b.literal(v)
		if err != nil {
			return nil, nil, err
		}
		key[n] = val
	}
	if len(key) != len(names) {
		return nil, nil, validation("Where clause does not contain a mandatory equality on all key attributes")
	}
	return key, rest, nil
}

// StatementGet is a SELECT that names one item by its whole key, and nothing
// else, as a GetItem (a BatchExecuteStatement's or an ExecuteTransaction's read);
// where says which request refuses any other SELECT ("BatchExecuteStatement",
// "ExecuteTransaction"). Flatten turns the item read into the statement's row.
func (e *Engine) StatementGet(st *partiql.Statement, params []model.Value, where string) (GetItemInput, *Error) {
	if err := checkParameters(st, params); err != nil {
		return GetItemInput{}, err
	}
	b := newExprBuilder(st, params)
	if st.Index != "" {
		if ix := e.indexByName(st.Index); ix != nil && (len(ix.key.morePartition) > 0 || len(ix.key.moreSort) > 0) {
			return GetItemInput{}, validation("%s", msgMultiKeyPartiQL)
		}
		if where == "ExecuteTransaction" {
			return GetItemInput{}, validation("Reads on indices are not supported within transactions.")
		}
		return GetItemInput{}, validation("Select statements within %s must specify the primary key in the where clause.", where)
	}
	key, rest, err := e.statementKey(st, b)
	if err != nil || len(rest) > 0 {
		return GetItemInput{}, validation("Select statements within %s must specify the primary key in the where clause.", where)
	}
	in := GetItemInput{Key: key}
	if !st.Star {
		in.ProjectionExpression = projectionOf(st, b)
		in.ExpressionAttributeNames, _ = b.maps()
		in.Given |= GivenProjection
	}
	return in, nil
}

func projectionOf(st *partiql.Statement, b *exprBuilder) string {
	parts := make([]string, len(st.Projection))
	for i, p := range st.Projection {
		parts[i] = b.path(p)
	}
	return strings.Join(parts, ", ")
}

// Row is the item a SELECT returns for an item read: the item itself for
// SELECT *, otherwise each projected path's value under the path's last name
// (SELECT a.b returns {"b": ...}, as DynamoDB answers it).
func Row(st *partiql.Statement, item model.Item) model.Item {
	if st.Star || item == nil {
		return item
	}
	out := model.Item{}
	for _, p := range st.Projection {
		v, ok := p.Lookup(item)
		if !ok {
			continue
		}
		name := p[0].Name
		for _, el := range p {
			if !el.IsIndex {
				name = el.Name
			}
		}
		out[name] = v
	}
	return out
}

// selectPlan is a SELECT as the request it is: a Query (scan false) or a Scan,
// without the paging members (Limit, ExclusiveStartKey, ConsistentRead).
type selectPlan struct {
	scan  bool
	query QueryInput
	scanI ScanInput
	// keys are the partition key values of a SELECT that names several (IN, or
	// ORed equalities), one Query each with keyPH, the key condition's value,
	// set to the value; nil for one Query.
	keys    []model.Value
	keyPH   string
	keyName string
}

// planSelect makes the Query or Scan a SELECT stands for.
func (e *Engine) planSelect(st *partiql.Statement, params []model.Value) (*selectPlan, *Error) {
	ks := e.key
	if st.Index != "" {
		ix := e.indexByName(st.Index)
		if ix == nil {
			return nil, validation("The table does not have the specified index: %s", st.Index)
		}
		if len(ix.key.morePartition) > 0 || len(ix.key.moreSort) > 0 {
			return nil, validation("%s", msgMultiKeyPartiQL)
		}
		ks = ix.key
	}
	b := newExprBuilder(st, params)
	conj := conjuncts(st.Where)
	pkAt := -1
	var pv partiql.Expr
	for i, c := range conj {
		if n, v, ok := keyEquality(c); ok && n == ks.Partition.Name {
			pkAt, pv = i, v
			break
		}
	}
	var keys []partiql.Expr
	if pkAt < 0 {
		if keys, pkAt = inKeys(conj, ks.Partition.Name); pkAt >= 0 {
			pv = keys[0]
		}
	}
	proj := ""
	var given Given
	if !st.Star {
		proj = projectionOf(st, b)
		given |= GivenProjection
	}
	if pkAt < 0 {
		if len(st.OrderBy) > 0 {
			return nil, validation("Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY clause.")
		}
		filter, err := b.andOf(conj)
		if err != nil {
			return nil, err
		}
		if filter != "" {
			given |= GivenFilter
		}
		names, values := b.maps()
		return &selectPlan{scan: true, scanI: ScanInput{IndexName: st.Index, FilterExpression: filter, ProjectionExpression: proj,
			ExpressionAttributeNames: names, ExpressionAttributeValues: values, Given: given}}, nil
	}
	q, keyPH, err := e.statementQuery(st, b, ks, conj, pkAt, pv)
	if err != nil {
		return nil, err
	}
	q.ProjectionExpression, q.Given = proj, q.Given|given
	q.ExpressionAttributeNames, q.ExpressionAttributeValues = b.maps()
	plan := &selectPlan{query: q, keyPH: keyPH, keyName: ks.Partition.Name}
	if len(keys) > 1 {
		if len(keys) > maxStatementKeys {
			return nil, validation("Too many decomposed read operations for a given query.")
		}
		for _, k := range keys {
			v, err := b.literal(k)
			if err != nil {
				return nil, err
			}
			plan.keys = append(plan.keys, v)
		}
	}
	return plan, nil
}

// maxStatementKeys bounds the partition key values one SELECT reads, each one
// Query; past it DynamoDB refuses the statement as "Too many decomposed read
// operations" (its message; its bound is not documented, this one is stwb's).
const maxStatementKeys = 100

// queryKeys runs a SELECT that names several partition key values as one Query
// per value in the order written, their items one page: Limit counts the items
// read over all of them, a page ends where a Query's page ends, and the next
// page (ExclusiveStartKey) resumes at the value the key names.
func (e *Engine) queryKeys(plan *selectPlan, in StatementInput) (*Page, *Error) {
	first, start := 0, in.ExclusiveStartKey
	if start != nil {
		first = -1
		for i, k := range plan.keys {
			if v, ok := start[plan.keyName]; ok && v.Equal(k) {
				first = i
				break
			}
		}
		if first < 0 {
			return nil, validation("%s", msgBadStartKey)
		}
	}
	pg := &Page{}
	left := in.Limit
	for i := first; i < len(plan.keys); i++ {
		q := plan.query
		q.ExpressionAttributeValues = maps.Clone(q.ExpressionAttributeValues)
		q.ExpressionAttributeValues[plan.keyPH] = plan.keys[i]
		q.ConsistentRead, q.Visits = in.ConsistentRead, in.Visits
		if i == first {
			q.ExclusiveStartKey = start
		}
		if in.Given&GivenLimit != 0 {
			q.Limit, q.Given = left, q.Given|GivenLimit
		}
		one, err := e.query(q)
		if err != nil {
			return nil, err
		}
		pg.Items = append(pg.Items, one.Items...)
		pg.Visits = append(pg.Visits, one.Visits...)
		pg.Count += one.Count
		pg.ScannedCount += one.ScannedCount
		pg.Consumed = pg.Consumed.Add(one.Consumed)
		left -= one.ScannedCount
		if one.LastEvaluatedKey != nil {
			pg.LastEvaluatedKey = one.LastEvaluatedKey
			break
		}
	}
	return pg, nil
}

// msgMultiKeyPartiQL is DynamoDB's refusal of a SELECT on an index whose key has
// more than one attribute on a side (the conformance suite's capture of
// DynamoDB's answer).
const msgMultiKeyPartiQL = "PartiQL statements cannot be executed on tables with multi-attribute HASH keys or multi-attribute RANGE keys."

// selectStatement runs a SELECT as a Query or a Scan.
func (e *Engine) selectStatement(in StatementInput) (*StatementOutput, *Error) {
	st := in.Statement
	plan, err := e.planSelect(st, in.Parameters)
	if err != nil {
		return nil, err
	}
	limit := in.Given & GivenLimit
	out := &StatementOutput{}
	var pg *Page
	if plan.scan {
		s := plan.scanI
		s.ExclusiveStartKey, s.Limit, s.ConsistentRead, s.Visits, s.Given = in.ExclusiveStartKey, in.Limit, in.ConsistentRead, in.Visits, s.Given|limit
		out.Operation = model.OpScan
		pg, err = e.scan(s)
	} else if plan.keys != nil {
		out.Operation = model.OpQuery
		pg, err = e.queryKeys(plan, in)
	} else {
		q := plan.query
		q.ExclusiveStartKey, q.Limit, q.ConsistentRead, q.Visits, q.Given = in.ExclusiveStartKey, in.Limit, in.ConsistentRead, in.Visits, q.Given|limit
		out.Operation = model.OpQuery
		pg, err = e.query(q)
	}
	if err != nil {
		return nil, err
	}
	out.Page, out.Consumed, out.LastEvaluatedKey = pg, pg.Consumed, pg.LastEvaluatedKey
	out.Items = make([]model.Item, len(pg.Items))
	for i, it := range pg.Items {
		out.Items[i] = Row(st, it)
	}
	return out, nil
}

// statementQuery makes the Query a SELECT with a partition key equality is: that
// equality and the first condition on the sort key DynamoDB can key on are its key
// condition, the rest its filter; ORDER BY the sort key DESC reads backwards.
func (e *Engine) statementQuery(st *partiql.Statement, b *exprBuilder, ks keySchema, conj []partiql.Expr, pkAt int, pv partiql.Expr) (QueryInput, string, *Error) {
	var qin QueryInput
	v, err := b.literal(pv)
	if err != nil {
		return qin, "", err
	}
	keyPH := b.value(v)
	keyCond := b.name(ks.Partition.Name) + " = " + keyPH
	var rest []partiql.Expr
	sortDone := !ks.hasSort()
	for i, c := range conj {
		if i == pkAt {
			continue
		}
		if !sortDone && isSortCondition(c, ks.Sort.Name) {
			s, err := b.cond(c)
			if err != nil {
				return qin, "", err
			}
			keyCond += " AND " + s
			sortDone = true
			continue
		}
		rest = append(rest, c)
	}
	filter, err := b.andOf(rest)
	if err != nil {
		return qin, "", err
	}
	for _, o := range st.OrderBy {
		if o.Name != ks.Partition.Name && o.Name != ks.Sort.Name {
			return qin, "", validation("Variable reference %s in ORDER BY clause must be part of the primary key", o.Name)
		}
		if o.Name == ks.Sort.Name && o.Desc {
			back := false
			qin.ScanIndexForward = &back
		}
	}
	qin.IndexName, qin.KeyConditionExpression, qin.FilterExpression, qin.keyFilter = st.Index, keyCond, filter, true
	if filter != "" {
		qin.Given |= GivenFilter
	}
	return qin, keyPH, nil
}

// isSortCondition says whether c is a condition a Query can key on for the sort
// key sk: a comparison with a value, BETWEEN two values, or begins_with.
func isSortCondition(c partiql.Expr, sk string) bool {
	isSK := func(e partiql.Expr) bool {
		p, ok := e.(*partiql.PathExpr)
		return ok && len(p.Path) == 1 && p.Path[0].Name == sk
	}
	switch x := c.(type) {
	case *partiql.Binary:
		switch x.Op {
		case "=", "<", "<=", ">", ">=":
			return isSK(x.L) && isValue(x.R)
		}
	case *partiql.Between:
		return !x.Not && isSK(x.X) && isValue(x.Lo) && isValue(x.Hi)
	case *partiql.Call:
		return strings.EqualFold(x.Name, "begins_with") && len(x.Args) == 2 && isSK(x.Args[0]) && isValue(x.Args[1])
	}
	return false
}

// inKeys finds a condition that names several partition key values: pk IN [a,
// b] or pk = a OR pk = b. DynamoDB reads each value as a Query
// (ql-reference.select.html: "SELECT * FROM Orders WHERE OrderID IN [100, 300,
// 234]" is not a full table scan); it returns the values and the conjunct's place.
func inKeys(conj []partiql.Expr, pk string) ([]partiql.Expr, int) {
	for i, c := range conj {
		if in, ok := c.(*partiql.In); ok && !in.Not && isKeyPath(in.X, pk) && allValues(in.List) {
			return in.List, i
		}
		if vals, ok := orEqualities(c, pk); ok && len(vals) > 1 {
			return vals, i
		}
	}
	return nil, -1
}

func isKeyPath(e partiql.Expr, name string) bool {
	p, ok := e.(*partiql.PathExpr)
	return ok && len(p.Path) == 1 && p.Path[0].Name == name
}

func allValues(es []partiql.Expr) bool {
	for _, e := range es {
		if !isValue(e) {
			return false
		}
	}
	return true
}

// orEqualities reads a = x OR a = y OR ... on the attribute name.
func orEqualities(e partiql.Expr, name string) ([]partiql.Expr, bool) {
	if x, ok := e.(*partiql.Binary); ok && x.Op == "OR" {
		l, lok := orEqualities(x.L, name)
		r, rok := orEqualities(x.R, name)
		return append(l, r...), lok && rok
	}
	if n, v, ok := keyEquality(e); ok && n == name {
		return []partiql.Expr{v}, true
	}
	return nil, false
}
