package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"stwb/render"
	"stwb/samples"
)

func runSamplesCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// The command-line contract of `stwb samples` and `stwb sample` (issue 4, FORMAT.md
// "Command-line contract": 0 success, 2 invalid input or usage).
func TestSamplesCommands(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "mine.yaml")
	if err := os.WriteFile(existing, []byte("version: 1\n# someone's design\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	orders, _ := samples.Get("orders")
	video, _ := samples.Get("video-views")
	tests := []struct {
		name    string
		args    []string
		code    int
		out     string // exact stdout, when not empty
		errHas  []string
		file    string // a file that must then hold want
		want    []byte
		outHave []string
	}{
		{name: "list", args: []string{"samples"}, code: 0, out: render.Samples(samples.List())},
		{name: "list takes no arguments", args: []string{"samples", "orders"}, code: 2, errHas: []string{"usage: stwb samples"}},
		{name: "to stdout", args: []string{"sample", "orders"}, code: 0, out: string(orders.Data)},
		{name: "-o - is stdout", args: []string{"sample", "orders", "-o", "-"}, code: 0, out: string(orders.Data)},
		{name: "unknown name lists the names", args: []string{"sample", "order"}, code: 2,
			errHas: []string{`no sample named "order"`, "  orders\n", "  relational-reflex\n"}},
		{name: "no name", args: []string{"sample"}, code: 2, errHas: []string{"usage: stwb sample NAME"}},
		{name: "two names", args: []string{"sample", "orders", "video-views"}, code: 2, errHas: []string{"usage: stwb sample NAME"}},
		{name: "to a new file", args: []string{"sample", "video-views", "-o", filepath.Join(dir, "new.yaml")}, code: 0,
			file: filepath.Join(dir, "new.yaml"), want: video.Data, errHas: []string{"wrote"}},
		{name: "an existing file is kept", args: []string{"sample", "orders", "-o", existing}, code: 2,
			errHas: []string{"exists; pass --force"}, file: existing, want: []byte("version: 1\n# someone's design\n")},
		{name: "--force replaces it", args: []string{"sample", "--force", "-o", existing, "orders"}, code: 0,
			file: existing, want: orders.Data},
		{name: "a directory that does not exist", args: []string{"sample", "orders", "-o", filepath.Join(dir, "no", "such", "x.yaml")}, code: 1,
			errHas: []string{"x.yaml"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errText := runSamplesCmd(tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.code, errText)
			}
			if tt.out != "" && out != tt.out {
				t.Errorf("stdout differs:\n%s", out)
			}
			for _, s := range tt.errHas {
				if !strings.Contains(errText, s) {
					t.Errorf("stderr lacks %q:\n%s", s, errText)
				}
			}
			if tt.file != "" {
				got, err := os.ReadFile(tt.file)
				if err != nil || !bytes.Equal(got, tt.want) {
					t.Errorf("%s holds %d bytes (err %v), want the %d expected", tt.file, len(got), err, len(tt.want))
				}
			}
		})
	}
}

func TestSamplesJSON(t *testing.T) {
	code, out, errText := runSamplesCmd("samples", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errText)
	}
	var rows []sampleJSON
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	list := samples.List()
	if len(rows) != len(list) {
		t.Fatalf("%d rows, want %d", len(rows), len(list))
	}
	for i, s := range list {
		if want := (sampleJSON{s.Name, s.Title, s.Patterns, s.Items}); rows[i] != want {
			t.Errorf("row %d = %+v, want %+v", i, rows[i], want)
		}
	}
}
