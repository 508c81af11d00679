package serve

import (
	"context"
	"net"
	"net/http"
)

// An answer sent in one write. net/http writes a response through a 4 KB buffer
// on the connection: an answer longer than that (a 25-item page is about 5 KB)
// goes out in two write system calls or more, and on loopback each costs the
// server as much as a few microseconds of its own work (each write also delivers
// the segment to the reader and wakes it). So Serve hands net/http its connections
// wrapped (heldConn), and serveHTTP asks the connection to hold what net/http
// writes of one answer, flushes the response, and sends what was held in one
// write: BenchmarkServerCPU's Query answers cost one write instead of two. An
// answer that fits the buffer needs nothing held; one over heldAnswerMax is sent
// as before, rather than copied once more in full.

// heldAnswerMin and heldAnswerMax bound the answers held: from a little under the
// connection's buffer (4 KB, less room for the headers) to 64 KB.
const heldAnswerMin, heldAnswerMax = 3584, 64 << 10

// heldListener wraps each connection it accepts in a heldConn.
type heldListener struct{ net.Listener }

func (l heldListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &heldConn{Conn: c}, nil
}

// heldConn is a connection whose writes can be held and sent as one. Only the
// connection's own goroutine in net/http writes to it, and it holds only while
// serveHTTP sends one answer, so it needs no lock.
type heldConn struct {
	net.Conn
	holding bool
	held    []byte
}

// heldConnKey is the request context's key for its connection (connContext).
type heldConnKey struct{}

// connContext, the http.Server's ConnContext, puts a heldConn in its requests'
// contexts.
func connContext(ctx context.Context, c net.Conn) context.Context {
	if hc, ok := c.(*heldConn); ok {
		return context.WithValue(ctx, heldConnKey{}, hc)
	}
	return ctx
}

func (c *heldConn) Write(p []byte) (int, error) {
	if c.holding {
		c.held = append(c.held, p...)
		return len(p), nil
	}
	return c.Conn.Write(p)
}

// CloseWrite is the connection's, which net/http uses to close a connection
// gracefully.
func (c *heldConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// holdAnswer makes r's connection hold what is written of an answer body of n
// bytes through w, when r came over a heldConn and the answer is one worth holding;
// send, on what it returns (nil or not), sends it.
func holdAnswer(w http.ResponseWriter, r *http.Request, n int) *heldConn {
	c, _ := r.Context().Value(heldConnKey{}).(*heldConn)
	if _, ok := w.(http.Flusher); c == nil || !ok || n < heldAnswerMin || n > heldAnswerMax {
		return nil
	}
	c.holding = true
	return c
}

// send flushes what net/http still buffers of the answer written to w into what
// is held, and sends it all in one write. A nil c sends nothing: the answer went
// as net/http writes it.
func (c *heldConn) send(w http.ResponseWriter) {
	if c == nil {
		return
	}
	w.(http.Flusher).Flush()
	c.holding = false
	if len(c.held) > 0 {
		if _, err := c.Conn.Write(c.held); err != nil {
			// As a failed write of net/http's own would: the connection is done.
			c.Conn.Close()
		}
	}
	if cap(c.held) > heldAnswerMax+4096 {
		c.held = nil
	} else {
		c.held = c.held[:0]
	}
}
