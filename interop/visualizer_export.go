package interop

// The Workbench export writes back what the DynamoDB Labs visualizer adds to a
// model (visualizer.go reads it): the design's Query patterns as SavedQuery
// entries, and the entities' key templates as a ModelSchema. Both are written by
// default: the visualizer keeps them in the models it saves (js/function.js
// saveModel, js/query.js buildQuery; AWS's data/FlightsFares.json, a format 2.0
// model, carries both), and its help page says models of the visualizer and of
// NoSQL Workbench are interchangeable, each loading what the other wrote
// (static/files/visualizer/index.html). No report of NoSQL Workbench refusing a
// member it does not know was found; its only import refusal on record is an
// unsupported ModelMetadata.Version (aws-samples/amazon-dynamodb-labs issue 38).

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"stwb/expr"
	"stwb/model"
)

type wbSavedQueryJS struct {
	View   string         `json:"view"`
	PK     string         `json:"PK"`
	SK     *wbConditionJS `json:"SK,omitempty"`
	Filter []wbFilterJS   `json:"filter"`
}

type wbConditionJS struct {
	Condition string   `json:"condition"`
	Values    []string `json:"values"`
}

type wbFilterJS struct {
	Operator  string   `json:"operator"`
	Attribute string   `json:"attribute"`
	Type      string   `json:"type"`
	Condition string   `json:"condition"`
	Values    []string `json:"values"`
}

// savedQueries writes each Query pattern the visualizer's query dialog can hold as
// a saved query, by name. The notes name every pattern left out and why, and the
// fields of a written one that a saved query has no place for.
func savedQueries(d *model.Design) (map[string]wbSavedQueryJS, []string) {
	var out map[string]wbSavedQueryJS
	var other, cannot, partly []string
	for i := range d.Patterns {
		p := &d.Patterns[i]
		label := fmt.Sprintf("%d (%s)", p.ID, p.Name)
		if p.Operation != model.OpQuery {
			other = append(other, label+" "+string(p.Operation))
			continue
		}
		if strings.TrimSpace(p.Name) == "" {
			cannot = append(cannot, label+": it has no name, and saved queries are kept by name")
			continue
		}
		if _, taken := out[p.Name]; taken {
			cannot = append(cannot, label+": another pattern of that name is saved, and saved queries are kept by name")
			continue
		}
		q, problem := savedQueryOf(p, &d.Table)
		if problem != "" {
			cannot = append(cannot, label+": "+problem)
			continue
		}
		if out == nil {
			out = map[string]wbSavedQueryJS{}
		}
		out[p.Name] = q
		if left := unsavedFields(p); len(left) > 0 {
			partly = append(partly, label+": "+strings.Join(left, ", "))
		}
	}
	var notes []string
	if len(other) > 0 {
		notes = append(notes, "patterns that are not Queries have no place in a NoSQL Workbench model (the visualizer saves Queries only) and are left out: "+strings.Join(other, ", "))
	}
	if len(cannot) > 0 {
		notes = append(notes, "Query patterns the visualizer's saved query cannot express, left out: "+strings.Join(cannot, "; "))
	}
	if len(partly) > 0 {
		notes = append(notes, "written as saved queries (view, partition key value, sort key condition, filters), without these fields, which a saved query has no place for: "+strings.Join(partly, "; "))
	}
	return out, notes
}

// unsavedFields names, as the design file does, the fields of a Query pattern
// that a saved query does not hold.
func unsavedFields(p *model.Pattern) []string {
	var out []string
	add := func(set bool, name string) {
		if set {
			out = append(out, name)
		}
	}
	add(p.Holds != "" || p.Returns != "" || p.Order != "" || p.Cardinality != "", "holds/returns/order/cardinality")
	add(p.Rate != 0, "rate")
	add(p.Projection != "", "projection")
	add(p.Forward != nil && !*p.Forward, "forward")
	add(p.Limit != 0, "limit")
	add(p.Consistent, "consistent")
	add(p.Expect != nil, "expect")
	add(p.ExpectError != "", "expectError")
	add(p.Partitions != 0 || p.PartitionsOn != nil, "partitions")
	add(p.Skew != (model.Skew{}), "skew")
	return out
}

// savedQueryOf is the pattern as the visualizer saves a query, or why it cannot
// be one: a key condition the request would refuse, a filter that is not an OR of
// ANDs of the dialog's tests on top-level attributes of type S, N or BOOL.
func savedQueryOf(p *model.Pattern, t *model.Table) (wbSavedQueryJS, string) {
	q := wbSavedQueryJS{View: t.Name, Filter: []wbFilterJS{}}
	ks := t.Key
	if p.Index != "" {
		ix, ok := t.IndexByName(p.Index)
		if !ok {
			return q, fmt.Sprintf("index %s is not the table's", p.Index)
		}
		q.View = p.Index
		if ix.Key.Multi() {
			return q, fmt.Sprintf("index %s has a multi-attribute key, and a saved query holds one partition key value and one sort key condition", ix.Name)
		}
		ks = model.KeySchema{Partition: t.IndexPartition(&ix), Sort: ix.Key.Sort}
	}
	ctx := expr.NewContext(p.Names, p.Values)
	kc, err := expr.CompileKeyCondition(p.KeyCondition, ctx, expr.KeySchema{Partition: ks.Partition, Sort: ks.Sort,
		PartitionType: t.KeyAttributeType(ks.Partition), SortType: t.KeyAttributeType(ks.Sort)})
	if err != nil {
		return q, "its key condition: " + err.Error()
	}
	var problem string
	if q.PK, problem = savedText(kc.PartitionValue); problem != "" {
		return q, "the partition key value: " + problem
	}
	if kc.SortName != "" {
		vals := []model.Value{kc.SortValue}
		if kc.SortOp == expr.SortBetween {
			vals = append(vals, kc.SortValue2)
		}
		cond := map[expr.SortKeyOp]string{expr.SortBeginsWith: "begins", expr.SortBetween: "between"}[kc.SortOp]
		if cond == "" {
			cond = string(kc.SortOp)
		}
		texts, problem := savedTexts(vals)
		if problem != "" {
			return q, "the sort key condition: " + problem
		}
		q.SK = &wbConditionJS{Condition: cond, Values: texts}
	}
	if p.Filter == "" {
		return q, ""
	}
	f, err := expr.CompileFilter(p.Filter, ctx)
	if err != nil {
		return q, "its filter: " + err.Error()
	}
	ors, ok := f.Disjunction()
	if !ok {
		return q, "its filter is not an OR of ANDs of tests of an attribute against values"
	}
	for i, and := range ors {
		for j, test := range and {
			op := "AND"
			if i > 0 && j == 0 {
				op = "OR"
			}
			wf, problem := savedFilter(test)
			if problem != "" {
				return q, "its filter: " + problem
			}
			wf.Operator = op
			q.Filter = append(q.Filter, wf)
		}
	}
	return q, ""
}

// savedFilterConditions are the tests of the visualizer's filter dialog, by the
// name expr gives them.
var savedFilterConditions = map[string]string{"=": "=", "<": "<", "<=": "<=", ">": ">", ">=": ">=",
	"begins_with": "begins", "contains": "contains", "BETWEEN": "between", "IN": "in"}

// savedFilterTypes are the dialog's attribute types (its B is labelled Boolean).
var savedFilterTypes = map[model.Type]string{model.TypeS: "S", model.TypeN: "N", model.TypeBOOL: "B"}

func savedFilter(t expr.Test) (wbFilterJS, string) {
	var f wbFilterJS
	cond, ok := savedFilterConditions[t.Op]
	if !ok {
		return f, fmt.Sprintf("%s on %s is not one of the dialog's tests (= < <= > >= begins_with contains BETWEEN IN)", t.Op, t.Path)
	}
	if len(t.Path) != 1 || t.Path[0].IsIndex {
		return f, fmt.Sprintf("%s is a document path; the dialog tests top-level attributes", t.Path)
	}
	ty := t.Values[0].Type
	name, ok := savedFilterTypes[ty]
	if !ok {
		return f, fmt.Sprintf("a value of type %s on %s; the dialog's types are S, N and BOOL", ty, t.Path)
	}
	for _, v := range t.Values[1:] {
		if v.Type != ty {
			return f, fmt.Sprintf("values of types %s and %s on %s; the dialog gives one type per test", ty, v.Type, t.Path)
		}
	}
	texts, problem := savedTexts(t.Values)
	if problem != "" {
		return f, problem
	}
	return wbFilterJS{Attribute: t.Path[0].Name, Type: name, Condition: cond, Values: texts}, ""
}

func savedTexts(vs []model.Value) ([]string, string) {
	out := make([]string, len(vs))
	for i, v := range vs {
		s, problem := savedText(v)
		if problem != "" {
			return nil, problem
		}
		out[i] = s
	}
	return out, ""
}

// savedText is a value as a saved query's text, the inverse of typedValue.
func savedText(v model.Value) (string, string) {
	switch v.Type {
	case model.TypeS, model.TypeN:
		return v.Str, ""
	case model.TypeB:
		return base64.StdEncoding.EncodeToString([]byte(v.Str)), ""
	case model.TypeBOOL:
		return strconv.FormatBool(v.Bool), ""
	}
	return "", fmt.Sprintf("a value of type %s has no text in a saved query", v.Type)
}

// ---- ModelSchema ----

type osSchemaJS struct {
	Indexes map[string]osIndexJS            `json:"indexes"`
	Models  map[string]map[string]osFieldJS `json:"models"`
	Params  *osParamsJS                     `json:"params,omitempty"`
}

type osIndexJS struct {
	Hash       string `json:"hash"`
	Sort       string `json:"sort,omitempty"`
	Projection string `json:"projection,omitempty"`
}

type osFieldJS struct {
	Type  string `json:"type"`
	Value string `json:"value,omitempty"`
}

type osParamsJS struct {
	TypeField string `json:"typeField"`
}

// oneTableTypeNames are OneTable's names for DynamoDB's types, the inverse of
// oneTableTypes.
var oneTableTypeNames = map[model.Type]string{model.TypeS: "String", model.TypeN: "Number", model.TypeB: "Binary",
	model.TypeBOOL: "Boolean", model.TypeM: "Object", model.TypeL: "Array", model.TypeNULL: "Null",
	model.TypeSS: "StringSet", model.TypeNS: "NumberSet", model.TypeBS: "BinarySet"}

// modelSchema writes the entities' key templates as the visualizer's ModelSchema
// (a OneTable schema: one model per entity, each key attribute's template as its
// value, "{dest}#{start}" as "${dest}#${start}"), nil when no entity has a
// template: the facets then say all there is.
func modelSchema(d *model.Design) *osSchemaJS {
	t := &d.Table
	has := false
	for _, e := range d.Entities {
		has = has || len(e.Keys) > 0
	}
	if !has {
		return nil
	}
	s := &osSchemaJS{Indexes: map[string]osIndexJS{"primary": {Hash: t.Key.Partition, Sort: t.Key.Sort}},
		Models: map[string]map[string]osFieldJS{}}
	for _, ix := range t.Indexes {
		s.Indexes[ix.Name] = osIndexJS{Hash: t.IndexPartition(&ix), Sort: ix.Key.Sort, Projection: string(projType(ix.Projection))}
	}
	typeAttr := d.TypeAttr()
	if typeAttr != "type" {
		s.Params = &osParamsJS{TypeField: typeAttr}
	}
	for _, e := range d.Entities {
		m := map[string]osFieldJS{typeAttr: {Type: "String"}}
		for _, a := range e.Attributes {
			m[a.Name] = osFieldJS{Type: oneTableTypeNames[a.Type]}
		}
		for k, tmpl := range e.Keys {
			m[k] = osFieldJS{Type: oneTableTypeNames[t.KeyAttributeType(k)], Value: oneTableTemplate(tmpl)}
		}
		s.Models[e.Name] = m
	}
	return s
}

// oneTableTemplate writes a design template in OneTable's syntax, the inverse of
// convertTemplate.
func oneTableTemplate(tmpl string) string {
	parts, _ := model.TemplateParts(tmpl)
	var b strings.Builder
	for _, p := range parts {
		if p.Var != "" {
			b.WriteString("${" + p.Var + "}")
		} else {
			b.WriteString(p.Literal)
		}
	}
	return b.String()
}
