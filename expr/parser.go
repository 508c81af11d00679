package expr

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"stwb/model"
)

// errClass groups the semantic errors a parse can find. DynamoDB parses the whole
// expression and then reports one error, choosing by class, not by position (dynalite
// db/*.pegjs, checkErrors); each kind has its own order, in classOrder.
type errClass uint8

const (
	errTooMany errClass = iota // more operators than DynamoDB allows
	errParens
	errUnknownFunction
	errMisusedFunction
	errReserved
	errUndefined // a #name or :value missing from the request's maps
	errSection
	errOverlap
	errConflict
	errOperand  // an operand of the wrong kind or count for an operator
	errDistinct // a comparison of a path with itself
	errFunction // an operand of the wrong type for a function
	numErrClasses
)

// The order in which errors win when several are present, per kind.
var (
	updateOrder = []errClass{errTooMany, errReserved, errUnknownFunction, errSection, errUndefined,
		errOverlap, errConflict, errOperand, errFunction}
	projectionOrder = []errClass{errReserved, errUndefined, errOverlap, errConflict}
	conditionOrder  = []errClass{errTooMany, errParens, errUnknownFunction, errMisusedFunction, errReserved,
		errUndefined, errOperand, errDistinct, errFunction}
)

// classOrder lists, per kind, which error wins when several are present.
func classOrder(k Kind) []errClass {
	switch k {
	case KindUpdate:
		return updateOrder
	case KindProjection:
		return projectionOrder
	}
	return conditionOrder
}

// parser is a recursive-descent parser with backtracking over a token slice. A rule
// returns false when it does not match; the furthest token any rule failed at is the
// one a syntax error names, which is how DynamoDB's (and PEG's) messages point.
type parser struct {
	src  string
	kind Kind
	ctx  *Context
	toks []token
	pos  int
	far  int
	errs [numErrClasses]string
	ops  int // operators and functions, counted for DynamoDB's limit
}

// Limits on an expression's text (Constraints.html, "Expression parameters"): 4 KB
// of text, measured before placeholders are replaced, and 300 operators or functions.
const (
	maxExpressionSize = 4096
	maxOperators      = 300
)

// newParser starts a parse, or returns DynamoDB's error for an expression that is
// empty or too long to parse at all.
func newParser(src string, kind Kind, ctx *Context) (*parser, *Error) {
	if src == "" {
		return nil, kind.emptyError()
	}
	if len(src) > maxExpressionSize {
		return nil, kind.invalid("Expression size has exceeded the maximum allowed size; expression size: " + strconv.Itoa(len(src)))
	}
	p := parsers.Get().(*parser)
	toks := p.toks
	*p = parser{src: src, kind: kind, ctx: orNew(ctx)}
	p.toks = lex(src, toks[:0])
	return p, nil
}

// parsers keeps parsers, with their token buffers, from one parse to the next: a
// Query parses its key condition on every request, and the parser was the largest
// part of what that allocated (serve's BenchmarkServerCPU, issue 24).
var parsers = sync.Pool{New: func() any { return new(parser) }}

// release gives the parser back once its parse is done: what it parsed refers to
// its source, never to the parser or its tokens. A token buffer grown past a
// typical expression's is not kept.
func (p *parser) release() {
	toks := p.toks
	clear(toks) // the tokens' texts, which hold the source
	if cap(toks) > 64 {
		toks = nil
	}
	*p = parser{toks: toks[:0]}
	parsers.Put(p)
}

// operator counts one operator or function towards DynamoDB's limit.
func (p *parser) operator() { p.ops++ }

func (p *parser) tok() token { return p.toks[p.pos] }

// fail records that a rule could not match at the current token.
func (p *parser) fail() bool {
	if p.pos > p.far {
		p.far = p.pos
	}
	return false
}

// accept consumes a token of kind k.
func (p *parser) accept(k tokKind) bool {
	if p.toks[p.pos].kind != k {
		return p.fail()
	}
	p.pos++
	return true
}

// keyword consumes the keyword kw (upper case) in any case.
func (p *parser) keyword(kw string) bool {
	if !p.toks[p.pos].is(kw) {
		return p.fail()
	}
	p.pos++
	return true
}

// note records a semantic error; the first of each class is kept.
func (p *parser) note(c errClass, format string, args ...any) {
	if p.errs[c] == "" {
		if len(args) > 0 {
			format = Validation(format, args...).Message
		}
		p.errs[c] = format
	}
}

// finish turns the parse outcome into an error: a syntax error if the rules did not
// consume every token, else the winning semantic error, else nil.
func (p *parser) finish(ok bool) *Error {
	if !ok || p.toks[p.pos].kind != tokEOF {
		p.fail()
		return p.kind.invalid(p.syntaxError())
	}
	if p.ops > maxOperators {
		p.note(errTooMany, "The expression contains too many operators; operator count: %d", p.ops)
	}
	for _, c := range classOrder(p.kind) {
		if p.errs[c] != "" {
			return p.kind.invalid(p.errs[c])
		}
	}
	return nil
}

// syntaxError is DynamoDB's "Syntax error; token: "x", near: "a x b"": the offending
// token, and the source from the token before it to the token after it.
func (p *parser) syntaxError() string {
	t := p.toks[p.far]
	from, to := t.start, t.end
	if p.far > 0 {
		from = p.toks[p.far-1].start
	}
	if p.far+1 < len(p.toks) && p.toks[p.far+1].kind != tokEOF {
		to = p.toks[p.far+1].end
	}
	near := strings.TrimSpace(p.src[from:to])
	return "Syntax error; token: " + strconv.Quote(t.text) + ", near: " + strconv.Quote(near)
}

// isGrammarWord reports whether t is a word the grammar of kind k uses, which can
// therefore be no bare attribute or function name in it (dynalite: ReservedWord).
func isGrammarWord(k Kind, t token) bool {
	switch k {
	case KindUpdate:
		return t.is("SET") || t.is("REMOVE") || t.is("ADD") || t.is("DELETE")
	case KindProjection:
		return false
	}
	return t.is("AND") || t.is("OR") || t.is("NOT") || t.is("BETWEEN") || t.is("IN")
}

// ConditionKeyword is the keyword of key conditions, filters and conditions (AND,
// OR, NOT, BETWEEN, IN) that word spells, in upper case; ok is false for any other
// word. DynamoDB reads these words in any letter case ("and" is AND: the reserved
// words "list isn't case-sensitive", ReservedWords.html), while its function names
// are case-sensitive (Expressions.OperatorsAndFunctions.html), so begins_with is
// no keyword and keeps its spelling.
func ConditionKeyword(word string) (keyword string, ok bool) {
	if !isGrammarWord(KindCondition, token{kind: tokIdent, text: word}) {
		return "", false
	}
	return strings.ToUpper(word), true
}

// path parses a document path: a name, then .name or [index] steps.
func (p *parser) path() (Path, bool) {
	var path Path
	if !p.pathName(&path) {
		return nil, false
	}
	for {
		switch p.tok().kind {
		case tokDot:
			save := p.pos
			p.pos++
			if !p.pathName(&path) {
				p.pos = save
				return path, true
			}
		case tokLBrack:
			save := p.pos
			p.pos++
			t := p.tok()
			if t.kind != tokNumber {
				p.fail()
				p.pos = save
				return path, true
			}
			n, err := strconv.Atoi(t.text)
			if err != nil { // too many digits for any list
				p.fail()
				p.pos = save
				return path, true
			}
			p.pos++
			if !p.accept(tokRBrack) {
				p.pos = save
				return path, true
			}
			path = append(path, PathElem{Index: n, IsIndex: true})
		default:
			return path, true
		}
	}
}

// pathName parses one name of a path, bare or #placeholder, and appends it.
func (p *parser) pathName(path *Path) bool {
	t := p.tok()
	switch {
	case t.kind == tokIdent && !isGrammarWord(p.kind, t):
		if isReserved(t.text) {
			p.note(errReserved, "Attribute name is a reserved keyword; reserved keyword: "+t.text)
		}
		*path = append(*path, PathElem{Name: t.text})
	case t.kind == tokName:
		n, ok := p.ctx.name(t.text)
		if !ok {
			p.note(errUndefined, "An expression attribute name used in the document path is not defined; attribute name: "+t.text)
		}
		*path = append(*path, PathElem{Name: n})
	default:
		return p.fail()
	}
	p.pos++
	return true
}

// value parses a :value placeholder.
func (p *parser) value() (model.Value, bool) {
	t := p.tok()
	if t.kind != tokValue {
		return model.Value{}, p.fail()
	}
	p.pos++
	v, ok := p.ctx.value(t.text)
	if !ok {
		p.note(errUndefined, "An expression attribute value used in expression is not defined; attribute value: "+t.text)
	}
	return v, true
}

// operandKind says what an operand is.
type operandKind uint8

const (
	opPath  operandKind = iota + 1
	opValue             // a :value
	opFunc              // a function call: size, if_not_exists, list_append, or a misused one
	opArith             // + or - in an UpdateExpression SET
)

// operand is one operand of a condition or of an update's SET value.
type operand struct {
	kind operandKind
	path Path
	val  model.Value
	fn   string // function name, or "+" / "-"
	args []*operand
	// typ is the operand's type when the parse can know it (a :value, size(), ...),
	// 0 when it depends on the item, as DynamoDB's checks do (getType in dynalite).
	typ model.Type
	// fnBool marks a call to a function that yields a condition, not a value.
	fnBool bool
	// ph is the placeholder the operand was written as: a :value's, or the #name of
	// a path of one step ("" otherwise). A key condition kept by its text is bound
	// to a later request's maps through it (keptKeyConds).
	ph string
}

// operandParens parses an operand, optionally in parentheses. A pair directly around
// an operand that is already in parentheses is DynamoDB's "redundant parentheses"
// in conditions; an UpdateExpression accepts it.
func (p *parser) operandParens() (*operand, bool) {
	if p.tok().kind != tokLParen {
		return p.operand()
	}
	save := p.pos
	p.pos++
	inner := p.tok().kind == tokLParen
	if op, ok := p.operandParens(); ok && p.accept(tokRParen) {
		if inner && p.kind != KindUpdate {
			p.note(errParens, "The expression has redundant parentheses;")
		}
		return op, true
	}
	p.pos = save
	return nil, p.fail()
}

// operand parses a function call, a :value or a path.
func (p *parser) operand() (*operand, bool) {
	t := p.tok()
	switch {
	case t.kind == tokValue:
		v, _ := p.value()
		return &operand{kind: opValue, val: v, typ: v.Type, ph: t.text}, true
	case t.kind == tokIdent && !isGrammarWord(p.kind, t) && p.toks[p.pos+1].kind == tokLParen:
		return p.call()
	}
	path, ok := p.path()
	if !ok {
		return nil, false
	}
	o := &operand{kind: opPath, path: path}
	if len(path) == 1 && t.kind == tokName {
		o.ph = t.text
	}
	return o, true
}

// operandList parses "a, b, ..." (at least one operand): a function's arguments or
// IN's list. ok is false when an operand does not parse; the caller rewinds.
func (p *parser) operandList() ([]*operand, bool) {
	var list []*operand
	for {
		a, ok := p.operandParens()
		if !ok {
			return nil, false
		}
		list = append(list, a)
		if p.tok().kind != tokComma {
			return list, true
		}
		p.pos++
	}
}

// call parses name(arg, ...). The function's checks run once its arguments are known.
func (p *parser) call() (*operand, bool) {
	save := p.pos
	name := p.tok().text
	p.pos += 2 // name and (
	args, ok := p.operandList()
	if !ok {
		p.pos = save
		return nil, false
	}
	if !p.accept(tokRParen) {
		p.pos = save
		return nil, false
	}
	op := &operand{kind: opFunc, fn: name, args: args}
	p.operator()
	if p.kind == KindUpdate {
		p.checkUpdateFunction(op)
	} else {
		p.misused(args...)
		p.checkConditionFunction(op)
	}
	return op, true
}

// misused notes a function that yields a condition used where a value is needed.
func (p *parser) misused(ops ...*operand) {
	for _, o := range ops {
		if o.kind == opFunc && o.fn != "size" {
			p.note(errMisusedFunction, "The function is not allowed to be used this way in an expression; function: "+o.fn)
			return
		}
	}
}

// conditionArity is the operand count of each condition function
// (Expressions.OperatorsAndFunctions.html, "Functions").
var conditionArity = map[string]int{"attribute_exists": 1, "attribute_not_exists": 1,
	"attribute_type": 2, "begins_with": 2, "contains": 2, "size": 1}

// typeNameList is the list DynamoDB's attribute_type message shows.
const typeNameList = "{B,NULL,SS,BOOL,L,BS,N,NS,S,M}"

func (p *parser) checkConditionFunction(op *operand) {
	n, known := conditionArity[op.fn]
	if !known {
		p.note(errUnknownFunction, "Invalid function name; function: "+op.fn)
		return
	}
	op.fnBool = op.fn != "size"
	if n != len(op.args) {
		p.note(errOperand, "Incorrect number of operands for operator or function; operator or function: %s, number of operands: %d", op.fn, len(op.args))
		return
	}
	p.distinct(op.fn, op.args)
	badType := func(t string) {
		p.note(errFunction, "Incorrect operand type for operator or function; operator or function: %s, operand type: %s", op.fn, t)
	}
	switch op.fn {
	case "attribute_exists", "attribute_not_exists":
		if op.args[0].kind != opPath {
			p.note(errFunction, "Operator or function requires a document path; operator or function: "+op.fn)
		}
	case "begins_with":
		for _, a := range op.args {
			if a.typ != 0 && a.typ != model.TypeS && a.typ != model.TypeB {
				badType(a.typ.String())
				return
			}
		}
	case "attribute_type":
		a := op.args[1]
		if a.typ != model.TypeS {
			name := "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}"
			if a.typ != 0 {
				name = a.typ.String()
			}
			badType(name)
			return
		}
		if _, ok := model.ParseType(a.val.Str); !ok || a.kind != opValue {
			p.note(errFunction, "Invalid attribute type name found; type: %s, valid types: %s", a.val.Str, typeNameList)
		}
	case "size":
		switch t := op.args[0].typ; t {
		case model.TypeN, model.TypeBOOL, model.TypeNULL:
			badType(t.String())
		}
		op.typ = model.TypeN
	}
}

// distinct notes a two-operand operator applied to one path twice ("a = a").
func (p *parser) distinct(name string, args []*operand) {
	if len(args) != 2 || args[0].kind != opPath || args[1].kind != opPath ||
		!slices.Equal(args[0].path, args[1].path) {
		return
	}
	p.note(errDistinct, "The first operand must be distinct from the remaining operands for this operator or function; operator: %s, first operand: %s",
		name, pathList(args[0].path))
}

// pathList writes a path as DynamoDB's messages do: "[a, b, [2]]".
func pathList(p Path) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, e := range p {
		if i > 0 {
			b.WriteString(", ")
		}
		if e.IsIndex {
			b.WriteString("[" + strconv.Itoa(e.Index) + "]")
		} else {
			b.WriteString(e.Name)
		}
	}
	b.WriteByte(']')
	return b.String()
}

// checkPaths notes overlapping or conflicting paths among those an expression
// assigns or projects (Expressions.UpdateExpressions.html, ProjectionExpressions):
// one path a prefix of another overlaps; paths that step into the same attribute once
// as a map and once as a list conflict.
func (p *parser) checkPaths(paths []Path) {
	for j := 1; j < len(paths); j++ {
		for i := 0; i < j; i++ {
			a, b := paths[i], paths[j]
			k := 0
			for k < len(a) && k < len(b) && a[k] == b[k] {
				k++
			}
			switch {
			case k == len(a) || k == len(b):
				p.note(errOverlap, "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: %s, path two: %s", pathList(a), pathList(b))
				return
			case a[k].IsIndex != b[k].IsIndex:
				p.note(errConflict, "Two document paths conflict with each other; must remove or rewrite one of these paths; path one: %s, path two: %s", pathList(a), pathList(b))
				return
			}
		}
	}
}

// reservedSorted is reservedWords split and sorted, searched without allocating.
var reservedSorted = func() []string {
	ws := strings.Fields(reservedWords)
	sort.Strings(ws)
	return ws
}()

// IsReserved reports whether an attribute name must be written through
// ExpressionAttributeNames: it is one of DynamoDB's reserved words, in any case
// (ReservedWords.html). The workbench's pattern form uses it to write a key
// condition it offers.
func IsReserved(name string) bool { return isReserved(name) }

// isReserved reports whether a bare name is one of DynamoDB's reserved words, in
// any case (ReservedWords.html).
func isReserved(name string) bool {
	i := sort.Search(len(reservedSorted), func(i int) bool {
		return compareFold(reservedSorted[i], name) >= 0
	})
	return i < len(reservedSorted) && compareFold(reservedSorted[i], name) == 0
}

// compareFold compares an upper-case word with an ASCII name as if the name were
// upper case too.
func compareFold(upper, name string) int {
	for i := 0; i < len(upper) && i < len(name); i++ {
		c := name[i]
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		if upper[i] != c {
			if upper[i] < c {
				return -1
			}
			return 1
		}
	}
	return len(upper) - len(name)
}
