package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"stwb/internal/dynalitetest"
	"stwb/samples"
	"stwb/verify"
)

// TestDeployVerifyTeardownCommands takes a sample to dynalite and back with the three
// commands the README gives, checking each exit status of FORMAT.md's contract
// (0 success, 1 failure, 2 usage) and that nothing is changed without consent.
func TestDeployVerifyTeardownCommands(t *testing.T) {
	endpoint := dynalitetest.StartWith(t, dynalitetest.Options{CreateTableMs: 1, DeleteTableMs: 1})
	s, ok := samples.Get("orders")
	if !ok {
		t.Fatal("the orders sample is missing")
	}
	file := filepath.Join(t.TempDir(), "orders.yaml")
	if err := os.WriteFile(file, s.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	// No AWS credentials are configured in tests; for a loopback endpoint stwb
	// signs with dummy ones.
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))

	steps := []struct {
		name     string
		args     []string
		stdin    string
		status   int
		contains []string
	}{
		{"declined", []string{"deploy", file, "--endpoint", endpoint}, "n\n", 1,
			[]string{"Deploy design \"orders\"", "GSI", "Deploy? [y/N]", "nothing was changed"}},
		{"verify before deploy fails", []string{"verify", file, "--endpoint", endpoint}, "", 1,
			[]string{"does not exist", "run `stwb deploy` first"}},
		{"confirmed", []string{"deploy", file, "--endpoint", endpoint}, "yes\n", 0,
			[]string{"creating table orders-service-data", "loaded", "stwb verify"}},
		{"again refused", []string{"deploy", file, "--endpoint", endpoint, "--yes"}, "", 1,
			[]string{"--replace", "nothing was changed"}},
		{"verify", []string{"verify", file, "--endpoint", endpoint}, "", 0,
			[]string{"OK", "SKIPPED", "every read pattern answered as predicted", "no index writes"}},
		{"teardown needs --yes", []string{"teardown", file, "--endpoint", endpoint}, "", 2,
			[]string{"pass --yes"}},
		{"teardown", []string{"teardown", file, "--endpoint", endpoint, "--yes"}, "", 0,
			[]string{"deleted table orders-service-data"}},
		{"bad endpoint", []string{"verify", file, "--endpoint", "localhost:1"}, "", 2,
			[]string{"is not a URL"}},
		{"no file", []string{"deploy", "--endpoint", endpoint}, "", 2, []string{"usage"}},
	}
	for _, st := range steps {
		var out, errb bytes.Buffer
		got := run(st.args, strings.NewReader(st.stdin), &out, &errb)
		all := out.String() + errb.String()
		if got != st.status {
			t.Fatalf("%s: exit %d, want %d\n%s", st.name, got, st.status, all)
		}
		for _, c := range st.contains {
			if !strings.Contains(all, c) {
				t.Fatalf("%s: output lacks %q:\n%s", st.name, c, all)
			}
		}
	}
}

// TestVerifyJSON: --json prints the report as one JSON object with every pattern.
func TestVerifyJSON(t *testing.T) {
	endpoint := dynalitetest.StartWith(t, dynalitetest.Options{CreateTableMs: 1, DeleteTableMs: 1})
	s, _ := samples.Get("orders")
	file := filepath.Join(t.TempDir(), "orders.yaml")
	if err := os.WriteFile(file, s.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if st := run([]string{"deploy", file, "--endpoint", endpoint, "--yes", "--table", "json-check"}, nil, &out, &errb); st != 0 {
		t.Fatalf("deploy: %d\n%s%s", st, out.String(), errb.String())
	}
	out.Reset()
	if st := run([]string{"verify", file, "--json", "--endpoint", endpoint, "--table", "json-check"}, nil, &out, &errb); st != 0 {
		t.Fatalf("verify: %d\n%s%s", st, out.String(), errb.String())
	}
	var rep verify.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("verify --json is not JSON: %v\n%s", err, out.String())
	}
	d, _ := samples.Load("orders")
	if rep.Table != "json-check" || len(rep.Patterns) != len(d.Patterns) || rep.Mismatched != 0 {
		t.Fatalf("report table %q, %d patterns, %d mismatched; want json-check, %d, 0", rep.Table, len(rep.Patterns), rep.Mismatched, len(d.Patterns))
	}
	for _, p := range rep.Patterns {
		if p.Status == verify.StatusOK && (p.Predicted == nil || p.Consumed == nil) {
			t.Fatalf("pattern %d lacks predicted or consumed capacity", p.ID)
		}
	}
}

// TestLiveCommandsTimeOut: against an endpoint that accepts the connection and never
// answers, deploy, verify and teardown end within --timeout x --max-attempts (plus
// backoff) with an error that names the bound and the flags.
func TestLiveCommandsTimeOut(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	s, _ := samples.Get("orders")
	file := filepath.Join(t.TempDir(), "orders.yaml")
	if err := os.WriteFile(file, s.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
	for _, cmd := range []string{"deploy", "verify", "teardown"} {
		var out, errb bytes.Buffer
		start := time.Now()
		args := []string{cmd, file, "--endpoint", srv.URL, "--timeout", "200ms", "--max-attempts", "2"}
		if cmd != "verify" { // verify changes nothing, so it asks nothing and has no --yes
			args = append(args, "--yes")
		}
		st := run(args, nil, &out, &errb)
		took := time.Since(start)
		if st != 1 || !strings.Contains(errb.String(), "did not answer within 200ms, 2 tries; --timeout and --max-attempts") {
			t.Errorf("%s: exit %d, stderr %q; want 1 and the bound named", cmd, st, errb.String())
		}
		if took > 5*time.Second {
			t.Errorf("%s took %v against a 2 x 200 ms bound", cmd, took)
		}
	}
}
