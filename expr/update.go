package expr

import (
	"errors"
	"sort"

	"stwb/model"
)

type actionKind uint8

// The four clauses of an UpdateExpression, in the order Apply runs them.
const (
	actSet actionKind = iota
	actRemove
	actAdd
	actDelete
)

var sectionNames = [...]string{"SET", "REMOVE", "ADD", "DELETE"}

type action struct {
	kind actionKind
	path Path
	set  *operand    // SET's value
	arg  model.Value // ADD's and DELETE's :value
	// argPh is arg's placeholder, through which a kept update binds a later
	// request's value (updatecache.go).
	argPh string
}

// Update is a compiled UpdateExpression.
type Update struct {
	actions []action // ordered as Apply runs them; see CompileUpdate
	paths   []Path
	attrs   []string
}

// CompileUpdate parses an UpdateExpression (Expressions.UpdateExpressions.html).
//
// An application sends the same few update texts with other values, and the parse
// was the largest part of UpdateItem's own CPU in a replay (issue 24), so a clean
// parse is kept by its text (updatecache.go) and bound to each later request's
// maps when they give the parse nothing new to decide.
func CompileUpdate(src string, ctx *Context) (*Update, error) {
	ctx = orNew(ctx)
	if kept, ok := keptUpdates.get(src); ok {
		if u, ok := kept.bind(ctx); ok {
			return u, nil
		}
	}
	u, phs, perr := parseUpdate(src, ctx)
	if perr != nil {
		return nil, perr
	}
	keptUpdates.put(src, keepUpdate(u, phs, ctx))
	return u, nil
}

// parseUpdate parses src afresh; phs are the placeholders its text holds.
func parseUpdate(src string, ctx *Context) (*Update, []token, *Error) {
	p, perr := newParser(src, KindUpdate, ctx)
	if perr != nil {
		return nil, nil, perr
	}
	defer p.release()
	actions, ok := p.sections()
	paths := make([]Path, len(actions))
	for i, a := range actions {
		paths[i] = a.path
	}
	if ok {
		p.checkPaths(paths)
	}
	if err := p.finish(ok); err != nil {
		return nil, nil, err
	}
	u := &Update{paths: paths, actions: actions}
	for _, path := range paths {
		u.attrs = appendOnce(u.attrs, path[0].Name)
	}
	sort.Strings(u.attrs)
	// Apply runs SET, then REMOVE, then ADD and DELETE. Within one list, SETs go by
	// ascending index (so that several appends past the end keep their order) and
	// REMOVEs by descending index (so that "REMOVE a[1], a[2]" removes the elements
	// that were at 1 and 2 before the update, as the guide's example does).
	sort.SliceStable(u.actions, func(i, j int) bool {
		a, b := u.actions[i], u.actions[j]
		if a.kind != b.kind {
			return a.kind < b.kind
		}
		return comparePaths(a.path, b.path, a.kind == actRemove) < 0
	})
	return u, placeholderTokens(p.toks), nil
}

// comparePaths orders paths by their elements; list indexes descend when desc.
func comparePaths(a, b Path, desc bool) int {
	for k := 0; k < len(a) && k < len(b); k++ {
		x, y := a[k], b[k]
		switch {
		case x.IsIndex && y.IsIndex && x.Index != y.Index:
			if (x.Index < y.Index) != desc {
				return -1
			}
			return 1
		case x.Name != y.Name:
			if x.Name < y.Name {
				return -1
			}
			return 1
		}
	}
	return len(a) - len(b)
}

// sections parses one or more clauses, each at most once.
func (p *parser) sections() ([]action, bool) {
	var actions []action
	var seen [4]bool
	for {
		kind := -1
		for i, kw := range sectionNames {
			if p.tok().is(kw) {
				kind = i
			}
		}
		if kind < 0 {
			if len(actions) == 0 {
				return nil, p.fail()
			}
			return actions, true
		}
		p.pos++
		if seen[kind] {
			p.note(errSection, `The "%s" section can only be used once in an update expression;`, sectionNames[kind])
		}
		seen[kind] = true
		for {
			a, ok := p.updateAction(actionKind(kind))
			if !ok {
				return nil, false
			}
			actions = append(actions, a)
			if p.tok().kind != tokComma {
				break
			}
			p.pos++
		}
	}
}

// operandTypeNames are the type names DynamoDB's ADD and DELETE messages use.
var operandTypeNames = map[model.Type]string{model.TypeS: "STRING", model.TypeN: "NUMBER",
	model.TypeB: "BINARY", model.TypeNULL: "NULL", model.TypeBOOL: "BOOLEAN",
	model.TypeL: "LIST", model.TypeM: "MAP"}

func (p *parser) updateAction(kind actionKind) (action, bool) {
	path, ok := p.path()
	if !ok {
		return action{}, false
	}
	a := action{kind: kind, path: path}
	switch kind {
	case actSet:
		if t := p.tok(); t.kind != tokCmp || t.text != "=" {
			return a, p.fail()
		}
		p.pos++
		a.set, ok = p.setValue()
	case actAdd, actDelete:
		a.argPh = p.tok().text
		a.arg, ok = p.value()
		// ADD takes a number or a set, DELETE a set (Expressions.UpdateExpressions.html).
		if name, scalar := operandTypeNames[a.arg.Type]; ok && scalar && !(kind == actAdd && a.arg.Type == model.TypeN) {
			p.note(errOperand, "Incorrect operand type for operator or function; operator: %s, operand type: %s", sectionNames[kind], name)
		}
	}
	return a, ok
}

// setValue parses the right of SET's "=": an operand, or operand + operand, or
// operand - operand, optionally in parentheses.
func (p *parser) setValue() (*operand, bool) {
	if p.tok().kind == tokLParen {
		save := p.pos
		p.pos++
		if v, ok := p.setArith(); ok && p.accept(tokRParen) &&
			p.tok().kind != tokPlus && p.tok().kind != tokMinus {
			return v, true
		}
		p.pos = save
	}
	return p.setArith()
}

func (p *parser) setArith() (*operand, bool) {
	x, ok := p.operandParens()
	if !ok {
		return nil, false
	}
	t := p.tok()
	if t.kind != tokPlus && t.kind != tokMinus {
		return x, true
	}
	p.pos++
	y, ok := p.operandParens()
	if !ok {
		return nil, false
	}
	op := &operand{kind: opArith, fn: t.text, args: []*operand{x, y}}
	p.operator()
	p.checkUpdateFunction(op)
	return op, true
}

// updateArity is the operand count of each function and operator of SET.
var updateArity = map[string]int{"if_not_exists": 2, "list_append": 2, "+": 2, "-": 2}

func (p *parser) checkUpdateFunction(op *operand) {
	n, known := updateArity[op.fn]
	if !known {
		p.note(errUnknownFunction, "Invalid function name; function: "+op.fn)
		return
	}
	if n != len(op.args) {
		p.note(errFunction, "Incorrect number of operands for operator or function; operator or function: %s, number of operands: %d", op.fn, len(op.args))
		return
	}
	want := model.TypeN
	switch op.fn {
	case "if_not_exists":
		if op.args[0].kind != opPath {
			p.note(errFunction, "Operator or function requires a document path; operator or function: if_not_exists")
		}
		op.typ = op.args[1].typ
		return
	case "list_append":
		want = model.TypeL
	}
	op.typ = want
	for _, a := range op.args {
		if a.kind == opValue && a.typ != 0 && a.typ != want {
			p.note(errFunction, "Incorrect operand type for operator or function; operator or function: %s, operand type: %s", op.fn, a.typ)
			return
		}
	}
}

// Attributes lists the top-level attribute names the update sets, removes, adds to
// or deletes from, sorted.
func (u *Update) Attributes() []string { return u.attrs }

// Paths lists the document paths the update changes, in the order written; with
// ProjectPaths they give ReturnValues UPDATED_OLD and UPDATED_NEW.
func (u *Update) Paths() []Path { return u.paths }

// The run-time errors of an update, in DynamoDB's words.
var (
	errInvalidPath = Validation("The document path provided in the update expression is invalid for update")
	errOperandType = Validation("An operand in the update expression has an incorrect data type")
	errNoAttribute = Validation("The provided expression refers to an attribute that does not exist in the item")
)

// numberError turns model's number range errors into DynamoDB's messages.
func numberError(err error) *Error {
	if errors.Is(err, model.ErrNumberOverflow) || errors.Is(err, model.ErrNumberUnderflow) || errors.Is(err, model.ErrNumberPrecision) {
		return Validation("%s", model.NumberMessage("", err))
	}
	return Validation("A value provided cannot be converted into a number")
}

// Apply returns the updated copy of item (nil item: the update creates one); item
// itself is never changed. Errors are ValidationExceptions found at run time. Every
// SET value is computed from the item as it was before the update, as DynamoDB does.
func (u *Update) Apply(item model.Item) (model.Item, error) {
	vals := make([]model.Value, len(u.actions))
	for i, a := range u.actions {
		if a.kind == actSet {
			v, err := evalSet(a.set, item)
			if err != nil {
				return nil, err
			}
			vals[i] = v.Clone()
		}
	}
	out := item.Clone()
	if out == nil {
		out = model.Item{}
	}
	for i, a := range u.actions {
		var f editFunc
		switch a.kind {
		case actSet:
			v := vals[i]
			f = func(model.Value, bool) (model.Value, bool, error) { return v, false, nil }
		case actRemove:
			f = func(model.Value, bool) (model.Value, bool, error) { return model.Value{}, true, nil }
		case actAdd:
			f = func(old model.Value, ok bool) (model.Value, bool, error) { return add(old, ok, a.arg) }
		case actDelete:
			f = func(old model.Value, ok bool) (model.Value, bool, error) { return del(old, ok, a.arg) }
		}
		if err := edit(out, a.path, f); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// evalSet computes a SET value on the item before the update.
func evalSet(o *operand, item model.Item) (model.Value, error) {
	switch o.kind {
	case opValue:
		return o.val, nil
	case opPath:
		if v, ok := o.path.Lookup(item); ok {
			return v, nil
		}
		return model.Value{}, errNoAttribute
	case opArith:
		var ns [2]model.Number
		for i, a := range o.args {
			v, err := evalSet(a, item)
			if err != nil {
				return v, err
			}
			if v.Type != model.TypeN {
				return model.Value{}, errOperandType
			}
			n, err := model.ParseNumber(v.Str)
			if err != nil {
				return model.Value{}, numberError(err)
			}
			ns[i] = n
		}
		if o.fn == "-" {
			ns[1] = ns[1].Negate()
		}
		r, err := ns[0].Add(ns[1])
		if err != nil {
			return model.Value{}, numberError(err)
		}
		return model.Num(r.String()), nil
	}
	switch o.fn {
	case "if_not_exists":
		if v, ok := o.args[0].path.Lookup(item); ok {
			return v, nil
		}
		return evalSet(o.args[1], item)
	case "list_append":
		var ls [2]model.Value
		for i, a := range o.args {
			v, err := evalSet(a, item)
			if err != nil {
				return v, err
			}
			if v.Type != model.TypeL {
				return model.Value{}, errOperandType
			}
			ls[i] = v
		}
		l := make([]model.Value, 0, len(ls[0].List)+len(ls[1].List))
		return model.List(append(append(l, ls[0].List...), ls[1].List...)...), nil
	}
	return model.Value{}, errOperandType
}

// add is ADD: a number added to a number (0 when missing), or a set's elements
// added to a set of the same type (created when missing).
func add(old model.Value, ok bool, v model.Value) (model.Value, bool, error) {
	if !ok {
		return v.Clone(), false, nil
	}
	if old.Type != v.Type {
		return old, false, errOperandType
	}
	if v.Type == model.TypeN {
		a, err := model.ParseNumber(old.Str)
		if err != nil {
			return old, false, numberError(err)
		}
		b, err := model.ParseNumber(v.Str)
		if err != nil {
			return old, false, numberError(err)
		}
		r, err := a.Add(b)
		if err != nil {
			return old, false, numberError(err)
		}
		return model.Num(r.String()), false, nil
	}
	for _, e := range v.List {
		if !old.Contains(e) {
			old.List = append(old.List, e)
		}
	}
	return old, false, nil
}

// del is DELETE: a set's elements taken out of a set of the same type; a set left
// empty is removed, since DynamoDB has no empty sets.
func del(old model.Value, ok bool, v model.Value) (model.Value, bool, error) {
	if !ok {
		return old, true, nil
	}
	if old.Type != v.Type {
		return old, false, errOperandType
	}
	kept := old.List[:0]
	for _, e := range old.List {
		if !v.Contains(e) {
			kept = append(kept, e)
		}
	}
	old.List = kept
	return old, len(kept) == 0, nil
}

// editFunc gets the value at a path (ok false when absent) and returns its new
// value, or remove true to take it out.
type editFunc func(old model.Value, ok bool) (nv model.Value, remove bool, err error)

// edit changes the value at path in out, in place. Every step but the last must
// exist and have the right type, else the path is invalid for update. A list index
// past the end appends when setting and does nothing when removing.
func edit(out model.Item, path Path, f editFunc) error {
	name := path[0].Name
	old, ok := out[name]
	if len(path) > 1 {
		if !ok {
			return errInvalidPath
		}
		nv, err := editIn(old, path[1:], f)
		if err != nil {
			return err
		}
		out[name] = nv
		return nil
	}
	nv, remove, err := f(old, ok)
	switch {
	case err != nil:
		return err
	case remove:
		delete(out, name)
	default:
		out[name] = nv
	}
	return nil
}

func editIn(cur model.Value, rest Path, f editFunc) (model.Value, error) {
	e := rest[0]
	if e.IsIndex {
		if cur.Type != model.TypeL {
			return cur, errInvalidPath
		}
		ok := e.Index < len(cur.List)
		if len(rest) > 1 {
			if !ok {
				return cur, errInvalidPath
			}
			nv, err := editIn(cur.List[e.Index], rest[1:], f)
			cur.List[e.Index] = nv
			return cur, err
		}
		var old model.Value
		if ok {
			old = cur.List[e.Index]
		}
		nv, remove, err := f(old, ok)
		switch {
		case err != nil:
			return cur, err
		case remove && ok:
			cur.List = append(cur.List[:e.Index], cur.List[e.Index+1:]...)
		case remove:
		case ok:
			cur.List[e.Index] = nv
		default:
			cur.List = append(cur.List, nv)
		}
		return cur, nil
	}
	if cur.Type != model.TypeM {
		return cur, errInvalidPath
	}
	if cur.Map == nil {
		cur.Map = map[string]model.Value{}
	}
	old, ok := cur.Map[e.Name]
	if len(rest) > 1 {
		if !ok {
			return cur, errInvalidPath
		}
		nv, err := editIn(old, rest[1:], f)
		cur.Map[e.Name] = nv
		return cur, err
	}
	nv, remove, err := f(old, ok)
	switch {
	case err != nil:
		return cur, err
	case remove:
		delete(cur.Map, e.Name)
	default:
		cur.Map[e.Name] = nv
	}
	return cur, nil
}
