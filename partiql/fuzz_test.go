package partiql

import (
	"testing"

	"stwb/model"
)

// FuzzParse holds the parser to its rules: no input panics or hangs, every
// refusal is a ValidationException with a message, and a statement's values can be
// read with as many parameters as it counts. Seeds are in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, src string) {
		st, err := Parse(src)
		if err != nil {
			if err.Type != ValidationException || err.Message == "" {
				t.Fatalf("%q: error %#v", src, err)
			}
			return
		}
		params := make([]model.Value, st.Params)
		for i := range params {
			params[i] = model.Str("p")
		}
		if st.Value != nil {
			Value(st.Value, params)
		}
		for _, a := range st.Actions {
			if a.Value != nil {
				Value(a.Value, params)
			}
		}
		_ = st.At(len(src), 1)
	})
}
