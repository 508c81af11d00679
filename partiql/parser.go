package partiql

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"stwb/model"
)

// The grammar (DynamoDB's subset of PartiQL, ql-reference.select.html,
// ql-reference.insert.html, ql-reference.update.html, ql-reference.delete.html):
//
//	statement := (select | insert | update | delete | exists) [';'] EOF
//	select    := SELECT ('*' | path {',' path}) FROM name ['.' name]
//	             [WHERE cond] [ORDER BY name [ASC|DESC] {',' name [ASC|DESC]}]
//	insert    := INSERT INTO name VALUE tuple
//	update    := UPDATE name (SET assign {',' assign} | REMOVE path {',' path})+
//	             WHERE cond [RETURNING (ALL|MODIFIED) (OLD|NEW) '*']
//	delete    := DELETE FROM name WHERE cond [RETURNING ALL OLD '*']
//	exists    := EXISTS '(' select ')'           (ExecuteTransaction only)
//	cond      := and {OR and};  and := not {AND not};  not := NOT not | pred
//	pred      := sum [cmp sum | [NOT] BETWEEN sum AND sum | [NOT] IN list | IS [NOT] type]
//	sum       := term {('+'|'-') term}
//	term      := literal | '?' | path | name '(' [cond {',' cond}] ')' | '(' cond ')'
//	             | '{' [string ':' cond {',' ...}] '}' | '[' ... ']' | '<<' ... '>>'
//	path      := name {'.' name | '[' digits ']'}
//	name      := bare identifier (not a reserved word) | "quoted identifier"

// Parse reads one statement.
func Parse(src string) (*Statement, *Error) {
	p := &parser{src: src, toks: lex(src)}
	st, err := p.statement()
	if err != nil {
		return nil, err
	}
	st.Params, st.Src = p.params, src
	return st, nil
}

type parser struct {
	src    string
	toks   []token
	i      int
	params int
}

func (p *parser) tok() token { return p.toks[p.i] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

// is says whether the current token is the keyword kw (upper case), in any case.
func (p *parser) is(kw string) bool {
	t := p.tok()
	return t.kind == tokIdent && strings.EqualFold(t.text, kw)
}

func (p *parser) accept(kw string) bool {
	if p.is(kw) {
		p.i++
		return true
	}
	return false
}

func (p *parser) punct(s string) bool {
	t := p.tok()
	return t.kind == tokPunct && t.text == s
}

func (p *parser) acceptPunct(s string) bool {
	if p.punct(s) {
		p.i++
		return true
	}
	return false
}

// unexpected is DynamoDB's complaint about the current token: a reserved word
// where none belongs, the statement's end where more was needed, or another token.
func (p *parser) unexpected() *Error {
	t := p.tok()
	switch {
	case t.kind == tokEOF:
		return notWellFormed("Unexpected term")
	case t.kind == tokIllegal:
		return notWellFormed("Invalid character")
	case t.kind == tokIdent && isKeyword(t.text):
		return notWellFormed("Unexpected keyword")
	}
	return notWellFormed("Unexpected token")
}

func (p *parser) expect(kw string) *Error {
	if !p.accept(kw) {
		return p.unexpected()
	}
	return nil
}

func (p *parser) at(pos, length int) string { return at(p.src, pos, length) }

// At is the place DynamoDB's messages name a token of the statement by:
// line:column:length, counted in characters from 1 (pos is a byte offset).
func (st *Statement) At(pos, length int) string { return at(st.Src, pos, length) }

func at(src string, pos, length int) string {
	line, col := 1, 1
	for _, r := range src[:min(pos, len(src))] {
		if r == '\n' {
			line, col = line+1, 1
			continue
		}
		col++
	}
	return fmt.Sprintf("%d:%d:%d", line, col, length)
}

func (p *parser) statement() (*Statement, *Error) {
	var st *Statement
	var err *Error
	switch {
	case p.accept("SELECT"):
		st, err = p.selectBody()
	case p.accept("INSERT"):
		st, err = p.insert()
	case p.accept("UPDATE"):
		st, err = p.update()
	case p.accept("DELETE"):
		st, err = p.delete()
	case p.accept("EXISTS"):
		st, err = p.exists()
	default:
		// A statement that is not a data manipulation statement, as DynamoDB
		// words it whatever the first token is.
		return nil, notWellFormed("Expected data manipulation")
	}
	if err != nil {
		return nil, err
	}
	p.acceptPunct(";")
	if p.tok().kind != tokEOF {
		return nil, p.unexpected()
	}
	return st, nil
}

// table reads the statement's table name and notes where it is.
func (p *parser) table(st *Statement) *Error {
	t := p.tok()
	n, err := p.name()
	st.Table, st.TablePos, st.TableLen = n, t.pos, t.len
	return err
}

// name reads a table, index or attribute name: a bare identifier that is not a
// reserved word, or a quoted one.
func (p *parser) name() (string, *Error) {
	t := p.tok()
	switch {
	case t.kind == tokQuoted:
		p.i++
		return t.text, nil
	case t.kind == tokIdent && !isKeyword(t.text):
		p.i++
		return t.text, nil
	}
	return "", p.unexpected()
}

func (p *parser) selectBody() (*Statement, *Error) {
	st := &Statement{Kind: Select}
	if p.acceptPunct("*") {
		st.Star = true
	} else {
		for {
			t := p.tok()
			if t.kind == tokIdent && p.toks[p.i+1].kind == tokPunct && p.toks[p.i+1].text == "(" {
				return nil, validation("Unexpected path component at %s", p.at(t.pos, t.len))
			}
			path, err := p.path()
			if err != nil {
				return nil, err
			}
			st.Projection = append(st.Projection, path)
			if !p.acceptPunct(",") {
				break
			}
		}
		if err := duplicateProjection(st.Projection); err != nil {
			return nil, err
		}
	}
	if err := p.expect("FROM"); err != nil {
		return nil, err
	}
	var err *Error
	if err = p.table(st); err != nil {
		return nil, err
	}
	if p.acceptPunct(".") {
		if st.Index, err = p.name(); err != nil {
			return nil, err
		}
	}
	if p.accept("WHERE") {
		if st.Where, err = p.cond(); err != nil {
			return nil, err
		}
	}
	if p.accept("ORDER") {
		if err := p.expect("BY"); err != nil {
			return nil, err
		}
		for {
			n, err := p.name()
			if err != nil {
				return nil, err
			}
			o := Order{Name: n}
			if p.accept("DESC") {
				o.Desc = true
			} else {
				p.accept("ASC")
			}
			st.OrderBy = append(st.OrderBy, o)
			if !p.acceptPunct(",") {
				break
			}
		}
		if st.Where == nil {
			return nil, validation("Must have WHERE clause in the statement when using ORDER BY clause.")
		}
	}
	return st, nil
}

// duplicateProjection refuses a SELECT list that names one attribute twice: the
// result's attribute is the path's last name, so two would collide.
func duplicateProjection(paths []Path) *Error {
	seen := map[string]bool{}
	for _, pa := range paths {
		n := pa.String()
		if seen[n] {
			return validation("Duplicate identifiers in select clause: %s", n)
		}
		seen[n] = true
	}
	return nil
}

func (p *parser) insert() (*Statement, *Error) {
	st := &Statement{Kind: Insert}
	if err := p.expect("INTO"); err != nil {
		return nil, err
	}
	var err *Error
	if err = p.table(st); err != nil {
		return nil, err
	}
	if !p.accept("VALUE") {
		return nil, p.unexpected()
	}
	if !p.punct("{") {
		if p.punct("<<") {
			return nil, validation(`Unsupported operation: Inserting multiple items in a single statement is not supported, use "INSERT INTO tableName VALUE item" instead`)
		}
		return nil, validation("Unsupported format in item expression. Please use struct format {...} to express item values for insert statement.")
	}
	if st.Value, err = p.term(); err != nil {
		return nil, err
	}
	if p.is("RETURNING") {
		return nil, validation("RETURNING is not supported in INSERT")
	}
	return st, nil
}

func (p *parser) update() (*Statement, *Error) {
	st := &Statement{Kind: Update}
	var err *Error
	if err = p.table(st); err != nil {
		return nil, err
	}
	for {
		switch {
		case p.accept("SET"):
			for {
				path, err := p.path()
				if err != nil {
					return nil, err
				}
				if !p.acceptPunct("=") {
					return nil, p.unexpected()
				}
				v, err := p.sum()
				if err != nil {
					return nil, err
				}
				st.Actions = append(st.Actions, Action{Path: path, Value: v})
				if !p.acceptPunct(",") {
					break
				}
			}
			continue
		case p.accept("REMOVE"):
			for {
				path, err := p.path()
				if err != nil {
					return nil, err
				}
				st.Actions = append(st.Actions, Action{Path: path})
				if !p.acceptPunct(",") {
					break
				}
			}
			continue
		}
		break
	}
	if len(st.Actions) == 0 {
		return nil, notWellFormed("Expected data manipulation")
	}
	if !p.accept("WHERE") {
		if p.tok().kind == tokEOF {
			return nil, validation("Where clause does not contain a mandatory equality on all key attributes")
		}
		return nil, p.unexpected()
	}
	if st.Where, err = p.cond(); err != nil {
		return nil, err
	}
	return st, p.returning(st)
}

func (p *parser) delete() (*Statement, *Error) {
	st := &Statement{Kind: Delete}
	if err := p.expect("FROM"); err != nil {
		return nil, err
	}
	var err *Error
	if err = p.table(st); err != nil {
		return nil, err
	}
	if !p.accept("WHERE") {
		if p.tok().kind == tokEOF {
			return nil, validation("Where clause does not contain a mandatory equality on all key attributes")
		}
		return nil, p.unexpected()
	}
	if st.Where, err = p.cond(); err != nil {
		return nil, err
	}
	if err := p.returning(st); err != nil {
		return nil, err
	}
	if st.Returning != "" && st.Returning != "ALL OLD" {
		return nil, validation("Invalid returning clause: RETURNING %s *. Only RETURNING ALL OLD * is allowed in DELETE statements.", st.Returning)
	}
	return st, nil
}

// returning reads RETURNING (ALL|MODIFIED) (OLD|NEW) *.
func (p *parser) returning(st *Statement) *Error {
	if !p.accept("RETURNING") {
		return nil
	}
	var which, age string
	switch {
	case p.accept("ALL"):
		which = "ALL"
	case p.accept("MODIFIED"):
		which = "MODIFIED"
	default:
		return p.unexpected()
	}
	switch {
	case p.accept("OLD"):
		age = "OLD"
	case p.accept("NEW"):
		age = "NEW"
	default:
		return p.unexpected()
	}
	if !p.acceptPunct("*") {
		return validation("Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause")
	}
	st.Returning = which + " " + age
	return nil
}

// exists reads EXISTS(SELECT ...): a condition check in ExecuteTransaction.
func (p *parser) exists() (*Statement, *Error) {
	if !p.acceptPunct("(") {
		return nil, p.unexpected()
	}
	if err := p.expect("SELECT"); err != nil {
		return nil, err
	}
	st, err := p.selectBody()
	if err != nil {
		return nil, err
	}
	if !p.acceptPunct(")") {
		return nil, p.unexpected()
	}
	st.Kind = Exists
	return st, nil
}

// path reads a document path: a name, then .name and [index] steps. A reserved
// word after a dot is DynamoDB's "Invalid path dot component".
func (p *parser) path() (Path, *Error) {
	n, err := p.name()
	if err != nil {
		return nil, err
	}
	path := Path{{Name: n}}
	for {
		switch {
		case p.acceptPunct("."):
			t := p.tok()
			if t.kind == tokIdent && isKeyword(t.text) {
				return nil, notWellFormed("Invalid path dot component")
			}
			n, err := p.name()
			if err != nil {
				return nil, err
			}
			path = append(path, PathElem{Name: n})
		case p.acceptPunct("["):
			t := p.tok()
			if t.kind != tokNumber || strings.ContainsAny(t.text, ".eE") {
				return nil, p.unexpected()
			}
			p.i++
			n, perr := strconv.Atoi(t.text)
			if perr != nil {
				return nil, validation("List index is not within the allowable range; index: [%s]", t.text)
			}
			if !p.acceptPunct("]") {
				return nil, p.unexpected()
			}
			path = append(path, PathElem{Index: n, IsIndex: true})
		default:
			return path, nil
		}
	}
}

func (p *parser) cond() (Expr, *Error) { return p.chain("OR", p.and) }

func (p *parser) and() (Expr, *Error) { return p.chain("AND", p.not) }

// chain parses operands joined by the keyword op, left-associative: OR over ANDs,
// AND over NOTs, which is how the precedence falls out.
func (p *parser) chain(op string, operand func() (Expr, *Error)) (Expr, *Error) {
	l, err := operand()
	if err != nil {
		return nil, err
	}
	for p.is(op) {
		at := p.next().pos
		r, err := operand()
		if err != nil {
			return nil, err
		}
		l = &Binary{Op: op, L: l, R: r, At: at}
	}
	return l, nil
}

func (p *parser) not() (Expr, *Error) {
	if p.is("NOT") {
		at := p.next().pos
		x, err := p.not()
		if err != nil {
			return nil, err
		}
		return &Not{X: x, At: at}, nil
	}
	return p.pred()
}

var comparisons = map[string]string{"=": "=", "<>": "<>", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="}

// isTypes are the types IS names, as DynamoDB's message lists them.
var isTypes = []string{"MISSING", "NULL", "BOOLEAN", "BLOB", "STRING", "NUMERIC", "STRUCT", "TUPLE", "LIST"}

func (p *parser) pred() (Expr, *Error) {
	x, err := p.sum()
	if err != nil {
		return nil, err
	}
	t := p.tok()
	if t.kind == tokPunct {
		if op, ok := comparisons[t.text]; ok {
			p.i++
			r, err := p.sum()
			if err != nil {
				return nil, err
			}
			return &Binary{Op: op, L: x, R: r, At: t.pos}, nil
		}
	}
	negated := false
	if p.is("NOT") && (p.toks[p.i+1].kind == tokIdent) &&
		(strings.EqualFold(p.toks[p.i+1].text, "BETWEEN") || strings.EqualFold(p.toks[p.i+1].text, "IN")) {
		p.i++
		negated = true
	}
	switch {
	case p.accept("BETWEEN"):
		lo, err := p.sum()
		if err != nil {
			return nil, err
		}
		if err := p.expect("AND"); err != nil {
			return nil, err
		}
		hi, err := p.sum()
		if err != nil {
			return nil, err
		}
		return &Between{X: x, Lo: lo, Hi: hi, Not: negated, At: t.pos}, nil
	case p.accept("IN"):
		open, close := "[", "]"
		if p.punct("(") {
			open, close = "(", ")"
		}
		if !p.acceptPunct(open) {
			return nil, validation("IN operator must have a left hand argument of type Variable Reference and right hand argument of type Seq with at least one member")
		}
		var list []Expr
		if !p.punct(close) {
			for {
				e, err := p.sum()
				if err != nil {
					return nil, err
				}
				list = append(list, e)
				if !p.acceptPunct(",") {
					break
				}
			}
		}
		if !p.acceptPunct(close) {
			return nil, p.unexpected()
		}
		if len(list) == 0 {
			return nil, validation("IN operator must have a left hand argument of type Variable Reference and right hand argument of type Seq with at least one member")
		}
		return &In{X: x, List: list, Not: negated, At: t.pos}, nil
	case p.accept("IS"):
		is := &Is{X: x, At: t.pos}
		is.Not = p.accept("NOT")
		tt := p.tok()
		if tt.kind != tokIdent {
			return nil, p.unexpected()
		}
		p.i++
		is.Type = strings.ToUpper(tt.text)
		known := false
		for _, k := range isTypes {
			known = known || k == is.Type
		}
		if !known {
			return nil, validation("Unsupported data type for IS operator: %s. Supported data types are [%s]", is.Type, strings.Join(isTypes, ", "))
		}
		return is, nil
	}
	return x, nil
}

func (p *parser) sum() (Expr, *Error) {
	l, err := p.term()
	if err != nil {
		return nil, err
	}
	for p.punct("+") || p.punct("-") {
		t := p.next()
		r, err := p.term()
		if err != nil {
			return nil, err
		}
		l = &Binary{Op: t.text, L: l, R: r, At: t.pos}
	}
	return l, nil
}

func (p *parser) term() (Expr, *Error) {
	t := p.tok()
	switch t.kind {
	case tokString:
		p.i++
		if !utf8.ValidString(t.text) {
			return nil, notWellFormed("Invalid character")
		}
		return &Literal{Value: model.Str(t.text), At: t.pos}, nil
	case tokNumber:
		p.i++
		return p.number(t.text, t.pos)
	case tokParam:
		p.i++
		p.params++
		return &Param{N: p.params - 1, At: t.pos}, nil
	case tokQuoted:
		path, err := p.path()
		if err != nil {
			return nil, err
		}
		return &PathExpr{Path: path, At: t.pos}, nil
	case tokIdent:
		switch strings.ToUpper(t.text) {
		case "TRUE", "FALSE":
			p.i++
			return &Literal{Value: model.Bool(strings.EqualFold(t.text, "TRUE")), At: t.pos}, nil
		case "NULL":
			p.i++
			return &Literal{Value: model.Null(), At: t.pos}, nil
		case "MISSING":
			p.i++
			return &Literal{Missing: true, At: t.pos}, nil
		}
		if next := p.toks[p.i+1]; next.kind == tokPunct && next.text == "(" {
			return p.call()
		}
		path, err := p.path()
		if err != nil {
			return nil, err
		}
		return &PathExpr{Path: path, At: t.pos}, nil
	case tokPunct:
		switch t.text {
		case "(":
			p.i++
			e, err := p.cond()
			if err != nil {
				return nil, err
			}
			if !p.acceptPunct(")") {
				return nil, p.unexpected()
			}
			return e, nil
		case "-":
			if n := p.toks[p.i+1]; n.kind == tokNumber {
				p.i += 2
				return p.number("-"+n.text, t.pos)
			}
		case "{":
			return p.tuple()
		case "[":
			p.i++
			elems, err := p.elems("]")
			return &ListExpr{Elems: elems, At: t.pos}, err
		case "<<":
			p.i++
			elems, err := p.elems(">>")
			return &Bag{Elems: elems, At: t.pos}, err
		}
	}
	return nil, p.unexpected()
}

// number is a numeric literal as DynamoDB's number: a literal it cannot hold
// (more than 38 digits, out of range) is a statement it cannot read.
func (p *parser) number(text string, at int) (Expr, *Error) {
	if model.NumberProblem(text) != nil {
		return nil, notWellFormed("")
	}
	return &Literal{Value: model.Num(model.CanonicalNumber(text)), At: at}, nil
}

func (p *parser) call() (Expr, *Error) {
	t := p.next()
	p.i++ // (
	c := &Call{Name: t.text, At: t.pos, Len: t.len}
	if !p.punct(")") {
		for {
			e, err := p.cond()
			if err != nil {
				return nil, err
			}
			c.Args = append(c.Args, e)
			if !p.acceptPunct(",") {
				break
			}
		}
	}
	if !p.acceptPunct(")") {
		return nil, p.unexpected()
	}
	return c, nil
}

func (p *parser) tuple() (Expr, *Error) {
	t := p.next() // {
	tu := &Tuple{At: t.pos}
	seen := map[string]bool{}
	if !p.punct("}") {
		for {
			k := p.tok()
			if k.kind != tokString {
				if k.kind == tokParam {
					return nil, validation("Tuple keys must be of type String. Actual type: PARAMETER under root")
				}
				return nil, p.unexpected()
			}
			p.i++
			if seen[k.text] {
				return nil, validation("Duplicate keys in tuple. Key: %s under root", k.text)
			}
			seen[k.text] = true
			if !p.acceptPunct(":") {
				return nil, p.unexpected()
			}
			v, err := p.sum()
			if err != nil {
				return nil, err
			}
			tu.Keys, tu.Values = append(tu.Keys, k.text), append(tu.Values, v)
			if !p.acceptPunct(",") {
				break
			}
		}
	}
	if !p.acceptPunct("}") {
		return nil, p.unexpected()
	}
	return tu, nil
}

func (p *parser) elems(close string) ([]Expr, *Error) {
	var out []Expr
	if !p.punct(close) {
		for {
			e, err := p.sum()
			if err != nil {
				return nil, err
			}
			out = append(out, e)
			if !p.acceptPunct(",") {
				break
			}
		}
	}
	if !p.acceptPunct(close) {
		return nil, p.unexpected()
	}
	return out, nil
}
