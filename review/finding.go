// Package review checks a design against the modelling rules of the seeds (the
// documents the project was created from) and returns findings: which rule, how
// bad, where, what is wrong with this design's figures, what to do, and the seed
// passage the rule rests on.
package review

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"stwb/model"
)

// Severity grades a finding. An error fails `stwb check`.
type Severity string

// The severities, and "off" for a rule a design turns off.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Info    Severity = "info"
	Off     Severity = "off"
)

func (s Severity) rank() int {
	switch s {
	case Error:
		return 0
	case Warning:
		return 1
	}
	return 2
}

// Finding is one problem found in a design. Where a field does not apply it is
// left empty (Pattern 0, Item nil, Index and Entity "").
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Pattern  int      `json:"pattern,omitempty"`
	Item     *int     `json:"item,omitempty"`
	Index    string   `json:"index,omitempty"`
	Entity   string   `json:"entity,omitempty"`
	Message  string   `json:"message"`
	// Assumed says what the finding's figures rest on, for the rules that model
	// production (key-value counts and where they come from, the skew and the
	// hottest share, the page size, the autoscaling target). The message ends with
	// it too ("Assumed: ..."), so every place that shows a message shows it.
	Assumed string `json:"assumed,omitempty"`
	Fix     string `json:"fix"`
	Source  string `json:"source"`
	// Pos is where in the design file the finding points (for SARIF and editors);
	// `stwb check --json` gives its line and column (MarshalJSON).
	Pos model.Pos `json:"-"`
}

// MarshalJSON writes the finding with "line" and "column" of its Pos when known,
// so a program reading `stwb check --json` finds the place as the text names it.
func (f Finding) MarshalJSON() ([]byte, error) {
	type plain Finding // the same fields, without this method
	out := struct {
		plain
		Line   int `json:"line,omitempty"`
		Column int `json:"column,omitempty"`
	}{plain: plain(f)}
	if f.Pos.Line > 0 {
		out.Line, out.Column = f.Pos.Line, f.Pos.Col
	}
	return json.Marshal(out)
}

// Where names what the finding points at, as a person reads it: "pattern 2, item
// 14", "index GSI1"; "" for the design as a whole.
func (f Finding) Where() string {
	var where []string
	if f.Pattern != 0 {
		where = append(where, fmt.Sprintf("pattern %d", f.Pattern))
	}
	if f.Item != nil {
		where = append(where, fmt.Sprintf("item %d", *f.Item))
	}
	if f.Index != "" {
		where = append(where, "index "+f.Index)
	}
	if f.Entity != "" {
		where = append(where, "entity "+f.Entity)
	}
	return strings.Join(where, ", ")
}

// Sources: the seed passages the rules rest on, by file and heading.
const (
	seedSkill = "seeds/000_32be8dd39f5b65c1.txt"
	seedNote  = "seeds/003_10534a8dd60ae4c8.txt"
	seedGuide = "seeds/004_5b9a21f0d20eaf72.txt"
)

func source(file, heading string) string { return file + ` "` + heading + `"` }

// SeedSource cites a heading of the seeds' skill, the passage most rules rest on,
// for rules defined beside the review (stwb check --traffic's).
func SeedSource(heading string) string { return source(seedSkill, heading) }

// sortFindings orders findings by severity, then by where they point in the file,
// then by rule, so output is stable.
func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Severity.rank() != b.Severity.rank() {
			return a.Severity.rank() < b.Severity.rank()
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pattern != b.Pattern {
			return a.Pattern < b.Pattern
		}
		return a.Rule < b.Rule
	})
}

// HasErrors reports whether any finding is an error.
func HasErrors(fs []Finding) bool {
	for _, f := range fs {
		if f.Severity == Error {
			return true
		}
	}
	return false
}

func intPtr(i int) *int { return &i }
