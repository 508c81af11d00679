package main

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"stwb/dynamojson"
	"stwb/engine"
	"stwb/expr"
	"stwb/model"
	"stwb/render"
)

func init() { register(newQueryCmd) }

func newQueryCmd(e *env) *cobra.Command {
	var asJSON, allPages bool
	cmd := &cobra.Command{
		Use:   "query FILE [ID]",
		Short: "Run one pattern, or every pattern, and print the results",
		Long: `query reads the design FILE ("-": standard input) and runs the pattern whose id
is ID, or every pattern, on the design's items as DynamoDB would: the items in
DynamoDB's order, the count and scanned count, LastEvaluatedKey and the consumed
capacity. It writes to standard output and no file; --json gives the results in
docs/FORMAT.md's shape, byte-stable for diffs in CI.

Exit status: 0 every pattern ran (a failed condition is an outcome, not an
error); 1 a pattern's request is invalid (a ValidationException); 2 an invalid
design or usage.`,
		Example: `  stwb query mydesign.yaml
  stwb query mydesign.yaml 2 --json
  stwb query mydesign.yaml 3 --all-pages`,
		Args:              usageArgs(1, 2),
		ValidArgsFunction: completeQueryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(runQuery(e, args, asJSON, allPages))
		},
	}
	f := cmd.Flags()
	f.BoolVar(&asJSON, "json", false, "print JSON for programs")
	f.BoolVar(&allPages, "all-pages", false, "follow LastEvaluatedKey to the last page")
	return cmd
}

// completeQueryArgs completes query's design file, then the ids of its patterns.
func completeQueryArgs(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) == 0 {
		return completeDesignFiles(cmd, args, toComplete)
	}
	if len(args) > 1 || args[0] == "-" {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	f, err := readDesign(args[0], nil)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var ids []string
	for _, p := range f.Design.Patterns {
		ids = append(ids, strconv.Itoa(p.ID)+"\t"+p.Name)
	}
	return ids, cobra.ShellCompDirectiveNoFileComp
}

func runQuery(e *env, pos []string, asJSON, allPages bool) int {
	stdin, stdout, stderr := e.stdin, e.stdout, e.stderr
	return whileMapped(stderr, pos[0], func() int {
		d, eng, release, err := loadToQuery(pos[0], stdin)
		if err != nil {
			return reportInvalid(stderr, err)
		}
		defer release()
		warnStaleTemps(stderr, pos[0])
		return runPatterns(d.Design, eng, pos, asJSON, allPages, stdout, stderr)
	})
}

// runPatterns runs the design's patterns (pos[1], when given, names one) and prints
// their results; it returns the exit status.
func runPatterns(d *model.Design, e *engine.Engine, pos []string, asJSON, allPages bool, stdout, stderr io.Writer) int {
	patterns := d.Patterns
	if len(pos) == 2 {
		id, err := strconv.Atoi(pos[1])
		if err != nil {
			return usageError(stderr, "query", "pattern id %q is not a number", pos[1])
		}
		i := patternIndex(d, id)
		if i < 0 {
			return usageError(stderr, "query", "%s: no pattern %d; the design has %s", pos[0], id, patternIDs(d))
		}
		patterns = d.Patterns[i : i+1]
	}
	opts := engine.RunOptions{AllPages: allPages}
	results := make([]*engine.Result, len(patterns))
	status := 0
	for i := range patterns {
		results[i] = e.Run(&patterns[i], opts)
		if r := results[i]; r.Err != nil && isRequestInvalid(r.Err) {
			status = 1
		}
	}
	if asJSON {
		var buf []byte
		if len(pos) == 2 {
			buf = appendResultJSON(buf, results[0])
		} else {
			buf = append(buf, '[')
			for i, r := range results {
				if i > 0 {
					buf = append(buf, ",\n"...)
				}
				buf = appendResultJSON(buf, r)
			}
			buf = append(buf, ']')
		}
		buf = append(buf, '\n')
		stdout.Write(buf)
		return status
	}
	for i, r := range results {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprint(stdout, render.QueryResult(d, &patterns[i], r))
	}
	return status
}

// isRequestInvalid tells an error in the design's request (the pattern itself is
// wrong) from an outcome the pattern may expect, such as a failed condition or a
// cancelled transaction.
func isRequestInvalid(err *engine.Error) bool {
	return err.Type == expr.ValidationException || err.Type == "ResourceNotFoundException"
}

func patternIndex(d *model.Design, id int) int {
	for i := range d.Patterns {
		if d.Patterns[i].ID == id {
			return i
		}
	}
	return -1
}

func patternIDs(d *model.Design) string {
	if len(d.Patterns) == 0 {
		return "no patterns"
	}
	ids := make([]string, len(d.Patterns))
	for i, p := range d.Patterns {
		ids[i] = strconv.Itoa(p.ID)
	}
	return "patterns " + strings.Join(ids, ", ")
}

// appendResultJSON writes one result in FORMAT.md's shape, keys in a fixed order and
// items in DynamoDB JSON, so that output is byte-stable for CI diffs.
func appendResultJSON(buf []byte, r *engine.Result) []byte {
	buf = append(buf, `{"id": `...)
	buf = strconv.AppendInt(buf, int64(r.PatternID), 10)
	buf = append(buf, `, "operation": `...)
	buf = dynamojson.AppendString(buf, string(r.Operation))
	buf = append(buf, `, "index": `...)
	if r.Index == "" {
		buf = append(buf, "null"...)
	} else {
		buf = dynamojson.AppendString(buf, r.Index)
	}
	buf = append(buf, `, "items": [`...)
	for i, it := range r.Items {
		if i > 0 {
			buf = append(buf, ", "...)
		}
		buf = dynamojson.AppendItem(buf, it)
	}
	buf = append(buf, ']')
	buf = appendCounts(buf, r)
	if r.Fanout != nil {
		// A fan-out's requests, beside the merged result above (docs/FORMAT.md).
		buf = append(buf, `, "requests": [`...)
		for i, sub := range r.Requests {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = append(buf, `{"value": `...)
			buf = dynamojson.AppendString(buf, r.Fanout.Values[i])
			buf = appendCounts(buf, sub)
			buf = append(buf, '}')
		}
		buf = append(buf, ']')
	}
	buf = append(buf, `, "error": `...)
	if r.Err == nil {
		buf = append(buf, "null"...)
	} else {
		buf = append(buf, `{"type": `...)
		buf = dynamojson.AppendString(buf, r.Err.Type)
		buf = append(buf, `, "message": `...)
		buf = dynamojson.AppendString(buf, r.Err.Message)
		if len(r.Err.Reasons) > 0 {
			buf = append(buf, `, "cancellationReasons": [`...)
			for i, c := range r.Err.Reasons {
				if i > 0 {
					buf = append(buf, ", "...)
				}
				buf = append(buf, `{"code": `...)
				buf = dynamojson.AppendString(buf, c.Code)
				if c.Message != "" {
					buf = append(buf, `, "message": `...)
					buf = dynamojson.AppendString(buf, c.Message)
				}
				buf = append(buf, '}')
			}
			buf = append(buf, ']')
		}
		buf = append(buf, '}')
	}
	return append(buf, '}')
}

// appendCounts writes a result's `, "count", "scannedCount", "lastEvaluatedKey",
// "consumedCapacity"` in FORMAT.md's shape.
func appendCounts(buf []byte, r *engine.Result) []byte {
	buf = append(buf, `, "count": `...)
	buf = strconv.AppendInt(buf, int64(r.Count), 10)
	buf = append(buf, `, "scannedCount": `...)
	buf = strconv.AppendInt(buf, int64(r.ScannedCount), 10)
	buf = append(buf, `, "lastEvaluatedKey": `...)
	if r.LastEvaluatedKey == nil {
		buf = append(buf, "null"...)
	} else {
		buf = dynamojson.AppendItem(buf, r.LastEvaluatedKey)
	}
	return appendConsumed(buf, r.Consumed)
}

// appendConsumed writes `, "consumedCapacity": {...}` in FORMAT.md's shape.
func appendConsumed(buf []byte, c engine.Capacity) []byte {
	buf = append(buf, `, "consumedCapacity": {"capacityUnits": `...)
	buf = appendUnits(buf, c.Total())
	buf = append(buf, `, "table": `...)
	buf = appendUnits(buf, c.Table.Read+c.Table.Write)
	buf = append(buf, `, "indexes": {`...)
	names := make([]string, 0, len(c.Indexes))
	for n := range c.Indexes {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		if i > 0 {
			buf = append(buf, ", "...)
		}
		u := c.Indexes[n]
		buf = dynamojson.AppendString(buf, n)
		buf = append(buf, ": "...)
		buf = appendUnits(buf, u.Read+u.Write)
	}
	return append(buf, `}}`...)
}

func appendUnits(buf []byte, f float64) []byte {
	return strconv.AppendFloat(buf, f, 'f', -1, 64)
}
