package model

import (
	"encoding/base64"
	"errors"
	"strings"
)

// DynamoDB's refusals of a set that is empty or holds an element twice
// (HowItWorks.NamingRulesDataTypes.html "Sets": "values within a set must be
// unique", and a set may not be empty). The words are DynamoDB's, quirks included
// ("An string set  may not be empty" with two spaces; no space before "of type BS"),
// as dynalite (validations/index.js validateAttributeValue) copies them. The wire
// reader (dynamojson) and the engine both refuse such sets, with these messages.

// EmptySetMessage is the refusal of an empty set of type t (SS, NS or BS).
func EmptySetMessage(t Type) string {
	switch t {
	case TypeSS:
		return "One or more parameter values were invalid: An string set  may not be empty"
	case TypeNS:
		return "One or more parameter values were invalid: An number set  may not be empty"
	}
	return "One or more parameter values were invalid: Binary sets should not be empty"
}

// DuplicateSetMessage is the refusal of set v, which holds an element twice; a
// binary set's elements are shown in base64, as the request carried them.
func DuplicateSetMessage(v Value) string {
	if v.Type == TypeNS {
		return "Input collection contains duplicates"
	}
	parts := make([]string, len(v.List))
	for i, e := range v.List {
		parts[i] = e.Str
		if v.Type == TypeBS {
			parts[i] = base64.StdEncoding.EncodeToString([]byte(e.Str))
		}
	}
	text := "[" + strings.Join(parts, ", ") + "]"
	if v.Type == TypeBS {
		return "One or more parameter values were invalid: Input collection " + text + "of type BS contains duplicates."
	}
	return "One or more parameter values were invalid: Input collection " + text + " contains duplicates."
}

// NumberMessage is DynamoDB's refusal of text as a number (err from ParseNumber):
// its ValidationException words, as dynalite (validations/index.js checkNum) copies
// them and as DynamoDB answers ("The parameter cannot be converted to a numeric
// value: NaN", aws-sdk-js users' reports): empty text, text that is not a number,
// out of range either way, and more than 38 significant digits
// (HowItWorks.NamingRulesDataTypes.html "Number").
func NumberMessage(text string, err error) string {
	switch {
	case errors.Is(err, ErrNumberOverflow):
		return "Number overflow. Attempting to store a number with magnitude larger than supported range"
	case errors.Is(err, ErrNumberUnderflow):
		return "Number underflow. Attempting to store a number with magnitude smaller than supported range"
	case errors.Is(err, ErrNumberPrecision):
		return "Attempting to store more than 38 significant digits in a Number"
	case text == "":
		return "The parameter cannot be converted to a numeric value"
	}
	return "The parameter cannot be converted to a numeric value: " + text
}
