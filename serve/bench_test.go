package serve

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"stwb/designfile"
	"stwb/internal/cputime"
	"stwb/internal/dynalitetest"
	"stwb/live"
	"stwb/model"
)

// benchDesign is a table with one partition of exactly 25 items (the Query the
// benchmark reads whole) and 200 single-item partitions (the GetItem it reads).
func benchDesign() *model.Design {
	d := &model.Design{Version: 1, Name: "bench", Table: model.Table{Name: "bench-table",
		Key: model.KeySchema{Partition: "PK", Sort: "SK"}, Billing: model.Billing{Mode: model.OnDemand}}}
	pad := model.Str("a modest attribute of about a hundred bytes, as a typical item carries, to keep sizes real")
	for i := range 25 {
		d.Items = append(d.Items, model.Item{"PK": model.Str("ORDERS#1"), "SK": model.Str(fmt.Sprintf("O#%03d", i)),
			"total": model.Num(fmt.Sprint(10 + i)), "note": pad})
	}
	for i := range 200 {
		d.Items = append(d.Items, model.Item{"PK": model.Str(fmt.Sprintf("USER#%d", i)), "SK": model.Str("PROFILE"),
			"name": model.Str(fmt.Sprintf("user %d", i)), "note": pad})
	}
	return d
}

// benchClient is the tests' client with the SDK's standard retries (three
// attempts, the SDK's default): at 64 clients on a loaded machine a loopback
// connection is now and then dropped, and an application's SDK retries it, as this
// does. Every target gets the same client over the same transport.
func benchClient(endpoint string, tr *http.Transport) *dynamodb.Client {
	return dynamodb.New(client(endpoint, tr).Options(), func(o *dynamodb.Options) { o.RetryMaxAttempts = 3 })
}

// floorEnv, set in the environment of this test binary, makes it the floor server
// (TestMain): serve's HTTP framing with a canned answer, no operation run.
const floorEnv = "STWB_SERVE_BENCH_FLOOR"

func TestMain(m *testing.M) {
	if os.Getenv(plainFloorEnv) != "" {
		if err := runPlainFloor(); err != nil {
			fmt.Fprintln(os.Stderr, "floor server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if os.Getenv(floorEnv) != "" {
		if err := runFloor(); err != nil {
			fmt.Fprintln(os.Stderr, "floor server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// floorRequests are the bodies whose answers the floor server cans: the
// benchmark's GetItem and its 25-item Query.
var floorRequests = map[string]string{
	"GetItem": `{"TableName":"bench-table","Key":{"PK":{"S":"USER#7"},"SK":{"S":"PROFILE"}}}`,
	"Query":   `{"TableName":"bench-table","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"ORDERS#1"}}}`,
}

// runFloor is the floor server: it answers each operation of floorRequests with
// the answer serve gave once, through serve's own HTTP path and server settings, so
// that its cost is what serve's HTTP costs with no operation at all. It prints its
// URL and ends when its standard input closes (the benchmark holds the other end).
func runFloor() error {
	s := New(Options{})
	if err := s.AddDesign(benchDesign()); err != nil {
		return err
	}
	canned := map[string][]byte{}
	for op, body := range floorRequests {
		status, answer := s.Call(op, []byte(body))
		if status != http.StatusOK {
			return fmt.Errorf("%s: %d %s", op, status, answer)
		}
		canned[op] = answer
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Printf("floor server on http://%s\n", l.Addr())
	hs := httpServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.serveHTTP(w, r, func(name string, _ []byte) answer {
			if a, ok := canned[name]; ok {
				return answer{status: http.StatusOK, body: a}
			}
			return errorAnswer(unknownOperation())
		})
	}))
	go func() {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	return hs.Serve(l)
}

// serveProcess builds stwb, writes d as a design file in a temporary directory and
// starts "stwb serve" on it: its URL and its process, stopped when the benchmark ends.
func serveProcess(b *testing.B, d *model.Design) (string, *exec.Cmd) {
	b.Helper()
	dir := b.TempDir()
	bin := filepath.Join(dir, "stwb")
	if out, err := exec.Command("go", "build", "-o", bin, "stwb/cmd/stwb").CombinedOutput(); err != nil {
		b.Fatalf("building stwb: %v\n%s", err, out)
	}
	text, err := (&designfile.File{Design: d}).Marshal()
	if err != nil {
		b.Fatal(err)
	}
	file := filepath.Join(dir, "design.yaml")
	if err := os.WriteFile(file, text, 0o644); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(bin, "serve", file, "--port", "0")
	return serverProcess(b, cmd), cmd
}

// serverProcess starts cmd, a server that prints its http://127.0.0.1:PORT URL on
// stdout, and returns that URL; the server is stopped when the benchmark ends.
func serverProcess(b *testing.B, cmd *exec.Cmd) string {
	b.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		stdin.Close()
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if m := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(sc.Text()); m != "" {
			go io.Copy(io.Discard, out)
			return m
		}
	}
	b.Fatalf("%s printed no URL", cmd.Path)
	return ""
}

// processCPU is the user+system CPU time a process has used so far, from
// /proc/PID/stat (Linux; ok is false elsewhere). Its resolution is the kernel's
// clock tick, USER_HZ, which is 100 on Linux: 10 ms, so a run should take a second
// or more of CPU for the per-request figure to hold to a few percent.
func processCPU(pid int) (cpu time.Duration, ok bool) {
	text, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// The fields after the command name, which is in parentheses and may hold
	// spaces: state is field 3, utime 14 and stime 15 (proc(5)).
	i := bytes.LastIndexByte(text, ')')
	f := strings.Fields(string(text[i+1:]))
	if i < 0 || len(f) < 13 {
		return 0, false
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(ut+st) * (time.Second / 100), true
}

// loadAverage is the machine's one-minute load average (/proc/loadavg), which the
// benchmark reports beside its figures: on a shared machine they mean little
// without it.
func loadAverage() (float64, bool) {
	text, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(text))
	if len(f) == 0 {
		return 0, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	return v, err == nil
}

// drive runs n requests from clients goroutines at once, each taking the next
// request number, and returns each request's latency, how many failed (after the
// SDK's own retries) and the first failure. A failed request's latency is left out.
func drive(clients, n int, run func(i int) error) (lat []time.Duration, failed int, first error) {
	lat = make([]time.Duration, n)
	ok := make([]bool, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				t0 := time.Now()
				err := run(i)
				lat[i], ok[i] = time.Since(t0), err == nil
				if err != nil {
					mu.Lock()
					if failed++; first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	kept := lat[:0]
	for i, d := range lat {
		if ok[i] {
			kept = append(kept, d)
		}
	}
	return kept, failed, first
}

// BenchmarkServeVsDynalite is the end-to-end figure: GetItem and a 25-item Query
// through aws-sdk-go-v2 on loopback against stwb serve and against dynalite in the
// same run, at 1, 8 and 64 concurrent clients. Run with a fixed count, e.g.
// -benchtime 2000x.
//
// Each server runs in a process of its own (stwb serve as built; dynalite in node,
// in memory), and so does a third, "floor": serve's own HTTP path answering with a
// canned body (runFloor). Every target gets the same SDK client over one tuned
// transport (keep-alive, 256 idle connections per host, so 64 clients never churn
// connections), and each sub-benchmark first warms its connections at its
// concurrency.
//
// Reported: latency (p50-µs, p99-µs), throughput (req/s), the CPU each request cost
// the client (client-cpu-µs/op: this process, the SDK's work) and the server
// (server-cpu-µs/op: the server's process), and the machine's load average when the
// sub-benchmark began (load1).
//
// It holds no target of its own. Its earlier one (issue 17: 10x dynalite's req/s)
// could not be shown on this machine: per request the SDK client burnt 258-606 µs
// of CPU, more than any of the servers, so on 2 shared cores the client, not the
// server, bounds the throughput. What a server costs is BenchmarkServerCPU's
// figure (server CPU per request beside the no-work floor, with a light client);
// what serve does beyond HTTP is BenchmarkCall's.
func BenchmarkServeVsDynalite(b *testing.B) {
	d := benchDesign()
	serveURL, serveCmd := serveProcess(b, d)
	floorCmd := exec.Command(os.Args[0])
	floorCmd.Env = append(os.Environ(), floorEnv+"=1")
	floorURL := serverProcess(b, floorCmd)
	dynURL, dynPID := dynalitetest.StartProcess(b, dynalitetest.Options{})

	tr := &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256, IdleConnTimeout: time.Minute}
	b.Cleanup(tr.CloseIdleConnections)
	targets := []struct {
		name string
		db   *dynamodb.Client
		pid  int
	}{
		{"serve", benchClient(serveURL, tr), serveCmd.Process.Pid},
		{"dynalite", benchClient(dynURL, tr), dynPID},
		{"floor", benchClient(floorURL, tr), floorCmd.Process.Pid},
	}
	if _, err := live.Deploy(context.Background(), targets[1].db, d, live.DeployOptions{}); err != nil {
		b.Fatal(err)
	}
	table := aws.String(d.Table.Name)
	ops := []struct {
		name string
		run  func(db *dynamodb.Client, i int) error
	}{
		{"GetItem", func(db *dynamodb.Client, i int) error {
			out, err := db.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: table,
				Key: map[string]types.AttributeValue{"PK": av(fmt.Sprintf("USER#%d", i%200)), "SK": av("PROFILE")}})
			if err == nil && out.Item == nil {
				err = fmt.Errorf("no item")
			}
			return err
		}},
		{"Query25", func(db *dynamodb.Client, i int) error {
			out, err := db.Query(context.Background(), &dynamodb.QueryInput{TableName: table,
				KeyConditionExpression: aws.String("PK = :p"), ExpressionAttributeValues: map[string]types.AttributeValue{":p": av("ORDERS#1")}})
			if err == nil && len(out.Items) != 25 {
				err = fmt.Errorf("%d items", len(out.Items))
			}
			return err
		}},
	}
	for _, op := range ops {
		for _, clients := range []int{1, 8, 64} {
			for _, tg := range targets {
				b.Run(fmt.Sprintf("%s/clients=%d/%s", op.name, clients, tg.name), func(b *testing.B) {
					run := func(i int) error { return op.run(tg.db, i) }
					if _, _, err := drive(clients, 4*clients, run); err != nil {
						b.Fatal(err)
					}
					load, loadOK := loadAverage()
					client0 := cputime.Process()
					server0, sok0 := processCPU(tg.pid)
					b.ResetTimer()
					began := time.Now()
					lat, failed, err := drive(clients, b.N, run)
					wall := time.Since(began)
					b.StopTimer()
					client1 := cputime.Process()
					server1, sok1 := processCPU(tg.pid)
					// Now and then (one request in a few thousand, in the 1-client Query
					// after the 64-client runs) a request fails past the SDK's retries with
					// "read tcp ...: use of closed network connection" while the SDK reads
					// a 200 answer: the client's own transport closed the connection under
					// it (a traced connection showed net/http's persistConn.writeLoop
					// closing it after a write-side error), the error aws-sdk-go-v2 issues
					// 1825 and 2737 report against DynamoDB itself. Such requests are
					// counted (failed) and left out of the latencies; more than one in a
					// hundred fails the run.
					if failed > 0 {
						b.Logf("%d of %d requests failed, the first with: %v", failed, b.N, err)
					}
					if failed*100 > b.N || len(lat) == 0 {
						b.Fatal(err)
					}
					b.ReportMetric(float64(failed), "failed")
					slices.Sort(lat)
					b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
					b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
					b.ReportMetric(float64(len(lat))/wall.Seconds(), "req/s")
					if client0 != 0 {
						b.ReportMetric(float64(client1-client0)/1e3/float64(b.N), "client-cpu-µs/op")
					}
					if sok0 && sok1 {
						b.ReportMetric(float64((server1-server0).Microseconds())/float64(b.N), "server-cpu-µs/op")
					}
					if loadOK {
						b.ReportMetric(load, "load1")
					}
				})
			}
		}
	}
}

// BenchmarkCall is the server's own work for one request, without HTTP or an SDK:
// Call on a GetItem and on the 25-item Query of benchDesign, body in, JSON out.
// cpu-ns/op is the process's CPU per call, garbage collection included, which the
// machine's load changes less than ns/op.
func BenchmarkCall(b *testing.B) {
	s := New(Options{})
	if err := s.AddDesign(benchDesign()); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ op, body string }{
		{"GetItem", `{"TableName":"bench-table","Key":{"PK":{"S":"USER#7"},"SK":{"S":"PROFILE"}}}`},
		{"Query", `{"TableName":"bench-table","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"ORDERS#1"}}}`},
	} {
		b.Run(c.op, func(b *testing.B) {
			body := []byte(c.body)
			b.ReportAllocs()
			cpu0 := cputime.Process()
			for b.Loop() {
				if status, out := s.Call(c.op, body); status != 200 {
					b.Fatalf("%d %s", status, out)
				}
			}
			b.ReportMetric(float64(cputime.Process()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}
