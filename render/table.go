package render

import "strings"

// Table lays out rows under headers as plain aligned columns, two spaces apart,
// with a ruler of dashes under the headers (Columns draws them).
func Table(headers []string, rows [][]string) string {
	widths := columnWidths(append([][]string{headers}, rows...))
	rulers := make([]string, len(headers))
	for i, w := range widths {
		rulers[i] = strings.Repeat("-", w)
	}
	all := append([][]string{headers, rulers}, rows...)
	return Columns(all, nil)
}

// Columns lays out rows (the first is usually the headers) as plain aligned
// columns, two spaces apart, widths measured in terminal cells (CJK and emoji take
// two). A column marked in right is right-aligned, so that figures line up; the last
// column, when left-aligned, is not padded, so lines carry no trailing blanks. Cells
// past the first row's columns are dropped.
func Columns(rows [][]string, right []bool) string {
	widths := columnWidths(rows)
	var b strings.Builder
	for _, cells := range rows {
		for i, c := range cells {
			if i >= len(widths) {
				break
			}
			if i > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[i]-Width(c))
			switch {
			case i < len(right) && right[i]:
				b.WriteString(pad + c)
			case i == len(cells)-1:
				b.WriteString(c)
			default:
				b.WriteString(c + pad)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// columnWidths is each column's widest cell, as many columns as the first row has.
func columnWidths(rows [][]string) []int {
	if len(rows) == 0 {
		return nil
	}
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			if i < len(widths) {
				widths[i] = max(widths[i], Width(c))
			}
		}
	}
	return widths
}
