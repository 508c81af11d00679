package model

import (
	"errors"
	"strconv"
	"strings"
)

// The rules a value must follow, whether a design file's reader (package designfile)
// read it or code built it: DynamoDB's numbers, sets and nesting depth. The reader
// applies them as it reads each value; Validate applies them to values built in code.

// MaxValueDepth is DynamoDB's nesting limit for documents (ServiceQuotas.html,
// "Nested attribute depth": 32 levels).
const MaxValueDepth = 32

// ValueProblem is what is wrong with a value: message and what to do.
type ValueProblem struct{ Msg, Hint string }

// HintQuote is the hint for a value that a design file reads as another type than
// the writer meant (a number, a boolean): quoting makes it a string.
const HintQuote = "quote it to make it a string"

// NumberProblem checks a number's text against DynamoDB's number rules.
func NumberProblem(text string) *ValueProblem {
	_, err := ParseNumber(text)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNumberSyntax):
		low := strings.ToLower(strings.TrimLeft(text, "+-"))
		if low == ".inf" || low == ".nan" {
			return &ValueProblem{text + " is not a DynamoDB number (DynamoDB has no infinity or NaN)", "write a finite number, or " + HintQuote}
		}
		return &ValueProblem{strconv.Quote(text) + " is not a DynamoDB number", "write it in decimal (12, -0.5, 1e3), or " + HintQuote}
	}
	return &ValueProblem{"number " + text + ": " + err.Error(), "DynamoDB numbers have at most 38 significant digits and a magnitude from 1E-130 to 9.99E+125"}
}

// SetValue checks a finished set: DynamoDB rejects empty sets and duplicates
// (HowItWorks.NamingRulesDataTypes.html, "Sets"). Numbers are duplicates when equal
// by value (1 and 1.0).
func SetValue(t Type, elems []Value) (Value, *ValueProblem) {
	if len(elems) == 0 {
		return Value{}, &ValueProblem{"empty " + t.String() + " set", "DynamoDB has no empty sets; leave the attribute out"}
	}
	v := Value{Type: t, List: elems}
	seen := make(map[string]bool, len(elems))
	for _, e := range elems {
		k := e.Str
		if e.Type == TypeN {
			k = CanonicalNumber(k)
		}
		if seen[k] {
			return Value{}, &ValueProblem{"duplicate element " + strconv.Quote(e.Str) + " in " + t.String() + " set", "a set holds each element once; remove the duplicate"}
		}
		seen[k] = true
	}
	return v, nil
}
