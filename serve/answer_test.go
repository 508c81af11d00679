package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestCallAnswerIsItsOwn: the answers serve writes in pooled buffers (a page, an
// item) are copied out by Call, so that an answer a caller holds (check --traffic
// keeps them) is not overwritten by the next request's.
func TestCallAnswerIsItsOwn(t *testing.T) {
	s := New(Options{})
	if err := s.AddDesign(cpuDesign()); err != nil {
		t.Fatal(err)
	}
	var held [][]byte
	var want []string
	for i := range 40 {
		op, body := cpuRequest(i)
		status, out := s.Call(op, []byte(body))
		if status != http.StatusOK {
			t.Fatalf("%s: %d %s", op, status, out)
		}
		held, want = append(held, out), append(want, string(out))
	}
	for i := range held {
		if string(held[i]) != want[i] {
			t.Fatalf("answer %d changed after later requests:\n%s\nwas\n%s", i, held[i], want[i])
		}
	}
}

// TestAnswersSideBySide: requests answered side by side over HTTP each get their
// own answer, whole, with its CRC32 and length: a pooled answer buffer given back
// before its answer is written would be filled by another request's.
func TestAnswersSideBySide(t *testing.T) {
	d := cpuDesign()
	st := start(t, Options{}, d)
	ref := New(Options{})
	if err := ref.AddDesign(d); err != nil {
		t.Fatal(err)
	}
	const clients, each = 8, 150
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := c; i < clients*each; i += clients {
				op, body := cpuRequest(i)
				_, want := ref.Call(op, []byte(body))
				req, _ := http.NewRequest(http.MethodPost, st.endpoint, bytes.NewReader([]byte(body)))
				req.Header.Set("X-Amz-Target", targetPrefix+op)
				req.Header.Set("Content-Type", "application/x-amz-json-1.0")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					errs <- err
					return
				}
				got, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				crc := resp.Header.Get("X-Amz-Crc32")
				switch {
				case err != nil:
					errs <- err
				case !bytes.Equal(got, want):
					errs <- fmt.Errorf("request %d (%s): answer\n%s\nwant\n%s", i, op, got, want)
				case crc != strconv.FormatUint(uint64(crc32.ChecksumIEEE(got)), 10):
					errs <- fmt.Errorf("request %d: x-amz-crc32 %s does not match the body", i, crc)
				case resp.Header.Get("Content-Length") != strconv.Itoa(len(got)) || resp.Header.Get("x-amzn-RequestId") == "":
					errs <- fmt.Errorf("request %d: headers %v", i, resp.Header)
				default:
					continue
				}
				return
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestAppendCapacity: a ConsumedCapacity written directly is what json.Marshal
// writes, and what it cannot write the same way (per-index figures, a name JSON
// escapes) is left to json.Marshal.
func TestAppendCapacity(t *testing.T) {
	units := []float64{0, 0.5, 1, 1.125, 2.5, 12.375, 128.5, 1e-6, 9.9e-7, 1e-7, 1.5e-9, 123456789.25, 1e20, 1e21, 3.4e38}
	names := []string{"orders", "orders-service.data_2", "a<b", "t&", "é", ""}
	for _, name := range names {
		for i, u := range units {
			c := &consumedCapacity{TableName: name, CapacityUnits: u, ReadCapacityUnits: units[(i+3)%len(units)], WriteCapacityUnits: units[(i+7)%len(units)]}
			want, err := json.Marshal(c)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := appendCapacity([]byte("x"), c)
			direct := name != "" && !strings.ContainsAny(name, "<&é")
			if ok != direct && name != "" {
				t.Errorf("%q: written directly %v, want %v", name, ok, direct)
			}
			if ok && string(got) != "x"+string(want) {
				t.Errorf("appendCapacity(%+v) = %s\njson.Marshal: %s", *c, got[1:], want)
			}
		}
	}
	if _, ok := appendCapacity(nil, &consumedCapacity{TableName: "t", Table: &unitsWire{}}); ok {
		t.Error("per-index figures written directly; want them left to json.Marshal")
	}
}

// countedListener counts the writes to the connections it accepts.
type countedListener struct {
	net.Listener
	writes *atomic.Int64
}

func (l countedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countedConn{c, l.writes}, nil
}

type countedConn struct {
	net.Conn
	writes *atomic.Int64
}

func (c countedConn) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(p)
}

// TestAnswerSentInOneWrite: an answer longer than net/http's 4 KB connection
// buffer (a 25-item page) goes out in one write, whole and with its headers, as
// one that fits (a GetItem); one over 64 KB (a page of a Scan) is not held and
// comes whole too. Over one keep-alive connection, as an SDK sends them.
func TestAnswerSentInOneWrite(t *testing.T) {
	s := New(Options{})
	if err := s.AddDesign(cpuDesign()); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	writes := new(atomic.Int64)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, countedListener{l, writes}) }()
	conn, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Close()
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	br := bufio.NewReader(conn)
	for _, c := range []struct {
		op, body string
		oneWrite bool
	}{
		{"GetItem", `{"TableName":"cpu-table","Key":{"PK":{"S":"CUST#7"},"SK":{"S":"ORDER#003"}}}`, true},
		{"Query", `{"TableName":"cpu-table","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"CUST#7"}}}`, true},
		{"Scan", `{"TableName":"cpu-table","Limit":1000}`, false},
		{"Query", `{"TableName":"cpu-table","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"CUST#8"}}}`, true},
	} {
		_, want := s.Call(c.op, []byte(c.body))
		before := writes.Load()
		fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: %s%s\r\nContent-Type: application/x-amz-json-1.0\r\nContent-Length: %d\r\n\r\n%s",
			targetPrefix, c.op, len(c.body), c.body)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		n := writes.Load() - before
		switch {
		case !bytes.Equal(got, want):
			t.Fatalf("%s: answer\n%.300s\nwant\n%.300s", c.op, got, want)
		case resp.Header.Get("Content-Length") != strconv.Itoa(len(got)) || resp.Header.Get("X-Amz-Crc32") != strconv.FormatUint(uint64(crc32.ChecksumIEEE(got)), 10):
			t.Fatalf("%s: headers %v", c.op, resp.Header)
		case c.oneWrite && n != 1:
			t.Errorf("%s: a %d-byte answer in %d writes, want 1", c.op, len(got), n)
		case !c.oneWrite && len(got) <= heldAnswerMax:
			t.Errorf("%s: the answer is %d bytes, not over %d", c.op, len(got), heldAnswerMax)
		}
		if c.op == "Query" && len(got) < 4096 {
			t.Errorf("%s: a %d-byte page fits net/http's buffer: it tests nothing", c.op, len(got))
		}
	}
}
