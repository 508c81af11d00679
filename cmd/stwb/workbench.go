package main

import (
	"fmt"
	"os"
	"path/filepath"

	tea "github.com/charmbracelet/bubbletea"

	"stwb/samples"
	"stwb/ui"
)

// runWorkbench opens the terminal workbench: stwb [FILE]. With no FILE it opens the
// orders sample, unsaved; a FILE that does not exist is created on first save.
func runWorkbench(args []string, e *env) int {
	stdin, stdout, stderr := e.stdin, e.stdout, e.stderr
	var doc *ui.Doc
	var err error
	if len(args) == 0 {
		doc, err = ui.OpenSample(samples.Default)
	} else {
		// The file is read and parsed in the background so the first frame is
		// immediate even for a design of a hundred thousand items.
		doc, err = ui.Loading(args[0])
	}
	if err != nil {
		fmt.Fprintf(stderr, "stwb: %v\n", err)
		return 2
	}
	m := ui.New(doc, ui.Options{KeyMap: ui.DefaultKeyMap(), Styles: ui.NewStyles(ui.DefaultTheme()), CrashDir: crashDir()})
	opts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithMouseCellMotion()}
	if f, ok := stdin.(*os.File); ok {
		opts = append(opts, tea.WithInput(f))
	}
	if f, ok := stdout.(*os.File); ok {
		opts = append(opts, tea.WithOutput(f))
	}
	// ui.Run copies unsaved changes to the recovery copy when the program ends on an
	// error (a panic it caught, a kill), before anything exits.
	if err := ui.Run(tea.NewProgram(m, opts...), m); err != nil {
		fmt.Fprintf(stderr, "stwb: %v\n", err)
		return 1
	}
	if err := m.LoadErr(); err != nil {
		// Invalid input: every problem, one per line with file:line:col.
		fmt.Fprintf(stderr, "%v\n", err)
		return 2
	}
	return 0
}

// crashDir is where the workbench writes a crash file for the user to send: the
// user's cache directory (~/.cache/stwb on Linux), else the temporary directory.
func crashDir() string {
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "stwb")
	}
	return os.TempDir()
}
