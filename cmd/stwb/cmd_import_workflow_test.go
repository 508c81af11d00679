package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"stwb/designfile"
)

// Re-importing a NoSQL Workbench model into a design that holds patterns (issue
// 16): the patterns, the description, the comments survive; what changed is
// printed; a merge that breaks a pattern, and replacing a file that is not a
// design, are refused unless --force, and leave the file byte for byte as it was.

// devicePatterns are hand-written additions to the imported device-log design.
const devicePatterns = `# the access patterns, written by hand
patterns:
  - id: 1
    name: A device's states # most recent last
    operation: Query
    key: "DeviceID = :d"
    values: {":d": "d#12345"}
  - id: 2
    name: An operator's devices
    operation: Query
    index: GSI1
    key: "#o = :o"
    names: {"#o": Operator}
    values: {":o": Liz}
`

// deviceDesign imports DeviceStateLog_5 to dir/d.yaml and appends the patterns.
func deviceDesign(t *testing.T, dir string) string {
	t.Helper()
	design := filepath.Join(dir, "d.yaml")
	if code, _, errText := runCmd(t, "", "import", nwbFile("nwb/DeviceStateLog_5.json"), "-o", design, "--quiet"); code != 0 {
		t.Fatal(errText)
	}
	f, _ := os.OpenFile(design, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(devicePatterns)
	f.Close()
	return design
}

// editedModel writes DeviceStateLog_5 changed by edit to dir/name.
func editedModel(t *testing.T, dir, name string, edit func(table map[string]any)) string {
	t.Helper()
	data, err := os.ReadFile(nwbFile("nwb/DeviceStateLog_5.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	edit(m["DataModel"].([]any)[0].(map[string]any))
	out, _ := json.Marshal(m)
	path := filepath.Join(dir, name)
	os.WriteFile(path, out, 0o644)
	return path
}

func TestReimportKeepsPatterns(t *testing.T) {
	dir := t.TempDir()
	design := deviceDesign(t, dir)
	model1 := editedModel(t, dir, "m.json", func(tb map[string]any) {
		data := tb["TableData"].([]any)
		data[0].(map[string]any)["State"] = map[string]any{"S": "CHANGED"}
		tb["TableData"] = data[:len(data)-1] // one item removed
		tb["GlobalSecondaryIndexes"] = append(tb["GlobalSecondaryIndexes"].([]any), map[string]any{
			"IndexName":     "ByState",
			"KeyAttributes": map[string]any{"PartitionKey": map[string]any{"AttributeName": "State", "AttributeType": "S"}},
			"Projection":    map[string]any{"ProjectionType": "KEYS_ONLY"}})
	})
	for _, args := range [][]string{{"--into", design}, {"-o", design}} {
		t.Run(args[0], func(t *testing.T) {
			code, _, errText := runCmd(t, "", append([]string{"import", model1}, args...)...)
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, errText)
			}
			d, err := designfile.Load(design)
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Patterns) != 2 || d.Patterns[1].Index != "GSI1" {
				t.Fatalf("patterns not kept: %+v", d.Patterns)
			}
			if len(d.Items) != 10 || len(d.Table.Indexes) != 2 {
				t.Errorf("%d items, %d indexes; want the model's 10 and 2", len(d.Items), len(d.Table.Indexes))
			}
			text, _ := os.ReadFile(design)
			for _, s := range []string{"# the access patterns, written by hand", "# most recent last", "CHANGED"} {
				if !bytes.Contains(text, []byte(s)) {
					t.Errorf("the design lacks %q:\n%s", s, text)
				}
			}
		})
	}
	// The first run says what changed; the second finds nothing new.
	code, _, errText := runCmd(t, "", "import", editedModel(t, dir, "m2.json", func(tb map[string]any) {
		tb["GlobalSecondaryIndexes"] = tb["GlobalSecondaryIndexes"].([]any)[:1]
		tb["TableData"] = append(tb["TableData"].([]any), map[string]any{"DeviceID": map[string]any{"S": "d#1"}, "State#Date": map[string]any{"S": "NORMAL#2021"}})
	}), "--into", design)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errText)
	}
	for _, s := range []string{"merging into " + design + " (its 2 patterns kept)", "indexes removed: ByState", "items: 2 added, 1 changed, 0 removed"} {
		if !strings.Contains(errText, s) {
			t.Errorf("stderr lacks %q:\n%s", s, errText)
		}
	}
}

func TestReimportRefusesBrokenPatterns(t *testing.T) {
	cases := []struct {
		name   string
		edit   func(map[string]any)
		reason string
	}{
		{"index gone", func(tb map[string]any) { tb["GlobalSecondaryIndexes"] = []any{} },
			"pattern 2 (An operator's devices): its index GSI1 is gone"},
		{"key attribute renamed", func(tb map[string]any) {
			gsi := tb["GlobalSecondaryIndexes"].([]any)[0].(map[string]any)
			gsi["KeyAttributes"].(map[string]any)["PartitionKey"].(map[string]any)["AttributeName"] = "Op"
			for _, it := range tb["TableData"].([]any) {
				it := it.(map[string]any)
				it["Op"] = it["Operator"]
				delete(it, "Operator")
			}
		}, "pattern 2 (An operator's devices): its key names Operator, no longer a key attribute of index GSI1 (now Op, Date)"},
		{"table key renamed", func(tb map[string]any) {
			tb["KeyAttributes"].(map[string]any)["PartitionKey"].(map[string]any)["AttributeName"] = "Device"
			for _, it := range tb["TableData"].([]any) {
				it := it.(map[string]any)
				it["Device"] = it["DeviceID"]
				delete(it, "DeviceID")
			}
		}, "pattern 1 (A device's states): its key names DeviceID, no longer a key attribute of the table (now Device, State#Date)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			design := deviceDesign(t, dir)
			before, _ := os.ReadFile(design)
			m := editedModel(t, dir, "m.json", c.edit)
			code, _, errText := runCmd(t, "", "import", m, "--into", design)
			if code != 2 || !strings.Contains(errText, c.reason) || !strings.Contains(errText, "nothing was written") || !strings.Contains(errText, "--force") {
				t.Fatalf("exit %d\n%s", code, errText)
			}
			if after, _ := os.ReadFile(design); !bytes.Equal(before, after) {
				t.Fatal("the design changed although the merge was refused")
			}
		})
	}
	// --force merges a merge that leaves a valid design: the renamed key's pattern
	// is kept as written, and stwb check reports it.
	dir := t.TempDir()
	design := deviceDesign(t, dir)
	code, _, errText := runCmd(t, "", "import", editedModel(t, dir, "m.json", cases[1].edit), "--into", design, "--force")
	if code != 0 || !strings.Contains(errText, "broken by the merge (--force): pattern 2") {
		t.Fatalf("exit %d\n%s", code, errText)
	}
	if d, err := designfile.Load(design); err != nil || len(d.Patterns) != 2 {
		t.Fatalf("%v", err)
	}
}

func TestImportNeverReplacesAFileUnasked(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.yaml")
	os.WriteFile(notes, []byte("my notes: [not a design]\n"), 0o644)
	code, _, errText := runCmd(t, "", "import", nwbFile("nwb/DeviceStateLog_5.json"), "-o", notes)
	if code != 2 || !strings.Contains(errText, "is not a design") || !strings.Contains(errText, "--force") {
		t.Fatalf("exit %d\n%s", code, errText)
	}
	if b, _ := os.ReadFile(notes); string(b) != "my notes: [not a design]\n" {
		t.Fatal("the file was replaced")
	}
	code, _, errText = runCmd(t, "", "import", nwbFile("nwb/DeviceStateLog_5.json"), "-o", notes, "--force", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errText)
	}
	if _, err := designfile.Load(notes); err != nil {
		t.Fatal(err)
	}
	// --into DESIGN -o OTHER: an existing OTHER is replaced only with --force.
	design := deviceDesign(t, dir)
	other := filepath.Join(dir, "other.yaml")
	os.WriteFile(other, []byte("x: 1\n"), 0o644)
	code, _, errText = runCmd(t, "", "import", nwbFile("nwb/DeviceStateLog_5.json"), "--into", design, "-o", other)
	if code != 2 || !strings.Contains(errText, "other.yaml exists; pass --force") {
		t.Fatalf("exit %d\n%s", code, errText)
	}
	data := filepath.Join(dir, "items.json")
	os.WriteFile(data, []byte(`{"Item": {"DeviceID": {"S": "d#9"}, "State#Date": {"S": "NORMAL#2021"}}}`+"\n"), 0o644)
	code, _, errText = runCmd(t, "", "import", "--format", "dynamodb-json", data, "--into", design, "-o", other)
	if code != 2 || !strings.Contains(errText, "other.yaml exists; pass --force") {
		t.Fatalf("dynamodb-json: exit %d\n%s", code, errText)
	}
	if b, _ := os.ReadFile(other); string(b) != "x: 1\n" {
		t.Fatal("other.yaml was replaced")
	}
}

func TestImportMultiTableOntoYAMLName(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "X.yaml")
	code, _, errText := runCmd(t, "", "import", nwbFile("nwb3/TwoTables.json"), "-o", out)
	if code != 2 || !strings.Contains(errText, "must be a directory") {
		t.Fatalf("exit %d\n%s", code, errText)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("X.yaml was created")
	}
}

// Every problem of a model at once, each with its JSON path; nothing written; and
// --skip-invalid imports the rest and lists what it left out.
func TestImportReportsEveryProblem(t *testing.T) {
	dir := t.TempDir()
	var items []string
	for i := 0; i < 12; i++ {
		items = append(items, fmt.Sprintf(`{"pk": {"S": "p#%d"}, "car": {"M": {"autonomous_driving": {"M": {"is_enabled": {"BOOL": "yes"}}}}}}`, i))
	}
	items = append(items, `{"pk": {"S": "fine"}}`)
	m := filepath.Join(dir, "m.json")
	os.WriteFile(m, []byte(`{"ModelName": "cars", "DataModel": [{"TableName": "cars",
		"KeyAttributes": {"PartitionKey": {"AttributeName": "pk", "AttributeType": "S"}},
		"TableFacets": [{"FacetName": "car", "TableData": [`+strings.Join(items, ",\n")+`]}]}]}`), 0o644)
	out := filepath.Join(dir, "cars.yaml")
	code, _, errText := runCmd(t, "", "import", m, "-o", out)
	if code != 2 {
		t.Fatalf("exit %d\n%s", code, errText)
	}
	for i := 0; i < 12; i++ {
		want := fmt.Sprintf("m.json: $.DataModel[0].TableFacets[0].TableData[%d].car.M.autonomous_driving.M.is_enabled.BOOL: expected true or false, found a string\n", i)
		if !strings.Contains(errText, want) {
			t.Errorf("stderr lacks %q", want)
		}
	}
	if !strings.Contains(errText, "12 problems; nothing was written (--skip-invalid imports the valid items") {
		t.Errorf("no summary:\n%s", errText)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("a design was written although the model has errors")
	}
	code, _, errText = runCmd(t, "", "import", m, "-o", out, "--skip-invalid")
	if code != 0 || strings.Count(errText, "  skipped ") != 12 {
		t.Fatalf("exit %d\n%s", code, errText)
	}
	if d, err := designfile.Load(out); err != nil || len(d.Items) != 1 {
		t.Fatalf("%v", err)
	}
}

// Errors point at the input: a line that exists, and the format that reads a
// DynamoDB JSON file given to the Workbench importer.
func TestImportErrorsPointAtTheInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	cases := []struct {
		file string
		want []string
	}{
		{write("syntax.json", "{\n  \"ModelName\": \"x\",\n  \"DataModel\": [\n    {\"TableName\": \"t\",}\n  ]\n}\n"),
			[]string{"syntax.json:4:23: not valid JSON: invalid character '}'"}},
		{write("scan.json", `{"Items": [{"pk": {"S": "a"}}], "Count": 1, "ScannedCount": 1}`),
			[]string{"scan.json: $: missing DataModel", "not a NoSQL Workbench model", "stwb import --format dynamodb-json " + filepath.Join(dir, "scan.json") + " --into DESIGN.yaml"}},
		{write("batch.json", `{"DyGraph": [{"PutRequest": {"Item": {"pk": {"S": "a"}}}}]}`),
			[]string{"batch.json: $: missing DataModel", "--format dynamodb-json"}},
		{write("lines.json", "{\"Item\": {\"pk\": {\"S\": \"a\"}}}\n{\"Item\": {\"pk\": {\"S\": \"b\"}}}\n"),
			[]string{"lines.json:2:1: not valid JSON", "--format dynamodb-json"}},
		{write("emptygsi.json", `{"DataModel": [{"TableName": "tbl", "KeyAttributes": {"PartitionKey": {"AttributeName": "pk", "AttributeType": "S"}},
			"GlobalSecondaryIndexes": [{"IndexName": "GSI1", "KeyAttributes": {"PartitionKey": {"AttributeName": "g", "AttributeType": "S"}}}],
			"TableData": [{"pk": {"S": "a"}, "g": {"S": ""}}]}]}`),
			[]string{"emptygsi.json: $.DataModel[0].TableData[0]: One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty string value. IndexName: GSI1, IndexKey: g"}},
		{write("badname.json", `{"DataModel": [{"TableName": "t!", "KeyAttributes": {"PartitionKey": {"AttributeName": "pk", "AttributeType": "S"}}}]}`),
			[]string{`badname.json: $.DataModel[0]: table name "t!" is not a valid DynamoDB table name`}},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			code, _, errText := runCmd(t, "", "import", c.file)
			if code != 2 {
				t.Fatalf("exit %d\n%s", code, errText)
			}
			for _, w := range c.want {
				if !strings.Contains(errText, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errText)
				}
			}
			if strings.Contains(errText, ".yaml:") {
				t.Errorf("names a YAML file that does not exist:\n%s", errText)
			}
		})
	}
}

// DynamoDB JSON that does not match the design, or is not all of a table, gets a
// note; a syntax error names the line where it is.
func TestImportDynamoDBJSONNotes(t *testing.T) {
	dir := t.TempDir()
	design := deviceDesign(t, dir)
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	item := `{"DeviceID": {"S": "d#9"}, "State#Date": {"S": "NORMAL#2021"}}`
	cases := []struct {
		file string
		code int
		want string
	}{
		{write("page.json", `{"Items": [`+item+`], "Count": 1, "LastEvaluatedKey": {"DeviceID": {"S": "d#9"}, "State#Date": {"S": "NORMAL#2021"}}}`), 0,
			"page.json: the Scan did not finish (LastEvaluatedKey of the page at line 1 says more pages follow)"},
		{write("cli.json", `{"Items": [`+item+`], "NextToken": "eyJ4Ijp7fX0="}`), 0,
			"cli.json: the Scan did not finish (NextToken of the page at line 1 says more pages follow)"},
		{write("broken.json", "{\"Items\": [\n  {\"DeviceID\": {\"S\": \"d#9\"},\n   \"x\": }\n]}\n"), 2,
			"broken.json:3: not valid JSON: invalid character '}' looking for beginning of value"},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			code, _, errText := runCmd(t, "", "import", "--format", "dynamodb-json", c.file, "--into", design, "-o", filepath.Join(dir, "out.yaml"), "--force")
			if code != c.code || !strings.Contains(errText, c.want) {
				t.Fatalf("exit %d, want %d and %q:\n%s", code, c.code, c.want, errText)
			}
		})
	}
}

// BatchWriteItem requests for another table than the design's are refused, naming
// the file, both tables and --table; the design is left as it was. With --table
// naming the file's table they are imported (issue 15: they were taken silently).
func TestImportDynamoDBJSONOtherTable(t *testing.T) {
	dir := t.TempDir()
	design := deviceDesign(t, dir)
	before, _ := os.ReadFile(design)
	d0, err := designfile.Load(design)
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.json")
	item := `{"DeviceID": {"S": "d#9"}, "State#Date": {"S": "NORMAL#2021"}}`
	os.WriteFile(other, []byte(`{"DyGraph": [{"PutRequest": {"Item": `+item+`}}]}`), 0o644)

	for _, args := range [][]string{{}, {"--table", "Elsewhere"}, {"--quiet"}} {
		code, _, errText := runCmd(t, "", append([]string{"import", "--format", "dynamodb-json", other, "--into", design}, args...)...)
		want := other + ": the requests are for table DyGraph, but the design " + design + " is table DeviceStateLog; nothing was imported"
		if code != 2 || !strings.Contains(errText, want) || !strings.Contains(errText, "--table DyGraph") {
			t.Fatalf("%v: exit %d, want 2 and %q with --table DyGraph:\n%s", args, code, want, errText)
		}
		if after, _ := os.ReadFile(design); string(after) != string(before) {
			t.Fatalf("%v: the refused import changed the design", args)
		}
	}
	code, _, errText := runCmd(t, "", "import", "--format", "dynamodb-json", other, "--into", design, "--table", "DyGraph")
	if code != 0 || !strings.Contains(errText, "the requests are for table DyGraph (taken as --table asks)") {
		t.Fatalf("with --table DyGraph: exit %d:\n%s", code, errText)
	}
	if d, err := designfile.Load(design); err != nil || len(d.Items) != len(d0.Items)+1 {
		t.Fatalf("with --table DyGraph the item is not in the design: %v", err)
	}
}

// A model's saved queries (the DynamoDB Labs visualizer's SavedQuery) become
// patterns; re-imported with --into they are matched by name: the design's own
// pattern of that name stays as written, the others are added after its highest
// id, and importing again adds nothing.
func TestReimportSavedQueries(t *testing.T) {
	dir := t.TempDir()
	design := filepath.Join(dir, "f.yaml")
	model := nwbFile("visualizer/Flights.json")
	code, _, errText := runCmd(t, "", "import", model, "-o", design)
	if code != 0 || !strings.Contains(errText, "(6 items, 3 patterns)") {
		t.Fatalf("exit %d:\n%s", code, errText)
	}
	// The user rewrites pattern 2 and adds one of their own.
	text, _ := os.ReadFile(design)
	s := strings.Replace(string(text), "  - id: 2\n    name: Flight 150\n", "  - id: 2\n    name: Flight 150\n    rate: 40\n    limit: 1\n", 1)
	s += "  - id: 8\n    name: Every flight, nightly\n    operation: Scan\n    batch: true\n"
	os.WriteFile(design, []byte(s), 0o644)
	// The model loses its first saved query's name (renamed in the visualizer).
	data, _ := os.ReadFile(model)
	renamed := filepath.Join(dir, "m.json")
	os.WriteFile(renamed, bytes.Replace(data, []byte(`"Fares from SFO to JFK on Aug 1"`), []byte(`"Fares SFO-JFK, Aug 1"`), 1), 0o644)

	code, _, errText = runCmd(t, "", "import", renamed, "--into", design)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, errText)
	}
	if !strings.Contains(errText, "patterns added from the model's saved queries: 9 (Fares SFO-JFK, Aug 1)") {
		t.Errorf("no added patterns reported:\n%s", errText)
	}
	d, err := designfile.Load(design)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range d.Patterns {
		got = append(got, fmt.Sprintf("%d %s", p.ID, p.Name))
	}
	want := []string{"1 Fares from SFO to JFK on Aug 1", "2 Flight 150", "3 Flights into JFK with seats or full", "8 Every flight, nightly", "9 Fares SFO-JFK, Aug 1"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("patterns %q, want %q", got, want)
	}
	if p := d.Patterns[1]; p.Rate != 40 || p.Limit != 1 {
		t.Errorf("the user's pattern 2 changed: %+v", p)
	}
	before, _ := os.ReadFile(design)
	code, _, errText = runCmd(t, "", "import", renamed, "--into", design)
	after, _ := os.ReadFile(design)
	if code != 0 || !bytes.Equal(before, after) || strings.Contains(errText, "patterns added") {
		t.Errorf("a second import changed the design (exit %d):\n%s", code, errText)
	}
}
