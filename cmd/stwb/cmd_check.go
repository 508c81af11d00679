package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"stwb/analysis"
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
	d, err := readDesign(pos[0], stdin)
	if err != nil {
		if *asJSON {
			writeJSON(stdout, checkReport{Valid: false, Errors: errorLines(err), Findings: []review.Finding{}})
		}
		return reportInvalid(stderr, err)
	}
	a, err := analysis.Run(d, analysis.Options{Review: true})
	if err != nil {
		return reportInvalid(stderr, err)
	}
	findings := a.Findings
	switch {
	case *asSARIF:
		out, err := review.SARIF(pos[0], findings)
		if err != nil {
			fmt.Fprintln(stderr, "stwb:", err)
			return 2
		}
		stdout.Write(append(out, '\n'))
	case *asJSON:
		if findings == nil {
			findings = []review.Finding{}
		}
		writeJSON(stdout, checkReport{Valid: true, Findings: findings})
	default:
		writeFindings(stdout, pos[0], findings)
	}
	if review.HasErrors(findings) {
		return 1
	}
	return 0
}

func writeFindings(w io.Writer, path string, fs []review.Finding) {
	counts := map[review.Severity]int{}
	for _, f := range fs {
		counts[f.Severity]++
		where := path
		if f.Pos.Line > 0 {
			where = fmt.Sprintf("%s:%d:%d", path, f.Pos.Line, f.Pos.Col)
		}
		fmt.Fprintf(w, "%s: %s [%s] %s\n    fix: %s\n    source: %s\n", where, f.Severity, f.Rule, f.Message, f.Fix, f.Source)
	}
	fmt.Fprintf(w, "%s: valid; %d errors, %d warnings, %d notes\n", path, counts[review.Error], counts[review.Warning], counts[review.Info])
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
