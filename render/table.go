package render

import "strings"

// Table lays out rows under headers as plain aligned columns, two spaces apart,
// widths measured in terminal cells (CJK and emoji take two). The last column is
// not padded, so lines carry no trailing blanks.
func Table(headers []string, rows [][]string) string {
	widths := make([]int, len(headers))
	for i, h := range headers {
		widths[i] = Width(h)
	}
	for _, r := range rows {
		for i, c := range r {
			if i < len(widths) && Width(c) > widths[i] {
				widths[i] = Width(c)
			}
		}
	}
	var b strings.Builder
	line := func(cells []string) {
		for i, c := range cells {
			if i >= len(widths) {
				break
			}
			if i > 0 {
				b.WriteString("  ")
			}
			if i == len(cells)-1 {
				b.WriteString(c)
			} else {
				b.WriteString(c + strings.Repeat(" ", widths[i]-Width(c)))
			}
		}
		b.WriteString("\n")
	}
	line(headers)
	rulers := make([]string, len(headers))
	for i, w := range widths {
		rulers[i] = strings.Repeat("-", w)
	}
	line(rulers)
	for _, r := range rows {
		line(r)
	}
	return b.String()
}
