package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/spf13/cobra"

	"stwb/designfile"
	"stwb/live"
	"stwb/render"
)

func init() {
	register(newDeployCmd)
	register(newVerifyCmd)
	register(newTeardownCmd)
}

const liveLong = `
The endpoint is AWS when --endpoint is not given (credentials, region and profile
as the AWS CLI finds them), or DynamoDB Local, dynalite or stwb serve at
--endpoint URL. Each request is bounded by --timeout and retried (throttling, 5xx,
timeouts) up to --max-attempts tries.`

func newDeployCmd(e *env) *cobra.Command {
	var l liveFlags
	var yes, replace bool
	cmd := &cobra.Command{
		Use:   "deploy FILE",
		Short: "Create the design's table at an endpoint and load its items",
		Long: `deploy reads the design FILE ("-": standard input, then --yes is needed), prints
its plan (the table, its indexes, the items) and, once confirmed, creates the
table at the endpoint and writes the items. A table that exists is left alone
unless --replace, which deletes and recreates it. It writes no local file.
` + liveLong + `

Exit status: 0 deployed; 1 refused by the endpoint, or not confirmed; 2 an
invalid design or usage.`,
		Example: `  stwb deploy mydesign.yaml --endpoint http://localhost:8000
  stwb deploy mydesign.yaml --endpoint http://localhost:8000 --yes --replace
  stwb deploy mydesign.yaml --region eu-west-1 --table orders-test`,
		Args:              usageArgs(1, 1),
		ValidArgsFunction: completeDesignFiles,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(runDeploy(e, args[0], l, yes, replace))
		},
	}
	l.add(cmd)
	cmd.Flags().BoolVar(&yes, "yes", false, "do not ask for confirmation")
	cmd.Flags().BoolVar(&replace, "replace", false, "delete and recreate a table that exists")
	return cmd
}

func newVerifyCmd(e *env) *cobra.Command {
	var l liveFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "verify FILE",
		Short: "Run every read pattern at an endpoint and compare with the design",
		Long: `verify reads the design FILE ("-": standard input), runs each of its read
patterns against the table deploy made at the endpoint, and compares the items,
their order, the counts and the consumed capacity with what the design's own run
gives. It changes nothing there and writes no file.
` + liveLong + `

Exit status: 0 every pattern matches; 1 a mismatch or a failed request; 2 an
invalid design or usage.`,
		Example: `  stwb verify mydesign.yaml --endpoint http://localhost:8000
  stwb verify mydesign.yaml --endpoint http://localhost:8000 --json`,
		Args:              usageArgs(1, 1),
		ValidArgsFunction: completeDesignFiles,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(runVerify(e, args[0], l, asJSON))
		},
	}
	l.add(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON for programs")
	return cmd
}

func newTeardownCmd(e *env) *cobra.Command {
	var l liveFlags
	var yes bool
	cmd := &cobra.Command{
		Use:   "teardown FILE --yes",
		Short: "Delete the table deploy made",
		Long: `teardown reads the design FILE ("-": standard input) for its table name (or
--table) and deletes that table, with every item in it, at the endpoint. It asks
for nothing: without --yes it only says what it would delete.
` + liveLong + `

Exit status: 0 deleted; 1 refused by the endpoint; 2 an invalid design, no
--yes, or usage.`,
		Example:           `  stwb teardown mydesign.yaml --endpoint http://localhost:8000 --yes`,
		Args:              usageArgs(1, 1),
		ValidArgsFunction: completeDesignFiles,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(runTeardown(e, args[0], l, yes))
		},
	}
	l.add(cmd)
	cmd.Flags().BoolVar(&yes, "yes", false, "delete the table (teardown refuses without it)")
	return cmd
}

// liveFlags are the flags deploy, verify and teardown each have. --endpoint,
// --region and --profile work as the AWS CLI's --endpoint-url, --region and --profile.
type liveFlags struct {
	endpoint, region, profile, table string
	timeout                          time.Duration
	attempts                         int
}

// add defines the flags on cmd.
func (l *liveFlags) add(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&l.endpoint, "endpoint", "", "endpoint URL (DynamoDB Local, dynalite, stwb serve); none for AWS")
	f.StringVar(&l.region, "region", "", "AWS region (default: AWS_REGION or the profile's)")
	f.StringVar(&l.profile, "profile", "", "profile of ~/.aws/config (default: AWS_PROFILE or default)")
	f.StringVar(&l.table, "table", "", "table name (default: the design's table.name)")
	f.DurationVar(&l.timeout, "timeout", live.DefaultRequestTimeout, "bound on one request to the endpoint (connect, send, whole answer)")
	f.IntVar(&l.attempts, "max-attempts", live.DefaultMaxAttempts, "tries of one request, the first included (throttling, 5xx and timeouts are retried)")
	for _, name := range []string{"endpoint", "region", "profile", "table", "timeout", "max-attempts"} {
		complete(cmd, name, cobra.NoFileCompletions)
	}
}

// read checks the flags and reads the design; status is non-zero when the command
// must stop with it.
func (l *liveFlags) read(cmd, file string, stdin io.Reader, stderr io.Writer) (df *designfile.File, status int) {
	if l.timeout <= 0 || l.attempts < 1 || l.attempts > 100 {
		return nil, usageError(stderr, cmd, "--timeout must be positive and --max-attempts between 1 and 100")
	}
	df, err := readDesign(file, stdin)
	if err != nil {
		return nil, reportInvalid(stderr, err)
	}
	warnStaleTemps(stderr, file)
	return df, 0
}

func (l *liveFlags) client(ctx context.Context) (*dynamodb.Client, error) {
	return live.NewClient(ctx, live.Config{Endpoint: l.endpoint, Region: l.region, Profile: l.profile,
		Timeout: l.timeout, MaxAttempts: l.attempts})
}

// interrupted is a context that ends on Ctrl-C, so that a long load stops between
// batches instead of being killed in the middle of a request.
func interrupted() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

func runDeploy(e *env, file string, f liveFlags, yes, replace bool) int {
	stdin, stdout, stderr := e.stdin, e.stdout, e.stderr
	df, status := f.read("deploy", file, stdin, stderr)
	if status != 0 {
		return status
	}
	d := df.Design
	table := live.TableName(d, f.table)
	fmt.Fprint(stdout, live.Plan(d, table, f.endpoint))
	if replace {
		fmt.Fprintf(stdout, "  replace an existing table %s: it will be deleted with its items\n", table)
	}
	if !yes {
		if file == "-" {
			return usageError(stderr, "deploy", "the design came on standard input, so there is no one to confirm; pass --yes")
		}
		fmt.Fprint(stdout, "Deploy? [y/N] ")
		answer, _ := bufio.NewReader(stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			fmt.Fprintln(stdout, "not deployed; nothing was changed")
			return 1
		}
	}
	ctx, cancel := interrupted()
	defer cancel()
	db, err := f.client(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "stwb deploy:", err)
		return 2
	}
	rep, err := live.Deploy(ctx, db, d, live.DeployOptions{Table: f.table, Replace: replace, Log: stdout})
	if err != nil {
		fmt.Fprintln(stderr, "stwb deploy:", err)
		if errors.Is(err, live.ErrNotEmpty) {
			fmt.Fprintln(stderr, "nothing was changed")
		}
		return 1
	}
	fmt.Fprintf(stdout, "deployed %s: %d items; run `stwb verify %s --endpoint %s%s` next\n",
		rep.Table, rep.Load.Items, file, endpointArg(f.endpoint), tableArg(f.table))
	return 0
}

func endpointArg(e string) string {
	if e == "" {
		return "''"
	}
	return e
}

func tableArg(t string) string {
	if t == "" {
		return ""
	}
	return " --table " + t
}

// verifyTextWidth is the width the verify report is drawn at for people.
const verifyTextWidth = 120

func runVerify(e *env, file string, f liveFlags, asJSON bool) int {
	stdout, stderr := e.stdout, e.stderr
	d, status := f.read("verify", file, e.stdin, stderr)
	if status != 0 {
		return status
	}
	ctx, cancel := interrupted()
	defer cancel()
	db, err := f.client(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "stwb verify:", err)
		return 2
	}
	rep, err := live.Verify(ctx, db, d, f.table, f.endpoint)
	if err != nil {
		fmt.Fprintln(stderr, "stwb verify:", live.Explain(err, f.endpoint, 0))
		return 1
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintln(stderr, "stwb verify:", err)
			return 1
		}
	} else {
		// The workbench's drawing of the report, unstyled, at a width that keeps
		// a pattern on one line in a wide terminal.
		for _, line := range render.Verify(rep, verifyTextWidth, render.Plain()) {
			fmt.Fprintln(stdout, strings.TrimRight(line, " "))
		}
	}
	if rep.Mismatched > 0 {
		return 1
	}
	return 0
}

func runTeardown(e *env, file string, f liveFlags, yes bool) int {
	stdout, stderr := e.stdout, e.stderr
	df, status := f.read("teardown", file, e.stdin, stderr)
	if status != 0 {
		return status
	}
	d := df.Design
	table := live.TableName(d, f.table)
	if !yes {
		return usageError(stderr, "teardown", "teardown deletes table %s and every item in it; pass --yes to do it", table)
	}
	ctx, cancel := interrupted()
	defer cancel()
	db, err := f.client(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "stwb teardown:", err)
		return 2
	}
	if err := live.Teardown(ctx, db, d, f.table); err != nil {
		fmt.Fprintln(stderr, "stwb teardown:", err)
		return 1
	}
	fmt.Fprintf(stdout, "deleted table %s\n", table)
	return 0
}
