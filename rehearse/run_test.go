package rehearse

import (
	"context"
	"math"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/credentials"

	"stwb/analysis"
	"stwb/designfile"
	"stwb/live"
	"stwb/serve"
	"stwb/throttle"
)

// endpoint serves path's design (throttled at scale when scale > 0) on a loopback
// port for the test.
func endpoint(t *testing.T, path string, scale float64) (string, *analysis.Analysis) {
	t.Helper()
	f, err := designfile.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	o := serve.Options{}
	if scale > 0 {
		o.Throttle = throttle.New(throttle.Options{Scale: scale})
	}
	s := serve.New(o)
	if err := s.AddFile(f); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Serve(ctx, l); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	a, err := analysis.Run(f.Design, analysis.Options{Review: true, ItemPos: f.ItemPos})
	if err != nil {
		t.Fatal(err)
	}
	return "http://" + l.Addr().String(), a
}

func load(t *testing.T, url string, a *analysis.Analysis, scale float64, d time.Duration) *Report {
	t.Helper()
	db, err := live.NewClient(context.Background(), live.Config{Endpoint: url, Region: "us-east-1",
		Credentials: credentials.NewStaticCredentialsProvider("k", "s", "")})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), db, a, Options{Scale: scale, Duration: d, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// TestKnownLoad: stwb load's figures against a load known in advance: a GetItem of
// one 4 KB-or-smaller item at 20 a second (0.5 RCU each, eventually consistent)
// and an UpdateItem of one small item at 10 a second (1 WCU each), 3 seconds, no
// throttling: 60 and 30 requests, 10 RCU/s and 10 WCU/s consumed, as cost
// predicts, no retries; the top keys are the two items' key values with their
// units.
func TestKnownLoad(t *testing.T) {
	url, a := endpoint(t, "testdata/known.yaml", 0)
	r := load(t, url, a, 1, 3*time.Second)
	get, upd := r.Patterns[0], r.Patterns[1]
	if !near(float64(get.Sent), 60, 3) || !near(float64(upd.Sent), 30, 2) {
		t.Errorf("sent %d and %d, want 60 and 30", get.Sent, upd.Sent)
	}
	if get.Retries != 0 || upd.Retries != 0 || get.Throttled+upd.Throttled != 0 || get.Failed+upd.Failed != 0 {
		t.Errorf("retries %d %d, throttled %d %d, failed %d %d; want none", get.Retries, upd.Retries, get.Throttled, upd.Throttled, get.Failed, upd.Failed)
	}
	if !near(get.RCU, 10, 0.7) || get.WCU != 0 || !near(upd.WCU, 10, 0.7) {
		t.Errorf("consumed %v RCU/s, %v WCU/s; want 10 and 10", get.RCU, upd.WCU)
	}
	if get.PredRCU != 10 || upd.PredWCU != 10 {
		t.Errorf("predicted %v RCU/s and %v WCU/s, want cost's 10 and 10", get.PredRCU, upd.PredWCU)
	}
	want := map[string]float64{"read table USER#1": 0.5 * float64(get.Sent), "write table USER#2": float64(upd.Sent)}
	for _, k := range r.TopKeys {
		id := k.Kind + " " + k.Pool + " " + k.Key
		if u, ok := want[id]; !ok || !near(k.Units, u, 0.01) {
			t.Errorf("top key %s: %v units, want %v", id, k.Units, u)
		}
		delete(want, id)
	}
	if len(want) > 0 {
		t.Errorf("top keys miss %v", want)
	}
	if len(r.Disagreements) != 0 {
		t.Errorf("disagreements %v", r.Disagreements)
	}
}

// TestCounterRehearsal: the counter at --scale 100 against serve
// --throttle --scale 100: check flags it and the run throttles it with
// TableWriteKeyRangeThroughputExceeded; the same counter over 10,000 keys is
// neither flagged nor throttled. Both runs agree with check.
func TestCounterRehearsal(t *testing.T) {
	url, a := endpoint(t, "../throttle/testdata/counter.yaml", 100)
	r := load(t, url, a, 100, 8*time.Second)
	p := r.Patterns[0]
	share := float64(p.Throttled) / float64(max(p.Attempts, 1))
	t.Logf("counter: sent %d, tries %d, throttled %d (%.2f), retries %d, achieved %v/s, reasons %v", p.Sent, p.Attempts, p.Throttled, share, p.Retries, p.Achieved, p.Reasons)
	if len(p.Flagged) == 0 || share < 0.2 || p.Reasons["TableWriteKeyRangeThroughputExceeded"] != p.Throttled {
		t.Errorf("counter: flagged %v, %d of %d tries throttled, reasons %v", p.Flagged, p.Throttled, p.Attempts, p.Reasons)
	}
	// The run's time includes draining the last throttled requests' retries (up to
	// live.DefaultMaxBackoff apart), when the key serves fewer than 10 a second: so
	// the rate achieved is at most the key's 10 (and a burst's slack), and under it
	// by what the drain took. Eight seconds keep the drain a small part of the run:
	// at four, 61 updates gave 7.5-11.1 a second on this machine.
	if p.Achieved < 7.5 || p.Achieved > 12.5 {
		t.Errorf("counter achieved %v updates a second, want about the key's 10", p.Achieved)
	}
	if len(r.Disagreements) != 0 {
		t.Errorf("disagreements %v", r.Disagreements)
	}
	url, a = endpoint(t, "../throttle/testdata/counter-sharded.yaml", 100)
	r = load(t, url, a, 100, 3*time.Second)
	p = r.Patterns[0]
	if len(p.Flagged) != 0 || p.Throttled != 0 || len(r.Disagreements) != 0 {
		t.Errorf("sharded counter: flagged %v, throttled %d, disagreements %v", p.Flagged, p.Throttled, r.Disagreements)
	}
	if keys := len(r.TopKeys); keys < 5 {
		t.Errorf("sharded counter: %d top keys, want the 5 hottest of many", keys)
	}
}

// TestSamplesAgreeWithCheck: each shipped sample, rehearsed at --scale 100 against
// serve --throttle --scale 100, throttles exactly the patterns check flags.
func TestSamplesAgreeWithCheck(t *testing.T) {
	names, err := filepath.Glob("../samples/*.yaml")
	if err != nil || len(names) < 5 {
		t.Fatalf("samples: %v %v", names, err)
	}
	for _, path := range names {
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			url, a := endpoint(t, path, 100)
			r := load(t, url, a, 100, 2*time.Second)
			if len(r.Disagreements) > 0 {
				t.Errorf("the rehearsal disagrees with check: %v", r.Disagreements)
			}
		})
	}
}
