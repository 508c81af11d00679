package live

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/credentials"

	"stwb/model"
)

// fakeBatchWriter is a loopback DynamoDB that answers BatchWriteItem the way a busy
// table does (API_BatchWriteItem.html, Programming.Errors.html): the first requests
// are refused with ProvisionedThroughputExceededException (nothing written), and
// later ones write only some items and hand the rest back as UnprocessedItems.
type fakeBatchWriter struct {
	throttleFirst    int // requests answered with the exception
	unprocessedTimes int // requests that then write only their first item
	mu               sync.Mutex
	calls            int
	partial          int
	written          map[string]int // PK -> times written
	created          bool
}

func (f *fakeBatchWriter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	// Deploy's other calls, answered as for a table that does not exist until
	// CreateTable and is ACTIVE at once.
	table := `{"TableName":"t","TableStatus":"ACTIVE","TableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/t"}`
	switch r.Header.Get("X-Amz-Target") {
	case "DynamoDB_20120810.BatchWriteItem":
	case "DynamoDB_20120810.DescribeTable":
		f.mu.Lock()
		defer f.mu.Unlock()
		if !f.created {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException","message":"Requested resource not found"}`)
			return
		}
		fmt.Fprint(w, `{"Table":`+table+`}`)
		return
	case "DynamoDB_20120810.CreateTable":
		f.mu.Lock()
		defer f.mu.Unlock()
		f.created = true
		fmt.Fprint(w, `{"TableDescription":`+table+`}`)
		return
	case "DynamoDB_20120810.TagResource":
		fmt.Fprint(w, `{}`)
		return
	default:
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"__type":"com.amazon.coral.service#UnknownOperationException"}`)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req struct {
		RequestItems map[string][]struct {
			PutRequest struct {
				Item map[string]map[string]any
			}
		}
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.calls <= f.throttleFirst {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",`+
			`"message":"The level of configured provisioned throughput for the table was exceeded."}`)
		return
	}
	unprocessed := map[string][]any{}
	for table, reqs := range req.RequestItems {
		keep := len(reqs)
		if f.partial < f.unprocessedTimes && len(reqs) > 1 {
			f.partial++
			keep = 1
		}
		for i, wr := range reqs {
			if i < keep {
				f.written[wr.PutRequest.Item["PK"]["S"].(string)]++
				continue
			}
			unprocessed[table] = append(unprocessed[table], map[string]any{"PutRequest": map[string]any{"Item": wr.PutRequest.Item}})
		}
	}
	out, _ := json.Marshal(map[string]any{"UnprocessedItems": unprocessed})
	w.Write(out)
}

// TestLoadItemsRetriesThrottlingAndUnprocessed: every item is written exactly once
// although the endpoint throttles the first tries and hands items back, and the
// waits between tries follow capped exponential backoff with jitter.
func TestLoadItemsRetriesThrottlingAndUnprocessed(t *testing.T) {
	cases := []struct {
		name                  string
		items, workers        int
		throttle, unprocessed int
	}{
		{"throttled only", 60, 1, 3, 0},
		{"unprocessed only", 60, 1, 0, 4},
		{"both, in parallel", 260, 4, 5, 6},
		{"single item", 1, 4, 2, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fake := &fakeBatchWriter{throttleFirst: c.throttle, unprocessedTimes: c.unprocessed, written: map[string]int{}}
			srv := httptest.NewServer(fake)
			defer srv.Close()
			db, err := NewClient(context.Background(), Config{Endpoint: srv.URL, Region: "us-east-1",
				Credentials: credentials.NewStaticCredentialsProvider("test", "test", "")})
			if err != nil {
				t.Fatal(err)
			}
			items := make([]model.Item, c.items)
			for i := range items {
				items[i] = model.Item{"PK": model.Str(fmt.Sprintf("P#%d", i)), "n": model.Num(fmt.Sprint(i))}
			}
			var mu sync.Mutex
			var waits []time.Duration
			var progress []int
			o := LoadOptions{Workers: c.workers, BaseDelay: 10 * time.Millisecond, MaxDelay: 40 * time.Millisecond,
				Sleep: func(_ context.Context, d time.Duration) error {
					mu.Lock()
					waits = append(waits, d)
					mu.Unlock()
					return nil
				},
				Progress: func(done, total int) { progress = append(progress, done) }}
			st, err := LoadItems(context.Background(), db, "t", items, o)
			if err != nil {
				t.Fatal(err)
			}
			for i := range items {
				if n := fake.written[fmt.Sprintf("P#%d", i)]; n != 1 {
					t.Errorf("item %d written %d times, want exactly once", i, n)
				}
			}
			if st.Items != c.items || st.Throttled != c.throttle || (c.unprocessed > 0) != (st.Retried > 0) {
				t.Fatalf("stats %+v: want %d items, %d throttled, retried > 0 iff unprocessed", st, c.items, c.throttle)
			}
			if len(waits) != c.throttle+fake.partial {
				t.Fatalf("%d waits, want one per throttled or partial answer (%d)", len(waits), c.throttle+fake.partial)
			}
			for _, d := range waits {
				if d < 0 || d > o.MaxDelay {
					t.Fatalf("wait %v outside [0, MaxDelay %v]", d, o.MaxDelay)
				}
			}
			if len(progress) == 0 || progress[len(progress)-1] != c.items {
				t.Fatalf("progress %v should end at %d", progress, c.items)
			}
		})
	}
}

// TestLoadItemsGivesUp: an endpoint that never stops throttling makes LoadItems stop
// after MaxAttempts with an error naming the items and what to do.
func TestLoadItemsGivesUp(t *testing.T) {
	fake := &fakeBatchWriter{throttleFirst: 1 << 30, written: map[string]int{}}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	db, err := NewClient(context.Background(), Config{Endpoint: srv.URL, Region: "us-east-1",
		Credentials: credentials.NewStaticCredentialsProvider("test", "test", "")})
	if err != nil {
		t.Fatal(err)
	}
	items := []model.Item{{"PK": model.Str("a")}, {"PK": model.Str("b")}}
	_, err = LoadItems(context.Background(), db, "t", items, LoadOptions{MaxAttempts: 3,
		Sleep: func(context.Context, time.Duration) error { return nil }})
	if err == nil || !strings.Contains(err.Error(), "items 0..1") || !strings.Contains(err.Error(), "after 3 tries") {
		t.Fatalf("error %v, want one naming items 0..1 and 3 tries", err)
	}
	if fake.calls != 3 {
		t.Fatalf("%d requests, want MaxAttempts = 3", fake.calls)
	}
}

// TestBackoffGrowsAndIsCapped: the ceiling of try n's wait is BaseDelay*2^(n-1),
// capped at MaxDelay, and the wait is drawn below it (full jitter).
func TestBackoffGrowsAndIsCapped(t *testing.T) {
	o := LoadOptions{BaseDelay: 8 * time.Millisecond, MaxDelay: 100 * time.Millisecond}.withDefaults()
	cases := []struct {
		try     int
		ceiling time.Duration
	}{{1, 8 * time.Millisecond}, {2, 16 * time.Millisecond}, {4, 64 * time.Millisecond}, {5, 100 * time.Millisecond}, {60, 100 * time.Millisecond}}
	for _, c := range cases {
		var top time.Duration
		for i := 0; i < 2000; i++ {
			d := o.backoff(c.try)
			if d < 0 || d > c.ceiling {
				t.Fatalf("try %d: wait %v outside [0, %v]", c.try, d, c.ceiling)
			}
			top = max(top, d)
		}
		// Jitter spreads the waits: over 2000 draws the largest is near the ceiling.
		if top < c.ceiling*3/4 {
			t.Fatalf("try %d: largest of 2000 waits %v, want near the ceiling %v", c.try, top, c.ceiling)
		}
	}
}

// TestDeployLoadsEveryItemOnceWhenThrottled runs the whole of Deploy against the
// throttling endpoint: the table is created, and every item is written exactly once.
func TestDeployLoadsEveryItemOnceWhenThrottled(t *testing.T) {
	fake := &fakeBatchWriter{throttleFirst: 4, unprocessedTimes: 5, written: map[string]int{}}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	db, err := NewClient(context.Background(), Config{Endpoint: srv.URL, Region: "us-east-1",
		Credentials: credentials.NewStaticCredentialsProvider("test", "test", "")})
	if err != nil {
		t.Fatal(err)
	}
	d := &model.Design{Name: "throttled", Table: model.Table{Name: "t", Key: model.KeySchema{Partition: "PK"}}}
	for i := 0; i < 120; i++ {
		d.Items = append(d.Items, model.Item{"PK": model.Str(fmt.Sprintf("P#%d", i))})
	}
	var log strings.Builder
	rep, err := Deploy(context.Background(), db, d, DeployOptions{Log: &log,
		Load: LoadOptions{Sleep: func(context.Context, time.Duration) error { return nil }}})
	if err != nil {
		t.Fatal(err)
	}
	if !fake.created || rep.Load.Items != 120 || rep.Load.Throttled != 4 {
		t.Fatalf("created %v, report %+v: want the table created, 120 items, 4 throttled", fake.created, rep.Load)
	}
	for i := range d.Items {
		if n := fake.written[fmt.Sprintf("P#%d", i)]; n != 1 {
			t.Errorf("item %d written %d times, want exactly once", i, n)
		}
	}
	if !strings.Contains(log.String(), "120/120 items") || !strings.Contains(log.String(), "4 throttled") {
		t.Fatalf("progress log lacks the final count or the throttling:\n%s", log.String())
	}
}
