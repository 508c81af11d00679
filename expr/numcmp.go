package expr

import (
	"strings"

	"stwb/model"
)

// numView is a number's text seen as DynamoDB's value sign × 0.d1d2... × 10^exp,
// without copying its digits: the significant digits are those of intPart+fracPart
// from lead to lead+n. A filter compares numbers on every item it reads, and
// model.CompareNumberText builds a digit string per operand; this does not allocate.
type numView struct {
	neg               bool
	intPart, fracPart string
	lead, n, exp      int
}

// digit is the k-th significant digit.
func (v *numView) digit(k int) byte { return v.digitAbs(v.lead + k) }

// scanNumber reads the same syntax as model.ParseNumber: [+-]digits[.digits][e[+-]digits].
func scanNumber(s string) (numView, bool) {
	var v numView
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		v.neg = s[i] == '-'
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	v.intPart = s[start:i]
	if i < len(s) && s[i] == '.' {
		i++
		start = i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		v.fracPart = s[start:i]
	}
	total := len(v.intPart) + len(v.fracPart)
	if total == 0 {
		return v, false
	}
	exp := 0
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		neg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			neg = s[i] == '-'
			i++
		}
		start = i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			if exp < 100000 { // far beyond DynamoDB's range; keeps exp from overflowing
				exp = exp*10 + int(s[i]-'0')
			}
			i++
		}
		if i == start {
			return v, false
		}
		if neg {
			exp = -exp
		}
	}
	if i != len(s) {
		return v, false
	}
	for v.lead < total && v.digitAbs(v.lead) == '0' {
		v.lead++
	}
	last := total
	for last > v.lead && v.digitAbs(last-1) == '0' {
		last--
	}
	v.n = last - v.lead
	v.exp = len(v.intPart) - v.lead + exp
	return v, true
}

// digitAbs is the k-th digit of intPart+fracPart, counting leading zeros.
func (v *numView) digitAbs(k int) byte {
	if k < len(v.intPart) {
		return v.intPart[k]
	}
	return v.fracPart[k-len(v.intPart)]
}

func (v *numView) sign() int {
	switch {
	case v.n == 0:
		return 0
	case v.neg:
		return -1
	}
	return 1
}

// compareNumbers orders two number texts by value, as model.CompareNumberText does
// (which it falls back to for text that is not a number).
func compareNumbers(a, b string) int {
	if a == b {
		return 0
	}
	x, okx := scanNumber(a)
	y, oky := scanNumber(b)
	if !okx || !oky {
		return model.CompareNumberText(a, b)
	}
	sx, sy := x.sign(), y.sign()
	if sx != sy {
		if sx < sy {
			return -1
		}
		return 1
	}
	if sx == 0 {
		return 0
	}
	c := 0
	switch {
	case x.exp != y.exp:
		c = 1
		if x.exp < y.exp {
			c = -1
		}
	default:
		for k := 0; k < x.n && k < y.n && c == 0; k++ {
			dx, dy := x.digit(k), y.digit(k)
			if dx != dy {
				c = 1
				if dx < dy {
					c = -1
				}
			}
		}
		if c == 0 && x.n != y.n {
			c = 1
			if x.n < y.n {
				c = -1
			}
		}
	}
	return c * sx
}

// compareScalar orders two values of one type among S, N and B: strings and binary
// by unsigned bytes (UTF-8 bytes for S), numbers by value.
func compareScalar(a, b model.Value) int {
	if a.Type == model.TypeN {
		return compareNumbers(a.Str, b.Str)
	}
	return strings.Compare(a.Str, b.Str)
}

// equal is model.Value.Equal with numbers compared without allocating.
func equal(a, b model.Value) bool {
	if a.Type == model.TypeN && b.Type == model.TypeN {
		return compareNumbers(a.Str, b.Str) == 0
	}
	if a.Type != b.Type {
		return false
	}
	if a.Type == model.TypeS || a.Type == model.TypeB {
		return a.Str == b.Str
	}
	return a.Equal(b)
}
