package live

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"stwb/designfile"
	"stwb/model"
)

// Tests of deploy, verify and teardown against hostile endpoints: loopback fakes
// that answer `{}`, garbage, 500s, throttling forever, endless pages, or accept the
// connection and never answer. Each must end within a bounded time with an error
// that says what went wrong, and none may print the credentials.

// The credentials the fakes see; none of them may appear in an error.
const (
	testKeyID   = "AKIAIOSFODNN7EXAMPLE"
	testSecret  = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	testSession = "FwoGZXIvYXdzEXAMPLESESSIONTOKEN0123456789"
)

// answer is one operation's reply: a status and a body, or stall to never reply.
type answer struct {
	status int
	body   string
	stall  bool
}

// hostile is a fake endpoint that answers each operation (the part of X-Amz-Target
// after the dot) with its answer, and every other with fallback.
type hostile struct {
	ops      map[string]answer
	fallback answer
	calls    atomic.Int64
	done     chan struct{} // closed when the test ends, to release stalled requests
}

func (h *hostile) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.calls.Add(1)
	op := r.Header.Get("X-Amz-Target")
	op = op[strings.LastIndexByte(op, '.')+1:]
	a, ok := h.ops[op]
	if !ok {
		a = h.fallback
	}
	if a.stall {
		select {
		case <-r.Context().Done(): // the client gave up and closed the connection
		case <-h.done:
		}
		return
	}
	body := a.body
	if strings.Contains(body, "$HEADERS") {
		// An endpoint that echoes the request's headers, credentials and all.
		var hs strings.Builder
		for _, k := range []string{"Authorization", "X-Amz-Security-Token"} {
			fmt.Fprintf(&hs, "%s: %s; ", k, r.Header.Get(k))
		}
		body = strings.ReplaceAll(body, "$HEADERS", strings.ReplaceAll(hs.String(), `"`, `'`))
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.WriteHeader(a.status)
	fmt.Fprint(w, body)
}

func hostileClient(t *testing.T, h *hostile) *dynamodb.Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	h.done = make(chan struct{})
	t.Cleanup(func() { close(h.done) }) // runs before srv.Close
	db, err := NewClient(context.Background(), Config{Endpoint: srv.URL, Region: "us-east-1",
		Credentials: credentials.NewStaticCredentialsProvider(testKeyID, testSecret, testSession),
		Timeout:     300 * time.Millisecond, MaxAttempts: 3, MaxBackoff: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

const (
	activeTable  = `{"Table":{"TableName":"t","TableStatus":"ACTIVE","TableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/t"}}`
	ownTags      = `{"Tags":[{"Key":"stwb:design","Value":"live-small"}]}`
	throttled    = `{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"Rate of requests exceeds the allowed throughput."}`
	notFound     = `{"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException","message":"Requested resource not found"}`
	endlessScan  = `{"Count":0,"ScannedCount":0,"LastEvaluatedKey":{"PK":{"S":"x"},"SK":{"S":"y"}}}`
	endlessTags  = `{"Tags":[{"Key":"team","Value":"a"}],"NextToken":"more"}`
	echoHeaders  = `{"__type":"com.amazonaws.dynamodb.v20120810#ValidationException","message":"bad request; you sent $HEADERS"}`
	endlessBatch = `{"Responses":{"t":[]},"UnprocessedKeys":{"t":{"Keys":[{"PK":{"S":"CUST#1"},"SK":{"S":"PROFILE"}}]}}}`
)

// TestHostileEndpoints: each endpoint ends deploy, verify and teardown with a clear
// error in a bounded time (the test's own deadline is far above the bound, so
// running into it is a failure), without a panic and without credentials in the
// message.
func TestHostileEndpoints(t *testing.T) {
	ok := func(body string) answer { return answer{status: 200, body: body} }
	cases := []struct {
		name string
		h    *hostile
		want string // in the error of every command
		// maxCalls bounds the requests: the retries are bounded too.
		maxCalls int64
	}{
		{"answers {}", &hostile{fallback: ok(`{}`)}, "answered without a table description", 10},
		{"answers garbage", &hostile{fallback: ok(`<html>not json`)}, "deserialization failed", 10},
		{"answers 500", &hostile{fallback: answer{status: 500, body: `{"__type":"InternalServerError","message":"boom"}`}}, "InternalServerError", 10},
		{"throttles forever", &hostile{fallback: answer{status: 400, body: throttled}}, "ThrottlingException", 10},
		{"never answers", &hostile{fallback: answer{stall: true}}, "did not answer within 300ms, 3 tries", 10},
		{"echoes the headers", &hostile{fallback: answer{status: 400, body: echoHeaders}}, "ValidationException", 10},
		{"a 1 MB error message", &hostile{fallback: answer{status: 400, body: `{"__type":"ValidationException","message":"` +
			strings.Repeat("x", 1<<20) + `"}`}}, "more bytes", 10},
	}
	d := smallDesign()
	for _, c := range cases {
		for _, cmd := range []string{"deploy", "verify", "teardown"} {
			t.Run(c.name+"/"+cmd, func(t *testing.T) {
				c.h.calls.Store(0)
				err, elapsed := runAgainst(t, hostileClient(t, c.h), d, cmd)
				checkHostileError(t, err, elapsed, c.want)
				if n := c.h.calls.Load(); n > c.maxCalls {
					t.Errorf("%d requests, want at most %d", n, c.maxCalls)
				}
			})
		}
	}
}

// TestHostilePagination: an endpoint whose pages never end (a Scan's
// LastEvaluatedKey, ListTagsOfResource's NextToken, BatchGetItem's UnprocessedKeys)
// stops at the page cap with an error saying so.
func TestHostilePagination(t *testing.T) {
	ok := func(body string) answer { return answer{status: 200, body: body} }
	d := smallDesign()
	d.Patterns = []model.Pattern{{ID: 1, Operation: model.OpBatchGetItem,
		Keys: []model.Item{{"PK": model.Str("CUST#1"), "SK": model.Str("PROFILE")}}}}
	cases := []struct {
		name, cmd string
		ops       map[string]answer
		want      string
	}{
		{"endless empty Scan pages in deploy", "deploy", map[string]answer{"DescribeTable": ok(activeTable),
			"ListTagsOfResource": ok(ownTags), "Scan": ok(endlessScan)}, "LastEvaluatedKey after 1000 pages"},
		{"endless tag pages in deploy", "deploy", map[string]answer{"DescribeTable": ok(activeTable),
			"ListTagsOfResource": ok(endlessTags)}, "NextToken after 100 pages"},
		{"endless tag pages in teardown", "teardown", map[string]answer{"DescribeTable": ok(activeTable),
			"ListTagsOfResource": ok(endlessTags)}, "NextToken after 100 pages"},
		{"endless UnprocessedKeys in verify", "verify", map[string]answer{"DescribeTable": ok(activeTable),
			"BatchGetItem": ok(endlessBatch)}, "UnprocessedKeys after 100 requests"},
		{"a table gone right after CreateTable", "deploy", map[string]answer{
			"DescribeTable": {status: 400, body: notFound}, "CreateTable": ok(`{}`)}, "waiting for table"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := &hostile{ops: c.ops, fallback: answer{status: 400, body: `{"__type":"UnknownOperationException"}`}}
			err, elapsed := runAgainst(t, hostileClient(t, h), d, c.cmd)
			checkHostileError(t, err, elapsed, c.want)
		})
	}
}

// runAgainst runs one of the three commands' library calls under a generous
// deadline and returns its error and how long it took.
func runAgainst(t *testing.T, db *dynamodb.Client, d *model.Design, cmd string) (error, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("%s panicked: %v", cmd, r)
			}
		}()
		switch cmd {
		case "deploy":
			_, err = Deploy(ctx, db, d, DeployOptions{Table: "t", Load: LoadOptions{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}})
		case "verify":
			_, err = Verify(ctx, db, &designfile.File{Design: d}, "t", "http://127.0.0.1")
		case "teardown":
			err = Teardown(ctx, db, d, "t")
		}
	}()
	if ctx.Err() != nil {
		t.Fatalf("%s ran into the test's 30 s deadline: %v", cmd, err)
	}
	return err, time.Since(start)
}

func checkHostileError(t *testing.T, err error, elapsed time.Duration, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", want)
	}
	msg := err.Error()
	if !strings.Contains(msg, want) {
		t.Errorf("error %q lacks %q", cutForLog(msg), want)
	}
	for _, secret := range []string{testKeyID, testSecret, testSession} {
		if strings.Contains(msg, secret) {
			t.Errorf("error shows a credential %q: %s", secret, cutForLog(msg))
		}
	}
	if want == "ValidationException" && !strings.Contains(msg, "[redacted]") {
		t.Errorf("the echoed headers are not in the error, so their redaction is not tested: %s", cutForLog(msg))
	}
	if strings.Contains(msg, "Signature=") && !strings.Contains(msg, "Signature=[redacted]") {
		t.Errorf("error shows the request signature: %s", cutForLog(msg))
	}
	if len(msg) > 4000 {
		t.Errorf("error is %d bytes long; long values must be cut", len(msg))
	}
	if elapsed > 10*time.Second {
		t.Errorf("took %v", elapsed)
	}
}

func cutForLog(s string) string {
	if len(s) > 600 {
		return s[:600] + "..."
	}
	return s
}

// TestTeardownFollowsTagPages: the design's tag on ListTagsOfResource's second page
// is found (API_ListTagsOfResource.html: NextToken), so teardown deletes its table;
// a table whose tag is on no page is refused.
func TestTeardownFollowsTagPages(t *testing.T) {
	for _, tagged := range []bool{true, false} {
		var deleted atomic.Bool
		var pages atomic.Int64
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/x-amz-json-1.0")
			body, _ := io.ReadAll(r.Body)
			switch op := r.Header.Get("X-Amz-Target"); {
			case strings.HasSuffix(op, ".DescribeTable") && deleted.Load():
				w.WriteHeader(400)
				fmt.Fprint(w, notFound)
			case strings.HasSuffix(op, ".DescribeTable"):
				fmt.Fprint(w, activeTable)
			case strings.HasSuffix(op, ".ListTagsOfResource"):
				pages.Add(1)
				switch {
				case !strings.Contains(string(body), "NextToken"):
					fmt.Fprint(w, `{"Tags":[{"Key":"team","Value":"a"}],"NextToken":"page2"}`)
				case tagged:
					fmt.Fprint(w, ownTags)
				default:
					fmt.Fprint(w, `{"Tags":[{"Key":"owner","Value":"b"}]}`)
				}
			case strings.HasSuffix(op, ".DeleteTable"):
				deleted.Store(true)
				fmt.Fprint(w, `{}`)
			default:
				w.WriteHeader(400)
				fmt.Fprint(w, `{"__type":"UnknownOperationException"}`)
			}
		})
		srv := httptest.NewServer(h)
		db, err := NewClient(context.Background(), Config{Endpoint: srv.URL, Region: "us-east-1",
			Credentials: credentials.NewStaticCredentialsProvider("test", "test", "")})
		if err != nil {
			t.Fatal(err)
		}
		err = Teardown(context.Background(), db, smallDesign(), "t")
		srv.Close()
		if pages.Load() != 2 {
			t.Errorf("tagged=%v: %d ListTagsOfResource pages read, want 2", tagged, pages.Load())
		}
		switch {
		case tagged && (err != nil || !deleted.Load()):
			t.Errorf("the design's tag on page 2: teardown %v, deleted %v; want the table deleted", err, deleted.Load())
		case !tagged && (!errors.Is(err, ErrNotOwned) || deleted.Load() || !strings.Contains(err.Error(), "owner=b, team=a")):
			t.Errorf("no design tag on any page: teardown %v, deleted %v; want ErrNotOwned listing both pages' tags", err, deleted.Load())
		}
	}
}
