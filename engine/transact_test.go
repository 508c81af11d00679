package engine

import (
	"errors"
	"strings"
	"testing"

	"stwb/model"
)

// TestTransactKeyErrors holds TransactWriteItems' key errors to the conformance
// suite's captures of real DynamoDB ("TransactWriteItems — exact error messages",
// "transactIndexKeys"): a key attribute of another type cancels the transaction
// with a ValidationError reason on its action (a Put's with the PutItem message,
// another action's with "The provided key element does not match the schema"); an
// empty key value refuses the whole request; and a refusal wins over a
// cancellation.
func TestTransactKeyErrors(t *testing.T) {
	e := newTestEngine(t)
	num := model.Value{Type: model.TypeN, Str: "5"}
	put := func(it model.Item) TransactWriteItem { return TransactWriteItem{Kind: model.ActionPut, Item: it} }
	del := func(k model.Item) TransactWriteItem { return TransactWriteItem{Kind: model.ActionDelete, Key: k} }
	const (
		emptyKey = "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: PK"
		schema   = "The provided key element does not match the schema"
		// UpdateItem's words, for the whole request.
		emptyIndexUpdate = "One or more parameter values are not valid. The update expression attempted to update a secondary index key to a value that is not supported. The AttributeValue for a key attribute cannot contain an empty string value."
	)
	cases := []struct {
		name    string
		items   []TransactWriteItem
		refused string   // the top-level message; "" when cancelled
		reasons []string // each action's code, then ": message" for a ValidationError
	}{
		{"Put with a wrong-typed table key", []TransactWriteItem{put(item("PK", num, "SK", "s"))}, "",
			[]string{"ValidationError: One or more parameter values were invalid: Type mismatch for key PK expected: S actual: N"}},
		{"Put with a wrong-typed index key", []TransactWriteItem{put(item("PK", "p", "SK", "s", "GSI1PK", num))}, "",
			[]string{"ValidationError: One or more parameter values were invalid: Type mismatch for Index Key GSI1PK Expected: S Actual: N IndexName: GSI1"}},
		{"Put with an empty table key", []TransactWriteItem{put(item("PK", "", "SK", "s"))}, emptyKey, nil},
		{"Delete with a wrong-typed key", []TransactWriteItem{del(item("PK", num, "SK", "s"))}, "", []string{"ValidationError: " + schema}},
		{"ConditionCheck with a list for a key", []TransactWriteItem{{Kind: model.ActionCheck, Key: item("PK", model.Value{Type: model.TypeL}, "SK", "s"),
			ConditionExpression: "attribute_exists(PK)", Given: GivenCondition}}, "", []string{"ValidationError: " + schema}},
		{"Update with an empty key", []TransactWriteItem{{Kind: model.ActionUpdate, Key: item("PK", "", "SK", "s"), UpdateExpression: "SET a = :a",
			ExpressionAttributeValues: map[string]model.Value{":a": model.Str("x")}, Given: GivenUpdate}}, emptyKey, nil},
		{"Update setting an index key to another type", []TransactWriteItem{{Kind: model.ActionUpdate, Key: item("PK", "p", "SK", "s"), UpdateExpression: "SET GSI1PK = :v",
			ExpressionAttributeValues: map[string]model.Value{":v": num}, Given: GivenUpdate}}, "",
			[]string{"ValidationError: One or more parameter values were invalid: Type mismatch for Index Key GSI1PK Expected: S Actual: N IndexName: GSI1"}},
		{"Update setting an index key empty", []TransactWriteItem{{Kind: model.ActionUpdate, Key: item("PK", "p", "SK", "s"), UpdateExpression: "SET GSI1PK = :v",
			ExpressionAttributeValues: map[string]model.Value{":v": model.Str("")}, Given: GivenUpdate}}, emptyIndexUpdate, nil},
		{"a good Put beside a bad Delete", []TransactWriteItem{put(item("PK", "new", "SK", "s")), del(item("PK", num, "SK", "s"))}, "",
			[]string{"None", "ValidationError: " + schema}},
		{"a refusal wins over a cancellation", []TransactWriteItem{del(item("PK", num, "SK", "s")), put(item("PK", "", "SK", "s"))}, emptyKey, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.TransactWriteItems(tc.items)
			var ee *Error
			if !errors.As(err, &ee) {
				t.Fatalf("no error: %v", err)
			}
			if tc.refused != "" {
				if ee.Type == TransactionCanceledException || ee.Message != tc.refused {
					t.Fatalf("got %s: %s (reasons %+v), want the request refused: %s", ee.Type, ee.Message, ee.Reasons, tc.refused)
				}
				return
			}
			if ee.Type != TransactionCanceledException {
				t.Fatalf("got %s: %s, want a TransactionCanceledException", ee.Type, ee.Message)
			}
			var got []string
			for _, r := range ee.Reasons {
				s := r.Code
				if r.Code == "ValidationError" {
					s += ": " + r.Message
				}
				got = append(got, s)
			}
			if strings.Join(got, " | ") != strings.Join(tc.reasons, " | ") {
				t.Errorf("reasons\n got: %q\nwant: %q", got, tc.reasons)
			}
		})
	}
	if e.Len() != 0 {
		t.Fatalf("a cancelled or refused transaction wrote %d items", e.Len())
	}
	// UpdateItem alone says the same.
	_, err := e.UpdateItem(UpdateItemInput{Key: item("PK", "p", "SK", "s"), UpdateExpression: "SET GSI1PK = :v",
		ExpressionAttributeValues: map[string]model.Value{":v": model.Str("")}, Given: GivenUpdate})
	if errMsg(err) != emptyIndexUpdate {
		t.Errorf("UpdateItem setting an index key empty: %q", errMsg(err))
	}
}
