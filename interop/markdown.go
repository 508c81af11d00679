package interop

// The design document the seeds ask for in a pull request: the table and its
// indexes, the numbered access patterns (what the caller holds, what comes back, in
// what order, how many, how often), the entity and key table (PK, SK and index keys
// per entity), each pattern's request and the result the engine gives on the
// design's items, the cost table, and the review findings when a reviewer is wired
// in. Column widths are measured with lipgloss.Width so CJK and emoji keep tables
// aligned in a monospace editor.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"stwb/analysis"
	"stwb/cost"
	"stwb/dynamojson"
	"stwb/engine"
	"stwb/internal/numfmt"
	"stwb/model"
)

// maxResultRows is how many returned items a pattern's result table shows.
const maxResultRows = 10

// ExportMarkdown writes the design document of an analysed design (analysis.Run):
// each pattern's result and cost come from the analysis's one run of it. The review
// section is there only when the analysis has a review, never empty or a
// placeholder.
func ExportMarkdown(a *analysis.Analysis) []byte {
	d, results := a.Design, a.Results
	var b strings.Builder
	t := &d.Table
	fmt.Fprintf(&b, "# %s\n\n", mdText(designName(d)))
	if d.Description != "" {
		fmt.Fprintf(&b, "%s\n\n", strings.TrimSpace(d.Description))
	}

	b.WriteString("## Table\n\n")
	fmt.Fprintf(&b, "Table `%s`: partition key `%s` (%s)", t.Name, t.Key.Partition, t.KeyAttributeType(t.Key.Partition))
	if t.Key.Sort != "" {
		fmt.Fprintf(&b, ", sort key `%s` (%s)", t.Key.Sort, t.KeyAttributeType(t.Key.Sort))
	}
	b.WriteString(".\n")
	fmt.Fprintf(&b, "Billing: %s. Class: %s. Point-in-time recovery: on. Type attribute: `%s`.\n\n", billingText(t.Billing), classText(t.Class), d.TypeAttr())
	if len(t.Indexes) > 0 {
		rows := [][]string{{"Index", "Kind", "Partition key", "Sort key", "Projection"}}
		for _, ix := range t.Indexes {
			kind := "GSI"
			if ix.Local {
				kind = "LSI"
			}
			proj := string(projType(ix.Projection))
			if len(ix.Projection.Include) > 0 {
				proj += " (" + strings.Join(ix.Projection.Include, ", ") + ")"
			}
			// A multi-attribute key's attributes in key order, each in code.
			k := t.IndexKey(&ix)
			rows = append(rows, []string{ix.Name, kind, codeList(k.Partitions()), codeList(k.Sorts()), proj})
		}
		writeTable(&b, rows)
	}

	if len(d.Patterns) > 0 {
		b.WriteString("## Access patterns\n\n")
		rows := [][]string{{"#", "Access pattern", "Holds", "Returns", "Order", "Cardinality", "Rate/s", "Serves it"}}
		for _, p := range d.Patterns {
			serves := string(p.Operation)
			if p.Index != "" {
				serves += " on " + p.Index
			}
			rows = append(rows, []string{strconv.Itoa(p.ID), p.Name, p.Holds, p.Returns, p.Order, p.Cardinality,
				strconv.FormatFloat(p.EffectiveRate(), 'f', -1, 64), serves})
		}
		writeTable(&b, rows)
	}

	if len(d.Entities) > 0 {
		b.WriteString("## Entities and keys\n\n")
		keys := model.KeyAttributeNames(t)
		head := []string{"Entity"}
		head = append(head, keys...)
		head = append(head, "Count")
		rows := [][]string{head}
		for _, en := range d.Entities {
			row := []string{en.Name}
			for _, k := range keys {
				row = append(row, code(en.Keys[k]))
			}
			count := ""
			if en.Count > 0 {
				count = numfmt.Int(en.Count)
			}
			rows = append(rows, append(row, count))
		}
		writeTable(&b, rows)
	}

	if len(d.Patterns) > 0 {
		b.WriteString("## Requests and results\n\n")
		for i := range d.Patterns {
			writePatternResult(&b, d, &d.Patterns[i], results[i], patternCost(a.Cost, i))
		}
	}

	if a.Cost != nil {
		writeCost(&b, a.Cost)
	} else {
		fmt.Fprintf(&b, "## Cost\n\nNot priced: %s.\n\n", mdText(a.CostErr.Error()))
	}

	if a.Reviewed {
		b.WriteString("## Review\n\n")
		if len(a.Findings) == 0 {
			b.WriteString("No findings.\n\n")
		} else {
			rows := [][]string{{"Severity", "Rule", "Where", "Finding", "Fix"}}
			for _, f := range a.Findings {
				rows = append(rows, []string{string(f.Severity), code(f.Rule), f.Where(), f.Message, f.Fix})
			}
			writeTable(&b, rows)
		}
	}
	return []byte(strings.TrimRight(b.String(), "\n") + "\n")
}

// patternCost is pattern i's cost, nil when the design was not priced.
func patternCost(r *cost.Report, i int) *cost.PatternCost {
	if r == nil {
		return nil
	}
	for j := range r.Patterns {
		if r.Patterns[j].Index == i {
			return &r.Patterns[j]
		}
	}
	return nil
}

func writePatternResult(b *strings.Builder, d *model.Design, p *model.Pattern, r *engine.Result, pc *cost.PatternCost) {
	fmt.Fprintf(b, "### %d. %s\n\n", p.ID, mdText(p.Name))
	fmt.Fprintf(b, "%s request:\n\n```json\n", p.Operation)
	b.Write(appendJSONValue(nil, requestOf(d, p), ""))
	b.WriteString("\n```\n\n")
	switch {
	case r.Err != nil:
		fmt.Fprintf(b, "Result: **%s**: %s\n\n", r.Err.Type, mdText(r.Err.Message))
		return
	case p.IsWrite():
		fmt.Fprintf(b, "Result: writes %d item(s), %s WCU", len(r.Changes), num(r.Consumed.Write()))
		if ix := indexUnits(r.Consumed, false); ix != "" {
			fmt.Fprintf(b, " (%s)", ix)
		}
		b.WriteString(".\n\n")
		if len(r.Changes) > 0 {
			rows := [][]string{{"Key", "Before", "After", "Table WCU"}}
			for _, c := range r.Changes {
				rows = append(rows, []string{keyText(c.Key, &d.Table), presence(c.Before), presence(c.After), num(c.Table)})
			}
			writeTable(b, rows)
		}
		return
	}
	fmt.Fprintf(b, "Result: %d item(s)", r.Count)
	if r.ScannedCount != r.Count && (p.Operation == model.OpQuery || p.Operation == model.OpScan) {
		fmt.Fprintf(b, " of %d read", r.ScannedCount)
	}
	if pc != nil && pc.Err == nil {
		fmt.Fprintf(b, ", %s", pc.ReadPerRequest(num))
	} else {
		fmt.Fprintf(b, ", %s RCU %s", num(r.Consumed.Read()), cost.SampleLabel)
	}
	if r.LastEvaluatedKey != nil {
		fmt.Fprintf(b, ", more pages after %s", keyText(r.LastEvaluatedKey, &d.Table))
	}
	b.WriteString(".\n\n")
	if len(r.Items) == 0 {
		return
	}
	cols := resultColumns(d, r.Items)
	rows := [][]string{cols}
	for i, it := range r.Items {
		if i == maxResultRows {
			break
		}
		row := make([]string, len(cols))
		for j, c := range cols {
			if v, ok := it[c]; ok {
				row[j] = valueText(v)
			}
		}
		rows = append(rows, row)
	}
	writeTable(b, rows)
	if len(r.Items) > maxResultRows {
		fmt.Fprintf(b, "... and %d more.\n\n", len(r.Items)-maxResultRows)
	}
}

// resultColumns: the table's keys (when the items hold them: a projection may
// leave them out), then the other attributes the items hold, sorted, so every
// result table of a design reads the same way.
func resultColumns(d *model.Design, items []model.Item) []string {
	present := map[string]bool{}
	for _, it := range items {
		for a := range it {
			present[a] = true
		}
	}
	var cols []string
	for _, k := range []string{d.Table.Key.Partition, d.Table.Key.Sort} {
		if k != "" && present[k] {
			cols = append(cols, k)
			delete(present, k)
		}
	}
	return append(cols, sortedStrings(present)...)
}

func writeCost(b *strings.Builder, rep *cost.Report) {
	b.WriteString("## Cost\n\n")
	fmt.Fprintf(b, "Region %s, class %s.", rep.Region, classText(rep.Class))
	if len(rep.Patterns) == 0 {
		// No patterns, no throughput to price: storage is all there is.
		fmt.Fprintf(b, " Storage: %s GB, %s per month (table and indexes, before the free tier).\n\n", strconv.FormatFloat(rep.Storage.GB, 'f', 3, 64), numfmt.Dollars(rep.Storage.Monthly))
		return
	}
	b.WriteString(" Per request: the first page of a Query or Scan. Monthly: the peak rate sustained for a month.\n\n")
	rows := [][]string{{"#", "Access pattern", "Rate/s", "RCU/request", "WCU/request", "On-demand $/month", "Provisioned $/month"}}
	for _, pc := range rep.Patterns {
		if !cost.Billed(pc.Err) {
			rows = append(rows, []string{strconv.Itoa(pc.ID), pc.Name, strconv.FormatFloat(pc.Rate, 'f', -1, 64), "", "", "not priced: " + pc.Err.Type, ""})
			continue
		}
		name := pc.Name
		if pc.Err != nil {
			name += " (fails with " + pc.Err.Type + ", still billed)"
		}
		rows = append(rows, []string{strconv.Itoa(pc.ID), name, strconv.FormatFloat(pc.Rate, 'f', -1, 64),
			num(pc.PerRequest.Read), num(pc.PerRequest.Write), numfmt.Dollars(pc.Monthly.OnDemand), numfmt.Dollars(pc.Monthly.Provisioned)})
	}
	rows = append(rows, []string{"", "**Throughput**", "", "", "", numfmt.Dollars(rep.Totals.Monthly.OnDemand), numfmt.Dollars(rep.Totals.Monthly.Provisioned)})
	writeTable(b, rows)
	fmt.Fprintf(b, "Storage: %s GB, %s per month (table and indexes, before the free tier).\n", strconv.FormatFloat(rep.Storage.GB, 'f', 3, 64), numfmt.Dollars(rep.Storage.Monthly))
	if rep.Totals.Configured > 0 {
		fmt.Fprintf(b, "Provisioned capacity as configured: %s per month.\n", numfmt.Dollars(rep.Totals.Configured))
	}
	b.WriteString("\n")
}

// writeTable writes a Markdown table with columns padded to their display width.
func writeTable(b *strings.Builder, rows [][]string) {
	widths := make([]int, len(rows[0]))
	for r := range rows {
		for c := range rows[r] {
			rows[r][c] = cell(rows[r][c])
			widths[c] = max(widths[c], lipgloss.Width(rows[r][c]), 3)
		}
	}
	line := func(cells []string) {
		b.WriteString("|")
		for c, s := range cells {
			b.WriteString(" " + s + strings.Repeat(" ", widths[c]-lipgloss.Width(s)) + " |")
		}
		b.WriteString("\n")
	}
	line(rows[0])
	sep := make([]string, len(widths))
	for c, w := range widths {
		sep[c] = strings.Repeat("-", w)
	}
	line(sep)
	for _, r := range rows[1:] {
		line(r)
	}
	b.WriteString("\n")
}

// cell makes text safe inside a table cell: one line, pipes escaped.
func cell(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "|", `\|`).Replace(s)
	return strings.TrimSpace(s)
}

// mdText makes free text safe on one Markdown line.
func mdText(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// code wraps a non-empty value in backticks (with a longer fence when it holds one).
// codeList is names each in code, joined by ", ".
func codeList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = code(n)
	}
	return strings.Join(out, ", ")
}

func code(s string) string {
	if s == "" {
		return ""
	}
	if strings.Contains(s, "`") {
		return "`` " + s + " ``"
	}
	return "`" + s + "`"
}

// valueText shows a value compactly: strings as they are, numbers canonical, the
// rest in DynamoDB JSON.
func valueText(v model.Value) string {
	switch v.Type {
	case model.TypeS:
		return v.Str
	case model.TypeN:
		return model.CanonicalNumber(v.Str)
	case model.TypeBOOL:
		return strconv.FormatBool(v.Bool)
	case model.TypeNULL:
		return "null"
	}
	return string(dynamojson.AppendValue(nil, v))
}

func keyText(k model.Item, t *model.Table) string {
	var parts []string
	for _, a := range []string{t.Key.Partition, t.Key.Sort} {
		if v, ok := k[a]; ok && a != "" {
			parts = append(parts, a+"="+valueText(v))
		}
	}
	for _, a := range k.Names() {
		if a != t.Key.Partition && a != t.Key.Sort {
			parts = append(parts, a+"="+valueText(k[a]))
		}
	}
	return code(strings.Join(parts, ", "))
}

func presence(it model.Item) string {
	if it == nil {
		return "absent"
	}
	return fmt.Sprintf("%d B", model.ItemSize(it))
}

func indexUnits(c engine.Capacity, read bool) string {
	var parts []string
	for _, n := range sortedStrings(c.Indexes) {
		u := c.Indexes[n].Write
		if read {
			u = c.Indexes[n].Read
		}
		if u != 0 {
			parts = append(parts, fmt.Sprintf("%s %s", n, num(u)))
		}
	}
	return strings.Join(parts, ", ")
}

// num writes capacity units without float noise.
// num writes a figure by the one rounding rule (numfmt.Figure).
func num(f float64) string { return numfmt.Figure(f) }

// groupDigits writes 50000000 as 50,000,000.
func billingText(b model.Billing) string {
	if b.Mode != model.Provisioned {
		return "on-demand"
	}
	s := fmt.Sprintf("provisioned, %d RCU and %d WCU", b.Read, b.Write)
	if b.Target > 0 {
		s += fmt.Sprintf(", autoscaling target %s%%", formatPercent(b.Target))
	}
	return s
}

func classText(c model.TableClass) string {
	if c == "" {
		return string(model.ClassStandard)
	}
	return string(c)
}
