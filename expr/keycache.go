package expr

import (
	"strings"
	"sync"

	"stwb/model"
)

// keyConds parses a key condition into one condition per attribute, with the
// parser's and collectKeyConds' errors.
//
// A Query parses its key condition on every request, and applications send the
// same few texts with other values: in serve the parse was the largest part of
// Query's own CPU (issue 24). So what a clean parse collects is kept by its text
// and bound to each later request's maps. The parse's outcome depends on the maps
// (a placeholder left undefined, a value's type, BETWEEN's bounds, two #names
// naming one attribute), so the kept conditions are used only when the request's
// maps give every placeholder the name and the type the kept parse saw and
// BETWEEN's bounds are in order; every other request is parsed afresh, and its
// errors are the parser's, in the parser's order.
func keyConds(src string, ctx *Context) ([]keyCond, *Error) {
	if kept, ok := keptKeyConds.get(src); ok {
		if conds, ok := bindKeyConds(kept, ctx); ok {
			return conds, nil
		}
	}
	root, perr := parseCondition(src, ctx, KindKeyCondition, nil)
	if perr != nil {
		return nil, perr
	}
	var conds []keyCond
	if msg := collectKeyConds(root, &conds); msg != "" {
		return nil, Validation("%s", msg)
	}
	keptKeyConds.put(src, keepKeyConds(conds))
	return conds, nil
}

// bindKeyConds gives the kept conditions this request's values, or reports false
// when the request's maps could change what the parse decides (keyConds). It marks
// the placeholders it reads as used, as the parse does; when it gives up, the parse
// that follows reads every placeholder of the same text, so the marks are the same.
func bindKeyConds(kept []keyCond, ctx *Context) ([]keyCond, bool) {
	conds := make([]keyCond, len(kept))
	for i, k := range kept {
		if k.namePh != "" {
			if name, ok := ctx.name(k.namePh); !ok || name != k.name {
				return nil, false
			}
		}
		vals := make([]model.Value, len(k.vals))
		for j, ph := range k.valuePhs {
			v, ok := ctx.value(ph)
			if !ok || v.Type != k.vals[j].Type {
				return nil, false
			}
			vals[j] = v
		}
		if k.op == SortBetween && betweenProblem(vals[0], vals[1]) != "" {
			return nil, false
		}
		conds[i] = keyCond{name: k.name, op: k.op, vals: vals, namePh: k.namePh, valuePhs: k.valuePhs}
	}
	return conds, true
}

// keptText holds what clean parses of expression texts gave, by their text, for
// the parses that are kept (keyConds, CompileUpdate). It keeps at most maxKept
// texts (each at most maxExpressionSize bytes): a client sending ever new texts
// fills it once and is then parsed every time. What is kept must share nothing
// with a request's buffers (the server reuses them) and is never changed once
// kept: every request binds its own copy.
type keptText[T any] struct {
	mu   sync.RWMutex
	kept map[string]T
}

const maxKept = 512

var keptKeyConds = keptText[[]keyCond]{kept: map[string][]keyCond{}}

func (c *keptText[T]) get(src string) (T, bool) {
	c.mu.RLock()
	kept, ok := c.kept[src]
	c.mu.RUnlock()
	return kept, ok
}

// put keeps v under src, unless src is kept already or the cache is full.
func (c *keptText[T]) put(src string, v T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.kept[src]; !ok && len(c.kept) < maxKept {
		c.kept[strings.Clone(src)] = v
	}
}

// keepKeyConds copies conds for keeping. The strings are copied: a request's text
// and names may lie in a buffer its server reuses. The values are kept only for
// their types.
func keepKeyConds(conds []keyCond) []keyCond {
	kept := make([]keyCond, len(conds))
	for i, k := range conds {
		vals := make([]model.Value, len(k.vals))
		for j, v := range k.vals {
			vals[j] = model.Value{Type: v.Type}
		}
		phs := make([]string, len(k.valuePhs))
		for j, ph := range k.valuePhs {
			phs[j] = strings.Clone(ph)
		}
		kept[i] = keyCond{name: strings.Clone(k.name), op: k.op, vals: vals,
			namePh: strings.Clone(k.namePh), valuePhs: phs}
	}
	return kept
}
