package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"stwb/samples"
)

// writeRecording writes n GetItem records of the orders sample's table, each with a
// key of its own, to a file in dir.
func writeRecording(t *testing.T, dir string, n int) string {
	t.Helper()
	d, _ := samples.Load("orders")
	path := filepath.Join(dir, "requests.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := range n {
		w.WriteString(`{"at":"2026-12-01T10:00:00Z","op":"GetItem","request":{"TableName":"` + d.Table.Name +
			`","Key":{"PK":{"S":"CUST#` + strconv.Itoa(i) + `"},"SK":{"S":"PROFILE"}},"ProjectionExpression":"PK, SK, #n","ExpressionAttributeNames":{"#n":"name"}}}` + "\n")
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

// TestCheckTrafficStreams: check --traffic reads the recording as a stream: the
// live heap while it runs stays far below the recording's records (on main, every
// record was held at once: here some 20 MB of them).
func TestCheckTrafficStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 20 MB recording")
	}
	dir := t.TempDir()
	design := filepath.Join(dir, "orders.yaml")
	if code := run([]string{"sample", "orders", "-o", design}, nil, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Fatal("sample failed")
	}
	rec := writeRecording(t, dir, 100_000)
	// The heap then tracks what is live; GOGC set keeps check's own policy (gc.go),
	// which lets the heap grow past live, from replacing the percent.
	t.Setenv("GOGC", "5")
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
		}
	}()
	var out, errOut bytes.Buffer
	code := run([]string{"check", design, "--traffic", rec}, nil, &out, &errOut)
	close(stop)
	<-sampled
	if !strings.Contains(out.String(), "traffic: 100000 item requests") && !strings.Contains(out.String(), "traffic: 100,000 item requests") {
		t.Fatalf("exit %d:\n%s%s", code, out.String(), errOut.String())
	}
	grew := int64(peak.Load()) - int64(base.HeapAlloc)
	t.Logf("the live heap grew by %.1f MB reading a %.1f MB recording", float64(grew)/(1<<20), float64(fileSize(t, rec))/(1<<20))
	if grew > 10<<20 {
		t.Errorf("the live heap grew by %d MB reading a %d MB recording; it should hold a line and the shapes, not the records", grew>>20, fileSize(t, rec)>>20)
	}
}

func fileSize(t *testing.T, path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// TestCheckTrafficInputLimit: check --traffic respects STWB_MAX_INPUT, as every
// input does (on main it read any size).
func TestCheckTrafficInputLimit(t *testing.T) {
	dir := t.TempDir()
	design := filepath.Join(dir, "orders.yaml")
	if code := run([]string{"sample", "orders", "-o", design}, nil, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Fatal("sample failed")
	}
	rec := writeRecording(t, dir, 200)
	t.Setenv("STWB_MAX_INPUT", "20KB")
	var out, errOut bytes.Buffer
	code := run([]string{"check", design, "--traffic", rec}, nil, &out, &errOut)
	if code != 2 && code != 1 || !strings.Contains(errOut.String(), "over stwb's limit of 20KB") {
		t.Fatalf("exit %d, want a refusal naming the limit:\n%s%s", code, out.String(), errOut.String())
	}
}
