package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"stwb/samples"
)

func runCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func writeSample(t *testing.T, name string) string {
	t.Helper()
	s, ok := samples.Get(name)
	if !ok {
		t.Fatalf("no sample %s", name)
	}
	path := filepath.Join(t.TempDir(), name+".yaml")
	if err := os.WriteFile(path, s.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// queryResult is FORMAT.md's `stwb query --json` object, field by field.
type queryResult struct {
	ID               int                          `json:"id"`
	Operation        string                       `json:"operation"`
	Index            *string                      `json:"index"`
	Items            []map[string]json.RawMessage `json:"items"`
	Count            int                          `json:"count"`
	ScannedCount     int                          `json:"scannedCount"`
	LastEvaluatedKey map[string]map[string]any    `json:"lastEvaluatedKey"`
	ConsumedCapacity struct {
		CapacityUnits float64            `json:"capacityUnits"`
		Table         float64            `json:"table"`
		Indexes       map[string]float64 `json:"indexes"`
	} `json:"consumedCapacity"`
	Error *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// The query command's JSON is FORMAT.md's "Command-line contract" exactly: one
// object for one pattern, an array for all, DynamoDB JSON items in returned order.
func TestQueryJSONContract(t *testing.T) {
	path := writeSample(t, "orders")
	code, out, errText := runCmd(t, "", "query", path, "2", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errText)
	}
	var r queryResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	if r.ID != 2 || r.Operation != "Query" || r.Index != nil || r.Error != nil {
		t.Errorf("header fields: %+v", r)
	}
	if r.Count != 3 || r.ScannedCount != 3 || len(r.Items) != 3 {
		t.Errorf("count %d scanned %d items %d, want 3 3 3", r.Count, r.ScannedCount, len(r.Items))
	}
	// Newest first: ScanIndexForward=false on the date in the sort key.
	wantSK := []string{`{"S":"ORDER#2026-08-05#3c7d"}`, `{"S":"ORDER#2026-08-03#9f2a"}`, `{"S":"ORDER#2026-07-21#71be"}`}
	for i, it := range r.Items {
		if string(it["SK"]) != wantSK[i] {
			t.Errorf("item %d SK = %s, want %s", i, it["SK"], wantSK[i])
		}
	}
	if r.ConsumedCapacity.CapacityUnits != 0.5 || r.ConsumedCapacity.Table != 0.5 {
		t.Errorf("capacity = %+v, want 0.5 on the table", r.ConsumedCapacity)
	}

	code, out, _ = runCmd(t, "", "query", path, "--json")
	var all []queryResult
	if err := json.Unmarshal([]byte(out), &all); err != nil || code != 0 {
		t.Fatalf("every pattern: exit %d, %v", code, err)
	}
	d, _ := samples.Load("orders")
	if len(all) != len(d.Patterns) {
		t.Errorf("%d results for %d patterns", len(all), len(d.Patterns))
	}
	for i, r := range all {
		if r.ID != d.Patterns[i].ID {
			t.Errorf("result %d is pattern %d, want %d", i, r.ID, d.Patterns[i].ID)
		}
	}
}

func TestQueryIndexAndPages(t *testing.T) {
	path := writeSample(t, "orders")
	d, _ := samples.Load("orders")
	var gsi int
	for _, p := range d.Patterns {
		if p.Index == "GSI1" {
			gsi = p.ID
		}
	}
	code, out, _ := runCmd(t, "", "query", path, strconv.Itoa(gsi), "--json")
	var r queryResult
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 {
		t.Fatalf("exit %d: %v", code, err)
	}
	if r.Index == nil || *r.Index != "GSI1" {
		t.Errorf("index = %v, want GSI1", r.Index)
	}
}

func TestQueryPlainText(t *testing.T) {
	path := writeSample(t, "orders")
	code, out, _ := runCmd(t, "", "query", path, "3")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	// Pattern 3: the order and its lines in one Query, in sort key order (I < M).
	i1, i2, meta := strings.Index(out, "ITEM#001"), strings.Index(out, "ITEM#002"), strings.Index(out, "METADATA")
	if i1 < 0 || i2 < i1 || meta < i2 {
		t.Errorf("items not in sort key order:\n%s", out)
	}
	for _, want := range []string{"Pattern 3:", "count 3, scanned 3", "capacity"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestQueryErrorsAndExitCodes(t *testing.T) {
	path := writeSample(t, "orders")
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("version: 1\nname: x\ntable:\n  name: t-data\n  key: {parition: PK}\n"), 0o644)
	invalidPattern := filepath.Join(t.TempDir(), "invalid.yaml")
	s, _ := samples.Get("orders")
	os.WriteFile(invalidPattern, []byte(strings.Replace(string(s.Data), `key: "PK = :pk AND begins_with(SK, :sk)"`, `key: "SK = :sk"`, 1)), 0o644)
	tests := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		errHas string
		outHas string
	}{
		{"no file", []string{"query"}, "", 2, "usage: stwb query", ""},
		{"missing file", []string{"query", "/no/such/design.yaml"}, "", 2, "design.yaml", ""},
		{"unknown pattern", []string{"query", path, "99"}, "", 2, "no pattern 99", ""},
		{"pattern not a number", []string{"query", path, "two"}, "", 2, "not a number", ""},
		{"invalid design names line and column", []string{"query", bad}, "", 2, "bad.yaml:5:", ""},
		{"design from standard input", []string{"query", "-", "1"}, string(s.Data), 0, "", "PROFILE"},
		{"an invalid request exits 1 with DynamoDB's error", []string{"query", invalidPattern, "2", "--json"}, "", 1, "", `"type": "ValidationException"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errText := runCmd(t, tt.stdin, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %s)", code, tt.code, errText)
			}
			if tt.errHas != "" && !strings.Contains(errText, tt.errHas) {
				t.Errorf("stderr %q lacks %q", errText, tt.errHas)
			}
			if tt.outHas != "" && !strings.Contains(out, tt.outHas) {
				t.Errorf("stdout lacks %q:\n%s", tt.outHas, out)
			}
		})
	}
}

func TestCheckContract(t *testing.T) {
	clean := writeSample(t, "orders")
	reflex := writeSample(t, "relational-reflex")
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("version: 1\nname: x\ntable:\n  name: t-data\n  key: {parition: PK}\n"), 0o644)

	if code, out, errText := runCmd(t, "", "check", clean); code != 0 || !strings.Contains(out, "0 errors") {
		t.Errorf("orders: exit %d\n%s%s", code, out, errText)
	}
	code, out, _ := runCmd(t, "", "check", reflex, "--json")
	if code != 1 {
		t.Errorf("relational-reflex: exit %d, want 1", code)
	}
	var rep struct {
		Valid    bool             `json:"valid"`
		Findings []map[string]any `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || !rep.Valid || len(rep.Findings) == 0 {
		t.Fatalf("json: %v %+v", err, rep)
	}
	for _, f := range rep.Findings {
		for _, field := range []string{"rule", "severity", "message", "fix", "source"} {
			if s, _ := f[field].(string); s == "" {
				t.Errorf("finding lacks %s: %v", field, f)
			}
		}
		if _, ok := f["item"]; ok && f["rule"] == "table-named-for-entity" {
			t.Errorf("a field that does not apply is left out: %v", f)
		}
	}
	code, _, errText := runCmd(t, "", "check", bad)
	if code != 2 || !strings.Contains(errText, "bad.yaml:5:") || !strings.Contains(errText, "did you mean") {
		t.Errorf("invalid: exit %d, stderr %s", code, errText)
	}
	code, out, _ = runCmd(t, "", "check", reflex, "--sarif")
	if code != 1 || !strings.Contains(out, `"version": "2.1.0"`) {
		t.Errorf("sarif: exit %d\n%s", code, out)
	}
}
