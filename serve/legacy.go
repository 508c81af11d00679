package serve

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"stwb/dynamojson"
	"stwb/engine"
	"stwb/model"
)

// The legacy request parameters that older SDK mappers still send
// (LegacyConditionalParameters.html): AttributesToGet, KeyConditions,
// QueryFilter, ScanFilter, Expected, AttributeUpdates and ConditionalOperator. Each
// is rewritten into the expression it means, with placeholders of its own, and the
// engine runs that: one evaluator for both forms. A request that mixes the two forms
// is refused as DynamoDB refuses it (dynalite validations/index.js
// validateExpressionParams copies the message), and so is one that gives
// ExpressionAttributeNames or ExpressionAttributeValues with only legacy
// parameters.

// legacyCondition is a Condition of KeyConditions, QueryFilter or ScanFilter.
type legacyCondition struct {
	ComparisonOperator string
	AttributeValueList []json.RawMessage
}

// legacyExpected is one attribute of Expected.
type legacyExpected struct {
	Value              json.RawMessage
	Exists             *bool
	ComparisonOperator *string
	AttributeValueList []json.RawMessage
}

// legacyUpdate is one attribute of AttributeUpdates.
type legacyUpdate struct {
	Action *string
	Value  json.RawMessage
}

// mixed refuses expression and legacy parameters in one request, and
// ExpressionAttributeNames or ExpressionAttributeValues without an expression that
// could use them, in DynamoDB's order and words (dynalite validations/index.js
// validateExpressionParams).
func mixed(exprs, legacy []param, names map[string]string, values json.RawMessage) *apiError {
	var e, l, valued []string
	anyValued := false
	for _, p := range exprs {
		if p.present {
			e = append(e, p.name)
		}
		if p.name != "ProjectionExpression" {
			valued = append(valued, p.name)
			anyValued = anyValued || p.present
		}
	}
	for _, p := range legacy {
		if p.present {
			l = append(l, p.name)
		}
	}
	if len(e) > 0 && len(l) > 0 {
		return validationError("Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {%s} Expression parameters: {%s}", strings.Join(l, ", "), strings.Join(e, ", "))
	}
	if len(e) == 0 && names != nil {
		return validationError("ExpressionAttributeNames can only be specified when using expressions")
	}
	if len(valued) > 0 && !anyValued && given(values) {
		verb := "is"
		if len(valued) > 1 {
			verb = "are"
		}
		return validationError("ExpressionAttributeValues can only be specified when using expressions: %s %s null", strings.Join(valued, " and "), verb)
	}
	return nil
}

type param struct {
	name    string
	present bool
}

// builder writes legacy conditions as expressions, with placeholders #lN and :lN
// that cannot meet the request's own (a legacy request has none, and a Query's
// KeyConditions beside a FilterExpression get a prefix its placeholders do not
// use: prefix, "l" when empty).
type builder struct {
	names  map[string]string
	values map[string]model.Value
	prefix string
}

// freePrefix is a placeholder prefix ("l", "ll", ...) that no name in names and
// no value in values starts with.
func freePrefix(names map[string]string, values map[string]model.Value) string {
	prefix := "l"
	for {
		clash := false
		for k := range names {
			clash = clash || strings.HasPrefix(k, "#"+prefix)
		}
		for k := range values {
			clash = clash || strings.HasPrefix(k, ":"+prefix)
		}
		if !clash {
			return prefix
		}
		prefix += "l"
	}
}

func (b *builder) pre() string {
	if b.prefix == "" {
		return "l"
	}
	return b.prefix
}

func (b *builder) name(attr string) string {
	if b.names == nil {
		b.names = map[string]string{}
	}
	for k, v := range b.names {
		if v == attr {
			return k
		}
	}
	k := "#" + b.pre() + strconv.Itoa(len(b.names))
	b.names[k] = attr
	return k
}

func (b *builder) value(v model.Value) string {
	if b.values == nil {
		b.values = map[string]model.Value{}
	}
	k := ":" + b.pre() + strconv.Itoa(len(b.values))
	b.values[k] = v
	return k
}

// argCounts is how many values each ComparisonOperator takes: exactly n, or at
// least 1 for IN (-1).
var argCounts = map[string]int{"EQ": 1, "NE": 1, "LE": 1, "LT": 1, "GE": 1, "GT": 1, "CONTAINS": 1,
	"NOT_CONTAINS": 1, "BEGINS_WITH": 1, "NOT_NULL": 0, "NULL": 0, "IN": -1, "BETWEEN": 2}

// argTypes are the value types each ComparisonOperator accepts (dynalite
// validations/index.js validateConditions, after
// LegacyConditionalParameters.Conditions.html).
var argTypes = map[string]string{"EQ": "S N B SS NS BS L M BOOL NULL", "NE": "S N B SS NS BS L M BOOL NULL",
	"LE": "S N B", "LT": "S N B", "GE": "S N B", "GT": "S N B", "CONTAINS": "S N B", "NOT_CONTAINS": "S N B",
	"BEGINS_WITH": "S B", "IN": "S N B", "BETWEEN": "S N B"}

// condition writes one attribute's legacy condition as an expression.
func (b *builder) condition(attr, op string, raw []json.RawMessage) (string, *apiError) {
	want, ok := argCounts[op]
	if !ok {
		return "", validationError("1 validation error detected: Value '%s' at 'comparisonOperator' failed to satisfy constraint: Member must satisfy enum value set: [IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]", op)
	}
	if (want >= 0 && len(raw) != want) || (want < 0 && len(raw) == 0) {
		return "", validationError("One or more parameter values were invalid: Invalid number of argument(s) for the %s ComparisonOperator", op)
	}
	vals := make([]model.Value, len(raw))
	for i, r := range raw {
		v, err := dynamojson.ParseValue(r)
		if err != nil {
			return "", wireError(err, "AttributeValueList", "")
		}
		if i > 0 && v.Type != vals[0].Type {
			return "", validationError("One or more parameter values were invalid: AttributeValues inside AttributeValueList must be of same type")
		}
		if ts, ok := argTypes[op]; ok && !slices.Contains(strings.Fields(ts), v.Type.String()) {
			return "", validationError("One or more parameter values were invalid: ComparisonOperator %s is not valid for %s AttributeValue type", op, v.Type)
		}
		vals[i] = v
	}
	n := b.name(attr)
	switch op {
	case "NOT_NULL":
		return "attribute_exists(" + n + ")", nil
	case "NULL":
		return "attribute_not_exists(" + n + ")", nil
	case "CONTAINS":
		return "contains(" + n + ", " + b.value(vals[0]) + ")", nil
	case "NOT_CONTAINS":
		return "NOT contains(" + n + ", " + b.value(vals[0]) + ")", nil
	case "BEGINS_WITH":
		return "begins_with(" + n + ", " + b.value(vals[0]) + ")", nil
	case "BETWEEN":
		return n + " BETWEEN " + b.value(vals[0]) + " AND " + b.value(vals[1]), nil
	case "IN":
		ps := make([]string, len(vals))
		for i, v := range vals {
			ps[i] = b.value(v)
		}
		return n + " IN (" + strings.Join(ps, ", ") + ")", nil
	case "NE":
		// Legacy NE holds for an item without the attribute; "<>" alone would not.
		return "attribute_not_exists(" + n + ") OR " + n + " <> " + b.value(vals[0]), nil
	}
	cmp := map[string]string{"EQ": "=", "LE": "<=", "LT": "<", "GE": ">=", "GT": ">"}[op]
	return n + " " + cmp + " " + b.value(vals[0]), nil
}

// conditions writes a map of legacy conditions joined by ConditionalOperator, in
// attribute name order (the map has none; the result does not depend on it).
func (b *builder) conditions(m map[string]legacyCondition, op *string) (string, *apiError) {
	join := joinWord(op)
	var parts []string
	for _, attr := range slices.Sorted(maps.Keys(m)) {
		c := m[attr]
		s, err := b.condition(attr, c.ComparisonOperator, c.AttributeValueList)
		if err != nil {
			return "", err
		}
		parts = append(parts, s)
	}
	return joinParts(parts, join), nil
}

// joinWord is ConditionalOperator as the expression writes it (AND by default).
func joinWord(op *string) string {
	if op != nil && *op == "OR" {
		return " OR "
	}
	return " AND "
}

// joinParts joins conditions with AND or OR, parenthesizing a part that holds an
// OR of its own when there are several (the expression grammar refuses redundant
// parentheses, so none are added where they are not needed).
func joinParts(parts []string, join string) string {
	if len(parts) > 1 {
		for i, p := range parts {
			if strings.Contains(p, " OR ") {
				parts[i] = "(" + p + ")"
			}
		}
	}
	return strings.Join(parts, join)
}

// legacyProjection is AttributesToGet.
type legacyProjection struct {
	AttributesToGet []string
}

// apply sets the projection: the expression given, or AttributesToGet written as
// one, refusing the two together.
func (p legacyProjection) apply(proj *string, names *map[string]string, g *engine.Given, expr *string) *apiError {
	if err := mixed([]param{{"ProjectionExpression", expr != nil}}, []param{{"AttributesToGet", p.AttributesToGet != nil}}, *names, nil); err != nil {
		return err
	}
	if expr != nil {
		*proj, *g = *expr, *g|engine.GivenProjection
		return nil
	}
	if p.AttributesToGet == nil {
		return nil
	}
	b := &builder{}
	s, err := b.projection(p.AttributesToGet)
	if err != nil {
		return err
	}
	*proj, *names = s, b.names
	return nil
}

func (b *builder) projection(attrs []string) (string, *apiError) {
	if len(attrs) == 0 {
		return "", validationError("1 validation error detected: Value '[]' at 'attributesToGet' failed to satisfy constraint: Member must have length greater than or equal to 1")
	}
	ps := make([]string, len(attrs))
	for i, a := range attrs {
		if slices.Contains(attrs[:i], a) {
			return "", validationError("One or more parameter values were invalid: Duplicate value in attribute name: %s", a)
		}
		ps[i] = b.name(a)
	}
	return strings.Join(ps, ", "), nil
}

// legacyQuery reads Query's expression or legacy members into the engine's input.
func legacyQuery(in *queryInput, ein *engine.QueryInput, t *table) *apiError {
	exprs := []param{{"ProjectionExpression", in.ProjectionExpression != nil}, {"FilterExpression", in.FilterExpression != nil},
		{"KeyConditionExpression", in.KeyConditionExpression != nil}}
	legacy := []param{{"AttributesToGet", in.AttributesToGet != nil}, {"QueryFilter", in.QueryFilter != nil},
		{"ConditionalOperator", in.ConditionalOperator != nil}, {"KeyConditions", in.KeyConditions != nil && in.KeyConditionExpression != nil}}
	if err := mixed(exprs, legacy, in.ExpressionAttributeNames, in.ExpressionAttributeValues); err != nil {
		return err
	}
	if in.KeyConditions == nil && in.KeyConditionExpression == nil {
		return validationError("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.")
	}
	if in.KeyConditionExpression != nil {
		ein.KeyConditionExpression = *in.KeyConditionExpression
		if in.FilterExpression != nil {
			ein.FilterExpression, ein.Given = *in.FilterExpression, ein.Given|engine.GivenFilter
		}
		if in.ProjectionExpression != nil {
			ein.ProjectionExpression, ein.Given = *in.ProjectionExpression, ein.Given|engine.GivenProjection
		}
		return nil
	}
	// KeyConditions: only the operators a key condition has
	// (LegacyConditionalParameters.KeyConditions.html); one per key attribute, of
	// which a multi-attribute GSI key has up to eight (getmoto/moto#9710's
	// aws_verified test_key_conditions_with_range_keys sends three).
	most := 2
	if in.IndexName != nil {
		if ix, ok := t.def.IndexByName(*in.IndexName); ok && ix.Key.Multi() {
			most = len(ix.Key.Attributes())
		}
	}
	if n := len(in.KeyConditions); n < 1 || n > most {
		return validationError("Conditions can be of length 1 or 2 only")
	}
	// KeyConditions may stand beside FilterExpression and ProjectionExpression
	// (DynamoDB's special case, as dynalite validations/index.js
	// validateExpressionParams keeps it: KeyConditions is not a non-expression
	// parameter when KeyConditionExpression is absent); both apply, with the
	// request's own names and values (guregu/dynamo sends every filtered query
	// this way).
	b := &builder{prefix: freePrefix(in.ExpressionAttributeNames, ein.ExpressionAttributeValues)}
	for _, c := range in.KeyConditions {
		switch c.ComparisonOperator {
		case "EQ", "LE", "LT", "GE", "GT", "BEGINS_WITH", "BETWEEN":
		default:
			if _, ok := argCounts[c.ComparisonOperator]; ok {
				return validationError("Attempted conditional constraint is not an indexable operation")
			}
		}
	}
	kc, err := b.conditions(in.KeyConditions, nil)
	if err != nil {
		return err
	}
	ein.KeyConditionExpression = kc
	if in.QueryFilter != nil {
		f, err := b.conditions(in.QueryFilter, in.ConditionalOperator)
		if err != nil {
			return err
		}
		if f != "" {
			ein.FilterExpression = f
		}
	}
	if in.FilterExpression != nil {
		ein.FilterExpression, ein.Given = *in.FilterExpression, ein.Given|engine.GivenFilter
	}
	if in.AttributesToGet != nil {
		if ein.ProjectionExpression, err = b.projection(in.AttributesToGet); err != nil {
			return err
		}
	}
	if in.ProjectionExpression != nil {
		ein.ProjectionExpression, ein.Given = *in.ProjectionExpression, ein.Given|engine.GivenProjection
	}
	ein.ExpressionAttributeNames = merged(in.ExpressionAttributeNames, b.names)
	ein.ExpressionAttributeValues = merged(ein.ExpressionAttributeValues, b.values)
	return nil
}

// merged is the request's own placeholders with the builder's (which use a prefix
// the request's do not); nil when both are.
func merged[V any](own, built map[string]V) map[string]V {
	if own == nil {
		return built
	}
	out := maps.Clone(own)
	maps.Copy(out, built)
	return out
}

// legacyScan reads Scan's expression or legacy members into the engine's input.
func legacyScan(in *scanInput, ein *engine.ScanInput) *apiError {
	exprs := []param{{"ProjectionExpression", in.ProjectionExpression != nil}, {"FilterExpression", in.FilterExpression != nil}}
	legacy := []param{{"AttributesToGet", in.AttributesToGet != nil}, {"ScanFilter", in.ScanFilter != nil},
		{"ConditionalOperator", in.ConditionalOperator != nil}}
	if err := mixed(exprs, legacy, in.ExpressionAttributeNames, in.ExpressionAttributeValues); err != nil {
		return err
	}
	if in.FilterExpression != nil {
		ein.FilterExpression, ein.Given = *in.FilterExpression, ein.Given|engine.GivenFilter
	}
	if in.ProjectionExpression != nil {
		ein.ProjectionExpression, ein.Given = *in.ProjectionExpression, ein.Given|engine.GivenProjection
	}
	if in.ScanFilter == nil && in.AttributesToGet == nil {
		return nil
	}
	b := &builder{}
	var err *apiError
	if in.ScanFilter != nil {
		if ein.FilterExpression, err = b.conditions(in.ScanFilter, in.ConditionalOperator); err != nil {
			return err
		}
	}
	if in.AttributesToGet != nil {
		if ein.ProjectionExpression, err = b.projection(in.AttributesToGet); err != nil {
			return err
		}
	}
	ein.ExpressionAttributeNames, ein.ExpressionAttributeValues = b.names, b.values
	return nil
}

// expected writes Expected as a condition expression
// (LegacyConditionalParameters.Expected.html), with dynalite's checks
// (validations/index.js validateAttributeConditions).
func (b *builder) expected(m map[string]legacyExpected, op *string) (string, *apiError) {
	join := joinWord(op)
	var parts []string
	for _, attr := range slices.Sorted(maps.Keys(m)) {
		c := m[attr]
		var s string
		var err *apiError
		switch {
		case c.AttributeValueList != nil && given(c.Value):
			return "", validationError("One or more parameter values were invalid: Value and AttributeValueList cannot be used together for Attribute: %s", attr)
		case c.ComparisonOperator != nil:
			if c.Exists != nil {
				return "", validationError("One or more parameter values were invalid: Exists and ComparisonOperator cannot be used together for Attribute: %s", attr)
			}
			list := c.AttributeValueList
			if list == nil && given(c.Value) {
				list = []json.RawMessage{c.Value}
			}
			if op := *c.ComparisonOperator; op != "NULL" && op != "NOT_NULL" && list == nil {
				return "", validationError("One or more parameter values were invalid: Value or AttributeValueList must be used with ComparisonOperator: %s for Attribute: %s", op, attr)
			}
			s, err = b.condition(attr, *c.ComparisonOperator, list)
		case c.AttributeValueList != nil:
			return "", validationError("One or more parameter values were invalid: AttributeValueList can only be used with a ComparisonOperator for Attribute: %s", attr)
		default:
			exists := c.Exists == nil || *c.Exists
			switch {
			case exists && !given(c.Value):
				word := "null"
				if c.Exists != nil {
					word = "true"
				}
				return "", validationError("One or more parameter values were invalid: Value must be provided when Exists is %s for Attribute: %s", word, attr)
			case !exists && given(c.Value):
				return "", validationError("One or more parameter values were invalid: Value cannot be used when Exists is false for Attribute: %s", attr)
			case !exists:
				s = "attribute_not_exists(" + b.name(attr) + ")"
			default:
				s, err = b.condition(attr, "EQ", []json.RawMessage{c.Value})
			}
		}
		if err != nil {
			return "", err
		}
		parts = append(parts, s)
	}
	return joinParts(parts, join), nil
}

// conditionOf reads a write's ConditionExpression or Expected into the
// engine's input.
func conditionOf(in *writeMembers, cond *string, names *map[string]string, values *map[string]model.Value, g *engine.Given) *apiError {
	exprs := []param{{"ConditionExpression", in.ConditionExpression != nil}}
	legacy := []param{{"Expected", in.Expected != nil}, {"ConditionalOperator", in.ConditionalOperator != nil}}
	if err := mixed(exprs, legacy, in.ExpressionAttributeNames, in.ExpressionAttributeValues); err != nil {
		return err
	}
	if in.ConditionExpression != nil {
		*cond, *g = *in.ConditionExpression, *g|engine.GivenCondition
		return nil
	}
	if in.Expected == nil {
		return nil
	}
	b := &builder{}
	s, err := b.expected(in.Expected, in.ConditionalOperator)
	if err != nil {
		return err
	}
	*cond, *names, *values = s, b.names, b.values
	return nil
}

// legacyUpdateItem reads UpdateItem's expressions or AttributeUpdates and
// Expected into the engine's input.
func legacyUpdateItem(in *updateItemInput, ein *engine.UpdateItemInput) *apiError {
	exprs := []param{{"UpdateExpression", in.UpdateExpression != nil}, {"ConditionExpression", in.ConditionExpression != nil}}
	legacy := []param{{"AttributeUpdates", in.AttributeUpdates != nil}, {"Expected", in.Expected != nil}, {"ConditionalOperator", in.ConditionalOperator != nil}}
	if err := mixed(exprs, legacy, in.ExpressionAttributeNames, in.ExpressionAttributeValues); err != nil {
		return err
	}
	if in.ConditionExpression != nil {
		ein.ConditionExpression, ein.Given = *in.ConditionExpression, ein.Given|engine.GivenCondition
	}
	if in.AttributeUpdates == nil && in.Expected == nil {
		return nil
	}
	b := &builder{}
	if len(in.AttributeUpdates) > 0 {
		u, err := b.updates(in.AttributeUpdates)
		if err != nil {
			return err
		}
		ein.UpdateExpression = u
	}
	if in.Expected != nil {
		c, err := b.expected(in.Expected, in.ConditionalOperator)
		if err != nil {
			return err
		}
		ein.ConditionExpression = c
	}
	ein.ExpressionAttributeNames, ein.ExpressionAttributeValues = b.names, b.values
	return nil
}

// updates writes AttributeUpdates as an update expression
// (LegacyConditionalParameters.AttributeUpdates.html): PUT sets, DELETE removes the
// attribute or, with a set value, those elements, ADD adds to a number or set and
// appends to a list.
func (b *builder) updates(m map[string]legacyUpdate) (string, *apiError) {
	var set, remove, add, del []string
	for _, attr := range slices.Sorted(maps.Keys(m)) {
		u := m[attr]
		action := "PUT"
		if u.Action != nil {
			action = *u.Action
		}
		var v violations
		v.checkEnum(&action, "attributeUpdates."+attr+".member.action", "ADD", "PUT", "DELETE")
		if err := v.err(); err != nil {
			return "", err
		}
		if !given(u.Value) {
			if action != "DELETE" {
				return "", validationError("One or more parameter values were invalid: Only DELETE action is allowed when no attribute value is specified")
			}
			remove = append(remove, b.name(attr))
			continue
		}
		val, err := dynamojson.ParseValue(u.Value)
		if err != nil {
			return "", wireError(err, "AttributeUpdates", "")
		}
		n := b.name(attr)
		switch action {
		case "PUT":
			set = append(set, n+" = "+b.value(val))
		case "DELETE":
			switch val.Type {
			case model.TypeSS, model.TypeNS, model.TypeBS:
				del = append(del, n+" "+b.value(val))
			default:
				return "", validationError("One or more parameter values were invalid: DELETE action with value is not supported for the type %s", val.Type)
			}
		case "ADD":
			switch val.Type {
			case model.TypeN, model.TypeSS, model.TypeNS, model.TypeBS:
				add = append(add, n+" "+b.value(val))
			case model.TypeL:
				set = append(set, n+" = list_append(if_not_exists("+n+", "+b.value(model.List())+"), "+b.value(val)+")")
			default:
				return "", validationError("One or more parameter values were invalid: ADD action is not supported for the type %s", val.Type)
			}
		}
	}
	var clauses []string
	for _, c := range []struct {
		kw    string
		parts []string
	}{{"SET", set}, {"REMOVE", remove}, {"ADD", add}, {"DELETE", del}} {
		if len(c.parts) > 0 {
			clauses = append(clauses, c.kw+" "+strings.Join(c.parts, ", "))
		}
	}
	return strings.Join(clauses, " "), nil
}
