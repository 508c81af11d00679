package main

import (
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// subcommands are the commands stwb defines (cobra's help and completion left out).
func subcommands(t *testing.T) []*cobra.Command {
	t.Helper()
	cmds := newRootCmd(&env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}).Commands()
	if len(cmds) < 11 {
		t.Fatalf("only %d commands registered", len(cmds))
	}
	return cmds
}

// Every command says what it is, what it reads and writes, and how it is used.
func TestEveryCommandIsDocumented(t *testing.T) {
	for _, c := range subcommands(t) {
		if c.Short == "" || len(c.Long) < 80 || !strings.Contains(c.Example, "stwb "+c.Name()) {
			t.Errorf("stwb %s: Short %q, Long %d bytes, Example %q; want all three, the examples using the command", c.Name(), c.Short, len(c.Long), c.Example)
		}
		if strings.Contains(c.Short, "\n") || strings.HasSuffix(c.Short, ".") {
			t.Errorf("stwb %s: Short %q is not one line without a full stop", c.Name(), c.Short)
		}
	}
}

// stwb CMD --help, stwb CMD -help, stwb CMD -h and stwb help CMD print the command's
// help to standard output and exit 0.
func TestHelpExitsZero(t *testing.T) {
	for _, c := range append(subcommands(t), &cobra.Command{Use: ""}) {
		name := c.Name()
		forms := [][]string{{"--help"}, {"-h"}, {"-help"}, {"help"}}
		if name != "" {
			forms = [][]string{{name, "--help"}, {name, "-h"}, {name, "-help"}, {"help", name}, {name, "x.yaml", "--help"}}
		}
		for _, args := range forms {
			code, out, errText := runSamplesCmd(args...)
			if code != 0 || errText != "" {
				t.Errorf("stwb %s: exit %d, stderr %q; want 0 and nothing", strings.Join(args, " "), code, errText)
				continue
			}
			want := []string{"Usage:", "stwb " + name, "Examples:", "--help"}
			for _, w := range want {
				if !strings.Contains(out, w) {
					t.Errorf("stwb %s: help lacks %q:\n%s", strings.Join(args, " "), w, out)
				}
			}
		}
	}
}

// The top-level help lists every command, its summary in one aligned column.
func TestTopLevelHelpListsTheCommands(t *testing.T) {
	code, out, _ := runSamplesCmd("help")
	if code != 0 {
		t.Fatalf("stwb help: exit %d", code)
	}
	col := -1
	for _, c := range subcommands(t) {
		i := strings.Index(out, "\n  "+c.Name()+" ")
		if i < 0 {
			t.Errorf("stwb help does not list %s:\n%s", c.Name(), out)
			continue
		}
		line, _, _ := strings.Cut(out[i+1:], "\n")
		at := strings.Index(line, c.Short)
		if at < 0 || col >= 0 && at != col {
			t.Errorf("stwb help: %q: the summary is not in the column of the others (%d)", line, col)
		}
		col = at
	}
}

// A mistyped command is an error naming the command meant, not a new design.
func TestUnknownCommandSuggests(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, c := range []struct{ arg, want string }{{"chek", "check"}, {"serv", "serve"}, {"exprot", "export"}, {"smaples", "samples"}} {
		code, out, errText := runSamplesCmd(c.arg)
		if code != 2 || out != "" || !strings.HasPrefix(errText, "stwb: unknown command \""+c.arg+"\"") || !strings.Contains(errText, "Did you mean this?\n\t"+c.want) {
			t.Errorf("stwb %s: exit %d, stdout %q, stderr %q; want 2 and a suggestion of %s", c.arg, code, out, errText, c.want)
		}
		if _, err := os.Stat(c.arg); err == nil {
			t.Errorf("stwb %s created a file", c.arg)
		}
	}
	if code, _, errText := runSamplesCmd("a.yaml", "b.yaml"); code != 2 || !strings.Contains(errText, "the workbench takes one design file") {
		t.Errorf("stwb a.yaml b.yaml: exit %d, %q", code, errText)
	}
}

// What opens the workbench rather than being taken for a mistyped command.
func TestLooksLikeDesign(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "chek")
	if err := os.WriteFile(existing, []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for arg, want := range map[string]bool{
		"new.yaml": true, "new.yml": true, "chek": true, // exists in dir
		existing: true, "sub/new": true, "chekk": false, "check.json": false,
	} {
		if got := looksLikeDesign(arg); got != want {
			t.Errorf("looksLikeDesign(%q) = %v, want %v", arg, got, want)
		}
	}
}

// stwb --version prints the build's version and exits 0.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"-v"}, {"-version"}} {
		code, out, errText := runSamplesCmd(args...)
		if code != 0 || errText != "" || out != "stwb "+version()+"\n" {
			t.Errorf("stwb %s: exit %d, %q, %q", args[0], code, out, errText)
		}
	}
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	rev := "0123456789abcdef0123456789abcdef01234567"
	cases := []struct {
		info debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3 (go1.26.8)"},
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}, Settings: vcs("vcs.revision", rev)}, "v1.2.3 (go1.26.8)"},
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", rev, "vcs.time", "2026-12-01T22:00:00Z")}, "0123456789ab 2026-12-01T22:00:00Z (go1.26.8)"},
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261201220000-0123456789ab+dirty"}, Settings: vcs("vcs.revision", rev, "vcs.time", "2026-12-01T22:00:00Z", "vcs.modified", "true")}, "0123456789ab 2026-12-01T22:00:00Z +dirty (go1.26.8)"},
		{debug.BuildInfo{Main: debug.Module{}}, "(devel)"},
	}
	for _, c := range cases {
		if got := versionOf(&c.info); got != c.want {
			t.Errorf("versionOf(%+v) = %q, want %q", c.info, got, c.want)
		}
	}
}

// stwb completion SHELL prints a script for the shell; the dynamic completions give
// design files, sample names, formats and pattern ids.
func TestCompletion(t *testing.T) {
	for shell, marker := range map[string]string{"bash": "__start_stwb", "zsh": "#compdef stwb", "fish": "complete -c stwb", "powershell": "Register-ArgumentCompleter"} {
		code, out, errText := runSamplesCmd("completion", shell)
		if code != 0 || errText != "" || !strings.Contains(out, marker) {
			t.Errorf("stwb completion %s: exit %d, stderr %q, %d bytes without %q", shell, code, errText, len(out), marker)
		}
	}
	orders := writeSample(t, "orders")
	cases := []struct {
		args []string
		want []string // lines of the completion, the directive last
	}{
		{[]string{"check", ""}, []string{"yaml", "yml", ":8"}},
		{[]string{"sample", "ord"}, []string{"orders", ":4"}},
		{[]string{"export", orders, "--format", ""}, []string{"cloudformation", "terraform", "dynamodb-json", ":4"}},
		{[]string{"import", "--format", ""}, []string{"workbench", "dynamodb-json", ":4"}},
		{[]string{"query", orders, ""}, []string{"1\t", "2\t", ":4"}},
		{[]string{"cost", orders, "--vs", ""}, []string{"yaml", ":8"}},
	}
	for _, c := range cases {
		code, out, _ := runSamplesCmd(append([]string{cobra.ShellCompRequestCmd}, c.args...)...)
		if code != 0 {
			t.Errorf("completing %q: exit %d", c.args, code)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("completing %q: no %q in\n%s", c.args, w, out)
			}
		}
	}
}

// Flags are POSIX double-dash, and the single-dash long forms Go's flag package
// took still work; a flag's value is never rewritten.
func TestSingleDashLongFlags(t *testing.T) {
	_, want, _ := runSamplesCmd("samples", "--json")
	if code, out, errText := runSamplesCmd("samples", "-json"); code != 0 || out != want {
		t.Errorf("stwb samples -json: exit %d, %q, %q; want what --json gives", code, out, errText)
	}
	orders := writeSample(t, "orders")
	_, want, _ = runSamplesCmd("query", orders, "2", "--json")
	if code, out, _ := runSamplesCmd("query", "-json", orders, "2"); code != 0 || out != want {
		t.Errorf("stwb query -json FILE 2: exit %d, %q", code, out)
	}
	root := newRootCmd(&env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard})
	for _, c := range []struct{ in, want []string }{
		{[]string{"export", "f.yaml", "-format", "go", "-o", "-json"}, []string{"export", "f.yaml", "--format", "go", "-o", "-json"}},
		{[]string{"deploy", "-endpoint=http://x", "-table", "-yes", "-yes"}, []string{"deploy", "--endpoint=http://x", "--table", "-yes", "--yes"}},
		{[]string{"check", "--", "-json"}, []string{"check", "--", "-json"}},
		{[]string{"-version"}, []string{"--version"}},
		{[]string{"check", "-version"}, []string{"check", "-version"}},
		{[]string{"check", "-nosuch", "-", "-help"}, []string{"check", "-nosuch", "-", "--help"}},
	} {
		if got := posixArgs(root, c.in); !slices.Equal(got, c.want) {
			t.Errorf("posixArgs(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Each of deploy, verify and teardown has its own flags: another's is refused.
// Every usage error begins `stwb CMD:` and exits 2.
func TestUsageErrorsNameTheCommand(t *testing.T) {
	orders := writeSample(t, "orders")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"teardown", orders, "--replace"}, "stwb teardown: unknown flag: --replace"},
		{[]string{"teardown", orders, "--json"}, "stwb teardown: unknown flag: --json"},
		{[]string{"verify", orders, "--yes"}, "stwb verify: unknown flag: --yes"},
		{[]string{"deploy", orders, "--json"}, "stwb deploy: unknown flag: --json"},
		{[]string{"check"}, "stwb check: usage: stwb check FILE [flags]"},
		{[]string{"query", orders, "x"}, "stwb query: pattern id \"x\" is not a number"},
		{[]string{"export", orders}, "stwb export: --format is required"},
		{[]string{"samples", "--nope"}, "stwb samples: unknown flag: --nope"},
		{[]string{"cost", "-", "--vs", "-"}, "stwb cost: only one of FILE and --vs"},
		{[]string{"serve", "a.yaml", "b.yaml"}, "stwb serve: usage: stwb serve [FILE] [flags]"},
	}
	for _, c := range cases {
		code, out, errText := runSamplesCmd(c.args...)
		if code != 2 || out != "" || !strings.HasPrefix(errText, c.want) || !strings.Contains(errText, "--help' for usage") {
			t.Errorf("stwb %s: exit %d, stdout %q, stderr %q; want 2 and %q", strings.Join(c.args, " "), code, out, errText, c.want)
		}
	}
}
