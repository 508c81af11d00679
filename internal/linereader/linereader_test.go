package linereader

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestReader: lines come without their breaks, numbered, the last one with or
// without a break; a line over the bound is refused with its number, even one
// longer than the reader's buffer.
func TestReader(t *testing.T) {
	r := New(strings.NewReader("a\n\nbc\r\nd"), 10)
	var got []string
	for {
		line, n, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.Repeat("#", n)+string(line))
	}
	if strings.Join(got, "|") != "#a|##|###bc\r|####d" {
		t.Errorf("got %q", got)
	}
	for _, size := range []int{11, 3 << 20} {
		r := New(strings.NewReader("ok\n"+strings.Repeat("x", size)+"\n"), 10)
		r.Next()
		_, n, err := r.Next()
		var tl *TooLongError
		if !errors.As(err, &tl) || n != 2 || tl.Line != 2 {
			t.Errorf("a %d-byte line: %v (line %d)", size, err, n)
		}
	}
}
