package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"stwb/analysis"
	"stwb/cost"
	"stwb/designfile"
	"stwb/engine"
	"stwb/internal/inputlimit"
	"stwb/internal/numfmt"
	"stwb/model"
	"stwb/review"
	"stwb/traffic"
)

func init() { register(newCheckCmd) }

func newCheckCmd(e *env) *cobra.Command {
	var o checkOptions
	cmd := &cobra.Command{
		Use:   "check FILE",
		Short: "Validate and review a design (for CI)",
		Long: `check reads the design FILE ("-": standard input), validates it, runs every
pattern on its items, prices it and reviews it against the single-table rules.
It prints each finding with its place (file:line:col), its fix and its source,
then a summary; it writes no file.

With --traffic it also reads a recording that "stwb serve --record" wrote and holds
each request the application made to the design's patterns.

Exit status: 0 valid with no error finding; 1 an error finding, an expect that no
longer holds, or (with --traffic) a request no pattern declares or a Scan; 2 an
invalid design or usage.`,
		Example: `  stwb check mydesign.yaml
  stwb check mydesign.yaml --json
  stwb check mydesign.yaml --sarif > stwb.sarif
  stwb check design.yaml --traffic requests.jsonl`,
		Args:              usageArgs(1, 1),
		ValidArgsFunction: completeDesignFiles,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(runCheck(e, args[0], o))
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.json, "json", false, "print JSON for programs")
	f.BoolVar(&o.sarif, "sarif", false, "print SARIF 2.1.0 for code-review tools")
	f.StringVar(&o.traffic, "traffic", "", "a recording (from stwb serve --record) whose requests are held to the design's patterns")
	complete(cmd, "traffic", completeFiles)
	return cmd
}

// checkOptions are check's flags.
type checkOptions struct {
	json, sarif bool
	traffic     string
}

// checkReport is `stwb check --json`'s shape: {"valid": true, "findings": [...]}.
type checkReport struct {
	Valid    bool             `json:"valid"`
	Errors   []string         `json:"errors,omitempty"`
	Findings []review.Finding `json:"findings"`
	// Traffic is --traffic's report: the recorded requests held to the patterns.
	Traffic *traffic.Report `json:"traffic,omitempty"`
}

func runCheck(e *env, file string, o checkOptions) int {
	stdin, stdout, stderr := e.stdin, e.stdout, e.stderr
	// The design is read as `stwb query` reads it, the file mapped and each item
	// read once (analysis.Load); the review sees what it would see of a design read
	// whole.
	return whileMapped(stderr, file, func() int {
		data, release, err := mapInput(file, stdin)
		if err == nil {
			defer release()
			warnStaleTemps(stderr, file)
			var a *analysis.Analysis
			if a, err = analysis.Load(inputName(file), data, analysis.Options{Review: true}); err == nil {
				if err = review.CheckSettings(a.Design); err == nil {
					return writeCheck(a, file, o.traffic, o.json, o.sarif, stdout, stderr)
				}
			}
		}
		var refused *engine.Error
		if errors.As(err, &refused) {
			// The engine refused the items: the rules that need no run still report,
			// and their findings are shown beside the error rather than dropped.
			findings := []review.Finding{}
			if f, perr := designfile.Parse(inputName(file), data); perr == nil {
				if a, _ := analysis.Run(f.Design, analysis.Options{Review: true, ItemPos: f.ItemPos}); a != nil && a.Findings != nil {
					findings = a.Findings
				}
			}
			if o.json {
				writeJSON(stdout, checkReport{Valid: false, Errors: errorLines(err), Findings: findings})
			} else {
				writeFindingList(stdout, file, findings)
			}
		} else if o.json {
			// An invalid design: say so to programs.
			writeJSON(stdout, checkReport{Valid: false, Errors: errorLines(err), Findings: []review.Finding{}})
		}
		return reportInvalid(stderr, err)
	})
}

// writeCheck prints a valid design's findings (as SARIF, JSON or text) and returns
// check's exit status: 1 when there is an error finding or, with --traffic, a
// request shape no pattern declares or a Scan.
func writeCheck(a *analysis.Analysis, path, trafficFile string, asJSON, asSARIF bool, stdout, stderr io.Writer) int {
	findings := a.Findings
	var tr *traffic.Report
	if trafficFile != "" {
		var err error
		if tr, err = readTraffic(a.Design, trafficFile); err != nil {
			fmt.Fprintf(stderr, "stwb check: --traffic %s: %v\n", trafficFile, err)
			return 2
		}
	}
	switch {
	case asSARIF:
		// One log: the design review's findings, then the traffic's.
		all := findings
		if tr != nil {
			all = append(slices.Clip(findings), tr.Findings(a.Design)...)
		}
		out, err := review.SARIFWith(path, all, traffic.Rules)
		if err != nil {
			fmt.Fprintln(stderr, "stwb:", err)
			return 2
		}
		stdout.Write(append(out, '\n'))
	case asJSON:
		if findings == nil {
			findings = []review.Finding{}
		}
		writeJSON(stdout, checkReport{Valid: true, Findings: findings, Traffic: tr})
	default:
		writeFindings(stdout, path, findings)
		if tr != nil {
			writeTraffic(stdout, tr)
		}
	}
	if review.HasErrors(findings) || (tr != nil && (len(tr.Undeclared()) > 0 || len(tr.Scans()) > 0)) {
		return 1
	}
	return 0
}

// readTraffic holds a --record file to the design, read as a stream (a line at a
// time, within STWB_MAX_INPUT), so memory follows the distinct requests and the
// table their writes build, not the recording's length; the heap may grow by
// replayHeapHeadroom past what is live (gc.go).
func readTraffic(d *model.Design, path string) (*traffic.Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := inputlimit.Check(path, fi); err != nil {
		return nil, err
	}
	// The replay allocates a few hundred MB a second and its table grows fast at
	// first, so the percent follows the live heap more often than serve's does.
	defer keepHeapHeadroom(context.Background(), replayHeapHeadroom, 100*time.Millisecond)()
	return traffic.AnalyzeRecording(d, inputlimit.Reader(f, path), cost.Builtin())
}

// writeTraffic prints --traffic's report: each shape of request and the pattern it
// is, the undeclared ones with the pattern to add, the Scans and filters that read
// more than they return, the patterns nothing asked for, and what the run cost.
func writeTraffic(w io.Writer, r *traffic.Report) {
	fmt.Fprintf(w, "traffic: %d item requests recorded from %s to %s (%s)\n", r.Requests,
		r.From.Format(time.RFC3339), r.To.Format(time.RFC3339), r.To.Sub(r.From).Round(time.Second))
	for _, u := range r.Uses {
		what := fmt.Sprintf("pattern %d", u.Pattern)
		if u.Pattern == 0 {
			what = "UNDECLARED"
		}
		fmt.Fprintf(w, "  %s: %s: %d requests, %s read units, %s write units\n", what, u.Shape, u.Requests, units(u.Read), units(u.Write))
		if u.Refused > 0 {
			fmt.Fprintf(w, "    %d of them refused (%s)\n", u.Refused, u.Error)
		}
		if u.Pattern == 0 && u.Suggest != "" {
			fmt.Fprintln(w, "    an access pattern the design does not declare; add it to patterns:")
			for _, line := range strings.Split(u.Suggest, "\n") {
				fmt.Fprintln(w, "      "+line)
			}
		}
	}
	for _, u := range r.Scans() {
		fmt.Fprintf(w, "  SCAN: %s read %d items and returned %d: every item read is paid for; give it a key (an index) instead\n", u.Shape, u.Scanned, u.Returned)
	}
	if len(r.Unused) > 0 {
		ids := make([]string, len(r.Unused))
		for i, id := range r.Unused {
			ids[i] = strconv.Itoa(id)
		}
		fmt.Fprintf(w, "  unused: patterns %s were never asked for by the recorded run\n", strings.Join(ids, ", "))
	}
	fmt.Fprintf(w, "  cost of the run: %s read units, %s write units = $%.6f on demand (%s)", units(r.Read), units(r.Write), r.Dollars, r.Region)
	if r.Monthly > 0 {
		fmt.Fprintf(w, "; $%.2f a month at the recorded rate", r.Monthly)
	}
	fmt.Fprintln(w)
}

func units(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func writeFindings(w io.Writer, path string, fs []review.Finding) {
	counts := writeFindingList(w, path, fs)
	fmt.Fprintf(w, "%s: valid; %s, %s, %s\n", path, numfmt.Count(int64(counts[review.Error]), "error", "errors"),
		numfmt.Count(int64(counts[review.Warning]), "warning", "warnings"), numfmt.Count(int64(counts[review.Info]), "note", "notes"))
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
