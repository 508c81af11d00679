package traffic

import (
	"fmt"
	"slices"

	"stwb/model"
	"stwb/review"
)

// The report's findings as review findings, so that `stwb check --traffic --sarif`
// gives code-review tools the traffic's verdicts beside the design review's, in one
// log. Undeclared shapes and Scans are errors (check exits 1 on them), refused
// requests warnings, patterns nothing asked for notes.
var Rules = []review.Rule{
	{ID: "traffic-undeclared", Severity: review.Error, Summary: "the application asks a request no access pattern declares",
		Source: review.SeedSource("Write the access patterns down first")},
	{ID: "traffic-scan", Severity: review.Error, Summary: "the application Scans, or filters away what it reads, in its request path",
		Source: review.SeedSource("Query, never Scan, and never select with a filter")},
	{ID: "traffic-refused", Severity: review.Warning, Summary: "the application asks what DynamoDB refuses on this design",
		Source: `Programming.Errors.html "Error handling with DynamoDB"`},
	{ID: "traffic-unused-pattern", Severity: review.Info, Summary: "a declared access pattern the recorded run never asked for",
		Source: review.SeedSource("Write the access patterns down first")},
}

// Findings are the report's verdicts on the design d it was made from: each
// undeclared shape with its ready pattern as the fix, each Scan, each refused
// shape, each unused pattern (pointing at the pattern in the file).
func (r *Report) Findings(d *model.Design) []review.Finding {
	var out []review.Finding
	for _, u := range r.Undeclared() {
		fix := "declare it in patterns: with the keys and values the application uses"
		if u.Suggest != "" {
			fix = "add it to patterns:\n" + u.Suggest
		}
		out = append(out, review.Finding{Rule: "traffic-undeclared", Severity: review.Error,
			Message: fmt.Sprintf("%d recorded requests are %s, which no pattern declares.", u.Requests, u.Shape), Fix: fix, Source: Rules[0].Source})
	}
	for _, u := range r.Scans() {
		f := review.Finding{Rule: "traffic-scan", Severity: review.Error, Pattern: u.Pattern,
			Message: fmt.Sprintf("%d recorded requests %s read %d items and returned %d: every item read is paid for.", u.Requests, u.Shape, u.Scanned, u.Returned),
			Fix:     "give the request a key (a Query, on an index if needed) that reads only what it returns", Source: Rules[1].Source}
		f.Pos = patternPos(d, u.Pattern)
		out = append(out, f)
	}
	for _, u := range r.Uses {
		if u.Refused == 0 {
			continue
		}
		f := review.Finding{Rule: "traffic-refused", Severity: review.Warning, Pattern: u.Pattern,
			Message: fmt.Sprintf("%d of %d recorded requests %s were refused: %s.", u.Refused, u.Requests, u.Shape, u.Error),
			Fix:     "change the request, or the design, so that DynamoDB accepts it", Source: Rules[2].Source}
		f.Pos = patternPos(d, u.Pattern)
		out = append(out, f)
	}
	for _, id := range r.Unused {
		f := review.Finding{Rule: "traffic-unused-pattern", Severity: review.Info, Pattern: id,
			Message: fmt.Sprintf("Pattern %d was never asked for by the recorded run.", id),
			Fix:     "remove the pattern if the application no longer needs it, or add a test that asks it", Source: Rules[3].Source}
		f.Pos = patternPos(d, id)
		out = append(out, f)
	}
	return out
}

// patternPos is where the pattern with that id starts in the design file; zero for
// none.
func patternPos(d *model.Design, id int) model.Pos {
	if i := slices.IndexFunc(d.Patterns, func(p model.Pattern) bool { return p.ID == id }); id != 0 && i >= 0 {
		return d.Patterns[i].Pos
	}
	return model.Pos{}
}
