package model

import (
	"bytes"
	"errors"
	"testing"
	"time"
)

// FuzzParse: no input panics, every error carries a position (a line, or an explicit
// whole-file mark), and a design that loads saves to a file that loads again to the
// same bytes. Seeds: testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	recoverPanics = false // a panic must fail the fuzz run, not become an error
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		d, err := Parse("f.yaml", data)
		if took := time.Since(start); took > 10*time.Second {
			t.Fatalf("parsing took %v", took)
		}
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %v (%T) is not an ErrorList", err, err)
			}
			for _, e := range list {
				if e.Pos.Line <= 0 && !e.WholeFile {
					t.Fatalf("error without a position: %v", e)
				}
			}
			return
		}
		out, err := Marshal(d)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		d2, err := Parse("f.yaml", out)
		if err != nil {
			t.Fatalf("the saved file does not load: %v\n%s", err, out)
		}
		out2, err := Marshal(d2)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("saving is not stable:\n%s\n---\n%s", out, out2)
		}
	})
}
