package expr

import (
	"errors"
	"testing"

	"stwb/model"
)

// testNames and testValues are the ExpressionAttributeNames and Values every table
// of this package's tests draws from.
var testNames = map[string]string{
	"#st": "status", "#n": "n", "#m": "m", "#pk": "pk", "#sk": "sk", "#dot": "a.b",
	"#l": "l", "#x": "x",
}

var testValues = map[string]model.Value{
	":s":      model.Str("héllo"),
	":hel":    model.Str("hé"),
	":a":      model.Str("a"),
	":b":      model.Str("b"),
	":z":      model.Str("z"),
	":empty":  model.Str(""),
	":n1":     model.Num("1"),
	":n2":     model.Num("2"),
	":n3":     model.Num("3"),
	":n5":     model.Num("5"),
	":n10":    model.Num("10"),
	":n1e1":   model.Num("1E1"),
	":n100":   model.Num("100"),
	":neg":    model.Num("-3.5"),
	":big":    model.Num("99999999999999999999999999999999999999"),
	":tiny":   model.Num("1E-130"),
	":tiny9":  model.Num("9E-131"),
	":bin":    model.Bin([]byte{1, 2}),
	":bin3":   model.Bin([]byte{3}),
	":true":   model.Bool(true),
	":null":   model.Null(),
	":ss":     model.StrSet("a", "b"),
	":ssc":    model.StrSet("c"),
	":ns":     model.NumSet("1", "2"),
	":ns3":    model.NumSet("3"),
	":bs":     model.BinSet([]byte{9}),
	":list":   model.List(model.Str("q")),
	":map":    model.Map(map[string]model.Value{"k": model.Str("v")}),
	":tS":     model.Str("S"),
	":tN":     model.Str("N"),
	":tSS":    model.Str("SS"),
	":tM":     model.Str("M"),
	":tBad":   model.Str("STRING"),
	":active": model.Str("active"),
}

// testItem holds every attribute value type.
func testItem() model.Item {
	return model.Item{
		"pk":     model.Str("P#1"),
		"sk":     model.Str("S#1"),
		"n":      model.Num("10"),
		"s":      model.Str("héllo"),
		"u":      model.Str("é𝄞"),
		"b":      model.Bin([]byte{1, 2, 3}),
		"t":      model.Bool(true),
		"z":      model.Null(),
		"ss":     model.StrSet("a", "b"),
		"ns":     model.NumSet("1", "2"),
		"bs":     model.BinSet([]byte{9}, []byte{8}),
		"l":      model.List(model.Str("a"), model.Num("1"), model.Map(map[string]model.Value{"x": model.Num("1")})),
		"status": model.Str("active"),
		"a.b":    model.Str("dotted"),
		"m": model.Map(map[string]model.Value{
			"a": model.Map(map[string]model.Value{
				"b": model.List(model.Num("1"), model.Num("2"), model.Map(map[string]model.Value{"c": model.Str("deep")})),
			}),
			"e": model.Map(nil),
		}),
	}
}

func newTestContext() *Context { return NewContext(testNames, testValues) }

// checkErr compares an error with the wanted DynamoDB message ("" for no error);
// every error of this package must be an *Error of type ValidationException.
func checkErr(t *testing.T, src string, err error, want string) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatalf("%q: unexpected error %v", src, err)
		}
		return
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%q: error %v (%T), want *Error %q", src, err, err, want)
	}
	if e.Type != ValidationException || e.Message != want {
		t.Fatalf("%q:\n got: %s: %s\nwant: ValidationException: %s", src, e.Type, e.Message, want)
	}
}
