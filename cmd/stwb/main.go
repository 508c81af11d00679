// Command stwb is the single-table workbench: with no subcommand it opens the
// terminal workbench; its subcommands answer from the command line for CI.
//
// Exit status: 0 success, 1 findings or failures, 2 invalid input or usage.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one subcommand. run returns the exit status.
type command struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands is the table of subcommands; each lives in its own cmd_<name>.go file.
var commands = map[string]command{}

// register adds a subcommand; each cmd_<name>.go calls it from init.
func register(name, summary string, run func(args []string, stdin io.Reader, stdout, stderr io.Writer) int) {
	commands[name] = command{summary: summary, run: run}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "help", "-h", "--help":
			usage(stdout)
			return 0
		}
		if c, ok := commands[args[0]]; ok {
			return c.run(args[1:], stdin, stdout, stderr)
		}
	}
	return runWorkbench(args, stdin, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "stwb, the single-table workbench")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "  stwb [FILE]            open the workbench (no FILE: the orders sample)")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  stwb %-17s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Exit status: 0 success, 1 findings or failures, 2 invalid input or usage.")
}
