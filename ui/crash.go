package ui

import (
	"fmt"
	"os"
	"runtime/debug"
)

// writeCrash writes a panic's value, its stack and the build's record to a new
// file in dir, for the user to send with a report, and returns the file's name (or,
// when it cannot be written, why, so the status line still says something true).
func writeCrash(dir string, r any, stack []byte) string {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "(no crash file: " + err.Error() + ")"
	}
	f, err := os.CreateTemp(dir, "stwb-crash-*.txt")
	if err != nil {
		return "(no crash file: " + err.Error() + ")"
	}
	defer f.Close()
	fmt.Fprintf(f, "stwb: a panic while handling a message: %v\n\n%s\n", r, stack)
	if info, ok := debug.ReadBuildInfo(); ok {
		fmt.Fprintf(f, "%s", info)
	}
	return f.Name()
}
