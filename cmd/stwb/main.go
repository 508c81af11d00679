// Command stwb is the single-table workbench: with no subcommand it opens the
// terminal workbench; its subcommands answer from the command line for CI.
//
// The command line is a cobra tree (the library gh, kubectl and hugo use): each
// cmd_<name>.go holds one command, a function that builds its *cobra.Command with
// its own flags, registered from that file's init. This file holds what they share:
// the root command, the exit status, the one way errors are printed, and the
// single-dash long flags (-json) that scripts written before cobra still pass.
//
// Exit status: 0 success, 1 findings or failures, 2 invalid input or usage.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// env is what one run of stwb reads and writes: a command reads its input from
// stdin when a file argument is "-", and writes only to stdout and stderr, so that
// tests run it in process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// builders are the subcommands' constructors; each cmd_<name>.go adds its own
// from init, so adding a command touches no other file.
var builders []func(*env) *cobra.Command

// register adds a subcommand's constructor.
func register(build func(*env) *cobra.Command) {
	builders = append(builders, build)
}

// exitStatus is a command's non-zero exit status, returned as the error of its
// RunE once the command has printed what went wrong.
type exitStatus int

func (s exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(s)) }

// exit turns a command's exit status into what RunE returns.
func exit(status int) error {
	if status == 0 {
		return nil
	}
	return exitStatus(status)
}

func main() {
	os.Exit(runContext(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is stwb with args, as main runs it; it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdin, stdout, stderr)
}

// runContext is run until ctx ends (stwb serve stops serving then).
func runContext(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	root := newRootCmd(e)
	root.SetArgs(posixArgs(root, args))
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return 0
	}
	if st, ok := errors.AsType[exitStatus](err); ok {
		return int(st)
	}
	// cobra's own refusals: an unknown command or flag, a wrong number of arguments.
	if cmd == nil {
		cmd = root
	}
	fmt.Fprintf(stderr, "%s: %s\n", cmd.CommandPath(), strings.TrimRight(err.Error(), "\n"))
	fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
	return 2
}

// newRootCmd builds the whole command tree for one run.
func newRootCmd(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:   "stwb [FILE]",
		Short: "The single-table workbench: design a DynamoDB table access-patterns-first",
		Long: `stwb is a terminal workbench in which you design a DynamoDB table from its access
patterns: the patterns, the items and the key templates in one YAML design file,
every pattern run as DynamoDB would run it, priced as DynamoDB would bill it.

With no command it opens the workbench on FILE (created on the first save when it
does not exist yet), or on the orders sample when no FILE is given. The commands
answer the same questions from the command line, for scripts and CI.

Exit status: 0 success, 1 findings or failures, 2 invalid input or usage.`,
		Example: `  stwb                      # the workbench on the orders sample
  stwb mydesign.yaml        # open (or create, on first save) a design
  stwb check mydesign.yaml  # validate and review it, for CI`,
		Version:           version(),
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: completeDesignFiles,
		SilenceErrors:     true,
		SilenceUsage:      true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return fmt.Errorf("unexpected arguments %q; the workbench takes one design file", args)
			}
			if len(args) == 1 && !looksLikeDesign(args[0]) {
				return unknownCommand(cmd, args[0])
			}
			return exit(runWorkbench(args, e))
		},
	}
	root.SetVersionTemplate("stwb {{.Version}}\n")
	root.SuggestionsMinimumDistance = 2
	root.SetIn(e.stdin)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	root.CompletionOptions.HiddenDefaultCmd = false
	for _, b := range builders {
		root.AddCommand(b(e))
	}
	slices.SortFunc(root.Commands(), func(a, b *cobra.Command) int { return strings.Compare(a.Name(), b.Name()) })
	for _, c := range root.Commands() {
		c.SilenceErrors, c.SilenceUsage = true, true
	}
	return root
}

// looksLikeDesign tells a design file to open from a mistyped command: a file that
// exists, or a path that names a YAML file (a new design, created on first save).
func looksLikeDesign(arg string) bool {
	if strings.HasSuffix(arg, ".yaml") || strings.HasSuffix(arg, ".yml") || strings.ContainsRune(arg, os.PathSeparator) {
		return true
	}
	_, err := os.Stat(arg)
	return err == nil
}

// unknownCommand is stwb's answer to `stwb chek`: an error naming the commands
// it may have meant, as cobra suggests them.
func unknownCommand(root *cobra.Command, arg string) error {
	msg := fmt.Sprintf("unknown command %q, and no file of that name to open", arg)
	if s := root.SuggestionsFor(arg); len(s) > 0 {
		msg += "\n\nDid you mean this?\n\t" + strings.Join(s, "\n\t")
	}
	return errors.New(msg)
}

// usageArgs is a cobra.Args that accepts between lo and hi positional arguments
// (hi < 0: any number) and otherwise says the command's usage line.
func usageArgs(lo, hi int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < lo || hi >= 0 && len(args) > hi {
			return fmt.Errorf("usage: %s", cmd.UseLine())
		}
		return nil
	}
}

// posixArgs rewrites the single-dash long flags that Go's flag package accepted
// (stwb check FILE -json) to cobra's double-dash form (--json), so scripts written
// before the move to cobra keep working. Only a known flag of the command is
// rewritten; single letters stay shorthands (-o) and a flag's value is never
// touched (stwb query --table -json keeps "-json" as the value).
func posixArgs(root *cobra.Command, args []string) []string {
	cmd := root
	if len(args) > 0 {
		if c, _, err := root.Find(args[:1]); err == nil && c != nil {
			cmd = c
		}
	}
	flags := cmd.Flags()
	out := slices.Clone(args)
	for i := 0; i < len(out); i++ {
		a := out[i]
		if a == "--" {
			break
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		var f *pflag.Flag
		switch {
		case strings.HasPrefix(a, "--"):
			f = flags.Lookup(name)
		case len(name) == 1:
			f = flags.ShorthandLookup(name)
		default:
			if f = flags.Lookup(name); f != nil || name == "help" || name == "version" && cmd == root {
				out[i] = "-" + a
			}
		}
		if f != nil && f.NoOptDefVal == "" && !hasValue {
			i++ // the next argument is this flag's value
		}
	}
	return out
}

// designFileExts are the design files shells complete: stwb reads and writes YAML.
var designFileExts = []string{"yaml", "yml"}

// completeDesignFiles completes a design file argument.
func completeDesignFiles(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return designFileExts, cobra.ShellCompDirectiveFilterFileExt
}

// completeFiles leaves the completion to the shell's files, any extension.
func completeFiles(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveDefault
}

// completeDesignFlag completes a flag whose value is a design file.
func completeDesignFlag(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	return designFileExts, cobra.ShellCompDirectiveFilterFileExt
}

// complete registers the completion of flag's value, which must be one of cmd's
// flags: a programming error otherwise, found by the completion tests.
func complete(cmd *cobra.Command, flag string, f cobra.CompletionFunc) {
	if err := cmd.RegisterFlagCompletionFunc(flag, f); err != nil {
		panic(err)
	}
}

// fixed completes from a fixed list of words.
func fixed(words ...string) cobra.CompletionFunc {
	return cobra.FixedCompletions(words, cobra.ShellCompDirectiveNoFileComp)
}
