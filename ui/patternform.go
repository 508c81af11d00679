package ui

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"stwb/designfile"
	"stwb/expr"
	"stwb/model"
)

// The pattern form: every field of FORMAT.md's pattern table that a single request
// has, each checked as the user types. Expressions are compiled with package expr
// against the table or index the pattern names, so the error under a field is the
// ValidationException DynamoDB would answer.

// patternFields are the form's fields in order: name, label, help.
var patternFields = [][3]string{
	{"id", "id", "the pattern's number: unique, stable"},
	{"name", "name", "what the application does, in its words"},
	{"holds", "holds", "what the caller has in hand (customer id, ...)"},
	{"returns", "returns", "what comes back"},
	{"order", "order", "in what order (newest first, ...)"},
	{"cardinality", "cardinality", "how many items: 1, 0..25, ..."},
	{"rate", "rate", "requests per second at peak (empty: 1)"},
	{"operation", "operation", strings.Join(opNames(), " ")},
	{"statement", "statement", `ExecuteStatement: a PartiQL statement, such as SELECT * FROM "table" WHERE PK = ?`},
	{"parameters", "parameters", "ExecuteStatement: the values of its ? placeholders, in order: [CUST#42, 10]"},
	{"index", "index", "index name for Query or Scan; empty for the table"},
	{"key", "key", "Query: a KeyConditionExpression; GetItem/UpdateItem/DeleteItem: {PK: ..., SK: ...}"},
	{"filter", "filter", "FilterExpression (Query, Scan)"},
	{"projection", "projection", "ProjectionExpression, such as: #n, total"},
	{"condition", "condition", "ConditionExpression (writes)"},
	{"update", "update", "UpdateExpression, such as: SET #s = :s"},
	{"names", "names", `ExpressionAttributeNames: {"#s": status}`},
	{"values", "values", `ExpressionAttributeValues: {":pk": "CUST#42", ":min": 10}`},
	{"fanout", "fanout", `Query/GetItem once per value (at most 1,000): {shard: "0..9"}, {day: "2026-08-01..2026-08-07"}, {r: [eu, us]}`},
	{"forward", "forward", "ScanIndexForward: true (ascending, default) or false"},
	{"limit", "limit", "Limit: items read per request (empty: none)"},
	{"pages", "pages", "Query, Scan: all to read every page, following LastEvaluatedKey (empty: the first page)"},
	{"consistent", "consistent", "ConsistentRead: true or false (default)"},
	{"item", "item", "PutItem: the item, {PK: ..., SK: ..., attr: value}"},
	{"keys", "keys", "BatchGetItem, TransactGetItems: [{PK: ..., SK: ...}, {PK: ..., SK: ...}]"},
	{"actions", "actions", `BatchWriteItem, TransactWriteItems: [{put: ITEM, condition: "attribute_not_exists(PK)"}, {update: {key: KEY, update: "SET ..."}}, {delete: {key: KEY}}, {check: {key: KEY, condition: ...}}]`},
	{"expect", "expect", "the keys it must return, in order: [{PK: ..., SK: ...}] (p on the pattern pins the current result)"},
	{"expectError", "expectError", "the error it must end in, such as TransactionCanceledException (empty: it must succeed)"},
	{"partitions", "partitions", "how many partition key values the traffic spreads over (empty: the items'); for hot-partition analysis"},
	{"batch", "batch", "true for a Scan that runs as a batch job, not in a request path"},
}

func opNames() []string {
	out := make([]string, len(model.Operations))
	for i, o := range model.Operations {
		out[i] = string(o)
	}
	return out
}

// patternFormValues are a pattern's fields as form text.
func patternFormValues(p *model.Pattern) map[string]string {
	v := map[string]string{
		"id": strconv.Itoa(p.ID), "name": p.Name, "holds": p.Holds, "returns": p.Returns,
		"order": p.Order, "cardinality": p.Cardinality, "operation": string(p.Operation),
		"index": p.Index, "filter": p.Filter, "projection": p.Projection,
		"condition": p.Condition, "update": p.Update,
		"names": formatNames(p.Names), "values": formatMapping(p.Values),
		"item": formatMapping(p.Item),
		"keys": itemsText(p.Keys), "actions": actionsText(p.Actions), "expect": itemsText(p.Expect),
		"expectError": p.ExpectError, "fanout": fanoutText(p.Fanout),
		"statement": p.Statement,
	}
	if p.Parameters != nil {
		v["parameters"] = formatNode(designfile.ValueToNode(model.List(p.Parameters...)))
	}
	if p.AllPages {
		v["pages"] = "all"
	}
	if p.Partitions > 0 {
		v["partitions"] = strconv.FormatInt(p.Partitions, 10)
	}
	if p.Batch {
		v["batch"] = "true"
	}
	if p.Rate > 0 {
		v["rate"] = strconv.FormatFloat(p.Rate, 'f', -1, 64)
	}
	if p.KeyCondition != "" {
		v["key"] = p.KeyCondition
	} else if len(p.Key) > 0 {
		v["key"] = formatMapping(p.Key)
	}
	if p.Forward != nil {
		v["forward"] = strconv.FormatBool(*p.Forward)
	}
	if p.Limit > 0 {
		v["limit"] = strconv.Itoa(p.Limit)
	}
	if p.Consistent {
		v["consistent"] = "true"
	}
	return v
}

// patternFromForm builds the pattern the form describes, on top of base (which keeps
// what the form does not show: returnValues, an action's own position).
// errs holds one message per field that is wrong.
func patternFromForm(d *model.Design, base model.Pattern, editing int, v map[string]string) (model.Pattern, map[string]string) {
	p := base
	errs := map[string]string{}
	bad := func(field, format string, args ...any) {
		if _, ok := errs[field]; !ok {
			errs[field] = fmt.Sprintf(format, args...)
		}
	}
	id, err := strconv.Atoi(strings.TrimSpace(v["id"]))
	switch {
	case err != nil || id <= 0:
		bad("id", "must be a whole number above 0")
	default:
		for i, q := range d.Patterns {
			if i != editing && q.ID == id {
				bad("id", "pattern %d already exists (%q); ids are unique", id, q.Name)
			}
		}
	}
	p.ID = id
	p.Name = strings.TrimSpace(v["name"])
	if p.Name == "" {
		bad("name", "say what the pattern does, such as: Get a customer's profile")
	}
	p.Holds, p.Returns, p.Order, p.Cardinality = v["holds"], v["returns"], v["order"], v["cardinality"]
	p.Rate = 0
	if s := strings.TrimSpace(v["rate"]); s != "" {
		r, err := strconv.ParseFloat(s, 64)
		if err != nil || r < 0 || r != r || r > 1e12 {
			bad("rate", "must be a number of requests per second, 0 or more")
		}
		p.Rate = r
	}
	p.Operation = model.Operation(strings.TrimSpace(v["operation"]))
	if !slices.Contains(model.Operations, p.Operation) {
		bad("operation", "must be one of %s", strings.Join(opNames(), ", "))
	}
	p.Index = strings.TrimSpace(v["index"])
	var ix model.Index
	if p.Index != "" {
		var ok bool
		ix, ok = d.Table.IndexByName(p.Index)
		switch {
		case !ok:
			names := []string{}
			for _, x := range d.Table.Indexes {
				names = append(names, x.Name)
			}
			bad("index", "the table has no index %q (it has: %s)", p.Index, orNone(names))
		case p.Operation != model.OpQuery && p.Operation != model.OpScan:
			bad("index", "only Query and Scan read an index; leave it empty for %s", p.Operation)
		}
	}
	names, err := parseNames(v["names"])
	if err != nil {
		bad("names", "%v", err)
	}
	values, err := parseMapping(v["values"])
	if err != nil {
		bad("values", "%v", err)
	}
	p.Names, p.Values = names, values
	p.Forward = nil
	switch strings.TrimSpace(v["forward"]) {
	case "":
	case "true":
		t := true
		p.Forward = &t
	case "false":
		f := false
		p.Forward = &f
	default:
		bad("forward", "must be true, false or empty")
	}
	fanout, err := readFanout(v["fanout"])
	if err != nil {
		bad("fanout", "%v", err)
	}
	p.Fanout = fanout
	switch strings.TrimSpace(v["pages"]) {
	case "":
		p.AllPages = false
	case "all":
		p.AllPages = true
	default:
		bad("pages", "must be all (read every page) or empty (the first page)")
	}
	p.Limit = 0
	if s := strings.TrimSpace(v["limit"]); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			// API_Query.html: Limit has a minimum value of 1.
			bad("limit", "must be a whole number of 1 or more (DynamoDB's minimum), or empty")
		}
		p.Limit = n
	}
	switch strings.TrimSpace(v["consistent"]) {
	case "", "false":
		p.Consistent = false
	case "true":
		p.Consistent = true
		// API_Query.html: ConsistentRead is not supported on global secondary
		// indexes. Refused as it is typed; a pattern that came so from its file
		// keeps it through other edits (review's consistent-read-on-gsi names it).
		kept := editing >= 0 && base.Consistent && base.Index == p.Index
		if !ix.Local && p.Index != "" && !kept {
			bad("consistent", "Consistent reads are not supported on global secondary indexes")
		}
	default:
		bad("consistent", "must be true, false or empty")
	}
	p.Filter, p.Projection, p.Condition, p.Update = v["filter"], v["projection"], v["condition"], v["update"]
	p.KeyCondition, p.Key, p.Item = "", nil, nil
	p.Statement, p.Parameters = strings.TrimSpace(v["statement"]), nil
	if s := strings.TrimSpace(v["parameters"]); s != "" {
		if list, err := parseValue(s); err != nil || list.Type != model.TypeL {
			bad("parameters", "write the parameters as a list, in the order of the statement's ?s: [CUST#42, 10]")
		} else {
			p.Parameters = list.List
		}
	}

	// The expressions are compiled only when names and values read, so an error under
	// an expression is about the expression.
	if errs["names"] != "" || errs["values"] != "" {
		return p, errs
	}
	ctx := expr.NewContext(names, values)
	compile := func(field, src string, f func(string) error) {
		if strings.TrimSpace(src) == "" {
			return
		}
		if err := safeCompile(func() error { return f(src) }); err != nil {
			bad(field, "%s", exprMessage(err))
		}
	}
	keySrc := strings.TrimSpace(v["key"])
	switch p.Operation {
	case model.OpQuery:
		p.KeyCondition = keySrc
		if keySrc == "" {
			bad("key", "a Query needs a KeyConditionExpression, such as: PK = :pk")
		}
		compile("key", keySrc, func(s string) error {
			_, err := expr.CompileKeyCondition(s, ctx, keySchema(d, ix, p.Index != ""))
			return err
		})
	case model.OpGetItem, model.OpUpdateItem, model.OpDeleteItem:
		key, err := parseMapping(keySrc)
		if err != nil {
			bad("key", "%v", err)
		} else if msg := keyProblem(d, key); msg != "" {
			bad("key", "%s", msg)
		}
		p.Key = key
	default:
		if keySrc != "" {
			bad("key", "%s takes no key: BatchGetItem and TransactGetItems take keys, the writes of a batch or transaction their actions", p.Operation)
		}
	}
	compile("filter", p.Filter, func(s string) error { _, err := expr.CompileFilter(s, ctx); return err })
	compile("projection", p.Projection, func(s string) error { _, err := expr.CompileProjection(s, ctx); return err })
	compile("condition", p.Condition, func(s string) error { _, err := expr.CompileCondition(s, ctx); return err })
	compile("update", p.Update, func(s string) error { _, err := expr.CompileUpdate(s, ctx); return err })
	if p.Operation == model.OpUpdateItem && strings.TrimSpace(p.Update) == "" {
		bad("update", "an UpdateItem needs an UpdateExpression, such as: SET #s = :s")
	}
	if p.Operation == model.OpPutItem {
		item, err := parseMapping(v["item"])
		switch {
		case err != nil:
			bad("item", "%v", err)
		case len(item) == 0:
			bad("item", "a PutItem needs the item, such as {type: customer, customerId: c-1, name: Ada}: its entity's templates build the keys")
		}
		p.Item = item
	} else if strings.TrimSpace(v["item"]) != "" {
		bad("item", "only a PutItem takes an item")
	}
	lists := map[string]func(*model.Pattern){
		"keys":    func(q *model.Pattern) { p.Keys = q.Keys },
		"actions": func(q *model.Pattern) { p.Actions = q.Actions },
		"expect":  func(q *model.Pattern) { p.Expect = q.Expect },
	}
	for _, field := range []string{"keys", "actions", "expect"} {
		q, err := readPatternList(p.Operation, field, v[field])
		if err != nil {
			bad(field, "%v", err)
			continue
		}
		lists[field](q)
	}
	// The items the pattern writes get the keys their entity's templates build, as
	// the loader gives them (model.Templater.ApplyToPatterns) and as the Items pane
	// builds an item's: {type: student, studentId: s-3, ...} is enough.
	applyPatternTemplates(d, &p, bad)
	if p.Operation == model.OpPutItem && len(p.Item) > 0 {
		if msg := keyProblem(d, p.Item); msg != "" {
			bad("item", "%s", msg)
		}
	}
	p.ExpectError = strings.TrimSpace(v["expectError"])
	p.Partitions = 0
	if s := strings.TrimSpace(v["partitions"]); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 {
			bad("partitions", "a whole number of partition key values, 1 or more, or empty")
		}
		p.Partitions = n
	}
	switch strings.TrimSpace(v["batch"]) {
	case "", "false":
		p.Batch = false
	case "true":
		p.Batch = true
	default:
		bad("batch", "must be true, false or empty")
	}
	if len(errs) == 0 {
		// The fields an operation takes are the loader's (model.Validate, from the API
		// reference of each operation): a field the request has no parameter for, or
		// one it needs and lacks, is refused at that field.
		for _, msg := range patternProblems(d, p) {
			field := "operation"
		words:
			for _, w := range messageWords(msg) {
				for _, f := range patternFields {
					if w == f[0] {
						field = f[0]
						break words
					}
				}
			}
			if strings.Contains(msg, "the fan-out's") { // "no value uses the fan-out's {shard}", whose hint names key
				field = "fanout"
			}
			bad(field, "%s", msg)
		}
	}
	if len(errs) == 0 {
		// API_Query.html: a name or value no expression uses is a ValidationException.
		if err := safeCompile(ctx.CheckUnused); err != nil {
			field := "values"
			if strings.Contains(exprMessage(err), "ExpressionAttributeNames") {
				field = "names"
			}
			bad(field, "%s", exprMessage(err))
		}
	}
	return p, errs
}

// keySchema is what a key condition is checked against: the table's key or the
// index's, with their declared types.
func keySchema(d *model.Design, ix model.Index, onIndex bool) expr.KeySchema {
	k := d.Table.Key
	if onIndex {
		k = d.Table.IndexKey(&ix)
	}
	return expr.KeySchemaOf(&d.Table, k)
}

// keyProblem checks that a key or item carries the table's key attributes with their
// declared types (API_GetItem.html: "The provided key element does not match the
// schema").
func keyProblem(d *model.Design, it map[string]model.Value) string {
	for _, n := range []string{d.Table.Key.Partition, d.Table.Key.Sort} {
		if n == "" {
			continue
		}
		v, ok := it[n]
		if !ok {
			return fmt.Sprintf("The provided key element does not match the schema: %s is missing", n)
		}
		if want := d.Table.KeyAttributeType(n); v.Type != want {
			return fmt.Sprintf("The provided key element does not match the schema: %s is %s, the table declares %s", n, v.Type, want)
		}
	}
	return ""
}

// safeCompile turns a panic inside an expression compiler into an error: a form must
// never take the workbench down.
func safeCompile(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cannot check this expression yet (%v)", r)
		}
	}()
	return f()
}

func exprMessage(err error) string {
	var ee *expr.Error
	if errors.As(err, &ee) {
		return ee.Message
	}
	return err.Error()
}

// applyPatternTemplates builds the keys p's written items leave out from d's
// templates, on copies (the form's values are parsed afresh each keystroke, but a
// base pattern's items are the design's), each problem reported at its field.
func applyPatternTemplates(d *model.Design, p *model.Pattern, bad func(field, format string, args ...any)) {
	if p.Item != nil {
		p.Item = p.Item.Clone()
	}
	p.Actions = slices.Clone(p.Actions)
	for i := range p.Actions {
		if p.Actions[i].Item != nil {
			p.Actions[i].Item = p.Actions[i].Item.Clone()
		}
	}
	one := &model.Design{Table: d.Table, Entities: d.Entities, Patterns: []model.Pattern{*p}}
	t := model.NewTemplater(one)
	if t == nil {
		return
	}
	var list model.ErrorList
	t.ApplyToPatterns(one, &list)
	*p = one.Patterns[0]
	for _, e := range list {
		field := "actions"
		if p.Operation == model.OpPutItem {
			field = "item"
		}
		bad(field, "%s", problemText(e))
	}
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// patternProblems is what the loader says of p alone: model.Validate of a design
// holding the table and this one pattern, the pattern's number left out.
func patternProblems(d *model.Design, p model.Pattern) []string {
	p.ID = 1
	one := &model.Design{Version: 1, Name: d.Name, Table: d.Table, Patterns: []model.Pattern{p}}
	var out []string
	var list model.ErrorList
	if errors.As(model.Validate(one), &list) {
		for _, e := range list {
			if msg, ok := strings.CutPrefix(problemText(e), "pattern 1: "); ok {
				out = append(out, msg)
			}
		}
	}
	return out
}
