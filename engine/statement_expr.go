package engine

import (
	"strconv"
	"strings"

	"stwb/model"
	"stwb/partiql"
)

// A PartiQL statement's WHERE clause and SET actions become the engine's own
// expressions (KeyConditionExpression, FilterExpression, ConditionExpression,
// UpdateExpression), every name and value behind a placeholder, so that a
// statement is checked, evaluated and priced by the same code as the request it
// stands for.

// exprBuilder writes expressions over one set of placeholders.
type exprBuilder struct {
	st     *partiql.Statement
	params []model.Value
	names  map[string]string
	values map[string]model.Value
	byName map[string]string
}

func newExprBuilder(st *partiql.Statement, params []model.Value) *exprBuilder {
	return &exprBuilder{st: st, params: params, names: map[string]string{}, values: map[string]model.Value{}, byName: map[string]string{}}
}

// maps are the builder's names and values as a request carries them (nil when
// empty, as a request without them).
func (b *exprBuilder) maps() (map[string]string, map[string]model.Value) {
	var n map[string]string
	var v map[string]model.Value
	if len(b.names) > 0 {
		n = b.names
	}
	if len(b.values) > 0 {
		v = b.values
	}
	return n, v
}

func (b *exprBuilder) name(n string) string {
	if ph, ok := b.byName[n]; ok {
		return ph
	}
	ph := "#n" + strconv.Itoa(len(b.byName))
	b.byName[n], b.names[ph] = ph, n
	return ph
}

func (b *exprBuilder) value(v model.Value) string {
	ph := ":v" + strconv.Itoa(len(b.values))
	b.values[ph] = v
	return ph
}

func (b *exprBuilder) path(p partiql.Path) string {
	var s strings.Builder
	for i, e := range p {
		switch {
		case e.IsIndex:
			s.WriteString("[" + strconv.Itoa(e.Index) + "]")
		case i == 0:
			s.WriteString(b.name(e.Name))
		default:
			s.WriteString("." + b.name(e.Name))
		}
	}
	return s.String()
}

// literal is a value expression's value, or DynamoDB's refusal of MISSING where
// a value is compared.
func (b *exprBuilder) literal(e partiql.Expr) (model.Value, *Error) {
	v, missing, err := partiql.Value(e, b.params)
	if err != nil {
		return model.Value{}, fromStatement(err)
	}
	if missing {
		return model.Value{}, validation("MISSING must be compared using IS operator")
	}
	return v, nil
}

// isValue says whether e is a value (a literal, a parameter, a tuple, list or bag).
func isValue(e partiql.Expr) bool {
	switch e.(type) {
	case *partiql.Literal, *partiql.Param, *partiql.Tuple, *partiql.ListExpr, *partiql.Bag:
		return true
	}
	return false
}

// operand writes an operand of a comparison: a path, a value, or size(path).
func (b *exprBuilder) operand(e partiql.Expr) (string, *Error) {
	switch x := e.(type) {
	case *partiql.PathExpr:
		return b.path(x.Path), nil
	case *partiql.Call:
		if strings.EqualFold(x.Name, "size") {
			return b.call(x)
		}
		return "", validation("Unrecognized function: %s at %s", strings.ToLower(x.Name), b.st.At(x.At, x.Len))
	}
	if isValue(e) {
		v, err := b.literal(e)
		if err != nil {
			return "", err
		}
		return b.value(v), nil
	}
	return "", validation("Unsupported operation: %s", "a condition where a value belongs")
}

// functions are the functions a WHERE clause may call, with their operand count
// (ql-functions.html): each is the expression function of the same name.
var functions = map[string]int{"begins_with": 2, "contains": 2, "attribute_exists": 1, "attribute_not_exists": 1, "attribute_type": 2, "size": 1}

func (b *exprBuilder) call(c *partiql.Call) (string, *Error) {
	name := strings.ToLower(c.Name)
	n, ok := functions[name]
	if !ok {
		return "", validation("Unrecognized function: %s at %s", name, b.st.At(c.At, c.Len))
	}
	if len(c.Args) != n {
		return "", validation("Incorrect number of operands for operator or function; operator or function: %s, number of operands: %d", name, len(c.Args))
	}
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		if i == 0 {
			p, ok := a.(*partiql.PathExpr)
			if !ok {
				return "", validation("Operator or function requires a document path; operator or function: %s", name)
			}
			args[i] = b.path(p.Path)
			continue
		}
		s, err := b.operand(a)
		if err != nil {
			return "", err
		}
		args[i] = s
	}
	return name + "(" + strings.Join(args, ", ") + ")", nil
}

// isTypes maps IS's types to DynamoDB's type names for attribute_type.
var isTypes = map[string]string{"NULL": "NULL", "BOOLEAN": "BOOL", "BLOB": "B", "STRING": "S", "NUMERIC": "N", "STRUCT": "M", "TUPLE": "M", "LIST": "L"}

// cond writes a condition.
func (b *exprBuilder) cond(e partiql.Expr) (string, *Error) {
	switch x := e.(type) {
	case *partiql.Binary:
		switch x.Op {
		case "AND", "OR":
			l, err := b.cond(x.L)
			if err != nil {
				return "", err
			}
			r, err := b.cond(x.R)
			if err != nil {
				return "", err
			}
			return paren(x.L, l) + " " + x.Op + " " + paren(x.R, r), nil
		case "+", "-":
			return "", validation("WHERE clause must contain an expression that resolves to a boolean")
		}
		l, err := b.operand(x.L)
		if err != nil {
			return "", err
		}
		r, err := b.operand(x.R)
		if err != nil {
			return "", err
		}
		return l + " " + x.Op + " " + r, nil
	case *partiql.Not:
		c, err := b.cond(x.X)
		if err != nil {
			return "", err
		}
		return "NOT (" + c + ")", nil
	case *partiql.Between:
		parts := make([]string, 3)
		for i, o := range []partiql.Expr{x.X, x.Lo, x.Hi} {
			s, err := b.operand(o)
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		c := parts[0] + " BETWEEN " + parts[1] + " AND " + parts[2]
		if x.Not {
			c = "NOT (" + c + ")"
		}
		return c, nil
	case *partiql.In:
		l, err := b.operand(x.X)
		if err != nil {
			return "", err
		}
		list := make([]string, len(x.List))
		for i, o := range x.List {
			if list[i], err = b.operand(o); err != nil {
				return "", err
			}
		}
		c := l + " IN (" + strings.Join(list, ", ") + ")"
		if x.Not {
			c = "NOT (" + c + ")"
		}
		return c, nil
	case *partiql.Is:
		p, ok := x.X.(*partiql.PathExpr)
		if !ok {
			return "", validation("The left hand side argument to IS must be a Variable Reference, Literal, or Path")
		}
		path := b.path(p.Path)
		var c string
		if x.Type == "MISSING" {
			c = "attribute_not_exists(" + path + ")"
		} else {
			c = "attribute_type(" + path + ", " + b.value(model.Str(isTypes[x.Type])) + ")"
		}
		if x.Not {
			c = "NOT (" + c + ")"
		}
		return c, nil
	case *partiql.Call:
		if strings.EqualFold(x.Name, "size") {
			return "", validation("WHERE clause must contain an expression that resolves to a boolean")
		}
		return b.call(x)
	}
	return "", validation("WHERE clause must contain an expression that resolves to a boolean")
}

// paren puts parentheses around a compound condition (an AND or an OR) and no
// other: the expressions cond writes are never wholly parenthesized, so a pair
// is never doubled, which DynamoDB refuses as redundant.
func paren(e partiql.Expr, s string) string {
	if x, ok := e.(*partiql.Binary); ok && (x.Op == "AND" || x.Op == "OR") {
		return "(" + s + ")"
	}
	return s
}

// conjuncts splits a condition at its top-level ANDs.
func conjuncts(e partiql.Expr) []partiql.Expr {
	if x, ok := e.(*partiql.Binary); ok && x.Op == "AND" {
		return append(conjuncts(x.L), conjuncts(x.R)...)
	}
	if e == nil {
		return nil
	}
	return []partiql.Expr{e}
}

// andOf writes the conditions joined by AND; "" for none.
func (b *exprBuilder) andOf(cs []partiql.Expr) (string, *Error) {
	var parts []string
	for _, c := range cs {
		s, err := b.cond(c)
		if err != nil {
			return "", err
		}
		if len(cs) > 1 {
			s = paren(c, s)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " AND "), nil
}

// keyEquality is a conjunct "name = value" (either way round) on a top-level
// attribute; it returns the attribute and the value expression.
func keyEquality(c partiql.Expr) (string, partiql.Expr, bool) {
	x, ok := c.(*partiql.Binary)
	if !ok || x.Op != "=" {
		return "", nil, false
	}
	l, r := x.L, x.R
	if _, ok := l.(*partiql.PathExpr); !ok {
		l, r = r, l
	}
	p, ok := l.(*partiql.PathExpr)
	if !ok || len(p.Path) != 1 || !isValue(r) {
		return "", nil, false
	}
	return p.Path[0].Name, r, true
}

// update writes an UPDATE's SET and REMOVE actions as an UpdateExpression.
// set_add(p, <<...>>) and set_delete(p, <<...>>) are ADD and DELETE of that path
// (ql-functions.html); list_append and if_not_exists, + and -, are as in an
// update expression.
func (b *exprBuilder) update(actions []partiql.Action) (string, *Error) {
	var sets, removes, adds, deletes []string
	for _, a := range actions {
		path := b.path(a.Path)
		if a.Value == nil {
			removes = append(removes, path)
			continue
		}
		if c, ok := a.Value.(*partiql.Call); ok {
			fn := strings.ToLower(c.Name)
			if fn == "set_add" || fn == "set_delete" {
				clause, err := b.setFunction(c, fn, a.Path)
				if err != nil {
					return "", err
				}
				if fn == "set_add" {
					adds = append(adds, path+" "+clause)
				} else {
					deletes = append(deletes, path+" "+clause)
				}
				continue
			}
		}
		v, err := b.setValue(a.Value)
		if err != nil {
			return "", err
		}
		sets = append(sets, path+" = "+v)
	}
	var out []string
	for _, c := range []struct {
		kw    string
		parts []string
	}{{"SET", sets}, {"REMOVE", removes}, {"ADD", adds}, {"DELETE", deletes}} {
		if len(c.parts) > 0 {
			out = append(out, c.kw+" "+strings.Join(c.parts, ", "))
		}
	}
	return strings.Join(out, " "), nil
}

// setFunction checks set_add(path, bag) or set_delete(path, bag) assigned to
// path, with DynamoDB's messages, and writes the bag's placeholder.
func (b *exprBuilder) setFunction(c *partiql.Call, fn string, target partiql.Path) (string, *Error) {
	upper := strings.ToUpper(fn)
	at := b.st.At(c.At, c.Len)
	if len(c.Args) != 2 {
		return "", validation("%s must have exactly two arguments at %s", upper, at)
	}
	first, ok := c.Args[0].(*partiql.PathExpr)
	if !ok || first.Path.String() != target.String() {
		return "", validation("The first argument to %s must equal the assignment value at %s", upper, at)
	}
	bag, ok := c.Args[1].(*partiql.Bag)
	if !ok {
		if _, isParam := c.Args[1].(*partiql.Param); !isParam {
			return "", validation("The second argument to %s must be a value with type SET at %s", upper, b.st.At(first.At, len(first.Path.String())))
		}
	}
	var arg partiql.Expr = c.Args[1]
	if bag != nil {
		arg = bag
	}
	v, err := b.literal(arg)
	if err != nil {
		return "", err
	}
	if !v.Type.IsSet() {
		return "", validation("The second argument to %s must be a value with type SET at %s", upper, b.st.At(first.At, len(first.Path.String())))
	}
	return b.value(v), nil
}

// setValue writes the right-hand side of a SET: a value, a path, a + or -, or
// list_append and if_not_exists.
func (b *exprBuilder) setValue(e partiql.Expr) (string, *Error) {
	switch x := e.(type) {
	case *partiql.PathExpr:
		return b.path(x.Path), nil
	case *partiql.Binary:
		if x.Op != "+" && x.Op != "-" {
			return "", validation("Unsupported operator in Update Expression. Operator: %s", x.Op)
		}
		l, err := b.setValue(x.L)
		if err != nil {
			return "", err
		}
		r, err := b.setValue(x.R)
		if err != nil {
			return "", err
		}
		return l + " " + x.Op + " " + r, nil
	case *partiql.Call:
		fn := strings.ToLower(x.Name)
		if fn != "list_append" && fn != "if_not_exists" {
			return "", validation("Unrecognized function: %s at %s", fn, b.st.At(x.At, x.Len))
		}
		if len(x.Args) != 2 {
			return "", validation("Incorrect number of operands for operator or function; operator or function: %s, number of operands: %d", fn, len(x.Args))
		}
		l, err := b.setValue(x.Args[0])
		if err != nil {
			return "", err
		}
		r, err := b.setValue(x.Args[1])
		if err != nil {
			return "", err
		}
		return fn + "(" + l + ", " + r + ")", nil
	}
	if isValue(e) {
		v, missing, err := partiql.Value(e, b.params)
		if err != nil {
			return "", fromStatement(err)
		}
		if missing {
			return "", validation("MISSING must be compared using IS operator")
		}
		return b.value(v), nil
	}
	return "", validation("IS operator is not supported in update expressions")
}

// fromStatement turns a partiql error into the engine's.
func fromStatement(err *partiql.Error) *Error {
	if err == nil {
		return nil
	}
	return &Error{Type: err.Type, Message: err.Message}
}
