package serve

import (
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestSlowClientDoesNotHoldOthers: a client that opens connections and sends half
// a request does not stop the server answering everyone else (each connection is
// served on its own; the lock is taken only once a request is read whole).
func TestSlowClientDoesNotHoldOthers(t *testing.T) {
	st := start(t, Options{}, sample(t, "orders"))
	addr := st.endpoint[len("http://"):]
	for range 20 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		// Headers promising a body that never comes.
		if _, err := c.Write([]byte("POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.PutItem\r\nContent-Length: 1000\r\n\r\n{\"TableName\":")); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, st.endpoint, strings.NewReader(`{}`))
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			done <- 0
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	select {
	case status := <-done:
		if status != 200 {
			t.Fatalf("ListTables beside the slow clients: %d", status)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the server stopped answering while slow clients held connections")
	}
}
