package model

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// Number is an exact DynamoDB number: value = sign × 0.Digits × 10^Exp, where Digits
// holds the significant digits with no leading or trailing zeros. Zero has no digits.
// DynamoDB numbers have at most 38 significant digits and a magnitude from 1E-130 to
// 9.99...E+125 (HowItWorks.NamingRulesDataTypes.html, "Number"); a float64 round trip
// would lose both, so numbers are never floats here.
type Number struct {
	Neg    bool
	Digits string
	Exp    int
}

// Limits of a DynamoDB number.
const (
	MaxNumberDigits = 38
	// In the 0.d × 10^Exp form: 1E-130 is 0.1 × 10^-129, and 9.99...E+125 is
	// 0.999... × 10^126.
	minNumberExp = -129
	maxNumberExp = 126
)

// Errors from ParseNumber and number arithmetic. The engine turns them into
// DynamoDB's ValidationException wording.
var (
	ErrNumberSyntax    = errors.New("not a number")
	ErrNumberPrecision = errors.New("attempting to store more than 38 significant digits in a Number")
	ErrNumberOverflow  = errors.New("number overflow: attempting to store a number with magnitude larger than supported range")
	ErrNumberUnderflow = errors.New("number underflow: attempting to store a number with magnitude smaller than supported range")
)

// ParseNumber reads a number's text: an optional sign, digits with an optional
// decimal point, and an optional exponent ("12", "-0.5", "1e3", ".5"). It checks
// DynamoDB's precision and range.
func ParseNumber(s string) (Number, error) {
	n, err := parseNumberSyntax(s)
	if err != nil {
		return Number{}, err
	}
	return n, n.checkRange()
}

func parseNumberSyntax(s string) (Number, error) {
	v, ok := scanNumber(s)
	if !ok {
		return Number{}, fmt.Errorf("%w: %q", ErrNumberSyntax, s)
	}
	if v.n == 0 {
		return Number{}, nil // zero, whatever its sign
	}
	// The significant digits are usually all on one side of the point ("12",
	// "0.5", "1250"): then Digits shares the text's bytes. Only digits that span
	// the point ("12.5") are copied, once. Every number of a loaded design passes
	// here, so the copy per digit this once made showed in load times.
	var digits string
	start, end := v.lead, v.lead+v.n
	switch ni := len(v.intPart); {
	case end <= ni:
		digits = v.intPart[start:end]
	case start >= ni:
		digits = v.fracPart[start-ni : end-ni]
	default:
		digits = v.intPart[start:] + v.fracPart[:end-ni]
	}
	return Number{Neg: v.neg, Digits: digits, Exp: v.exp}, nil
}

func (n Number) checkRange() error {
	if n.Digits == "" {
		return nil
	}
	if len(n.Digits) > MaxNumberDigits {
		return ErrNumberPrecision
	}
	if n.Exp > maxNumberExp {
		return ErrNumberOverflow
	}
	if n.Exp < minNumberExp {
		return ErrNumberUnderflow
	}
	return nil
}

// IsZero reports whether n is zero.
func (n Number) IsZero() bool { return n.Digits == "" }

// String returns the number as DynamoDB returns it: plain decimal notation, no
// exponent, no superfluous zeros ("1e3" -> "1000", "0.50" -> "0.5", "-0" -> "0").
func (n Number) String() string {
	var buf [64]byte
	return string(n.AppendText(buf[:0]))
}

// AppendText appends the number's canonical text, DynamoDB's form of it (String),
// to b. A caller that only compares it with a text it has (is "1.50" canonical?)
// can append to a stack buffer and allocate nothing.
func (n Number) AppendText(b []byte) []byte {
	if n.Digits == "" {
		return append(b, '0')
	}
	if n.Neg {
		b = append(b, '-')
	}
	d := n.Digits
	switch {
	case n.Exp <= 0:
		b = append(b, "0."...)
		for range -n.Exp {
			b = append(b, '0')
		}
		b = append(b, d...)
	case n.Exp >= len(d):
		b = append(b, d...)
		for range n.Exp - len(d) {
			b = append(b, '0')
		}
	default:
		b = append(b, d[:n.Exp]...)
		b = append(b, '.')
		b = append(b, d[n.Exp:]...)
	}
	return b
}

// Neg returns -n.
func (n Number) Negate() Number {
	if n.Digits != "" {
		n.Neg = !n.Neg
	}
	return n
}

// Add returns n + m, exactly, checked against DynamoDB's precision and range.
func (n Number) Add(m Number) (Number, error) {
	// Work in integers scaled by 10^scale, scale being the smaller of the two
	// numbers' lowest digit positions.
	ni, nScale := n.scaled()
	mi, mScale := m.scaled()
	scale := min(nScale, mScale)
	ni.Mul(ni, pow10(nScale-scale))
	mi.Mul(mi, pow10(mScale-scale))
	sum := new(big.Int).Add(ni, mi)
	r := fromScaled(sum, scale)
	return r, r.checkRange()
}

// Sub returns n - m.
func (n Number) Sub(m Number) (Number, error) { return n.Add(m.Negate()) }

// scaled returns the integer i and exponent s with n = i × 10^s.
func (n Number) scaled() (*big.Int, int) {
	if n.Digits == "" {
		return new(big.Int), 0
	}
	i, _ := new(big.Int).SetString(n.Digits, 10)
	if n.Neg {
		i.Neg(i)
	}
	return i, n.Exp - len(n.Digits)
}

func fromScaled(i *big.Int, scale int) Number {
	if i.Sign() == 0 {
		return Number{}
	}
	s := i.String()
	neg := false
	if s[0] == '-' {
		neg, s = true, s[1:]
	}
	trimmed := strings.TrimRight(s, "0")
	return Number{Neg: neg, Digits: trimmed, Exp: len(s) + scale}
}

func pow10(k int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil)
}

// numberTextSize is the stored size of a number given as text, without making a
// Number: sizing an item reads every number in it, and a Number whose digits span
// the decimal point ("12.5") costs an allocation. ok is false for text that is not
// a number.
func numberTextSize(s string) (size int, ok bool) {
	v, ok := scanNumber(s)
	if !ok {
		return 0, false
	}
	return numberSize(v.neg, v.n, v.exp), true
}

// numberSize is the size of sign x 0.d1..dn x 10^exp with n significant digits.
func numberSize(neg bool, n, exp int) int {
	if n == 0 {
		return 1
	}
	odd := ((exp % 2) + 2) % 2
	size := 1 + (n+odd+1)/2
	if neg {
		size++
	}
	return size
}

// CanonicalNumber returns DynamoDB's form of a number's text, or the text unchanged
// when it is not a number.
func CanonicalNumber(text string) string {
	if plainInteger(text) {
		return text
	}
	return canonicalNumberParsed(text)
}

// plainInteger reports whether text is an integer already in DynamoDB's form: at
// most 38 digits, no leading zero, no sign but a minus, not -0. Most numbers items
// carry are, and every answer writes each of its numbers in that form.
func plainInteger(text string) bool {
	digits := strings.TrimPrefix(text, "-")
	if len(digits) == 0 || len(digits) > 38 || digits[0] == '0' && (len(digits) > 1 || len(text) > 1) {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}

func canonicalNumberParsed(text string) string {
	n, err := parseNumberSyntax(text)
	if err != nil {
		return text
	}
	return n.String()
}

// CompareNumberText compares two numbers given as text, by value, without
// allocating. Text that is not a number sorts before any number, so a bad value
// never panics a sort.
func CompareNumberText(a, b string) int {
	if a == b {
		return 0
	}
	x, okx := scanNumber(a)
	y, oky := scanNumber(b)
	switch {
	case !okx && !oky:
		return strings.Compare(a, b)
	case !okx:
		return -1
	case !oky:
		return 1
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

// numView is a number's text seen as sign × 0.d1d2... × 10^exp without copying its
// digits: the significant digits are those of intPart+fracPart from lead to lead+n.
// Sort keys and filters compare numbers on every item they touch, so comparing
// must not allocate.
type numView struct {
	neg               bool
	intPart, fracPart string
	lead, n, exp      int
}

// digit is the k-th significant digit.
func (v *numView) digit(k int) byte { return v.digitAbs(v.lead + k) }

// scanNumber reads the same syntax as ParseNumber: [+-]digits[.digits][e[+-]digits].
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
