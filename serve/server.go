package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"stwb/designfile"
	"stwb/engine"
	"stwb/model"
	"stwb/throttle"
)

// MaxRequestBytes is DynamoDB's limit on a request body (16 MB,
// ServiceQuotas.html "API-specific limits"; dynalite refuses the same).
const MaxRequestBytes = 16 << 20

// targetPrefix is the X-Amz-Target prefix of DynamoDB's current API version.
const targetPrefix = "DynamoDB_20120810."

// Options set up a Server. The zero value serves in us-east-1, account
// 000000000000, on the wall clock.
type Options struct {
	Region  string
	Account string
	// Now is the clock TTL expiry and timestamps read; nil means time.Now.
	Now func() time.Time
	// Record, when set, receives every operation requested, one Record per line,
	// in the order the requests took effect (stwb serve --record).
	Record io.Writer
	// Log, when set, receives what the server noticed that DynamoDB reports
	// elsewhere (index key violations left by a backfill), a line each.
	Log io.Writer
	// Throttle, when set, throttles requests as DynamoDB would (stwb serve
	// --throttle); Faults, when set, injects failures (--faults). throttle.go.
	Throttle *throttle.Limiter
	Faults   *throttle.Faults
	// Shared keeps one namespace of tables for every request, whatever account
	// and region it signs with (stwb serve --shared); otherwise each account and
	// region has its own (namespace.go).
	Shared bool
}

// Server holds the tables and answers DynamoDB requests over HTTP. It is an
// http.Handler; Serve and Close run it on a listener. A Server is the state all
// requests share and the namespace one request sees (its account's and region's
// tables, namespace.go): New's is the server's own; ServeHTTP answers each request
// through a Server of its namespace.
type Server struct {
	*state
	*namespace
}

// state is what every namespace shares: the lock, the options, the namespaces.
type state struct {
	opts Options

	// mu makes every request atomic: reads hold it shared (the engine's reads may
	// run side by side), writes and the control plane hold it alone.
	mu     sync.RWMutex
	tokens *tokenCache

	// spaces are the namespaces by account and region, home among them (the
	// server's own: requests without a signature, and every request when
	// Options.Shared); design are the design's tables, in every namespace.
	// spacesMu guards spaces and design; a namespace's tables are guarded by mu.
	spacesMu sync.Mutex
	spaces   map[string]*namespace
	home     *namespace
	design   []*table
	// scopes is the server each credential scope sees (namespace.go), under
	// scopesMu.
	scopesMu sync.RWMutex
	scopes   map[scope]*Server
	// seq is the last stream sequence number given (stream.go), under mu.
	seq uint64

	requestID atomic.Uint64
	ops       map[string]operation
	// rec writes Options.Record; recMu orders reads recorded side by side.
	rec   *recorder
	recMu sync.Mutex
	// recordFailed is the warning every response carries once recording has
	// stopped (RecordFailedHeader), nil until then.
	recordFailed atomic.Pointer[string]
}

// RecordFailedHeader is the response header that says, on every answer from the
// one whose recording failed on, that Options.Record stopped and why: the
// application's test run sees it in its HTTP logs even when nobody reads serve's
// standard error.
const RecordFailedHeader = "X-Stwb-Record-Failed"

// rawAnswer is an answer an operation wrote as JSON itself (a page of stream
// records), sent as it is; pooledAnswer (items.go) is one written in a pooled buffer.
type rawAnswer []byte

// operation is one API operation: write says whether it needs the lock alone.
// decode reads a request body, outside the lock, into the run that answers it
// under the lock.
type operation struct {
	write  bool
	decode func(body []byte) (run func(s *Server) (any, *apiError), item model.Item, err *apiError)
}

// New makes a server with no tables.
func New(o Options) *Server {
	if o.Region == "" {
		o.Region = "us-east-1"
	}
	if o.Account == "" {
		o.Account = "000000000000"
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	home := newNamespace(o.Account, o.Region)
	s := &Server{state: &state{opts: o, tokens: newTokenCache(), home: home,
		spaces: map[string]*namespace{o.Account + "/" + o.Region: home}, scopes: map[scope]*Server{}}, namespace: home}
	s.ops = operations()
	for name, op := range streamOperations() {
		s.ops[name] = op
	}
	if o.Record != nil {
		s.rec = &recorder{w: bufio.NewWriter(o.Record)}
	}
	return s
}

func (s *Server) now() time.Time { return s.opts.Now() }

// AddDesign serves a design built in code: AddFile for a design with no file.
func (s *Server) AddDesign(d *model.Design) error {
	return s.AddFile(&designfile.File{Design: d})
}

// AddFile serves the design's table with its items, as `stwb query` loads them
// (every index and projection); an item the engine refuses is named by its place in
// the file. A table of that name already served is an error.
func (s *Server) AddFile(f *designfile.File) error {
	if f == nil || f.Design == nil {
		return errors.New("no design to serve")
	}
	d := f.Design
	e, err := engine.Load(d.Table, f.ItemList())
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.tables[d.Table.Name]; ok {
		return errors.New("table " + d.Table.Name + " is already served")
	}
	t := s.newTable(d.Table, e)
	t.design = d.Name
	if d.Table.TTL != "" {
		// The design's table has TTL on, as stwb deploy turns it on (TTL.html).
		t.ttl = ttlSpec{attribute: d.Table.TTL, enabled: true}
	}
	if s.opts.Throttle != nil {
		t.source = d
		e.Each(func(it model.Item) bool { t.sourceItems = append(t.sourceItems, it); return true })
	}
	if err := s.designStream(t); err != nil {
		return err
	}
	s.spacesMu.Lock()
	defer s.spacesMu.Unlock()
	s.design = append(s.design, t)
	for _, ns := range s.spaces {
		ns.tables[d.Table.Name] = t
	}
	return nil
}

// TableNames lists the tables served, sorted.
func (s *Server) TableNames() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	names := make([]string, 0, len(s.tables))
	for n := range s.tables {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// ServeHTTP answers one request. Only POST with a DynamoDB target is an operation;
// a GET is the health answer DynamoDB gives.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.serveHTTP(w, r, s.in(r).answer) }

// serveHTTP is ServeHTTP with the operation's answer given by call: the HTTP
// framing alone, which the benchmark also runs with a canned answer to measure what
// HTTP costs without the operation.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request, call func(name string, body []byte) answer) {
	if r.Method == http.MethodGet {
		w.Header().Set("x-amzn-RequestId", s.nextRequestID())
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "healthy: dynamodb."+s.opts.Region+".amazonaws.com ")
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("x-amzn-RequestId", s.nextRequestID())
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, "<UnknownOperationException/>\n")
		return
	}
	body, err := readBody(w, r)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			s.writeError(w, &apiError{status: http.StatusRequestEntityTooLarge, prefix: nsCoral, code: "RequestEntityTooLarge",
				message: "Request must be smaller than " + strconv.Itoa(MaxRequestBytes) + " bytes for the " + opName(r) + " operation"})
			return
		}
		s.writeError(w, serializationError("could not read the request body: "+err.Error()))
		return
	}
	name := opName(r)
	switch target := r.Header.Get("X-Amz-Target"); {
	case strings.HasPrefix(target, streamsTargetPrefix):
		// DynamoDB Streams on the same endpoint, named by its whole target
		// (streams_ops.go).
		name = target
	case !strings.HasPrefix(target, targetPrefix):
		name = ""
	}
	if s.opts.Faults != nil && s.ops[name].decode != nil && s.injectFault(w, name, body) {
		return
	}
	a := call(name, body)
	if msg := s.recordFailed.Load(); msg != nil {
		w.Header().Set(RecordFailedHeader, *msg)
	}
	held := holdAnswer(w, r, len(a.body))
	s.write(w, a.status, a.body)
	held.send(w)
	a.release() // written: http.ResponseWriter keeps no part of it
}

// Call answers one operation's request body as ServeHTTP does, without HTTP: the
// status and the JSON answer. An unknown operation is UnknownOperationException.
func (s *Server) Call(name string, body []byte) (status int, answer []byte) {
	return s.Answer(s.Decode(name, body))
}

// Decoded is a request read off its body by Decode, to be answered by Answer.
type Decoded struct {
	name    string
	body    []byte
	op      operation
	run     func(*Server) (any, *apiError)
	derr    *apiError // a member of the wrong type: answered once recorded
	refused *apiError // answered without running or recording
	item    model.Item
}

// Decode is the part of Call that reads the request and needs nothing of the
// server's tables: it may run on any goroutine, side by side with Answer, so that
// a replay (stwb check --traffic) reads the next requests while the server answers
// this one. body must stay unchanged until Answer.
func (s *Server) Decode(name string, body []byte) Decoded {
	op, ok := s.ops[name]
	if !ok {
		return Decoded{refused: unknownOperation()}
	}
	run, item, derr := op.decode(body)
	if derr != nil && !json.Valid(body) {
		// Not JSON at all: refused before it is recorded (a member of the wrong
		// type is recorded, as a request the application made).
		return Decoded{refused: serializationError("")}
	}
	return Decoded{name: name, body: body, op: op, run: run, derr: derr, item: item}
}

// Item is the item (PutItem) or key (GetItem, UpdateItem, DeleteItem) the request
// names, as Decode read it ahead (nil when it names none, or it does not parse), so
// that a caller need not parse it again; the caller must not change it. ok is false
// when Decode read nothing ahead: the body did not decode.
func (d Decoded) Item() (item model.Item, ok bool) {
	return d.item, d.run != nil
}

// Answer answers a decoded request as Call does, in the order Answer is called:
// the answer is the caller's own.
func (s *Server) Answer(d Decoded) (status int, answer []byte) {
	a := s.answerDecoded(d)
	out := a.body
	if a.buf != nil {
		out = bytes.Clone(out)
		a.release()
	}
	return a.status, out
}

// AnswerTo answers a decoded request as Answer does and hands its status and answer
// to f, lent for the call: it is not copied, as Answer's is.
func (s *Server) AnswerTo(d Decoded, f func(status int, answer []byte)) {
	a := s.answerDecoded(d)
	f(a.status, a.body)
	a.release()
}

// answer is an operation's answer: its status and JSON. When the operation wrote
// it directly (a page of items), body lies in buf, a buffer of answerBuffers that
// release gives back once the answer has been sent.
type answer struct {
	status int
	body   []byte
	buf    *[]byte
}

func (a answer) release() {
	if a.buf != nil {
		releaseAnswer(a.buf)
	}
}

func errorAnswer(e *apiError) answer { return answer{status: e.status, body: e.body()} }

// answer is Call's answer, its body possibly in a pooled buffer: ServeHTTP sends it
// from there, with no copy.
func (s *Server) answer(name string, body []byte) answer {
	return s.answerDecoded(s.Decode(name, body))
}

func (s *Server) answerDecoded(d Decoded) answer {
	if d.refused != nil {
		return errorAnswer(d.refused)
	}
	out, aerr := s.call(d.op.write, d.name, d.body, d.run, d.derr)
	if aerr != nil {
		return errorAnswer(aerr)
	}
	switch out := out.(type) {
	case pooledAnswer:
		return answer{status: http.StatusOK, body: *out, buf: out}
	case rawAnswer:
		return answer{status: http.StatusOK, body: out}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return errorAnswer(fromEngine(err))
	}
	return answer{status: http.StatusOK, body: b}
}

// call runs an operation under the lock it needs, recording it there so that the
// record's order is the order the requests took effect; derr is the request's
// decoding error, answered once it is recorded.
func (s *Server) call(write bool, name string, body []byte, run func(*Server) (any, *apiError), derr *apiError) (any, *apiError) {
	if write {
		s.mu.Lock()
		defer s.mu.Unlock()
	} else {
		s.mu.RLock()
		defer s.mu.RUnlock()
	}
	if s.rec != nil {
		s.recMu.Lock()
		if err := s.rec.record(s.now(), name, body); err != nil {
			s.recordStopped(err)
		}
		s.recMu.Unlock()
	}
	if derr != nil {
		return nil, derr
	}
	if write && s.opts.Throttle != nil && itemWrites[name] {
		return s.runThrottled(run)
	}
	return run(s)
}

// RecordError is the error that stopped --record, if any (the disk filled up):
// serving goes on without recording.
func (s *Server) RecordError() error {
	if s.rec == nil {
		return nil
	}
	s.recMu.Lock()
	defer s.recMu.Unlock()
	return s.rec.err
}

// recordStopped says, when it happens, that recording stopped: a line on
// Options.Log and RecordFailedHeader on this answer and every one after.
func (s *Server) recordStopped(err error) {
	msg := "recording stopped: " + err.Error() + "; serving goes on, unrecorded"
	s.recordFailed.Store(&msg)
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, "stwb serve: %s\n", msg)
	}
}

func opName(r *http.Request) string {
	return strings.TrimPrefix(r.Header.Get("X-Amz-Target"), targetPrefix)
}

// smallBody is the largest request body read into a buffer of the length the
// request declares before any of it has come: a larger one grows as it comes, so
// that a declared length alone cannot make the server hold 16 MB.
const smallBody = 64 << 10

// readBody reads a request's body, at most MaxRequestBytes (the error is then an
// *http.MaxBytesError): a small body of a declared length into one buffer of that
// length, any other as it comes.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if n := r.ContentLength; n >= 0 && n <= smallBody {
		body := make([]byte, n)
		_, err := io.ReadFull(r.Body, body)
		return body, err
	}
	return io.ReadAll(http.MaxBytesReader(w, r.Body, MaxRequestBytes))
}

// requestIDPrefix begins every x-amzn-RequestId serve gives, a number in base 36
// after it.
const requestIDPrefix = "STWB"

func (s *Server) nextRequestID() string {
	return requestIDPrefix + strconv.FormatUint(s.requestID.Add(1), 36)
}

// write sends a JSON 1.0 answer with the headers DynamoDB's carry: the request's
// id (x-amzn-RequestId), the length, and the CRC32 the SDKs check (x-amz-crc32,
// the IEEE checksum of the body). Their values are written as one string and held
// in one slice, and set under their canonical names (what Header.Set would make of
// them): the headers cost two allocations, not eight (BenchmarkServerCPU).
func (s *Server) write(w http.ResponseWriter, status int, body []byte) {
	var num [48]byte
	n := append(num[:0], requestIDPrefix...)
	n = strconv.AppendUint(n, s.requestID.Add(1), 36)
	idEnd := len(n)
	n = strconv.AppendInt(n, int64(len(body)), 10)
	lengthEnd := len(n)
	n = strconv.AppendUint(n, uint64(crc32.ChecksumIEEE(body)), 10)
	text := string(n)
	v := []string{"application/x-amz-json-1.0", text[:idEnd], text[idEnd:lengthEnd], text[lengthEnd:]}
	h := w.Header()
	h["Content-Type"] = v[0:1:1]
	h["X-Amzn-Requestid"] = v[1:2:2]
	h["Content-Length"] = v[2:3:3]
	h["X-Amz-Crc32"] = v[3:4:4]
	w.WriteHeader(status)
	w.Write(body)
}

func (s *Server) writeError(w http.ResponseWriter, e *apiError) {
	s.write(w, e.status, e.body())
}

// decode reads a request body into v, with DynamoDB's SerializationException for
// a member of the wrong type.
func decode(body []byte, v any) *apiError {
	if err := json.Unmarshal(body, v); err != nil {
		return decodeError(err)
	}
	return nil
}
