package main

import "io"

// runWorkbench opens the terminal workbench. Until the ui package lands it prints
// the usage.
func runWorkbench(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	usage(stdout)
	return 0
}
