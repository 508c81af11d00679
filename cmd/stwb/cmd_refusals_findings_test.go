package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// refusalBase is a small valid design; each case of TestRefusalsAreFindings adds
// to it what DynamoDB refuses at request or CreateTable time.
const refusalBase = `version: 1
name: refusals
table:
  name: app-data
  key: {partition: PK, sort: SK}
  billing: on-demand
  indexes:
    - name: GSI1
      key: {partition: GSI1PK, sort: GSI1SK}
entities:
  - name: customer
    keys: {PK: "CUST#{customerId}", SK: PROFILE}
    attributes: {customerId: S, name: S}
    count: 1000
items:
  - {type: customer, customerId: "1", name: Ada, GSI1PK: X, GSI1SK: "1"}
  - {type: customer, customerId: "2", name: Bo, GSI1PK: X, GSI1SK: "2"}
#ITEMS
patterns:
  - id: 1
    name: get a customer
    operation: GetItem
    key: {PK: "CUST#1", SK: PROFILE}
  - id: 2
    name: customers by GSI1
    operation: Query
    index: GSI1
    key: "GSI1PK = :p"
    values: {":p": X}
#PATTERNS`

// TestRefusalsAreFindings: what DynamoDB would refuse of a request, a table or an
// item is a finding on the design, not a broken file (issue 14). Each design
// opens: `stwb check` exits 1 with the finding at its file:line:col, `stwb query
// --json` gives a refused pattern's error as DynamoDB gives it (type and message)
// while the other patterns run, and `stwb cost` prices the rest and names the
// pattern it left out. The messages are the engine's, each with its source there
// (engine/validate.go, engine/reads.go, engine/writes.go).
func TestRefusalsAreFindings(t *testing.T) {
	var gsis, keys, puts strings.Builder
	for i := 2; i <= 21; i++ {
		fmt.Fprintf(&gsis, "    - {name: GSI%d, key: {partition: G%dPK}}\n", i, i)
	}
	for i := 0; i <= 100; i++ {
		fmt.Fprintf(&keys, "      - {PK: \"CUST#%d\", SK: PROFILE}\n", i)
		fmt.Fprintf(&puts, "      - {put: {PK: \"CUST#x%d\", SK: PROFILE}}\n", i)
	}
	big := strings.Repeat("x", 410_000)
	cases := []struct {
		name, items, patterns, indexes string
		rule, where, message           string // the finding: rule, file:line:col, a part of its message
		pattern                        int    // the refused pattern (0: none)
		errMsg                         string // its error's message, DynamoDB's
	}{
		{name: "too-many-indexes", indexes: gsis.String(), rule: "too-many-indexes", where: "d.yaml:4:3",
			message: "CreateTable refuses it (ValidationException: One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the per-table limit of 20)"},
		{name: "item-too-large", items: "  - {type: customer, customerId: \"3\", name: Cy, blob: " + big + "}\n",
			rule: "item-too-large", where: "d.yaml:18:5",
			message: "is 410,050 bytes and is over 400 KB (409,600 bytes): DynamoDB refuses to store it (PutItem: ValidationException: Item size has exceeded the maximum allowed size)"},
		{name: "put-item-too-large", patterns: "  - id: 3\n    name: put big\n    operation: PutItem\n    item: {PK: \"CUST#9\", SK: PROFILE, blob: " + big + "}\n",
			rule: "pattern-error", where: "d.yaml:29:5", message: "pattern 3 is rejected by DynamoDB: Item size has exceeded the maximum allowed size",
			pattern: 3, errMsg: "Item size has exceeded the maximum allowed size"},
		{name: "template-mismatch", items: "  - {type: customer, customerId: \"3\", PK: \"CUST#4\", SK: PROFILE, name: Cy}\n",
			rule: "template-mismatch", where: "d.yaml:18:5",
			message: `item 2 (customer): PK "CUST#4" does not match the template "CUST#{customerId}"`},
		{name: "transact-get-101", patterns: "  - id: 3\n    name: tget\n    operation: TransactGetItems\n    keys:\n" + keys.String(),
			rule: "transaction-too-large", where: "d.yaml:29:5", message: "pattern 3's transaction reads 101 items; DynamoDB allows 100",
			pattern: 3, errMsg: "1 validation error detected: Value at 'TransactItems' failed to satisfy constraint: Member must have length less than or equal to 100"},
		{name: "transact-write-101", patterns: "  - id: 3\n    name: twrite\n    operation: TransactWriteItems\n    actions:\n" + puts.String(),
			rule: "transaction-too-large", where: "d.yaml:29:5", message: "pattern 3's transaction has 101 actions",
			pattern: 3, errMsg: "1 validation error detected: Value at 'TransactItems' failed to satisfy constraint: Member must have length less than or equal to 100"},
		{name: "batch-get-101", patterns: "  - id: 3\n    name: bget\n    operation: BatchGetItem\n    keys:\n" + keys.String(),
			rule: "pattern-error", where: "d.yaml:29:5", message: "pattern 3 is rejected by DynamoDB",
			pattern: 3, errMsg: "1 validation error detected: Value at 'RequestItems.app-data.member.Keys' failed to satisfy constraint: Member must have length less than or equal to 100"},
		{name: "consistent-gsi", patterns: "  - id: 3\n    name: consistent on GSI1\n    operation: Query\n    index: GSI1\n    key: \"GSI1PK = :p\"\n    values: {\":p\": X}\n    consistent: true\n",
			rule: "consistent-read-on-gsi", where: "d.yaml:29:5", message: "pattern 3 asks for a consistent read on GSI GSI1; DynamoDB rejects it: GSI reads are eventually consistent, always (ValidationException: Consistent reads are not supported on global secondary indexes)",
			pattern: 3, errMsg: "Consistent reads are not supported on global secondary indexes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(refusalBase, "      key: {partition: GSI1PK, sort: GSI1SK}\n", "      key: {partition: GSI1PK, sort: GSI1SK}\n"+c.indexes, 1)
			src = strings.Replace(src, "#ITEMS\n", c.items, 1)
			src = strings.Replace(src, "#PATTERNS", c.patterns, 1)
			file := filepath.Join(t.TempDir(), "d.yaml")
			if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}

			var out, errb bytes.Buffer
			code := run([]string{"check", file}, nil, &out, &errb)
			line := findingLine(out.String(), c.rule)
			if code != 1 || !strings.Contains(line, c.where+": error ["+c.rule+"]") || !strings.Contains(line, c.message) {
				t.Errorf("check: exit %d, finding %q\nwant exit 1 and %s: error [%s] ... %s\nstdout:\n%s\nstderr:\n%s", code, line, c.where, c.rule, c.message, cut(out.String()), errb.String())
			}
			if c.rule != "pattern-error" && strings.Contains(out.String(), "[pattern-error]") {
				t.Errorf("check: pattern-error repeats %s's finding:\n%s", c.rule, cut(out.String()))
			}

			out.Reset()
			errb.Reset()
			run([]string{"check", file, "--json"}, nil, &out, &errb)
			var report struct {
				Findings []struct {
					Rule         string
					Line, Column int
				}
			}
			json.Unmarshal(out.Bytes(), &report)
			placed := false
			for _, f := range report.Findings {
				placed = placed || f.Rule == c.rule && strings.HasSuffix(c.where, fmt.Sprintf(":%d:%d", f.Line, f.Column))
			}
			if !placed {
				t.Errorf("check --json: no %s finding at %s: %s", c.rule, c.where, cut(out.String()))
			}

			out.Reset()
			errb.Reset()
			code = run([]string{"query", file, "--json"}, nil, &out, &errb)
			var results []struct {
				ID    int `json:"id"`
				Count int `json:"count"`
				Error *struct {
					Type, Message string
				} `json:"error"`
			}
			if err := json.Unmarshal(out.Bytes(), &results); err != nil {
				t.Fatalf("query --json: exit %d, %v\n%s", code, err, errb.String())
			}
			for _, r := range results {
				switch {
				case r.ID == c.pattern:
					if r.Error == nil || r.Error.Type != "ValidationException" || r.Error.Message != c.errMsg {
						t.Errorf("query: pattern %d's error is %+v, want ValidationException %q", r.ID, r.Error, c.errMsg)
					}
				case r.Error != nil:
					t.Errorf("query: pattern %d also fails: %+v", r.ID, r.Error)
				case r.ID == 1 && r.Count != 1:
					t.Errorf("query: pattern 1 returned %d items, want 1", r.Count)
				}
			}

			out.Reset()
			errb.Reset()
			code = run([]string{"cost", file}, nil, &out, &errb)
			wantCode, left := 0, ""
			if c.rule == "item-too-large" {
				// Left out of storage too: the entity's average is the two items DynamoDB stores.
				left = "d.yaml:18:5: item 2 is over 400 KB: DynamoDB would refuse to store it, so the storage and every pattern leave it out"
				if !strings.Contains(out.String(), "entity customer  1,000  60.5") {
					t.Errorf("cost: the storage counts the item DynamoDB would refuse:\n%s", cut(out.String()))
				}
			}
			if c.pattern != 0 {
				wantCode, left = 1, fmt.Sprintf("pattern %d: ValidationException: %s (it is left unpriced; fix the pattern)", c.pattern, c.errMsg)
			}
			if code != wantCode || !strings.Contains(out.String(), "#1 get a customer") || !strings.Contains(errb.String(), left) {
				t.Errorf("cost: exit %d (want %d), stderr %q, want it to price pattern 1 and say %q", code, wantCode, errb.String(), left)
			}
		})
	}
}

// findingLine is the first line of check's text output that names the rule.
func findingLine(out, rule string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "["+rule+"]") {
			return l
		}
	}
	return ""
}

func cut(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "..."
	}
	return s
}

// stwb serve serves a design with such findings as DynamoDB would hold it, and
// says what DynamoDB would refuse: the table's CreateTable refusal, each item over
// 400 KB (left out) at its place in the file.
func TestServeNotesWhatDynamoDBRefuses(t *testing.T) {
	var gsis strings.Builder
	for i := 2; i <= 21; i++ {
		fmt.Fprintf(&gsis, "    - {name: GSI%d, key: {partition: G%dPK}}\n", i, i)
	}
	src := strings.Replace(refusalBase, "      key: {partition: GSI1PK, sort: GSI1SK}\n", "      key: {partition: GSI1PK, sort: GSI1SK}\n"+gsis.String(), 1)
	src = strings.Replace(src, "#ITEMS\n", "  - {type: customer, customerId: \"3\", blob: "+strings.Repeat("x", 410_000)+"}\n", 1)
	file := filepath.Join(t.TempDir(), "d.yaml")
	if err := os.WriteFile(file, []byte(strings.Replace(src, "#PATTERNS", "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := readDesign(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(unservable(f), "\n")
	for _, want := range []string{
		"table app-data is served, but CreateTable would refuse it (ValidationException: One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the per-table limit of 20)",
		"d.yaml:38:5: item 2 is 410,044 bytes: DynamoDB would refuse to store it (ValidationException: Item size has exceeded the maximum allowed size); it is not served",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("notes:\n%s\nwant %s", got, want)
		}
	}
}
