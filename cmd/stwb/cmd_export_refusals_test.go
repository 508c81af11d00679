package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stwb export warns of what DynamoDB would refuse of what it writes, and writes it,
// exit 0 (README "Exporting"): a table over 20 GSIs in a CloudFormation, Terraform
// or CDK template, in CreateTable's words (engine.CheckCreateTable, as deploy);
// an item over 400 KB, left out of the dynamodb-json request files and the
// Workbench model (BatchWriteItem rejects a whole request holding one,
// API_BatchWriteItem.html). --quiet keeps the warnings. A design with neither
// gets none.
func TestExportWarnsOfWhatDynamoDBRefuses(t *testing.T) {
	var gsis strings.Builder
	for i := 2; i <= 21; i++ {
		fmt.Fprintf(&gsis, "    - {name: GSI%d, key: {partition: G%dPK}}\n", i, i)
	}
	const gsi1 = "      key: {partition: GSI1PK, sort: GSI1SK}\n"
	designs := map[string]string{
		"clean":       strings.NewReplacer("#ITEMS\n", "", "#PATTERNS", "").Replace(refusalBase),
		"21 GSIs":     strings.NewReplacer(gsi1, gsi1+gsis.String(), "#ITEMS\n", "", "#PATTERNS", "").Replace(refusalBase),
		"410 KB item": strings.NewReplacer("#ITEMS\n", "  - {type: customer, customerId: \"3\", name: Cy, blob: "+strings.Repeat("x", 410_000)+"}\n", "#PATTERNS", "").Replace(refusalBase),
	}
	const (
		tableWarning = "stwb export: warning: CreateTable would refuse table app-data (ValidationException: One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the per-table limit of 20), so deploying this %s template fails"
		itemWarning  = "d.yaml:18:5: item 2 is 410,050 bytes: DynamoDB would refuse to store it (ValidationException: Item size has exceeded the maximum allowed size); it is left out of the export"
	)
	for name, src := range designs {
		dir := t.TempDir()
		file := filepath.Join(dir, "d.yaml")
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"cloudformation", "terraform", "cdk", "dynamodb-json", "workbench", "markdown"} {
			for _, quiet := range []bool{false, true} {
				args := []string{"export", file, "--format", format}
				if quiet {
					args = append(args, "--quiet")
				}
				var out, errb bytes.Buffer
				code := run(args, nil, &out, &errb)
				want := ""
				switch {
				case name == "21 GSIs" && (format == "cloudformation" || format == "terraform" || format == "cdk"):
					want = fmt.Sprintf(tableWarning, format)
				case name == "410 KB item" && (format == "dynamodb-json" || format == "workbench"):
					want = itemWarning
				}
				warned := strings.Contains(errb.String(), "stwb export: warning: ")
				if code != 0 || want == "" && warned || want != "" && (!warned || !strings.Contains(errb.String(), want)) {
					t.Errorf("%s, %s (quiet %v): exit %d, stderr %q; want exit 0 and %q", name, format, quiet, code, cut(errb.String()), want)
				}
				if want == itemWarning && (strings.Contains(out.String(), "Cy") || !strings.Contains(out.String(), "Bo")) {
					t.Errorf("%s, %s: the export does not leave out just the item over 400 KB:\n%s", name, format, cut(out.String()))
				}
			}
		}
	}
}
