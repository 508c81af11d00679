package serve

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"time"
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
	err error
}

// record writes one request; a write error stops recording (RecordError reports
// it, and the server says so when it happens), never the serving.
func (r *recorder) record(at time.Time, op string, body []byte) error {
	if r == nil || r.err != nil {
		return nil
	}
	line, err := json.Marshal(Record{At: at.UTC(), Op: op, Request: json.RawMessage(body)})
	if err == nil {
		line = append(line, '\n')
		_, err = r.w.Write(line)
	}
	if err == nil {
		err = r.w.Flush()
	}
	r.err = err
	return err
}

// ReadRecords reads a --record file. A line that is not a Record is an error naming
// its line.
func ReadRecords(r io.Reader) ([]Record, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxRequestBytes+1<<20)
	var out []Record
	for n := 1; sc.Scan(); n++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var rec Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil || rec.Op == "" {
			if err == nil {
				err = fmt.Errorf("no op")
			}
			return nil, fmt.Errorf("line %d: not a request stwb serve --record wrote: %v", n, err)
		}
		out = append(out, rec)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
