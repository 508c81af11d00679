package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"stwb/internal/linereader"
)

// Record is one request an application made, as --record writes it: one JSON
// object per line, {"at": time, "op": "Query", "request": {...}}, the request body
// as it came. `stwb check --traffic` reads them back (ReadRecords) and replays them.
type Record struct {
	At      time.Time       `json:"at"`
	Op      string          `json:"op"`
	Request json.RawMessage `json:"request"`
}

// recorder writes Records to a writer, one request at a time.
type recorder struct {
	w   *bufio.Writer
	buf []byte
	err error
}

// record writes one request; a write error stops recording (RecordError reports
// it, and the server says so when it happens), never the serving.
func (r *recorder) record(at time.Time, op string, body []byte) error {
	if r == nil || r.err != nil {
		return nil
	}
	r.buf = appendRecord(r.buf[:0], at, op, body)
	_, err := r.w.Write(r.buf)
	if err == nil {
		err = r.w.Flush()
	}
	r.err = err
	return err
}

// appendRecord appends a Record's line: the request body as it came, not
// re-encoded (json.Marshal would escape <, > and & six bytes each, so a 9.75 MB
// request became a 42 MB line), with only its line breaks taken out (json.Compact,
// which escapes nothing), so that a line is at most a request and a few dozen
// bytes. body is valid JSON (Call refuses the rest before recording) and op is an
// operation's name.
func appendRecord(buf []byte, at time.Time, op string, body []byte) []byte {
	buf = append(buf, `{"at":"`...)
	buf = at.UTC().AppendFormat(buf, time.RFC3339Nano)
	buf = append(buf, `","op":"`...)
	buf = append(buf, op...)
	buf = append(buf, `","request":`...)
	if bytes.ContainsAny(body, "\r\n") {
		var c bytes.Buffer
		if json.Compact(&c, body) == nil {
			body = c.Bytes()
		}
	}
	buf = append(buf, body...)
	return append(buf, "}\n"...)
}

// parseRecord reads one line. The lines appendRecord writes are read by their
// fixed frame, the request checked as JSON but not decoded (the replay decodes
// it); any other Record line, by encoding/json.
func parseRecord(line []byte) (Record, error) {
	const atKey, opKey, reqKey = `{"at":"`, `","op":"`, `","request":`
	b := bytes.TrimRight(line, " \t\r\n")
	if rest, ok := bytes.CutPrefix(b, []byte(atKey)); ok {
		if at, rest, ok := bytes.Cut(rest, []byte(opKey)); ok {
			if op, req, ok := bytes.Cut(rest, []byte(reqKey)); ok && len(req) > 0 && req[len(req)-1] == '}' {
				req = req[:len(req)-1]
				t, terr := time.Parse(time.RFC3339Nano, string(at))
				if terr == nil && isOpName(op) && validJSON(req) {
					return Record{At: t, Op: string(op), Request: req}, nil
				}
			}
		}
	}
	var rec Record
	if err := json.Unmarshal(b, &rec); err != nil {
		return Record{}, err
	}
	if rec.Op == "" {
		return Record{}, fmt.Errorf("no op")
	}
	return rec, nil
}

// isOpName reports whether b is a word of letters, as operations are named.
func isOpName(b []byte) bool {
	for _, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return len(b) > 0
}

// MaxRecordLine is the longest line ReadRecords reads: the longest a request can
// make (MaxRequestBytes), six times over, as recordings written before requests
// were kept as they came escaped each <, > and & into six bytes.
const MaxRecordLine = 6*MaxRequestBytes + 1<<10

// ReadRecords reads a whole --record file into memory (EachRecord streams it).
func ReadRecords(r io.Reader) ([]Record, error) {
	var out []Record
	err := EachRecord(r, func(rec Record) error {
		rec.Request = bytes.Clone(rec.Request)
		out = append(out, rec)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// EachRecord reads a --record file one line at a time and hands each Record to f,
// in memory bounded by the longest line (at most MaxRecordLine). The Record's
// Request is lent for the call: f copies what it keeps. A line that is not a
// Record, or longer than any request makes, is an error naming its line; so is an
// error f returns.
func EachRecord(r io.Reader, f func(Record) error) error {
	lines := linereader.New(r, MaxRecordLine)
	for {
		line, n, err := lines.Next()
		var tooLong *linereader.TooLongError
		switch {
		case err == io.EOF:
			return nil
		case errors.As(err, &tooLong):
			return fmt.Errorf("line %d: longer than %d MB, more than any request makes: not a file stwb serve --record wrote", n, MaxRecordLine>>20)
		case err != nil:
			return fmt.Errorf("line %d: %w", n, err)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		rec, jerr := parseRecord(line)
		if jerr != nil {
			return fmt.Errorf("line %d: not a request stwb serve --record wrote: %v", n, jerr)
		}
		if ferr := f(rec); ferr != nil {
			return fmt.Errorf("line %d: %w", n, ferr)
		}
	}
}
