package designfile

import (
	"gopkg.in/yaml.v3"

	"stwb/model"
)

// fanout reads a pattern's `fanout: {shard: "0..9"}` (an inclusive range of whole
// numbers or of dates) or `fanout: {region: [eu, us, ap]}` (a list): one variable,
// whose values the pattern runs over. Nil when absent.
func (f *fieldSet) fanout(name string) *model.Fanout {
	n := f.vals[name]
	if n == nil || isNull(n) {
		return nil
	}
	const hint = `write fanout: {shard: "0..9"}, a range of dates ("2026-08-01..2026-08-07") or a list ([eu, us])`
	if n.Kind != yaml.MappingNode || len(n.Content) != 2 {
		f.d.errs.Add(f.d.pos(n), hint, "%s must be a mapping of one variable to its values", f.sub(name))
		return nil
	}
	kn, vn := n.Content[0], n.Content[1]
	fo := &model.Fanout{Var: f.d.text(kn.Value)}
	where := f.sub(name) + "." + fo.Var
	switch {
	case vn.Kind == yaml.ScalarNode && !isNull(vn):
		vals, err := model.ParseFanoutRange(vn.Value)
		if err != nil {
			f.d.errs.Add(f.d.pos(vn), hint, "%s: %v", where, err)
			return nil
		}
		fo.Range, fo.Values = f.d.text(vn.Value), vals
	case vn.Kind == yaml.SequenceNode:
		for _, c := range vn.Content {
			if c.Kind != yaml.ScalarNode || isNull(c) {
				f.d.errs.Add(f.d.pos(c), hint, "%s must list values", where)
				return nil
			}
			fo.Values = append(fo.Values, f.d.text(c.Value))
		}
	default:
		f.d.errs.Add(f.d.pos(vn), hint, "%s must be a range or a list", where)
		return nil
	}
	return fo
}

// fanoutNode writes a Fanout as it was read: its range, or the list of its values.
func fanoutNode(fo *model.Fanout) *yaml.Node {
	if fo == nil {
		return nil
	}
	m := newMap(true)
	if fo.Range != "" {
		m.add(fo.Var, stringNode(fo.Range))
		return m.n
	}
	vals := make([]*yaml.Node, len(fo.Values))
	for i, v := range fo.Values {
		vals[i] = stringNode(v)
	}
	m.add(fo.Var, seqNode(true, vals...))
	return m.n
}
