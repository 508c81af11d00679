package model

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCutText(t *testing.T) {
	cases := []struct {
		in   string
		max  int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"0123456789abc", 10, "0123456789… (3 more bytes)"},
		// "é" is two bytes: the cut never splits it.
		{"aaaaaaaaaé", 10, "aaaaaaaaa… (2 more bytes)"},
		{"", 0, ""},
	}
	for _, c := range cases {
		got := CutText(c.in, c.max)
		if got != c.want {
			t.Errorf("CutText(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("CutText(%q, %d) = %q is not valid UTF-8", c.in, c.max, got)
		}
	}
	if got := CutValue(strings.Repeat("x", 50<<20)); len(got) > CutLimit+40 {
		t.Errorf("CutValue of 50 MB is %d bytes", len(got))
	}
}
