package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"stwb/analysis"
	"stwb/engine"
	"stwb/model"
	"stwb/review"
)

func init() {
	register("check", "FILE [--json] [--sarif]  validate and review a design (for CI)", runCheck)
}

// checkReport is `stwb check --json`'s shape: {"valid": true, "findings": [...]}.
type checkReport struct {
	Valid    bool             `json:"valid"`
	Errors   []string         `json:"errors,omitempty"`
	Findings []review.Finding `json:"findings"`
}

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON for programs")
	asSARIF := fs.Bool("sarif", false, "print SARIF 2.1.0 for code-review tools")
	pos, flags := splitFlags(args, nil)
	if err := fs.Parse(flags); err != nil {
		return 2
	}
	if len(pos) != 1 {
		return usageError(stderr, "usage: stwb check FILE [--json] [--sarif]")
	}
	// The design is read as `stwb query` reads it, the file mapped and each item
	// read once (analysis.Load); the review sees what it would see of a design read
	// whole.
	return whileMapped(stderr, pos[0], func() int {
		data, release, err := mapInput(pos[0], stdin)
		if err == nil {
			defer release()
			var a *analysis.Analysis
			if a, err = analysis.Load(inputName(pos[0]), data, analysis.Options{Review: true}); err == nil {
				return writeCheck(a.Findings, pos[0], *asJSON, *asSARIF, stdout, stderr)
			}
		}
		var refused *engine.Error
		if errors.As(err, &refused) {
			// The engine refused the items: the rules that need no run still report,
			// and their findings are shown beside the error rather than dropped.
			findings := []review.Finding{}
			if d, perr := model.Parse(inputName(pos[0]), data); perr == nil {
				if a, _ := analysis.Run(d, analysis.Options{Review: true}); a != nil && a.Findings != nil {
					findings = a.Findings
				}
			}
			if *asJSON {
				writeJSON(stdout, checkReport{Valid: false, Errors: errorLines(err), Findings: findings})
			} else {
				writeFindingList(stdout, pos[0], findings)
			}
		} else if *asJSON {
			// An invalid design: say so to programs.
			writeJSON(stdout, checkReport{Valid: false, Errors: errorLines(err), Findings: []review.Finding{}})
		}
		return reportInvalid(stderr, err)
	})
}

// writeCheck prints a valid design's findings (as SARIF, JSON or text) and returns
// check's exit status: 1 when there is an error finding.
func writeCheck(findings []review.Finding, path string, asJSON, asSARIF bool, stdout, stderr io.Writer) int {
	switch {
	case asSARIF:
		out, err := review.SARIF(path, findings)
		if err != nil {
			fmt.Fprintln(stderr, "stwb:", err)
			return 2
		}
		stdout.Write(append(out, '\n'))
	case asJSON:
		if findings == nil {
			findings = []review.Finding{}
		}
		writeJSON(stdout, checkReport{Valid: true, Findings: findings})
	default:
		writeFindings(stdout, path, findings)
	}
	if review.HasErrors(findings) {
		return 1
	}
	return 0
}

func writeFindings(w io.Writer, path string, fs []review.Finding) {
	counts := writeFindingList(w, path, fs)
	fmt.Fprintf(w, "%s: valid; %d errors, %d warnings, %d notes\n", path, counts[review.Error], counts[review.Warning], counts[review.Info])
}

// writeFindingList prints each finding with its place, fix and source, and counts
// them by severity.
func writeFindingList(w io.Writer, path string, fs []review.Finding) map[review.Severity]int {
	counts := map[review.Severity]int{}
	for _, f := range fs {
		counts[f.Severity]++
		where := path
		if f.Pos.Line > 0 {
			where = fmt.Sprintf("%s:%d:%d", path, f.Pos.Line, f.Pos.Col)
		}
		fmt.Fprintf(w, "%s: %s [%s] %s\n    fix: %s\n    source: %s\n", where, f.Severity, f.Rule, f.Message, f.Fix, f.Source)
	}
	return counts
}

func errorLines(err error) []string {
	if list, ok := err.(model.ErrorList); ok {
		out := make([]string, len(list))
		for i, e := range list {
			out[i] = e.Error()
		}
		return out
	}
	return []string{err.Error()}
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}
