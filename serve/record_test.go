package serve

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"stwb/model"
)

// failingWriter accepts ok writes, then fails every one after, as a disk that fills.
type failingWriter struct{ ok int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.ok == 0 {
		return 0, errors.New("write requests.jsonl: no space left on device")
	}
	w.ok--
	return len(p), nil
}

// post answers one operation through ServeHTTP.
func post(s *Server, op, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	req.Header.Set("X-Amz-Target", targetPrefix+op)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	return w
}

// TestRecordFailureSaidWhenItHappens: when writing the recording fails, the server
// says so at once, on its log and in a header on that answer and every one after
// (the application's test run sees it), and goes on serving. On main it said
// nothing until shutdown.
func TestRecordFailureSaidWhenItHappens(t *testing.T) {
	var log strings.Builder
	s := New(Options{Record: &failingWriter{ok: 1}, Log: &log})
	d := &model.Design{Table: model.Table{Name: "tab", Key: model.KeySchema{Partition: "pk"}}}
	if err := s.AddDesign(d); err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := range 3 {
		w := post(s, "PutItem", `{"TableName":"tab","Item":{"pk":{"S":"`+string(rune('a'+i))+`"}}}`)
		if w.Code != 200 {
			t.Fatalf("PutItem %d: %d %s", i, w.Code, w.Body)
		}
		got = append(got, w.Header().Get("X-Stwb-Record-Failed"))
	}
	if got[0] != "" || !strings.Contains(got[1], "recording stopped: write requests.jsonl: no space left on device") || got[2] != got[1] {
		t.Errorf("headers %q: want none, then the failure on the answer it happened on and after", got)
	}
	if strings.Count(log.String(), "recording stopped") != 1 {
		t.Errorf("the log should say it once, when it happened:\n%s", log.String())
	}
	if s.RecordError() == nil {
		t.Error("RecordError should hold the failure")
	}
}

// TestRecordKeepsRequestAsItCame: the recording holds the request body as it came:
// <, > and & not escaped (on main each became six bytes, so a 9.75 MB request made a
// 42 MB line), a body on several lines put on one, and ReadRecords gives it back.
func TestRecordKeepsRequestAsItCame(t *testing.T) {
	var rec strings.Builder
	s := New(Options{Record: &rec})
	d := &model.Design{Table: model.Table{Name: "tab", Key: model.KeySchema{Partition: "pk"}}}
	if err := s.AddDesign(d); err != nil {
		t.Fatal(err)
	}
	note := strings.Repeat("<b>&", 1000)
	body := "{\n  \"TableName\": \"tab\",\n  \"Item\": {\"pk\": {\"S\": \"a\"}, \"note\": {\"S\": \"" + note + "\"}}\n}"
	if w := post(s, "PutItem", body); w.Code != 200 {
		t.Fatalf("PutItem: %d %s", w.Code, w.Body)
	}
	line := rec.String()
	if strings.Count(line, "\n") != 1 || !strings.Contains(line, note) || len(line) > len(body)+100 {
		t.Fatalf("the recorded line should be the request as it came, on one line (%d bytes for a %d-byte request):\n%.300s", len(line), len(body), line)
	}
	recs, err := ReadRecords(strings.NewReader(line))
	if err != nil || len(recs) != 1 || !strings.Contains(string(recs[0].Request), note) {
		t.Fatalf("read back: %v %d", err, len(recs))
	}
}

// TestReadRecordsLongLines: a line as long as a request can make, even written
// escaped as recordings were before (a 9.75 MB request of <, > and &: 42 MB), is
// read; on main bufio.Scanner refused it ("token too long", no line). A line that is
// not a record is refused with its line number.
func TestReadRecordsLongLines(t *testing.T) {
	big := strings.Repeat(`\u003c`, 7_000_000) // 42 MB, from 7 MB of '<'
	text := `{"at":"2026-12-01T10:00:00Z","op":"GetItem","request":{"TableName":"tab","Key":{"pk":{"S":"a"}}}}` + "\n" +
		`{"at":"2026-12-01T10:00:01Z","op":"PutItem","request":{"TableName":"tab","Item":{"pk":{"S":"` + big + `"}}}}` + "\n"
	recs, err := ReadRecords(strings.NewReader(text))
	if err != nil || len(recs) != 2 {
		t.Fatalf("a 42 MB line should read: %v (%d records)", err, len(recs))
	}
	_, err = ReadRecords(strings.NewReader(text + "\nnot a record\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "line 4: not a request") {
		t.Fatalf("a bad line should be named: %v", err)
	}
}

// TestWireCacheFollowsWrites: an item read, then replaced, then read again answers
// its new content: the JSON kept for the old item is not the new one's
// (wirecache.go keeps it with the stored entry, and a write stores a new entry).
func TestWireCacheFollowsWrites(t *testing.T) {
	s := New(Options{})
	if err := s.AddDesign(&model.Design{Table: model.Table{Name: "tab", Key: model.KeySchema{Partition: "pk"}}}); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"one", "two", "three"} {
		if st, out := s.Call("PutItem", []byte(`{"TableName":"tab","Item":{"pk":{"S":"a"},"v":{"S":"`+v+`"}}}`)); st != 200 {
			t.Fatalf("%d %s", st, out)
		}
		for range 2 {
			_, got := s.Call("GetItem", []byte(`{"TableName":"tab","Key":{"pk":{"S":"a"}}}`))
			_, page := s.Call("Query", []byte(`{"TableName":"tab","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}}`))
			want := `{"pk":{"S":"a"},"v":{"S":"` + v + `"}}`
			if string(got) != `{"Item":`+want+`}` || !strings.Contains(string(page), `"Items":[`+want+`]`) {
				t.Fatalf("after writing %s: GetItem %s, Query %s", v, got, page)
			}
		}
	}
}

// TestKeptJSONFollowsWrites: with the items' JSON kept beside them (wirecache.go),
// every read answers, read once or again, what a server that has just been given
// the same writes answers as its first request: after each write, through the table
// and indexes of each projection (one that hands the stored item out, ones that
// make an item for the read, an LSI read that fetches from the table), with and
// without a projection expression.
func TestKeptJSONFollowsWrites(t *testing.T) {
	const create = `{"TableName":"tab","BillingMode":"PAY_PER_REQUEST",
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},
			{"AttributeName":"g","AttributeType":"S"},{"AttributeName":"l","AttributeType":"S"}],
		"GlobalSecondaryIndexes":[
			{"IndexName":"all","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}},
			{"IndexName":"keys","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"KEYS_ONLY"}},
			{"IndexName":"some","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["a"]}}],
		"LocalSecondaryIndexes":[
			{"IndexName":"local","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"l","KeyType":"RANGE"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}]}`
	writes := []struct{ op, body string }{
		{"PutItem", `{"TableName":"tab","Item":{"pk":{"S":"p"},"sk":{"S":"1"},"g":{"S":"x"},"l":{"S":"m"},"a":{"N":"1"},"b":{"S":"one"}}}`},
		{"PutItem", `{"TableName":"tab","Item":{"pk":{"S":"p"},"sk":{"S":"2"},"g":{"S":"x"},"l":{"S":"n"},"a":{"N":"2"},"b":{"S":"two"}}}`},
		{"UpdateItem", `{"TableName":"tab","Key":{"pk":{"S":"p"},"sk":{"S":"1"}},"UpdateExpression":"SET b = :b, a = a + :one","ExpressionAttributeValues":{":b":{"S":"uno"},":one":{"N":"1"}}}`},
		{"PutItem", `{"TableName":"tab","Item":{"pk":{"S":"p"},"sk":{"S":"2"},"g":{"S":"y"},"l":{"S":"n"},"a":{"N":"9"}}}`},
		{"DeleteItem", `{"TableName":"tab","Key":{"pk":{"S":"p"},"sk":{"S":"1"}}}`},
		{"PutItem", `{"TableName":"tab","Item":{"pk":{"S":"p"},"sk":{"S":"1"},"g":{"S":"x"},"l":{"S":"m"},"b":{"S":"again"}}}`},
	}
	query := func(rest string) string {
		return `{"TableName":"tab","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"p"}}` + rest + `}`
	}
	gsi := func(ix, rest string) string {
		return `{"TableName":"tab","IndexName":"` + ix + `","KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"x"}}` + rest + `}`
	}
	reads := []struct{ op, body string }{
		{"GetItem", `{"TableName":"tab","Key":{"pk":{"S":"p"},"sk":{"S":"1"}}}`},
		{"GetItem", `{"TableName":"tab","Key":{"pk":{"S":"p"},"sk":{"S":"2"}},"ProjectionExpression":"b"}`},
		{"GetItem", `{"TableName":"tab","Key":{"pk":{"S":"p"},"sk":{"S":"2"}}}`},
		{"Query", query(``)},
		{"Query", query(`,"ProjectionExpression":"sk, a"`)},
		{"Query", query(`,"ScanIndexForward":false,"Limit":1`)},
		{"Query", gsi("all", ``)},
		{"Query", gsi("keys", ``)},
		{"Query", gsi("some", ``)},
		{"Query", gsi("all", `,"ProjectionExpression":"b"`)},
		{"Query", `{"TableName":"tab","IndexName":"local","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"p"}}}`},
		{"Query", `{"TableName":"tab","IndexName":"local","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"p"}},"Select":"ALL_ATTRIBUTES"}`},
		{"Scan", `{"TableName":"tab"}`},
		{"Scan", `{"TableName":"tab","IndexName":"keys"}`},
		{"Scan", `{"TableName":"tab","IndexName":"all"}`},
	}
	newServer := func(writes []struct{ op, body string }) *Server {
		s := New(Options{})
		for _, w := range append([]struct{ op, body string }{{"CreateTable", create}}, writes...) {
			if st, out := s.Call(w.op, []byte(w.body)); st != 200 {
				t.Fatalf("%s: %d %s", w.op, st, out)
			}
		}
		return s
	}
	kept := newServer(nil)
	for i, w := range writes {
		if st, out := kept.Call(w.op, []byte(w.body)); st != 200 {
			t.Fatalf("%s: %d %s", w.op, st, out)
		}
		for _, r := range reads {
			// A server of its own for each read: its answer is encoded afresh.
			_, want := newServer(writes[:i+1]).Call(r.op, []byte(r.body))
			for range 2 {
				if _, got := kept.Call(r.op, []byte(r.body)); string(got) != string(want) {
					t.Fatalf("after write %d (%s), %s %s:\n got %s\nwant %s", i, w.op, r.op, r.body, got, want)
				}
			}
		}
	}
}
