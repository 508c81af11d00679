package expr

import (
	"strings"

	"stwb/model"
)

// A ConditionExpression or FilterExpression is parsed on every request that carries
// one, and applications send the same few texts with other values (a conditional
// put's attribute_not_exists(PK), a Query's filter on a status): a typical filter's
// parse costs several microseconds and some 3 KB (BenchmarkCompileEvalFilter), as
// much as a replayed request's own work (issue 24). So, as for update expressions
// (updatecache.go), a clean parse is kept by its text and bound to each later
// request's maps when they give the parse nothing new to decide.
//
// A condition's parse reads, of the maps, the attribute each #name names and each
// :value's type (checkConditionFunction, checkBetween's same-type rule), and of a
// value's contents only two things: attribute_type's type name and the order of
// BETWEEN's bounds. Binding checks the names and types against what the kept parse
// read, and those two against the new values (boundContentsOK); any other request
// is parsed afresh, with the parser's errors in the parser's order.

// keptCondition is a condition's clean parse, kept by its text. Its values hold
// only their types, and it shares no string with the request it came from.
type keptCondition struct {
	c   *Condition
	phs []keptPlaceholder
}

// One cache a kind: the kind changes the words of the parser's messages.
var keptConditions, keptFilters = keptText[*keptCondition]{kept: map[string]*keptCondition{}},
	keptText[*keptCondition]{kept: map[string]*keptCondition{}}

func keptConditionsOf(kind Kind) *keptText[*keptCondition] {
	if kind == KindFilter {
		return &keptFilters
	}
	return &keptConditions
}

// keepCondition copies c, parsed cleanly with ctx, for keeping.
func keepCondition(c *Condition, phs []token, ctx *Context) *keptCondition {
	k := &keptCondition{c: &Condition{root: keepCond(c.root), attrs: make([]string, len(c.attrs))},
		phs: keepPlaceholders(phs, ctx)}
	for i, a := range c.attrs {
		k.c.attrs[i] = strings.Clone(a)
	}
	return k
}

func keepCond(c *cond) *cond {
	k := &cond{op: c.op, cmp: strings.Clone(c.cmp), fn: strings.Clone(c.fn), paren: c.paren}
	for _, kid := range c.kids {
		k.kids = append(k.kids, keepCond(kid))
	}
	for _, a := range c.args {
		k.args = append(k.args, keepOperand(a))
	}
	return k
}

// bind gives the kept condition this request's values, or reports false when the
// request's maps could change what the parse decides. It marks the placeholders it
// reads as used, as the parse does; when it gives up, the parse that follows reads
// every placeholder of the same text, so the marks are the same. Paths and
// attribute names are shared by every binding: nothing changes them.
func (k *keptCondition) bind(ctx *Context) (*Condition, bool) {
	if !placeholdersAgree(k.phs, ctx) {
		return nil, false
	}
	root := bindCond(k.c.root, ctx)
	if !boundContentsOK(root) {
		return nil, false
	}
	return &Condition{root: root, attrs: k.c.attrs}, true
}

// bindCond is a kept condition tree with this request's values.
func bindCond(c *cond, ctx *Context) *cond {
	b := *c
	if len(c.kids) > 0 {
		b.kids = make([]*cond, len(c.kids))
		for i, kid := range c.kids {
			b.kids[i] = bindCond(kid, ctx)
		}
	}
	if len(c.args) > 0 {
		b.args = make([]*operand, len(c.args))
		for i, a := range c.args {
			b.args[i] = bindOperand(a, ctx)
		}
	}
	return &b
}

// boundContentsOK reports whether the parse would find nothing wrong with the
// bound values' contents: attribute_type's second operand a type name
// (checkConditionFunction), BETWEEN's :value bounds in order (checkBetween).
func boundContentsOK(c *cond) bool {
	for _, kid := range c.kids {
		if !boundContentsOK(kid) {
			return false
		}
	}
	switch {
	case c.op == cBetween && c.args[1].kind == opValue && c.args[2].kind == opValue:
		return betweenProblem(c.args[1].val, c.args[2].val) == ""
	case c.op == cFunc && c.fn == "attribute_type":
		_, ok := model.ParseType(c.args[1].val.Str)
		return ok
	}
	return true
}
