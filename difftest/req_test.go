package difftest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"stwb/engine"
	"stwb/model"
)

// request is one generated API call, in the engine's input types; sdk_test.go sends
// the same call to dynalite.
type request struct {
	desc   string // what the generator meant, for failure messages
	op     model.Operation
	get    engine.GetItemInput
	query  engine.QueryInput
	scan   engine.ScanInput
	put    engine.PutItemInput
	update engine.UpdateItemInput
	del    engine.DeleteItemInput
	pages  bool // follow LastEvaluatedKey with ExclusiveStartKey to the end
	// tie names the index key attributes when the read is on an index: items with
	// equal index keys come back in no defined order (see verify.CompareOptions).
	tie []string
}

func (q request) String() string {
	switch q.op {
	case model.OpGetItem:
		return fmt.Sprintf("%s GetItem %+v", q.desc, q.get)
	case model.OpQuery:
		return fmt.Sprintf("%s Query %+v pages=%v", q.desc, q.query, q.pages)
	case model.OpPutItem:
		return fmt.Sprintf("%s PutItem %+v", q.desc, q.put)
	case model.OpUpdateItem:
		return fmt.Sprintf("%s UpdateItem %+v", q.desc, q.update)
	case model.OpDeleteItem:
		return fmt.Sprintf("%s DeleteItem %+v", q.desc, q.del)
	}
	return fmt.Sprintf("%s Scan %+v pages=%v", q.desc, q.scan, q.pages)
}

// request draws one request: reads of every kind, one in ten a write, and one in
// five invalid.
func (w *world) request() request {
	indexes := []string{gsi1, gsi2}
	if w.table.Key.Sort != "" {
		indexes = append(indexes, lsi1)
	}
	switch f := w.r.IntN(100); {
	case f < 10:
		return w.writeReq()
	case f < 28:
		return w.query("")
	case f < 48:
		return w.query(pick(w.r, indexes))
	case f < 60:
		return w.getItem()
	case f < 78:
		return w.scanReq(pick(w.r, append([]string{"", ""}, indexes...)))
	}
	return w.invalid()
}

// query builds a valid Query: a partition from the index (or, sometimes, one that
// has no items), a sort key condition of any kind, either direction, with or without
// Limit and pages, a filter, a projection, or Select COUNT.
func (w *world) query(index string) request {
	ks := w.keySchemaOf(index)
	b := newBuilder(w.r)
	pks := w.valuesOf(index, ks.Partition, nil)
	var pk model.Value
	if len(pks) == 0 || w.chance(0.08) {
		pk = w.ofType(w.table.KeyAttributeType(ks.Partition), 1000)
	} else {
		pk = pick(w.r, pks)
	}
	kc := b.name(ks.Partition) + " = " + b.val(pk)
	desc := "query"
	sortCond := false
	if ks.Sort != "" && w.chance(0.75) {
		cond, d := w.sortCondition(b, index, ks, pk, false)
		kc += " AND " + cond
		desc += " " + d
		sortCond = true
	}
	in := engine.QueryInput{IndexName: index, KeyConditionExpression: kc}
	if !w.chance(0.5) {
		fwd := false
		in.ScanIndexForward = &fwd
	}
	q := request{op: model.OpQuery, desc: desc}
	w.readOptions(b, index, &in.Limit, &in.ConsistentRead, &in.FilterExpression, &in.ProjectionExpression, &in.Select, &q.pages, ks)
	in.ExpressionAttributeNames, in.ExpressionAttributeValues = b.maps()
	q.query = in
	q.tie = w.tieOf(index)
	if q.tie != nil && in.Limit > 0 {
		q.pages = true // where a page ends inside a run of equal index keys is not defined
	}
	if sortCond && q.pages && w.utf16Trap(index, ks.Sort, pk, in.ExpressionAttributeValues) {
		// dynalite checks an ExclusiveStartKey against the sort key condition with
		// its filter comparison (actions/query.js db.compare), which orders strings
		// by UTF-16 code units, and rejects a valid key such as U+FFFF within
		// BETWEEN A AND 🙂 ("does not match the range key predicate"). Such a
		// partition is compared on its first page only.
		q.pages = false
		q.desc += " (first page only: dynalite's UTF-16 ExclusiveStartKey check)"
	}
	return q
}

// utf16Trap reports whether UTF-16 and UTF-8 order could disagree between the sort
// keys of index partition pk and the request's values: only a string with a
// character in U+E000..U+FFFF against one with a character beyond U+FFFF does.
func (w *world) utf16Trap(index, sort string, pk model.Value, values map[string]model.Value) bool {
	high, supp := false, false
	note := func(v model.Value) {
		if v.Type != model.TypeS {
			return
		}
		for _, r := range v.Str {
			high = high || (r >= 0xe000 && r <= 0xffff)
			supp = supp || r > 0xffff
		}
	}
	for _, v := range w.valuesOf(index, sort, &pk) {
		note(v)
	}
	for _, v := range values {
		note(v)
	}
	return high && supp
}

// utf16Disagree reports whether two strings order differently by UTF-16 code units
// than by UTF-8 bytes: one has a character in U+E000..U+FFFF where the other has one
// beyond U+FFFF.
func utf16Disagree(a, b model.Value) bool {
	if a.Type != model.TypeS || b.Type != model.TypeS {
		return false
	}
	ua, ub := utf16.Encode([]rune(a.Str)), utf16.Encode([]rune(b.Str))
	c16 := slices.Compare(ua, ub)
	c8 := strings.Compare(a.Str, b.Str)
	return (c16 < 0) != (c8 < 0) || (c16 > 0) != (c8 > 0)
}

// sortCondition is a condition on the sort key, of a random kind; with invalid set
// it is BETWEEN with its bounds out of order.
func (w *world) sortCondition(b *builder, index string, ks model.KeySchema, pk model.Value, invalid bool) (string, string) {
	st := w.table.KeyAttributeType(ks.Sort)
	operand := func() model.Value {
		if vs := w.valuesOf(index, ks.Sort, &pk); len(vs) > 0 && w.chance(0.75) {
			return pick(w.r, vs)
		}
		return w.ofType(st, 1000)
	}
	sk := b.name(ks.Sort)
	kinds := []string{"=", "<", "<=", ">", ">=", "BETWEEN"}
	if st != model.TypeN {
		kinds = append(kinds, "begins_with")
	}
	kind := pick(w.r, kinds)
	if invalid {
		kind = "BETWEEN"
	}
	switch kind {
	case "BETWEEN":
		lo, hi := operand(), operand()
		for i := 0; i < 20 && utf16Disagree(lo, hi); i++ {
			// dynalite checks BETWEEN's bound order by UTF-16 code units
			// (db/conditionParser.js), DynamoDB by UTF-8 bytes: such a pair would
			// be refused by one and not the other.
			hi = operand()
		}
		if utf16Disagree(lo, hi) {
			hi = lo
		}
		c := model.CompareScalar(lo, hi)
		if (c > 0) != invalid {
			lo, hi = hi, lo
		}
		if invalid && c == 0 {
			hi = w.below(lo)
		}
		return sk + " BETWEEN " + b.val(lo) + " AND " + b.val(hi), "BETWEEN"
	case "begins_with":
		return "begins_with(" + sk + ", " + b.val(w.prefixOf(operand())) + ")", "begins_with"
	}
	return sk + " " + kind + " " + b.val(operand()), kind
}

// below is a value that sorts before v (for an out-of-order BETWEEN).
func (w *world) below(v model.Value) model.Value {
	switch v.Type {
	case model.TypeN:
		n, err := model.ParseNumber(v.Str)
		one, _ := model.ParseNumber("1")
		if err == nil {
			// A 38-digit number minus 1 can need 39 digits; then fall back.
			if d, err := n.Sub(one); err == nil && len(d.Digits) <= 38 {
				return model.Num(d.String())
			}
		}
		return model.Num("-9.9E+125")
	case model.TypeB:
		if v.Str == "\x00" {
			return v // nothing sorts before 0x00 but the empty binary, not a key
		}
		return model.Bin([]byte{0})
	}
	if v.Str == "\x01" {
		return v
	}
	return model.Str("\x01")
}

// readOptions adds what Query and Scan share: Limit (and following pages),
// ConsistentRead (never on a GSI), a filter, a projection or Select COUNT.
func (w *world) readOptions(b *builder, index string, limit *int, consistent *bool, filter, proj, sel *string, pages *bool, keys model.KeySchema) {
	if w.chance(0.55) {
		*limit = 1 + w.r.IntN(8)
		*pages = w.chance(0.7)
	} else {
		*pages = w.chance(0.2)
	}
	if ix, _ := w.table.IndexByName(index); index == "" || ix.Local {
		*consistent = w.chance(0.3)
	}
	if w.chance(0.45) {
		*filter = w.filter(b, index, keys, 2)
	}
	switch f := w.r.Float64(); {
	case f < 0.3:
		*proj = w.projection(b, index)
	case f < 0.36:
		*sel = engine.SelectCount
	}
}

func (w *world) tieOf(index string) []string {
	if index == "" {
		return nil
	}
	ks := w.keySchemaOf(index)
	if ks.Sort == "" {
		return []string{ks.Partition}
	}
	return []string{ks.Partition, ks.Sort}
}

// filterable lists what a filter may name: anything on a Scan, no key attribute of
// the queried table or index on a Query (API_Query.html "FilterExpression"), and on
// an index only what it projects (see world.projects).
func (w *world) filterable(index string, keys model.KeySchema) []string {
	all := append([]string{attrPK, attrSK, attrGPK, attrGSK, attrG2PK, attrLSK}, plainAttrs...)
	var out []string
	for _, a := range all {
		if a == keys.Partition || a == keys.Sort || (a == attrSK && w.table.Key.Sort == "") {
			continue
		}
		if (a == attrLSK && w.table.Key.Sort == "") || !w.projectsForFilter(index, a) {
			continue
		}
		out = append(out, a)
	}
	return out
}

// projectsForFilter: a filter on a GSI sees only the index entry, as DynamoDB and
// dynalite both evaluate it; on an LSI dynalite does not fetch from the table where
// DynamoDB does, so LSI filters keep to projected attributes.
func (w *world) projectsForFilter(index, a string) bool {
	ix, ok := w.table.IndexByName(index)
	if !ok || !ix.Local {
		return true
	}
	return w.projects(index, a)
}

// filter builds a FilterExpression of every comparator and function DynamoDB has
// (Expressions.OperatorsAndFunctions.html), nested up to depth with AND, OR, NOT
// and parentheses. keys are the queried key attributes (none for a Scan).
func (w *world) filter(b *builder, index string, keys model.KeySchema, depth int) string {
	if depth > 0 && w.chance(0.35) {
		l := w.filter(b, index, keys, depth-1)
		switch w.r.IntN(4) {
		case 0:
			if strings.HasPrefix(l, "NOT ") {
				// dynalite's grammar rejects NOT NOT a (a syntax error, "Expected
				// \"(\""); DynamoDB's grammar (Expressions.OperatorsAndFunctions.html
				// "Syntax for condition expressions") nests NOT freely. Parenthesised,
				// both accept it.
				return "NOT (" + l + ")"
			}
			return "NOT " + l
		case 1:
			return "(" + l + ")"
		case 2:
			return l + " AND " + w.filter(b, index, keys, depth-1)
		}
		return l + " OR " + w.filter(b, index, keys, depth-1)
	}
	kind := w.r.IntN(11)
	attrs := w.filterable(index, keys)
	if kind == 8 || kind == 10 {
		// size() takes no strings: dynalite's size() counts UTF-16 code units
		// (db/index.js resolveArg: val.S.length), so 🙂 would be 2 there.
		attrs = w.sizable(index, keys)
	}
	top := pick(w.r, attrs)
	path := top
	switch top {
	case "mp":
		path = pick(w.r, []string{"mp", "mp.x", "mp.y", "mp.z.q", "mp.z"})
		if kind == 8 || kind == 10 {
			path = pick(w.r, []string{"mp", "mp.z"}) // maps, not their strings
		}
	case "lst":
		path = pick(w.r, []string{"lst", "lst[0]", "lst[1]", "lst[2]"})
		if kind == 8 || kind == 10 {
			path = "lst"
		}
	}
	p := b.path(path)
	operand := func() model.Value {
		// Mostly a value of the kind the attribute holds, sometimes another type,
		// which compares false rather than failing.
		switch {
		case w.chance(0.15):
			return w.scalar()
		case top == "num" || top == "ns" || path == "mp.x":
			return w.num()
		case top == "bin" || top == "bs":
			return w.bin()
		case top == "flag":
			return model.Bool(w.chance(0.5))
		case top == "nul":
			return model.Null()
		case top == "lst":
			return w.scalar()
		}
		if vs := w.valuesOf("", top, nil); len(vs) > 0 && vs[0].Type.IsScalarKeyType() && w.chance(0.6) {
			return pick(w.r, vs)
		}
		return w.str()
	}
	ordered := func() model.Value {
		// dynalite orders BOOL and NULL operands (db/index.js compare: toLexiStr of
		// a boolean); DynamoDB's <, <=, >, >= and BETWEEN compare only N, S and B
		// (Expressions.OperatorsAndFunctions.html "Comparison operators"). Ordering
		// comparisons keep to those types.
		v := operand()
		if !v.Type.IsScalarKeyType() {
			return w.num()
		}
		for v.Type == model.TypeS && !utf16Safe(v.Str) {
			v = w.str() // see world.str: dynalite orders filter strings by UTF-16
		}
		return v
	}
	switch kind {
	case 0, 1:
		if w.chance(0.4) {
			return p + " " + pick(w.r, []string{"=", "<>"}) + " " + b.val(operand())
		}
		return p + " " + pick(w.r, []string{"<", "<=", ">", ">="}) + " " + b.val(ordered())
	case 2:
		if top == "emp" {
			// dynalite's BETWEEN, IN and attribute_type treat an empty string like
			// a missing attribute (db/index.js compare: `if (!attrVal) return
			// false`); DynamoDB does not. emp only ever holds "".
			return p + " = " + b.val(model.Str(""))
		}
		lo, hi := ordered(), ordered()
		if lo.Type != hi.Type {
			hi = lo
		}
		if model.CompareScalar(lo, hi) > 0 {
			lo, hi = hi, lo
		}
		return p + " BETWEEN " + b.val(lo) + " AND " + b.val(hi)
	case 3:
		if top == "flag" || top == "emp" {
			// dynalite's IN and attribute_type treat a false BOOL and an empty
			// string as missing (db/index.js compare: `if (!attrVal) return false`);
			// DynamoDB does not.
			return p + " = " + b.val(operand())
		}
		return p + " IN (" + b.val(operand()) + ", " + b.val(operand()) + ", " + b.val(operand()) + ")"
	case 4:
		return pick(w.r, []string{"attribute_exists", "attribute_not_exists"}) + "(" + p + ")"
	case 5:
		if top == "flag" || top == "emp" {
			return "attribute_exists(" + p + ")"
		}
		return "attribute_type(" + p + ", " + b.val(model.Str(pick(w.r, typeNames))) + ")"
	case 6:
		if w.chance(0.5) {
			return "begins_with(" + p + ", " + b.val(w.prefixOf(w.str())) + ")"
		}
		return "begins_with(" + p + ", " + b.val(w.asciiBin()) + ")"
	case 7:
		v := operand()
		if v.Type == model.TypeB {
			v = w.asciiBin()
		}
		return "contains(" + p + ", " + b.val(v) + ")"
	case 8, 10:
		if w.r.IntN(2) == 0 {
			return "size(" + p + ") BETWEEN " + b.val(model.Num("1")) + " AND " + b.val(model.Num("3"))
		}
		return "size(" + p + ") " + pick(w.r, []string{"=", "<>", "<", "<=", ">", ">="}) + " " + b.val(model.Num(strconv.Itoa(w.r.IntN(5))))
	}
	// Two paths compared with each other, both present: dynalite compares two
	// missing operands as equal (db/index.js compare: null type == null type),
	// DynamoDB's comparison with a missing attribute is false.
	for _, a := range []string{"num", "mp", "str", "lst"} {
		if !w.projectsForFilter(index, a) {
			return "attribute_exists(" + p + ")"
		}
	}
	other := pick(w.r, []string{"num", "str", "mp.x", "lst[0]"})
	if other == path {
		other = "num"
	}
	op := b.path(other)
	return "(attribute_exists(" + p + ") AND attribute_exists(" + op + ") AND " + p + " " +
		pick(w.r, []string{"=", "<", ">=", "<>"}) + " " + op + ")"
}

// asciiBin is a binary operand of bytes below 0x80. dynalite decodes binaries as
// UTF-8 text for begins_with and contains (db/index.js compare), so two different
// invalid sequences both become U+FFFD and match; DynamoDB compares bytes.
func (w *world) asciiBin() model.Value {
	return model.Bin(pick(w.r, [][]byte{{0}, {0, 1}, {1}, {0x7f}, {'a'}, {'a', 'b'}}))
}

// sizable lists paths size() may take in a filter: every non-string type.
func (w *world) sizable(index string, keys model.KeySchema) []string {
	var out []string
	ok := map[string]bool{}
	for _, a := range w.filterable(index, keys) {
		ok[a] = true
	}
	for _, a := range []string{"lst", "mp", "ss", "ns", "bs", "bin"} {
		if ok[a] {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return []string{"absent"} // size() of a missing attribute: false
	}
	return out
}

// projection builds a ProjectionExpression of top-level names and document paths,
// no two overlapping, of what the table or index returns.
func (w *world) projection(b *builder, index string) string {
	cands := []string{attrPK, attrSK, "num", "str", "flag", "mp", "mp.x", "mp.z.q", "lst[0]", "lst[1]",
		"ss", "ns", "bin", "emp", attrGPK, attrGSK, attrLSK, "absent"}
	seen := map[string]bool{}
	var parts []string
	for _, i := range w.r.Perm(len(cands))[:1+w.r.IntN(4)] {
		c := cands[i]
		top := c
		for j, ch := range c {
			if ch == '.' || ch == '[' {
				top = c[:j]
				break
			}
		}
		if seen[top] || (index != "" && !w.projects(index, top)) {
			continue
		}
		seen[top] = true
		parts = append(parts, b.path(c))
	}
	if len(parts) == 0 {
		ks := w.keySchemaOf(index)
		parts = append(parts, b.path(ks.Partition))
	}
	out := parts[0]
	for _, p := range parts[1:] {
		out += ", " + p
	}
	return out
}

func (b *builder) maps() (map[string]string, map[string]model.Value) {
	var n map[string]string
	var v map[string]model.Value
	if len(b.names) > 0 {
		n = b.names
	}
	if len(b.values) > 0 {
		v = b.values
	}
	return n, v
}

// getItem reads an item by its key (or a key with no item), sometimes projected.
func (w *world) getItem() request {
	var key model.Item
	if len(w.items) > 0 && w.chance(0.8) {
		it := pick(w.r, w.items)
		key = model.Item{attrPK: it[attrPK]}
		if w.table.Key.Sort != "" {
			key[attrSK] = it[attrSK]
		}
	} else {
		key = model.Item{attrPK: w.ofType(w.table.KeyAttributeType(attrPK), 1000)}
		if w.table.Key.Sort != "" {
			key[attrSK] = w.ofType(w.table.KeyAttributeType(attrSK), 1000)
		}
	}
	b := newBuilder(w.r)
	in := engine.GetItemInput{Key: key, ConsistentRead: w.chance(0.5)}
	if w.chance(0.35) {
		in.ProjectionExpression = w.projection(b, "")
	}
	in.ExpressionAttributeNames, _ = b.maps()
	return request{op: model.OpGetItem, desc: "get", get: in}
}

// scanReq scans the table or an index, with Limit and pages, a filter (which may
// name keys), a projection or Select COUNT.
func (w *world) scanReq(index string) request {
	b := newBuilder(w.r)
	in := engine.ScanInput{IndexName: index}
	q := request{op: model.OpScan, desc: "scan"}
	w.readOptions(b, index, &in.Limit, &in.ConsistentRead, &in.FilterExpression, &in.ProjectionExpression, &in.Select, &q.pages, model.KeySchema{})
	in.ExpressionAttributeNames, in.ExpressionAttributeValues = b.maps()
	q.scan = in
	q.tie = w.tieOf(index)
	if q.tie != nil && in.Limit > 0 {
		q.pages = true
	}
	return q
}

// invalid builds a request DynamoDB rejects with a ValidationException, of one of
// the kinds Query.html, API_Query.html, API_GetItem.html and
// Expressions.OperatorsAndFunctions.html describe.
func (w *world) invalid() request {
	ks := w.keySchemaOf("")
	q := w.query("")
	in := &q.query
	pk := in.ExpressionAttributeValues
	if pk == nil {
		pk = map[string]model.Value{}
	}
	names := in.ExpressionAttributeNames
	if names == nil {
		names = map[string]string{}
	}
	set := func(desc string) request {
		q.desc = "invalid: " + desc
		in.ExpressionAttributeValues, in.ExpressionAttributeNames = pk, names
		if len(pk) == 0 {
			in.ExpressionAttributeValues = nil
		}
		if len(names) == 0 {
			in.ExpressionAttributeNames = nil
		}
		return q
	}
	b := newBuilder(w.r)
	switch w.r.IntN(15) {
	case 0: // the partition key value of the wrong type
		wrong := model.Num("1")
		if w.table.KeyAttributeType(attrPK) == model.TypeN {
			wrong = model.Str("1")
		}
		in.KeyConditionExpression = attrPK + " = :bad"
		in.FilterExpression, in.ProjectionExpression, in.Select = "", "", ""
		pk, names = map[string]model.Value{":bad": wrong}, nil
		return set("key value of the wrong type")
	case 1: // BETWEEN with its bounds out of order
		if ks.Sort == "" {
			break
		}
		b := newBuilder(w.r)
		pkv := pick(w.r, w.valuesOf("", attrPK, nil))
		cond, _ := w.sortCondition(b, "", ks, pkv, true)
		in2 := engine.QueryInput{KeyConditionExpression: attrPK + " = " + b.val(pkv) + " AND " + cond}
		in2.ExpressionAttributeNames, in2.ExpressionAttributeValues = b.maps()
		return request{op: model.OpQuery, desc: "invalid: BETWEEN out of order", query: in2}
	case 2: // a Query filter on a key attribute
		k := ks.Partition
		if ks.Sort != "" && w.chance(0.5) {
			k = ks.Sort
		}
		in.FilterExpression = "attribute_exists(" + k + ")"
		return set("filter on key attribute " + k)
	case 3: // ConsistentRead on a GSI
		g := w.query(gsi1)
		g.query.ConsistentRead = true
		g.desc = "invalid: ConsistentRead on a GSI"
		return g
	case 4: // an index the table does not have
		in.IndexName = "NoSuchIndex"
		return set("missing index")
	case 5:
		pk[":unused"] = model.Str("x")
		return set("unused value")
	case 6:
		names["#unused"] = "x"
		return set("unused name")
	case 7:
		in.FilterExpression = "num = :nope"
		return set("filter names a value not given")
	case 8: // begins_with on a number sort key, or <> in a key condition
		if ks.Sort == "" {
			break
		}
		op := "<>"
		if w.table.KeyAttributeType(attrSK) == model.TypeN {
			in.KeyConditionExpression = attrPK + " = :kp AND begins_with(" + attrSK + ", :ks)"
			pk = map[string]model.Value{":kp": w.ofType(w.table.KeyAttributeType(attrPK), 5), ":ks": model.Num("1")}
			names = nil
			in.FilterExpression, in.ProjectionExpression, in.Select = "", "", ""
			return set("begins_with on a number sort key")
		}
		in.KeyConditionExpression = attrPK + " = :kp AND " + attrSK + " " + op + " :ks"
		pk = map[string]model.Value{":kp": w.ofType(w.table.KeyAttributeType(attrPK), 5), ":ks": w.ofType(w.table.KeyAttributeType(attrSK), 5)}
		names = nil
		in.FilterExpression, in.ProjectionExpression, in.Select = "", "", ""
		return set("<> in a key condition")
	case 9: // a key condition on a non-key attribute
		in.KeyConditionExpression += " AND num = :kn"
		pk[":kn"] = model.Num("1")
		return set("key condition on a non-key attribute")
	case 10: // GetItem with part of the key, or a key of the wrong type
		it := w.getItem()
		if ks.Sort != "" && w.chance(0.5) {
			delete(it.get.Key, attrSK)
			it.desc = "invalid: GetItem without the sort key"
		} else {
			it.get.Key[attrPK] = model.Bool(true)
			it.desc = "invalid: GetItem key of the wrong type"
		}
		return it
	case 11:
		in.FilterExpression = "num >"
		return set("syntax error in the filter")
	case 12:
		in.FilterExpression = reservedAttr + " = :rw"
		pk[":rw"] = model.Str("x")
		return set("reserved word used bare")
	case 13:
		in.ProjectionExpression, in.Select = b.path("mp")+", "+b.path("mp.x"), ""
		for k, v := range b.names {
			names[k] = v
		}
		return set("overlapping projection paths")
	case 14: // an ExclusiveStartKey outside the queried partition
		if len(w.items) < 2 {
			break
		}
		var other model.Item
		for _, it := range w.items {
			if !w.queriesPartition(q, it[attrPK]) {
				other = it
				break
			}
		}
		if other == nil {
			break
		}
		esk := model.Item{attrPK: other[attrPK]}
		if ks.Sort != "" {
			esk[attrSK] = other[attrSK]
		}
		in.ExclusiveStartKey = esk
		return set("ExclusiveStartKey outside the partition")
	}
	q.query.Limit = -1
	q.desc = "invalid: Limit -1"
	q.pages = false
	return q
}

// queriesPartition reports whether the table query q reads partition pk.
func (w *world) queriesPartition(q request, pk model.Value) bool {
	for _, v := range q.query.ExpressionAttributeValues {
		if v.Equal(pk) {
			return true
		}
	}
	return false
}
