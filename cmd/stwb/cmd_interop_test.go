package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"stwb/designfile"
	"stwb/interop"
)

// The command-line contract of `stwb import` and `stwb export` (issue 7, FORMAT.md
// "Command-line contract"): exit status 0 or 2, output to stdout or -o, messages
// that name the JSON path or line and say what to do, and files written whole or
// not at all.

// runCmd is cmd_query_test.go's.

func nwbFile(name string) string {
	return filepath.Join("..", "..", "interop", "testdata", name)
}

func TestImportCommand(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"DataModel": [{"TableName": "tbl", "KeyAttributes": {"PartitionKey": {"AttributeType": "S"}}}]}`), 0o644)
	cases := []struct {
		name    string
		args    []string
		code    int
		out     []string
		errText []string
	}{
		{"to stdout", []string{"import", nwbFile("nwb/DeviceStateLog_5.json")}, 0,
			[]string{"name: DeviceStateLog", "partition: DeviceID", "d#54321"}, []string{"note:"}},
		{"facets become entities", []string{"import", nwbFile("nwb/AnOnlineShop_facets.json"), "--quiet"}, 0,
			[]string{"typeAttribute: EntityType", "name: warehouseItem"}, nil},
		{"malformed names the path", []string{"import", bad}, 2, nil,
			[]string{"bad.json: $.DataModel[0].KeyAttributes.PartitionKey: missing AttributeName"}},
		{"several tables need a choice", []string{"import", nwbFile("nwb3/TwoTables.json")}, 2, nil,
			[]string{"the model has 2 tables (Events, Users)", "--table NAME", "-o DIR"}},
		{"pick a table", []string{"import", nwbFile("nwb3/TwoTables.json"), "--table", "Events"}, 0,
			[]string{"name: Events", "include: [kind]"}, nil},
		{"unknown table", []string{"import", nwbFile("nwb3/TwoTables.json"), "--table", "Nope"}, 2, nil,
			[]string{`no table "Nope"`, "Events, Users"}},
		{"missing file", []string{"import", filepath.Join(dir, "none.json")}, 2, nil, []string{"no such file"}},
		{"usage", []string{"import"}, 2, nil, []string{"usage:"}},
		{"dynamodb-json needs --into", []string{"import", "--format", "dynamodb-json", bad}, 2, nil, []string{"--into"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errText := runCmd(t, "", c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, out, errText)
			}
			for _, s := range c.out {
				if !strings.Contains(out, s) {
					t.Errorf("stdout lacks %q:\n%s", s, out)
				}
			}
			for _, s := range c.errText {
				if !strings.Contains(errText, s) {
					t.Errorf("stderr lacks %q:\n%s", s, errText)
				}
			}
		})
	}
}

func TestImportOneFilePerTable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	code, _, errText := runCmd(t, "", "import", nwbFile("nwb3/TwoTables.json"), "-o", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errText)
	}
	for _, name := range []string{"Users.yaml", "Events.yaml"} {
		d, err := designfile.Load(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(d.Items) != 2 {
			t.Errorf("%s: %d items", name, len(d.Items))
		}
	}
}

// Items from DynamoDB JSON go into the design whole, or not at all.
func TestImportDynamoDBJSONCommand(t *testing.T) {
	dir := t.TempDir()
	design := filepath.Join(dir, "d.yaml")
	code, _, errText := runCmd(t, "", "import", nwbFile("nwb/DeviceStateLog_5.json"), "-o", design, "--quiet")
	if code != 0 {
		t.Fatal(errText)
	}
	original, _ := os.ReadFile(design)
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte(`{"Item": {"DeviceID": {"S": "d#999"}, "State#Date": {"S": "NORMAL#2021-01-01T00:00:00"}, "Operator": {"S": "Ann"}}}
{"Item": {"DeviceID": {"S": "d#999"}, "State#Date": {"S": "NORMAL#2021-01-02T00:00:00"}}}
`), 0o644)
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"Items": [
  {"DeviceID": {"S": "d#1"}, "State#Date": {"S": "x"}},
  {"DeviceID": {"S": "d#2"}}
]}`), 0o644)

	code, _, errText = runCmd(t, "", "import", "--format", "dynamodb-json", good, bad, "--into", design)
	if code != 2 || !strings.Contains(errText, "bad.json:3: $.Items[1]: One or more parameter values were invalid: Missing the key State#Date in the item") ||
		!strings.Contains(errText, "nothing was imported") {
		t.Fatalf("exit %d\n%s", code, errText)
	}
	if now, _ := os.ReadFile(design); !bytes.Equal(now, original) {
		t.Fatal("the design changed although the import failed")
	}

	code, _, errText = runCmd(t, "", "import", good, "--into", design)
	if code != 0 || !strings.Contains(errText, "2 items added, 0 replaced; the design has 13 items (had 11)") {
		t.Fatalf("exit %d\n%s", code, errText)
	}
	d, err := designfile.Load(design)
	if err != nil || len(d.Items) != 13 {
		t.Fatalf("%v, %d items", err, len(d.Items))
	}
}

func TestExportCommand(t *testing.T) {
	orders := filepath.Join("..", "..", "samples", "orders.yaml")
	dir := t.TempDir()
	for _, f := range interop.Formats {
		t.Run(f.Name, func(t *testing.T) {
			code, out, errText := runCmd(t, "", "export", orders, "--format", f.Name)
			if code != 0 || out == "" {
				t.Fatalf("exit %d, %d bytes\n%s", code, len(out), errText)
			}
			// -o writes the same bytes (for a single-file format).
			if f.Name == "dynamodb-json" {
				return
			}
			target := filepath.Join(dir, "out."+f.Ext)
			if code, _, errText := runCmd(t, "", "export", orders, "--format", f.Name, "-o", target); code != 0 {
				t.Fatal(errText)
			}
			if got, _ := os.ReadFile(target); string(got) != out {
				t.Error("-o wrote other bytes than standard output")
			}
		})
	}
	t.Run("dynamodb-json to a directory", func(t *testing.T) {
		out := filepath.Join(dir, "batches")
		code, _, errText := runCmd(t, "", "export", orders, "--format", "dynamodb-json", "-o", out)
		if code != 0 {
			t.Fatal(errText)
		}
		files, _ := filepath.Glob(filepath.Join(out, "*.json"))
		d, _ := designfile.Load(orders)
		if want := (len(d.Items) + 24) / 25; len(files) != want {
			t.Fatalf("%d files, want %d", len(files), want)
		}
	})
	t.Run("refuses the design file", func(t *testing.T) {
		copyPath := filepath.Join(dir, "orders.yaml")
		src, _ := os.ReadFile(orders)
		os.WriteFile(copyPath, src, 0o644)
		code, _, errText := runCmd(t, "", "export", copyPath, "--format", "markdown", "-o", copyPath)
		if code != 2 || !strings.Contains(errText, "is the design file itself") {
			t.Fatalf("exit %d: %s", code, errText)
		}
		if now, _ := os.ReadFile(copyPath); !bytes.Equal(now, src) {
			t.Fatal("the design file was overwritten")
		}
	})
	t.Run("unknown format", func(t *testing.T) {
		code, _, errText := runCmd(t, "", "export", orders, "--format", "xml")
		if code != 2 || !strings.Contains(errText, `unknown export format "xml"`) {
			t.Fatalf("exit %d: %s", code, errText)
		}
	})
	t.Run("markdown carries the review", func(t *testing.T) {
		_, out, _ := runCmd(t, "", "export", orders, "--format", "markdown")
		for _, s := range []string{"## Access patterns", "## Entities and keys", "## Requests and results", "## Cost", "## Review"} {
			if !strings.Contains(out, s) {
				t.Errorf("no %q section", s)
			}
		}
	})
}

// workbench export then import, and dynamodb-json export then import, through the
// command line on every sample design.
func TestInteropRoundTripsOnSamples(t *testing.T) {
	samples, _ := filepath.Glob(filepath.Join("..", "..", "samples", "*.yaml"))
	if len(samples) == 0 {
		t.Skip("no samples")
	}
	for _, s := range samples {
		t.Run(filepath.Base(s), func(t *testing.T) {
			d, err := designfile.Load(s)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			wb := filepath.Join(dir, "model.json")
			if code, _, e := runCmd(t, "", "export", s, "--format", "workbench", "-o", wb, "--quiet"); code != 0 {
				t.Fatal(e)
			}
			back := filepath.Join(dir, "back.yaml")
			if code, _, e := runCmd(t, "", "import", wb, "-o", back, "--quiet"); code != 0 {
				t.Fatal(e)
			}
			b, err := designfile.Load(back)
			if err != nil {
				t.Fatal(err)
			}
			// A Workbench model has no multi-attribute keys: such an index is left
			// out of the export, with a note.
			indexes := 0
			for _, ix := range d.Table.Indexes {
				if !ix.Key.Multi() {
					indexes++
				}
			}
			if len(b.Items) != len(d.Items) || len(b.Entities) != len(d.Entities) || len(b.Table.Indexes) != indexes {
				t.Errorf("workbench round trip: %d items %d entities %d indexes, want %d %d %d",
					len(b.Items), len(b.Entities), len(b.Table.Indexes), len(d.Items), len(d.Entities), indexes)
			}
			batches := filepath.Join(dir, "batches")
			if code, _, e := runCmd(t, "", "export", s, "--format", "dynamodb-json", "-o", batches, "--quiet"); code != 0 {
				t.Fatal(e)
			}
			files, _ := filepath.Glob(filepath.Join(batches, "*.json"))
			// Import into the workbench round trip's design, whose items are the same:
			// every item replaces its twin and none is added.
			args := append([]string{"import", "--format", "dynamodb-json"}, files...)
			args = append(args, "--into", back)
			code, _, e := runCmd(t, "", args...)
			if code != 0 || !strings.Contains(e, "0 items added") {
				t.Fatalf("exit %d: %s", code, e)
			}
		})
	}
}
