package expr

import (
	"strings"

	"stwb/model"
)

// keptUpdate is an update expression's clean parse, kept by its text. Its values
// hold only their types, and it shares no string with the request it came from.
type keptUpdate struct {
	u *Update
	// phs are the text's placeholders with what the kept parse read for them: the
	// attribute a #name named, the type of a :value. The parse's outcome depends on
	// nothing else in the maps (checkPaths on the names, ADD's, DELETE's and the
	// functions' checks on the values' types), so a request whose maps give every
	// placeholder the same name and type parses to the same update with its own
	// values; any other request is parsed afresh, with the parser's errors.
	phs []keptPlaceholder
}

type keptPlaceholder struct {
	ph   string
	name string     // for a #name
	typ  model.Type // for a :value
}

var keptUpdates = keptText[*keptUpdate]{kept: map[string]*keptUpdate{}}

// placeholderTokens lists the distinct #name and :value tokens of a parse. A clean
// parse has read every one of them, so binding marks the same ones used.
func placeholderTokens(toks []token) []token {
	var phs []token
	for _, t := range toks {
		if (t.kind == tokName || t.kind == tokValue) && !containsToken(phs, t.text) {
			phs = append(phs, t)
		}
	}
	return phs
}

func containsToken(toks []token, text string) bool {
	for _, t := range toks {
		if t.text == text {
			return true
		}
	}
	return false
}

// keepUpdate copies u, parsed cleanly with ctx, for keeping.
func keepUpdate(u *Update, phs []token, ctx *Context) *keptUpdate {
	k := &keptUpdate{u: &Update{paths: make([]Path, len(u.paths)), attrs: make([]string, len(u.attrs)),
		actions: make([]action, len(u.actions))}}
	for i, path := range u.paths {
		k.u.paths[i] = clonePath(path)
	}
	for i, a := range u.attrs {
		k.u.attrs[i] = strings.Clone(a)
	}
	for i, a := range u.actions {
		k.u.actions[i] = action{kind: a.kind, path: clonePath(a.path), set: keepOperand(a.set),
			arg: model.Value{Type: a.arg.Type}, argPh: strings.Clone(a.argPh)}
	}
	k.phs = keepPlaceholders(phs, ctx)
	return k
}

// keepPlaceholders records, for keeping, what a clean parse with ctx read for each
// of its placeholders: the attribute a #name named, the type of a :value.
func keepPlaceholders(phs []token, ctx *Context) []keptPlaceholder {
	kept := make([]keptPlaceholder, len(phs))
	for i, t := range phs {
		kept[i] = keptPlaceholder{ph: strings.Clone(t.text)}
		if t.kind == tokName {
			kept[i].name = strings.Clone(ctx.Names[t.text])
		} else {
			kept[i].typ = ctx.Values[t.text].Type
		}
	}
	return kept
}

// placeholdersAgree reports whether ctx gives every kept placeholder the name and
// the type the kept parse read, marking those it reads as used, as a parse does.
func placeholdersAgree(phs []keptPlaceholder, ctx *Context) bool {
	for _, kp := range phs {
		if kp.ph[0] == '#' {
			if name, ok := ctx.name(kp.ph); !ok || name != kp.name {
				return false
			}
		} else if v, ok := ctx.value(kp.ph); !ok || v.Type != kp.typ {
			return false
		}
	}
	return true
}

func clonePath(path Path) Path {
	c := make(Path, len(path))
	for i, e := range path {
		c[i] = PathElem{Name: strings.Clone(e.Name), Index: e.Index, IsIndex: e.IsIndex}
	}
	return c
}

// keepOperand copies an operand tree for keeping; a :value keeps only its type.
func keepOperand(o *operand) *operand {
	if o == nil {
		return nil
	}
	k := &operand{kind: o.kind, path: clonePath(o.path), val: model.Value{Type: o.val.Type},
		fn: strings.Clone(o.fn), typ: o.typ, fnBool: o.fnBool, ph: strings.Clone(o.ph)}
	if o.path == nil {
		k.path = nil
	}
	for _, a := range o.args {
		k.args = append(k.args, keepOperand(a))
	}
	return k
}

// bind gives the kept update this request's values, or reports false when the
// request's maps could change what the parse decides (keptUpdate.phs). It marks the
// placeholders it reads as used, as the parse does; when it gives up, the parse that
// follows reads every placeholder of the same text, so the marks are the same. The
// paths and attribute names are shared by every binding: nothing changes them.
func (k *keptUpdate) bind(ctx *Context) (*Update, bool) {
	if !placeholdersAgree(k.phs, ctx) {
		return nil, false
	}
	actions := make([]action, len(k.u.actions))
	for i, a := range k.u.actions {
		a.set = bindOperand(a.set, ctx)
		if a.argPh != "" {
			a.arg = ctx.Values[a.argPh]
		}
		actions[i] = a
	}
	return &Update{actions: actions, paths: k.u.paths, attrs: k.u.attrs}, true
}

// bindOperand is a kept operand with this request's values; a path, which holds
// none, is shared.
func bindOperand(o *operand, ctx *Context) *operand {
	if o == nil || o.kind == opPath {
		return o
	}
	b := *o
	if o.kind == opValue {
		b.val = ctx.Values[o.ph]
		return &b
	}
	b.args = make([]*operand, len(o.args))
	for i, a := range o.args {
		b.args[i] = bindOperand(a, ctx)
	}
	return &b
}
