package serve

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestConcurrentWriters: many clients at once. Counter increments lose no update;
// transfers between accounts are transactions, so the total never changes, and
// readers reading both accounts in one TransactGetItems never see half a transfer.
func TestConcurrentWriters(t *testing.T) {
	d := sample(t, "orders")
	st := start(t, Options{}, d)
	c, table := ctx(t), aws.String(d.Table.Name)
	counter := map[string]types.AttributeValue{"PK": av("COUNTER"), "SK": av("c")}
	const writers, each = 8, 40
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				_, err := st.db.UpdateItem(c, &dynamodb.UpdateItemInput{TableName: table, Key: counter,
					UpdateExpression: aws.String("ADD n :one"), ExpressionAttributeValues: map[string]types.AttributeValue{":one": avN("1")}})
				if err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n := getN(t, st, d.Table.Name, counter, "n"); n != strconv.Itoa(writers*each) {
		t.Fatalf("counter %s after %d increments: an update was lost", n, writers*each)
	}

	acct := func(i int) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"PK": av(fmt.Sprintf("ACCT#%d", i)), "SK": av("a")}
	}
	for i := range 2 {
		it := acct(i)
		it["bal"] = avN("100")
		if _, err := st.db.PutItem(c, &dynamodb.PutItemInput{TableName: table, Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	transfer := func(from, to int) error {
		_, err := st.db.TransactWriteItems(c, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Update: &types.Update{TableName: table, Key: acct(from), UpdateExpression: aws.String("SET bal = bal - :a"),
				ConditionExpression: aws.String("bal >= :a"), ExpressionAttributeValues: map[string]types.AttributeValue{":a": avN("7")}}},
			{Update: &types.Update{TableName: table, Key: acct(to), UpdateExpression: aws.String("SET bal = bal + :a"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":a": avN("7")}}},
		}})
		var tc *types.TransactionCanceledException
		if errors.As(err, &tc) {
			return nil // not enough money: nothing moved
		}
		return err
	}
	stop := make(chan struct{})
	var readers sync.WaitGroup
	bad := make(chan string, 1)
	for range 2 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				out, err := st.db.TransactGetItems(c, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
					{Get: &types.Get{TableName: table, Key: acct(0)}}, {Get: &types.Get{TableName: table, Key: acct(1)}}}})
				if err != nil {
					select {
					case bad <- err.Error():
					default:
					}
					return
				}
				a, _ := strconv.Atoi(out.Responses[0].Item["bal"].(*types.AttributeValueMemberN).Value)
				b, _ := strconv.Atoi(out.Responses[1].Item["bal"].(*types.AttributeValueMemberN).Value)
				if a+b != 200 {
					select {
					case bad <- fmt.Sprintf("a reader saw %d + %d = %d, half a transfer", a, b, a+b):
					default:
					}
					return
				}
			}
		}()
	}
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if err := transfer((w+i)%2, (w+i+1)%2); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	readers.Wait()
	select {
	case msg := <-bad:
		t.Fatal(msg)
	default:
	}
	a, b := getN(t, st, d.Table.Name, acct(0), "bal"), getN(t, st, d.Table.Name, acct(1), "bal")
	x, _ := strconv.Atoi(a)
	y, _ := strconv.Atoi(b)
	if x+y != 200 || x < 0 || y < 0 {
		t.Fatalf("balances %s and %s after the transfers, want a total of 200", a, b)
	}
}
