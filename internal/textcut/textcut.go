// Package textcut shortens outside values before they go into a message: a 50 MB
// table name or a server's endless error text must not be echoed whole to a terminal.
package textcut

import (
	"fmt"
	"unicode/utf8"
)

// Limit is how many bytes of a value a message shows.
const Limit = 200

// Cut returns s when it has at most max bytes, else its first max bytes (cut on a
// character boundary) followed by how much was left out.
func Cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return fmt.Sprintf("%s… (%d more bytes)", s[:n], len(s)-n)
}

// Value is Cut at Limit.
func Value(s string) string { return Cut(s, Limit) }
