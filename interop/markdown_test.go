package interop

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"

	"stwb/analysis"
	"stwb/cost"
	"stwb/engine"
	"stwb/internal/numfmt"
	"stwb/model"
	"stwb/review"
	"stwb/samples"
)

// Query order follows Query.html ("sorted by the sort key value ... in UTF-8 byte
// order for strings") and GSI.html (a sparse index holds only items that have its
// key attributes).

// markdownOf is the design document of d analysed without a review, as
// interop.Export writes it when it is given no analysis.
func markdownOf(t *testing.T, d *model.Design) []byte {
	t.Helper()
	out, err := Export(d, "markdown", Options{})
	if err != nil {
		t.Fatal(err)
	}
	return out.Files[0].Data
}

func TestMarkdownGolden(t *testing.T) {
	out := markdownOf(t, ordersDesign())
	checkGolden(t, "orders.md", out)
	// Without a review there is no review section, not an empty one.
	if strings.Contains(string(out), "## Review") {
		t.Error("review section without a review")
	}
	checkGolden(t, "shop.md", markdownOf(t, shopDesign(t)))
}

func TestMarkdownReviewSection(t *testing.T) {
	d := ordersDesign()
	a, err := analysis.Run(d, analysis.Options{Review: true})
	if err != nil {
		t.Fatal(err)
	}
	a.Findings = []review.Finding{{Rule: "hot-key", Severity: review.Warning, Pattern: 2, Message: "a | pipe", Fix: "shard it"}}
	out := string(ExportMarkdown(a))
	if !strings.Contains(out, "## Review") || !strings.Contains(out, "| warning  | `hot-key` | pattern 2 | a \\| pipe | shard it |") {
		t.Errorf("review section missing or malformed:\n%s", out)
	}
	a.Findings = nil
	if out := string(ExportMarkdown(a)); !strings.Contains(out, "## Review\n\nNo findings.") {
		t.Errorf("a review without findings should say so:\n%s", out)
	}
}

// Every row of a Markdown table has the same display width, CJK and emoji included.
func TestMarkdownTablesAligned(t *testing.T) {
	out := markdownOf(t, ordersDesign())
	var width int
	sawWide := false
	for _, line := range strings.Split(string(out), "\n") {
		if !strings.HasPrefix(line, "|") {
			width = 0
			continue
		}
		if strings.Contains(line, "美玲") {
			sawWide = true
		}
		w := lipgloss.Width(line)
		if width == 0 {
			width = w
		} else if w != width {
			t.Errorf("row width %d, table width %d: %s", w, width, line)
		}
	}
	if !sawWide {
		t.Error("the CJK row is not in the document")
	}
}

// The imported DeviceStateLog design answers queries as its data implies: the
// device's states in sort-key byte order, an operator's events by date on GSI1,
// and only the escalated event in the sparse GSI2.
func TestDeviceStateLogQueries(t *testing.T) {
	r, err := ImportWorkbench(readTestdata(t, "nwb/DeviceStateLog_7.json"))
	if err != nil {
		t.Fatal(err)
	}
	d := r.Designs[0]
	e, err := engine.FromDesign(d)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		p    model.Pattern
		want []string // the queried sort key attribute, in returned order
		attr string
	}{
		{"warnings of d#54321", model.Pattern{ID: 1, Operation: model.OpQuery, KeyCondition: "DeviceID = :d AND begins_with(#sd, :w)",
			Names: map[string]string{"#sd": "State#Date"}, Values: map[string]model.Value{":d": model.Str("d#54321"), ":w": model.Str("WARNING")}},
			[]string{"WARNING2#2020-04-11T09:25:00", "WARNING3#2020-04-11T05:50:00", "WARNING3#2020-04-11T05:55:00"}, "State#Date"},
		{"all of d#12345 newest key first", model.Pattern{ID: 2, Operation: model.OpQuery, KeyCondition: "DeviceID = :d",
			Values: map[string]model.Value{":d": model.Str("d#12345")}, Forward: ptrBool(false)},
			[]string{"WARNING1#2020-04-24T14:50:00", "WARNING1#2020-04-24T14:45:00", "WARNING1#2020-04-24T14:40:00", "NORMAL#2020-04-24T14:55:00"}, "State#Date"},
		{"Liz by date on GSI1", model.Pattern{ID: 3, Operation: model.OpQuery, Index: "GSI1", KeyCondition: "#op = :o",
			Names: map[string]string{"#op": "Operator"}, Values: map[string]model.Value{":o": model.Str("Liz")}},
			[]string{"2020-04-11T05:55:00", "2020-04-11T06:00:00", "2020-04-24T14:40:00", "2020-04-24T14:45:00", "2020-04-24T14:50:00", "2020-04-24T14:55:00"}, "Date"},
		{"Sue in April's second week", model.Pattern{ID: 4, Operation: model.OpQuery, Index: "GSI1", KeyCondition: "#op = :o AND #d BETWEEN :a AND :b",
			Names: map[string]string{"#op": "Operator", "#d": "Date"}, Values: map[string]model.Value{":o": model.Str("Sue"), ":a": model.Str("2020-04-08"), ":b": model.Str("2020-04-14")}},
			[]string{"2020-04-11T05:50:00", "2020-04-11T09:25:00", "2020-04-11T09:30:00"}, "Date"},
		{"escalated to Sara on sparse GSI2", model.Pattern{ID: 5, Operation: model.OpQuery, Index: "GSI2", KeyCondition: "EscalatedTo = :s",
			Values: map[string]model.Value{":s": model.Str("Sara")}},
			[]string{"WARNING4#2020-04-27T16:15:00"}, "State#Date"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := e.Run(&c.p, engine.RunOptions{})
			if res.Err != nil {
				t.Fatal(res.Err)
			}
			var got []string
			for _, it := range res.Items {
				got = append(got, it[c.attr].Str)
			}
			if strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("got  %v\nwant %v", got, c.want)
			}
		})
	}
}

// A failed request DynamoDB bills (cost.Billed) is billed in the design document's
// cost table as in its total, the Cost pane and stwb cost (issue 25: the register
// with a taken email, a cancelled transaction, said "not priced" while the total
// counted its $6.57). Every row's amount is the cost report's, and the rows add up
// to the total.
func TestMarkdownBillsWhatCostBills(t *testing.T) {
	f, err := samples.Load("unique-email")
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := ExportFile(f.Design, "unique-email.yaml", f.ItemPos, "markdown", Options{})
	if err != nil {
		t.Fatal(err)
	}
	doc := string(out.Files[0].Data)
	a, err := analysis.Run(f.Design, analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, pc := range a.Cost.Patterns {
		row := ""
		for _, l := range strings.Split(doc, "\n") {
			if strings.HasPrefix(l, fmt.Sprintf("| %-3d | ", pc.ID)) {
				row = l
			}
		}
		if pc.Err != nil && cost.Billed(pc.Err) {
			failed++
		}
		want := numfmt.Dollars(pc.Monthly.OnDemand)
		if !strings.Contains(row, " "+want+" ") || strings.Contains(row, "not priced") {
			t.Errorf("pattern %d (error %v): the cost row %q lacks the report's %s", pc.ID, pc.Err, row, want)
		}
	}
	if failed == 0 {
		t.Fatal("the sample has no billed failure to check")
	}
	if !strings.Contains(doc, numfmt.Dollars(a.Cost.Totals.Monthly.OnDemand)) {
		t.Errorf("the total %s is not in the document", numfmt.Dollars(a.Cost.Totals.Monthly.OnDemand))
	}
}

// The design document has its review whoever writes it: ExportFile, which stwb
// export and the workbench both call, runs the analysis with the review.
func TestExportFileMarkdownHasReview(t *testing.T) {
	f, err := samples.Load("page-view-poor")
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := ExportFile(f.Design, "page-view-poor.yaml", f.ItemPos, "markdown", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out.Files[0].Data), "## Review") {
		t.Error("the design document has no review section")
	}
}
