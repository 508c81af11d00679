package render

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"stwb/cost"
	"stwb/engine"
	"stwb/model"
)

// Preview is what a pattern's run looks like: for a read, the items in the order
// DynamoDB returns them, with the items the FilterExpression dropped shown dimmed
// (they were read and paid for: Query.html "Filter expressions for Query"), then a
// line where the page ends; for a write, the before and after of each item touched
// with its write units. keyNames orders the key attributes first on each line
// (table key, then the index key). Every line is at most width cells.
func Preview(res *engine.Result, keyNames []string, width int, st Styles) []string {
	if res == nil {
		return nil
	}
	var lines []string
	add := func(s string) { lines = append(lines, Clip(s, width)) }
	if res.Err != nil {
		add(st.Error.Render(res.Err.Type + ": " + res.Err.Message))
		for i, r := range res.Err.Reasons {
			if r.Code == "" || r.Code == "None" {
				continue
			}
			add(st.Error.Render(fmt.Sprintf("  action %d: %s %s", i, r.Code, r.Message)))
		}
	}
	if res.Operation.IsWrite() {
		return append(lines, writePreview(res, keyNames, width, st)...)
	}
	if res.Err != nil && len(res.Items) == 0 && len(res.Pages) == 0 {
		return lines
	}
	switch {
	case res.Fanout != nil:
		lines = append(lines, fanoutPreview(res, keyNames, width, st)...)
		add("capacity, " + FanoutRequests(res) + " summed: " + CapacityString(res.Consumed, false) + " " + cost.SampleLabel)
		return lines
	case len(res.Pages) > 0:
		for pi, pg := range res.Pages {
			add(st.Header.Render(fmt.Sprintf("page %d: Count %d, ScannedCount %d", pi+1, pg.Count, pg.ScannedCount)))
			visits := pg.Visits
			if visits == nil { // an engine that reports no visits: every returned item was kept
				for _, it := range pg.Items {
					visits = append(visits, engine.Visit{Item: it, Kept: true})
				}
			}
			for _, v := range visits {
				line := "  " + itemLine(v.Item, keyNames)
				if !v.Kept {
					add(st.Dim.Render(Clip("  ✗ "+itemLine(v.Item, keyNames), width-len(droppedNote)) + droppedNote))
					continue
				}
				add(line)
			}
			if len(visits) == 0 {
				add(st.Dim.Render("  (no items)"))
			}
			if pg.LastEvaluatedKey != nil {
				add(st.Rule.Render(rule("page ends · LastEvaluatedKey "+itemLine(pg.LastEvaluatedKey, keyNames), width)))
			} else {
				add(st.Rule.Render(rule("end of results · no LastEvaluatedKey", width)))
			}
		}
	default:
		add(st.Header.Render(fmt.Sprintf("%d item(s)", len(res.Items))))
		for _, it := range res.Items {
			add("  " + itemLine(it, keyNames))
		}
		if len(res.Items) == 0 {
			add(st.Dim.Render("  (no item with this key)"))
		}
	}
	add("capacity per request: " + CapacityString(res.Consumed, false) + " " + cost.SampleLabel)
	return lines
}

// droppedNote marks an item the FilterExpression dropped (ASCII, so len is its width).
const droppedNote = "  (dropped by filter)"

func writePreview(res *engine.Result, keyNames []string, width int, st Styles) []string {
	var lines []string
	add := func(s string) { lines = append(lines, Clip(s, width)) }
	for _, ch := range res.Changes {
		u := "table " + units(ch.Table) + " WCU"
		for _, n := range slices.Sorted(maps.Keys(ch.Indexes)) {
			u += " · " + n + " " + units(ch.Indexes[n]) + " WCU"
		}
		add(st.Header.Render(itemLine(ch.Key, keyNames)) + "   " + u)
		before, after := diffLines(ch.Before, ch.After)
		add("  before: " + st.Removed.Render(before))
		add("  after:  " + st.Added.Render(after))
	}
	if len(res.Changes) == 0 {
		add(st.Dim.Render("  (no item touched)"))
	}
	add("write units per request: " + CapacityString(res.Consumed, true))
	return lines
}

// diffLines writes the before and after images. When the item exists on both sides
// only the attributes that differ are written, with a count of the unchanged ones,
// so the change is visible even where a full item would not fit on the line.
func diffLines(before, after model.Item) (string, string) {
	img := func(it model.Item) string {
		if it == nil {
			return "(absent)"
		}
		return ItemString(it)
	}
	if before == nil || after == nil {
		return img(before), img(after)
	}
	names := map[string]bool{}
	for n := range before {
		names[n] = true
	}
	for n := range after {
		names[n] = true
	}
	var b, a []string
	same := 0
	for _, n := range slices.Sorted(maps.Keys(names)) {
		bv, bok := before[n]
		av, aok := after[n]
		if bok && aok && bv.Equal(av) {
			same++
			continue
		}
		if bok {
			b = append(b, n+"="+FormatValue(bv))
		}
		if aok {
			a = append(a, n+"="+FormatValue(av))
		}
	}
	if len(b)+len(a) == 0 {
		return fmt.Sprintf("(%d attributes, unchanged)", same), "(the same)"
	}
	note := fmt.Sprintf("   (+%d unchanged)", same)
	return strings.Join(b, " ") + note, strings.Join(a, " ") + note
}

// CapacityString writes consumed capacity as "1.5 RCU (table 1, GSI1 0.5)"; writes
// selects WCU. Units are DynamoDB's (read-write-operations.html).
func CapacityString(c engine.Capacity, writes bool) string {
	get := func(u engine.Units) float64 {
		if writes {
			return u.Write
		}
		return u.Read
	}
	unit, total := "RCU", c.Read()
	if writes {
		unit, total = "WCU", c.Write()
	}
	parts := []string{"table " + units(get(c.Table))}
	for _, n := range slices.Sorted(maps.Keys(c.Indexes)) {
		parts = append(parts, n+" "+units(get(c.Indexes[n])))
	}
	return fmt.Sprintf("%s %s (%s)", units(total), unit, strings.Join(parts, ", "))
}

func units(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// itemLine writes the key attributes first, in the order given, then the rest.
func itemLine(it model.Item, keyNames []string) string {
	var parts []string
	done := map[string]bool{}
	for _, n := range keyNames {
		if v, ok := it[n]; ok && !done[n] {
			parts = append(parts, n+"="+FormatValue(v))
			done[n] = true
		}
	}
	for _, n := range it.Names() {
		if !done[n] {
			parts = append(parts, n+"="+FormatValue(it[n]))
		}
	}
	return strings.Join(parts, " ")
}

func rule(label string, width int) string {
	s := "── " + label + " "
	if w := Width(s); w < width {
		s += strings.Repeat("─", width-w)
	}
	return s
}

// FanoutRequests names a fan-out's requests: "10 queries over shard 0..9".
func FanoutRequests(res *engine.Result) string {
	f := res.Fanout
	what := "queries"
	if res.Operation == model.OpGetItem {
		what = "GetItem requests"
	}
	over := f.Range
	if over == "" {
		over = strings.Join(f.Values, ", ")
	}
	return fmt.Sprintf("%d %s over %s %s", len(res.Requests), what, f.Var, over)
}

// fanoutPreview is a fan-out's merged result: the requests it ran, the items in the
// order the caller merges them (engine.RunFanout), and each request that ended with
// a LastEvaluatedKey (its key value holds more than the page).
func fanoutPreview(res *engine.Result, keyNames []string, width int, st Styles) []string {
	var lines []string
	add := func(s string) { lines = append(lines, Clip(s, width)) }
	add(st.Header.Render(fmt.Sprintf("%s, merged: Count %d, ScannedCount %d", FanoutRequests(res), res.Count, res.ScannedCount)))
	for _, it := range res.Items {
		add("  " + itemLine(it, keyNames))
	}
	if len(res.Items) == 0 {
		add(st.Dim.Render("  (no items)"))
	}
	more := 0
	for i, sub := range res.Requests {
		if sub.LastEvaluatedKey != nil {
			more++
			add(st.Rule.Render(rule(fmt.Sprintf("%s=%s ends with LastEvaluatedKey %s", res.Fanout.Var, res.Fanout.Values[i], itemLine(sub.LastEvaluatedKey, keyNames)), width)))
		}
	}
	if more == 0 {
		add(st.Rule.Render(rule("end of results · no request has a LastEvaluatedKey", width)))
	}
	return lines
}
