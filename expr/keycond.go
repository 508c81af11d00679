package expr

import (
	"stwb/model"
)

// keyCond is one condition of a key condition: an attribute, an operator, values.
type keyCond struct {
	name string
	op   SortKeyOp
	vals []model.Value
	// namePh and valuePhs are the placeholders name and vals were written as
	// (namePh "" for a bare name), by which a parse kept by its text is bound to a
	// later request's maps (keptKeyConds).
	namePh   string
	valuePhs []string
}

// flipped is the operator that means the same with its operands swapped
// (":v < sk" is "sk > :v").
var flipped = map[string]SortKeyOp{"=": SortEQ, "<": SortGT, "<=": SortGE, ">": SortLT, ">=": SortLE}

// comparisonNames are the legacy ComparisonOperator names DynamoDB's key condition
// messages use.
var comparisonNames = map[SortKeyOp]string{SortEQ: "EQ", SortLT: "LT", SortLE: "LE", SortGT: "GT",
	SortGE: "GE", SortBetween: "BETWEEN", SortBeginsWith: "BEGINS_WITH"}

// CompileKeyCondition parses a KeyConditionExpression and checks it against the
// key schema of the table or index queried (Query.KeyConditionExpressions.html):
// an equality on the partition key, and at most one condition on the sort key.
// Messages follow DynamoDB's, in the order it checks (dynalite validations/query.js
// and actions/query.js).
func CompileKeyCondition(src string, ctx *Context, schema KeySchema) (*KeyCondition, error) {
	conds, err := keyConds(src, orNew(ctx))
	if err != nil {
		return nil, err
	}
	for _, c := range conds {
		for _, v := range c.vals {
			if !keyOpAccepts(c.op, v.Type) {
				return nil, Validation("One or more parameter values were invalid: ComparisonOperator %s is not valid for %s AttributeValue type",
					comparisonNames[c.op], v.Type)
			}
		}
	}
	if schema.Multi() {
		return multiKeyCondition(conds, schema)
	}
	if len(conds) > 2 {
		return nil, Validation("Conditions can be of length 1 or 2 only")
	}
	find := func(name string) *keyCond {
		for i := range conds {
			if conds[i].name == name {
				return &conds[i]
			}
		}
		return nil
	}
	kc := &KeyCondition{}
	keys := []struct {
		name string
		typ  model.Type
		hash bool
	}{{schema.Partition, schema.PartitionType, true}, {schema.Sort, schema.SortType, false}}
	for _, key := range keys {
		if key.hash && schema.Sort == "" && len(conds) > 1 {
			return nil, Validation("Query key condition not supported")
		}
		if !key.hash && schema.Sort == "" {
			break
		}
		c := find(key.name)
		if c == nil {
			if key.hash || len(conds) > 1 {
				return nil, Validation("Query condition missed key schema element: %s", key.name)
			}
			continue
		}
		for _, v := range c.vals {
			if key.typ != 0 && v.Type != key.typ {
				return nil, Validation("One or more parameter values were invalid: Condition parameter type does not match schema type")
			}
		}
		if key.hash {
			if c.op != SortEQ {
				return nil, Validation("Query key condition not supported")
			}
			kc.PartitionName, kc.PartitionValue = c.name, c.vals[0]
			kc.PartitionValues = []model.Value{c.vals[0]}
			continue
		}
		kc.SortName, kc.SortOp, kc.SortValue = c.name, c.op, c.vals[0]
		if len(c.vals) > 1 {
			kc.SortValue2 = c.vals[1]
		}
	}
	return kc, nil
}

// keyOpAccepts is which value types each key operator takes: = also takes sets,
// which then never match a scalar key; the others only S, N and B, begins_with only
// S and B.
func keyOpAccepts(op SortKeyOp, t model.Type) bool {
	switch op {
	case SortEQ:
		return ordered(t) || t.IsSet()
	case SortBeginsWith:
		return t == model.TypeS || t == model.TypeB
	}
	return ordered(t)
}

// collectKeyConds turns the parsed condition into one condition per attribute, or
// returns DynamoDB's message for what a key condition may not hold.
func collectKeyConds(c *cond, out *[]keyCond) string {
	switch {
	case c.op == cOr:
		return "Invalid operator used in KeyConditionExpression: OR"
	case c.op == cNot:
		return "Invalid operator used in KeyConditionExpression: NOT"
	case c.op == cIn:
		return "Invalid operator used in KeyConditionExpression: IN"
	case c.op == cCmp && c.cmp == "<>":
		return "Invalid operator used in KeyConditionExpression: <>"
	case c.op == cFunc && c.fn != "begins_with":
		return "Invalid operator used in KeyConditionExpression: " + c.fn
	case c.op == cBetween && c.args[0].kind != opPath:
		return "Invalid condition in KeyConditionExpression: BETWEEN operator must have the key attribute as its first operand"
	case c.op == cFunc && c.args[0].kind != opPath:
		return "Invalid condition in KeyConditionExpression: begins_with operator must have the key attribute as its first operand"
	case c.op == cAnd:
		for _, k := range c.kids {
			if msg := collectKeyConds(k, out); msg != "" {
				return msg
			}
		}
		return ""
	}
	var name, namePh string
	var vals []model.Value
	var valuePhs []string
	at := 0
	for i, a := range c.args {
		switch a.kind {
		case opPath:
			if name != "" {
				return "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition"
			}
			if len(a.path) > 1 {
				return "KeyConditionExpressions cannot have conditions on nested attributes"
			}
			name, namePh, at = a.path[0].Name, a.ph, i
		case opFunc:
			return "KeyConditionExpressions cannot contain nested operations"
		default:
			vals, valuePhs = append(vals, a.val), append(valuePhs, a.ph)
		}
	}
	if name == "" {
		return "Invalid condition in KeyConditionExpression: No key attribute specified"
	}
	for _, k := range *out {
		if k.name == name {
			return "KeyConditionExpressions must only contain one condition per key"
		}
	}
	var op SortKeyOp
	switch c.op {
	case cBetween:
		op = SortBetween
	case cFunc:
		op = SortBeginsWith
	default:
		op = SortKeyOp(c.cmp)
		if at != 0 {
			op = flipped[c.cmp]
		}
	}
	*out = append(*out, keyCond{name: name, op: op, vals: vals, namePh: namePh, valuePhs: valuePhs})
	return ""
}
