package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"stwb/analysis"
	"stwb/cost"
	"stwb/render"
)

func init() {
	register("cost", "FILE [--json] [--all-pages] [--vs OTHER] [--region R] [--prices P]  what each pattern costs, storage, totals", runCost)
}

// runCost prices a design (issue 3). Prices are built in for us-east-1; another
// region (from --region or the design's `region:`) needs --prices FILE, a YAML file
// in the shape of cost/prices.yaml. Exit status: 0 priced; 1 a pattern could not run
// (it is shown unpriced); 2 invalid input, an unpriced region or bad usage.
func runCost(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("cost", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON for programs")
	vs := fs.String("vs", "", "a second design to compare with, pattern by pattern")
	region := fs.String("region", "", "the AWS region whose prices apply (default: the design's, else us-east-1)")
	pricesFile := fs.String("prices", "", "a prices file (YAML, the shape of cost/prices.yaml) for regions stwb does not carry")
	allPages := fs.Bool("all-pages", false, "price every Query and Scan as every page of its production result")
	pos, flags := splitFlags(args, map[string]bool{"vs": true, "region": true, "prices": true})
	if err := fs.Parse(flags); err != nil {
		return 2
	}
	if len(pos) != 1 {
		return usageError(stderr, "usage: stwb cost FILE [--json] [--all-pages] [--vs OTHER] [--region R] [--prices P]")
	}
	if *vs == "-" && pos[0] == "-" {
		return usageError(stderr, "only one of FILE and --vs can be standard input")
	}
	prices := cost.Builtin()
	if *pricesFile != "" {
		p, err := cost.LoadPrices(*pricesFile)
		if err != nil {
			return reportInvalid(stderr, err)
		}
		prices = p
	}
	a, status := costOf(pos[0], stdin, prices, *region, *allPages, stderr)
	if a == nil {
		return status
	}
	var out any = a
	var text string
	if *vs != "" {
		b, st := costOf(*vs, stdin, prices, *region, *allPages, stderr)
		if b == nil {
			return st
		}
		status = max(status, st)
		c := cost.Compare(a, b)
		out, text = c, render.CostComparison(c, pos[0], *vs)
	} else {
		text = render.Cost(a)
	}
	if *asJSON {
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
