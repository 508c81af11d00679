package model

import (
	"fmt"
	"unicode/utf8"
)

// Values from outside (a design's region, a tag read from a table, a server's error
// text) are cut short before they go into a message: a 50 MB region or an endless
// error body must not be echoed whole to a terminal. The rule is model's because
// validation quotes such values; the packages above model quote with it too, so
// every message cuts the same way.

// CutLimit is how many bytes of a value a message shows.
const CutLimit = 200

// CutText returns s when it has at most max bytes, else its first max bytes (cut on
// a character boundary) followed by how much was left out.
func CutText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return fmt.Sprintf("%s… (%d more bytes)", s[:n], len(s)-n)
}

// CutValue is CutText at CutLimit.
func CutValue(s string) string { return CutText(s, CutLimit) }
