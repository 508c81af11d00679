package partiql

import (
	"stwb/model"
)

// Value is the value a literal expression stands for, its ? placeholders taken
// from params: a string, number, boolean or NULL; a tuple as a map, a list as a
// list, a bag as a string, number or binary set. missing is true for MISSING. An
// expression that is not a value (a path, a function, an operator) is refused with
// DynamoDB's words for what it found; under names where the value sits ("root"
// for the top, then the tuple keys), as DynamoDB's messages do.
func Value(e Expr, params []model.Value) (v model.Value, missing bool, err *Error) {
	return value(e, params, "root")
}

func value(e Expr, params []model.Value, under string) (model.Value, bool, *Error) {
	switch x := e.(type) {
	case *Literal:
		return x.Value, x.Missing, nil
	case *Param:
		if x.N >= len(params) {
			return model.Value{}, false, validation("Number of parameters in request and statement don't match.")
		}
		return params[x.N], false, nil
	case *Tuple:
		m := make(map[string]model.Value, len(x.Keys))
		for i, k := range x.Keys {
			v, missing, err := value(x.Values[i], params, k)
			if err != nil {
				return model.Value{}, false, err
			}
			if missing {
				continue // a MISSING member is no member
			}
			m[k] = v
		}
		return model.Map(m), false, nil
	case *ListExpr:
		l := make([]model.Value, 0, len(x.Elems))
		for _, el := range x.Elems {
			v, missing, err := value(el, params, under)
			if err != nil {
				return model.Value{}, false, err
			}
			if !missing {
				l = append(l, v)
			}
		}
		return model.List(l...), false, nil
	case *Bag:
		return bag(x, params, under)
	case *Call:
		return model.Value{}, false, validation("Unsupported data type: %s under key %s", x.Name, under)
	}
	return model.Value{}, false, validation("Unsupported data type: expression under key %s", under)
}

// bag is a set literal <<...>>: every member a string, every member a number, or
// every member a binary (from parameters), without repeats (model.SetValue's rules
// and words).
func bag(b *Bag, params []model.Value, under string) (model.Value, bool, *Error) {
	if len(b.Elems) == 0 {
		return model.Value{}, false, validation("Empty bags are not supported")
	}
	elems := make([]model.Value, 0, len(b.Elems))
	t := model.Type(0)
	for _, el := range b.Elems {
		v, _, err := value(el, params, under)
		if err != nil {
			return model.Value{}, false, err
		}
		switch v.Type {
		case model.TypeS, model.TypeN, model.TypeB:
		default:
			return model.Value{}, false, validation("Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags")
		}
		if t == 0 {
			t = v.Type
		} else if t != v.Type {
			return model.Value{}, false, validation("Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags")
		}
		elems = append(elems, v)
	}
	setType := map[model.Type]model.Type{model.TypeS: model.TypeSS, model.TypeN: model.TypeNS, model.TypeB: model.TypeBS}[t]
	v := model.Value{Type: setType, List: elems}
	if _, problem := model.SetValue(setType, elems); problem != nil {
		return model.Value{}, false, validation("%s", model.DuplicateSetMessage(v))
	}
	return v, false, nil
}
