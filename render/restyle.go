package render

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// Styles drawn over text that holds styles of its own. lipgloss wraps a string in
// its style and one reset at the end, so the first reset inside the string ends the
// style for the rest of it (a selection bar stopped at the first coloured cell), and
// an underline is drawn rune by rune, which cuts the string's own escape sequences
// into visible text ("[1m"). These set the style again after every reset instead.

// sgrOf is the escape sequence that turns style on, and the one that turns it off;
// both "" when the terminal draws no attributes (lipgloss' colour profile).
func sgrOf(style lipgloss.Style) (on, off string) {
	marked := style.Render("x")
	at := strings.Index(marked, "x")
	return marked[:at], marked[at+1:]
}

// Over draws s with style under its own styles: style is set at the start and again
// after every reset inside s, and turned off at the end.
func Over(style lipgloss.Style, s string) string {
	on, off := sgrOf(style)
	if on == "" {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(on) + len(off))
	b.WriteString(on)
	for k := 0; k < len(s); {
		n := escapeLen(s[k:])
		if n == 0 {
			n = 1
		}
		seq := s[k : k+n]
		b.WriteString(seq)
		if isReset(seq) {
			b.WriteString(on)
		}
		k += n
	}
	b.WriteString(off)
	return b.String()
}

// isReset reports whether seq turns every attribute off (ESC [ m, ESC [ 0 m).
func isReset(seq string) bool { return seq == "\x1b[m" || seq == "\x1b[0m" }

// HighlightMatches draws each occurrence of query (any case) in s with style, over
// the line's own styles: the rest of the line keeps its colours, and the match its
// colours under the highlight (issue 25: the line was drawn from its plain text).
func HighlightMatches(s, query string, style lipgloss.Style) string {
	on, off := sgrOf(style)
	q := strings.ToLower(query)
	if q == "" || on == "" {
		return s // nothing to draw it with (a terminal without attributes)
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = highlightLine(l, q, on, off)
	}
	return strings.Join(lines, "\n")
}

// highlightLine is one line of highlightMatches. The line is cut into text and
// escape sequences; the match is found in the text alone. The highlight starts
// where a match does, is set again after every SGR sequence inside it (a style's
// own reset would end it), and at its end the line's SGR state since its last reset
// is set again after off.
func highlightLine(l, q, on, off string) string {
	var text strings.Builder
	for k := 0; k < len(l); {
		n := escapeLen(l[k:])
		if n == 0 {
			text.WriteByte(l[k])
			n = 1
		}
		k += n
	}
	plain := text.String()
	lower := strings.ToLower(plain)
	if len(lower) != len(plain) || !strings.Contains(lower, q) {
		return l // no match, or a case change that changes the length: left as it is
	}
	inMatch := make([]bool, len(plain)+1)
	for rest := 0; ; {
		k := strings.Index(lower[rest:], q)
		if k < 0 {
			break
		}
		for j := rest + k; j < rest+k+len(q); j++ {
			inMatch[j] = true
		}
		rest += k + len(q)
	}
	var b strings.Builder
	state := "" // the SGR sequences in force, since the line's last reset
	lit, t := false, 0
	for k := 0; k < len(l); {
		if n := escapeLen(l[k:]); n > 0 {
			seq := l[k : k+n]
			b.WriteString(seq)
			if isSGR(seq) {
				if isReset(seq) {
					state = ""
				} else {
					state += seq
				}
				if lit {
					b.WriteString(on)
				}
			}
			k += n
			continue
		}
		switch {
		case inMatch[t] && !lit:
			b.WriteString(on)
			lit = true
		case !inMatch[t] && lit:
			b.WriteString(off + state)
			lit = false
		}
		b.WriteByte(l[k])
		k++
		t++
	}
	if lit {
		b.WriteString(off + state)
	}
	return b.String()
}

// escapeLen is the length of the terminal escape sequence s starts with, 0 when it
// starts with text: a CSI sequence (ESC [ parameters final), an OSC one (ESC ] ...
// ended by BEL or ESC \), or ESC and one byte.
func escapeLen(s string) int {
	if len(s) == 0 || s[0] != 0x1b {
		return 0
	}
	if len(s) == 1 {
		return 1
	}
	switch s[1] {
	case '[':
		for k := 2; k < len(s); k++ {
			if s[k] >= 0x40 && s[k] <= 0x7e {
				return k + 1
			}
		}
		return len(s)
	case ']':
		for k := 2; k < len(s); k++ {
			if s[k] == 0x07 {
				return k + 1
			}
			if s[k] == 0x1b && k+1 < len(s) && s[k+1] == '\\' {
				return k + 2
			}
		}
		return len(s)
	}
	return 2
}

// isSGR reports whether a CSI sequence sets the graphic rendition (colours, bold,
// reverse ...): ESC [ ... m.
func isSGR(seq string) bool { return len(seq) >= 3 && seq[1] == '[' && seq[len(seq)-1] == 'm' }
