package interop

// What the DynamoDB Labs visualizer adds to a NoSQL Workbench model (issue 16).
// The visualizer (aws-samples/amazon-dynamodb-labs, static/files/visualizer; its
// data/ folder holds models written by it, and the OneTable library's schema is
// what it keeps) reads and writes Workbench models with two more members on each
// DataModel entry:
//
//   - ModelSchema, a OneTable schema: {indexes: {primary: {hash, sort}, GSI1:
//     {hash, sort, projection}}, models: {ENTITY: {ATTR: {type, value}}}, queries,
//     params}. A model's name is the value of the items' type attribute ("type",
//     as the visualizer reads it; OneTable's params.typeField when given), and an
//     attribute's value is its template: "${dest}#${start}". A ModelSchema at the
//     top of the file belongs to the first table (the visualizer moves it there).
//     Older visualizer files keep the same templates as MapFunction: {ENTITY:
//     TEMPLATE} on KeyAttributes.PartitionKey, .SortKey and NonKeyAttributes[].
//   - SavedQuery, the queries saved in its query dialog, by name: {NAME: {view:
//     TABLE or INDEX, PK: VALUE, SK: {condition, values}, filter: [{operator,
//     attribute, type, condition, values}]}}. Sort key conditions are > < >= <= =
//     begins between; filter conditions those and contains, in; filter types S, N
//     and B (labelled Boolean in its dialog); filters combine left to right, AND
//     binding before OR.
//
// Templates become entity key templates when every item of the entity agrees with
// them; saved queries become Query patterns. What cannot be carried is named in a
// note with its JSON path.

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"

	"stwb/dynamojson"
	"stwb/model"
)

// schemaTemplates are the key templates a ModelSchema or MapFunction gives: entity
// name -> key attribute -> template in the design's syntax, with where each came
// from.
type schemaTemplates struct {
	typeAttr string
	entities []schemaEntity
}

type schemaEntity struct {
	name  string
	path  string            // the model's JSON path
	keys  map[string]string // key attribute -> template ({x})
	from  map[string]string // key attribute -> JSON path of its template
	attrs []schemaAttr      // the non-key fields, in name order
}

type schemaAttr struct {
	name string
	ty   string // OneTable's or the visualizer's type name
}

// readModelSchema reads a table's ModelSchema (n, absent when !ok) and the
// MapFunction templates of its key and non-key attributes. Members it cannot read
// are noted, never errors: the schema is the visualizer's view of the items, and
// the items alone make a valid design.
func readModelSchema(tn jnode, n jnode, ok bool, t *model.Table, note func(string, ...any)) *schemaTemplates {
	st := &schemaTemplates{typeAttr: "type"}
	keyAttrs := model.KeyAttributeNames(t)
	byName := map[string]int{}
	entity := func(name, path string) *schemaEntity {
		i, seen := byName[name]
		if !seen {
			i = len(st.entities)
			byName[name] = i
			st.entities = append(st.entities, schemaEntity{name: name, path: path, keys: map[string]string{}, from: map[string]string{}})
		}
		return &st.entities[i]
	}
	// setTemplate records attr's template for entity name from the OneTable
	// value template at path.
	var cannot []string
	setTemplate := func(e *schemaEntity, attr, value, path string) {
		if !slices.Contains(keyAttrs, attr) {
			cannot = append(cannot, path+" (a design has templates for key attributes only)")
			return
		}
		tmpl, problem := convertTemplate(value)
		if problem != "" {
			cannot = append(cannot, fmt.Sprintf("%s %q (%s)", path, value, problem))
			return
		}
		e.keys[attr], e.from[attr] = tmpl, path
	}

	// MapFunction first: a ModelSchema, newer, overrides it.
	kn, _, _ := tn.field("KeyAttributes")
	var mapFns []jnode
	for _, part := range []string{"PartitionKey", "SortKey"} {
		if pn, ok, _ := kn.field(part); ok {
			mapFns = append(mapFns, pn)
		}
	}
	if nka, err := tn.optArray("NonKeyAttributes"); err == nil {
		mapFns = append(mapFns, nka...)
	}
	for _, an := range mapFns {
		mf, ok, err := an.field("MapFunction")
		if err != nil || !ok {
			continue
		}
		attr, _ := an.optStr("AttributeName")
		m, err := mf.object()
		if err != nil || attr == "" {
			cannot = append(cannot, mf.path+" (expected {ENTITY: TEMPLATE} on a named attribute)")
			continue
		}
		for _, ent := range sortedStrings(m) {
			vn := jnode{v: m[ent], path: dynamojson.PathChild(mf.path, ent)}
			v, err := vn.str()
			if err != nil {
				cannot = append(cannot, vn.path+" (expected a template string)")
				continue
			}
			setTemplate(entity(ent, mf.path), attr, v, vn.path)
		}
	}

	if ok {
		m, err := n.object()
		if err != nil {
			note("%s is not read: expected a OneTable schema object, found %s", n.path, dynamojson.Kind(n.v))
			return st
		}
		var left []string
		for _, k := range sortedStrings(m) {
			switch k {
			case "models", "indexes", "params":
			default:
				if !emptyJSON(m[k]) {
					left = append(left, dynamojson.PathChild(n.path, k))
				}
			}
		}
		if in, ok, _ := n.field("indexes"); ok {
			if differ := schemaIndexes(in, t); len(differ) > 0 {
				note("the ModelSchema's indexes are not the table's, which the design keeps: %s", strings.Join(differ, "; "))
			}
		}
		if pn, ok, _ := n.field("params"); ok {
			if tf, err := pn.optStr("typeField"); err == nil && tf != "" {
				st.typeAttr = tf
			}
			left = append(left, leftOut(pn, "typeField")...)
		}
		if len(left) > 0 {
			note("left out of the ModelSchema, with no place in a design: %s", strings.Join(left, ", "))
		}
		if mn, ok, _ := n.field("models"); ok {
			models, err := mn.object()
			if err != nil {
				note("%s is not read: expected an object of entity models, found %s", mn.path, dynamojson.Kind(mn.v))
			}
			for _, name := range sortedStrings(models) {
				en := jnode{v: models[name], path: dynamojson.PathChild(mn.path, name)}
				fields, err := en.object()
				if err != nil {
					cannot = append(cannot, en.path+" (expected an object of fields)")
					continue
				}
				e := entity(name, en.path)
				e.path = en.path
				for _, f := range sortedStrings(fields) {
					fn := jnode{v: fields[f], path: dynamojson.PathChild(en.path, f)}
					if _, err := fn.object(); err != nil {
						cannot = append(cannot, fn.path+" (expected {type, value})")
						continue
					}
					ty, _ := fn.optStr("type")
					computed := false
					if vn, ok, _ := fn.field("value"); ok {
						v, err := vn.str()
						if err != nil {
							cannot = append(cannot, vn.path+" (a value template must be a string)")
						} else if v != "" {
							setTemplate(e, f, v, vn.path)
							computed = true
						}
					}
					// A non-key field that a template computes is named above, not
					// declared: the design holds no such attribute.
					if !slices.Contains(keyAttrs, f) && f != st.typeAttr && !computed {
						e.attrs = append(e.attrs, schemaAttr{name: f, ty: ty})
					}
				}
			}
		}
	}
	if len(cannot) > 0 {
		note("value templates that cannot be entity key templates, left out: %s", strings.Join(cannot, "; "))
	}
	return st
}

// schemaIndexes compares a OneTable schema's indexes ({primary: {hash, sort},
// NAME: {hash, sort, projection}}) with the table's keys and indexes, and says
// where they differ.
func schemaIndexes(in jnode, t *model.Table) []string {
	m, err := in.object()
	if err != nil {
		return []string{in.path + " is not an object"}
	}
	var out []string
	for _, name := range sortedStrings(m) {
		xn := jnode{v: m[name], path: dynamojson.PathChild(in.path, name)}
		hash, _ := xn.optStr("hash")
		sort, _ := xn.optStr("sort")
		want := t.Key
		if name != "primary" {
			ix, ok := t.IndexByName(name)
			if !ok {
				out = append(out, xn.path+" is not an index of the table")
				continue
			}
			want = model.KeySchema{Partition: t.IndexPartition(&ix), Sort: ix.Key.Sort}
		}
		if hash != want.Partition || sort != want.Sort {
			out = append(out, fmt.Sprintf("%s is keyed %s/%s, the table's %s/%s", xn.path, hash, sort, want.Partition, want.Sort))
		}
	}
	return out
}

// convertTemplate turns a OneTable value template ("${dest}#${start}") into the
// design's ("{dest}#{start}"); problem says why one cannot be (a brace outside
// ${...}, which the design would read as a reference; an unclosed or empty ${}).
func convertTemplate(v string) (tmpl, problem string) {
	var b strings.Builder
	for rest := v; rest != ""; {
		i := strings.Index(rest, "${")
		lit := rest
		if i >= 0 {
			lit = rest[:i]
		}
		if strings.ContainsAny(lit, "{}") {
			return "", "a { or } outside ${...} has no place in a design's template"
		}
		b.WriteString(lit)
		if i < 0 {
			break
		}
		end := strings.IndexByte(rest[i:], '}')
		if end < 0 {
			return "", "an unclosed ${"
		}
		name := rest[i+2 : i+end]
		if name == "" || strings.ContainsAny(name, "{$") {
			return "", "an empty or nested ${}"
		}
		b.WriteString("{" + name + "}")
		rest = rest[i+end+1:]
	}
	if b.Len() == 0 {
		return "", "the template is empty"
	}
	return b.String(), ""
}

// applySchemaTemplates gives the design's entities the schema's key templates: an
// entity of that name (from a facet) or a new one, for a model whose name some item
// has as its type. A template is taken only when every item of the entity agrees
// with it, as the design file would hold it (FORMAT.md "Items and entities"): a key
// the item gives must be the template's expansion (or match it, when the item lacks
// a variable), and a key it leaves out must not be one the template would build
// (that would put the item into an index it is not in). It returns the JSON path of
// each new entity and the attributes the new entities declare.
func applySchemaTemplates(d *model.Design, st *schemaTemplates, items []model.Item, paths []string, declared map[string]model.Type, note func(string, ...any)) ([]string, map[string]bool) {
	t := &d.Table
	inEntity := map[string]bool{}
	if st == nil || len(st.entities) == 0 {
		return nil, inEntity
	}
	typeAttr := d.TypeAttr()
	if len(d.Entities) == 0 {
		typeAttr = st.typeAttr
	} else if st.typeAttr != typeAttr {
		note("the ModelSchema names entities by %s but the facets by %s; the ModelSchema's templates are left out", st.typeAttr, typeAttr)
		return nil, inEntity
	}
	var newPaths []string
	var unused []string
	for _, se := range st.entities {
		var its []int
		for i, it := range items {
			if v, ok := it[typeAttr]; ok && v.Type == model.TypeS && v.Str == se.name {
				its = append(its, i)
			}
		}
		if len(its) == 0 {
			if d.EntityByName(se.name) == nil && (len(se.keys) > 0 || len(se.attrs) > 0) {
				unused = append(unused, se.name)
			}
			continue
		}
		e := d.EntityByName(se.name)
		if e == nil {
			d.Entities = append(d.Entities, model.Entity{Name: se.name})
			e = &d.Entities[len(d.Entities)-1]
			newPaths = append(newPaths, se.path)
			for _, a := range se.attrs {
				ty, ok := entityAttrType(a, its, items, declared)
				if !ok {
					continue
				}
				e.Attributes = append(e.Attributes, model.EntityAttribute{Name: a.name, Type: ty})
				inEntity[a.name] = true
			}
		}
		for _, k := range sortedStrings(se.keys) {
			tmpl := se.keys[k]
			if bad := disagreeing(tmpl, k, t.KeyAttributeType(k), its, items); bad >= 0 {
				v := "no " + k
				if kv, ok := items[bad][k]; ok {
					v = k + " " + showKey(kv)
				}
				note("%s: the template %q does not fit item %s (%s); %s keeps %s", se.from[k], tmpl, paths[bad], v, se.name, keptTemplate(e, k))
				continue
			}
			if e.Keys == nil {
				e.Keys = map[string]string{}
			}
			e.Keys[k] = tmpl
			// A key a template builds is not a declared attribute (a facet lists the
			// index keys of its entity among its attributes).
			e.Attributes = slices.DeleteFunc(e.Attributes, func(a model.EntityAttribute) bool { return a.Name == k })
		}
	}
	if len(unused) > 0 {
		note("ModelSchema entities that no item has as its %s, so not in the design: %s", typeAttr, strings.Join(unused, ", "))
	}
	if typeAttr != "type" && len(newPaths) > 0 {
		t.TypeAttribute = typeAttr
	}
	return newPaths, inEntity
}

// disagreeing is the first of the items (by index into items) that the template
// for key k does not fit, or -1.
func disagreeing(tmpl, k string, ty model.Type, its []int, items []model.Item) int {
	for _, i := range its {
		it := items[i]
		want, full := model.ExpandKey(tmpl, it, ty)
		got, has := it[k]
		switch {
		case has && full && !want.Equal(got):
			return i
		case has && !full && !model.MatchTemplate(tmpl, got):
			return i
		case !has && full:
			return i // the design would build a key the item does not have
		}
	}
	return -1
}

func keptTemplate(e *model.Entity, k string) string {
	if t := e.Keys[k]; t != "" {
		return fmt.Sprintf("the template %q inferred from its items", t)
	}
	return "no template for " + k
}

// entityAttrType is the type of a schema field: the items' when they hold it (the
// data is what the design keeps), else the schema's; ok is false when neither says.
func entityAttrType(a schemaAttr, its []int, items []model.Item, declared map[string]model.Type) (model.Type, bool) {
	for _, i := range its {
		if v, ok := items[i][a.name]; ok {
			return v.Type, true
		}
	}
	if ty, ok := declared[a.name]; ok {
		return ty, true
	}
	ty, ok := oneTableTypes[a.ty]
	return ty, ok
}

// oneTableTypes maps the type names of OneTable schemas (String, Number, Boolean,
// Binary, Buffer, Object, Array) and of the visualizer's dialog (Map, List, Null and
// the sets) to DynamoDB's. Date and Set have no single DynamoDB type.
var oneTableTypes = map[string]model.Type{
	"String": model.TypeS, "Number": model.TypeN, "Boolean": model.TypeBOOL, "Binary": model.TypeB, "Buffer": model.TypeB,
	"Object": model.TypeM, "Map": model.TypeM, "Array": model.TypeL, "List": model.TypeL, "Null": model.TypeNULL,
	"StringSet": model.TypeSS, "NumberSet": model.TypeNS, "BinarySet": model.TypeBS,
}

func showKey(v model.Value) string {
	if v.Type == model.TypeS {
		return fmt.Sprintf("%q", v.Str)
	}
	return v.Str
}

// readSavedQueries makes a Query pattern of each of the table's saved queries, in
// the order of their names (a JSON object keeps none), numbered from 1. A query
// that cannot be expressed is noted by its JSON path and left out. It returns the
// patterns and the JSON path of each.
func readSavedQueries(n jnode, t *model.Table, note func(string, ...any)) ([]model.Pattern, []string) {
	m, err := n.object()
	if err != nil {
		note("%s is not read: expected an object of queries by name, found %s", n.path, dynamojson.Kind(n.v))
		return nil, nil
	}
	var out []model.Pattern
	var paths []string
	var cannot []string
	for _, name := range sortedStrings(m) {
		qn := jnode{v: m[name], path: dynamojson.PathChild(n.path, name)}
		p, problem, unknown := savedQuery(qn, name, t)
		if problem != "" {
			cannot = append(cannot, qn.path+": "+problem)
			continue
		}
		if len(unknown) > 0 {
			note("saved query %q: left out, with no place in a pattern: %s", name, strings.Join(unknown, ", "))
		}
		p.ID = len(out) + 1
		out = append(out, p)
		paths = append(paths, qn.path)
	}
	if len(cannot) > 0 {
		note("saved queries that cannot be patterns, left out: %s", strings.Join(cannot, "; "))
	}
	return out, paths
}

// savedQuery is one saved query as a Query pattern, or why it cannot be one, and
// the JSON paths of the members it does not read.
func savedQuery(qn jnode, name string, t *model.Table) (p model.Pattern, problem string, unknown []string) {
	p, problem = savedQueryPattern(qn, name, t, &unknown)
	return p, problem, unknown
}

func savedQueryPattern(qn jnode, name string, t *model.Table, unknown *[]string) (model.Pattern, string) {
	p := model.Pattern{Name: name, Operation: model.OpQuery, Names: map[string]string{}, Values: map[string]model.Value{}}
	if _, err := qn.object(); err != nil {
		return p, "expected {view, PK, SK, filter}"
	}
	if strings.TrimSpace(name) == "" {
		return p, "the query has no name"
	}
	view, _ := qn.optStr("view")
	ks := t.Key
	switch {
	case view == t.Name:
	default:
		ix, ok := t.IndexByName(view)
		if !ok {
			return p, fmt.Sprintf("view %q is neither the table %s nor one of its indexes", view, t.Name)
		}
		p.Index = view
		ks = model.KeySchema{Partition: t.IndexPartition(&ix), Sort: ix.Key.Sort}
	}
	*unknown = append(*unknown, leftOut(qn, "view", "PK", "SK", "filter")...)
	pkn, ok, _ := qn.field("PK")
	if !ok {
		return p, "no PK value"
	}
	pk, err := pkn.str()
	if err != nil {
		return p, "PK is not a string"
	}
	pv, problem := typedValue(pk, t.KeyAttributeType(ks.Partition))
	if problem != "" {
		return p, "PK: " + problem
	}
	p.Names["#pk"], p.Values[":pk"] = ks.Partition, pv
	p.KeyCondition = "#pk = :pk"

	if skn, ok, _ := qn.field("SK"); ok {
		if ks.Sort == "" {
			return p, fmt.Sprintf("a sort key condition, but %s has no sort key", keysOwner(p.Index))
		}
		*unknown = append(*unknown, leftOut(skn, "condition", "values")...)
		cond, vals, problem := condition(skn)
		if problem != "" {
			return p, "SK: " + problem
		}
		ty := t.KeyAttributeType(ks.Sort)
		expr, problem := conditionExpr("#sk", ":sk", cond, vals, ty, p.Values, false)
		if problem != "" {
			return p, "SK: " + problem
		}
		p.Names["#sk"] = ks.Sort
		p.KeyCondition += " AND " + expr
	}

	if fn, ok, _ := qn.field("filter"); ok {
		fs, err := fn.array()
		if err != nil {
			return p, "filter is not a list"
		}
		var groups [][]string
		for i, f := range fs {
			attr, _ := f.optStr("attribute")
			if attr == "" {
				return p, fmt.Sprintf("filter[%d] names no attribute", i)
			}
			*unknown = append(*unknown, leftOut(f, "operator", "attribute", "type", "condition", "values")...)
			tyName, _ := f.optStr("type")
			ty, ok := filterTypes[tyName]
			if !ok {
				return p, fmt.Sprintf("filter[%d]: type %q is not S, N or B", i, tyName)
			}
			cond, vals, problem := condition(f)
			if problem != "" {
				return p, fmt.Sprintf("filter[%d]: %s", i, problem)
			}
			nm, vn := fmt.Sprintf("#f%d", i), fmt.Sprintf(":f%d", i)
			expr, problem := conditionExpr(nm, vn, cond, vals, ty, p.Values, true)
			if problem != "" {
				return p, fmt.Sprintf("filter[%d]: %s", i, problem)
			}
			p.Names[nm] = attr
			op, _ := f.optStr("operator")
			switch {
			case i == 0 || len(groups) == 0:
				groups = append(groups, []string{expr})
			case op == "OR":
				groups = append(groups, []string{expr})
			case op == "AND" || op == "":
				groups[len(groups)-1] = append(groups[len(groups)-1], expr)
			default:
				return p, fmt.Sprintf("filter[%d]: operator %q is not AND or OR", i, op)
			}
		}
		var ors []string
		for _, g := range groups {
			s := strings.Join(g, " AND ")
			if len(groups) > 1 && len(g) > 1 {
				s = "(" + s + ")"
			}
			ors = append(ors, s)
		}
		p.Filter = strings.Join(ors, " OR ")
	}
	return p, ""
}

// filterTypes are the attribute types of the visualizer's filter dialog: its
// option B is labelled Boolean.
var filterTypes = map[string]model.Type{"S": model.TypeS, "String": model.TypeS, "N": model.TypeN, "Number": model.TypeN,
	"B": model.TypeBOOL, "Boolean": model.TypeBOOL, "BOOL": model.TypeBOOL}

// condition reads {condition, values}.
func condition(n jnode) (string, []string, string) {
	cond, err := n.optStr("condition")
	if err != nil || cond == "" {
		return "", nil, "no condition"
	}
	vn, ok, _ := n.field("values")
	if !ok {
		return "", nil, "no values"
	}
	arr, err := vn.array()
	if err != nil {
		return "", nil, "values is not a list"
	}
	var vals []string
	for _, v := range arr {
		s, err := v.str()
		if err != nil {
			return "", nil, v.path + " is not a string"
		}
		vals = append(vals, s)
	}
	return cond, vals, ""
}

// conditionExpr writes one condition of the visualizer's as an expression on the
// attribute #name, adding its values to values as :v, :v2, ... Key conditions take
// the comparisons, begins and between; filters also contains and in.
func conditionExpr(name, v, cond string, vals []string, ty model.Type, values map[string]model.Value, filter bool) (string, string) {
	need := func(n int) string {
		if len(vals) < n {
			return fmt.Sprintf("%s needs %d values, has %d", cond, n, len(vals))
		}
		return ""
	}
	put := func(key, text string) string {
		val, problem := typedValue(text, ty)
		if problem != "" {
			return problem
		}
		values[key] = val
		return ""
	}
	switch cond {
	case "=", "<", "<=", ">", ">=", "begins", "contains":
		if p := need(1); p != "" {
			return "", p
		}
		if cond == "contains" && !filter {
			break
		}
		if p := put(v, vals[0]); p != "" {
			return "", p
		}
		switch cond {
		case "begins":
			return "begins_with(" + name + ", " + v + ")", ""
		case "contains":
			return "contains(" + name + ", " + v + ")", ""
		}
		return name + " " + cond + " " + v, ""
	case "between":
		if p := need(2); p != "" {
			return "", p
		}
		if p := put(v+"a", vals[0]); p != "" {
			return "", p
		}
		if p := put(v+"b", vals[1]); p != "" {
			return "", p
		}
		return name + " BETWEEN " + v + "a AND " + v + "b", ""
	case "in":
		if !filter {
			break
		}
		if p := need(1); p != "" {
			return "", p
		}
		var keys []string
		for i, s := range vals {
			k := fmt.Sprintf("%sx%d", v, i)
			if p := put(k, s); p != "" {
				return "", p
			}
			keys = append(keys, k)
		}
		return name + " IN (" + strings.Join(keys, ", ") + ")", ""
	}
	if filter {
		return "", fmt.Sprintf("condition %q is not one of = < <= > >= begins between contains in", cond)
	}
	return "", fmt.Sprintf("condition %q is not one of = < <= > >= begins between", cond)
}

// typedValue is the text of a saved query's value as a value of type ty.
func typedValue(s string, ty model.Type) (model.Value, string) {
	switch ty {
	case model.TypeN:
		if _, err := model.ParseNumber(s); err != nil {
			return model.Value{}, fmt.Sprintf("%q is not a number", s)
		}
		return model.Num(s), ""
	case model.TypeB:
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return model.Value{}, fmt.Sprintf("%q is not base64 binary", s)
		}
		return model.Bin(b), ""
	case model.TypeBOOL:
		switch s {
		case "true":
			return model.Bool(true), ""
		case "false":
			return model.Bool(false), ""
		}
		return model.Value{}, fmt.Sprintf("%q is not true or false", s)
	}
	return model.Str(s), ""
}
