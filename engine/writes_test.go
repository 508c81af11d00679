package engine

import (
	"strings"
	"testing"

	"stwb/model"
)

// PutItem's item checks and their wording (API_PutItem.html; dynalite db/index.js
// validateItem).
func TestPutItemValidation(t *testing.T) {
	e := newTestEngine(t)
	for _, tc := range []struct {
		name string
		item model.Item
		msg  string
	}{
		{"missing partition key", item("SK", "s"), "One or more parameter values were invalid: Missing the key PK in the item"},
		{"missing sort key", item("PK", "p"), "One or more parameter values were invalid: Missing the key SK in the item"},
		{"wrong key type", item("PK", model.Num("1"), "SK", "s"), "One or more parameter values were invalid: Type mismatch for key PK expected: S actual: N"},
		{"empty key", item("PK", "", "SK", "s"), "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: PK"},
		{"index key wrong type", item("PK", "p", "SK", "s", "GSI1PK", model.Num("3")), "One or more parameter values were invalid: Type mismatch for Index Key GSI1PK Expected: S Actual: N IndexName: GSI1"},
		{"empty index key", item("PK", "p", "SK", "s", "G2", ""), "One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty string value. IndexName: G2, IndexKey: G2"},
		{"partition key too long", item("PK", strings.Repeat("k", 2049), "SK", "s"), "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"},
		{"sort key too long", item("PK", "p", "SK", strings.Repeat("k", 1025)), "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes"},
		{"too large", sized(item("PK", "p", "SK", "s"), model.MaxItemSize+1), "Item size has exceeded the maximum allowed size"},
		{"bad number", item("PK", "p", "SK", "s", "n2", model.Num("12x")), "A value provided cannot be converted into a number"},
		{"empty set", item("PK", "p", "SK", "s", "ss", model.StrSet()), "One or more parameter values were invalid: An string set  may not be empty"},
		{"duplicate set", item("PK", "p", "SK", "s", "ss", model.StrSet("a", "a")), "One or more parameter values were invalid: Input collection [a, a] contains duplicates."},
		{"duplicate number set by value", item("PK", "p", "SK", "s", "ns", model.NumSet("1", "1.0")), "Input collection contains duplicates"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.PutItem(PutItemInput{Item: tc.item})
			if errType(err) != ValidationException || errMsg(err) != tc.msg {
				t.Errorf("got %v\nwant %s", err, tc.msg)
			}
		})
	}
	if e.Len() != 0 {
		t.Errorf("a refused put stored an item")
	}
	// The largest allowed item is accepted.
	if _, err := e.PutItem(PutItemInput{Item: sized(item("PK", "p", "SK", "s"), model.MaxItemSize)}); err != nil {
		t.Errorf("400 KB item: %v", err)
	}
}

// Numbers are stored canonical (DynamoDB returns "1.5" for "1.50").
func TestNumbersStoredCanonical(t *testing.T) {
	e := newTestEngine(t, item("PK", "p", "SK", "s", "a", model.Num("001.50"), "l", model.List(model.Num("2e2")), "ns", model.NumSet("1.0", "2")))
	g, err := e.GetItem(GetItemInput{Key: item("PK", "p", "SK", "s")})
	if err != nil {
		t.Fatal(err)
	}
	if g.Item["a"].Str != "1.5" || g.Item["l"].List[0].Str != "200" || g.Item["ns"].List[0].Str != "1" {
		t.Errorf("got %v", g.Item)
	}
}

// Key checks for reads and writes by key (API_GetItem.html "Key").
func TestKeySchemaErrors(t *testing.T) {
	e := newTestEngine(t)
	for _, k := range []model.Item{
		item("PK", "p"),
		item("PK", "p", "SK", "s", "x", "y"),
		item("PK", "p", "SK", model.Num("1")),
		item("pk", "p", "SK", "s"),
	} {
		if _, err := e.GetItem(GetItemInput{Key: k}); errMsg(err) != msgKeySchema {
			t.Errorf("GetItem %v: %v", k, err)
		}
		if _, err := e.DeleteItem(DeleteItemInput{Key: k}); errMsg(err) != msgKeySchema {
			t.Errorf("DeleteItem %v: %v", k, err)
		}
	}
}

// Conditional writes: a false condition is ConditionalCheckFailedException, nothing
// changes, and the write still consumes what it would have (read-write-operations.html
// "Conditional writes"), ReturnValuesOnConditionCheckFailure returns the item.
func TestConditionalWrites(t *testing.T) {
	old := sized(item("PK", "p", "SK", "s", "status", "PENDING", "GSI1PK", "g", "GSI1SK", "1"), 2000)
	for _, tc := range []struct {
		name  string
		run   func(e *Engine) (*WriteOutput, error)
		units float64
	}{
		{"put", func(e *Engine) (*WriteOutput, error) {
			return e.PutItem(PutItemInput{Item: item("PK", "p", "SK", "s"), ConditionExpression: "attribute_not_exists(PK)",
				ReturnValuesOnConditionCheckFailure: ReturnAllOld})
		}, 2},
		{"update", func(e *Engine) (*WriteOutput, error) {
			return e.UpdateItem(UpdateItemInput{Key: item("PK", "p", "SK", "s"), UpdateExpression: "SET #s = :n",
				ConditionExpression: "#s = :o", ExpressionAttributeNames: map[string]string{"#s": "status"},
				ExpressionAttributeValues: vals(":n", "SHIPPED", ":o", "NEW"), ReturnValuesOnConditionCheckFailure: ReturnAllOld})
		}, 2},
		{"delete", func(e *Engine) (*WriteOutput, error) {
			return e.DeleteItem(DeleteItemInput{Key: item("PK", "p", "SK", "s"), ConditionExpression: "attribute_not_exists(#s)",
				ExpressionAttributeNames: map[string]string{"#s": "status"}, ReturnValuesOnConditionCheckFailure: ReturnAllOld})
		}, 2},
		// WorkingWithItems.html "Conditional writes": billed on the existing item, so
		// an update that would grow the 2 KB item to 5 KB still costs 2 WCU.
		{"update that would grow the item", func(e *Engine) (*WriteOutput, error) {
			return e.UpdateItem(UpdateItemInput{Key: item("PK", "p", "SK", "s"), UpdateExpression: "SET big = :b",
				ConditionExpression: "attribute_not_exists(PK)", ExpressionAttributeValues: vals(":b", strings.Repeat("y", 3000)),
				ReturnValuesOnConditionCheckFailure: ReturnAllOld})
		}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newTestEngine(t, old)
			out, err := tc.run(e)
			if errType(err) != ConditionalCheckFailedException || errMsg(err) != "The conditional request failed" {
				t.Fatalf("got %v", err)
			}
			if !err.(*Error).Item.Equal(old) {
				t.Errorf("ReturnValuesOnConditionCheckFailure item %v", err.(*Error).Item)
			}
			if out == nil || out.Consumed.Table.Write != tc.units || len(out.Consumed.Indexes) != 0 {
				t.Errorf("consumed %+v, want %v WCU on the table only", out, tc.units)
			}
			g, _ := e.GetItem(GetItemInput{Key: item("PK", "p", "SK", "s")})
			if !g.Item.Equal(old) {
				t.Errorf("item changed: %v", g.Item)
			}
		})
	}
}

// A failed conditional PutItem on an absent item costs 1 WCU however large the item
// it would have written (WorkingWithItems.html and ProvisionedThroughput.html: the
// size of the existing item, or a minimum of 1).
func TestFailedPutOnAbsentItemCostsOne(t *testing.T) {
	e := newTestEngine(t)
	out, err := e.PutItem(PutItemInput{Item: sized(item("PK", "p", "SK", "s"), 3000), ConditionExpression: "attribute_exists(PK)"})
	if errType(err) != ConditionalCheckFailedException {
		t.Fatalf("got %v", err)
	}
	if out == nil || out.Consumed.Table.Write != 1 {
		t.Errorf("consumed %+v, want 1 WCU", out)
	}
}

// ReturnValues per operation (API_UpdateItem.html "ReturnValues"; PutItem and
// DeleteItem take only NONE and ALL_OLD).
func TestReturnValues(t *testing.T) {
	start := item("PK", "p", "SK", "s", "a", "1", "b", "2")
	key := item("PK", "p", "SK", "s")
	upd := func(rv string) UpdateItemInput {
		return UpdateItemInput{Key: key, UpdateExpression: "SET a = :x", ExpressionAttributeValues: vals(":x", "9"), ReturnValues: rv}
	}
	for _, tc := range []struct {
		rv   string
		want model.Item
	}{
		{ReturnNone, nil},
		{"", nil},
		{ReturnAllOld, start},
		{ReturnAllNew, item("PK", "p", "SK", "s", "a", "9", "b", "2")},
		{ReturnUpdatedOld, item("a", "1")},
		{ReturnUpdatedNew, item("a", "9")},
	} {
		e := newTestEngine(t, start)
		out, err := e.UpdateItem(upd(tc.rv))
		if err != nil {
			t.Fatal(err)
		}
		if !out.Attributes.Equal(tc.want) {
			t.Errorf("UpdateItem %s: %v, want %v", tc.rv, out.Attributes, tc.want)
		}
	}
	e := newTestEngine(t, start)
	if _, err := e.PutItem(PutItemInput{Item: start, ReturnValues: ReturnAllNew}); errMsg(err) != "ReturnValues can only be ALL_OLD or NONE" {
		t.Errorf("PutItem ALL_NEW: %v", err)
	}
	out, err := e.DeleteItem(DeleteItemInput{Key: key, ReturnValues: ReturnAllOld})
	if err != nil || !out.Attributes.Equal(start) {
		t.Errorf("DeleteItem ALL_OLD: %v %v", out, err)
	}
	if _, err := e.UpdateItem(UpdateItemInput{Key: key, UpdateExpression: "SET PK = :x", ExpressionAttributeValues: vals(":x", "q")}); errMsg(err) != "One or more parameter values were invalid: Cannot update attribute PK. This attribute is part of the key" {
		t.Errorf("update of a key: %v", err)
	}
}

// UpdateItem creates a missing item from its key; an update that moves an item into
// a GSI is billed on the table and on the index (GSI.html "Writes").
func TestUpdateCreatesAndIndexes(t *testing.T) {
	e := newTestEngine(t)
	out, err := e.UpdateItem(UpdateItemInput{Key: item("PK", "p", "SK", "s"), UpdateExpression: "SET GSI1PK = :g, GSI1SK = :s",
		ExpressionAttributeValues: vals(":g", "G", ":s", "S")})
	if err != nil {
		t.Fatal(err)
	}
	if out.Consumed.Table.Write != 1 || out.Consumed.Indexes["GSI1"].Write != 1 || out.Consumed.Indexes["G2"].Write != 0 {
		t.Errorf("consumed %+v", out.Consumed)
	}
	pg, err := e.Query(QueryInput{IndexName: "GSI1", KeyConditionExpression: "GSI1PK = :g", ExpressionAttributeValues: vals(":g", "G")})
	if err != nil || pg.Count != 1 {
		t.Errorf("GSI after update: %v %+v", err, pg)
	}
	if ch := out.Changes[0]; ch.Before != nil || ch.After["GSI1PK"].Str != "G" {
		t.Errorf("change %+v", ch)
	}
}

// TransactWriteItems: all or nothing, cancellation reasons in request order, one
// operation per item, 2x table writes (transaction-apis.html; API_TransactWriteItems.html).
func TestTransactWriteItems(t *testing.T) {
	a := item("PK", "a", "SK", "s", "v", "1")
	b := item("PK", "b", "SK", "s", "v", "1")
	t.Run("success", func(t *testing.T) {
		e := newTestEngine(t, a, b)
		out, err := e.TransactWriteItems([]TransactWriteItem{
			{Kind: model.ActionPut, Item: item("PK", "c", "SK", "s", "G2", "g")},
			{Kind: model.ActionUpdate, Key: item("PK", "a", "SK", "s"), UpdateExpression: "SET v = :v", ExpressionAttributeValues: vals(":v", "2")},
			{Kind: model.ActionDelete, Key: item("PK", "b", "SK", "s")},
			{Kind: model.ActionCheck, Key: item("PK", "z", "SK", "s"), ConditionExpression: "attribute_not_exists(PK)"},
		})
		if err != nil {
			t.Fatal(err)
		}
		// 2 per table write (put, update, delete, check) = 8; G2 index put 1.
		if out.Consumed.Table.Write != 8 || out.Consumed.Indexes["G2"].Write != 1 || len(out.Changes) != 4 {
			t.Errorf("consumed %+v changes %d", out.Consumed, len(out.Changes))
		}
		if e.Len() != 2 {
			t.Errorf("len %d", e.Len())
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		e := newTestEngine(t, a, b)
		out, err := e.TransactWriteItems([]TransactWriteItem{
			{Kind: model.ActionPut, Item: item("PK", "c", "SK", "s")},
			{Kind: model.ActionCheck, Key: item("PK", "a", "SK", "s"), ConditionExpression: "v = :v", ExpressionAttributeValues: vals(":v", "nope"), ReturnValuesOnConditionCheckFailure: ReturnAllOld},
			{Kind: model.ActionDelete, Key: item("PK", "b", "SK", "s")},
		})
		want := "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed, None]"
		if errType(err) != TransactionCanceledException || errMsg(err) != want {
			t.Fatalf("got %v", err)
		}
		rs := err.(*Error).Reasons
		if len(rs) != 3 || rs[1].Code != "ConditionalCheckFailed" || !rs[1].Item.Equal(a) || rs[0].Code != "None" {
			t.Errorf("reasons %+v", rs)
		}
		if e.Len() != 2 {
			t.Errorf("a cancelled transaction wrote: len %d", e.Len())
		}
		if out == nil || out.Consumed.Table.Write != 6 || len(out.Changes) != 0 {
			t.Errorf("cancelled consumption %+v", out)
		}
	})
	t.Run("one item twice", func(t *testing.T) {
		e := newTestEngine(t, a)
		_, err := e.TransactWriteItems([]TransactWriteItem{
			{Kind: model.ActionCheck, Key: item("PK", "a", "SK", "s"), ConditionExpression: "attribute_exists(PK)"},
			{Kind: model.ActionUpdate, Key: item("PK", "a", "SK", "s"), UpdateExpression: "SET v = :v", ExpressionAttributeValues: vals(":v", "2")},
		})
		if errType(err) != ValidationException || errMsg(err) != "Transaction request cannot include multiple operations on one item" {
			t.Errorf("got %v", err)
		}
	})
	t.Run("too many", func(t *testing.T) {
		e := newTestEngine(t)
		var items []TransactWriteItem
		for i := range 101 {
			items = append(items, TransactWriteItem{Kind: model.ActionPut, Item: item("PK", strings.Repeat("k", i+1), "SK", "s")})
		}
		if _, err := e.TransactWriteItems(items); errType(err) != ValidationException {
			t.Errorf("101 actions: %v", err)
		}
		if _, err := e.TransactWriteItems(items[:100]); err != nil {
			t.Errorf("100 actions: %v", err)
		}
	})
}

// BatchWriteItem and BatchGetItem limits and duplicates (API_BatchWriteItem.html,
// API_BatchGetItem.html), TransactGetItems at 2x.
func TestBatches(t *testing.T) {
	e := newTestEngine(t)
	var reqs []WriteRequest
	for i := range 26 {
		reqs = append(reqs, WriteRequest{Item: sized(item("PK", strings.Repeat("k", i+1), "SK", "s"), 1500)})
	}
	if _, err := e.BatchWriteItem(reqs); errType(err) != ValidationException {
		t.Errorf("26 writes: %v", err)
	}
	out, err := e.BatchWriteItem(reqs[:25])
	if err != nil {
		t.Fatal(err)
	}
	if out.Consumed.Table.Write != 50 {
		t.Errorf("25 x 1500 B: %v WCU, want 50", out.Consumed.Table.Write)
	}
	dup := []WriteRequest{{Item: item("PK", "a", "SK", "s")}, {Key: item("PK", "a", "SK", "s")}}
	if _, err := e.BatchWriteItem(dup); errMsg(err) != "Provided list of item keys contains duplicates" {
		t.Errorf("duplicate writes: %v", err)
	}
	keys := []model.Item{item("PK", "k", "SK", "s"), item("PK", "kk", "SK", "s"), item("PK", "none", "SK", "s")}
	g, err := e.BatchGetItem(BatchGetItemInput{Keys: keys, ConsistentRead: true})
	if err != nil {
		t.Fatal(err)
	}
	// 1 + 1 for the two 1500-byte items, 1 for the missing one.
	if len(g.Responses) != 2 || g.Consumed.Table.Read != 3 {
		t.Errorf("batch get: %d items, %v RCU", len(g.Responses), g.Consumed.Table.Read)
	}
	if _, err := e.BatchGetItem(BatchGetItemInput{Keys: []model.Item{keys[0], keys[0]}}); errMsg(err) != "Provided list of item keys contains duplicates" {
		t.Errorf("duplicate keys: %v", err)
	}
	var many []model.Item
	for i := range 101 {
		many = append(many, item("PK", strings.Repeat("q", i+1), "SK", "s"))
	}
	if _, err := e.BatchGetItem(BatchGetItemInput{Keys: many}); errMsg(err) != "1 validation error detected: Value at 'RequestItems.t.member.Keys' failed to satisfy constraint: Member must have length less than or equal to 100" {
		t.Errorf("101 keys: %v", err)
	}
	tg, err := e.TransactGetItems([]TransactGet{{Key: keys[0]}, {Key: keys[2]}})
	if err != nil {
		t.Fatal(err)
	}
	if tg.Responses[0] == nil || tg.Responses[1] != nil || tg.Consumed.Table.Read != 4 {
		t.Errorf("transact get: %v %v", tg.Responses, tg.Consumed)
	}
	if _, err := e.TransactGetItems([]TransactGet{{Key: keys[0]}, {Key: keys[0]}}); errMsg(err) != msgTransactSameItem {
		t.Errorf("transact get same item: %v", err)
	}
}

// UPDATED_OLD and UPDATED_NEW return the changed paths only, nested ones as nested
// maps (API_UpdateItem.html "ReturnValues").
func TestReturnValuesNestedPaths(t *testing.T) {
	start := item("PK", "p", "SK", "s", "m", model.Map(map[string]model.Value{"a": model.Str("1"), "b": model.Str("2")}), "gone", "x")
	for _, tc := range []struct {
		rv   string
		want model.Item
	}{
		{ReturnUpdatedOld, item("m", model.Map(map[string]model.Value{"a": model.Str("1")}), "gone", "x")},
		{ReturnUpdatedNew, item("m", model.Map(map[string]model.Value{"a": model.Str("9")}))},
	} {
		e := newTestEngine(t, start)
		out, err := e.UpdateItem(UpdateItemInput{Key: item("PK", "p", "SK", "s"), UpdateExpression: "SET m.a = :x REMOVE gone",
			ExpressionAttributeValues: vals(":x", "9"), ReturnValues: tc.rv})
		if err != nil {
			t.Fatal(err)
		}
		if !out.Attributes.Equal(tc.want) {
			t.Errorf("%s: %v, want %v", tc.rv, out.Attributes, tc.want)
		}
	}
}
