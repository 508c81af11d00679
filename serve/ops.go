package serve

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// operations is the table of the API operations served, by X-Amz-Target name.
func operations() map[string]operation {
	read := func(f func(*Server, []byte) (any, *apiError)) operation { return operation{run: f} }
	write := func(f func(*Server, []byte) (any, *apiError)) operation { return operation{write: true, run: f} }
	return map[string]operation{
		"GetItem":            read(getItem),
		"Query":              read(query),
		"Scan":               read(scan),
		"BatchGetItem":       read(batchGetItem),
		"TransactGetItems":   read(transactGetItems),
		"PutItem":            write(putItem),
		"UpdateItem":         write(updateItem),
		"DeleteItem":         write(deleteItem),
		"BatchWriteItem":     write(batchWriteItem),
		"TransactWriteItems": write(transactWriteItems),
		"CreateTable":        write(createTable),
		"DescribeTable":      read(describeTable),
		"ListTables":         read(listTables),
		"DeleteTable":        write(deleteTable),
		"UpdateTable":        write(updateTable),
		"UpdateTimeToLive":   write(updateTimeToLive),
		"DescribeTimeToLive": read(describeTimeToLive),
		"TagResource":        write(tagResource),
		"UntagResource":      write(untagResource),
		"ListTagsOfResource": read(listTagsOfResource),
		"DescribeLimits":     read(describeLimits),
	}
}

// Serve answers requests on l until ctx ends, removing expired items every
// ExpiryInterval, then stops accepting connections and waits (up to five seconds)
// for the requests under way. A slow client cannot hold a connection for ever: the
// server's read and idle timeouts close it.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute,
		WriteTimeout: time.Minute, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 1 << 20}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go s.expireLoop(ctx)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(l) }()
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
