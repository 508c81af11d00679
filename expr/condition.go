package expr

import (
	"sort"
	"strconv"
	"strings"

	"stwb/model"
)

// condOp is the operator of one condition node.
type condOp uint8

const (
	cAnd condOp = iota + 1
	cOr
	cNot
	cCmp     // args[0] cmp args[1]
	cBetween // args[0] BETWEEN args[1] AND args[2]
	cIn      // args[0] IN (args[1:]...)
	cFunc    // a function that yields a condition: fn(args...)
)

// maxInOperands is DynamoDB's limit on the list of IN
// (Expressions.OperatorsAndFunctions.html: "up to 100 values").
const maxInOperands = 100

type cond struct {
	op   condOp
	cmp  string // for cCmp: = <> < <= > >=
	fn   string // for cFunc
	kids []*cond
	args []*operand
	// paren marks a node that was written in its own parentheses, so that a second
	// pair directly around it is reported as redundant.
	paren bool
}

// Condition is a compiled FilterExpression or ConditionExpression.
type Condition struct {
	root  *cond
	attrs []string
}

// CompileCondition parses a ConditionExpression.
func CompileCondition(src string, ctx *Context) (*Condition, error) {
	return compileCondition(src, ctx, KindCondition)
}

// CompileFilter parses a FilterExpression: the same grammar as CompileCondition, the
// kind only changing the name DynamoDB's messages give ("Invalid FilterExpression").
func CompileFilter(src string, ctx *Context) (*Condition, error) {
	return compileCondition(src, ctx, KindFilter)
}

// compileCondition parses a condition or filter, or binds the clean parse of its
// text kept from an earlier request to this request's maps (condcache.go): an
// application sends the same few texts with other values.
func compileCondition(src string, ctx *Context, kind Kind) (*Condition, error) {
	ctx = orNew(ctx)
	kept := keptConditionsOf(kind)
	if k, ok := kept.get(src); ok {
		if c, ok := k.bind(ctx); ok {
			return c, nil
		}
	}
	var phs []token
	root, err := parseCondition(src, ctx, kind, &phs)
	if err != nil {
		return nil, err
	}
	c := &Condition{root: root}
	c.attrs = condAttrs(root, nil)
	sort.Strings(c.attrs)
	kept.put(src, keepCondition(c, phs, ctx))
	return c, nil
}

// parseCondition parses the condition grammar shared by key conditions, filters and
// condition expressions. The error is an *Error, nil when there is none. With phs,
// a clean parse also lists the text's placeholders there (placeholderTokens).
func parseCondition(src string, ctx *Context, kind Kind, phs *[]token) (*cond, *Error) {
	p, err := newParser(src, kind, ctx)
	if err != nil {
		return nil, err
	}
	defer p.release()
	root, ok := p.orCond()
	if ok {
		p.misusedSize(root)
	}
	if err := p.finish(ok); err != nil {
		return nil, err
	}
	if phs != nil {
		*phs = placeholderTokens(p.toks)
	}
	return root, nil
}

// condAttrs appends the top-level names of the paths in a condition tree, each once.
func condAttrs(c *cond, attrs []string) []string {
	for _, k := range c.kids {
		attrs = condAttrs(k, attrs)
	}
	for _, a := range c.args {
		attrs = operandAttrs(a, attrs)
	}
	return attrs
}

func operandAttrs(o *operand, attrs []string) []string {
	if o.kind == opPath {
		return appendOnce(attrs, o.path[0].Name)
	}
	for _, a := range o.args {
		attrs = operandAttrs(a, attrs)
	}
	return attrs
}

// appendOnce appends name unless attrs holds it; expressions name few attributes,
// so a scan beats a set.
func appendOnce(attrs []string, name string) []string {
	for _, a := range attrs {
		if a == name {
			return attrs
		}
	}
	return append(attrs, name)
}

// Precedence, lowest first: OR, AND, NOT, then comparisons and functions
// (Expressions.OperatorsAndFunctions.html, "Precedence in conditions").
func (p *parser) orCond() (*cond, bool) {
	l, ok := p.andCond()
	for ok && p.tok().is("OR") {
		save := p.pos
		p.pos++
		r, rok := p.andCond()
		if !rok {
			p.pos = save
			return l, true
		}
		l = &cond{op: cOr, kids: []*cond{l, r}}
		p.operator()
	}
	return l, ok
}

func (p *parser) andCond() (*cond, bool) {
	l, ok := p.notCond()
	for ok && p.tok().is("AND") {
		save := p.pos
		p.pos++
		r, rok := p.notCond()
		if !rok {
			p.pos = save
			return l, true
		}
		l = &cond{op: cAnd, kids: []*cond{l, r}}
		p.operator()
	}
	return l, ok
}

func (p *parser) notCond() (*cond, bool) {
	if p.tok().is("NOT") {
		save := p.pos
		p.pos++
		if c, ok := p.notCond(); ok {
			p.operator()
			return &cond{op: cNot, kids: []*cond{c}}, true
		}
		p.pos = save
		return nil, false
	}
	return p.primary()
}

// misusedSize notes size() written where a condition is needed ("size(a) AND ..."),
// anywhere in the tree.
func (p *parser) misusedSize(c *cond) {
	if c.op == cFunc && c.fn == "size" {
		p.note(errMisusedFunction, "The function is not allowed to be used this way in an expression; function: size")
	}
	for _, k := range c.kids {
		p.misusedSize(k)
	}
}

// primary is a parenthesised condition or a simple one. "(" can open either, as in
// "(a) = :v", so the parenthesised reading is tried first and kept only when no
// comparison operator follows it.
func (p *parser) primary() (*cond, bool) {
	if p.tok().kind == tokLParen {
		save := p.pos
		p.pos++
		if inner, ok := p.orCond(); ok && p.accept(tokRParen) && !p.atComparison() {
			if inner.paren {
				p.note(errParens, "The expression has redundant parentheses;")
			}
			inner.paren = true
			return inner, true
		}
		p.pos = save
	}
	return p.simple()
}

func (p *parser) atComparison() bool {
	t := p.tok()
	return t.kind == tokCmp || t.is("BETWEEN") || t.is("IN")
}

// simple parses a comparison, BETWEEN, IN, or a function call used as a condition.
func (p *parser) simple() (*cond, bool) {
	save := p.pos
	x, ok := p.operandParens()
	if !ok {
		return nil, false
	}
	t := p.tok()
	switch {
	case t.kind == tokCmp:
		p.pos++
		y, ok := p.operandParens()
		if !ok {
			break
		}
		p.misused(x, y)
		p.distinct(t.text, []*operand{x, y})
		p.operator()
		return &cond{op: cCmp, cmp: t.text, args: []*operand{x, y}}, true
	case t.is("BETWEEN"):
		p.pos++
		y, ok := p.operandParens()
		if !ok || !p.keyword("AND") {
			break
		}
		z, ok := p.operandParens()
		if !ok {
			break
		}
		p.misused(x, y, z)
		p.checkBetween(y, z)
		p.operator()
		return &cond{op: cBetween, args: []*operand{x, y, z}}, true
	case t.is("IN"):
		p.pos++
		if !p.accept(tokLParen) {
			break
		}
		list, ok := p.operandList()
		if !ok {
			p.pos = save
			return nil, false
		}
		args := append([]*operand{x}, list...)
		if !p.accept(tokRParen) {
			break
		}
		p.misused(args...)
		p.operator()
		if len(args)-1 > maxInOperands {
			p.note(errOperand, "The IN operator is provided with too many operands; number of operands: %d", len(args)-1)
		}
		return &cond{op: cIn, args: args}, true
	case x.kind == opFunc:
		return &cond{op: cFunc, fn: x.fn, args: x.args}, true
	default:
		p.fail()
	}
	p.pos = save
	return nil, false
}

// checkBetween checks bounds that are both :values: same type, lower <= upper
// (Expressions.OperatorsAndFunctions.html, BETWEEN; wording from DynamoDB).
func (p *parser) checkBetween(lo, hi *operand) {
	if lo.kind != opValue || hi.kind != opValue || lo.typ == 0 || hi.typ == 0 {
		return
	}
	if problem := betweenProblem(lo.val, hi.val); problem != "" {
		p.note(errFunction, "The BETWEEN operator %s; lower bound operand: AttributeValue: %s, upper bound operand: AttributeValue: %s",
			problem, ValueString(lo.val), ValueString(hi.val))
	}
}

// betweenProblem is what is wrong with BETWEEN's bounds, "" when nothing is.
func betweenProblem(lo, hi model.Value) string {
	switch {
	case lo.Type != hi.Type:
		return "requires same data type for lower and upper bounds"
	case ordered(lo.Type) && model.CompareScalar(lo, hi) > 0:
		return "requires upper bound to be greater than or equal to lower bound"
	}
	return ""
}

// ordered reports whether < and > apply to values of type t: S, N and B only.
func ordered(t model.Type) bool { return t == model.TypeS || t == model.TypeN || t == model.TypeB }

// Attributes lists the top-level attribute names the condition reads, sorted.
func (c *Condition) Attributes() []string { return c.attrs }

// Eval evaluates the condition on an item; item is nil when there is no item (a
// conditional write on a new key), where every path is missing.
func (c *Condition) Eval(item model.Item) bool { return evalCond(c.root, item) }

func evalCond(c *cond, item model.Item) bool {
	switch c.op {
	case cAnd:
		return evalCond(c.kids[0], item) && evalCond(c.kids[1], item)
	case cOr:
		return evalCond(c.kids[0], item) || evalCond(c.kids[1], item)
	case cNot:
		return !evalCond(c.kids[0], item)
	case cCmp:
		a, aok := resolve(c.args[0], item)
		b, bok := resolve(c.args[1], item)
		return compare(c.cmp, a, aok, b, bok)
	case cBetween:
		x, xok := resolve(c.args[0], item)
		lo, lok := resolve(c.args[1], item)
		hi, hok := resolve(c.args[2], item)
		return xok && lok && hok && x.Type == lo.Type && x.Type == hi.Type && ordered(x.Type) &&
			model.CompareScalar(lo, x) <= 0 && model.CompareScalar(x, hi) <= 0
	case cIn:
		x, ok := resolve(c.args[0], item)
		if !ok {
			return false
		}
		for _, a := range c.args[1:] {
			if v, ok := resolve(a, item); ok && x.Equal(v) {
				return true
			}
		}
		return false
	case cFunc:
		return evalFunc(c, item)
	}
	return false
}

// compare applies a comparator with DynamoDB's rules
// (Expressions.OperatorsAndFunctions.html, "Comparison operators"): values of
// different types are never equal and never ordered; = and <> work on every type;
// < <= > >= on S (UTF-8 bytes), N (numerically) and B (bytes). A missing operand
// makes every comparison false except <>, which is then true, as in DynamoDB (and
// dynalite's compare, where a missing attribute differs from any value).
func compare(op string, a model.Value, aok bool, b model.Value, bok bool) bool {
	if op == "<>" {
		if !aok && !bok {
			return false
		}
		return !(aok && bok && a.Equal(b))
	}
	if !aok || !bok || a.Type != b.Type {
		return false
	}
	if op == "=" {
		return a.Equal(b)
	}
	if !ordered(a.Type) {
		return false
	}
	c := model.CompareScalar(a, b)
	switch op {
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	case ">=":
		return c >= 0
	}
	return false
}

func evalFunc(c *cond, item model.Item) bool {
	a, aok := resolve(c.args[0], item)
	switch c.fn {
	case "attribute_exists":
		return aok
	case "attribute_not_exists":
		return !aok
	}
	b, bok := resolve(c.args[1], item)
	if !aok || !bok {
		return false
	}
	switch c.fn {
	case "attribute_type":
		return b.Type == model.TypeS && a.Type.String() == b.Str
	case "begins_with":
		return a.Type == b.Type && (a.Type == model.TypeS || a.Type == model.TypeB) &&
			strings.HasPrefix(a.Str, b.Str)
	case "contains":
		return contains(a, b)
	}
	return false
}

// contains is DynamoDB's contains(path, operand): a substring of an S, a byte
// substring of a B, an element of a set of the operand's type, or an element of a
// list equal to the operand (Expressions.OperatorsAndFunctions.html, "contains").
func contains(a, b model.Value) bool {
	switch a.Type {
	case model.TypeS, model.TypeB:
		return b.Type == a.Type && strings.Contains(a.Str, b.Str)
	case model.TypeSS, model.TypeNS, model.TypeBS:
		return b.Type == model.SetElemType(a.Type) && a.Contains(b)
	case model.TypeL:
		for _, e := range a.List {
			if e.Equal(b) {
				return true
			}
		}
	}
	return false
}

// resolve gives an operand's value on an item; false when it has none (a missing
// path, or size() of a missing attribute or of a type size does not measure).
func resolve(o *operand, item model.Item) (model.Value, bool) {
	switch o.kind {
	case opValue:
		return o.val, true
	case opPath:
		return o.path.Lookup(item)
	case opFunc: // size, the only function a condition operand can be
		v, ok := resolve(o.args[0], item)
		if !ok {
			return model.Value{}, false
		}
		n, ok := sizeOf(v)
		if !ok {
			return model.Value{}, false
		}
		return model.Num(itoa(n)), true
	}
	return model.Value{}, false
}

// sizeOf is size(): the length of an S in UTF-16 code units, bytes of a B, elements
// of a set or list, entries of a map (Expressions.OperatorsAndFunctions.html, "size").
// The guide only says "length of the string"; DynamoDB counts UTF-16 units, as
// dynalite (JavaScript's length) does and as checked on DynamoDB itself: size of
// "é𝄞" is 3 (ExtendDB/extenddb#60 and #67).
func sizeOf(v model.Value) (int, bool) {
	switch v.Type {
	case model.TypeS:
		return utf16Len(v.Str), true
	case model.TypeB:
		return len(v.Str), true
	case model.TypeSS, model.TypeNS, model.TypeBS, model.TypeL:
		return len(v.List), true
	case model.TypeM:
		return len(v.Map), true
	}
	return 0, false
}

// utf16Len counts a string's UTF-16 code units: two for a character beyond the
// Basic Multilingual Plane, one for any other (an invalid byte counts as one).
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// smallInts are the texts of the sizes most items have, so that size() in a filter
// does not allocate per item.
var smallInts = func() []string {
	s := make([]string, 256)
	for i := range s {
		s[i] = strconv.Itoa(i)
	}
	return s
}()

func itoa(n int) string {
	if n < len(smallInts) {
		return smallInts[n]
	}
	return strconv.Itoa(n)
}
