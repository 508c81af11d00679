package render

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"stwb/model"
	"stwb/verify"
)

// Verify draws the verify report (package verify) for the workbench: a heading naming the design,
// the table and the endpoint, a count of each outcome, then one block per pattern
// (status, operation, index and name; then what the endpoint returned beside the
// capacity it consumed and the capacity the engine predicted; then each mismatch, or
// why the pattern was not run), then the notes on the endpoint. Every line fits
// width; a long mismatch (an item in DynamoDB JSON has no spaces) is wrapped, not
// cut, since it is the one thing the user came to read. The comparison itself is
// verify's (live fills the report): this only lays it out.
func Verify(r *verify.Report, width int, st Styles) []string {
	if r == nil {
		return nil
	}
	var lines []string
	add := func(style lipgloss.Style, s string) { lines = append(lines, style.Render(Clip(s, width))) }
	// wrapped adds s wrapped under an indent, each line styled.
	wrapped := func(indent int, style lipgloss.Style, s string) {
		pad := strings.Repeat(" ", indent)
		for _, l := range Wrap(s, width-indent) {
			lines = append(lines, pad+style.Render(Clip(l, width-indent)))
		}
	}
	endpoint := r.Endpoint
	if endpoint == "" {
		endpoint = "AWS"
	}
	wrapped(0, st.Header, fmt.Sprintf("Verify · design %s · table %s at %s", nameOrDash(r.Design), r.Table, endpoint))

	counts := map[string]int{}
	for _, o := range r.Patterns {
		counts[o.Status]++
	}
	summary := fmt.Sprintf("%d patterns: %d ok · %d mismatch · %d skipped · %d unsupported",
		len(r.Patterns), counts[verify.StatusOK], counts[verify.StatusMismatch], counts[verify.StatusSkipped], counts[verify.StatusUnsupported])
	switch {
	case r.Mismatched > 0:
		wrapped(0, st.Error, summary+fmt.Sprintf(" · %d differ from the prediction", r.Mismatched))
	default:
		wrapped(0, st.OK, summary+" · every read pattern answered as predicted")
	}
	lines = append(lines, "")

	// The operation column is as wide as its longest entry, so names line up.
	opW := 0
	for _, o := range r.Patterns {
		opW = max(opW, Width(opIndex(o)))
	}
	// Detail lines start under the operation: "  ID  STATUS       ".
	const statusW = 11
	const idW = 4
	indent := 2 + idW + 2 + statusW + 2
	for _, o := range r.Patterns {
		head := fmt.Sprintf("  %*d  %s  %s", idW, o.ID, statusStyle(o.Status, st).Render(Fit(strings.ToUpper(o.Status), statusW)),
			Fit(opIndex(o), opW))
		// The name follows on the same line when it fits, else on its own lines.
		if Width(head)+2+Width(o.Name) <= width {
			lines = append(lines, head+"  "+o.Name)
		} else {
			lines = append(lines, Clip(strings.TrimRight(head, " "), width))
			wrapped(indent, lipgloss.NewStyle(), o.Name)
		}
		switch o.Status {
		case verify.StatusSkipped, verify.StatusUnsupported:
			wrapped(indent, st.Dim, o.Reason)
			continue
		}
		wrapped(indent, lipgloss.NewStyle(), returned(o)+" · "+capacityComparison(o))
		for _, m := range o.Mismatches {
			wrapped(indent, st.Error, "✗ "+m.String())
		}
	}
	if len(r.Notes) > 0 {
		lines = append(lines, "")
		add(st.Header, "Notes")
		for _, n := range r.Notes {
			wrapped(2, st.Dim, n)
		}
	}
	return lines
}

func nameOrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func opIndex(o verify.Outcome) string {
	if o.Index == "" {
		return o.Operation
	}
	return o.Operation + " " + o.Index
}

func statusStyle(status string, st Styles) lipgloss.Style {
	switch status {
	case verify.StatusOK:
		return st.OK
	case verify.StatusMismatch:
		return st.Error
	case verify.StatusUnsupported:
		return st.Warn
	}
	return st.Dim
}

// returned is what the endpoint answered: Count, and ScannedCount where the request
// has one (Query and Scan: Query.html "Query result counts").
func returned(o verify.Outcome) string {
	s := fmt.Sprintf("returned %d", o.Count)
	if o.Operation == string(model.OpQuery) || o.Operation == string(model.OpScan) {
		s += fmt.Sprintf(", scanned %d", o.Scanned)
	}
	return s
}

// capacityComparison sets the consumed capacity beside the predicted, with the table
// and each index when an index was charged. A difference is marked but is not a
// mismatch: an emulator does not compute capacity as DynamoDB does (the notes say
// how), and verify compares only the answer.
func capacityComparison(o verify.Outcome) string {
	s := "capacity consumed " + figures(o.Consumed) + ", predicted " + figures(o.Predicted)
	if o.Consumed != nil && o.Predicted != nil && !sameFigures(*o.Consumed, *o.Predicted) {
		s += " (differs)"
	}
	return s
}

func figures(f *verify.CapacityFigures) string {
	if f == nil {
		return "-"
	}
	s := Units(f.CapacityUnits)
	if len(f.Indexes) == 0 {
		return s
	}
	parts := []string{"table " + Units(f.Table)}
	for _, n := range slices.Sorted(maps.Keys(f.Indexes)) {
		parts = append(parts, n+" "+Units(f.Indexes[n]))
	}
	return s + " (" + strings.Join(parts, ", ") + ")"
}

func sameFigures(a, b verify.CapacityFigures) bool {
	if a.CapacityUnits != b.CapacityUnits || a.Table != b.Table {
		return false
	}
	// An index charged 0 on one side and absent on the other is the same charge.
	for n, u := range a.Indexes {
		if b.Indexes[n] != u {
			return false
		}
	}
	for n, u := range b.Indexes {
		if a.Indexes[n] != u {
			return false
		}
	}
	return true
}
