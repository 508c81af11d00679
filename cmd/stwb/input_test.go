package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"stwb/internal/mapfile"
	"stwb/model"
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
	code = whileMapped(&errb, path, func() int { panic(fmt.Errorf("d.yaml:3:5: item 0: %w", model.ErrTextChanged)) })
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
