package traffic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"stwb/cost"
	"stwb/designfile"
	"stwb/dynamojson"
	"stwb/model"
	"stwb/serve"
)

// Use is the requests of one shape: how many, what they consumed, and the
// declared pattern they are (0 for none).
type Use struct {
	Shape    Shape   `json:"shape"`
	Pattern  int     `json:"pattern,omitempty"`
	Requests int     `json:"requests"`
	Read     float64 `json:"readUnits"`
	Write    float64 `json:"writeUnits"`
	// Scanned and Returned are the items Query and Scan read and kept: a filter
	// that drops most of what is read is paid for in full.
	Scanned  int `json:"scanned,omitempty"`
	Returned int `json:"returned,omitempty"`
	// Refused counts the requests DynamoDB would refuse, and Error is the first
	// one's error: the application asks for something the design cannot answer.
	Refused int    `json:"refused,omitempty"`
	Error   string `json:"error,omitempty"`
	// Suggest is, for a shape no pattern declares, the pattern to add to the design
	// (its YAML, from the first such request).
	Suggest string `json:"suggest,omitempty"`
	example serve.Record
}

// Report is what the recorded traffic shows about the design.
type Report struct {
	Requests int       `json:"requests"`
	From     time.Time `json:"from"`
	To       time.Time `json:"to"`
	// Uses are the item requests by shape, most requested first.
	Uses []Use `json:"uses"`
	// Unused are the declared patterns no request matched.
	Unused []int `json:"unusedPatterns"`
	// Read and Write are the units the whole run consumed (replayed on the design
	// with stwb's capacity rules); Dollars what they cost on demand, Monthly what
	// the mix would cost per month at the recorded rate (0 for a run shorter than a
	// minute).
	Read    float64 `json:"readUnits"`
	Write   float64 `json:"writeUnits"`
	Dollars float64 `json:"dollars"`
	Monthly float64 `json:"monthlyDollars"`
	Region  string  `json:"region"`
}

// Undeclared are the uses no pattern declares.
func (r *Report) Undeclared() []Use { return r.filter(func(u Use) bool { return u.Pattern == 0 }) }

// Scans are the uses that read more than they return: Scans, and Queries whose
// filter dropped items.
func (r *Report) Scans() []Use {
	return r.filter(func(u Use) bool {
		return (u.Shape.Op == "Scan" && u.Refused < u.Requests) || (u.Scanned > u.Returned && u.Shape.Filter != "")
	})
}

func (r *Report) filter(keep func(Use) bool) []Use {
	var out []Use
	for _, u := range r.Uses {
		if keep(u) {
			out = append(out, u)
		}
	}
	return out
}

// Analyze replays the recorded requests, in order, on a server holding the
// design's table and items (so each is priced as it ran), groups them by shape and
// matches each shape to the design's patterns.
func Analyze(d *model.Design, recs []serve.Record, prices cost.Prices) (*Report, error) {
	a, err := NewAnalyzer(d)
	if err != nil {
		return nil, err
	}
	for _, rec := range recs {
		a.Add(rec)
	}
	return a.Report(prices)
}

// AnalyzeRecording is Analyze over a --record file read as a stream (replay.go):
// memory holds a few batches of lines, one Use per distinct shape and the replayed
// table, never the whole recording. An error names the line.
func AnalyzeRecording(d *model.Design, r io.Reader, prices cost.Prices) (*Report, error) {
	a, err := NewAnalyzer(d)
	if err != nil {
		return nil, err
	}
	if err := a.replay(r); err != nil {
		return nil, err
	}
	return a.Report(prices)
}

// Analyzer replays recorded requests one at a time (Add) and reports them
// (Report).
type Analyzer struct {
	d        *model.Design
	srv      *serve.Server
	now      time.Time
	declared map[Shape]int
	rep      *Report
	byShape  map[Shape]*Use
	order    []Shape
	seen     int        // records added
	shapes   *shapeMemo // Add's
}

// NewAnalyzer starts a replay on a server holding the design's table and items.
func NewAnalyzer(d *model.Design) (*Analyzer, error) {
	a := &Analyzer{d: d, declared: map[Shape]int{}, byShape: map[Shape]*Use{}, rep: &Report{Region: d.Region}, shapes: newShapeMemo(d)}
	// The replay's clock is the recording's: each request runs at the time it was
	// made, so that what depends on time (a table CREATING until shortly after
	// CreateTable, TTL expiry) happens in the replay as it did in the run.
	a.srv = serve.New(serve.Options{Now: func() time.Time { return a.now }})
	if err := a.srv.AddDesign(d); err != nil {
		return nil, err
	}
	for i := range d.Patterns {
		s := PatternShape(d, &d.Patterns[i])
		if _, ok := a.declared[s]; !ok {
			a.declared[s] = d.Patterns[i].ID
		}
	}
	if a.rep.Region == "" {
		a.rep.Region = "us-east-1"
	}
	return a, nil
}

// A prepared request is a recorded one read for the replay: decoded for the
// server, asking for its capacity (appendReplayed), and its shape found. Preparing
// needs nothing of the replayed tables, so the replay prepares the requests ahead,
// on every core (replay.go), and answers them in order.
type prepared struct {
	rec   serve.Record
	dec   serve.Decoded
	shape Shape
	ok    bool // an item request, of that shape
}

func (a *Analyzer) prepare(rec serve.Record, shapes *shapeMemo, capacityBody []byte) prepared {
	p := prepared{rec: rec, dec: a.srv.Decode(rec.Op, capacityBody)}
	p.shape, p.ok = shapes.shape(rec.Op, rec.Request, p.dec)
	return p
}

// Add replays one recorded request.
func (a *Analyzer) Add(rec serve.Record) {
	a.answer(a.prepare(rec, a.shapes, appendReplayed(nil, rec.Op, rec.Request)))
}

// answer replays a prepared request, after every request before it, and adds up
// what it consumed.
func (a *Analyzer) answer(p prepared) {
	rec, rep := p.rec, a.rep
	if a.seen == 0 || rec.At.Before(rep.From) {
		rep.From = rec.At
	}
	a.seen++
	if rec.At.After(rep.To) {
		rep.To = rec.At
	}
	a.now = rec.At
	a.srv.AnswerTo(p.dec, func(status int, resp []byte) {
		if p.ok {
			a.add(p, status, resp)
		}
	})
}

// add adds up an item request's answer (lent for the call) to its shape's Use.
func (a *Analyzer) add(p prepared, status int, resp []byte) {
	rec, rep, s := p.rec, a.rep, p.shape
	rep.Requests++
	u := a.byShape[s]
	if u == nil {
		example := rec
		example.Request = bytes.Clone(rec.Request) // lent for the call
		u = &Use{Shape: s, Pattern: a.declared[s], example: example}
		a.byShape[s] = u
		a.order = append(a.order, s)
	}
	u.Requests++
	if status != 200 {
		u.Refused++
		if u.Error == "" {
			u.Error = errorText(resp)
		}
	}
	r, w, scanned, returned := consumed(rec.Op, resp)
	u.Read, u.Write = u.Read+r, u.Write+w
	u.Scanned, u.Returned = u.Scanned+scanned, u.Returned+returned
	rep.Read, rep.Write = rep.Read+r, rep.Write+w
}

// Report is what the requests added so far show about the design, priced with
// prices.
func (a *Analyzer) Report(prices cost.Prices) (*Report, error) {
	d, rep := a.d, a.rep
	used := map[int]bool{}
	rep.Uses = rep.Uses[:0]
	for _, s := range a.order {
		u := a.byShape[s]
		if u.Pattern == 0 {
			u.Suggest = suggest(d, u.example)
		}
		used[u.Pattern] = true
		rep.Uses = append(rep.Uses, *u)
	}
	slices.SortStableFunc(rep.Uses, func(a, b Use) int { return b.Requests - a.Requests })
	rep.Unused = nil
	for _, p := range d.Patterns {
		if !used[p.ID] {
			rep.Unused = append(rep.Unused, p.ID)
		}
	}
	p, err := pricesFor(prices, rep.Region, d.Table.Class)
	if err != nil {
		return nil, err
	}
	rep.Dollars = (rep.Read*p.ReadRequestUnitPerMillion + rep.Write*p.WriteRequestUnitPerMillion) / 1e6
	// A rate is read off a run of a minute or more; a shorter one is too short to
	// say what a month of it costs.
	if secs := rep.To.Sub(rep.From).Seconds(); secs >= 60 {
		rep.Monthly = cost.OnDemandMonthly(rep.Read/secs, rep.Write/secs, p)
	}
	return rep, nil
}

func pricesFor(prices cost.Prices, region string, class model.TableClass) (cost.ClassPrices, error) {
	if class == "" {
		class = model.ClassStandard
	}
	byClass, ok := prices[region]
	if !ok {
		return cost.ClassPrices{}, fmt.Errorf("no prices for region %s (regions: %s)", region, strings.Join(prices.Regions(), ", "))
	}
	p, ok := byClass[class]
	if !ok {
		return cost.ClassPrices{}, fmt.Errorf("no prices for table class %s in %s", class, region)
	}
	return p, nil
}

// errorText is a refused request's error as "Type: message".
func errorText(resp []byte) string {
	var e struct {
		Type    string `json:"__type"`
		Message string `json:"message"`
	}
	json.Unmarshal(resp, &e)
	if i := strings.LastIndexByte(e.Type, '#'); i >= 0 {
		e.Type = e.Type[i+1:]
	}
	return e.Type + ": " + e.Message
}

// appendReplayed appends the body the replay sends for a recorded request: one
// asking for ReturnConsumedCapacity TOTAL, so that the answer says what the
// request consumed, and, for a Query or Scan that gives no Select and no
// projection, Select COUNT, so that the answer is its counts and capacity without
// the page of items, which the replay reads nothing of: DynamoDB reads, counts and
// charges the same items either way (COUNT returns "the number of matching items,
// rather than the matching items themselves", API_Query.html "Select"; the page
// still ends at 1 MB or Limit of items read, Query.Other.html "Counting the items
// in the results"), and so does the engine (engine.read).
// The members are added at the object's end, where they win over one the request
// gave (the last of a repeated member is the one read), without decoding and
// encoding the whole body again. A body that is not an object is appended as it
// is.
func appendReplayed(out []byte, op string, body []byte) []byte {
	b := bytes.TrimSpace(body)
	if len(b) < 2 || b[0] != '{' || b[len(b)-1] != '}' {
		return append(out, body...)
	}
	out = append(out, b[:len(b)-1]...)
	if len(bytes.TrimSpace(b[1:len(b)-1])) > 0 {
		out = append(out, ',')
	}
	out = append(out, `"ReturnConsumedCapacity":"TOTAL"`...)
	if (op == "Query" || op == "Scan") && eachMember(body, func(name []byte, escaped bool, _ []byte) bool {
		// In any letter case, or escaped, as encoding/json (serve's reader) reads
		// them.
		return !escaped && !bytes.EqualFold(name, []byte("Select")) && !bytes.EqualFold(name, []byte("ProjectionExpression")) &&
			!bytes.EqualFold(name, []byte("AttributesToGet"))
	}) {
		out = append(out, `,"Select":"COUNT"`...)
	}
	return append(out, '}')
}

// consumed reads a replayed answer's capacity (one ConsumedCapacity or a list) and
// counts. It reads only those members, found by their text, not the whole answer
// (a page of items is most of it): the top-level "Count": and "ScannedCount": are
// the only ones followed by a digit (an attribute's value is an object, and a
// string cannot hold an unescaped quote), and only Query and Scan answer them; the
// top-level "ConsumedCapacity": is the only one whose value names a TableName.
func consumed(op string, resp []byte) (read, write float64, scanned, returned int) {
	add := func(units []byte, always bool) bool {
		named := false
		eachMember(units, func(name []byte, _ bool, v []byte) bool {
			switch string(name) {
			case "TableName":
				named = string(v) != `""`
			case "ReadCapacityUnits":
				f, _ := strconv.ParseFloat(string(v), 64)
				read += f
			case "WriteCapacityUnits":
				f, _ := strconv.ParseFloat(string(v), 64)
				write += f
			}
			return true
		})
		return always || named
	}
	if raw := memberValue(resp, `"ConsumedCapacity":`, func(v []byte) bool {
		return bytes.HasPrefix(v, []byte(`{"TableName":`)) || bytes.HasPrefix(v, []byte("["))
	}); raw != nil {
		if raw[0] == '[' {
			eachElement(raw, func(units []byte) { add(units, true) })
		} else {
			// One ConsumedCapacity counts when it names its table.
			r, w := read, write
			if !add(raw, false) {
				read, write = r, w
			}
		}
	}
	if op != "Query" && op != "Scan" {
		return read, write, 0, 0
	}
	return read, write, countMember(resp, `,"ScannedCount":`), countMember(resp, `"Count":`)
}

// eachElement calls f with the text of each element of the JSON array at the start
// of b.
func eachElement(b []byte, f func([]byte)) {
	i := skipSpace(b, 1)
	for i < len(b) && b[i] != ']' {
		end := skipValue(b, i)
		if end < 0 {
			return
		}
		f(b[i:end])
		if i = skipSpace(b, end); i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
		}
	}
}

// memberValue is the text from the value of the last member named key (its
// `"Name":` text) whose value ok accepts, to the answer's end; nil when none.
func memberValue(resp []byte, key string, ok func([]byte) bool) []byte {
	for end := len(resp); end > 0; {
		i := bytes.LastIndex(resp[:end], []byte(key))
		if i < 0 {
			return nil
		}
		if v := resp[i+len(key):]; ok(v) {
			return v
		}
		end = i
	}
	return nil
}

// countMember is the number of the member named key, the one followed by a digit.
func countMember(resp []byte, key string) int {
	v := memberValue(resp, key, func(v []byte) bool { return len(v) > 0 && v[0] >= '0' && v[0] <= '9' })
	n := 0
	for _, c := range v {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// suggest writes the pattern to add for a request no pattern declares, in the
// design file's own form (model.Marshal), numbered after the design's patterns.
func suggest(d *model.Design, rec serve.Record) string {
	id := 1
	for _, p := range d.Patterns {
		id = max(id, p.ID+1)
	}
	switch model.Operation(rec.Op) {
	case model.OpGetItem, model.OpQuery, model.OpScan, model.OpPutItem, model.OpUpdateItem, model.OpDeleteItem:
	default:
		// A batch or transaction: its keys or actions as the recorded request gave
		// them; none when it spans other tables than the design's.
		p, ok := batchPattern(d, rec.Op, rec.Request)
		if !ok {
			return ""
		}
		p.ID, p.Name = id, "Undeclared: seen in recorded traffic"
		return patternText(d, p)
	}
	var r struct {
		IndexName, KeyConditionExpression, FilterExpression, ProjectionExpression, UpdateExpression, ConditionExpression string
		ExpressionAttributeNames                                                                                         map[string]string
		ExpressionAttributeValues                                                                                        map[string]json.RawMessage
		Key, Item                                                                                                        json.RawMessage
		ScanIndexForward                                                                                                 *bool
		Limit                                                                                                            int
	}
	if json.Unmarshal(rec.Request, &r) != nil {
		return ""
	}
	p := model.Pattern{ID: id, Name: "Undeclared: seen in recorded traffic", Operation: model.Operation(rec.Op),
		Index: r.IndexName, KeyCondition: r.KeyConditionExpression, Filter: r.FilterExpression, Projection: r.ProjectionExpression,
		Update: r.UpdateExpression, Condition: r.ConditionExpression, Names: r.ExpressionAttributeNames, Forward: r.ScanIndexForward, Limit: r.Limit}
	if len(r.ExpressionAttributeValues) > 0 {
		p.Values = map[string]model.Value{}
		for k, raw := range r.ExpressionAttributeValues {
			if v, err := dynamojson.ParseValue(raw); err == nil {
				p.Values[k] = v
			}
		}
	}
	if len(r.Key) > 0 {
		p.Key, _ = dynamojson.ParseItem(r.Key)
	}
	if len(r.Item) > 0 {
		p.Item, _ = dynamojson.ParseItem(r.Item)
	}
	return patternText(d, p)
}

// patternText is one pattern as the design file writes it under patterns:.
func patternText(d *model.Design, p model.Pattern) string {
	one := &model.Design{Version: d.Version, Name: d.Name, Table: d.Table, Patterns: []model.Pattern{p}}
	text, err := (&designfile.File{Design: one}).Marshal()
	if err != nil {
		return ""
	}
	s := string(text)
	if i := strings.Index(s, "\npatterns:\n"); i >= 0 {
		return strings.TrimRight(s[i+len("\npatterns:\n"):], "\n")
	}
	return ""
}
