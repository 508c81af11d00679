package render

import (
	"fmt"

	"stwb/samples"
)

// Samples is the text `stwb samples` prints: a header and one row per sample with
// its name, pattern count, item count and title, in aligned columns (Columns), the
// counts right-aligned so that their digits line up.
func Samples(list []samples.Sample) string {
	rows := [][]string{{"NAME", "PATTERNS", "ITEMS", "TITLE"}}
	for _, s := range list {
		rows = append(rows, []string{s.Name, fmt.Sprint(s.Patterns), fmt.Sprint(s.Items), s.Title})
	}
	return Columns(rows, []bool{false, true, true, false})
}
