package engine

import (
	"errors"
	"fmt"
	"maps"
	"strings"

	"stwb/expr"
	"stwb/internal/numfmt"
	"stwb/model"
)

// DynamoDB's error types, as the API names them.
const (
	ValidationException             = "ValidationException"
	ConditionalCheckFailedException = "ConditionalCheckFailedException"
	TransactionCanceledException    = "TransactionCanceledException"
)

// The messages DynamoDB gives (wording checked against dynalite's db/index.js and
// validations/*.js, which copy DynamoDB's).
const (
	msgKeySchema        = "The provided key element does not match the schema"
	msgConditionFailed  = "The conditional request failed"
	msgItemTooLarge     = "Item size has exceeded the maximum allowed size"
	msgUpdateTooLarge   = "Item size to update has exceeded the maximum allowed size"
	msgDuplicateKeys    = "Provided list of item keys contains duplicates"
	msgTransactSameItem = "Transaction request cannot include multiple operations on one item"
	msgGSIConsistent    = "Consistent reads are not supported on global secondary indexes"
	msgBadStartKey      = "The provided starting key is invalid"
)

// MsgItemTooLarge is DynamoDB's refusal of an item over 400 KB (PutItem, a batch
// or transaction put, an update's result), for review's item-too-large.
const MsgItemTooLarge = msgItemTooLarge

// TooLarge says, for a message that names an item before it, why DynamoDB would
// not store an item of size bytes (over model.MaxItemSize): "is 410,050 bytes:
// DynamoDB would refuse to store it (ValidationException: Item size has exceeded
// the maximum allowed size)". deploy, serve and export each add what they do with
// such an item.
func TooLarge(size int) string {
	return fmt.Sprintf("is %s bytes: DynamoDB would refuse to store it (%s: %s)", numfmt.Int(int64(size)), ValidationException, msgItemTooLarge)
}

func validation(format string, args ...any) *Error {
	return &Error{Type: ValidationException, Message: fmt.Sprintf(format, args...)}
}

// fromExpr turns an expr package error into the engine's; anything else (which expr
// does not return) becomes a ValidationException with its text.
func fromExpr(err error) *Error {
	if err == nil {
		return nil
	}
	var xe *expr.Error
	if errors.As(err, &xe) {
		return &Error{Type: xe.Type, Message: xe.Message}
	}
	var ee *Error
	if errors.As(err, &ee) {
		return ee
	}
	return validation("%s", err.Error())
}

// newContext makes a request's expression context and checks the names and values
// maps themselves (empty maps, malformed placeholders), as DynamoDB does first.
func newContext(names map[string]string, values map[string]model.Value) (*expr.Context, *Error) {
	ctx := expr.NewContext(names, values)
	return ctx, fromExpr(ctx.Validate())
}

// exprParam is one expression parameter of a request, for checkExpressionParams:
// its name, whether the request carries it, and whether it takes values
// (ProjectionExpression takes only names).
type exprParam struct {
	name    string
	present bool
	values  bool
}

// checkExpressionParams refuses ExpressionAttributeNames or ExpressionAttributeValues
// given without an expression that could use them, before anything else about the
// expressions is checked, with DynamoDB's messages (dynalite validations/index.js
// validateExpressionParams: "ExpressionAttributeValues can only be specified when
// using expressions: ConditionExpression is null").
func checkExpressionParams(names map[string]string, values map[string]model.Value, params ...exprParam) *Error {
	anyGiven, valued := false, []string(nil)
	anyValued := false
	for _, p := range params {
		anyGiven = anyGiven || p.present
		if p.values {
			valued = append(valued, p.name)
			anyValued = anyValued || p.present
		}
	}
	if names != nil && !anyGiven {
		return validation("ExpressionAttributeNames can only be specified when using expressions")
	}
	if values != nil && len(valued) > 0 && !anyValued {
		verb := "is"
		if len(valued) > 1 {
			verb = "are"
		}
		return validation("ExpressionAttributeValues can only be specified when using expressions: %s %s null", strings.Join(valued, " and "), verb)
	}
	return nil
}

// asError returns a nil error interface for a nil *Error, so callers' err != nil
// checks work.
func asError(e *Error) error {
	if e == nil {
		return nil
	}
	return e
}

// normalize checks one attribute value as DynamoDB checks request values, and returns
// it with numbers in canonical form (DynamoDB stores "1.50" as "1.5"). Nested values
// are copied only where something changes; changed says whether anything did.
func normalize(v model.Value) (out model.Value, changed bool, err *Error) {
	switch v.Type {
	case model.TypeS, model.TypeB, model.TypeBOOL:
		return v, false, nil
	case model.TypeNULL:
		// {"NULL": false} is refused, not read as NULL (the conformance
		// measurement of issue 17; API_AttributeValue.html "NULL": "true").
		if !v.Bool {
			return v, false, validation("One or more parameter values were invalid: Null attribute value types must have the value of true")
		}
		return v, false, nil
	case model.TypeN:
		return normalizeNumber(v)
	case model.TypeL:
		var list []model.Value
		for i, e := range v.List {
			n, ch, err := normalize(e)
			if err != nil {
				return v, false, err
			}
			if ch && list == nil {
				list = append(make([]model.Value, 0, len(v.List)), v.List[:i]...)
			}
			if list != nil {
				list = append(list, n)
			}
		}
		if list == nil {
			return v, false, nil
		}
		v.List = list
		return v, true, nil
	case model.TypeM:
		var m map[string]model.Value
		for k, e := range v.Map {
			n, ch, err := normalize(e)
			if err != nil {
				return v, false, err
			}
			if ch {
				if m == nil {
					m = make(map[string]model.Value, len(v.Map))
					for k2, e2 := range v.Map {
						m[k2] = e2
					}
				}
				m[k] = n
			}
		}
		if m == nil {
			return v, false, nil
		}
		v.Map = m
		return v, true, nil
	case model.TypeSS, model.TypeNS, model.TypeBS:
		return normalizeSet(v)
	}
	return v, false, validation("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes")
}

func normalizeNumber(v model.Value) (model.Value, bool, *Error) {
	n, err := model.ParseNumber(v.Str)
	if err != nil {
		if errors.Is(err, model.ErrNumberSyntax) {
			return v, false, validation("A value provided cannot be converted into a number")
		}
		return v, false, validation("%s", capitalize(err.Error()))
	}
	// Most numbers in a design are written canonically already: comparing the
	// canonical text made in a stack buffer finds that without allocating.
	var buf [64]byte
	if t := n.AppendText(buf[:0]); string(t) != v.Str {
		return model.Num(string(t)), true, nil
	}
	return v, false, nil
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// normalizeSet rejects empty sets and duplicates as DynamoDB does
// (HowItWorks.NamingRulesDataTypes.html "Sets": "values within a set must be
// unique"; wording from dynalite validations/index.js).
func normalizeSet(v model.Value) (model.Value, bool, *Error) {
	if len(v.List) == 0 {
		return v, false, validation("%s", model.EmptySetMessage(v.Type))
	}
	elem := model.SetElemType(v.Type)
	var out []model.Value
	seen := make(map[string]bool, len(v.List))
	for i, e := range v.List {
		if e.Type != elem {
			return v, false, validation("One or more parameter values were invalid: a %s set holds a %s element", v.Type, e.Type)
		}
		n, ch, err := normalize(e)
		if err != nil {
			return v, false, err
		}
		if seen[n.Str] {
			return v, false, validation("%s", model.DuplicateSetMessage(v))
		}
		seen[n.Str] = true
		if ch && out == nil {
			out = append(make([]model.Value, 0, len(v.List)), v.List[:i]...)
		}
		if out != nil {
			out = append(out, n)
		}
	}
	if out == nil {
		return v, false, nil
	}
	v.List = out
	return v, true, nil
}

// normalizeItem returns the item with every value canonical (normalize). The item
// is changed in place when owned says the map is the engine's to change; otherwise a
// value that changes is set in a copy, and the item itself is returned when none does.
func normalizeItem(it model.Item, owned bool) (model.Item, *Error) {
	out, copied := it, owned
	for name, v := range it {
		n, changed, err := normalize(v)
		if err != nil {
			return nil, err
		}
		if changed {
			if !copied {
				// maps.Clone copies the map's table whole, several times faster
				// than inserting each attribute again; numbers written "17.50"
				// (not canonical) are common in designs, so this copy is too.
				out, copied = maps.Clone(it), true
			}
			out[name] = n
		}
	}
	return out, nil
}

// checkItem validates an item for a put (PutItem, a BatchWriteItem put, a
// transaction put, or the result of an update) and returns the copy to store, numbers
// canonical, with its size (model.ItemSize, computed here once for the 400 KB check
// and kept for the table entry). The checks and their wording are DynamoDB's
// (API_PutItem.html; dynalite db/index.js validateItem): key attributes present, of
// their type, not empty, within the key size limits; index key attributes of their
// type; the 400 KB item limit.
//
// The item is returned as given when it is already canonical: the engine keeps the
// caller's map rather than a copy (half the memory and most of the load time for a
// design's items), which is why callers must not change an item once given.
func (e *Engine) checkItem(it model.Item) (model.Item, int, *Error) {
	out, err := normalizeItem(it, false)
	if err != nil {
		return nil, 0, err
	}
	size, err := e.checkCanonicalItem(out)
	if err != nil {
		return nil, size, err // size: see checkCanonicalItem
	}
	return out, size, nil
}

// CheckItem is the validation PutItem applies to an item on this table, without
// writing it: nil when DynamoDB would accept the item. Importers use it so that an
// item DynamoDB would refuse is refused where it is read, naming its place in the
// imported file, by the same rules as the engine's own writes.
func (e *Engine) CheckItem(it model.Item) *Error {
	_, _, err := e.checkItem(it)
	return err
}

// checkCanonicalItem is checkItem's checks after normalizing, and the item's size
// (given with the error too when the item is refused for its size alone).
// They hold for the item as written as well as in canonical form: the key checks
// read numbers by value, and a number's size counts its significant digits, not how
// it is written. So a caller whose numbers are known valid (a lazily loaded design,
// which the model checked) may skip normalizing.
func (e *Engine) checkCanonicalItem(out model.Item) (int, *Error) {
	for i, a := range [2]keyAttr{e.key.Partition, e.key.Sort} {
		if a.Name == "" {
			continue
		}
		v, ok := out[a.Name]
		if !ok {
			return 0, validation("One or more parameter values were invalid: Missing the key %s in the item", a.Name)
		}
		if v.Type != a.Type {
			return 0, keyTypeMismatch(a, v)
		}
		if err := checkKeyValue(a, v, i == 0); err != nil {
			return 0, err
		}
	}
	for _, ix := range e.indexes {
		for a := range ix.key.eachAttr() {
			v, ok := out[a.Name]
			if a.Name == "" || !ok {
				continue
			}
			if v.Type != a.Type {
				return 0, indexKeyTypeMismatch(a, v, ix)
			}
			if model.EmptyKeyValue(v) {
				return 0, validation("One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty %s value. IndexName: %s, IndexKey: %s", emptyWord(v.Type), ix.def.Name, a.Name)
			}
		}
	}
	size := model.ItemSize(out)
	if !model.Stored(size) {
		return size, validation(msgItemTooLarge) // the size too, for bulkLoad.put
	}
	return size, nil
}

func emptyWord(t model.Type) string {
	if t == model.TypeB {
		return "binary"
	}
	return "string"
}

func keyTypeMismatch(a keyAttr, v model.Value) *Error {
	return validation("One or more parameter values were invalid: Type mismatch for key %s expected: %s actual: %s", a.Name, a.Type, v.Type)
}

func indexKeyTypeMismatch(a keyAttr, v model.Value, ix *index) *Error {
	return validation("One or more parameter values were invalid: Type mismatch for Index Key %s Expected: %s Actual: %s IndexName: %s", a.Name, a.Type, v.Type, ix.def.Name)
}

// emptyIndexKeyUpdate refuses an update that leaves an index key attribute an
// empty string or binary, in UpdateItem's own words, for the whole request even
// inside a transaction (the conformance suite's capture, "Update empty-string index
// key: top-level ValidationException").
func (e *Engine) emptyIndexKeyUpdate(item model.Item) *Error {
	for _, ix := range e.indexes {
		for a := range ix.key.eachAttr() {
			if v, ok := item[a.Name]; a.Name != "" && ok && v.Type == a.Type && model.EmptyKeyValue(v) {
				err := validation("One or more parameter values are not valid. The update expression attempted to update a secondary index key to a value that is not supported. The AttributeValue for a key attribute cannot contain an empty %s value.", emptyWord(v.Type))
				err.wholeRequest = true
				return err
			}
		}
	}
	return nil
}

// keyTypeError is the first key attribute (the table's, then each index's) that
// the item holds with another type than the key's; nil when none.
func (e *Engine) keyTypeError(item model.Item) *Error {
	for _, a := range [2]keyAttr{e.key.Partition, e.key.Sort} {
		if v, ok := item[a.Name]; a.Name != "" && ok && v.Type != a.Type {
			return keyTypeMismatch(a, v)
		}
	}
	for _, ix := range e.indexes {
		for a := range ix.key.eachAttr() {
			if v, ok := item[a.Name]; a.Name != "" && ok && v.Type != a.Type {
				return indexKeyTypeMismatch(a, v, ix)
			}
		}
	}
	return nil
}

// keyShapeError is msgKeySchema when a key does not have exactly the table's key
// attributes with their types; nil otherwise (its values are checked later).
func (e *Engine) keyShapeError(key model.Item) *Error {
	want := 1
	if e.key.hasSort() {
		want = 2
	}
	if len(key) != want {
		return validation(msgKeySchema)
	}
	for _, a := range [2]keyAttr{e.key.Partition, e.key.Sort} {
		if v, ok := key[a.Name]; a.Name != "" && (!ok || v.Type != a.Type) {
			return validation(msgKeySchema)
		}
	}
	return nil
}

// msgHashKeyTooLarge is DynamoDB's answer to a partition key value over 2048 bytes, the
// same from PutItem, GetItem and Query (HowItWorks.NamingRulesDataTypes.html; the
// missing space is DynamoDB's).
const msgHashKeyTooLarge = "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"

// msgRangeKeyTooLarge is DynamoDB's answer to a sort key value over 1024 bytes
// (HowItWorks.NamingRulesDataTypes.html; the same from PutItem, GetItem, UpdateItem
// and DeleteItem: ExtendDB/extenddb#194 captured it with the AWS CLI; "all range
// keys" although there is one).
const msgRangeKeyTooLarge = "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes"

// msgEmptyKey is DynamoDB's answer to an empty string or binary as a key attribute's
// value, from PutItem, GetItem and a Query's key condition alike ("are not valid",
// not "were invalid": GetItem and PutItem reports with request ids, the conformance
// suite's TransactWriteItems captures, getmoto/moto#5345 quoting GetItem,
// getmoto/moto#7062 quoting Query; HowItWorks.NamingRulesDataTypes.html: key values
// must not be empty).
func msgEmptyKey(t model.Type, name string) *Error {
	return validation("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty %s value. Key: %s", emptyWord(t), name)
}

// checkKeyValue checks a key attribute's value: not empty, within the partition (2048
// bytes) or sort (1024 bytes) key limit (HowItWorks.NamingRulesDataTypes.html), and a
// valid number for N.
func checkKeyValue(a keyAttr, v model.Value, partition bool) *Error {
	switch v.Type {
	case model.TypeS, model.TypeB:
		if v.Str == "" {
			return msgEmptyKey(v.Type, a.Name)
		}
		if partition && len(v.Str) > model.MaxPartitionKeyBytes {
			return validation(msgHashKeyTooLarge)
		}
		if !partition && len(v.Str) > model.MaxSortKeyBytes {
			return validation(msgRangeKeyTooLarge)
		}
	case model.TypeN:
		if _, _, err := normalizeNumber(v); err != nil {
			return err
		}
	}
	return nil
}

// checkKey validates a primary key given to GetItem, UpdateItem, DeleteItem and the
// batch and transaction operations: exactly the table's key attributes, of their
// types (API_GetItem.html "Key"). It returns the key with canonical numbers: the
// key given itself when they are canonical already (a key is only read after, so it
// need not be copied: the copy was most of a GetItem's garbage).
func (e *Engine) checkKey(key model.Item) (model.Item, *Error) {
	return checkKeyOf(e.key, key)
}

func checkKeyOf(ks keySchema, key model.Item) (model.Item, *Error) {
	if len(key) != ks.attrCount() {
		return nil, validation(msgKeySchema)
	}
	var out model.Item // the copy, made at the first number not canonical
	parts := 1 + len(ks.morePartition)
	i := -1
	for a := range ks.eachAttr() {
		i++
		v, ok := key[a.Name]
		if !ok || v.Type != a.Type {
			return nil, validation(msgKeySchema)
		}
		if err := checkKeyValue(a, v, i < parts); err != nil {
			return nil, err
		}
		n, changed, err := normalize(v)
		if err != nil {
			return nil, err
		}
		if changed && out == nil {
			out = maps.Clone(key)
		}
		if out != nil {
			out[a.Name] = n
		}
	}
	if out == nil {
		return key, nil
	}
	return out, nil
}

// probe is a table entry holding only a key, to look an item up in the table tree.
func (e *Engine) probe(key model.Item) *entry {
	pv := key[e.key.Partition.Name]
	p := &entry{hash: scanHash(pv)}
	p.pk, _ = encodeKey(pv)
	if e.key.hasSort() {
		p.sk, _ = encodeKey(key[e.key.Sort.Name])
	}
	return p
}

// keyOf is the table key attributes of an item.
func (e *Engine) keyOf(item model.Item) model.Item {
	k := model.Item{e.key.Partition.Name: item[e.key.Partition.Name]}
	if e.key.hasSort() {
		k[e.key.Sort.Name] = item[e.key.Sort.Name]
	}
	return k
}

// DynamoDB's limits on a table's indexes (ServiceQuotas.html "Secondary indexes":
// 20 global and 5 local secondary indexes per table) and CreateTable's words for a
// table over them (dynalite validations/createTable.js, which copies DynamoDB's).
const (
	msgTooManyGSIs = "One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the per-table limit of %d"
	msgTooManyLSIs = "One or more parameter values were invalid: Number of LocalSecondaryIndexes exceeds per-table limit of %d"
)

// CheckCreateTable is what CreateTable refuses of a table that a design may still
// hold, since DynamoDB refuses it only when the table is created: more indexes
// than the per-table limits. nil when CreateTable would accept the table; else a
// ValidationException in DynamoDB's words. The design opens and its patterns run
// on such a table (review's too-many-indexes reports it); `stwb deploy` refuses
// it before calling CreateTable.
func CheckCreateTable(t model.Table) error {
	gsis, lsis := 0, 0
	for _, ix := range t.Indexes {
		if ix.Local {
			lsis++
		} else {
			gsis++
		}
	}
	// CreateTable checks the LSIs before the GSIs (createTable.js), so a table over
	// both limits gets the LSI message.
	switch {
	case lsis > model.MaxLSIs:
		return validation(msgTooManyLSIs, model.MaxLSIs)
	case gsis > model.MaxGSIs:
		return validation(msgTooManyGSIs, model.MaxGSIs)
	}
	return nil
}
