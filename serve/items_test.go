package serve

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"stwb/engine"
	"stwb/live"
	"stwb/model"
)

// TestPatternsOverTheWire runs every read pattern of every sample through the SDK
// and holds the answer to the engine's: the same items in the same order, the same
// counts, and ConsumedCapacity the engine's figure (stwb's capacity rules).
func TestPatternsOverTheWire(t *testing.T) {
	for _, name := range []string{"orders", "invoices-bills", "users-orders", "page-view-good", "unique-email"} {
		t.Run(name, func(t *testing.T) {
			d := sample(t, name)
			st := start(t, Options{}, d)
			e, err := engine.FromDesign(d)
			if err != nil {
				t.Fatal(err)
			}
			compared := 0
			defer func() {
				if compared == 0 {
					t.Error("no read pattern was compared")
				}
			}()
			for i := range d.Patterns {
				p := &d.Patterns[i]
				if p.Operation != model.OpQuery && p.Operation != model.OpGetItem && p.Operation != model.OpScan {
					continue
				}
				want := e.Run(p, engine.RunOptions{})
				got, units := runOverWire(t, st, d, p)
				if want.Err != nil {
					continue
				}
				compared++
				if len(got) != len(want.Items) {
					t.Errorf("pattern %d: %d items over the wire, engine %d", p.ID, len(got), len(want.Items))
					continue
				}
				for j := range got {
					if !got[j].Equal(want.Items[j]) {
						t.Errorf("pattern %d item %d: %v, engine %v", p.ID, j, got[j], want.Items[j])
					}
				}
				if units != want.Consumed.Total() {
					t.Errorf("pattern %d: ConsumedCapacity %v, engine %v", p.ID, units, want.Consumed.Total())
				}
			}
		})
	}
}

func runOverWire(t *testing.T, st *started, d *model.Design, p *model.Pattern) ([]model.Item, float64) {
	t.Helper()
	vals, err := toAV(p.Values)
	if err != nil {
		t.Fatal(err)
	}
	var names map[string]string
	if len(p.Names) > 0 {
		names = p.Names
	}
	total := types.ReturnConsumedCapacityTotal
	switch p.Operation {
	case model.OpGetItem:
		key, _ := live.ToItem(p.Key)
		out, err := st.db.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: aws.String(d.Table.Name), Key: key,
			ProjectionExpression: opt(p.Projection), ExpressionAttributeNames: names, ConsistentRead: aws.Bool(p.Consistent),
			ReturnConsumedCapacity: total})
		if err != nil {
			t.Fatalf("pattern %d: %v", p.ID, err)
		}
		var items []model.Item
		if out.Item != nil {
			it, _ := live.FromItem(out.Item)
			items = append(items, it)
		}
		return items, *out.ConsumedCapacity.CapacityUnits
	case model.OpQuery:
		in := &dynamodb.QueryInput{TableName: aws.String(d.Table.Name), IndexName: opt(p.Index),
			KeyConditionExpression: aws.String(p.KeyCondition), FilterExpression: opt(p.Filter),
			ProjectionExpression: opt(p.Projection), ExpressionAttributeNames: names, ExpressionAttributeValues: vals,
			ScanIndexForward: p.Forward, ConsistentRead: aws.Bool(p.Consistent), ReturnConsumedCapacity: total}
		if p.Limit > 0 {
			in.Limit = aws.Int32(int32(p.Limit))
		}
		out, err := st.db.Query(ctx(t), in)
		if err != nil {
			t.Fatalf("pattern %d: %v", p.ID, err)
		}
		items, _ := fromItems(out.Items)
		return items, *out.ConsumedCapacity.CapacityUnits
	default:
		in := &dynamodb.ScanInput{TableName: aws.String(d.Table.Name), IndexName: opt(p.Index), FilterExpression: opt(p.Filter),
			ProjectionExpression: opt(p.Projection), ExpressionAttributeNames: names, ExpressionAttributeValues: vals,
			ConsistentRead: aws.Bool(p.Consistent), ReturnConsumedCapacity: total}
		if p.Limit > 0 {
			in.Limit = aws.Int32(int32(p.Limit))
		}
		out, err := st.db.Scan(ctx(t), in)
		if err != nil {
			t.Fatalf("pattern %d: %v", p.ID, err)
		}
		items, _ := fromItems(out.Items)
		return items, *out.ConsumedCapacity.CapacityUnits
	}
}

func opt(s string) *string {
	if s == "" {
		return nil
	}
	return aws.String(s)
}

func toAV(m map[string]model.Value) (map[string]types.AttributeValue, error) {
	if len(m) == 0 {
		return nil, nil
	}
	return live.ToItem(model.Item(m))
}

func fromItems(in []map[string]types.AttributeValue) ([]model.Item, error) {
	out := make([]model.Item, len(in))
	for i, m := range in {
		it, err := live.FromItem(m)
		if err != nil {
			return nil, err
		}
		out[i] = it
	}
	return out, nil
}

func av(s string) types.AttributeValue  { return &types.AttributeValueMemberS{Value: s} }
func avN(s string) types.AttributeValue { return &types.AttributeValueMemberN{Value: s} }

// TestPaginators reads a partition and the whole table with the SDK's paginators
// (Query with Limit 2, Scan in four parallel segments) and gets every item once.
func TestPaginators(t *testing.T) {
	d := sample(t, "orders")
	st := start(t, Options{}, d)
	e, _ := engine.FromDesign(d)
	all := map[string]bool{}
	e.Each(func(it model.Item) bool { all[it["PK"].Str+"|"+it["SK"].Str] = true; return true })

	seen := map[string]int{}
	for seg := range 4 {
		p := dynamodb.NewScanPaginator(st.db, &dynamodb.ScanInput{TableName: aws.String(d.Table.Name), Limit: aws.Int32(3),
			Segment: aws.Int32(int32(seg)), TotalSegments: aws.Int32(4)})
		for p.HasMorePages() {
			out, err := p.NextPage(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range out.Items {
				seen[it["PK"].(*types.AttributeValueMemberS).Value+"|"+it["SK"].(*types.AttributeValueMemberS).Value]++
			}
		}
	}
	if len(seen) != len(all) {
		t.Fatalf("the segments read %d distinct items, the table holds %d", len(seen), len(all))
	}
	for k, n := range seen {
		if n != 1 || !all[k] {
			t.Errorf("item %s read %d times", k, n)
		}
	}

	// A partition in pages of two, in sort key order.
	var pk string
	for k := range all {
		if pk == "" || k < pk {
			pk = k
		}
	}
	pk = pk[:slices.Index([]byte(pk), '|')]
	var sks []string
	qp := dynamodb.NewQueryPaginator(st.db, &dynamodb.QueryInput{TableName: aws.String(d.Table.Name), Limit: aws.Int32(2),
		KeyConditionExpression: aws.String("PK = :p"), ExpressionAttributeValues: map[string]types.AttributeValue{":p": av(pk)}})
	for qp.HasMorePages() {
		out, err := qp.NextPage(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			sks = append(sks, it["SK"].(*types.AttributeValueMemberS).Value)
		}
	}
	var want []string
	for k := range all {
		if p, sk, _ := cut(k); p == pk {
			want = append(want, sk)
		}
	}
	sort.Strings(want)
	if !slices.Equal(sks, want) {
		t.Fatalf("query pages gave %v, want %v", sks, want)
	}
}

func cut(k string) (string, string, bool) {
	i := slices.Index([]byte(k), '|')
	return k[:i], k[i+1:], true
}

// TestWrites puts, updates and deletes through the SDK: ReturnValues, a failed
// condition with ReturnValuesOnConditionCheckFailure, and the capacity figures.
func TestWrites(t *testing.T) {
	d := sample(t, "orders")
	st := start(t, Options{}, d)
	c, table := ctx(t), aws.String(d.Table.Name)
	key := map[string]types.AttributeValue{"PK": av("T#1"), "SK": av("A")}
	item := map[string]types.AttributeValue{"PK": av("T#1"), "SK": av("A"), "n": avN("1"), "type": av("test")}
	put, err := st.db.PutItem(c, &dynamodb.PutItemInput{TableName: table, Item: item, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
		ConditionExpression: aws.String("attribute_not_exists(PK)")})
	if err != nil {
		t.Fatal(err)
	}
	if *put.ConsumedCapacity.CapacityUnits != 1 || *put.ConsumedCapacity.Table.CapacityUnits != 1 {
		t.Errorf("put capacity %+v, want 1 WCU on the table", put.ConsumedCapacity)
	}
	_, err = st.db.PutItem(c, &dynamodb.PutItemInput{TableName: table, Item: item,
		ConditionExpression: aws.String("attribute_not_exists(PK)"), ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) || ccf.Item == nil || ccf.Item["n"].(*types.AttributeValueMemberN).Value != "1" {
		t.Fatalf("second put: %v, want ConditionalCheckFailedException with the item", err)
	}
	up, err := st.db.UpdateItem(c, &dynamodb.UpdateItemInput{TableName: table, Key: key, UpdateExpression: aws.String("ADD n :one"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":one": avN("1")}, ReturnValues: types.ReturnValueUpdatedNew})
	if err != nil {
		t.Fatal(err)
	}
	if got := up.Attributes["n"].(*types.AttributeValueMemberN).Value; got != "2" || len(up.Attributes) != 1 {
		t.Fatalf("UPDATED_NEW %v, want n=2 alone", up.Attributes)
	}
	del, err := st.db.DeleteItem(c, &dynamodb.DeleteItemInput{TableName: table, Key: key, ReturnValues: types.ReturnValueAllOld})
	if err != nil || del.Attributes["type"].(*types.AttributeValueMemberS).Value != "test" {
		t.Fatalf("delete: %v %v", del, err)
	}
	got, err := st.db.GetItem(c, &dynamodb.GetItemInput{TableName: table, Key: key})
	if err != nil || got.Item != nil {
		t.Fatalf("after delete: %v %v", got.Item, err)
	}
	if _, err := st.db.GetItem(c, &dynamodb.GetItemInput{TableName: aws.String("nope-table"), Key: key}); !isType[*types.ResourceNotFoundException](err) {
		t.Fatalf("a missing table: %v", err)
	}
}

func isType[T error](err error) bool {
	var x T
	return errors.As(err, &x)
}

// TestBatchesAndTransactions: BatchWriteItem then BatchGetItem, a transaction that
// commits and one that is cancelled with its reasons, and ClientRequestToken.
func TestBatchesAndTransactions(t *testing.T) {
	d := sample(t, "orders")
	st := start(t, Options{}, d)
	c, table := ctx(t), d.Table.Name
	var reqs []types.WriteRequest
	var keys []map[string]types.AttributeValue
	for i := range 25 {
		k := map[string]types.AttributeValue{"PK": av("B#" + fmt.Sprint(i)), "SK": av("x")}
		keys = append(keys, k)
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{"PK": k["PK"], "SK": k["SK"], "v": avN(fmt.Sprint(i))}}})
	}
	bw, err := st.db.BatchWriteItem(c, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: reqs},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if err != nil {
		t.Fatal(err)
	}
	if len(bw.ConsumedCapacity) != 1 || *bw.ConsumedCapacity[0].CapacityUnits != 25 {
		t.Errorf("batch write capacity %+v, want 25", bw.ConsumedCapacity)
	}
	bg, err := st.db.BatchGetItem(c, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{table: {Keys: keys}}})
	if err != nil || len(bg.Responses[table]) != 25 {
		t.Fatalf("batch get: %d items, %v", len(bg.Responses[table]), err)
	}
	ok := &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String("tok-1"), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		TransactItems: []types.TransactWriteItem{
			{Update: &types.Update{TableName: aws.String(table), Key: keys[0], UpdateExpression: aws.String("SET v = v + :d"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":d": avN("10")}}},
			{ConditionCheck: &types.ConditionCheck{TableName: aws.String(table), Key: keys[1], ConditionExpression: aws.String("attribute_exists(v)")}},
		}}
	first, err := st.db.TransactWriteItems(c, ok)
	if err != nil {
		t.Fatal(err)
	}
	// The same token and request again: answered, not applied a second time, and
	// its capacity is the reads of the two items, not the writes
	// (API_TransactWriteItems.html "ClientRequestToken"): two small items, one
	// strongly consistent read unit each.
	again, err := st.db.TransactWriteItems(c, ok)
	if err != nil {
		t.Fatal(err)
	}
	if cc := first.ConsumedCapacity; len(cc) != 1 || cc[0].WriteCapacityUnits == nil || *cc[0].WriteCapacityUnits == 0 {
		t.Errorf("first transaction's capacity %+v: want writes", cc)
	}
	if cc := again.ConsumedCapacity; len(cc) != 1 || cc[0].ReadCapacityUnits == nil || *cc[0].ReadCapacityUnits != 2 ||
		cc[0].WriteCapacityUnits != nil || *cc[0].CapacityUnits != 2 {
		t.Errorf("replayed transaction's capacity %+v: want 2 read units, no writes", cc)
	}
	if v := getN(t, st, table, keys[0], "v"); v != "10" {
		t.Fatalf("after the transaction and its retry v=%s, want 10 (applied once)", v)
	}
	ok.TransactItems[0].Update.ExpressionAttributeValues[":d"] = avN("11")
	if _, err := st.db.TransactWriteItems(c, ok); !isType[*types.IdempotentParameterMismatchException](err) {
		t.Fatalf("same token, other request: %v, want IdempotentParameterMismatchException", err)
	}
	_, err = st.db.TransactWriteItems(c, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String(table), Item: map[string]types.AttributeValue{"PK": av("B#new"), "SK": av("x")}}},
		{ConditionCheck: &types.ConditionCheck{TableName: aws.String(table), Key: keys[2], ConditionExpression: aws.String("v = :nine"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":nine": avN("9")}, ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}},
	}})
	var tc *types.TransactionCanceledException
	if !errors.As(err, &tc) || len(tc.CancellationReasons) != 2 || *tc.CancellationReasons[0].Code != "None" ||
		*tc.CancellationReasons[1].Code != "ConditionalCheckFailed" || tc.CancellationReasons[1].Item == nil {
		t.Fatalf("cancelled transaction: %v", err)
	}
	got, _ := st.db.GetItem(c, &dynamodb.GetItemInput{TableName: aws.String(table), Key: map[string]types.AttributeValue{"PK": av("B#new"), "SK": av("x")}})
	if got.Item != nil {
		t.Fatal("a cancelled transaction wrote its put")
	}
	tg, err := st.db.TransactGetItems(c, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
		{Get: &types.Get{TableName: aws.String(table), Key: keys[0]}}, {Get: &types.Get{TableName: aws.String(table), Key: map[string]types.AttributeValue{"PK": av("none"), "SK": av("x")}}}}})
	if err != nil || len(tg.Responses) != 2 || tg.Responses[0].Item == nil || tg.Responses[1].Item != nil {
		t.Fatalf("transact get: %+v %v", tg, err)
	}
}

func getN(t *testing.T, st *started, table string, key map[string]types.AttributeValue, attr string) string {
	t.Helper()
	out, err := st.db.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: aws.String(table), Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	n, ok := out.Item[attr].(*types.AttributeValueMemberN)
	if !ok {
		return ""
	}
	return n.Value
}
