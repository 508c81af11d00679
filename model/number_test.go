package model

import (
	"math/big"
	"strings"
	"testing"
)

// Cases from DYNAMODB.md "Numbers": the checks both published size models agree on.
func TestNumberSize(t *testing.T) {
	cases := []struct {
		text string
		size int
	}{
		{"1", 2}, {"123", 3}, {"1.2", 3}, {"3.14159", 5}, {"100.5", 4},
		{"0.0000001", 2}, {"1E125", 2}, {"-0.15", 3},
		{"12345678901234567890123456789012345678", 20},
		{"0", 1}, {"-0", 1}, {"0.000", 1},
	}
	for _, c := range cases {
		n, err := ParseNumber(c.text)
		if err != nil {
			t.Fatalf("%s: %v", c.text, err)
		}
		if got := n.Size(); got != c.size {
			t.Errorf("size(%s) = %d, want %d", c.text, got, c.size)
		}
	}
}

func TestNumberCanonicalAndCompare(t *testing.T) {
	canon := map[string]string{
		"1e3": "1000", "0.50": "0.5", "-0": "0", "007": "7", ".5": "0.5",
		"-1.25E-3": "-0.00125", "12.5": "12.5", "1E+2": "100",
	}
	for in, want := range canon {
		if got := CanonicalNumber(in); got != want {
			t.Errorf("canonical(%s) = %s, want %s", in, got, want)
		}
	}
	order := []string{"-100", "-9.5", "-1", "-0.001", "0", "1e-130", "0.5", "1", "9", "10", "1e125"}
	for i := 0; i+1 < len(order); i++ {
		if CompareNumberText(order[i], order[i+1]) >= 0 {
			t.Errorf("%s should sort before %s", order[i], order[i+1])
		}
	}
	if CompareNumberText("1.50", "1.5") != 0 {
		t.Error("1.50 and 1.5 are equal")
	}
}

func TestNumberRangeAndArithmetic(t *testing.T) {
	bad := map[string]error{
		"1e126":  ErrNumberOverflow,
		"1e-131": ErrNumberUnderflow,
		"123456789012345678901234567890123456789": ErrNumberPrecision,
	}
	for in, want := range bad {
		if _, err := ParseNumber(in); err != want {
			t.Errorf("ParseNumber(%s) = %v, want %v", in, err, want)
		}
	}
	for _, s := range []string{"", "-", "1e", "abc", "1.2.3", " 1", "0x10", "Infinity", "NaN"} {
		if _, err := ParseNumber(s); err == nil {
			t.Errorf("ParseNumber(%q) should fail", s)
		}
	}
	sums := []struct{ a, b, want string }{
		{"1", "2", "3"}, {"0.1", "0.2", "0.3"}, {"-5", "5", "0"}, {"1e3", "-0.001", "999.999"},
		{"99999999999999999999999999999999999999", "0.1", ""}, // 39 digits: precision error
		{"99999999999999999999999999999999999999", "1", "100000000000000000000000000000000000000"},
	}
	for _, s := range sums {
		a, _ := ParseNumber(s.a)
		b, _ := ParseNumber(s.b)
		r, err := a.Add(b)
		if s.want == "" {
			if err == nil {
				t.Errorf("%s+%s should exceed 38 digits, got %s", s.a, s.b, r)
			}
			continue
		}
		if err != nil || r.String() != s.want {
			t.Errorf("%s+%s = %s (%v), want %s", s.a, s.b, r, err, s.want)
		}
	}
}

// FuzzNumberCanonical holds ParseNumber to exact decimal arithmetic (math/big): the
// canonical text has the input's value, and is its own canonical text
// (HowItWorks.NamingRulesDataTypes.html, "Number": DynamoDB keeps a number's value,
// not its notation).
func FuzzNumberCanonical(f *testing.F) {
	for _, s := range []string{"1", "-0.50", "12.5", "1250", "0.000125", ".5", "+7", "1e3", "-1.25E-3", "0", "1.", "00012.3400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseNumber(s)
		if err != nil {
			return
		}
		text := n.String()
		want, ok := new(big.Rat).SetString(s)
		if !ok {
			t.Fatalf("ParseNumber accepts %q, math/big does not", s)
		}
		got, ok := new(big.Rat).SetString(text)
		if !ok || got.Cmp(want) != 0 {
			t.Fatalf("%q: canonical %q has another value", s, text)
		}
		if again := CanonicalNumber(text); again != text {
			t.Fatalf("%q: canonical %q, and its canonical is %q", s, text, again)
		}
	})
}

// Checking whether a number's text is already canonical, as the engine does for
// every number it stores, allocates nothing when the significant digits are on one
// side of the point (the digits share the text, the canonical text goes to a stack
// buffer), and once when they span it.
func TestNumberCanonicalCheckAllocations(t *testing.T) {
	for _, tc := range []struct {
		text   string
		allocs float64
	}{
		{"12", 0}, {"0.5", 0}, {"1250", 0}, {"-3", 0}, {"1.0", 0}, {"1e3", 0},
		{"17.50", 1}, {"-3.14159", 1},
	} {
		allocs := testing.AllocsPerRun(100, func() {
			n, err := ParseNumber(tc.text)
			if err != nil {
				t.Fatal(err)
			}
			var buf [64]byte
			_ = string(n.AppendText(buf[:0])) == tc.text
		})
		if allocs != tc.allocs {
			t.Errorf("%q: %v allocations, want %v", tc.text, allocs, tc.allocs)
		}
	}
}

// Sizing a number from its text agrees with sizing the parsed Number (DYNAMODB.md
// "Numbers"), and allocates nothing even when the digits span the point.
func TestNumberTextSize(t *testing.T) {
	for _, text := range []string{"1", "123", "1.2", "3.14159", "100.5", "0.0000001", "1E125", "-0.15", "0", "-0", "17.50", "-12.345e-7", "12345678901234567890123456789012345678"} {
		n, err := ParseNumber(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		got, ok := numberTextSize(text)
		if !ok || got != n.Size() {
			t.Errorf("numberTextSize(%s) = %d, %v; Number.Size says %d", text, got, ok, n.Size())
		}
		if allocs := testing.AllocsPerRun(50, func() { numberTextSize(text) }); allocs != 0 {
			t.Errorf("%s: %v allocations", text, allocs)
		}
	}
	if _, ok := numberTextSize("1.2.3"); ok {
		t.Error("1.2.3 sized as a number")
	}
}

// Reachable only from the tests: number order and size of a parsed
// Number, the references the text-based CompareNumberText and numberTextSize are
// checked against.

// Compare orders two numbers by value: -1, 0 or +1.
func (n Number) Compare(m Number) int {
	ns, ms := n.sign(), m.sign()
	if ns != ms {
		if ns < ms {
			return -1
		}
		return 1
	}
	if ns == 0 {
		return 0
	}
	c := compareMagnitude(n, m)
	if ns < 0 {
		return -c
	}
	return c
}

func (n Number) sign() int {
	switch {
	case n.Digits == "":
		return 0
	case n.Neg:
		return -1
	}
	return 1
}

func compareMagnitude(n, m Number) int {
	if n.Exp != m.Exp {
		if n.Exp < m.Exp {
			return -1
		}
		return 1
	}
	// Same exponent: the digit strings compare lexicographically, a missing digit
	// being a zero, which is what a shorter prefix already means.
	return strings.Compare(n.Digits, m.Digits)
}

// Size is the number's stored size in bytes: base-100 digit pairs, one byte of
// exponent, one more when negative; zero is one byte (DYNAMODB.md "Numbers").
func (n Number) Size() int { return numberSize(n.Neg, len(n.Digits), n.Exp) }

// plainInteger lets CanonicalNumber return an integer's text as it is only where
// parsing it gives the same text back.
func TestPlainIntegerIsCanonical(t *testing.T) {
	for _, c := range []struct {
		text  string
		plain bool
	}{
		{"0", true}, {"7", true}, {"-5", true}, {"100", true}, {"10", true},
		{"99999999999999999999999999999999999999", true},   // 38 digits
		{"100000000000000000000000000000000000000", false}, // 39: parsed
		{"-0", false}, {"007", false}, {"00", false}, {"+5", false}, // not DynamoDB's form
		{"1.0", false}, {"1e3", false}, {"", false}, {"-", false}, {"1 ", false}, {"x", false},
	} {
		if got := plainInteger(c.text); got != c.plain {
			t.Errorf("plainInteger(%q) = %v, want %v", c.text, got, c.plain)
		}
		if c.plain {
			if parsed := canonicalNumberParsed(c.text); parsed != c.text {
				t.Errorf("%q is taken as canonical, but parses to %q", c.text, parsed)
			}
		}
	}
}
