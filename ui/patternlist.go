package ui

import (
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"stwb/designfile"
	"stwb/model"
)

// The pattern form's list fields (keys, actions, expect) take a YAML flow sequence,
// exactly as the design file writes them, and are read by the loader itself: the
// field's text is put into a one-pattern design and parsed with designfile.Parse, so the
// form reads and refuses what the file would, with the loader's words.

// readPatternList reads src as the list field field of a pattern of operation op.
// Whether op takes the field at all is the form's whole-pattern check to say; here a
// list is read as an operation that takes it would read it (a BatchWriteItem's
// actions as BatchWriteItem's, expect as any operation's).
func readPatternList(op model.Operation, field, src string) (*model.Pattern, error) {
	src = strings.TrimSpace(strings.ReplaceAll(src, "\n", " "))
	if src == "" {
		return &model.Pattern{}, nil
	}
	switch {
	case field == "expect":
		op = model.OpScan
	case field == "keys" && op != model.OpTransactGetItems:
		op = model.OpBatchGetItem
	case field == "actions" && op != model.OpBatchWriteItem:
		op = model.OpTransactWriteItems
	}
	d, err := readWithLoader(fmt.Sprintf("patterns:\n  - id: 1\n    name: form\n    operation: %s\n    %s: %s\n", op, field, src), "pattern 1 ", "pattern 1: ")
	if err != nil {
		return nil, err
	}
	return &d.Patterns[0], nil
}

// readFanout reads the form's fanout field as the loader reads a pattern's fanout
// (designfile and model.Validate: one variable, a range or a list, distinct, at most
// model.MaxFanout values). The stand-in GetItem's key uses the variable, so the
// only problem reported is the fan-out's own; whether the pattern uses it, and
// whether its operation may fan out, is the whole pattern's check.
func readFanout(src string) (*model.Fanout, error) {
	src = strings.TrimSpace(strings.ReplaceAll(src, "\n", " "))
	if src == "" {
		return nil, nil
	}
	uses := "form"
	var n yaml.Node
	if yaml.Unmarshal([]byte(src), &n) == nil && len(n.Content) == 1 && n.Content[0].Kind == yaml.MappingNode && len(n.Content[0].Content) >= 2 {
		uses = "F{" + n.Content[0].Content[0].Value + "}"
	}
	key := formatNode(flow(designfile.ValueToNode(model.Str(uses))))
	d, err := readWithLoader(fmt.Sprintf("patterns:\n  - id: 1\n    name: form\n    operation: GetItem\n    key: {PK: %s, SK: form}\n    fanout: %s\n", key, src), "pattern 1.", "pattern 1 ", "pattern 1: ")
	if err != nil {
		return nil, err
	}
	return d.Patterns[0].Fanout, nil
}

// fanoutText is a fan-out as the form shows it: {shard: "0..9"} or {region: [eu, us]}.
func fanoutText(f *model.Fanout) string {
	if f == nil {
		return ""
	}
	str := func(s string) *yaml.Node { return flow(designfile.ValueToNode(model.Str(s))) }
	val := str(f.Range)
	if f.Range == "" {
		val = &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, s := range f.Values {
			val.Content = append(val.Content, str(s))
		}
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle,
		Content: []*yaml.Node{str(f.Var), val}}
	return formatNode(m)
}

// readWithLoader parses a one-table design made of a stand-in table and part (YAML
// at the top level) with designfile.Parse, so that a form field holding part of a design
// file is read exactly as the file is. The first problem comes back without its
// position and without the prefixes given (the stand-in's "pattern 1").
func readWithLoader(part string, prefixes ...string) (*model.Design, error) {
	doc := "version: 1\nname: form\ntable: {name: form, key: {partition: PK, sort: SK}}\n" + part
	f, err := designfile.Parse("", []byte(doc))
	if err == nil {
		return f.Design, nil
	}
	var list model.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		msg := problemText(list[0])
		for _, p := range prefixes {
			msg = strings.TrimPrefix(msg, p)
		}
		return nil, errors.New(msg)
	}
	return nil, err
}

// Writing the list fields back: flow YAML in the file's value form.

func itemsText(items []model.Item) string {
	if items == nil {
		return ""
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, it := range items {
		seq.Content = append(seq.Content, flow(designfile.ValueToNode(model.Map(it))))
	}
	return formatNode(seq)
}

func actionsText(actions []model.Action) string {
	if actions == nil {
		return ""
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, a := range actions {
		m := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
		add := func(to *yaml.Node, k string, v *yaml.Node) {
			to.Content = append(to.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, v)
		}
		str := func(s string) *yaml.Node { return flow(designfile.ValueToNode(model.Str(s))) }
		sides := func(to *yaml.Node) {
			if a.Update != "" {
				add(to, "update", str(a.Update))
			}
			if a.Condition != "" {
				add(to, "condition", str(a.Condition))
			}
			if len(a.Names) > 0 {
				names := map[string]model.Value{}
				for k, v := range a.Names {
					names[k] = model.Str(v)
				}
				add(to, "names", flow(designfile.ValueToNode(model.Map(names))))
			}
			if len(a.Values) > 0 {
				add(to, "values", flow(designfile.ValueToNode(model.Map(a.Values))))
			}
		}
		if a.Kind == model.ActionPut {
			add(m, "put", flow(designfile.ValueToNode(model.Map(a.Item))))
			sides(m)
		} else {
			body := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
			add(body, "key", flow(designfile.ValueToNode(model.Map(a.Key))))
			sides(body)
			add(m, string(a.Kind), body)
		}
		seq.Content = append(seq.Content, m)
	}
	return formatNode(seq)
}

// flow marks a mapping or sequence and every one in it as flow style: one line.
func flow(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		n.Style |= yaml.FlowStyle
	}
	for _, c := range n.Content {
		flow(c)
	}
	return n
}
