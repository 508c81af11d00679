// Package linereader reads text one line at a time in memory bounded by the
// longest line allowed: what stwb reads as a stream of records or items (serve's
// recordings, DynamoDB JSON export lines) is never held whole.
package linereader

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// Reader gives the lines of a text, each without its line break.
type Reader struct {
	br   *bufio.Reader
	max  int    // the longest line allowed, in bytes
	long []byte // a line longer than br's buffer, gathered
	line int    // the number of the last line given
	read int64  // bytes read so far
}

// TooLongError is a line over the bound: its number and the bound.
type TooLongError struct {
	Line int
	Max  int
}

func (e *TooLongError) Error() string {
	return fmt.Sprintf("line %d is longer than %d bytes", e.Line, e.Max)
}

// New reads r, refusing a line longer than max bytes.
func New(r io.Reader, max int) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 1<<20), max: max}
}

// Next is the next line (valid until the next call) and its number, from 1; io.EOF
// after the last. A line over the bound is a *TooLongError, found before more
// than the bound and a buffer of it is read.
func (r *Reader) Next() (line []byte, n int, err error) {
	r.line++
	line, err = r.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		r.long = append(r.long[:0], line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			if len(r.long) > r.max {
				return nil, r.line, &TooLongError{Line: r.line, Max: r.max}
			}
			line, err = r.br.ReadSlice('\n')
			r.long = append(r.long, line...)
		}
		line = r.long
	}
	r.read += int64(len(line))
	if len(line) > r.max {
		return nil, r.line, &TooLongError{Line: r.line, Max: r.max}
	}
	if err == io.EOF && len(line) > 0 {
		err = nil // the last line, without a line break
	}
	if err != nil {
		return nil, r.line, err
	}
	if len(line) > 0 && line[len(line)-1] == '\n' {
		line = line[:len(line)-1]
	}
	if cap(r.long) > 4<<20 && len(line) <= 4<<20 {
		r.long = nil // one long line's buffer is not kept for the rest
	}
	return line, r.line, nil
}

// Read is how many bytes have been read so far.
func (r *Reader) Read() int64 { return r.read }
