package designfile

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"gopkg.in/yaml.v3"

	"stwb/model"
)

// Saving a design. The output is canonical: fields in FORMAT.md's order, defaults left
// out, items one flow mapping per line, so an unchanged design saves to the same bytes
// and a reviewer's diff shows only what changed. A loaded design is saved by merging
// the canonical tree into the tree that was read, so people's comments, quoting and
// field order survive wherever yaml.v3 keeps them.

// Marshal writes the design as YAML. A loaded file is written by updating a copy of
// the tree it was read from (which is not changed, so Files that share it, made by
// With, may be marshalled at the same time).
func (f *File) Marshal() ([]byte, error) {
	parts, err := f.marshalParts()
	if err != nil {
		return nil, err
	}
	if len(parts) == 1 {
		return parts[0], nil
	}
	return bytes.Join(parts, nil), nil
}

// marshalParts is Marshal's output in consecutive pieces, so that SaveFile can write a
// large design without first copying it into one buffer.
func (f *File) marshalParts() ([][]byte, error) {
	if f.Lazy != nil {
		return nil, ErrLazyDesign
	}
	d := f.Design
	// The placeholder that marks where the items go must occur once in the output; a
	// design whose text happens to hold it gets another.
	for attempt := 0; ; attempt++ {
		ph := fmt.Sprintf("stwb-items-placeholder-%d-9c1f", attempt)
		out, err := f.encodeDesign(ph)
		if err != nil {
			return nil, err
		}
		if len(d.Items) == 0 {
			return [][]byte{out}, nil
		}
		if bytes.Count(out, []byte(ph)) == 1 {
			return f.spliceItems(out, ph)
		}
		if attempt > 100 {
			return nil, fmt.Errorf("writing the design: no free placeholder for the items")
		}
	}
}

func (f *File) encodeDesign(placeholder string) ([]byte, error) {
	var wrote patternKeys
	if f.source != nil {
		wrote = patternKeysOf(f.source.root)
	}
	fresh := designNode(f.Design, placeholder, wrote)
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{fresh}}
	if f.source != nil {
		if src := f.source.root; src != nil && len(src.Content) == 1 && src.Content[0].Kind == yaml.MappingNode {
			old := copyNode(src)
			old.Content[0] = mergeNode(old.Content[0], fresh, "")
			doc = old
		}
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("writing the design: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("writing the design: %w", err)
	}
	return buf.Bytes(), nil
}

// Save writes the design to path atomically: to a temporary file in the same
// directory, synced, then renamed over path, then the directory synced. A failure at
// any step leaves the previous file as it was.
func (f *File) Save(path string) error {
	parts, err := f.marshalParts()
	if err != nil {
		return err
	}
	return writeFileAtomic(path, parts...)
}

// writeFileAtomic writes the concatenation of parts through an AtomicFile.
func writeFileAtomic(path string, parts ...[]byte) error {
	f, err := CreateAtomic(path)
	if err != nil {
		return err
	}
	for _, p := range parts {
		if _, err := f.Write(p); err != nil {
			f.Abort()
			return err
		}
	}
	return f.Commit()
}

// Node builders for the canonical form.

func scalarNode(tag, value string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
}

func intNode(v int64) *yaml.Node { return scalarNode("!!int", strconv.FormatInt(v, 10)) }

func boolNode(b bool) *yaml.Node { return scalarNode("!!bool", strconv.FormatBool(b)) }

func floatNode(f float64) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Value: strconv.FormatFloat(f, 'f', -1, 64)}
	n.Tag = n.ShortTag()
	return n
}

// mapNode builds a mapping from name, value pairs, leaving out nil values.
type mapBuilder struct{ n *yaml.Node }

func newMap(flow bool) *mapBuilder {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if flow {
		n.Style = yaml.FlowStyle
	}
	return &mapBuilder{n}
}

func (m *mapBuilder) add(name string, v *yaml.Node) *mapBuilder {
	if v != nil {
		m.n.Content = append(m.n.Content, stringNode(name), v)
	}
	return m
}

func (m *mapBuilder) str(name, v string) *mapBuilder {
	if v != "" {
		m.add(name, stringNode(v))
	}
	return m
}

func seqNode(flow bool, elems ...*yaml.Node) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: elems}
	if flow {
		n.Style = yaml.FlowStyle
	}
	return n
}

func designNode(d *model.Design, itemsPlaceholder string, wrote patternKeys) *yaml.Node {
	m := newMap(false)
	m.add("version", intNode(int64(d.Version)))
	m.str("name", d.Name).str("description", d.Description).str("region", d.Region)
	m.add("skew", skewNode(d.Skew))
	m.add("table", tableNode(&d.Table))
	if len(d.Entities) > 0 {
		var es []*yaml.Node
		for i := range d.Entities {
			es = append(es, entityNode(&d.Table, &d.Entities[i]))
		}
		m.add("entities", seqNode(false, es...))
	}
	if len(d.Items) > 0 {
		// The items are written by writeItems, not by yaml.v3, whose emitter takes
		// time and memory that grow faster than the document (55 s and 4.5 GB for
		// 100,000 items). A placeholder marks where they go.
		m.add("items", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: itemsPlaceholder})
	}
	if len(d.Patterns) > 0 {
		var ps []*yaml.Node
		t := model.NewTemplater(d)
		for i := range d.Patterns {
			ps = append(ps, patternNode(&d.Patterns[i], t, wrote[d.Patterns[i].ID]))
		}
		m.add("patterns", seqNode(false, ps...))
	}
	if len(d.Review) > 0 {
		r := newMap(false)
		for _, s := range d.Review {
			r.add(s.Rule, newMap(true).str("severity", s.Severity).str("reason", s.Reason).n)
		}
		m.add("review", r.n)
	}
	return m.n
}

func keySchemaNode(k model.KeySchema, local bool) *yaml.Node {
	m := newMap(true)
	if !local {
		m.add("partition", keySideNode(k.Partitions()))
	}
	return m.add("sort", keySideNode(k.Sorts())).n
}

// keySideNode is one side of a key: its one attribute's name, or the list of a
// multi-attribute key's names in order; nil for a side with none.
func keySideNode(names []string) *yaml.Node {
	switch len(names) {
	case 0:
		return nil
	case 1:
		return stringNode(names[0])
	}
	elems := make([]*yaml.Node, len(names))
	for i, n := range names {
		elems[i] = stringNode(n)
	}
	return seqNode(true, elems...)
}

func tableNode(t *model.Table) *yaml.Node {
	m := newMap(false)
	m.str("name", t.Name)
	m.add("key", keySchemaNode(t.Key, false))
	if len(t.Attributes) > 0 {
		a := newMap(true)
		for _, name := range keyAttrOrder(t, slices.Sorted(maps.Keys(t.Attributes))) {
			a.add(name, stringNode(t.Attributes[name].String()))
		}
		m.add("attributes", a.n)
	}
	if t.Billing.Mode == model.Provisioned {
		p := newMap(true).add("read", intNode(t.Billing.Read)).add("write", intNode(t.Billing.Write))
		if t.Billing.Target != 0 {
			p.add("target", floatNode(t.Billing.Target))
		}
		if n := autoscalingNode(t.Billing.Autoscaling); n != nil {
			p.add("autoscaling", n)
		}
		m.add("billing", newMap(true).add("provisioned", p.n).n)
	} else if t.Billing.MaxRead > 0 || t.Billing.MaxWrite > 0 {
		o := newMap(true)
		if t.Billing.MaxRead > 0 {
			o.add("maxRead", intNode(t.Billing.MaxRead))
		}
		if t.Billing.MaxWrite > 0 {
			o.add("maxWrite", intNode(t.Billing.MaxWrite))
		}
		m.add("billing", newMap(true).add(string(model.OnDemand), o.n).n)
	}
	if t.Class != "" && t.Class != model.ClassStandard {
		m.str("class", string(t.Class))
	}
	if t.Stream != "" {
		m.str("stream", string(t.Stream))
	}
	if t.TypeAttribute != "" && t.TypeAttribute != "type" {
		m.str("typeAttribute", t.TypeAttribute)
	}
	if t.TTL != "" {
		m.str("ttl", t.TTL)
	}
	if len(t.Indexes) > 0 {
		var ix []*yaml.Node
		for _, x := range t.Indexes {
			n := newMap(false).str("name", x.Name)
			if x.Local {
				n.add("local", boolNode(true))
			}
			n.add("key", keySchemaNode(x.Key, x.Local))
			switch x.Projection.Type {
			case model.ProjectKeysOnly:
				n.add("projection", stringNode("keys-only"))
			case model.ProjectInclude:
				var inc []*yaml.Node
				for _, a := range x.Projection.Include {
					inc = append(inc, stringNode(a))
				}
				n.add("projection", newMap(true).add("include", seqNode(true, inc...)).n)
			}
			if x.Read != 0 {
				n.add("read", intNode(x.Read))
			}
			if x.Write != 0 {
				n.add("write", intNode(x.Write))
			}
			if a := autoscalingNode(x.Autoscaling); a != nil {
				n.add("autoscaling", a)
			}
			ix = append(ix, n.n)
		}
		m.add("indexes", seqNode(false, ix...))
	}
	return m.n
}

// autoscalingNode writes {read: {min, max, target}, write: {...}}; nil when
// neither capacity is autoscaled.
func autoscalingNode(a model.Autoscaling) *yaml.Node {
	if a.IsZero() {
		return nil
	}
	m := newMap(true)
	for _, side := range []struct {
		name string
		s    *model.Scaling
	}{{"read", a.Read}, {"write", a.Write}} {
		if side.s != nil {
			m.add(side.name, newMap(true).add("min", intNode(side.s.Min)).add("max", intNode(side.s.Max)).add("target", floatNode(side.s.Target)).n)
		}
	}
	return m.n
}

// keyAttrOrder orders attribute names as keys are read: the table's partition and
// sort key, then each index's, then the rest in the order given.
func keyAttrOrder(t *model.Table, names []string) []string {
	var out []string
	seen := map[string]bool{}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	take := func(n string) {
		if n != "" && want[n] && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	take(t.Key.Partition)
	take(t.Key.Sort)
	for _, ix := range t.Indexes {
		for _, a := range ix.Key.Attributes() {
			take(a)
		}
	}
	for _, n := range names {
		take(n)
	}
	return out
}

func entityNode(t *model.Table, e *model.Entity) *yaml.Node {
	m := newMap(false).str("name", e.Name)
	if len(e.Keys) > 0 {
		k := newMap(true)
		for _, name := range keyAttrOrder(t, slices.Sorted(maps.Keys(e.Keys))) {
			k.add(name, stringNode(e.Keys[name]))
		}
		m.add("keys", k.n)
	}
	if len(e.Attributes) > 0 {
		a := newMap(true)
		for _, at := range e.Attributes {
			if at.Unique {
				a.add(at.Name, newMap(true).add("type", stringNode(at.Type.String())).add("unique", boolNode(true)).n)
			} else {
				a.add(at.Name, stringNode(at.Type.String()))
			}
		}
		m.add("attributes", a.n)
	}
	if e.Count != 0 {
		m.add("count", intNode(e.Count))
	}
	if e.Expires != 0 {
		m.add("expires", floatNode(e.Expires))
	}
	if len(e.Values) > 0 {
		vm := newMap(true)
		for _, k := range sortedKeys(e.Values) {
			if v := e.Values[k]; v.Period {
				vm.add(k, stringNode("period"))
			} else {
				vm.add(k, intNode(v.N))
			}
		}
		m.add("values", vm.n)
	}
	if len(e.Aliases) > 0 {
		a := newMap(true)
		for _, name := range keyAttrOrder(t, sortedKeys(e.Aliases)) {
			a.add(name, stringNode(e.Aliases[name]))
		}
		m.add("aliases", a.n)
	}
	return m.n
}

// skewNode writes a Skew, nil when it sets nothing.
func skewNode(s model.Skew) *yaml.Node {
	switch {
	case s.Zipf != nil:
		return newMap(true).add("zipf", floatNode(*s.Zipf)).n
	case s.Hottest > 0:
		return newMap(true).add("hottest", floatNode(s.Hottest)).n
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func itemListNode(items []model.Item) *yaml.Node {
	var elems []*yaml.Node
	for _, it := range items {
		elems = append(elems, keyNode(it))
	}
	return seqNode(true, elems...)
}

// keyNode writes a key or item with no design context: attributes sorted.
func keyNode(it model.Item) *yaml.Node {
	m := newMap(true)
	for _, n := range it.Names() {
		m.add(n, ValueToNode(it[n]))
	}
	return m.n
}

func valuesNode(vs map[string]model.Value) *yaml.Node {
	if len(vs) == 0 {
		return nil
	}
	return ValueToNode(model.Map(vs))
}

func namesNode(ns map[string]string) *yaml.Node {
	if len(ns) == 0 {
		return nil
	}
	m := newMap(true)
	for _, k := range slices.Sorted(maps.Keys(ns)) {
		m.add(k, stringNode(ns[k]))
	}
	return m.n
}

// patternKeys holds, for each pattern of a file that was read (by id), the
// attribute names its items were written with: its item's under "item", each put's
// under "put N" (N its place among the actions, from 0). Saving writes a key its
// template builds when the file wrote it, as the items section does, so that a
// design opened and saved without edits is written as it was (issue 25).
type patternKeys map[int]map[string]map[string]bool

// patternKeysOf reads what the loaded tree's patterns wrote; nil when it has none.
func patternKeysOf(root *yaml.Node) patternKeys {
	if root == nil || len(root.Content) != 1 {
		return nil
	}
	pats := mappingValue(root.Content[0], "patterns")
	if pats == nil || pats.Kind != yaml.SequenceNode {
		return nil
	}
	names := func(n *yaml.Node) map[string]bool {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		out := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			out[n.Content[i].Value] = true
		}
		return out
	}
	out := patternKeys{}
	for _, p := range pats.Content {
		idNode := mappingValue(p, "id")
		if idNode == nil {
			continue
		}
		id, err := strconv.Atoi(idNode.Value)
		if err != nil {
			continue
		}
		w := map[string]map[string]bool{}
		if it := names(mappingValue(p, "item")); it != nil {
			w["item"] = it
		}
		if as := mappingValue(p, "actions"); as != nil && as.Kind == yaml.SequenceNode {
			for k, a := range as.Content {
				if put := names(mappingValue(a, "put")); put != nil {
					w["put "+strconv.Itoa(k)] = put
				}
			}
		}
		out[id] = w
	}
	return out
}

// mappingValue is the value of field in mapping n, nil when n is not a mapping or
// has no such field.
func mappingValue(n *yaml.Node, field string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	if i := indexOfKey(n.Content, field); i >= 0 {
		return n.Content[i+1]
	}
	return nil
}

// patternNode writes p; t, when not nil, leaves out of the items it writes the
// keys their templates build, as the items section does (the reader builds them),
// except those the file read wrote (wrote, by item: patternKeys).
func patternNode(p *model.Pattern, t *model.Templater, wrote map[string]map[string]bool) *yaml.Node {
	derived := func(it model.Item, which string) model.Item {
		if t == nil {
			return it
		}
		var written func(string) bool
		if w := wrote[which]; w != nil {
			written = func(attr string) bool { return w[attr] }
		}
		return t.Derived(it, written)
	}
	m := newMap(false)
	m.add("id", intNode(int64(p.ID)))
	m.str("name", p.Name).str("holds", p.Holds).str("returns", p.Returns).str("order", p.Order).str("cardinality", p.Cardinality)
	if p.Rate != 0 {
		m.add("rate", floatNode(p.Rate))
	}
	m.str("operation", string(p.Operation)).str("statement", p.Statement)
	if p.Parameters != nil {
		elems := make([]*yaml.Node, len(p.Parameters))
		for i, v := range p.Parameters {
			elems[i] = ValueToNode(v)
		}
		m.add("parameters", seqNode(true, elems...))
	}
	m.str("index", p.Index)
	if p.KeyCondition != "" {
		m.str("key", p.KeyCondition)
	} else if p.Key != nil {
		m.add("key", keyNode(p.Key))
	}
	m.str("filter", p.Filter).str("projection", p.Projection).str("condition", p.Condition).str("update", p.Update)
	m.add("names", namesNode(p.Names))
	m.add("values", valuesNode(p.Values))
	m.add("fanout", fanoutNode(p.Fanout))
	if p.Forward != nil {
		m.add("forward", boolNode(*p.Forward))
	}
	if p.Limit != 0 {
		m.add("limit", intNode(int64(p.Limit)))
	}
	if p.AllPages {
		m.str("pages", "all")
	}
	if p.Consistent {
		m.add("consistent", boolNode(true))
	}
	if p.Item != nil {
		m.add("item", keyNode(derived(p.Item, "item")))
	}
	if p.Keys != nil {
		m.add("keys", itemListNode(p.Keys))
	}
	if p.Actions != nil {
		var as []*yaml.Node
		for k, a := range p.Actions {
			if a.Kind == model.ActionPut {
				a.Item = derived(a.Item, "put "+strconv.Itoa(k))
			}
			as = append(as, actionNode(a))
		}
		m.add("actions", seqNode(false, as...))
	}
	m.str("returnValues", p.ReturnValues)
	if p.Expect != nil {
		m.add("expect", itemListNode(p.Expect))
	}
	m.str("expectError", p.ExpectError)
	if p.Partitions != 0 {
		m.add("partitions", intNode(p.Partitions))
	}
	if len(p.PartitionsOn) > 0 {
		pm := newMap(true)
		for _, k := range sortedKeys(p.PartitionsOn) {
			pm.add(k, intNode(p.PartitionsOn[k]))
		}
		m.add("partitions", pm.n)
	}
	m.add("skew", skewNode(p.Skew))
	if p.Batch {
		m.add("batch", boolNode(true))
	}
	return m.n
}

func actionNode(a model.Action) *yaml.Node {
	m := newMap(true)
	if a.Kind == model.ActionPut {
		m.add("put", keyNode(a.Item))
		m.str("condition", a.Condition)
		m.add("names", namesNode(a.Names))
		m.add("values", valuesNode(a.Values))
		return m.n
	}
	b := newMap(true)
	if a.Key != nil {
		b.add("key", keyNode(a.Key))
	}
	b.str("update", a.Update).str("condition", a.Condition)
	b.add("names", namesNode(a.Names))
	b.add("values", valuesNode(a.Values))
	return m.add(string(a.Kind), b.n).n
}

// defaultText holds the fields that canonical output leaves out at their default, and
// the default's text: a file that writes such a field out keeps it.
var defaultText = map[string]string{
	"billing": "on-demand", "class": "standard", "typeAttribute": "type", "projection": "all",
	"local": "false", "consistent": "false", "batch": "false", "forward": "true", "rate": "1",
}

// mergeNode returns the new tree, reusing the old one's nodes where they say the same
// thing, so comments, quoting and styles survive. field names the mapping entry this
// node is the value of.
func mergeNode(old, fresh *yaml.Node, field string) *yaml.Node {
	if old == nil {
		return fresh
	}
	if old.Kind != fresh.Kind || field == "items" || old.Tag != fresh.Tag && old.Kind != yaml.ScalarNode {
		return withComments(fresh, old)
	}
	switch fresh.Kind {
	case yaml.ScalarNode:
		if old.ShortTag() == fresh.ShortTag() && old.Value == fresh.Value {
			return old
		}
		return withComments(fresh, old)
	case yaml.MappingNode:
		oldVals := map[string]int{}
		for i := 0; i+1 < len(old.Content); i += 2 {
			oldVals[old.Content[i].Value] = i
		}
		freshVals := map[string]*yaml.Node{}
		for i := 0; i+1 < len(fresh.Content); i += 2 {
			freshVals[fresh.Content[i].Value] = fresh.Content[i+1]
		}
		var out []*yaml.Node
		placed := map[string]bool{}
		// Entries of the old mapping, in the old order, updated or dropped.
		for i := 0; i+1 < len(old.Content); i += 2 {
			k, v := old.Content[i], old.Content[i+1]
			if nv, ok := freshVals[k.Value]; ok {
				out = append(out, k, mergeNode(v, nv, k.Value))
				placed[k.Value] = true
			} else if def, ok := defaultText[k.Value]; ok && v.Kind == yaml.ScalarNode && v.Value == def {
				out = append(out, k, v)
			}
		}
		// New entries go after the entry that precedes them in canonical order.
		for i := 0; i+1 < len(fresh.Content); i += 2 {
			k := fresh.Content[i]
			if placed[k.Value] {
				continue
			}
			at := 0
			for j := i - 2; j >= 0; j -= 2 {
				if idx := indexOfKey(out, fresh.Content[j].Value); idx >= 0 {
					at = idx + 2
					break
				}
			}
			out = append(out[:at], append([]*yaml.Node{k, fresh.Content[i+1]}, out[at:]...)...)
			placed[k.Value] = true
		}
		old.Content = out
		return old
	case yaml.SequenceNode:
		byID := map[string]*yaml.Node{}
		for i, c := range old.Content {
			byID[elemID(c, i)] = c
		}
		out := make([]*yaml.Node, len(fresh.Content))
		for i, c := range fresh.Content {
			out[i] = mergeNode(byID[elemID(c, i)], c, "")
		}
		old.Content = out
		return old
	}
	return withComments(fresh, old)
}

func indexOfKey(content []*yaml.Node, key string) int {
	for i := 0; i+1 < len(content); i += 2 {
		if content[i].Value == key {
			return i
		}
	}
	return -1
}

// elemID identifies a sequence element across a save: a pattern by its id, an entity
// or index by its name, anything else by its place.
func elemID(n *yaml.Node, i int) string {
	if n.Kind == yaml.MappingNode {
		for _, f := range []string{"id", "name"} {
			if j := indexOfKey(n.Content, f); j >= 0 && n.Content[j+1].Kind == yaml.ScalarNode {
				return f + "\x00" + n.Content[j+1].Value
			}
		}
	}
	return "#" + strconv.Itoa(i)
}

// copyNode copies a tree; the loaded tree holds no items, so this is cheap.
func copyNode(n *yaml.Node) *yaml.Node {
	c := *n
	if n.Content != nil {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, x := range n.Content {
			c.Content[i] = copyNode(x)
		}
	}
	return &c
}

func withComments(fresh, old *yaml.Node) *yaml.Node {
	if fresh.HeadComment == "" {
		fresh.HeadComment = old.HeadComment
	}
	if fresh.LineComment == "" {
		fresh.LineComment = old.LineComment
	}
	if fresh.FootComment == "" {
		fresh.FootComment = old.FootComment
	}
	return fresh
}
