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
