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
	root, perr := parseCondition(src, ctx, KindKeyCondition)
	if perr != nil {
		return nil, perr
	}
	var conds []keyCond
	if msg := collectKeyConds(root, &conds); msg != "" {
		return nil, Validation("%s", msg)
	}
	keptKeyConds.put(src, conds)
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

// keyCondCache holds the conditions of key condition texts parsed cleanly. It keeps
// at most maxKeptKeyConds texts (each at most maxExpressionSize bytes): a client
// sending ever new texts fills it once and is then parsed every time.
type keyCondCache struct {
	mu   sync.RWMutex
	kept map[string][]keyCond
}

const maxKeptKeyConds = 512

var keptKeyConds = keyCondCache{kept: map[string][]keyCond{}}

func (c *keyCondCache) get(src string) ([]keyCond, bool) {
	c.mu.RLock()
	kept, ok := c.kept[src]
	c.mu.RUnlock()
	return kept, ok
}

// put keeps conds under src. The strings are copied: a request's text and names
// may lie in a buffer its server reuses. The values are kept only for their types.
func (c *keyCondCache) put(src string, conds []keyCond) {
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
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.kept[src]; !ok && len(c.kept) < maxKeptKeyConds {
		c.kept[strings.Clone(src)] = kept
	}
}
