package interop

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// checkImportError fails unless err is what ImportWorkbench promises: a syntax
// error with its line and column, or a non-empty list of problems, each naming a
// JSON path.
func checkImportError(t *testing.T, err error) {
	t.Helper()
	switch e := err.(type) {
	case *JSONSyntaxError:
		if e.Line < 1 || e.Col < 1 {
			t.Fatalf("syntax error without a place: %v", e)
		}
	case PathErrors:
		if len(e) == 0 {
			t.Fatal("an empty error list")
		}
		for _, pe := range e {
			if !strings.HasPrefix(pe.Path, "$") || pe.Msg == "" {
				t.Fatalf("a problem without a JSON path or message: %q %q", pe.Path, pe.Msg)
			}
		}
	default:
		t.Fatalf("error of type %T: %v", err, err)
	}
}

// twelveBad is a model whose items hold twelve invalid values between them, in
// facets and the table, nested and not (the shape of AWS's GamePlayerProfiles and
// ConnectedVehicles samples: a map written without its "M", numbers as JSON
// numbers, a bad value two maps deep).
func twelveBad() ([]byte, []string) {
	var items []string
	var want []string
	for i := 0; i < 4; i++ {
		items = append(items, fmt.Sprintf(`{"pk": {"S": "p#%d"}, "stats": {"HP": {"N": "10"}}, "level": {"N": %d},
			"car": {"M": {"autonomous_driving": {"M": {"is_enabled": {"BOOL": "yes"}, "ok": {"S": "x"}}}}}}`, i, i))
		base := fmt.Sprintf("$.DataModel[0].TableFacets[0].TableData[%d]", i)
		want = append(want,
			base+`.car.M.autonomous_driving.M.is_enabled.BOOL: expected true or false, found a string`,
			base+`.level.N: a number travels as a string in DynamoDB JSON: write {"N": "`+fmt.Sprint(i)+`"}`,
			base+`.stats: unknown attribute value type "HP"; use one of S, N, B, BOOL, NULL, L, M, SS, NS, BS`)
	}
	m := `{"ModelName": "m", "DataModel": [{"TableName": "tbl",
		"KeyAttributes": {"PartitionKey": {"AttributeName": "pk", "AttributeType": "S"}},
		"TableFacets": [{"FacetName": "f", "TableData": [` + strings.Join(items, ",") + `, {"pk": {"S": "good"}}]}]}]}`
	return []byte(m), want
}

func TestImportWorkbenchReportsEveryProblem(t *testing.T) {
	data, want := twelveBad()
	_, err := ImportWorkbench(data)
	checkImportError(t, err)
	var got []string
	for _, e := range err.(PathErrors) {
		got = append(got, e.Error())
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %d problems:\n%s\nwant %d:\n%s", len(got), strings.Join(got, "\n"), len(want), strings.Join(want, "\n"))
	}

	r, err := ImportWorkbenchWith(data, WorkbenchOptions{SkipInvalid: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Skipped) != 12 || len(r.Designs[0].Items) != 1 {
		t.Fatalf("%d skipped, %d items; want 12 and the one valid item", len(r.Skipped), len(r.Designs[0].Items))
	}
}

// Problems outside items are all reported too, and --skip-invalid does not skip
// them: an index or a table that cannot be read is not an item DynamoDB refuses.
func TestImportWorkbenchStructuralProblemsTogether(t *testing.T) {
	m := `{"DataModel": [
		{"TableName": "aaa", "KeyAttributes": {"PartitionKey": {"AttributeType": "S"}}},
		{"TableName": "bbb", "KeyAttributes": {"PartitionKey": {"AttributeName": "p", "AttributeType": "S"}},
		 "GlobalSecondaryIndexes": [{"IndexName": "g", "KeyAttributes": {"PartitionKey": {"AttributeName": "q", "AttributeType": "Q"}}}],
		 "TableFacets": [{"FacetName": 3}, {"FacetName": "f", "TableData": [{"q": {"S": "no key"}}]}]}]}`
	want := []string{
		"$.DataModel[0].KeyAttributes.PartitionKey: missing AttributeName",
		`$.DataModel[1].GlobalSecondaryIndexes[0].KeyAttributes.PartitionKey.AttributeType: unknown attribute type "Q"; use one of S, N, B, BOOL, NULL, L, M, SS, NS, BS`,
		"$.DataModel[1].TableFacets[0].FacetName: expected a string, found a number",
		"$.DataModel[1].TableFacets[1].TableData[0]: One or more parameter values were invalid: Missing the key p in the item",
	}
	for _, skip := range []bool{false, true} {
		_, err := ImportWorkbenchWith([]byte(m), WorkbenchOptions{SkipInvalid: skip})
		checkImportError(t, err)
		var got []string
		for _, e := range err.(PathErrors) {
			got = append(got, e.Error())
		}
		w := want
		if skip {
			w = want[:3]
		}
		if !slices.Equal(got, w) {
			t.Errorf("skip %v: got\n%s\nwant\n%s", skip, strings.Join(got, "\n"), strings.Join(w, "\n"))
		}
	}
}

// A syntax error names the line and column where reading stopped, not line 1.
func TestImportWorkbenchSyntaxErrorLine(t *testing.T) {
	data := []byte("{\n  \"ModelName\": \"x\",\n  \"DataModel\": [\n    {\"TableName\": \"t\",}\n  ]\n}\n")
	_, err := ImportWorkbench(data)
	se, ok := err.(*JSONSyntaxError)
	if !ok {
		t.Fatalf("%T %v", err, err)
	}
	if se.Line != 4 || se.Col != 23 {
		t.Errorf("at %d:%d, want 4:23 (%v)", se.Line, se.Col, se)
	}
	var x any
	if json.Unmarshal(data, &x) == nil {
		t.Fatal("the test input is valid JSON")
	}
}

// A byte that is not UTF-8 is a problem at its JSON path, line and column, not a
// U+FFFD in the design; every one is reported; --skip-invalid skips the items that
// hold one.
func TestImportWorkbenchInvalidUTF8(t *testing.T) {
	m := "{\"ModelName\": \"caf\xe9\", \"DataModel\": [{\"TableName\": \"tbl\",\n" +
		"\"KeyAttributes\": {\"PartitionKey\": {\"AttributeName\": \"pk\", \"AttributeType\": \"S\"}},\n" +
		"\"TableData\": [{\"pk\": {\"S\": \"a\"}}, {\"pk\": {\"S\": \"b\"}, \"name\": {\"S\": \"Jos\xe9\"}},\n" +
		"{\"pk\": {\"S\": \"\xff\"}}]}]}"
	_, err := ImportWorkbench([]byte(m))
	checkImportError(t, err)
	want := []string{
		"$.ModelName: byte 0xe9 at line 1, column 19 is not UTF-8",
		"$.DataModel[0].TableData[1].name.S: byte 0xe9 at line 3, column 72 is not UTF-8",
		"$.DataModel[0].TableData[2].pk.S: byte 0xff at line 4, column 15 is not UTF-8",
	}
	got := err.(PathErrors)
	if len(got) != len(want) {
		t.Fatalf("got %d problems:\n%v", len(got), got)
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i].Error(), w) {
			t.Errorf("got  %q\nwant %q...", got[i], w)
		}
	}
	// Without the bad model name, --skip-invalid imports the one good item.
	m = strings.Replace(m, "caf\xe9", "cafe", 1)
	r, err := ImportWorkbenchWith([]byte(m), WorkbenchOptions{SkipInvalid: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Designs[0].Items) != 1 || len(r.Skipped) != 2 {
		t.Fatalf("%d items, %d skipped", len(r.Designs[0].Items), len(r.Skipped))
	}
}
