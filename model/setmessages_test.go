package model

import "testing"

// TestSetMessages: DynamoDB's words for an empty set and a repeated element, as
// dynalite (validations/index.js validateAttributeValue) copies them; the issue 17
// measurement found the same text ("An string set  may not be empty", two spaces;
// "Input collection [a, a] contains duplicates.").
func TestSetMessages(t *testing.T) {
	ss := Value{Type: TypeSS, List: []Value{Str("a"), Str("a")}}
	bs := Value{Type: TypeBS, List: []Value{Bin([]byte("hi")), Bin([]byte("hi"))}}
	ns := Value{Type: TypeNS, List: []Value{Num("1"), Num("1")}}
	cases := []struct{ got, want string }{
		{EmptySetMessage(TypeSS), "One or more parameter values were invalid: An string set  may not be empty"},
		{EmptySetMessage(TypeNS), "One or more parameter values were invalid: An number set  may not be empty"},
		{EmptySetMessage(TypeBS), "One or more parameter values were invalid: Binary sets should not be empty"},
		{DuplicateSetMessage(ss), "One or more parameter values were invalid: Input collection [a, a] contains duplicates."},
		{DuplicateSetMessage(ns), "Input collection contains duplicates"},
		{DuplicateSetMessage(bs), "One or more parameter values were invalid: Input collection [aGk=, aGk=]of type BS contains duplicates."},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("got  %q\nwant %q", c.got, c.want)
		}
	}
}
