// Package verify holds what `stwb verify` finds when it sets a real endpoint's
// answers beside the engine's prediction: the report, each pattern's outcome, and
// the comparison of two results (Compare) that verify and the differential suite
// share. It has no AWS SDK in it: live talks to the endpoint and fills a Report,
// render draws one for the command line and the workbench alike.
//
// Imports: engine, model. Start reading at Report, then Compare.
package verify

import "stwb/engine"

// Outcome statuses of a verified pattern.
const (
	StatusOK          = "ok"          // the endpoint answered as predicted
	StatusMismatch    = "mismatch"    // it did not: see Mismatches
	StatusSkipped     = "skipped"     // a write pattern: verify never changes the loaded items
	StatusUnsupported = "unsupported" // the endpoint does not implement the operation (an emulator)
)

// CapacityFigures is a request's capacity in the shape of `stwb query --json`.
type CapacityFigures struct {
	CapacityUnits float64            `json:"capacityUnits"`
	Table         float64            `json:"table"`
	Indexes       map[string]float64 `json:"indexes"`
}

// Figures are a request's consumed capacity as the report shows them.
func Figures(c engine.Capacity) CapacityFigures {
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

// Report is verify's whole answer.
type Report struct {
	Design     string    `json:"design"`
	Table      string    `json:"table"`
	Endpoint   string    `json:"endpoint"`
	Notes      []string  `json:"notes"`
	Patterns   []Outcome `json:"patterns"`
	Mismatched int       `json:"mismatched"` // patterns whose answer differed
}
