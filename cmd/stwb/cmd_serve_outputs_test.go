package main

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"stwb/samples"
)

// The files stwb serve writes (--record, --dump) follow the rule of every writer of
// stwb: no output names the design or another output, every target is checked
// before serving, a failure of one output never costs another, a failure while
// serving is said when it happens, and every write is atomic.

// serveOnce runs stwb serve with a context already ended: a run refused at the
// start returns its refusal; one that starts serves nothing and shuts down at once,
// writing its outputs.
func serveOnce(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	code = serveMain(ctx, append(args, "--port", "0"), nil, &out, &errOut)
	return code, out.String(), errOut.String()
}

// sampleDesign writes the orders sample into a new directory and returns its path
// and bytes.
func sampleDesign(t *testing.T) (path string, text []byte) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "orders.yaml")
	if code := run([]string{"sample", "orders", "-o", path}, nil, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Fatal("sample failed")
	}
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, text
}

// TestServeRefusesOutputOverDesign: --record or --dump naming the design (itself or
// through a link) is refused before serving, and the design keeps every byte. On
// main --record emptied the design before reading it, and --dump replaced it with
// DynamoDB JSON at shutdown.
func TestServeRefusesOutputOverDesign(t *testing.T) {
	design, text := sampleDesign(t)
	link := filepath.Join(filepath.Dir(design), "link.yaml")
	if err := os.Symlink(design, link); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{design, "--record", design},
		{design, "--dump", design},
		{design, "--dump", link},
		{link, "--record", design},
	} {
		code, stdout, stderr := serveOnce(t, args...)
		if code != 2 || !strings.Contains(stderr, "is the design file itself") || strings.Contains(stdout, "DynamoDB at") {
			t.Errorf("%v: exit %d, want 2 and a refusal before serving:\n%s%s", args, code, stdout, stderr)
		}
		if got, _ := os.ReadFile(design); !bytes.Equal(got, text) {
			t.Fatalf("%v: the design changed (%d bytes, was %d)", args, len(got), len(text))
		}
	}
}

// TestServeRefusesOneFileForTwoOutputs: --record X --dump X is refused; on main the
// dump overwrote the recording serve said it had kept.
func TestServeRefusesOneFileForTwoOutputs(t *testing.T) {
	design, _ := sampleDesign(t)
	out := filepath.Join(filepath.Dir(design), "out.json")
	code, stdout, stderr := serveOnce(t, design, "--record", out, "--dump", out)
	if code != 2 || !strings.Contains(stderr, "is also --record's file") || strings.Contains(stdout, "DynamoDB at") {
		t.Fatalf("exit %d, want 2 and a refusal before serving:\n%s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s was made: %v", out, err)
	}
}

// TestServeRefusesUnwritableDump: a --dump (or --record) that cannot be written is
// refused with its reason before serving, not found at shutdown when the run's
// state is lost (on main, a directory said only "rename …: file exists").
func TestServeRefusesUnwritableDump(t *testing.T) {
	design, _ := sampleDesign(t)
	dir := filepath.Dir(design)
	cases := map[string]struct{ path, reason string }{
		"missing directory": {filepath.Join(dir, "no", "such", "dir", "state.json"), "no such file or directory"},
		"a directory":       {dir, "it is a directory"},
	}
	if st, err := os.Stat("/sys"); err == nil && st.IsDir() {
		// Read-only even for root, which the tests may run as.
		cases["read-only directory"] = struct{ path, reason string }{"/sys/state.json", "saving /sys/state.json"}
	}
	for name, c := range cases {
		for _, flag := range []string{"--dump", "--record"} {
			code, stdout, stderr := serveOnce(t, design, flag, c.path)
			if code != 2 || !strings.Contains(stderr, flag+" "+c.path+" cannot be written") || !strings.Contains(stderr, c.reason) ||
				strings.Contains(stdout, "DynamoDB at") {
				t.Errorf("%s %s: exit %d, want 2 and the reason (%q) before serving:\n%s%s", name, flag, code, c.reason, stdout, stderr)
			}
		}
	}
}

// fullDisk is a recording whose writes fail with ENOSPC after the first line, as a
// disk that fills up while serving.
type fullDisk struct {
	recording
	lines int
}

func (f *fullDisk) Write(p []byte) (int, error) {
	if f.lines++; f.lines > 1 {
		return 0, &os.PathError{Op: "write", Path: f.TempName(), Err: syscall.ENOSPC}
	}
	return f.recording.Write(p)
}

// TestServeRecordFailureKeepsDump: when the recording's disk fills up while serving,
// serve says so at once (standard error, and a response header the application's
// test run sees), goes on serving, and at shutdown still writes --dump with every
// acknowledged write; the recording's target keeps what it held, and no temporary
// file is left. On main nothing was said, and serve exited 1 without the dump.
func TestServeRecordFailureKeepsDump(t *testing.T) {
	design, _ := sampleDesign(t)
	dir := filepath.Dir(design)
	rec := filepath.Join(dir, "requests.jsonl")
	if err := os.WriteFile(rec, []byte("yesterday's recording\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dump := filepath.Join(dir, "state.json")
	saved := createRecording
	t.Cleanup(func() { createRecording = saved })
	createRecording = func(path string) (recording, error) {
		r, err := saved(path)
		if err != nil {
			return nil, err
		}
		return &fullDisk{recording: r}, nil
	}
	d, _ := samples.Load("orders")
	url, _, stderr, stop := startServing(t, design, "--port", "0", "--record", rec, "--dump", dump)
	var headers []string
	for i := range 3 {
		body := `{"TableName":"` + d.Table.Name + `","Item":{"PK":{"S":"SERVED#` + string(rune('1'+i)) + `"},"SK":{"S":"x"}}}`
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.PutItem")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("PutItem %d: %d", i, resp.StatusCode)
		}
		headers = append(headers, resp.Header.Get("X-Stwb-Record-Failed"))
	}
	if headers[0] != "" || !strings.Contains(headers[1], "no space left on device") || headers[2] != headers[1] {
		t.Errorf("the answers should carry the recording's failure from the one it failed on: %q", headers)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(stderr.String(), "recording stopped") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(stderr.String(), "recording stopped: write "+dir) || !strings.Contains(stderr.String(), "no space left on device") {
		t.Errorf("standard error should say, while serving, that recording stopped:\n%s", stderr.String())
	}
	if code := stop(); code != 1 {
		t.Errorf("exit %d, want 1 (an output failed)", code)
	}
	if !strings.Contains(stderr.String(), "--record "+rec+" was not written") {
		t.Errorf("stderr should say the recording was not written:\n%s", stderr.String())
	}
	got, err := os.ReadFile(dump)
	if err != nil {
		t.Fatalf("the dump was not written: %v\n%s", err, stderr.String())
	}
	for i := range 3 {
		if !bytes.Contains(got, []byte(`"SERVED#`+string(rune('1'+i))+`"`)) {
			t.Errorf("the dump lacks write %d", i+1)
		}
	}
	if old, _ := os.ReadFile(rec); string(old) != "yesterday's recording\n" {
		t.Errorf("the recording's target changed: %q", old)
	}
	if temps, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*")); len(temps) != 0 {
		t.Errorf("temporary files left: %v", temps)
	}
}

// TestServeRecordIsAtomic: the recording's target is replaced only when serve stops,
// whole; until then it keeps what it held.
func TestServeRecordIsAtomic(t *testing.T) {
	design, _ := sampleDesign(t)
	rec := filepath.Join(filepath.Dir(design), "requests.jsonl")
	if err := os.WriteFile(rec, []byte("yesterday's recording\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, _ := samples.Load("orders")
	url, stdout, stderr, stop := startServing(t, design, "--port", "0", "--record", rec)
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"TableName":"`+d.Table.Name+`","Key":{"PK":{"S":"CUST#7"},"SK":{"S":"PROFILE"}}}`))
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.GetItem")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if old, _ := os.ReadFile(rec); string(old) != "yesterday's recording\n" {
		t.Errorf("while serving, the target changed: %q", old)
	}
	if !strings.Contains(stdout.String(), "recording to ") {
		t.Errorf("the banner should say where the recording goes until serve stops:\n%s", stdout.String())
	}
	if code := stop(); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got, _ := os.ReadFile(rec)
	if !bytes.Contains(got, []byte(`"op":"GetItem"`)) || bytes.Contains(got, []byte("yesterday")) {
		t.Errorf("after serving, the recording should hold this run's request only:\n%s", got)
	}
}
