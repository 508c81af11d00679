package serve

import (
	"strconv"
	"testing"
	"time"

	"stwb/model"
)

// ttlServer serves a table "ttltab" (pk, String) of n items whose TTL attribute
// "exp" is far in the future, with TTL on, on a clock fixed at now.
func ttlServer(t testing.TB, n int, now time.Time) *Server {
	t.Helper()
	d := &model.Design{Table: model.Table{Name: "ttltab", Key: model.KeySchema{Partition: "pk"}}}
	future := model.Num(strconv.FormatInt(now.Add(24*time.Hour).Unix(), 10))
	for i := range n {
		d.Items = append(d.Items, model.Item{"pk": model.Str("item#" + strconv.Itoa(i)), "exp": future})
	}
	s := New(Options{Now: func() time.Time { return now }})
	if err := s.AddDesign(d); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Call("UpdateTimeToLive", []byte(`{"TableName":"ttltab","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"exp"}}`)); st != 200 {
		t.Fatal("UpdateTimeToLive failed")
	}
	s.ExpireNow() // the first sweep learns the table
	return s
}

func mustCall(t testing.TB, s *Server, op, body string) string {
	t.Helper()
	st, out := s.Call(op, []byte(body))
	if st != 200 {
		t.Fatalf("%s %s: %d %s", op, body, st, out)
	}
	return string(out)
}

// TestExpiryFollowsWrites: items written after TTL is on, by every kind of write,
// expire when their time passes; an item whose TTL moved to the future, or that
// was deleted and written again without one, stays.
func TestExpiryFollowsWrites(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	s := ttlServer(t, 10, now)
	past := strconv.FormatInt(now.Add(-time.Minute).Unix(), 10)
	mustCall(t, s, "PutItem", `{"TableName":"ttltab","Item":{"pk":{"S":"put"},"exp":{"N":"`+past+`"}}}`)
	mustCall(t, s, "UpdateItem", `{"TableName":"ttltab","Key":{"pk":{"S":"update"}},"UpdateExpression":"SET exp = :e","ExpressionAttributeValues":{":e":{"N":"`+past+`"}}}`)
	mustCall(t, s, "BatchWriteItem", `{"RequestItems":{"ttltab":[{"PutRequest":{"Item":{"pk":{"S":"batch"},"exp":{"N":"`+past+`"}}}}]}}`)
	mustCall(t, s, "TransactWriteItems", `{"TransactItems":[{"Put":{"TableName":"ttltab","Item":{"pk":{"S":"transact"},"exp":{"N":"`+past+`"}}}}]}`)
	// Written expired, then given a later time: stays.
	mustCall(t, s, "PutItem", `{"TableName":"ttltab","Item":{"pk":{"S":"moved"},"exp":{"N":"`+past+`"}}}`)
	mustCall(t, s, "UpdateItem", `{"TableName":"ttltab","Key":{"pk":{"S":"moved"}},"UpdateExpression":"SET exp = :e","ExpressionAttributeValues":{":e":{"N":"`+strconv.FormatInt(now.Add(time.Hour).Unix(), 10)+`"}}}`)
	// Written expired, then replaced without a TTL: stays.
	mustCall(t, s, "PutItem", `{"TableName":"ttltab","Item":{"pk":{"S":"replaced"},"exp":{"N":"`+past+`"}}}`)
	mustCall(t, s, "PutItem", `{"TableName":"ttltab","Item":{"pk":{"S":"replaced"}}}`)
	if n := s.ExpireNow(); n != 4 {
		t.Errorf("ExpireNow deleted %d, want 4", n)
	}
	for pk, want := range map[string]bool{"put": false, "update": false, "batch": false, "transact": false, "moved": true, "replaced": true, "item#3": true} {
		out := mustCall(t, s, "GetItem", `{"TableName":"ttltab","Key":{"pk":{"S":"`+pk+`"}}}`)
		if got := out != "{}"; got != want {
			t.Errorf("%s: present %v, want %v (%s)", pk, got, want, out)
		}
	}
}

// TestExpiryCostsWhatExpires: a sweep over a large TTL table with one item due
// takes time for that item, not for the table (on main it walked all 200,000
// items under the exclusive lock: tens of milliseconds here, every second).
func TestExpiryCostsWhatExpires(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 200,000 items")
	}
	now := time.Unix(1_800_000_000, 0)
	s := ttlServer(t, 200_000, now)
	past := strconv.FormatInt(now.Add(-time.Minute).Unix(), 10)
	best := time.Hour
	for i := range 5 {
		mustCall(t, s, "PutItem", `{"TableName":"ttltab","Item":{"pk":{"S":"due`+strconv.Itoa(i)+`"},"exp":{"N":"`+past+`"}}}`)
		start := time.Now()
		n := s.ExpireNow()
		best = min(best, time.Since(start))
		if n != 1 {
			t.Fatalf("sweep %d deleted %d, want 1", i, n)
		}
	}
	if best > 10*time.Millisecond {
		t.Errorf("a sweep with one item due on 200,000 took %v at best; it should not walk the table", best)
	}
}
