package designfile

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"stwb/model"
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
			var list model.ErrorList
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
		out, err := fileOf(d).Marshal()
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		d2, err := Parse("f.yaml", out)
		if err != nil {
			t.Fatalf("the saved file does not load: %v\n%s", err, out)
		}
		out2, err := fileOf(d2).Marshal()
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("saving is not stable:\n%s\n---\n%s", out, out2)
		}
	})
}

// FuzzFastItems holds the items fast path to yaml.v3: for any item line the fast path
// takes, both must agree on the items (or both reject the file). Seeds:
// testdata/fuzz/FuzzFastItems.
func FuzzFastItems(f *testing.F) {
	recoverPanics = false
	f.Fuzz(func(t *testing.T, line string) {
		data := []byte("version: 1\ntable: {name: tbl, key: {partition: PK}}\nitems:\n  - {PK: k, " + line + "}\n  - {PK: j}\n")
		if splitItems(newDecoder(""), data) == nil {
			return
		}
		fast, err1 := parse("f.yaml", data, true)
		slow, err2 := parse("f.yaml", data, false)
		switch {
		case (err1 == nil) != (err2 == nil):
			t.Fatalf("fast path error %v, yaml.v3 error %v", err1, err2)
		case err1 != nil && err1.Error() != err2.Error() &&
			// yaml.v3 sees the file with the item lines blanked, so its syntax errors
			// may be worded differently; that both reject it is what counts.
			!strings.Contains(err1.Error()+err2.Error(), "YAML syntax"):
			t.Fatalf("errors differ:\n%v\n%v", err1, err2)
		case err1 == nil && !reflect.DeepEqual(fast.Items, slow.Items):
			t.Fatalf("items differ:\n%#v\n%#v", fast.Items, slow.Items)
		}
	})
}
