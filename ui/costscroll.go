package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"stwb/render"
)

// The Cost pane scrolls its tables sideways a column at a time, keeping a table's
// first column (what the row is) and, in a table with a verdict, its last two
// (key values, verdict) on screen: at 80 columns the verdict is what matters.
// The report is render.Cost's text, the same as the command line's; its tables are
// found by their ruler line (render.Table writes one run of dashes per column).

// span is one column of a table: its first cell and one past its last.
type span struct{ from, to int }

// rulerSpans reads a ruler line's columns; ok is false when l is not a ruler.
func rulerSpans(l string) ([]span, bool) {
	var spans []span
	at := -1
	for i, r := range l {
		switch r {
		case '-':
			if at < 0 {
				at = i
			}
		case ' ':
			if at >= 0 {
				spans = append(spans, span{at, i})
				at = -1
			}
		default:
			return nil, false
		}
	}
	if at >= 0 {
		spans = append(spans, span{at, len(l)})
	}
	return spans, len(spans) >= 2
}

// inTable reports whether l lines up with the columns: blank wherever the ruler
// has its two-space gaps.
func inTable(l string, spans []span) bool {
	if strings.TrimSpace(l) == "" {
		return false
	}
	for k := 0; k+1 < len(spans); k++ {
		if g := ansi.Cut(l, spans[k].to, spans[k+1].from); strings.TrimSpace(g) != "" {
			return false
		}
	}
	return true
}

// spansFit says the spans fit beside fixed cells of fixed width in width.
func spansFit(spans []span, fixed, width int) bool {
	w := fixed
	for _, s := range spans {
		w += 2 + s.to - s.from
	}
	return w <= width-2
}

// scrollTables lays the report's lines out at width: prose wrapped, each table
// with its middle columns scrolled left by left columns and its fixed columns kept.
// more says some table has columns off screen, to either side.
func scrollTables(lines []string, width, left int) (out []string, more bool) {
	for i := 0; i < len(lines); i++ {
		spans, ok := []span(nil), false
		if i+1 < len(lines) {
			spans, ok = rulerSpans(lines[i+1])
		}
		if !ok {
			if render.Width(lines[i]) <= width {
				out = append(out, lines[i])
			} else {
				out = append(out, render.Wrap(lines[i], width)...)
			}
			continue
		}
		end := i + 2
		for end < len(lines) && inTable(lines[end], spans) {
			end++
		}
		// The first column stays; with a verdict, the last two stay too.
		right := 0
		if strings.Contains(lines[i], "verdict") && len(spans) >= 4 {
			right = 2
		}
		middle := spans[1 : len(spans)-right]
		keep := spans[len(spans)-right:]
		fixedW := spans[0].to - spans[0].from
		for _, s := range keep {
			fixedW += 2 + s.to - s.from
		}
		l := max(0, min(left, len(middle)-1))
		// Scrolled right, then widened: the columns to the left come back as soon
		// as they fit (issue 25: at 200 columns the totals' amounts stayed hidden).
		for l > 0 && spansFit(middle[l-1:], fixedW, width) {
			l--
		}
		var shown []span
		w := fixedW
		for _, s := range middle[l:] {
			if w+2+s.to-s.from > width-2 && len(shown) > 0 {
				break
			}
			shown = append(shown, s)
			w += 2 + s.to - s.from
		}
		cut := l > 0 || l+len(shown) < len(middle)
		more = more || cut
		for _, row := range lines[i:end] {
			var b strings.Builder
			b.WriteString(ansi.Cut(row, spans[0].from, spans[0].to))
			if l > 0 {
				b.WriteString(" ◀")
			} else {
				b.WriteString("  ")
			}
			for k, s := range shown {
				if k > 0 {
					b.WriteString("  ")
				}
				b.WriteString(render.Fit(ansi.Cut(row, s.from, s.to), s.to-s.from))
			}
			if l+len(shown) < len(middle) {
				b.WriteString(" ▶")
			} else {
				b.WriteString("  ")
			}
			for _, s := range keep {
				b.WriteString(render.Fit(ansi.Cut(row, s.from, s.to), s.to-s.from) + "  ")
			}
			out = append(out, render.Clip(strings.TrimRight(b.String(), " "), width))
		}
		i = end - 1
	}
	return out, more
}
