package render

import (
	"fmt"
	"sort"
	"strings"

	"stwb/cost"
)

// KeyBar is one partition key value's load against a partition's limit, for the
// Cost pane's picture of the hottest keys: Heat is the load as a share of the
// limit (1 at the limit; cost.HotKey.Heat), Load says it in units.
type KeyBar struct {
	Pool, Key string
	Heat      float64
	Load      string
	Over      bool
}

// KeyBars are the n hottest keys of a report, every pattern summed (Report.Keys),
// hottest first; a Scan's pool and a key whose load is unknown are left out.
func KeyBars(r *cost.Report, n int) []KeyBar {
	var out []KeyBar
	for _, k := range r.Keys {
		if k.Rule == cost.KeyNoKey || k.Unknown {
			continue
		}
		read, write := k.Read, k.Write
		what := ""
		if k.SplitForHeat != "" {
			read, write, what = k.ItemRead, k.ItemWrite, " an item"
		}
		var parts []string
		if read > 0 || write == 0 {
			parts = append(parts, fmt.Sprintf("%s/%s RCU", Units(read), Units(cost.PartitionReadLimit)))
		}
		if write > 0 {
			parts = append(parts, fmt.Sprintf("%s/%s WCU", Units(write), Units(cost.PartitionWriteLimit)))
		}
		at := ""
		if k.AtLeast {
			at = "≥ "
		}
		out = append(out, KeyBar{Pool: k.Pool, Key: k.Value, Heat: k.Heat(), Over: k.Exceeds,
			Load: at + strings.Join(parts, " ") + what})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Heat > out[j].Heat })
	return out[:min(n, len(out))]
}

// KeyBarLine draws one key's bar in width w: its name, a bar of its heat with the
// limit marked │ at a fixed column (what passes it, ▓, is over the limit), the
// heat as a percentage and the load a second against the limit. top is the
// largest heat drawn (at least 1), so that every bar of one picture shares a
// scale.
func KeyBarLine(b KeyBar, w int, top float64) string {
	top = max(top, 1)
	nameW := max(8, min(28, w/4))
	barW := max(10, min(40, w-nameW-len(b.Load)-9))
	limitAt := int(float64(barW)/top + 0.5)
	fill := int(b.Heat/top*float64(barW) + 0.5)
	if b.Heat > 0 && fill == 0 {
		fill = 1 // a load too small to draw still shows
	}
	var bar strings.Builder
	for i := 0; i <= barW; i++ {
		switch {
		case i == limitAt && i >= fill:
			bar.WriteString("│")
		case i < fill && i >= limitAt:
			bar.WriteString("▓")
		case i < fill:
			bar.WriteString("█")
		default:
			bar.WriteString(" ")
		}
	}
	name := b.Key
	if b.Pool != "table" {
		name = b.Pool + " " + name
	}
	pct := fmt.Sprintf("%4.0f%%", b.Heat*100)
	if b.Heat > 0 && b.Heat < 0.005 {
		pct = " <1%" // a load too small to round to 1% is not none
	}
	return Clip(fmt.Sprintf("%s %s %s %s", Fit(name, nameW), bar.String(), pct, b.Load), w)
}

// KeyLoadLines is the Cost pane's picture of the hottest keys, every pattern
// summed: a header, then a bar a key (KeyBarLine) on one scale, at most n, in
// width w; over says which lines are over a partition's limit, for the caller to
// style. None when no key's load is known.
func KeyLoadLines(r *cost.Report, w, n int) (lines []string, over []bool) {
	bars := KeyBars(r, n)
	if len(bars) == 0 {
		return nil, nil
	}
	top := 1.0
	for _, b := range bars {
		top = max(top, b.Heat)
	}
	lines = append(lines, Clip("Hottest keys against a partition's limit (│ marks the limit; past it, throttled)", w))
	over = append(over, false)
	for _, b := range bars {
		lines = append(lines, KeyBarLine(b, w, top))
		over = append(over, b.Over)
	}
	return lines, over
}
