package render

import (
	"encoding/base64"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"stwb/internal/numfmt"
	"stwb/model"
)

// FormatValue writes a value on one line, the way the grid and previews show it:
// S as its text, N as its exact digits, sets in <<...>> as DynamoDB's console writes
// them, lists in [...], maps in {...} with sorted keys, B as base64. Control
// characters are made visible so that one value never breaks a row.
func FormatValue(v model.Value) string {
	var b strings.Builder
	writeValue(&b, v)
	return b.String()
}

func writeValue(b *strings.Builder, v model.Value) {
	switch v.Type {
	case model.TypeS:
		b.WriteString(oneLine(v.Str))
	case model.TypeN:
		b.WriteString(v.Str)
	case model.TypeB:
		b.WriteString(base64.StdEncoding.EncodeToString([]byte(v.Str)))
	case model.TypeBOOL:
		b.WriteString(strconv.FormatBool(v.Bool))
	case model.TypeNULL:
		b.WriteString("null")
	case model.TypeL:
		writeElems(b, "[", v.List, "]")
	case model.TypeM:
		b.WriteByte('{')
		for i, k := range slices.Sorted(maps.Keys(v.Map)) {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(oneLine(k))
			b.WriteString(": ")
			writeValue(b, v.Map[k])
		}
		b.WriteByte('}')
	case model.TypeSS, model.TypeNS, model.TypeBS:
		writeElems(b, "<<", v.List, ">>")
	default:
		b.WriteString("?")
	}
}

// writeElems writes a list's or a set's elements between open and close, ", " apart.
func writeElems(b *strings.Builder, open string, elems []model.Value, close string) {
	b.WriteString(open)
	for i, e := range elems {
		if i > 0 {
			b.WriteString(", ")
		}
		writeValue(b, e)
	}
	b.WriteString(close)
}

// oneLine replaces line breaks and other control characters with visible marks.
func oneLine(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n':
			return '⏎'
		case r == '\t':
			return '→'
		case isControl(r):
			return '�'
		}
		return r
	}, s)
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

// Fit cuts or pads s to exactly w terminal cells, measuring with lipgloss.Width so
// that CJK and emoji (two cells each) line up. A cut string ends in "…".
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := lipgloss.Width(s)
	if sw > w {
		s = ansi.Truncate(s, w, "…")
		sw = lipgloss.Width(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// Clip cuts s to at most w cells without padding.
func Clip(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if lipgloss.Width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// KeyString writes an item's key attributes as "PK=CUST#42 SK=PROFILE", in the order
// given, for page-end lines and change lists.
func KeyString(key model.Item, names ...string) string {
	if len(names) == 0 {
		names = key.Names()
	}
	parts := make([]string, 0, len(names))
	for _, n := range names {
		if v, ok := key[n]; ok {
			parts = append(parts, n+"="+FormatValue(v))
		}
	}
	return strings.Join(parts, " ")
}

// Width is the terminal width of s (lipgloss.Width), exported for callers that lay
// text out around render's output.
func Width(s string) int { return lipgloss.Width(s) }

// Count is n and a noun that takes an s in the plural: "1 pattern", "2 patterns",
// "1,204 items".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return numfmt.Int(int64(n)) + " " + noun + "s"
}
