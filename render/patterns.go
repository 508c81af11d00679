package render

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"stwb/model"
)

// PatternRow is one line of the pattern list: id, operation, index, name, exactly
// width cells.
func PatternRow(p *model.Pattern, width int) string {
	ix := p.Index
	if ix == "" {
		ix = "table"
	}
	head := fmt.Sprintf("%3d  %-18s %-8s ", p.ID, p.Operation, Clip(ix, 8))
	return Fit(head+p.Name, width)
}

// PatternHeader is the list's column header, aligned with PatternRow.
func PatternHeader(width int) string {
	return Fit(fmt.Sprintf("%3s  %-18s %-8s %s", "id", "operation", "index", "name"), width)
}

// PatternDetail is the access-pattern sheet of one pattern: what the caller holds and
// gets back, and the request that serves it, one field per line. Empty fields are
// left out; each line is at most width cells.
func PatternDetail(p *model.Pattern, width int, st Styles) []string {
	var lines []string
	add := func(label, val string) {
		if val == "" {
			return
		}
		lines = append(lines, Clip(st.Dim.Render(fmt.Sprintf("%-12s", label))+oneLine(val), width))
	}
	lines = append(lines, Clip(st.Header.Render(fmt.Sprintf("#%d %s", p.ID, p.Name)), width))
	add("holds", p.Holds)
	add("returns", p.Returns)
	add("order", p.Order)
	add("cardinality", p.Cardinality)
	rate := strconv.FormatFloat(p.EffectiveRate(), 'f', -1, 64) + "/s at peak"
	if p.Rate <= 0 {
		rate += " (default)"
	}
	add("rate", rate)
	op := string(p.Operation)
	if p.Index != "" {
		op += " on " + p.Index
	}
	var opts []string
	if !p.ScanForward() {
		opts = append(opts, "descending")
	}
	if p.Limit > 0 {
		opts = append(opts, "limit "+strconv.Itoa(p.Limit))
	}
	if p.Consistent {
		opts = append(opts, "consistent read")
	}
	if p.Batch {
		opts = append(opts, "batch job")
	}
	if len(opts) > 0 {
		op += " (" + strings.Join(opts, ", ") + ")"
	}
	add("operation", op)
	add("statement", p.Statement)
	if p.Parameters != nil {
		ps := make([]string, len(p.Parameters))
		for i, v := range p.Parameters {
			ps[i] = FormatValue(v)
		}
		add("parameters", "["+strings.Join(ps, ", ")+"]")
	}
	add("key", p.KeyCondition)
	if len(p.Key) > 0 {
		add("key", KeyString(p.Key))
	}
	add("filter", p.Filter)
	add("projection", p.Projection)
	add("condition", p.Condition)
	add("update", p.Update)
	add("names", NamesString(p.Names))
	add("values", ValuesString(p.Values))
	if f := p.Fanout; f != nil {
		over := f.Range
		if over == "" {
			over = strings.Join(f.Values, ", ")
		}
		add("fanout", fmt.Sprintf("%s over %s: %d requests, %s replaced in each, merged by sort key", f.Var, over, len(f.Values), f.Placeholder()))
	}
	if p.AllPages {
		add("pages", "all: every page, following LastEvaluatedKey")
	}
	if len(p.Item) > 0 {
		add("item", ItemString(p.Item))
	}
	for i, k := range p.Keys {
		add(fmt.Sprintf("keys[%d]", i), KeyString(k))
	}
	for i, a := range p.Actions {
		desc := string(a.Kind)
		switch a.Kind {
		case model.ActionPut:
			desc += " " + ItemString(a.Item)
		default:
			desc += " " + KeyString(a.Key)
		}
		if a.Update != "" {
			desc += " update " + a.Update
		}
		if a.Condition != "" {
			desc += " if " + a.Condition
		}
		add(fmt.Sprintf("actions[%d]", i), desc)
	}
	return lines
}

// NamesString writes ExpressionAttributeNames as "#a=attr #b=other", sorted.
func NamesString(m map[string]string) string {
	return pairsString(m, func(s string) string { return s })
}

// ValuesString writes ExpressionAttributeValues as ":a=1 :b=x", sorted.
func ValuesString(m map[string]model.Value) string { return pairsString(m, FormatValue) }

// pairsString writes a placeholder map as "k=v" pairs sorted by key, one space apart.
func pairsString[V any](m map[string]V, format func(V) string) string {
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + format(m[k])
	}
	return strings.Join(parts, " ")
}

// ItemString writes every attribute of an item as "a=1 b=x", sorted by name.
func ItemString(it model.Item) string { return KeyString(it) }
