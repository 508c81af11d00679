package expr

import (
	"errors"
	"testing"
)

// The fuzz targets hold every parser to three rules: no input panics; every error is
// an *Error of type ValidationException with a message; and what compiles can be run
// on an item holding every value type without panicking or changing the item. Seeds
// are in testdata/fuzz/<target>.

func checkFuzzErr(t *testing.T, src string, err error) bool {
	t.Helper()
	if err == nil {
		return false
	}
	var e *Error
	if !errors.As(err, &e) || e.Type != ValidationException || e.Message == "" {
		t.Fatalf("%q: error %#v is not a ValidationException", src, err)
	}
	return true
}

func FuzzParseCondition(f *testing.F) {
	f.Fuzz(func(t *testing.T, src string) {
		c, err := CompileFilter(src, newTestContext())
		if checkFuzzErr(t, src, err) {
			return
		}
		item := testItem()
		c.Eval(item)
		c.Eval(nil)
		if !item.Equal(testItem()) {
			t.Fatalf("%q: Eval changed the item", src)
		}
	})
}

func FuzzParseKeyCondition(f *testing.F) {
	f.Fuzz(func(t *testing.T, src string) {
		for _, schema := range []KeySchema{schemaSN, schemaNN, schemaP, schemaB} {
			k, err := CompileKeyCondition(src, newTestContext(), schema)
			if checkFuzzErr(t, src, err) {
				continue
			}
			if k.PartitionName != schema.Partition {
				t.Fatalf("%q: partition %q, schema %q", src, k.PartitionName, schema.Partition)
			}
			for _, v := range testItem() {
				k.MatchSort(v)
			}
		}
	})
}

func FuzzParseProjection(f *testing.F) {
	f.Fuzz(func(t *testing.T, src string) {
		p, err := CompileProjection(src, newTestContext())
		if checkFuzzErr(t, src, err) {
			return
		}
		item := testItem()
		p.Apply(item)
		if !item.Equal(testItem()) {
			t.Fatalf("%q: Apply changed the item", src)
		}
	})
}

func FuzzParseUpdate(f *testing.F) {
	f.Fuzz(func(t *testing.T, src string) {
		u, err := CompileUpdate(src, newTestContext())
		if checkFuzzErr(t, src, err) {
			return
		}
		item := testItem()
		_, err = u.Apply(item)
		checkFuzzErr(t, src, err)
		if !item.Equal(testItem()) {
			t.Fatalf("%q: Apply changed the item", src)
		}
		_, err = u.Apply(nil)
		checkFuzzErr(t, src, err)
	})
}
