package dynalitetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestStartAnswersListTables starts dynalite and sends it ListTables over the JSON
// 1.0 protocol DynamoDB uses (API_ListTables.html): a fresh in-memory store has no
// tables.
func TestStartAnswersListTables(t *testing.T) {
	endpoint := Start(t)
	if !strings.HasPrefix(endpoint, "http://127.0.0.1:") {
		t.Fatalf("endpoint %q is not on the loopback interface", endpoint)
	}
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	// dynalite checks that a signature is present, not that it is valid.
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=test/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00")
	req.Header.Set("X-Amz-Date", "20260101T000000Z")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct{ TableNames []string }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("ListTables answer is not JSON: %v", err)
	}
	if resp.StatusCode != 200 || out.TableNames == nil || len(out.TableNames) != 0 {
		t.Fatalf("ListTables: status %d, tables %v; want 200 and an empty list", resp.StatusCode, out.TableNames)
	}
}

// TestTwoInstancesAreIndependent checks that each Start gets its own port, so that
// tests in parallel packages never share a store.
func TestTwoInstancesAreIndependent(t *testing.T) {
	a, b := Start(t), Start(t)
	if a == b {
		t.Fatalf("two Starts gave the same endpoint %s", a)
	}
}

// recorder stands in for a test, to see whether unavailable fails or skips.
type recorder struct {
	testing.TB
	failed, skipped string
}

func (r *recorder) Helper()                         {}
func (r *recorder) Fatalf(f string, args ...any)    { r.failed = fmt.Sprintf(f, args...) }
func (r *recorder) Skipf(f string, args ...any)     { r.skipped = fmt.Sprintf(f, args...) }
func (r *recorder) Cleanup(func())                  {}
func (r *recorder) Setenv(key, value string)        {}
func (r *recorder) Logf(format string, args ...any) {}

// TestUnavailableFailsInCI: in CI the suites against dynalite must run, so a missing
// emulator fails the test; elsewhere it skips and names the install command.
func TestUnavailableFailsInCI(t *testing.T) {
	cases := []struct {
		ci       string
		wantFail bool
	}{
		{"true", true},
		{"1", true},
		{"", false},
	}
	for _, c := range cases {
		t.Run("CI="+c.ci, func(t *testing.T) {
			t.Setenv("CI", c.ci)
			r := &recorder{}
			unavailable(r, errors.New("node is not on PATH"))
			msg := r.skipped
			if c.wantFail {
				msg = r.failed
			}
			if (r.failed != "") != c.wantFail || (r.skipped != "") == c.wantFail {
				t.Fatalf("failed=%q skipped=%q; want fail=%v", r.failed, r.skipped, c.wantFail)
			}
			if !strings.Contains(msg, InstallCommand) || !strings.Contains(msg, "node is not on PATH") {
				t.Fatalf("message %q must name the cause and %q", msg, InstallCommand)
			}
		})
	}
}
