package engine

import (
	"errors"
	"testing"

	"stwb/model"
)

// FuzzQuery: no key condition, filter, projection, value or start key makes the
// engine panic, and every error is an *Error with a DynamoDB type. Seeds live in
// testdata/fuzz/FuzzQuery.
func FuzzQuery(f *testing.F) {
	f.Add("PK = :p AND begins_with(SK, :s)", "", "", "P", "A#", "", int8(0), true)
	f.Add("GSI1PK = :p AND GSI1SK BETWEEN :s AND :n", "#x > :s", "PK, #x", "g", "1", "3", int8(2), false)
	f.Add("PK = :p", "n < :n", "", "P", "", "-1.5e3", int8(-1), true)
	f.Add("G3 = :p AND n >= :n", "", "status", "g", "x", "12345678901234567890123456789012345678", int8(1), false)
	e := newTestEngine(f,
		item("PK", "P", "SK", "A#", "GSI1PK", "g", "GSI1SK", "1", "x", "é"),
		item("PK", "P", "SK", "A#1", "GSI1PK", "g", "GSI1SK", "2", "n", model.Num("-3")),
		item("PK", "P", "SK", "a", "G3", "g", "n", model.Num("7"), "status", "中文"),
		item("PK", "Q", "SK", "😀", "G2", "k", "placedAt", "2026"),
	)
	indexes := []string{"", "GSI1", "G2", "G3", "LSI1", "missing"}
	f.Fuzz(func(t *testing.T, key, filter, proj, p, s, n string, limit int8, forward bool) {
		values := map[string]model.Value{":p": model.Str(p), ":s": model.Str(s), ":n": model.Num(n)}
		names := map[string]string{"#x": "x"}
		ix := indexes[int(uint8(limit))%len(indexes)]
		in := QueryInput{IndexName: ix, KeyConditionExpression: key, FilterExpression: filter,
			ProjectionExpression: proj, ExpressionAttributeNames: names, ExpressionAttributeValues: values,
			Limit: int(limit), ScanIndexForward: &forward, Visits: true}
		var start model.Item
		for range 4 {
			in.ExclusiveStartKey = start
			pg, err := e.Query(in)
			if err != nil {
				var ee *Error
				if !errors.As(err, &ee) || ee.Type == "" || ee.Message == "" {
					t.Fatalf("error %v is not a DynamoDB error", err)
				}
				return
			}
			if pg.Count > pg.ScannedCount || len(pg.Items) != pg.Count {
				t.Fatalf("count %d scanned %d items %d", pg.Count, pg.ScannedCount, len(pg.Items))
			}
			if pg.LastEvaluatedKey == nil {
				return
			}
			start = pg.LastEvaluatedKey
		}
		// A start key built from fuzzed values is checked, never trusted.
		in.ExclusiveStartKey = model.Item{"PK": model.Str(p), "SK": model.Num(n)}
		if _, err := e.Query(in); err == nil && ix == "" && key == "" {
			t.Fatal("a query without a key condition succeeded")
		}
	})
}

// FuzzPutItem: any item values are either stored (and read back equal, numbers
// canonical) or refused with a ValidationException; nothing panics.
func FuzzPutItem(f *testing.F) {
	f.Add("p", "s", "1.50", "g", []byte{1, 2}, "a")
	f.Add("", "s", "x", "", []byte{}, "")
	f.Add("é", "中文", "-1E-130", "😀", []byte{0xff}, "a")
	f.Add("p", "s", "1e126", "g", []byte(nil), "b")
	f.Fuzz(func(t *testing.T, pk, sk, num, gsi string, bin []byte, set string) {
		e := newTestEngine(t)
		it := model.Item{"PK": model.Str(pk), "SK": model.Str(sk), "num": model.Num(num),
			"GSI1PK": model.Str(gsi), "GSI1SK": model.Str(sk), "n": model.Num(num), "b": model.Bin(bin),
			"ss": model.StrSet(set, set+"x"), "l": model.List(model.Num(num), model.Map(map[string]model.Value{"k": model.Num(num)}))}
		out, err := e.PutItem(PutItemInput{Item: it, ReturnValues: ReturnAllOld})
		if err != nil {
			if errType(err) != ValidationException {
				t.Fatalf("got %v", err)
			}
			return
		}
		if out.Consumed.Table.Write < 1 {
			t.Fatalf("put consumed %v", out.Consumed)
		}
		g, err := e.GetItem(GetItemInput{Key: model.Item{"PK": model.Str(pk), "SK": model.Str(sk)}})
		if err != nil || g.Item == nil {
			t.Fatalf("stored item not found: %v", err)
		}
		if model.CompareNumberText(g.Item["num"].Str, num) != 0 || g.Item["num"].Str != model.CanonicalNumber(num) {
			t.Fatalf("number %q read back as %q", num, g.Item["num"].Str)
		}
	})
}

// FuzzUpdateItem: any update and condition expression either applies (the stored
// item then passes PutItem's checks: keys unchanged, index keys typed) or fails with
// a DynamoDB error; nothing panics and a failed update changes nothing.
func FuzzUpdateItem(f *testing.F) {
	f.Add("SET a = :v, #n = if_not_exists(#n, :n)", "attribute_exists(PK)", "x", "1")
	f.Add("ADD ns :n REMOVE a", "", "", "-0.5")
	f.Add("SET GSI1PK = :n", "", "", "5")
	f.Add("SET l = list_append(l, :l), m.k = :v", "size(l) < :n", "é", "3")
	f.Add("DELETE ss :s SET n = n + :n", "contains(ss, :v)", "a", "1e125")
	f.Fuzz(func(t *testing.T, update, cond, s, n string) {
		start := item("PK", "p", "SK", "s", "a", "z", "ss", model.StrSet("a", "b"), "ns", model.NumSet("1"),
			"l", model.List(model.Str("x")), "m", model.Map(map[string]model.Value{"k": model.Str("v")}), "n", model.Num("7"))
		e := newTestEngine(t, start)
		values := map[string]model.Value{":v": model.Str(s), ":n": model.Num(n), ":s": model.StrSet(s),
			":l": model.List(model.Str(s))}
		out, err := e.UpdateItem(UpdateItemInput{Key: item("PK", "p", "SK", "s"), UpdateExpression: update,
			ConditionExpression: cond, ExpressionAttributeNames: map[string]string{"#n": "n"},
			ExpressionAttributeValues: values, ReturnValues: ReturnUpdatedNew})
		g, gerr := e.GetItem(GetItemInput{Key: item("PK", "p", "SK", "s")})
		if gerr != nil || g.Item == nil {
			t.Fatalf("item lost: %v", gerr)
		}
		if err != nil {
			if errType(err) == "" || errMsg(err) == "" || len(errType(err)) > 40 {
				t.Fatalf("error %v", err)
			}
			if !g.Item.Equal(start) {
				t.Fatalf("a failed update changed the item to %v", g.Item)
			}
			return
		}
		if out.Consumed.Table.Write < 1 {
			t.Fatalf("consumed %+v", out.Consumed)
		}
		if _, _, err := e.checkItem(g.Item); err != nil {
			t.Fatalf("stored item fails PutItem's checks: %v", err)
		}
	})
}
