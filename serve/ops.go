package serve

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"stwb/model"
)

// operations is the table of the API operations served, by X-Amz-Target name.
func operations() map[string]operation {
	return map[string]operation{
		"GetItem":            readOp(getItem),
		"Query":              readOp(query),
		"Scan":               readOp(scan),
		"BatchGetItem":       readOp(batchGetItem),
		"TransactGetItems":   readOp(transactGetItems),
		"PutItem":            writeOp(putItem),
		"UpdateItem":         writeOp(updateItem),
		"DeleteItem":         writeOp(deleteItem),
		"BatchWriteItem":     writeOp(batchWriteItem),
		"TransactWriteItems": writeOp(transactWriteItems),
		"CreateTable":        writeOp(createTable),
		"DescribeTable":      readOp(describeTable),
		"ListTables":         readOp(listTables),
		"DeleteTable":        writeOp(deleteTable),
		"UpdateTable":        writeOp(updateTable),
		"UpdateTimeToLive":   writeOp(updateTimeToLive),
		"DescribeTimeToLive": readOp(describeTimeToLive),
		"TagResource":        writeOp(tagResource),
		"UntagResource":      writeOp(untagResource),
		"ListTagsOfResource": readOp(listTagsOfResource),
		"DescribeLimits":     readOp(describeLimits),
		// PartiQL statements may write, so each runs alone (serve/partiql.go).
		"ExecuteStatement":      writeOp(executeStatement),
		"BatchExecuteStatement": writeOp(batchExecuteStatement),
		"ExecuteTransaction":    writeOp(executeTransaction),
	}
}

// readOp is an operation that reads: it runs beside other reads.
func readOp[T any](f func(*Server, *T) (any, *apiError)) operation {
	return operation{decode: decoded(f)}
}

// writeOp is an operation that writes, or changes a table: it runs alone.
func writeOp[T any](f func(*Server, *T) (any, *apiError)) operation {
	return operation{write: true, decode: decoded(f)}
}

// decoded reads the request body into the operation's input, with DynamoDB's
// SerializationException for a body that is not JSON or a member of the wrong type,
// reads ahead what the input parses of itself (readAhead), and gives the operation
// to run on that input.
func decoded[T any](f func(*Server, *T) (any, *apiError)) func([]byte) (func(*Server) (any, *apiError), model.Item, *apiError) {
	return func(body []byte) (func(*Server) (any, *apiError), model.Item, *apiError) {
		in := new(T)
		if fd, ok := any(in).(fastDecoder); !ok || !fd.decodeFast(body) {
			*in = *new(T) // what decodeFast filled before it gave up
			if err := decode(body, in); err != nil {
				return nil, nil, err
			}
		}
		var item model.Item
		if ra, ok := any(in).(readAhead); ok {
			item = ra.readAhead()
		}
		return func(s *Server) (any, *apiError) { return f(s, in) }, item, nil
	}
}

// httpServer is the HTTP server Serve runs h on: its timeouts bound a slow client.
func httpServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute,
		WriteTimeout: time.Minute, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 1 << 20, ConnContext: connContext}
}

// Serve answers requests on l until ctx ends, removing expired items every
// ExpiryInterval, then stops accepting connections and waits (up to five seconds)
// for the requests under way. A slow client cannot hold a connection for ever: the
// server's read and idle timeouts close it.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	hs := httpServer(s)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go s.expireLoop(ctx)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(heldListener{l}) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	err := hs.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		// A connection still busy, or opened and never used (which Shutdown
		// counts as busy for five seconds): drop it.
		err = hs.Close()
	}
	if e := <-errc; !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	return err
}
