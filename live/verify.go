package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"stwb/designfile"
	"stwb/engine"
	"stwb/model"
	"stwb/verify"
)

// emulatorCapacityNote names what an emulator's ConsumedCapacity gets wrong, so that
// a reader does not take its figures for DynamoDB's (dynalite 4: db/index.js
// itemSize counts string lengths in UTF-16 code units, and writes charge no index
// units; DYNAMODB.md "Emulators as peers").
const emulatorCapacityNote = "this endpoint is not AWS: an emulator's consumed capacity is not DynamoDB's " +
	"(dynalite sizes strings in UTF-16 code units, not UTF-8 bytes, and charges no index writes); " +
	"the items, their order, Count and ScannedCount are what is verified"

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

// Verify runs every read pattern of the design against the endpoint's table (one
// request each, with ReturnConsumedCapacity INDEXES), compares the items, their
// order, Count, ScannedCount and LastEvaluatedKey with the engine's prediction, and
// reports the consumed beside the predicted capacity. Write patterns are skipped:
// verify never changes the loaded items. The error is for what stops verification
// as a whole (the design's items do not load in the engine, the endpoint is
// unreachable); a differing answer is a mismatch in the report. An item the
// engine refuses is named by its place in the file (a design built in code is
// &designfile.File{Design: d}).
func Verify(ctx context.Context, db *dynamodb.Client, f *designfile.File, table, endpoint string) (*verify.Report, error) {
	if f == nil || f.Design == nil {
		return nil, fmt.Errorf("no design to verify")
	}
	d := f.Design
	e, err := engine.Load(d.Table, f.ItemList())
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
	rep := &verify.Report{Design: d.Name, Table: name, Endpoint: endpoint, Notes: []string{}, Patterns: []verify.Outcome{}}
	if !IsAWS(endpoint) {
		rep.Notes = append(rep.Notes, emulatorCapacityNote)
	}
	for i := range d.Patterns {
		p := &d.Patterns[i]
		o := verify.Outcome{ID: p.ID, Name: p.Name, Operation: string(p.Operation), Index: p.Index, Mismatches: []verify.Mismatch{}}
		if p.IsWrite() {
			o.Status, o.Reason = verify.StatusSkipped, "a write pattern; verify never changes the loaded items"
			rep.Patterns = append(rep.Patterns, o)
			continue
		}
		pred := e.Run(p, engine.RunOptions{})
		// A fan-out pattern is its requests, merged as the engine merges them.
		got, err := engine.RunFanout(&d.Table, p, func(q *model.Pattern) (*engine.Result, error) {
			return RunPattern(ctx, db, name, q, engine.RunOptions{})
		})
		if err != nil {
			return nil, err
		}
		pf, gf := verify.Figures(pred.Consumed), verify.Figures(got.Consumed)
		o.Predicted, o.Consumed = &pf, &gf
		o.Count, o.Scanned = got.Count, got.ScannedCount
		switch {
		case got.Err != nil && pred.Err == nil && unsupported(got.Err.Type):
			o.Status = verify.StatusUnsupported
			o.Reason = fmt.Sprintf("the endpoint does not implement %s (%s); dynalite has no transactions", p.Operation, got.Err.Type)
		default:
			o.Mismatches = verify.Compare(pred, got, verify.CompareOptions{TieKey: tieKey(d, standIn(p, pred)),
				Unordered: p.Operation == model.OpBatchGetItem, Statement: p.Operation == model.OpExecuteStatement})
			o.Status = verify.StatusOK
			if len(o.Mismatches) > 0 {
				o.Status = verify.StatusMismatch
				rep.Mismatched++
			}
		}
		rep.Patterns = append(rep.Patterns, o)
	}
	return rep, nil
}

// standIn is the pattern as it ran: an ExecuteStatement pattern's stand-in
// (the index its SELECT reads), else the pattern.
func standIn(p *model.Pattern, r *engine.Result) *model.Pattern {
	if r.StandIn != nil {
		return r.StandIn
	}
	return p
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

func orAWS(endpoint string) string {
	if endpoint == "" {
		return "AWS"
	}
	return endpoint
}
