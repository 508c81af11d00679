package live

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"stwb/engine"
	"stwb/model"
)

// Outcome statuses of a verified pattern.
const (
	StatusOK          = "ok"          // the endpoint answered as predicted
	StatusMismatch    = "mismatch"    // it did not: see Mismatches
	StatusSkipped     = "skipped"     // a write pattern: verify never changes the loaded items
	StatusUnsupported = "unsupported" // the endpoint does not implement the operation (an emulator)
)

// emulatorCapacityNote names what an emulator's ConsumedCapacity gets wrong, so that
// a reader does not take its figures for DynamoDB's (dynalite 4: db/index.js
// itemSize counts string lengths in UTF-16 code units, and writes charge no index
// units; DYNAMODB.md "Emulators as peers").
const emulatorCapacityNote = "this endpoint is not AWS: an emulator's consumed capacity is not DynamoDB's " +
	"(dynalite sizes strings in UTF-16 code units, not UTF-8 bytes, and charges no index writes); " +
	"the items, their order, Count and ScannedCount are what is verified"

// CapacityFigures is a request's capacity in the shape of `stwb query --json`.
type CapacityFigures struct {
	CapacityUnits float64            `json:"capacityUnits"`
	Table         float64            `json:"table"`
	Indexes       map[string]float64 `json:"indexes"`
}

func figures(c engine.Capacity) CapacityFigures {
	f := CapacityFigures{CapacityUnits: c.Total(), Table: c.Table.Read + c.Table.Write, Indexes: map[string]float64{}}
	for n, u := range c.Indexes {
		f.Indexes[n] = u.Read + u.Write
	}
	return f
}

// Outcome is one pattern's verification.
type Outcome struct {
	ID         int              `json:"id"`
	Name       string           `json:"name"`
	Operation  string           `json:"operation"`
	Index      string           `json:"index"`
	Status     string           `json:"status"`
	Reason     string           `json:"reason,omitempty"`
	Mismatches []Mismatch       `json:"mismatches"`
	Count      int              `json:"count"`        // what the endpoint returned
	Scanned    int              `json:"scannedCount"` // what the endpoint read
	Predicted  *CapacityFigures `json:"predictedCapacity"`
	Consumed   *CapacityFigures `json:"consumedCapacity"`
}

// VerifyReport is verify's whole answer.
type VerifyReport struct {
	Design     string    `json:"design"`
	Table      string    `json:"table"`
	Endpoint   string    `json:"endpoint"`
	Notes      []string  `json:"notes"`
	Patterns   []Outcome `json:"patterns"`
	Mismatched int       `json:"mismatched"` // patterns whose answer differed
}

// Verify runs every read pattern of the design against the endpoint's table (one
// request each, with ReturnConsumedCapacity INDEXES), compares the items, their
// order, Count, ScannedCount and LastEvaluatedKey with the engine's prediction, and
// reports the consumed beside the predicted capacity. Write patterns are skipped:
// verify never changes the loaded items. The error is for what stops verification
// as a whole (the design's items do not load in the engine, the endpoint is
// NoTableError says the endpoint has no table of the design's name: the design has
// not been deployed there yet. Callers tell it from other errors with errors.As, to
// offer the deploy command.
type NoTableError struct {
	Table    string
	Endpoint string
}

func (e *NoTableError) Error() string {
	return fmt.Sprintf("table %s does not exist at %s; run `stwb deploy` first", e.Table, e.Endpoint)
}

// unreachable); a differing answer is a mismatch in the report.
func Verify(ctx context.Context, db *dynamodb.Client, d *model.Design, table, endpoint string) (*VerifyReport, error) {
	e, err := engine.FromDesign(d)
	if err != nil {
		return nil, err
	}
	name := TableName(d, table)
	desc, err := describe(ctx, db, name)
	if err != nil {
		return nil, err
	}
	if desc == nil {
		return nil, &NoTableError{Table: name, Endpoint: orAWS(endpoint)}
	}
	rep := &VerifyReport{Design: d.Name, Table: name, Endpoint: endpoint, Notes: []string{}, Patterns: []Outcome{}}
	if !IsAWS(endpoint) {
		rep.Notes = append(rep.Notes, emulatorCapacityNote)
	}
	for i := range d.Patterns {
		p := &d.Patterns[i]
		o := Outcome{ID: p.ID, Name: p.Name, Operation: string(p.Operation), Index: p.Index, Mismatches: []Mismatch{}}
		if p.Operation.IsWrite() {
			o.Status, o.Reason = StatusSkipped, "a write pattern; verify never changes the loaded items"
			rep.Patterns = append(rep.Patterns, o)
			continue
		}
		pred := e.Run(p, engine.RunOptions{})
		got, err := RunPattern(ctx, db, name, p, engine.RunOptions{})
		if err != nil {
			return nil, err
		}
		pf, gf := figures(pred.Consumed), figures(got.Consumed)
		o.Predicted, o.Consumed = &pf, &gf
		o.Count, o.Scanned = got.Count, got.ScannedCount
		switch {
		case got.Err != nil && pred.Err == nil && unsupported(got.Err.Type):
			o.Status = StatusUnsupported
			o.Reason = fmt.Sprintf("the endpoint does not implement %s (%s); dynalite has no transactions", p.Operation, got.Err.Type)
		default:
			o.Mismatches = Compare(pred, got, CompareOptions{TieKey: tieKey(d, p),
				Unordered: p.Operation == model.OpBatchGetItem})
			o.Status = StatusOK
			if len(o.Mismatches) > 0 {
				o.Status = StatusMismatch
				rep.Mismatched++
			}
		}
		rep.Patterns = append(rep.Patterns, o)
	}
	return rep, nil
}

// unsupported names the errors an endpoint gives for an operation it lacks.
func unsupported(errType string) bool {
	return errType == "UnknownOperationException" || errType == "UnrecognizedClientException"
}

// tieKey is the key of the index a pattern reads, whose equal values come back in no
// defined order; nil for the table.
func tieKey(d *model.Design, p *model.Pattern) []string {
	if p.Index == "" {
		return nil
	}
	ix, ok := d.Table.IndexByName(p.Index)
	if !ok {
		return nil
	}
	ks := ix.Key
	if ix.Local {
		ks.Partition = d.Table.Key.Partition
	}
	if ks.Sort == "" {
		return []string{ks.Partition}
	}
	return []string{ks.Partition, ks.Sort}
}

// WriteText prints the report for people: one line per pattern, its mismatches
// under it, and the notes.
func (r *VerifyReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "verify %s against table %s at %s\n", r.Design, r.Table, orAWS(r.Endpoint))
	for _, o := range r.Patterns {
		line := fmt.Sprintf("  %-3d %-11s %-18s", o.ID, strings.ToUpper(o.Status), o.Operation+indexSuffix(o.Index))
		switch o.Status {
		case StatusSkipped, StatusUnsupported:
			line += "  " + o.Reason
		default:
			line += fmt.Sprintf("  count %d", o.Count)
			if o.Operation == string(model.OpQuery) || o.Operation == string(model.OpScan) {
				line += fmt.Sprintf(" scanned %d", o.Scanned)
			}
			line += fmt.Sprintf("  capacity consumed %s, predicted %s", capText(o.Consumed), capText(o.Predicted))
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
		if o.Name != "" {
			fmt.Fprintf(w, "      %s\n", o.Name)
		}
		for _, m := range o.Mismatches {
			fmt.Fprintf(w, "      %s\n", m)
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if r.Mismatched > 0 {
		fmt.Fprintf(w, "%d pattern(s) differ from the prediction\n", r.Mismatched)
	} else {
		fmt.Fprintln(w, "every read pattern answered as predicted")
	}
}

func orAWS(endpoint string) string {
	if endpoint == "" {
		return "AWS"
	}
	return endpoint
}

func indexSuffix(ix string) string {
	if ix == "" {
		return ""
	}
	return " " + ix
}

func capText(f *CapacityFigures) string {
	if f == nil {
		return "-"
	}
	return fmt.Sprintf("%g", f.CapacityUnits)
}
