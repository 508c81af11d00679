package expr

import "stwb/model"

// Test is one test of a condition, an attribute against literal values: a
// comparison (Op "=", "<>", "<", "<=", ">", ">="), "BETWEEN" (Values: the lower and
// upper bound), "IN" (Values: the list) or a function that yields a condition
// ("begins_with", "contains", "attribute_exists", ...; Values: its arguments after
// the path).
type Test struct {
	Path   Path
	Op     string
	Values []model.Value
}

// Disjunction is the condition as an OR of ANDs of tests, in the order they are
// written, for code that writes a condition in a simpler form (the DynamoDB Labs
// visualizer's saved-query filters, interop). ok is false when the condition has
// another shape: a NOT, an OR inside an AND, a test whose first operand is not an
// attribute path or whose others are not :values (a path, size(), another function).
func (c *Condition) Disjunction() (ors [][]Test, ok bool) {
	var terms []*cond
	flatten(c.root, cOr, &terms)
	for _, t := range terms {
		var tests []*cond
		flatten(t, cAnd, &tests)
		and := make([]Test, 0, len(tests))
		for _, x := range tests {
			test, ok := simpleTest(x)
			if !ok {
				return nil, false
			}
			and = append(and, test)
		}
		ors = append(ors, and)
	}
	return ors, true
}

// flatten appends the operands of a chain of op ("a OR b OR c"), left to right.
func flatten(c *cond, op condOp, out *[]*cond) {
	if c.op == op {
		for _, k := range c.kids {
			flatten(k, op, out)
		}
		return
	}
	*out = append(*out, c)
}

// simpleTest is one comparison, BETWEEN, IN or condition function as a Test.
func simpleTest(c *cond) (Test, bool) {
	var t Test
	switch c.op {
	case cCmp:
		t.Op = c.cmp
	case cBetween:
		t.Op = "BETWEEN"
	case cIn:
		t.Op = "IN"
	case cFunc:
		t.Op = c.fn
	default:
		return t, false
	}
	if len(c.args) == 0 || c.args[0].kind != opPath {
		return t, false
	}
	t.Path = c.args[0].path
	for _, a := range c.args[1:] {
		if a.kind != opValue {
			return t, false
		}
		t.Values = append(t.Values, a.val)
	}
	return t, true
}
