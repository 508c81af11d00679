package model

import (
	"fmt"
	"sort"
	"strings"
)

// PosError is one problem in a design file: where it is, what is wrong and what to do.
// A problem that belongs to no place in the file (an empty file, a design built in
// code) has WholeFile set and a zero line.
type PosError struct {
	Pos       Pos
	Msg       string // what is wrong, without a trailing period
	Hint      string // what to do; may be empty
	WholeFile bool
}

func (e *PosError) Error() string {
	var b strings.Builder
	b.WriteString(e.Pos.String())
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Hint != "" {
		b.WriteString(". ")
		b.WriteString(e.Hint)
	}
	return b.String()
}

// String writes the position as file:line:col, leaving out the parts that are unknown.
func (p Pos) String() string {
	switch {
	case p.Line <= 0:
		return p.File
	case p.File == "":
		return fmt.Sprintf("%d:%d", p.Line, max(p.Col, 1))
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, max(p.Col, 1))
}

// ItemWhere names item i of a design for a message: its place in the file
// ("d.yaml:18:5: item 2") when pos gives it, else the file ("d.yaml: item 2"), else
// the bare "item 2". pos[i] is item i's place (designfile.File.ItemPos); file
// may be "".
func ItemWhere(file string, pos []Pos, i int) string {
	switch {
	case i >= 0 && i < len(pos) && pos[i].Line > 0:
		return fmt.Sprintf("%s: item %d", pos[i], i)
	case file != "":
		return fmt.Sprintf("%s: item %d", file, i)
	}
	return fmt.Sprintf("item %d", i)
}

// ErrorList is every problem found in a design, in file order. Loading and validation
// collect them all so that one run shows the user everything to fix.
type ErrorList []*PosError

func (l ErrorList) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Add records a problem at p: what is wrong (format, args), and what to do (hint).
// A problem without a line belongs to the whole file. A value from the file is
// shown cut (CutLimit bytes): a 50 MB table name must not be echoed whole to
// the terminal.
func (l *ErrorList) Add(p Pos, hint, format string, args ...any) {
	for i, a := range args {
		if s, ok := a.(string); ok {
			args[i] = CutValue(s)
		}
	}
	*l = append(*l, &PosError{Pos: p, Msg: fmt.Sprintf(format, args...), Hint: hint,
		WholeFile: p.Line <= 0})
}

// Err returns the list sorted by position (stable, so errors at one place keep the
// order they were found in), or nil when there is none.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return l
}

// errs collects errors; its methods keep the call sites short.
type errs struct{ list ErrorList }

func (c *errs) add(p Pos, hint, format string, args ...any) { c.list.Add(p, hint, format, args...) }

func (c *errs) err() error { return c.list.Err() }

// DidYouMean suggests the known word closest to a misspelt one, when it is close
// enough to be a plausible typo (edit distance at most a third of the word, min 1).
func DidYouMean(word string, known []string) string {
	best, bestD := "", len(word)/3+1
	if bestD < 2 {
		bestD = 2
	}
	for _, k := range known {
		d := editDistance(strings.ToLower(word), strings.ToLower(k))
		if d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// editDistance is the Damerau-Levenshtein distance (adjacent swaps count one), since
// swapped letters are the commonest typo ("parition").
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 64 || len(rb) > 64 {
		// Long words are never field names; do not spend quadratic time on them.
		if a == b {
			return 0
		}
		return 64
	}
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
