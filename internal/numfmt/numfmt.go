// Package numfmt writes figures for people: thousands separators on the integer part
// of a number's text. The review's messages, the cost report and the Markdown design
// document all print figures this way, so it lives once, below all of them.
package numfmt

import (
	"math"
	"strconv"
	"strings"
)

// Group puts a comma between each three digits of the integer part of a decimal
// text: "-1234567.891" -> "-1,234,567.891". Text after the first '.' is kept as is.
func Group(s string) string {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	intPart, frac := s, ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		intPart, frac = s[:i], s[i:]
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	b.WriteString(frac)
	return b.String()
}

// Dollars writes US dollars to the cent with thousands separators: $1,806.75. The
// cost report's render.Dollars shows fractions of a cent too; this is every other
// dollar figure (the review's messages, the design document).
func Dollars(f float64) string { return "$" + Group(strconv.FormatFloat(f, 'f', 2, 64)) }

// Int writes an integer with thousands separators: 1204 -> "1,204".
func Int(n int64) string { return Group(strconv.FormatInt(n, 10)) }

// Count writes n with the word for it, singular for exactly one: "1 note",
// "0 notes", "1,204 items". Every "N things" a person reads is written by it.
func Count(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Int(n) + " " + many
}

// Figure writes a figure of capacity units, requests, items or bytes by the one
// rounding rule every printed figure follows (the cost table, the findings, the
// workbench and the exports alike): two decimals from 1 up (1,153.2, 1,389.59),
// two significant digits below 1 (0.5, 0.13, 0.0069), "<0.0001" for what is smaller
// but not 0; trailing zeros dropped, thousands grouped.
func Figure(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "?"
	}
	a := math.Abs(f)
	var s string
	switch {
	case a == 0:
		return "0"
	case a < 0.0001:
		if f < 0 {
			return "-<0.0001"
		}
		return "<0.0001"
	case a < 1:
		// Two significant digits: the decimals that reach them.
		prec := 1 - int(math.Floor(math.Log10(a)))
		s = strconv.FormatFloat(f, 'f', prec, 64)
		if r, _ := strconv.ParseFloat(s, 64); math.Abs(r) >= 1 {
			s = strconv.FormatFloat(f, 'f', 2, 64)
		}
	default:
		s = strconv.FormatFloat(f, 'f', 2, 64)
	}
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return Group(s)
}
