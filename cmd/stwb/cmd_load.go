package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"time"

	"github.com/spf13/cobra"

	"stwb/analysis"
	"stwb/live"
	"stwb/rehearse"
)

func init() { register(newLoadCmd) }

func newLoadCmd(e *env) *cobra.Command {
	var o loadOptions
	cmd := &cobra.Command{
		Use:   "load FILE --endpoint URL",
		Short: "Drive the design's own traffic at an endpoint and report what happened",
		Long: `load reads the design FILE ("-": standard input) and sends every access pattern at
its declared rate divided by --scale, all at once, for --duration, to the table at
--endpoint: stwb serve --throttle's, or a real table in a test account (deployed
first with stwb deploy; the standard AWS credentials, region and profile apply).
Keys and items come from the production model: the declared value counts, the
skew, periods, partitions and fan-out; a put writes new items built by its
entity's templates. Requests go through aws-sdk-go-v2 with its standard retryer,
so what is measured is what the application would see.

While it runs, a line per pattern each second on standard error. At the end, per
pattern: the achieved rate, throttled tries and retries, latency p50/p99/max, the
capacity consumed (ReturnConsumedCapacity) beside what stwb cost predicts; the
partition key values that consumed the most, per table and index, as Contributor
Insights ranks them; and where the run disagrees with stwb check (a pattern flagged
hot that was not throttled, or throttled and not flagged).

Exit status: 0 the run agrees with check; 1 it disagrees, or the endpoint failed;
2 an invalid design or usage.`,
		Example: `  stwb serve counter.yaml --throttle --scale 100 --port 8000 &
  stwb load counter.yaml --endpoint http://127.0.0.1:8000 --scale 100 --duration 30s
  stwb load design.yaml --endpoint https://dynamodb.eu-west-1.amazonaws.com --table test-orders --scale 10 --yes --json`,
		Args:              usageArgs(1, 1),
		ValidArgsFunction: completeDesignFiles,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(runLoad(e, args[0], o))
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.endpoint, "endpoint", "", "endpoint URL: stwb serve --throttle's, or a real table's region endpoint (required)")
	f.StringVar(&o.region, "region", "", "AWS region (default: AWS_REGION or the profile's)")
	f.StringVar(&o.profile, "profile", "", "profile of ~/.aws/config (default: AWS_PROFILE or default)")
	f.StringVar(&o.table, "table", "", "table name (default: the design's table.name)")
	f.Float64Var(&o.scale, "scale", 1, "divide every pattern's rate by N (as stwb serve --scale divides the limits)")
	f.DurationVar(&o.duration, "duration", 30*time.Second, "how long to drive the traffic")
	f.Uint64Var(&o.seed, "seed", 1, "the seed of the key draws: the same seed draws the same keys")
	f.BoolVar(&o.json, "json", false, "print JSON for programs")
	f.BoolVar(&o.yes, "yes", false, "drive traffic at an endpoint that is not this machine without asking")
	for _, name := range []string{"endpoint", "region", "profile", "table", "scale", "duration", "seed"} {
		complete(cmd, name, cobra.NoFileCompletions)
	}
	return cmd
}

// loadOptions are load's flags.
type loadOptions struct {
	endpoint, region, profile, table string
	scale                            float64
	duration                         time.Duration
	seed                             uint64
	json, yes                        bool
}

// runLoad is stwb load (issue 27).
func runLoad(e *env, file string, o loadOptions) int {
	stdin, stdout, stderr := e.stdin, e.stdout, e.stderr
	if o.endpoint == "" {
		return usageError(stderr, "load", "--endpoint is required: stwb serve --throttle's URL, or a real table's region endpoint")
	}
	if o.scale < 1 || o.duration < time.Second || o.duration > 24*time.Hour {
		return usageError(stderr, "load", "--scale must be 1 or more and --duration from 1s to 24h")
	}
	if !loopback(o.endpoint) && !o.yes {
		return usageError(stderr, "load", "%s is not this machine: the run writes to its table as the patterns do; pass --yes to go on (deploy a test table first with stwb deploy)", o.endpoint)
	}
	f, err := readDesign(file, stdin)
	if err != nil {
		return reportInvalid(stderr, err)
	}
	a, err := analysis.Run(f.Design, analysis.Options{Review: true, ItemPos: f.ItemPos})
	if err != nil {
		return reportInvalid(stderr, err)
	}
	ctx, cancel := interrupted()
	defer cancel()
	db, err := live.NewClient(ctx, live.Config{Endpoint: o.endpoint, Region: o.region, Profile: o.profile})
	if err != nil {
		fmt.Fprintln(stderr, "stwb load:", err)
		return 2
	}
	rep, err := rehearse.Run(ctx, db, a, rehearse.Options{Scale: o.scale, Duration: o.duration,
		Table: live.TableName(f.Design, o.table), Progress: stderr, Seed: o.seed})
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "stwb load:", err)
		return 1
	}
	if o.json {
		if err := rep.WriteJSON(stdout); err != nil {
			return 1
		}
	} else {
		rep.WriteText(stdout)
	}
	if len(rep.Disagreements) > 0 {
		return 1
	}
	return 0
}

// loopback reports whether an endpoint URL names this machine.
func loopback(endpoint string) bool {
	u, err := url.Parse(endpoint)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
