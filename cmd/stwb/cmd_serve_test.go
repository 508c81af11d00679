package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"stwb/designfile"
	"stwb/samples"
)

// syncBuffer is a bytes.Buffer safe to write from the server's goroutine and read
// from the test's.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// startServing runs stwb serve with args until stop, which ends it and returns its
// exit status; url is the URL it printed.
func startServing(t *testing.T, args ...string) (url string, stdout, stderr *syncBuffer, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	stdout, stderr = &syncBuffer{}, &syncBuffer{}
	done := make(chan int, 1)
	go func() { done <- serveMain(ctx, args, nil, stdout, stderr) }()
	stop = func() int { cancel(); return <-done }
	urlRE := regexp.MustCompile(`http://127\.0\.0\.1:\d+`)
	for deadline := time.Now().Add(10 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		url = urlRE.FindString(stdout.String())
	}
	if url == "" {
		stop()
		t.Fatalf("no URL printed: %q %q", stdout.String(), stderr.String())
	}
	return url, stdout, stderr, stop
}

// TestServeCommand: stwb serve FILE --port 0 --dump OUT prints its URL and table,
// answers a PutItem, and on shutdown writes the items, which stwb import reads back
// into the design.
func TestServeCommand(t *testing.T) {
	dir := t.TempDir()
	design := filepath.Join(dir, "orders.yaml")
	if code := run([]string{"sample", "orders", "-o", design}, nil, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Fatal("sample failed")
	}
	d, err := samples.Load("orders")
	if err != nil {
		t.Fatal(err)
	}
	dump := filepath.Join(dir, "state.json")
	url, stdout, stderr, stop := startServing(t, design, "--port", "0", "--dump", dump)
	if !strings.Contains(stdout.String(), "table "+d.Table.Name) || !strings.Contains(stdout.String(), "signatures are not checked") {
		t.Fatalf("the banner should name the table and say signatures are not checked:\n%s", stdout.String())
	}
	body := `{"TableName":"` + d.Table.Name + `","Item":{"PK":{"S":"SERVED#1"},"SK":{"S":"x"},"type":{"S":"note"}}}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.PutItem")
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("PutItem: %d", resp.StatusCode)
	}
	if code := stop(); code != 0 {
		t.Fatalf("serve exited %d: %s", code, stderr.String())
	}
	if _, err := os.Stat(dump); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "merged.yaml")
	var ierr bytes.Buffer
	if code := run([]string{"import", "--format", "dynamodb-json", dump, "--into", design, "-o", out}, nil, &bytes.Buffer{}, &ierr); code != 0 {
		t.Fatalf("import of the dump: %d %s", code, ierr.String())
	}
	merged, err := designfile.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(merged.Items) != len(d.Items)+1 {
		t.Fatalf("the merged design has %d items, want %d", len(merged.Items), len(d.Items)+1)
	}
}

// TestServeRecordAndCheckTraffic: stwb serve --record writes the requests, and
// stwb check DESIGN --traffic FILE reports the undeclared one with the pattern to
// add, and exits 1.
func TestServeRecordAndCheckTraffic(t *testing.T) {
	dir := t.TempDir()
	design := filepath.Join(dir, "orders.yaml")
	if code := run([]string{"sample", "orders", "-o", design}, nil, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Fatal("sample failed")
	}
	d, _ := samples.Load("orders")
	rec := filepath.Join(dir, "requests.jsonl")
	url, _, stderr, stop := startServing(t, design, "--port", "0", "--record", rec)
	for _, body := range []string{
		`{"TableName":"` + d.Table.Name + `","Key":{"PK":{"S":"CUST#7"},"SK":{"S":"PROFILE"}}}`,
		`{"TableName":"` + d.Table.Name + `","Key":{"PK":{"S":"INVOICE#7"},"SK":{"S":"INVOICE"}}}`,
	} {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.GetItem")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if code := stop(); code != 0 {
		t.Fatalf("serve exited %d: %s", code, stderr.String())
	}
	var out, errOut bytes.Buffer
	code := run([]string{"check", design, "--traffic", rec}, nil, &out, &errOut)
	if code != 1 || !strings.Contains(out.String(), "UNDECLARED: GetItem "+d.Table.Name+" key PK = INVOICE#… AND SK = INVOICE") ||
		!strings.Contains(out.String(), "pattern 1: GetItem") || !strings.Contains(out.String(), "operation: GetItem") {
		t.Fatalf("check --traffic exited %d:\n%s%s", code, out.String(), errOut.String())
	}
}

// TestCheckTrafficSARIF: check --traffic --sarif puts the traffic's verdicts in the
// same SARIF log as the design review's: the undeclared request with its ready
// pattern as the fix, the unused patterns pointing at their lines, each rule
// described in the driver.
func TestCheckTrafficSARIF(t *testing.T) {
	dir := t.TempDir()
	design := filepath.Join(dir, "orders.yaml")
	if code := run([]string{"sample", "orders", "-o", design}, nil, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Fatal("sample failed")
	}
	rec := filepath.Join(dir, "requests.jsonl")
	d, _ := samples.Load("orders")
	line := `{"at":"2026-12-01T10:00:00Z","op":"GetItem","request":{"TableName":"` + d.Table.Name + `","Key":{"PK":{"S":"INVOICE#7"},"SK":{"S":"INVOICE"}}}}` + "\n"
	if err := os.WriteFile(rec, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := run([]string{"check", design, "--traffic", rec, "--sarif"}, nil, &out, &errOut)
	if code != 1 {
		t.Fatalf("exit %d (want 1: an undeclared request)\n%s", code, errOut.String())
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct{ ID string }
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex int
				Level     string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						Region *struct{ StartLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("not one SARIF run: %v\n%s", err, out.String())
	}
	run0 := log.Runs[0]
	byRule := map[string]int{}
	for _, r := range run0.Results {
		byRule[r.RuleID]++
		if run0.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %s points at rule %d, %s", r.RuleID, r.RuleIndex, run0.Tool.Driver.Rules[r.RuleIndex].ID)
		}
		switch r.RuleID {
		case "traffic-undeclared":
			if r.Level != "error" || !strings.Contains(r.Message.Text, "INVOICE#") || !strings.Contains(r.Message.Text, "operation: GetItem") {
				t.Errorf("undeclared: %s %q", r.Level, r.Message.Text)
			}
		case "traffic-unused-pattern":
			if r.Level != "note" || len(r.Locations) != 1 || r.Locations[0].PhysicalLocation.Region == nil || r.Locations[0].PhysicalLocation.Region.StartLine == 0 {
				t.Errorf("unused pattern without its line: %+v", r)
			}
		}
	}
	if byRule["traffic-undeclared"] != 1 || byRule["traffic-unused-pattern"] != len(d.Patterns) {
		t.Fatalf("results by rule %v; want 1 undeclared and %d unused patterns", byRule, len(d.Patterns))
	}
}
