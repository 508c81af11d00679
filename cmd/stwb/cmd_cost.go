package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"stwb/analysis"
	"stwb/cost"
	"stwb/render"
)

func init() { register(newCostCmd) }

func newCostCmd(e *env) *cobra.Command {
	var o costOptions
	cmd := &cobra.Command{
		Use:   "cost FILE",
		Short: "What each pattern costs, the storage and the totals",
		Long: `cost reads the design FILE ("-": standard input), runs every pattern on its items
and prices each from the capacity DynamoDB would consume: per request, per month
at the pattern's rate, the hottest key against the partition limits, storage and
the totals. It writes the report to standard output and no file.

Prices are built in for us-east-1; another region (--region, or the design's
region:) needs --prices FILE, a YAML file in the shape of cost/prices.yaml.
--vs OTHER compares a second design with the first, pattern by pattern.

Exit status: 0 priced; 1 a pattern could not run (it is shown unpriced); 2 an
invalid design, an unpriced region or usage.`,
		Example: `  stwb cost mydesign.yaml
  stwb cost mydesign.yaml --all-pages --json
  stwb cost page-view-poor.yaml --vs page-view-good.yaml
  stwb cost mydesign.yaml --region eu-west-1 --prices prices.yaml`,
		Args:              usageArgs(1, 1),
		ValidArgsFunction: completeDesignFiles,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(runCost(e, args[0], o))
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.json, "json", false, "print JSON for programs")
	f.StringVar(&o.vs, "vs", "", "a second design to compare with, pattern by pattern")
	f.StringVar(&o.region, "region", "", "the AWS region whose prices apply (default: the design's, else us-east-1)")
	f.StringVar(&o.prices, "prices", "", "a prices file (YAML, the shape of cost/prices.yaml) for regions stwb does not carry")
	f.BoolVar(&o.allPages, "all-pages", false, "price every Query and Scan as every page of its production result")
	complete(cmd, "vs", completeDesignFlag)
	complete(cmd, "prices", completeDesignFlag)
	complete(cmd, "region", cobra.NoFileCompletions)
	return cmd
}

// costOptions are cost's flags.
type costOptions struct {
	json, allPages     bool
	vs, region, prices string
}

// runCost prices a design (issue 3).
func runCost(e *env, file string, o costOptions) int {
	stdin, stdout, stderr := e.stdin, e.stdout, e.stderr
	if o.vs == "-" && file == "-" {
		return usageError(stderr, "cost", "only one of FILE and --vs can be standard input")
	}
	prices := cost.Builtin()
	if o.prices != "" {
		p, err := cost.LoadPrices(o.prices)
		if err != nil {
			return reportInvalid(stderr, err)
		}
		prices = p
	}
	a, status := costOf(file, stdin, prices, o.region, o.allPages, stderr)
	if a == nil {
		return status
	}
	var out any = a
	var text string
	if o.vs != "" {
		b, st := costOf(o.vs, stdin, prices, o.region, o.allPages, stderr)
		if b == nil {
			return st
		}
		status = max(status, st)
		c := cost.Compare(a, b)
		out, text = c, render.CostComparison(c, file, o.vs)
	} else {
		text = render.Cost(a)
	}
	if o.json {
		buf, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			fmt.Fprintf(stderr, "stwb cost: %v\n", err)
			return 2
		}
		stdout.Write(append(buf, '\n'))
		return status
	}
	io.WriteString(stdout, text)
	return status
}

// costOf loads, runs and prices one design. A nil report comes with the exit status.
func costOf(path string, stdin io.Reader, prices cost.Prices, region string, allPages bool, stderr io.Writer) (*cost.Report, int) {
	d, err := readDesign(path, stdin)
	if err != nil {
		return nil, reportInvalid(stderr, err)
	}
	warnStaleTemps(stderr, path)
	a, err := analysis.Run(d.Design, analysis.Options{Prices: prices, Region: region, ItemPos: d.ItemPos, AllPages: allPages})
	if err != nil {
		return nil, reportInvalid(stderr, err)
	}
	if a.CostErr != nil {
		return nil, reportInvalid(stderr, fmt.Errorf("%s: %w", path, a.CostErr))
	}
	r := a.Cost
	for _, line := range render.LeftOut(path, d.ItemPos, a.LeftOut) {
		fmt.Fprintln(stderr, line)
	}
	status := 0
	for _, pc := range r.Patterns {
		if pc.Err != nil && isRequestInvalid(pc.Err) {
			fmt.Fprintf(stderr, "%s: pattern %d: %s: %s (it is left unpriced; fix the pattern)\n", path, pc.ID, pc.Err.Type, pc.Err.Message)
			status = 1
		}
	}
	return r, status
}
