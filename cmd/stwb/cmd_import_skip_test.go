package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"stwb/designfile"
)

// `stwb import --format dynamodb-json DATA --into DESIGN` with an item holding a
// byte that is not UTF-8 (issue 15): refused, naming file:line and the JSON path,
// the design untouched, --skip-invalid suggested; with --skip-invalid the valid
// items are added and the invalid one is listed with its line and path, as the
// Workbench importer's --skip-invalid lists a model's.
func TestImportDynamoDBJSONSkipInvalid(t *testing.T) {
	dir := t.TempDir()
	design := deviceDesign(t, dir)
	before, _ := os.ReadFile(design)
	data := filepath.Join(dir, "scan.json")
	os.WriteFile(data, []byte("{\"Items\": [\n"+
		"{\"DeviceID\": {\"S\": \"d#90\"}, \"State#Date\": {\"S\": \"NORMAL#2021\"}},\n"+
		"{\"DeviceID\": {\"S\": \"d#91\"}, \"State#Date\": {\"S\": \"Z\xfcrich\"}},\n"+
		"{\"DeviceID\": {\"S\": \"d#92\"}, \"State#Date\": {\"S\": \"NORMAL#2022\"}}\n]}\n"), 0o644)

	code, _, errText := runCmd(t, "", "import", "--format", "dynamodb-json", data, "--into", design)
	for _, want := range []string{data + ":3: $.Items[1][\"State#Date\"].S: byte 0xfc", "nothing was imported (--skip-invalid imports the valid items"} {
		if code != 2 || !strings.Contains(errText, want) {
			t.Errorf("without --skip-invalid: exit %d, stderr lacks %q:\n%s", code, want, errText)
		}
	}
	if after, _ := os.ReadFile(design); !bytes.Equal(after, before) {
		t.Fatal("a refused import changed the design")
	}

	code, _, errText = runCmd(t, "", "import", "--format", "dynamodb-json", data, "--into", design, "--skip-invalid")
	if code != 0 {
		t.Fatalf("with --skip-invalid: exit %d\n%s", code, errText)
	}
	for _, want := range []string{"left out the invalid items of " + data, "skipped " + data + ":3: $.Items[1]: byte 0xfc at line 3, column 51 ($.Items[1][\"State#Date\"].S) is not UTF-8", "2 items added"} {
		if !strings.Contains(errText, want) {
			t.Errorf("with --skip-invalid: stderr lacks %q:\n%s", want, errText)
		}
	}
	d, err := designfile.Load(design)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, it := range d.Items {
		ids[it["DeviceID"].Str] = true
	}
	if !ids["d#90"] || !ids["d#92"] || ids["d#91"] {
		t.Errorf("design items %v: want d#90 and d#92 added, d#91 left out", ids)
	}
}
