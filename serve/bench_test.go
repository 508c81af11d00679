package serve

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"stwb/designfile"
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

// serveProcess builds stwb and runs `stwb serve` on the design in a process of its
// own, as dynalite runs in its own, so that neither server shares the client's
// process; it returns the endpoint and stops the server when the benchmark ends.
func serveProcess(b *testing.B, d *model.Design) string {
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
	file := filepath.Join(dir, "bench.yaml")
	if err := os.WriteFile(file, text, 0o644); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(bin, "serve", file, "--port", "0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
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
	b.Fatal("stwb serve printed no URL")
	return ""
}

// benchClient is the tests' client with the SDK's standard retries: at 64
// clients on a loaded machine a loopback connection is now and then dropped, and an
// application's SDK retries it, as this does.
func benchClient(endpoint string, tr *http.Transport) *dynamodb.Client {
	return dynamodb.New(client(endpoint, tr).Options(), func(o *dynamodb.Options) { o.RetryMaxAttempts = 3 })
}

// BenchmarkServeVsDynalite runs GetItem and a 25-item Query through aws-sdk-go-v2 on
// loopback against stwb serve and against dynalite in the same run, each server in
// a process of its own, at 1, 8 and 64
// concurrent clients, and reports each request's latency (p50-µs, p99-µs) and the
// throughput (req/s). Target (issue 17): serve's req/s >= 10x dynalite's and its
// p50 <= 1/5 of dynalite's. Run with a fixed count, e.g. -benchtime 2000x.
//
// Not met (2026-12-01, load average 10.8-11.5, -benchtime 1000x): GetItem at 1, 8
// and 64 clients 1,559 / 2,392 / 2,206 req/s against 838 / 1,085 / 796, p50 457 µs /
// 2.4 ms / 23 ms against 700 µs / 5.8 ms / 60 ms; the 25-item Query 854 / 1,761 /
// 1,105 against 365 / 553 / 648 req/s. The SDK client's own work (signing,
// middleware, decoding: about 28% of the benchmark process's CPU against 12% for the
// server's handler when both ran in one process) and the machine's load bound both
// sides alike.
func BenchmarkServeVsDynalite(b *testing.B) {
	d := benchDesign()
	endpoint := serveProcess(b, d)
	dyn := dynalitetest.Start(b)
	tr := &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256, IdleConnTimeout: time.Minute}
	b.Cleanup(tr.CloseIdleConnections)
	targets := []struct {
		name string
		db   *dynamodb.Client
	}{{"serve", benchClient(endpoint, tr)}, {"dynalite", benchClient(dyn, tr)}}
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
					lat := make([]time.Duration, b.N)
					var next atomic.Int64
					var wg sync.WaitGroup
					var failed atomic.Value
					b.ResetTimer()
					began := time.Now()
					for range clients {
						wg.Add(1)
						go func() {
							defer wg.Done()
							for {
								i := int(next.Add(1)) - 1
								if i >= b.N {
									return
								}
								t0 := time.Now()
								if err := op.run(tg.db, i); err != nil {
									failed.Store(err)
									return
								}
								lat[i] = time.Since(t0)
							}
						}()
					}
					wg.Wait()
					wall := time.Since(began)
					b.StopTimer()
					if err, _ := failed.Load().(error); err != nil {
						b.Fatal(err)
					}
					slices.Sort(lat)
					b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
					b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
					b.ReportMetric(float64(b.N)/wall.Seconds(), "req/s")
				})
			}
		}
	}
}

// BenchmarkCall is the server's own work for one request, without HTTP or an SDK:
// Call on a GetItem and on the 25-item Query of benchDesign, body in, JSON out.
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
			for b.Loop() {
				if status, out := s.Call(c.op, body); status != 200 {
					b.Fatalf("%d %s", status, out)
				}
			}
		})
	}
}
