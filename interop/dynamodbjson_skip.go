package interop

import (
	"bytes"
	"fmt"
	"sort"
	"unicode/utf8"
)

// DataOptions change how a DynamoDB JSON data file is read.
type DataOptions struct {
	// Progress, when set, is told how many bytes have been read every few
	// thousand items.
	Progress Progress
	// SkipInvalid leaves out the items DynamoDB would refuse, a byte that is not
	// UTF-8 or a value that does not decode, and lists each in DataFile.Skipped with
	// its line and JSON path, instead of failing: the Workbench importer's
	// --skip-invalid (WorkbenchOptions.SkipInvalid). A problem outside any item (in
	// a table name, in the layout) still fails the read.
	SkipInvalid bool
}

// invalidItems decides, under DataOptions.SkipInvalid, which items of the data are
// left out. bad holds the offsets of the bytes that are not UTF-8, in order;
// covered marks those inside an item that was skipped. nil when not skipping: then
// the readers fail at the first problem, as before.
type invalidItems struct {
	data    []byte
	lines   lineIndex
	bad     []int
	covered []bool
	skipped []*LineError
}

func newInvalidItems(data []byte, lines lineIndex) *invalidItems {
	s := &invalidItems{data: data, lines: lines}
	if !utf8.Valid(data) {
		for off := 0; off < len(data); {
			r, n := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && n <= 1 {
				s.bad = append(s.bad, off)
			}
			off += max(n, 1)
		}
		s.covered = make([]bool, len(s.bad))
	}
	return s
}

// badBytes reports whether the item at data[at:end], at JSON path path, holds a byte
// that is not UTF-8; if so it is listed as skipped, naming the first such byte's
// line, column and path.
func (s *invalidItems) badBytes(at, end int, path string) bool {
	if s == nil {
		return false
	}
	i := sort.SearchInts(s.bad, at)
	j := i
	for j < len(s.bad) && s.bad[j] < end {
		s.covered[j] = true
		j++
	}
	if j == i {
		return false
	}
	off := s.bad[i]
	inner := jsonPathAt(s.data[at:end], off-at) // "$.name.S", within the item's text
	col := off - bytes.LastIndexByte(s.data[:off], '\n')
	s.skipped = append(s.skipped, &LineError{Line: s.lines.at(at), Path: path,
		Msg: fmt.Sprintf("byte 0x%02x at line %d, column %d (%s%s) is not UTF-8", s.data[off], s.lines.at(off), col, path, inner[1:])})
	return true
}

// badValue lists an item whose value does not decode as skipped, and reports
// whether it was (false when not skipping: the caller fails).
func (s *invalidItems) badValue(line int, err error) bool {
	if s == nil {
		return false
	}
	e, ok := lineErr(line, err).(*LineError)
	if !ok {
		return false
	}
	s.skipped = append(s.skipped, e)
	return true
}

// outside is the first byte that is not UTF-8 and lies in no skipped item, as the
// error a read without SkipInvalid gives; nil when there is none.
func (s *invalidItems) outside() error {
	if s == nil {
		return nil
	}
	for i, c := range s.covered {
		if !c {
			err := notUTF8At(s.data, s.lines, s.bad[i])
			err.Msg += "; it is in no item, so --skip-invalid cannot leave it out"
			return err
		}
	}
	return nil
}
