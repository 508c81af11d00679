package ui

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/credentials"
	tea "github.com/charmbracelet/bubbletea"

	"stwb/internal/dynalitetest"
	"stwb/live"
	"stwb/samples"
	"stwb/verify"
)

// The palette command reads its flags as `stwb verify` does (--table, --region,
// --profile, like the AWS CLI's), as --flag VALUE or --flag=VALUE.
func TestParseVerifyArgs(t *testing.T) {
	cases := []struct {
		line    string
		want    verifyArgs
		wantErr string
	}{
		{"http://localhost:8000", verifyArgs{endpoint: "http://localhost:8000"}, ""},
		{"http://h:1 --table T --region eu-west-1 --profile dev", verifyArgs{"http://h:1", "T", "eu-west-1", "dev"}, ""},
		{"--table=T --endpoint http://h:1", verifyArgs{endpoint: "http://h:1", table: "T"}, ""},
		{"--endpoint-url=http://h:1", verifyArgs{endpoint: "http://h:1"}, ""},
		{"", verifyArgs{}, "needs the endpoint URL"},
		{"--table T", verifyArgs{}, "needs the endpoint URL"},
		{"http://a:1 http://b:2", verifyArgs{}, "one endpoint URL"},
		{"http://a:1 --table", verifyArgs{}, "--table needs a value"},
		{"http://a:1 --table=", verifyArgs{}, "--table= needs a value"},
		{"http://a:1 --json", verifyArgs{}, `no flag "--json"`},
	}
	for _, c := range cases {
		t.Run(c.line, func(t *testing.T) {
			got, err := parseVerifyArgs(strings.Fields(c.line))
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want one saying %q", err, c.wantErr)
				}
				if !strings.Contains(err.Error(), verifyUsage) {
					t.Errorf("error %q does not show the usage", err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Errorf("got %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
}

// cannedReport is what live.Verify answers for the fixture against dynalite when
// item CUST#1/ORDER#002 was changed behind stwb's back (pattern 3 reads it through
// GSI1), with the emulator note live adds for an endpoint that is not AWS.
func cannedReport() *verify.Report {
	f := func(total, table float64, ix map[string]float64) *verify.CapacityFigures {
		return &verify.CapacityFigures{CapacityUnits: total, Table: table, Indexes: ix}
	}
	return &verify.Report{Design: "fixture", Table: "orders-data", Endpoint: "http://127.0.0.1:4599", Mismatched: 1,
		Notes: []string{"this endpoint is not AWS: an emulator's consumed capacity is not DynamoDB's (dynalite sizes strings " +
			"in UTF-16 code units, not UTF-8 bytes, and charges no index writes); the items, their order, Count and ScannedCount are what is verified"},
		Patterns: []verify.Outcome{
			{ID: 1, Name: "Get a customer's profile", Operation: "GetItem", Status: verify.StatusOK, Count: 1,
				Predicted: f(0.5, 0.5, nil), Consumed: f(0.5, 0.5, nil)},
			{ID: 2, Name: "A customer's orders, newest first", Operation: "Query", Status: verify.StatusOK, Count: 1, Scanned: 2,
				Predicted: f(0.5, 0.5, nil), Consumed: f(0.5, 0.5, nil)},
			{ID: 3, Name: "Orders in a status · 山田 🍣", Operation: "Query", Index: "GSI1", Status: verify.StatusMismatch, Count: 0, Scanned: 0,
				Predicted: f(0.5, 0, map[string]float64{"GSI1": 0.5}), Consumed: f(0.5, 0, map[string]float64{"GSI1": 0.5}),
				Mismatches: []verify.Mismatch{
					{Field: "items", Predicted: "1 items", Got: "0 items", Detail: `item 0 missing: predicted {"GSI1PK":{"S":"STATUS#SHIPPED"},"GSI1SK":{"S":"001"},"PK":{"S":"CUST#1"},"SK":{"S":"ORDER#001"}}`},
					{Field: "count", Predicted: "1", Got: "0"},
					{Field: "scannedCount", Predicted: "1", Got: "0"},
				}},
			{ID: 4, Name: "Place an order", Operation: "TransactWriteItems", Status: verify.StatusSkipped,
				Reason: "a write pattern; verify never changes the loaded items"},
			{ID: 5, Name: "An order with its customer", Operation: "TransactGetItems", Status: verify.StatusUnsupported,
				Reason: "the endpoint does not implement TransactGetItems (UnknownOperationException); dynalite has no transactions"},
		}}
}

// The report, delivered as the message a run sends (no network): shown over the
// panes, scrolled, and closed; a message of a replaced run is dropped.
func TestVerifyReportGoldens(t *testing.T) {
	cases := []struct {
		name string
		w, h int
		keys []string
	}{
		{"verify_120x40", 120, 40, nil},
		{"verify_80x24", 80, 24, nil},
		{"verify_80x24_scrolled", 80, 24, []string{"pgdown"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := testModel(t, fixtureDoc(), c.w, c.h)
			send(t, m, verifyMsg{seq: m.ver.seq, rev: m.Doc().Rev, args: verifyArgs{endpoint: "http://127.0.0.1:4599"}, rep: cannedReport()})
			send(t, m, keys(c.keys...)...)
			scr := screen(m)
			if n := len(strings.Split(scr, "\n")); n != c.h {
				t.Errorf("screen has %d lines, want %d", n, c.h)
			}
			checkGolden(t, c.name, scr)
		})
	}
}

func TestVerifyReportKeys(t *testing.T) {
	deliver := func(m *Model) {
		send(t, m, verifyMsg{seq: m.ver.seq, rev: m.Doc().Rev, args: verifyArgs{endpoint: "http://e:1"}, rep: cannedReport()})
	}
	cases := []struct {
		name  string
		keys  []string
		check func(t *testing.T, m *Model, scr string)
	}{
		{"shown with the status", nil, func(t *testing.T, m *Model, scr string) {
			if !m.ver.show || !strings.Contains(scr, "verify: 1 of 5 patterns differ from the prediction at http://e:1") {
				t.Errorf("report not shown with its summary:\n%s", scr)
			}
		}},
		{"esc closes", []string{"esc"}, func(t *testing.T, m *Model, scr string) {
			if m.ver.show || strings.Contains(scr, "MISMATCH") {
				t.Errorf("esc left the report on screen:\n%s", scr)
			}
		}},
		{"q closes, not quits", []string{"q"}, func(t *testing.T, m *Model, scr string) {
			if m.ver.show || m.quit {
				t.Errorf("q: show %v quit %v", m.ver.show, m.quit)
			}
		}},
		{"a pane key closes and goes there", []string{"4"}, func(t *testing.T, m *Model, scr string) {
			if m.ver.show || m.focus != paneCost {
				t.Errorf("show %v focus %d", m.ver.show, m.focus)
			}
		}},
		{"a pane's own key does nothing under the report", []string{"d"}, func(t *testing.T, m *Model, scr string) {
			if !m.ver.show || m.confirm() != nil {
				t.Errorf("d reached the hidden pane: show %v confirm %v", m.ver.show, m.confirm())
			}
		}},
		{"verify alone shows the last report again", []string{"esc", ":", "verify", "enter"}, func(t *testing.T, m *Model, scr string) {
			if !m.ver.show || !strings.Contains(scr, "MISMATCH") {
				t.Errorf("report not shown again:\n%s", scr)
			}
		}},
		{"an edit marks the report as stale", []string{"ctrl+z"}, func(t *testing.T, m *Model, scr string) {
			// ctrl+z with nothing to undo changes nothing; an applied edit does.
			if strings.Contains(scr, "the design changed since this report") {
				t.Errorf("stale without an edit:\n%s", scr)
			}
			m.Doc().Rev++
			if !strings.Contains(screen(m), "the design changed since this report") {
				t.Errorf("an edit did not mark the report stale:\n%s", screen(m))
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := testModel(t, fixtureDoc(), 120, 40)
			deliver(m)
			send(t, m, keys(c.keys...)...)
			c.check(t, m, screen(m))
		})
	}

	t.Run("a replaced run's result is dropped", func(t *testing.T) {
		m := testModel(t, fixtureDoc(), 120, 40)
		old := m.ver.seq
		m.ver.stop() // what starting another run, quitting or opening a design does
		send(t, m, verifyMsg{seq: old, rep: cannedReport()})
		if m.ver.show || m.ver.rep != nil {
			t.Error("a stale result was shown")
		}
	})
}

// Every way a run can fail ends in the status line with what to do, and the
// workbench goes on.
func TestVerifyErrors(t *testing.T) {
	// What the SDK wraps when the dial fails: net's OpError around the syscall's.
	refused := fmt.Errorf("operation error DynamoDB: DescribeTable, request send failed: %w",
		&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)})
	cases := []struct {
		name string
		path string
		args verifyArgs
		err  error
		want []string
	}{
		{"no table, unsaved design", "", verifyArgs{endpoint: "http://e:1"}, &live.NoTableError{Table: "orders-data"},
			[]string{"no table orders-data at the endpoint", "stwb deploy FILE --endpoint http://e:1", "ctrl+s"}},
		{"no table, saved design, other name", "/tmp/o.yaml", verifyArgs{endpoint: "http://e:1", table: "t2"}, &live.NoTableError{Table: "t2"},
			[]string{"stwb deploy /tmp/o.yaml --endpoint http://e:1 --table t2"}},
		{"connection refused", "", verifyArgs{endpoint: "http://e:1"}, refused,
			[]string{"nothing answers at http://e:1", "start the endpoint or check the URL"}},
		{"no answer in time", "", verifyArgs{endpoint: "http://e:1"}, fmt.Errorf("send: %w", context.DeadlineExceeded),
			[]string{"http://e:1 did not answer within 2m0s"}},
		{"host unknown", "", verifyArgs{endpoint: "http://nowhere.invalid"}, &net.DNSError{Err: "no such host", Name: "nowhere.invalid"},
			[]string{"cannot find the host of http://nowhere.invalid (no such host)"}},
		{"other", "", verifyArgs{endpoint: "http://e:1"}, errors.New("no AWS region: pass --region"),
			[]string{"verify: no AWS region: pass --region"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := testModel(t, fixtureDoc(), 200, 40)
			m.Doc().Path = c.path
			send(t, m, verifyMsg{seq: m.ver.seq, args: c.args, err: c.err})
			if !m.statusErr || m.ver.show {
				t.Errorf("statusErr %v show %v", m.statusErr, m.ver.show)
			}
			for _, w := range c.want {
				if !strings.Contains(m.status, w) {
					t.Errorf("status %q does not say %q", m.status, w)
				}
			}
		})
	}
}

// The palette command against dynalite: deploy the orders sample with live.Deploy,
// run `verify URL` through Update and the returned command, and find every pattern
// with its status on screen; read patterns answer as predicted (a fresh deploy), and
// write patterns are skipped, since verify never changes the loaded items (issue 8).
// Then the same with a table that is not there, and an endpoint where nothing listens.
func TestVerifyAgainstDynalite(t *testing.T) {
	endpoint := dynalitetest.StartWith(t, dynalitetest.Options{CreateTableMs: 1, DeleteTableMs: 1})
	// The workbench's client finds no credentials in a clean environment and signs
	// with dummy ones for a loopback endpoint; these make that so on any machine.
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_REGION", "us-east-1")
	ctx := context.Background()
	db, err := live.NewClient(ctx, live.Config{Endpoint: endpoint, Region: "us-east-1",
		Credentials: credentials.NewStaticCredentialsProvider("test", "test", "")})
	if err != nil {
		t.Fatal(err)
	}
	d, err := samples.Load("orders")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := live.Deploy(ctx, db, d.Design, live.DeployOptions{}); err != nil {
		t.Fatal(err)
	}

	doc, err := OpenSample("orders")
	if err != nil {
		t.Fatal(err)
	}
	m := testModel(t, doc, 120, 40)
	send(t, m, keys(":")...)
	send(t, m, typeText("verify "+endpoint))
	send(t, m, keys("enter")...)
	if !m.ver.show {
		t.Fatalf("no report; status %q", m.status)
	}
	// The whole report, page by page.
	seen := screen(m)
	for i := 0; i < 10; i++ {
		send(t, m, keys("pgdown")...)
		seen += "\n" + screen(m)
	}
	for _, p := range doc.D.Patterns {
		want := "OK"
		if p.Operation.IsWrite() {
			want = "SKIPPED"
		}
		line := lineWith(seen, fmt.Sprintf("%4d  %s", p.ID, want))
		if line == "" || !strings.Contains(line, string(p.Operation)) {
			t.Errorf("pattern %d (%s) is not listed as %s:\n%s", p.ID, p.Operation, want, seen)
		}
	}
	if strings.Contains(seen, "MISMATCH") || m.statusErr {
		t.Errorf("a fresh deploy does not verify: status %q\n%s", m.status, seen)
	}
	if !strings.Contains(seen, "charges no index writes") {
		t.Error("the emulator note is missing")
	}

	t.Run("table missing", func(t *testing.T) {
		send(t, m, keys("esc", ":")...)
		send(t, m, typeText("verify "+endpoint+" --table not-deployed"))
		send(t, m, keys("enter")...)
		if !m.statusErr || !strings.Contains(m.status, "stwb deploy FILE --endpoint "+endpoint+" --table not-deployed") {
			t.Errorf("status %q does not say how to deploy", m.status)
		}
	})
	t.Run("nothing listening", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		dead := "http://" + l.Addr().String()
		l.Close()
		send(t, m, keys(":")...)
		send(t, m, typeText("verify "+dead))
		send(t, m, keys("enter")...)
		if !m.statusErr || !strings.Contains(m.status, "nothing answers at "+dead) {
			t.Errorf("status %q", m.status)
		}
	})
}

// Quitting cancels a run in flight: its requests stop with the workbench instead of
// running on to the timeout. The endpoint here accepts the request and never answers.
func TestQuitCancelsVerify(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	unblock := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-unblock: // so that a failing test still ends
		}
	}))
	defer srv.Close()
	defer close(unblock)
	m := testModel(t, fixtureDoc(), 120, 40)
	send(t, m, keys(":")...)
	send(t, m, typeText("verify "+srv.URL))
	_, cmd := m.Update(keys("enter")[0])
	if !strings.Contains(m.status, "verifying against "+srv.URL+"…") {
		t.Errorf("status %q while verifying", m.status)
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	m.Update(keys("q")[0])
	select {
	case msg := <-done:
		// The verify command alone was started (no background work was missing).
		vm, ok := msg.(verifyMsg)
		if !ok || !errors.Is(vm.err, context.Canceled) {
			t.Fatalf("the run ended with %#v, want a verifyMsg cancelled", msg)
		}
		send(t, m, vm) // and its result is dropped
	case <-time.After(30 * time.Second):
		t.Fatal("quitting did not cancel the run in flight")
	}
	if m.ver.show || m.statusErr {
		t.Errorf("a cancelled run reported: show %v status %q", m.ver.show, m.status)
	}
}

// The palette line is typed by the user: no input may panic, and what is accepted
// has an endpoint and no empty flag value, and reads back the same when written out
// as flags.
func FuzzParseVerifyArgs(f *testing.F) {
	for _, s := range []string{"http://localhost:8000 --table T", "--endpoint=http://h:1 --region eu-west-1 --profile p", "-", "--", "--table", "a b", "--=x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		a, err := parseVerifyArgs(strings.Fields(line))
		if err != nil {
			return
		}
		if a.endpoint == "" {
			t.Fatalf("%q accepted without an endpoint", line)
		}
		out := []string{"--endpoint", a.endpoint}
		for _, fv := range [][2]string{{"--table", a.table}, {"--region", a.region}, {"--profile", a.profile}} {
			if fv[1] != "" {
				out = append(out, fv[0], fv[1])
			}
		}
		back, err := parseVerifyArgs(out)
		if err != nil || back != a {
			t.Fatalf("%q -> %+v does not read back from %q: %+v, %v", line, a, out, back, err)
		}
	})
}
