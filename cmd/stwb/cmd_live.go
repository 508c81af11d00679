package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"stwb/designfile"
	"stwb/live"
	"stwb/render"
)

func init() {
	register("deploy", "FILE --endpoint URL [--table NAME] [--yes] [--replace]  create the table and load the items", runDeploy)
	register("verify", "FILE --endpoint URL [--table NAME] [--json]  run every read pattern there and compare", runVerify)
	register("teardown", "FILE --endpoint URL --yes [--table NAME]  delete the table deploy made", runTeardown)
}

// liveFlags are the flags deploy, verify and teardown share. --endpoint, --region and
// --profile work as the AWS CLI's --endpoint-url, --region and --profile.
type liveFlags struct {
	fs                               *flag.FlagSet
	endpoint, region, profile, table *string
	yes, replace, json               *bool
	timeout                          *time.Duration
	attempts                         *int
	usage                            string
}

func newLiveFlags(name, usage string, stderr io.Writer) *liveFlags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return &liveFlags{fs: fs, usage: usage,
		endpoint: fs.String("endpoint", "", "endpoint URL (DynamoDB Local, dynalite); none for AWS"),
		region:   fs.String("region", "", "AWS region (default: AWS_REGION or the profile's)"),
		profile:  fs.String("profile", "", "profile of ~/.aws/config (default: AWS_PROFILE or default)"),
		table:    fs.String("table", "", "table name (default: the design's table.name)"),
		yes:      fs.Bool("yes", false, "do not ask for confirmation"),
		replace:  fs.Bool("replace", false, "deploy: delete and recreate a table that exists"),
		json:     fs.Bool("json", false, "verify: print JSON for programs"),
		timeout: fs.Duration("timeout", live.DefaultRequestTimeout,
			"bound on one request to the endpoint (connect, send, whole answer)"),
		attempts: fs.Int("max-attempts", live.DefaultMaxAttempts,
			"tries of one request, the first included (throttling, 5xx and timeouts are retried)"),
	}
}

// parse reads the flags and the design; status is non-zero when the command must
// stop with it.
func (f *liveFlags) parse(args []string, stdin io.Reader, stderr io.Writer) (df *designfile.File, file string, status int) {
	pos, flags := splitFlags(args, map[string]bool{"endpoint": true, "region": true, "profile": true, "table": true,
		"timeout": true, "max-attempts": true})
	if err := f.fs.Parse(flags); err != nil {
		return nil, "", 2
	}
	if len(pos) != 1 {
		return nil, "", usageError(stderr, "usage: %s", f.usage)
	}
	if *f.timeout <= 0 || *f.attempts < 1 || *f.attempts > 100 {
		return nil, "", usageError(stderr, "--timeout must be positive and --max-attempts between 1 and 100")
	}
	df, err := readDesign(pos[0], stdin)
	if err != nil {
		return nil, "", reportInvalid(stderr, err)
	}
	warnStaleTemps(stderr, pos[0])
	return df, pos[0], 0
}

func (f *liveFlags) client(ctx context.Context) (*dynamodb.Client, error) {
	return live.NewClient(ctx, live.Config{Endpoint: *f.endpoint, Region: *f.region, Profile: *f.profile,
		Timeout: *f.timeout, MaxAttempts: *f.attempts})
}

// interrupted is a context that ends on Ctrl-C, so that a long load stops between
// batches instead of being killed in the middle of a request.
func interrupted() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

func runDeploy(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := newLiveFlags("deploy", "stwb deploy FILE --endpoint URL [--table NAME] [--yes] [--replace]", stderr)
	df, file, status := f.parse(args, stdin, stderr)
	if status != 0 {
		return status
	}
	d := df.Design
	table := live.TableName(d, *f.table)
	fmt.Fprint(stdout, live.Plan(d, table, *f.endpoint))
	if *f.replace {
		fmt.Fprintf(stdout, "  replace an existing table %s: it will be deleted with its items\n", table)
	}
	if !*f.yes {
		if file == "-" {
			return usageError(stderr, "the design came on standard input, so there is no one to confirm; pass --yes")
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
	rep, err := live.Deploy(ctx, db, d, live.DeployOptions{Table: *f.table, Replace: *f.replace, Log: stdout})
	if err != nil {
		fmt.Fprintln(stderr, "stwb deploy:", err)
		if errors.Is(err, live.ErrNotEmpty) {
			fmt.Fprintln(stderr, "nothing was changed")
		}
		return 1
	}
	fmt.Fprintf(stdout, "deployed %s: %d items; run `stwb verify %s --endpoint %s%s` next\n",
		rep.Table, rep.Load.Items, file, endpointArg(*f.endpoint), tableArg(*f.table))
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

func runVerify(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := newLiveFlags("verify", "stwb verify FILE --endpoint URL [--table NAME] [--json]", stderr)
	d, _, status := f.parse(args, stdin, stderr)
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
	rep, err := live.Verify(ctx, db, d, *f.table, *f.endpoint)
	if err != nil {
		fmt.Fprintln(stderr, "stwb verify:", live.Explain(err, *f.endpoint, 0))
		return 1
	}
	if *f.json {
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

func runTeardown(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := newLiveFlags("teardown", "stwb teardown FILE --endpoint URL --yes [--table NAME]", stderr)
	df, _, status := f.parse(args, stdin, stderr)
	if status != 0 {
		return status
	}
	d := df.Design
	table := live.TableName(d, *f.table)
	if !*f.yes {
		return usageError(stderr, "teardown deletes table %s and every item in it; pass --yes to do it", table)
	}
	ctx, cancel := interrupted()
	defer cancel()
	db, err := f.client(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "stwb teardown:", err)
		return 2
	}
	if err := live.Teardown(ctx, db, d, *f.table); err != nil {
		fmt.Fprintln(stderr, "stwb teardown:", err)
		return 1
	}
	fmt.Fprintf(stdout, "deleted table %s\n", table)
	return 0
}
