package render

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"stwb/cost"
	"stwb/engine"
	"stwb/model"
)

// QueryResult is the plain-text form of one pattern's run, as `stwb query` prints
// it: a heading, the returned items in order as a table, then count and scanned,
// pages, and capacity; for a write, the items it changes.
func QueryResult(d *model.Design, p *model.Pattern, res *engine.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Pattern %d: %s\n", p.ID, p.Name)
	op := string(p.Operation)
	if p.Index != "" {
		op += " on " + p.Index
	}
	fmt.Fprintf(&b, "%s\n", op)
	if res.Fanout != nil {
		fmt.Fprintf(&b, "fan-out: %s, merged %s (each request's Limit and page on its own)\n", FanoutRequests(res), engine.MergeOrder(&d.Table, p))
	}
	if res.Err != nil {
		fmt.Fprintf(&b, "error: %s: %s\n", res.Err.Type, res.Err.Message)
		if len(res.Err.Reasons) > 0 {
			codes := make([]string, len(res.Err.Reasons))
			for i, r := range res.Err.Reasons {
				codes[i] = r.Code
			}
			fmt.Fprintf(&b, "cancellation reasons: %s\n", strings.Join(codes, ", "))
		}
	}
	if p.IsWrite() {
		writeChanges(&b, d, res)
	} else {
		b.WriteString("\n")
		if len(res.Items) == 0 {
			b.WriteString("(no items)\n")
		} else {
			b.WriteString(ItemsTable(d, res.Items))
		}
		b.WriteString("\n")
		fmt.Fprintf(&b, "count %d, scanned %d", res.Count, res.ScannedCount)
		if len(res.Pages) > 0 {
			fmt.Fprintf(&b, ", pages %d", len(res.Pages))
		}
		if res.LastEvaluatedKey != nil {
			fmt.Fprintf(&b, ", more after %s", KeyString(res.LastEvaluatedKey, KeyNames(d)...))
		}
		for i, sub := range res.Requests {
			if sub.LastEvaluatedKey != nil {
				fmt.Fprintf(&b, ", %s=%s more after %s", res.Fanout.Var, res.Fanout.Values[i], KeyString(sub.LastEvaluatedKey, KeyNames(d)...))
			}
		}
		b.WriteString("\n")
	}
	summed := ""
	if res.Fanout != nil {
		summed = fmt.Sprintf(", %d requests summed", len(res.Requests))
	}
	sample := ""
	if !p.IsWrite() {
		// Only a read's units depend on the page: a write's are the same in production.
		sample = " " + cost.SampleLabel + " (stwb cost prices the production page)"
	}
	fmt.Fprintf(&b, "capacity %s%s%s\n", CapacityString(res.Consumed, p.IsWrite()), summed, sample)
	return b.String()
}

func writeChanges(b *strings.Builder, d *model.Design, res *engine.Result) {
	for _, c := range res.Changes {
		fmt.Fprintf(b, "\n%s\n", KeyString(c.Key, KeyNames(d)...))
		fmt.Fprintf(b, "  before: %s\n", itemOrNone(d, c.Before))
		fmt.Fprintf(b, "  after:  %s\n", itemOrNone(d, c.After))
		idx := make([]string, 0, len(c.Indexes))
		for _, n := range slices.Sorted(maps.Keys(c.Indexes)) {
			idx = append(idx, fmt.Sprintf("%s %s", n, units(c.Indexes[n])))
		}
		line := fmt.Sprintf("  write units: table %s", units(c.Table))
		if len(idx) > 0 {
			line += ", " + strings.Join(idx, ", ")
		}
		b.WriteString(line + "\n")
	}
	b.WriteString("\n")
}

func itemOrNone(d *model.Design, it model.Item) string {
	if it == nil {
		return "(none)"
	}
	var parts []string
	for _, n := range AttributeOrder(d, []model.Item{it}) {
		parts = append(parts, n+"="+FormatValue(it[n]))
	}
	return strings.Join(parts, " ")
}

// KeyNames lists the table's key attributes, then each index's, without repeats
// (model.KeyAttributeNames): the order key columns and key strings take.
func KeyNames(d *model.Design) []string { return model.KeyAttributeNames(&d.Table) }

// AttributeOrder is the column order for a set of items: key attributes first (the
// table's, then the indexes'), then the type attribute, then the rest by name.
func AttributeOrder(d *model.Design, items []model.Item) []string {
	present := map[string]bool{}
	for _, it := range items {
		for n := range it {
			present[n] = true
		}
	}
	var cols []string
	for _, n := range append(KeyNames(d), d.TypeAttr()) {
		if present[n] {
			cols = append(cols, n)
			delete(present, n)
		}
	}
	return append(cols, slices.Sorted(maps.Keys(present))...)
}

// ItemsTable lays items out as a table: one row each, in the order given.
func ItemsTable(d *model.Design, items []model.Item) string {
	cols := AttributeOrder(d, items)
	rows := make([][]string, len(items))
	for i, it := range items {
		row := make([]string, len(cols))
		for j, c := range cols {
			if v, ok := it[c]; ok {
				row[j] = Clip(FormatValue(v), 40)
			}
		}
		rows[i] = row
	}
	return Table(cols, rows)
}
