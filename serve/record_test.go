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
// its new content: the JSON remembered for the old item is not the new one's
// (wirecache.go keys it by the stored map, and a write stores a new map).
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
