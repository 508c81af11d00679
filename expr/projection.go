package expr

import (
	"sort"
	"strings"

	"stwb/model"
)

// Projection is a compiled ProjectionExpression.
type Projection struct {
	paths []Path
	attrs []string
}

// CompileProjection parses a ProjectionExpression: document paths separated by
// commas (Expressions.ProjectionExpressions.html). No two may overlap or conflict.
//
// A projection's parse reads nothing of the maps but the attribute each #name
// names, so a clean parse is kept by its text (as conditions are, condcache.go) and
// given to a later request whose names name the same attributes: a Projection holds
// no values and is never changed, so every such request shares it.
func CompileProjection(src string, ctx *Context) (*Projection, error) {
	ctx = orNew(ctx)
	if k, ok := keptProjections.get(src); ok && placeholdersAgree(k.phs, ctx) {
		return k.p, nil
	}
	p, perr := newParser(src, KindProjection, ctx)
	if perr != nil {
		return nil, perr
	}
	defer p.release()
	var paths []Path
	ok := true
	for {
		path, pok := p.path()
		if !pok {
			ok = false
			break
		}
		paths = append(paths, path)
		if p.tok().kind != tokComma {
			break
		}
		p.pos++
	}
	if ok {
		p.checkPaths(paths)
	}
	if err := p.finish(ok); err != nil {
		return nil, err
	}
	pr := &Projection{paths: paths}
	for _, path := range paths {
		pr.attrs = appendOnce(pr.attrs, path[0].Name)
	}
	sort.Strings(pr.attrs)
	keptProjections.put(src, keepProjection(pr, placeholderTokens(p.toks), ctx))
	return pr, nil
}

// keptProjection is a projection's clean parse, kept by its text, with the
// attribute each of its #names named; it shares no string with its request.
type keptProjection struct {
	p   *Projection
	phs []keptPlaceholder
}

var keptProjections = keptText[*keptProjection]{kept: map[string]*keptProjection{}}

func keepProjection(pr *Projection, phs []token, ctx *Context) *keptProjection {
	k := &keptProjection{p: &Projection{paths: make([]Path, len(pr.paths)), attrs: make([]string, len(pr.attrs))},
		phs: keepPlaceholders(phs, ctx)}
	for i, path := range pr.paths {
		k.p.paths[i] = clonePath(path)
	}
	for i, a := range pr.attrs {
		k.p.attrs[i] = strings.Clone(a)
	}
	return k
}

// Apply returns a new item holding only the projected paths.
func (p *Projection) Apply(item model.Item) model.Item { return ProjectPaths(item, p.paths) }

// Attributes lists the top-level attribute names the projection names, sorted.
func (p *Projection) Attributes() []string { return p.attrs }

// Paths lists the projection's document paths, in the order written.
func (p *Projection) Paths() []Path { return p.paths }

// pnode is a projected value under construction: a leaf value, or the map entries
// or list elements selected so far.
type pnode struct {
	leaf  *model.Value
	isMap bool
	kids  map[string]*pnode
	elems map[int]*pnode
}

// ProjectPaths returns a new item holding only the values at paths that exist in
// item. Nested paths build nested maps and lists as DynamoDB does: a.b gives
// {a: {b: ...}}, and list indexes give a list of the selected elements in index order
// ("a[3], a[1]" on a five-element list gives [a[1], a[3]]).
func ProjectPaths(item model.Item, paths []Path) model.Item {
	out := model.Item{}
	var roots map[string]*pnode
	for _, path := range paths {
		v, ok := path.Lookup(item)
		if !ok {
			continue
		}
		if len(path) == 1 {
			out[path[0].Name] = v.Clone()
			continue
		}
		if roots == nil {
			roots = map[string]*pnode{}
		}
		n := roots[path[0].Name]
		if n == nil {
			n = &pnode{}
			roots[path[0].Name] = n
		}
		for _, e := range path[1:] {
			n = n.child(e)
		}
		c := v.Clone()
		n.leaf = &c
	}
	for name, n := range roots {
		out[name] = n.value()
	}
	return out
}

func (n *pnode) child(e PathElem) *pnode {
	var c *pnode
	if e.IsIndex {
		if n.elems == nil {
			n.elems = map[int]*pnode{}
		}
		if c = n.elems[e.Index]; c == nil {
			c = &pnode{}
			n.elems[e.Index] = c
		}
		return c
	}
	n.isMap = true
	if n.kids == nil {
		n.kids = map[string]*pnode{}
	}
	if c = n.kids[e.Name]; c == nil {
		c = &pnode{}
		n.kids[e.Name] = c
	}
	return c
}

func (n *pnode) value() model.Value {
	switch {
	case n.leaf != nil:
		return *n.leaf
	case n.isMap:
		m := make(map[string]model.Value, len(n.kids))
		for k, c := range n.kids {
			m[k] = c.value()
		}
		return model.Map(m)
	}
	idx := make([]int, 0, len(n.elems))
	for i := range n.elems {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	l := make([]model.Value, len(idx))
	for j, i := range idx {
		l[j] = n.elems[i].value()
	}
	return model.List(l...)
}
