package main

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"stwb/designfile"
	"stwb/engine"
	"stwb/internal/inputlimit"
	"stwb/internal/mapfile"
	"stwb/lazyload"
	"stwb/model"
)

// readDesign loads the design named on the command line; "-" reads standard input.
func readDesign(path string, stdin io.Reader) (*designfile.File, error) {
	data, err := readInput(path, stdin)
	if err != nil {
		return nil, err
	}
	return designfile.Parse(inputName(path), data)
}

// loadToQuery loads a design and its engine for a command that only runs the
// design's patterns, never changes or saves it: the file is mapped rather than
// copied (internal/mapfile), and its items are read once, into the engine's keys,
// and stay as text until a pattern reads them (lazyload.Load). A design of
// 100,000 items loads so in a fraction of the time and memory that maps would take.
// Problems are reported as readDesign and engine.Load report them. The
// design, the engine and everything read from them hold parts of the file: call
// release only when done with all of them, and read them only inside whileMapped.
func loadToQuery(path string, stdin io.Reader) (d *designfile.File, e *engine.Engine, release func(), err error) {
	data, release, err := mapInput(path, stdin)
	if err != nil {
		return nil, nil, nil, err
	}
	d, e, err = lazyload.Load(inputName(path), data)
	if err != nil {
		release()
		return nil, nil, nil, err
	}
	return d, e, release, nil
}

// mapInput is readInput for a file that is only read: mapped rather than copied
// (internal/mapfile). Call release when done with everything read from data.
func mapInput(path string, stdin io.Reader) (data []byte, release func(), err error) {
	if path == "-" {
		data, err = readInput(path, stdin)
		return data, func() {}, err
	}
	return mapfile.Read(path)
}

// whileMapped runs f, which reads a file mapped by loadToQuery, and reports the
// file changing under it as an error with exit status 2 instead of a crash: a
// memory fault (another program cut the file short) or an item line that no longer
// reads (another program wrote the file in place; designfile.ErrTextChanged).
func whileMapped(stderr io.Writer, path string, f func() int) (code int) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err, isErr := r.(error)
			if !mapfile.IsFault(r) && !(isErr && errors.Is(err, designfile.ErrTextChanged)) {
				panic(r)
			}
			fmt.Fprintf(stderr, "%s: the file changed while stwb was reading it; run the command again\n", path)
			code = 2
		}
	}()
	return f()
}

// readInput reads the file named on the command line, or standard input for "-".
func readInput(path string, stdin io.Reader) ([]byte, error) {
	if path == "-" {
		data, err := inputlimit.ReadAll(stdin, "standard input")
		if err != nil {
			return nil, fmt.Errorf("reading standard input: %w", err)
		}
		return data, nil
	}
	return inputlimit.ReadFile(path)
}

// inputName is how errors name what readInput read.
func inputName(path string) string {
	if path == "-" {
		return "<stdin>"
	}
	return path
}

// reportInvalid prints a load or validation error, one problem per line, each
// naming file:line:col, and returns exit status 2.
func reportInvalid(stderr io.Writer, err error) int {
	var list model.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			fmt.Fprintln(stderr, e.Error())
		}
		return 2
	}
	fmt.Fprintln(stderr, strings.TrimSpace(err.Error()))
	return 2
}

// usageError prints a usage problem of command cmd, as every usage problem is
// printed (stwb CMD: ...), and returns exit status 2.
func usageError(stderr io.Writer, cmd, format string, args ...any) int {
	fmt.Fprintf(stderr, "stwb %s: "+format+"\n", append([]any{cmd}, args...)...)
	fmt.Fprintf(stderr, "Run 'stwb %s --help' for usage.\n", cmd)
	return 2
}

// warnStaleTemps tells, for a command that only reads the design at path, of the
// temporary files an interrupted write left beside it (designfile.FindStaleTemps):
// it changes nothing, the next write or workbench open removes the superseded ones.
func warnStaleTemps(stderr io.Writer, path string) {
	if path == "-" {
		return
	}
	older, newer, _ := designfile.FindStaleTemps(path)
	for _, t := range older {
		fmt.Fprintf(stderr, "stwb: warning: %s is left from an interrupted write of %s, which was written completely since; delete it (the next write of the design does)\n", t, path)
	}
	warnNewerTemps(stderr, path, newer)
}

func warnNewerTemps(stderr io.Writer, path string, newer []string) {
	for _, t := range newer {
		fmt.Fprintf(stderr, "stwb: warning: %s is newer than %s: an interrupted save, or one in progress? look at it, then delete it\n", t, path)
	}
}

// writeDesignFile replaces the design at path with text atomically, first removing
// the temporary files of interrupted writes that a complete one superseded and
// naming newer ones (designfile.StaleTemps, the rule the workbench follows on open).
func writeDesignFile(stderr io.Writer, path string, text []byte) error {
	removed, newer, _ := designfile.StaleTemps(path)
	for _, t := range removed {
		fmt.Fprintf(stderr, "stwb: removed %s, left from an interrupted write of %s\n", t, path)
	}
	warnNewerTemps(stderr, path, newer)
	return designfile.WriteFileAtomic(path, text)
}
