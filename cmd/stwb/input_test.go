package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"stwb/designfile"
	"stwb/internal/mapfile"
)

// A design file cut short by another program while stwb query holds it mapped is
// an error with exit status 2, not a crash.
func TestQueryReportsAFileCutShort(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.yaml")
	if err := os.WriteFile(path, bytes.Repeat([]byte("# padding\n"), 100000), 0o644); err != nil {
		t.Fatal(err)
	}
	data, release, err := mapfile.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	code := whileMapped(&errb, path, func() int {
		n := 0
		for _, c := range data { // reads past the file's new end
			n += int(c)
		}
		if n < 0 {
			return 1
		}
		return 0
	})
	if code != 2 || !strings.Contains(errb.String(), "changed while stwb was reading it") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	// An item line rewritten in place so that it no longer reads is reported too.
	errb.Reset()
	code = whileMapped(&errb, path, func() int { panic(fmt.Errorf("d.yaml:3:5: item 0: %w", designfile.ErrTextChanged)) })
	if code != 2 || !strings.Contains(errb.String(), "changed while stwb was reading it") {
		t.Fatalf("text changed: exit %d, stderr %q", code, errb.String())
	}
	// Any other panic is not swallowed.
	defer func() {
		if recover() == nil {
			t.Fatal("a panic that is not a fault was swallowed")
		}
	}()
	whileMapped(&errb, path, func() int { panic("a bug") })
}

// TestInputIsBounded: a device, a file past the input limit and an endless standard
// input end at once with exit 2 and a message naming the limit and how to raise it
// (internal/inputlimit), for every command that reads a design.
func TestInputIsBounded(t *testing.T) {
	t.Setenv("STWB_MAX_INPUT", "4KB")
	big := filepath.Join(t.TempDir(), "big.yaml")
	os.WriteFile(big, []byte("version: 1\n"+strings.Repeat("# padding\n", 1000)), 0o644)
	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip(err)
	}
	defer zero.Close()
	for _, cmd := range []string{"query", "check", "cost"} {
		for _, c := range []struct {
			arg   string
			stdin io.Reader
			want  string
		}{
			{"/dev/zero", nil, "/dev/zero is a device, not a file"},
			{big, nil, "big.yaml is 10KB, over stwb's limit of 4KB for one input; set STWB_MAX_INPUT="},
			{"-", zero, "standard input is more than 4KB, over stwb's limit of 4KB"},
		} {
			var out, errb bytes.Buffer
			start := time.Now()
			code := run([]string{cmd, c.arg}, c.stdin, &out, &errb)
			if code != 2 || !strings.Contains(errb.String(), c.want) {
				t.Errorf("stwb %s %s: exit %d, %q; want 2 and %q", cmd, c.arg, code, errb.String(), c.want)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("stwb %s %s took %v", cmd, c.arg, d)
			}
		}
	}
}
