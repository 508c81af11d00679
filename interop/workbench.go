package interop

// NoSQL Workbench data models (the JSON that the Data modeler's "Export data model"
// writes, workbench.Modeler.ExportModel.html; formats 1.0, 2.0 and 3.0). The three
// share one shape: ModelName, ModelMetadata{Version, Description, ...} and DataModel,
// one entry per table with TableName, KeyAttributes, NonKeyAttributes,
// GlobalSecondaryIndexes, TableFacets and TableData. 2.0 added
// ModelMetadata.AWSService; 3.0 models also carry BillingMode and
// ProvisionedCapacitySettings. Items are DynamoDB JSON.
//
// What a design keeps and a Workbench model cannot, and the reverse, is listed in
// docs/import-export.md; ImportWorkbench reports each loss as a note.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"stwb/dynamojson"
	"stwb/engine"
	"stwb/model"
)

// WorkbenchImport is what ImportWorkbench read: one design per table, and notes on
// what was inferred or could not be carried over.
type WorkbenchImport struct {
	ModelName string
	Version   string
	Designs   []*model.Design
	Notes     []string
	// Skipped lists the invalid items left out under WorkbenchOptions.SkipInvalid,
	// each with every problem it has.
	Skipped []*dynamojson.PathError
}

// The Workbench model versions this package reads. All three share the layout
// above; an unknown version is refused rather than half understood.
var workbenchVersions = []string{"1.0", "2.0", "3.0"}

// WorkbenchOptions change how a model is imported.
type WorkbenchOptions struct {
	// SkipInvalid imports the valid items and lists the invalid ones in
	// WorkbenchImport.Skipped, instead of failing: DynamoDB would refuse those
	// items too. Problems outside items still fail the import.
	SkipInvalid bool
}

// ImportWorkbench reads a NoSQL Workbench data model with the default options.
func ImportWorkbench(data []byte) (*WorkbenchImport, error) {
	return ImportWorkbenchWith(data, WorkbenchOptions{})
}

// ImportWorkbenchWith reads a NoSQL Workbench data model. It reports every
// problem it finds, not only the first: the error is a PathErrors, each naming the
// JSON path of the offending value (every invalid value inside an item, every bad
// index or facet), in the order of the file.
func ImportWorkbenchWith(data []byte, opts WorkbenchOptions) (*WorkbenchImport, error) {
	x, err := decodeJSON(data)
	if err != nil {
		return nil, err
	}
	c := &collector{skip: opts.SkipInvalid, badItems: map[string][]*dynamojson.PathError{}}
	for _, e := range utf8Problems(data) {
		if ip := itemPathOf(e.Path); ip != "" {
			c.badItems[ip] = append(c.badItems[ip], e)
		} else {
			c.add(e)
		}
	}
	r := root(x)
	out := &WorkbenchImport{Version: "1.0"}
	if _, err := r.object(); err != nil {
		return nil, PathErrors{asPathError(err)}
	}
	out.ModelName = c.optStr(r, "ModelName")
	description := ""
	if meta, ok := c.field(r, "ModelMetadata"); ok {
		v := c.optStr(meta, "Version")
		if v != "" {
			if !slices.Contains(workbenchVersions, v) {
				vn, _ := meta.need("Version")
				c.add(vn.errf("unsupported NoSQL Workbench model version %q; stwb reads versions %s", v, strings.Join(workbenchVersions, ", ")))
				return nil, c.errs
			}
			out.Version = v
		}
		description = c.optStr(meta, "Description")
	}
	dm, err := r.need("DataModel")
	if err != nil {
		c.add(err)
		return nil, c.errs
	}
	tables, err := dm.array()
	if err != nil {
		c.add(err)
		return nil, c.errs
	}
	if len(tables) == 0 {
		c.add(dm.errf("the model has no tables"))
		return nil, c.errs
	}
	var left []string
	left = append(left, leftOut(r, "ModelName", "ModelMetadata", "DataModel", "ModelSchema")...)
	if meta, ok, _ := r.field("ModelMetadata"); ok {
		left = append(left, leftOut(meta, "Description", "AWSService", "Version")...)
	}
	if len(left) > 0 {
		out.Notes = append(out.Notes, "left out, with no place in a design: "+strings.Join(left, ", "))
	}
	if len(tables) > 1 && out.ModelName != "" {
		out.Notes = append(out.Notes, fmt.Sprintf("the model's name %q has no place: each of its %d tables becomes a design named for its table", out.ModelName, len(tables)))
	}
	// The visualizer's ModelSchema at the top of the file is the first table's
	// (visualizer.go).
	rootSchema, hasRootSchema, _ := r.field("ModelSchema")
	seen := map[string]string{}
	for i, tn := range tables {
		var schema *jnode
		if i == 0 && hasRootSchema {
			schema = &rootSchema
		}
		d, notes := importWorkbenchTable(tn, schema, c)
		if d == nil {
			continue
		}
		if prev, dup := seen[d.Table.Name]; dup {
			c.add(tn.errf("table %q is also defined at %s; table names must be unique", d.Table.Name, prev))
			continue
		}
		seen[d.Table.Name] = tn.path
		d.Description = description
		d.Name = d.Table.Name
		if len(tables) == 1 && out.ModelName != "" {
			d.Name = out.ModelName
		}
		out.Designs = append(out.Designs, d)
		out.Notes = append(out.Notes, notes...)
	}
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	out.Skipped = c.skipped
	return out, nil
}

// wbAttr reads {"AttributeName": ..., "AttributeType": ...}.
func wbAttr(n jnode) (string, model.Type, error) {
	name, err := n.needStr("AttributeName")
	if err != nil {
		return "", 0, err
	}
	ts, err := n.needStr("AttributeType")
	if err != nil {
		return "", 0, err
	}
	t, ok := model.ParseType(ts)
	if !ok {
		tn, _ := n.need("AttributeType")
		return "", 0, tn.errf("unknown attribute type %q; use one of S, N, B, BOOL, NULL, L, M, SS, NS, BS", ts)
	}
	return name, t, nil
}

// wbKeySchema reads KeyAttributes{PartitionKey, SortKey?} and records the key
// attribute types in types, refusing a type that contradicts an earlier one.
func wbKeySchema(n jnode, types map[string]model.Type, where map[string]string) (model.KeySchema, error) {
	ka, err := n.need("KeyAttributes")
	if err != nil {
		return model.KeySchema{}, err
	}
	var ks model.KeySchema
	for _, part := range []string{"PartitionKey", "SortKey"} {
		pn, ok, err := ka.field(part)
		if err != nil {
			return ks, err
		}
		if !ok {
			if part == "PartitionKey" {
				return ks, ka.errf("missing PartitionKey")
			}
			continue
		}
		name, t, err := wbAttr(pn)
		if err != nil {
			return ks, err
		}
		if !t.IsScalarKeyType() {
			return ks, pn.errf("key attribute %s has type %s; a key attribute must be S, N or B", name, t)
		}
		if prev, ok := types[name]; ok && prev != t {
			return ks, pn.errf("key attribute %s is %s here but %s at %s; give it one type", name, t, prev, where[name])
		}
		types[name] = t
		where[name] = pn.path
		if part == "PartitionKey" {
			ks.Partition = name
		} else {
			ks.Sort = name
		}
	}
	return ks, nil
}

// importWorkbenchTable reads one table of the model. Problems go to c, as many as
// can be found: a table whose name or key schema cannot be read gives nil (its
// items cannot be checked without the key), anything else is skipped and the
// rest of the table read. rootSchema is a ModelSchema given at the top of the
// file for this table, nil when none is.
func importWorkbenchTable(tn jnode, rootSchema *jnode, c *collector) (*model.Design, []string) {
	d := &model.Design{Version: 1}
	t := &d.Table
	var err error
	if t.Name, err = tn.needStr("TableName"); err != nil {
		c.add(err)
		return nil, nil
	}
	keyTypes := map[string]model.Type{}
	where := map[string]string{}
	if t.Key, err = wbKeySchema(tn, keyTypes, where); err != nil {
		c.add(err)
		return nil, nil
	}

	// Non-key attribute declarations: their types feed the entities' attributes.
	declared := map[string]model.Type{}
	var declOrder []string
	for _, a := range c.optArray(tn, "NonKeyAttributes") {
		name, ty, err := wbAttr(a)
		if err != nil {
			c.add(err)
			continue
		}
		if _, dup := declared[name]; !dup {
			declOrder = append(declOrder, name)
		}
		declared[name] = ty
	}

	var indexPaths []string
	for _, g := range c.optArray(tn, "GlobalSecondaryIndexes") {
		ix := model.Index{}
		if ix.Name, err = g.needStr("IndexName"); err != nil {
			c.add(err)
			continue
		}
		if _, dup := t.IndexByName(ix.Name); dup {
			c.add(g.errf("index %q is defined twice; index names must be unique", ix.Name))
			continue
		}
		if ix.Key, err = wbKeySchema(g, keyTypes, where); err != nil {
			c.add(err)
			continue
		}
		if ix.Projection, err = wbProjection(g); err != nil {
			c.add(err)
			continue
		}
		// A GSI's own capacity, in the table's shape. NoSQL Workbench models have
		// none (their GSIs hold IndexName, KeyAttributes and Projection only); stwb
		// exports before issue 16's last session wrote one, so it is still read.
		if pcs, ok := c.field(g, "ProvisionedCapacitySettings"); ok {
			if ix.Read, ix.Write, err = wbThroughput(pcs); err != nil {
				c.add(err)
				continue
			}
			if ix.Autoscaling, err = wbAutoscaling(pcs); err != nil {
				c.add(err)
				continue
			}
		}
		t.Indexes = append(t.Indexes, ix)
		indexPaths = append(indexPaths, g.path)
	}
	// A key attribute also listed as non-key must agree on its type.
	for _, name := range sortedStrings(keyTypes) {
		if dt, ok := declared[name]; ok && dt != keyTypes[name] {
			c.add(tn.errf("attribute %s is declared %s in NonKeyAttributes but is a key attribute of type %s at %s", name, dt, keyTypes[name], where[name]))
		}
	}
	t.Attributes = keyTypes
	var notes []string
	note := func(format string, args ...any) {
		notes = append(notes, fmt.Sprintf("table %s: ", t.Name)+fmt.Sprintf(format, args...))
	}
	if bn, err := wbBilling(tn, &t.Billing); err != nil {
		c.add(err)
	} else if bn != "" {
		note("%s", bn)
	}

	// Items: the table's own TableData, then each facet's.
	check, err := newItemCheck(t)
	if err != nil {
		c.add(tn.errf("%v", err))
		return nil, nil
	}
	var items []model.Item
	var paths []string
	// readData appends n's TableData to items, each with its JSON path, and says
	// where in items they start and end. An invalid item is reported (or skipped)
	// and left out.
	readData := func(n jnode) (start, end int) {
		start = len(items)
		for _, in := range c.optArray(n, "TableData") {
			if bad := c.badItems[in.path]; len(bad) > 0 {
				c.item(bad)
				continue
			}
			it, errs := wbItem(in, check)
			if len(errs) > 0 {
				c.item(errs)
				continue
			}
			items = append(items, it)
			paths = append(paths, in.path)
		}
		return start, len(items)
	}
	readData(tn)
	var fds []facetData
facets:
	for _, f := range c.optArray(tn, "TableFacets") {
		fd := facetData{path: f.path}
		if fd.name, err = f.needStr("FacetName"); err != nil {
			c.add(err)
			continue
		}
		for _, prev := range fds {
			if prev.name == fd.name {
				c.add(f.errf("facet %q is also defined at %s; facet names must be unique", fd.name, prev.path))
				continue facets
			}
		}
		fd.alias = map[string]string{}
		if kaa, ok := c.field(f, "KeyAttributeAlias"); ok {
			for _, part := range []string{"PartitionKeyAlias", "SortKeyAlias"} {
				attr := map[string]string{"PartitionKeyAlias": t.Key.Partition, "SortKeyAlias": t.Key.Sort}[part]
				if a := c.optStr(kaa, part); attr != "" && a != "" {
					fd.alias[attr] = a
				}
			}
		}
		for _, a := range c.optArray(f, "NonKeyAttributes") {
			s, err := a.str()
			if err != nil {
				c.add(err)
				continue
			}
			fd.attrs = append(fd.attrs, s)
		}
		start, end := readData(f)
		for i := start; i < end; i++ {
			fd.items = append(fd.items, i)
		}
		fds = append(fds, fd)
	}

	// What the importer does not read is named, never dropped without a word.
	left := leftOut(tn, "TableName", "KeyAttributes", "NonKeyAttributes", "GlobalSecondaryIndexes", "TableFacets", "TableData", "BillingMode", "ProvisionedCapacitySettings", "ModelSchema", "SavedQuery")
	for _, g := range c.optArray(tn, "GlobalSecondaryIndexes") {
		left = append(left, leftOut(g, "IndexName", "KeyAttributes", "Projection", "ProvisionedCapacitySettings")...)
	}
	for _, f := range c.optArray(tn, "TableFacets") {
		left = append(left, leftOut(f, "FacetName", "KeyAttributeAlias", "NonKeyAttributes", "TableData")...)
	}
	if len(left) > 0 {
		note("left out, with no place in a design: %s", strings.Join(left, ", "))
	}

	facetPaths, inEntity := inferEntities(d, items, fds, declared, note)
	keyAttrs := model.KeyAttributeNames(t)

	// The visualizer's ModelSchema (or MapFunction) templates, and its saved
	// queries (visualizer.go).
	schemaNode, hasSchema, _ := tn.field("ModelSchema")
	if rootSchema != nil {
		if hasSchema {
			note("%s is replaced by %s, as the visualizer does", schemaNode.path, rootSchema.path)
		}
		schemaNode, hasSchema = *rootSchema, true
	}
	st := readModelSchema(tn, schemaNode, hasSchema, t, note)
	entityPaths, declares := applySchemaTemplates(d, st, items, paths, declared, note)
	facetPaths = append(facetPaths, entityPaths...)
	for a := range declares {
		inEntity[a] = true
	}
	var patternPaths []string
	if sq, ok, _ := tn.field("SavedQuery"); ok {
		d.Patterns, patternPaths = readSavedQueries(sq, t, note)
	}
	isKey := map[string]bool{}
	for _, k := range keyAttrs {
		isKey[k] = true
	}
	var lost []string
	for _, a := range declOrder {
		if !isKey[a] && !inEntity[a] && a != d.TypeAttr() {
			lost = append(lost, a+" ("+declared[a].String()+")")
		}
	}
	var unused []string
	for _, a := range declOrder {
		held := false
		for _, it := range items {
			if _, ok := it[a]; ok {
				held = true
				break
			}
		}
		if !held && !isKey[a] {
			unused = append(unused, a+" ("+declared[a].String()+")")
		}
	}
	if len(unused) > 0 {
		note("declared in NonKeyAttributes but held by no item, so not in the design: %s", strings.Join(unused, ", "))
		lost = slices.DeleteFunc(lost, func(a string) bool { return slices.Contains(unused, a) })
	}
	if len(lost) > 0 {
		note("non-key attribute declarations outside any facet are kept only as item values (a design declares non-key types per entity): %s", strings.Join(lost, ", "))
	}

	// One item per primary key, as DynamoDB would hold them: NoSQL Workbench may
	// keep the same item in the table data and in a facet.
	d.Items, paths, notes = dedupeItems(items, paths, t, notes)
	validateImported(d, tn.path, paths, indexPaths, facetPaths, patternPaths, c)
	return d, notes
}

// facetData is one group of items that becomes an entity: a Workbench facet, or
// the items of a live table's sample that share a type or a key prefix.
type facetData struct {
	name  string
	alias map[string]string // key attribute -> the facet's name for it
	attrs []string
	items []int // indexes into items
	path  string
}

// inferEntities makes an entity of each group of items: it finds the type
// attribute (or tags the items with one), then each entity's key templates from
// its items and its attributes from the group's list. It returns each entity's
// path (for messages) and the attributes some entity declares.
func inferEntities(d *model.Design, items []model.Item, fds []facetData, declared map[string]model.Type, note func(string, ...any)) ([]string, map[string]bool) {
	t := &d.Table
	// The type attribute: one that holds the facet's name on every item of every
	// facet. Failing that, the items are tagged with one, so that they keep their
	// entity in the design.
	if len(fds) > 0 {
		var facetItems [][]model.Item
		var names []string
		for _, fd := range fds {
			var its []model.Item
			for _, i := range fd.items {
				its = append(its, items[i])
			}
			facetItems = append(facetItems, its)
			names = append(names, fd.name)
		}
		ta, found := findTypeAttribute(facetItems, names)
		if !found {
			// Items that carry a type attribute of their own (Type: Song on every
			// song) keep it, the entities named by its values, rather than get a
			// second one beside it.
			if own, values := ownTypeAttribute(facetItems); own != "" {
				ta, found = own, true
				for k := range fds {
					if values[k] != "" && values[k] != fds[k].name {
						note("facet %s: its items' %s is %q on every item; the entity is named %q", fds[k].name, own, values[k], values[k])
						fds[k].name = values[k]
					}
				}
			}
		}
		if !found {
			ta = freshAttributeName(items, "type", "entityType", "_type")
			tagged := 0
			for k, fd := range fds {
				for _, i := range fd.items {
					items[i][ta] = model.Str(fds[k].name)
					tagged++
				}
			}
			if tagged > 0 {
				note("no attribute names each item's facet; added %q = facet name to %d facet items", ta, tagged)
			}
		}
		if ta != "type" {
			t.TypeAttribute = ta
		}
	}

	// Entities from facets.
	keyAttrs := model.KeyAttributeNames(t)
	inEntity := map[string]bool{}
	var facetPaths []string
	for _, fd := range fds {
		e := model.Entity{Name: fd.name, Keys: map[string]string{}}
		// Every item the design will type as this entity: the facet's own, and any
		// table-level item whose type attribute names the facet. A template must fit
		// them all, or the design would refuse its own items.
		var its []model.Item
		for _, it := range items {
			if v, ok := it[d.TypeAttr()]; ok && v.Type == model.TypeS && v.Str == fd.name {
				its = append(its, it)
			}
		}
		// Templates first: an attribute that a template builds is a key, not one of
		// the entity's declared attributes.
		for _, k := range keyAttrs {
			exclude := map[string]bool{t.Key.Partition: true, t.Key.Sort: true, k: true, d.TypeAttr(): true}
			tmpl := inferTemplate(k, its, templateCandidates(its, exclude))
			if tmpl == "" {
				tmpl = aliasTemplate(k, fd.alias[k], its)
			}
			if tmpl != "" {
				e.Keys[k] = tmpl
			}
			if a := fd.alias[k]; a != "" && a != k && !strings.Contains(tmpl, "{"+a+"}") {
				// No template holds it as its variable: kept as the entity's alias.
				if e.Aliases == nil {
					e.Aliases = map[string]string{}
				}
				e.Aliases[k] = a
			}
		}
		listed := map[string]bool{}
		for _, a := range fd.attrs {
			if a == t.Key.Partition || a == t.Key.Sort || a == d.TypeAttr() || e.Keys[a] != "" || listed[a] {
				continue
			}
			listed[a] = true
			ty, ok := declared[a]
			if !ok {
				ty = observedType(a, its)
			}
			e.Attributes = append(e.Attributes, model.EntityAttribute{Name: a, Type: ty})
			inEntity[a] = true
		}
		if len(e.Keys) == 0 {
			e.Keys = nil
		}
		d.Entities = append(d.Entities, e)
		facetPaths = append(facetPaths, fd.path)
	}
	return facetPaths, inEntity
}

// validateImported applies the design file's rules (model.ValidateAt) to a design
// built from a model, so that what the design would refuse is reported at its
// JSON path in the model, not at a line of a YAML file that does not exist. Each
// part of the design is given its JSON path as its position for the check (line 1
// marks it as set) and the positions are cleared afterwards. An item the rules
// refuse is left out under skip, as one DynamoDB refuses is.
func validateImported(d *model.Design, tablePath string, itemPaths, indexPaths, facetPaths, patternPaths []string, c *collector) {
	at := func(path string) model.Pos { return model.Pos{File: path, Line: 1} }
	d.Pos, d.Table.Pos = at(tablePath), at(tablePath)
	for i := range d.Table.Indexes {
		d.Table.Indexes[i].Pos = at(indexPaths[i])
	}
	for i := range d.Entities {
		d.Entities[i].Pos = at(facetPaths[i])
	}
	for i := range d.Patterns {
		d.Patterns[i].Pos = at(patternPaths[i])
	}
	itemPos := make([]model.Pos, len(d.Items))
	isItem := map[string]int{}
	for i, p := range itemPaths {
		itemPos[i] = at(p)
		isItem[p] = i
	}
	defer func() {
		d.Pos, d.Table.Pos = model.Pos{}, model.Pos{}
		for i := range d.Table.Indexes {
			d.Table.Indexes[i].Pos = model.Pos{}
		}
		for i := range d.Entities {
			d.Entities[i].Pos = model.Pos{}
		}
		for i := range d.Patterns {
			d.Patterns[i].Pos = model.Pos{}
		}
	}()
	var list model.ErrorList
	if err := model.ValidateAt(d, itemPos); !errors.As(err, &list) {
		return
	}
	drop := map[int]bool{}
	for _, pe := range list {
		msg := pe.Msg
		if pe.Hint != "" {
			msg += "; " + pe.Hint
		}
		e := &dynamojson.PathError{Path: pe.Pos.File, Msg: msg}
		if e.Path == "" {
			e.Path = tablePath
		}
		if i, ok := isItem[e.Path]; ok {
			c.item([]*dynamojson.PathError{e})
			drop[i] = true
			continue
		}
		c.add(e)
	}
	if len(drop) > 0 && c.skip {
		var kept []model.Item
		for i, it := range d.Items {
			if !drop[i] {
				kept = append(kept, it)
			}
		}
		d.Items = kept
	}
}

// wbProjection reads an index's Projection; a missing one means ALL, the
// Workbench's default.
func wbProjection(g jnode) (model.Projection, error) {
	pn, ok, err := g.field("Projection")
	if err != nil || !ok {
		return model.Projection{Type: model.ProjectAll}, err
	}
	pt, err := pn.needStr("ProjectionType")
	if err != nil {
		return model.Projection{}, err
	}
	p := model.Projection{Type: model.ProjectionType(pt)}
	switch p.Type {
	case model.ProjectAll, model.ProjectKeysOnly:
	case model.ProjectInclude:
		attrs, err := pn.optArray("NonKeyAttributes")
		if err != nil {
			return p, err
		}
		for _, a := range attrs {
			s, err := a.str()
			if err != nil {
				return p, err
			}
			p.Include = append(p.Include, s)
		}
		if len(p.Include) == 0 {
			return p, pn.errf("INCLUDE projection lists no NonKeyAttributes; list them or use KEYS_ONLY")
		}
	default:
		ptn, _ := pn.need("ProjectionType")
		return p, ptn.errf("unknown ProjectionType %q; use ALL, KEYS_ONLY or INCLUDE", pt)
	}
	return p, nil
}

// wbBilling reads BillingMode and ProvisionedCapacitySettings. A model without
// BillingMode (formats 1.0 and 2.0) is on-demand, the default the design file uses.
func wbBilling(tn jnode, b *model.Billing) (note string, err error) {
	b.Mode = model.OnDemand
	mode, err := tn.optStr("BillingMode")
	if err != nil {
		return "", err
	}
	switch mode {
	case "", "PAY_PER_REQUEST":
		return "", nil
	case "PROVISIONED":
	default:
		mn, _ := tn.need("BillingMode")
		return "", mn.errf("unknown BillingMode %q; use PROVISIONED or PAY_PER_REQUEST", mode)
	}
	b.Mode = model.Provisioned
	pcs, err := tn.need("ProvisionedCapacitySettings")
	if err != nil {
		return "", err
	}
	if b.Read, b.Write, err = wbThroughput(pcs); err != nil {
		return "", err
	}
	if b.Autoscaling, err = wbAutoscaling(pcs); err != nil {
		return "", err
	}
	// billing.provisioned.target is the read target (the write one when reads do
	// not scale), which is also the write one in every model seen so far; cost
	// prices each side at its own autoscaling target.
	a := b.Autoscaling
	switch {
	case a.Read != nil:
		b.Target = a.Read.Target
	case a.Write != nil:
		b.Target = a.Write.Target
	}
	if a.Read != nil && a.Write != nil && a.Read.Target != a.Write.Target {
		return fmt.Sprintf("autoscaling targets differ (read %s%%, write %s%%); both are kept under billing.provisioned.autoscaling and cost prices each side at its own; billing.provisioned.target is the read one",
			formatPercent(a.Read.Target), formatPercent(a.Write.Target)), nil
	}
	return "", nil
}

// wbThroughput reads ProvisionedThroughput{ReadCapacityUnits, WriteCapacityUnits}.
func wbThroughput(pcs jnode) (read, write int64, err error) {
	pt, err := pcs.need("ProvisionedThroughput")
	if err != nil {
		return 0, 0, err
	}
	rn, err := pt.need("ReadCapacityUnits")
	if err != nil {
		return 0, 0, err
	}
	if read, err = rn.int64(); err != nil {
		return 0, 0, err
	}
	wn, err := pt.need("WriteCapacityUnits")
	if err != nil {
		return 0, 0, err
	}
	write, err = wn.int64()
	return read, write, err
}

// wbAutoscaling reads the AutoScalingRead and AutoScalingWrite of a
// ProvisionedCapacitySettings: ScalableTargetRequest{MinCapacity, MaxCapacity}
// and ScalingPolicyConfiguration{TargetValue}, a percentage in the Workbench and
// a fraction in the design file. Either may be absent: that capacity is fixed.
func wbAutoscaling(pcs jnode) (model.Autoscaling, error) {
	var a model.Autoscaling
	for _, side := range []string{"AutoScalingRead", "AutoScalingWrite"} {
		as, ok, err := pcs.field(side)
		if err != nil || !ok {
			if err != nil {
				return a, err
			}
			continue
		}
		str, err := as.need("ScalableTargetRequest")
		if err != nil {
			return a, err
		}
		s := &model.Scaling{}
		for _, f := range []struct {
			name string
			to   *int64
		}{{"MinCapacity", &s.Min}, {"MaxCapacity", &s.Max}} {
			n, err := str.need(f.name)
			if err != nil {
				return a, err
			}
			if *f.to, err = n.int64(); err != nil {
				return a, err
			}
		}
		spc, err := as.need("ScalingPolicyConfiguration")
		if err != nil {
			return a, err
		}
		tv, err := spc.need("TargetValue")
		if err != nil {
			return a, err
		}
		pct, err := tv.float()
		if err != nil {
			return a, err
		}
		s.Target = pct / 100
		if msg, hint := s.Problem(); msg != "" {
			return a, as.errf("%s (TargetValue is a percentage); %s", msg, hint)
		}
		if side == "AutoScalingRead" {
			a.Read = s
		} else {
			a.Write = s
		}
	}
	return a, nil
}

// wbItem reads one DynamoDB JSON item and checks it against the table's key
// schema, as PutItem would. It returns every problem the item has: each invalid
// value (nested ones at their own path), then the key's.
func wbItem(n jnode, check itemCheck) (model.Item, []*dynamojson.PathError) {
	it, err := dynamojson.ItemFromJSON(n.v, n.path)
	if err != nil {
		return nil, wireErrors(n)
	}
	if err := check(it); err != nil {
		return nil, []*dynamojson.PathError{{Path: n.path, Msg: err.Error()}}
	}
	return it, nil
}

// itemCheck is DynamoDB's validation of an item written to a table (PutItem's, as
// the engine applies it: key attributes present, of their types, not empty, within
// the key size limits; index keys of their types and not empty; the 400 KB limit).
// Its errors are DynamoDB's messages.
type itemCheck func(model.Item) error

// newItemCheck builds the check for a table; the error is a table the engine
// refuses (a key attribute that is not S, N or B).
func newItemCheck(t *model.Table) (itemCheck, error) {
	e, err := engine.New(*t)
	if err != nil {
		var ee *engine.Error
		if errors.As(err, &ee) {
			return nil, errors.New(ee.Message)
		}
		return nil, err
	}
	return func(it model.Item) error {
		if err := e.CheckItem(it); err != nil {
			return errors.New(err.Message)
		}
		return nil
	}, nil
}

// findTypeAttribute looks for an attribute that holds the facet's name (as a
// string) on every item of every facet. Facets without items say nothing. The
// first such name in sorted order wins, so the result is stable.
func findTypeAttribute(facetItems [][]model.Item, names []string) (string, bool) {
	var cands map[string]bool
	any := false
	for k, its := range facetItems {
		for _, it := range its {
			any = true
			here := map[string]bool{}
			for a, v := range it {
				if v.Type == model.TypeS && v.Str == names[k] {
					here[a] = true
				}
			}
			if cands == nil {
				cands = here
				continue
			}
			for a := range cands {
				if !here[a] {
					delete(cands, a)
				}
			}
		}
	}
	if !any {
		return "type", true // nothing to tag; keep the default
	}
	if len(cands) == 0 {
		return "", false
	}
	// Prefer the conventional name when several attributes qualify.
	if cands["type"] {
		return "type", true
	}
	return sortedStrings(cands)[0], true
}

// leftOut lists the JSON paths of n's members that the importer does not read
// (known lists those it does), leaving out empty ones: null, "", [], {} and the
// Workbench's empty DataAccess ({"MySql": {}}).
func leftOut(n jnode, known ...string) []string {
	m, ok := n.v.(map[string]any)
	if !ok {
		return nil
	}
	var out []string
	for _, k := range sortedStrings(m) {
		if slices.Contains(known, k) || emptyJSON(m[k]) {
			continue
		}
		out = append(out, dynamojson.PathChild(n.path, k))
	}
	return out
}

// emptyJSON reports whether a decoded JSON value holds nothing: null, "", [],
// or an object whose members all hold nothing.
func emptyJSON(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case []any:
		return len(x) == 0
	case map[string]any:
		for _, e := range x {
			if !emptyJSON(e) {
				return false
			}
		}
		return true
	}
	return false
}

// ownTypeAttribute looks for an attribute named like a type attribute (type,
// Type, entityType, EntityType, any case) that has one string value on all the
// items of each facet, a different one per facet: the items' own entity name.
// values[k] is facet k's value ("" for a facet without items).
func ownTypeAttribute(facetItems [][]model.Item) (string, []string) {
	names := map[string]bool{}
	for _, its := range facetItems {
		for _, it := range its {
			for a := range it {
				if l := strings.ToLower(a); l == "type" || l == "entitytype" {
					names[a] = true
				}
			}
		}
	}
candidates:
	for _, a := range sortedStrings(names) {
		values := make([]string, len(facetItems))
		seen := map[string]bool{}
		for k, its := range facetItems {
			for _, it := range its {
				v, ok := it[a]
				if !ok || v.Type != model.TypeS || v.Str == "" || (values[k] != "" && values[k] != v.Str) {
					continue candidates
				}
				values[k] = v.Str
			}
			if values[k] != "" {
				if seen[values[k]] {
					continue candidates
				}
				seen[values[k]] = true
			}
		}
		return a, values
	}
	return "", nil
}

// freshAttributeName returns the first name no item uses.
func freshAttributeName(items []model.Item, names ...string) string {
	for _, n := range names {
		used := false
		for _, it := range items {
			if _, ok := it[n]; ok {
				used = true
				break
			}
		}
		if !used {
			return n
		}
	}
	return names[len(names)-1] + "_"
}

// observedType is the type an attribute has on the first item that holds it (S
// when none does).
func observedType(a string, its []model.Item) model.Type {
	for _, it := range its {
		if v, ok := it[a]; ok {
			return v.Type
		}
	}
	return model.TypeS
}

// templateCandidates lists the string attributes that may stand in a key template,
// sorted: any the items hold but those excluded (the table's key, the type
// attribute and the key being inferred).
func templateCandidates(its []model.Item, exclude map[string]bool) []string {
	set := map[string]bool{}
	for _, it := range its {
		for a, v := range it {
			if !exclude[a] && v.Type == model.TypeS {
				set[a] = true
			}
		}
	}
	return sortedStrings(set)
}

// dedupeItems keeps one item per primary key, in first-seen order. An exact
// duplicate is dropped quietly; a different item with the same key replaces the
// earlier one (as a second PutItem would) and is noted.
func dedupeItems(items []model.Item, paths []string, t *model.Table, notes []string) ([]model.Item, []string, []string) {
	index := map[string]int{}
	var out []model.Item
	var outPaths []string
	for i, it := range items {
		k := primaryKeyString(it, t)
		if j, ok := index[k]; ok {
			if !out[j].Equal(it) {
				notes = append(notes, fmt.Sprintf("table %s: %s has the same primary key as an earlier item and replaces it", t.Name, paths[i]))
			}
			out[j], outPaths[j] = it, paths[i]
			continue
		}
		index[k] = len(out)
		out = append(out, it)
		outPaths = append(outPaths, paths[i])
	}
	return out, outPaths, notes
}

// primaryKeyString is a map key for an item's primary key.
func primaryKeyString(it model.Item, t *model.Table) string {
	key := model.Item{}
	for _, k := range []string{t.Key.Partition, t.Key.Sort} {
		if v, ok := it[k]; ok && k != "" {
			key[k] = v
		}
	}
	return string(dynamojson.AppendItem(nil, key))
}

// ---- export ----

type wbModel struct {
	ModelName     string      `json:"ModelName"`
	ModelMetadata wbMetadata  `json:"ModelMetadata"`
	DataModel     []wbTableJS `json:"DataModel"`
}

type wbMetadata struct {
	Author           string `json:"Author"`
	DateCreated      string `json:"DateCreated"`
	DateLastModified string `json:"DateLastModified"`
	Description      string `json:"Description"`
	AWSService       string `json:"AWSService"`
	Version          string `json:"Version"`
}

type wbAttrJS struct {
	AttributeName string `json:"AttributeName"`
	AttributeType string `json:"AttributeType"`
}

type wbKeysJS struct {
	PartitionKey wbAttrJS  `json:"PartitionKey"`
	SortKey      *wbAttrJS `json:"SortKey,omitempty"`
}

type wbProjectionJS struct {
	ProjectionType   string   `json:"ProjectionType"`
	NonKeyAttributes []string `json:"NonKeyAttributes,omitempty"`
}

type wbGSIJS struct {
	IndexName     string         `json:"IndexName"`
	KeyAttributes wbKeysJS       `json:"KeyAttributes"`
	Projection    wbProjectionJS `json:"Projection"`
}

type wbFacetJS struct {
	FacetName         string                 `json:"FacetName"`
	KeyAttributeAlias map[string]string      `json:"KeyAttributeAlias"`
	TableData         []dynamojson.ItemExact `json:"TableData"`
	NonKeyAttributes  []string               `json:"NonKeyAttributes"`
	DataAccess        map[string]any         `json:"DataAccess"`
}

type wbThroughputJS struct {
	ReadCapacityUnits  int64 `json:"ReadCapacityUnits"`
	WriteCapacityUnits int64 `json:"WriteCapacityUnits"`
}

type wbAutoScalingJS struct {
	ScalableTargetRequest struct {
		MinCapacity int64  `json:"MinCapacity"`
		MaxCapacity int64  `json:"MaxCapacity"`
		ServiceRole string `json:"ServiceRole"`
	} `json:"ScalableTargetRequest"`
	ScalingPolicyConfiguration struct {
		TargetValue float64 `json:"TargetValue"`
	} `json:"ScalingPolicyConfiguration"`
}

type wbCapacityJS struct {
	ProvisionedThroughput wbThroughputJS   `json:"ProvisionedThroughput"`
	AutoScalingRead       *wbAutoScalingJS `json:"AutoScalingRead,omitempty"`
	AutoScalingWrite      *wbAutoScalingJS `json:"AutoScalingWrite,omitempty"`
}

type wbTableJS struct {
	TableName                   string                 `json:"TableName"`
	KeyAttributes               wbKeysJS               `json:"KeyAttributes"`
	NonKeyAttributes            []wbAttrJS             `json:"NonKeyAttributes"`
	TableFacets                 []wbFacetJS            `json:"TableFacets"`
	GlobalSecondaryIndexes      []wbGSIJS              `json:"GlobalSecondaryIndexes"`
	TableData                   []dynamojson.ItemExact `json:"TableData"`
	DataAccess                  map[string]any         `json:"DataAccess"`
	BillingMode                 string                 `json:"BillingMode"`
	ProvisionedCapacitySettings *wbCapacityJS          `json:"ProvisionedCapacitySettings,omitempty"`
	// The DynamoDB Labs visualizer's members (visualizer_export.go).
	ModelSchema *osSchemaJS               `json:"ModelSchema,omitempty"`
	SavedQuery  map[string]wbSavedQueryJS `json:"SavedQuery,omitempty"`
}

// ExportWorkbench writes the design as a NoSQL Workbench data model, format 3.0.
// Entities become facets holding their items; untyped items stay in the table's
// TableData; the entities' key templates are written as a ModelSchema and the Query
// patterns as SavedQuery entries, as the DynamoDB Labs visualizer keeps them
// (visualizer_export.go). Notes list what the Workbench format cannot hold (LSIs are
// written as GSIs keyed on the table's partition key, since the Data modeler has no
// LSIs; entity counts, other patterns and the table class are left out). The metadata dates are
// empty so that exporting an unchanged design gives the same bytes.
func ExportWorkbench(d *model.Design) ([]byte, []string, error) {
	t := &d.Table
	var notes []string
	wt := wbTableJS{
		TableName:     t.Name,
		KeyAttributes: wbKeys(t.Key, t),
		DataAccess:    map[string]any{"MySql": map[string]any{}},
		BillingMode:   "PAY_PER_REQUEST",
		// Empty lists, not null: the Data modeler writes [] and may not read null.
		NonKeyAttributes:       []wbAttrJS{},
		TableFacets:            []wbFacetJS{},
		GlobalSecondaryIndexes: []wbGSIJS{},
	}
	isKey := map[string]bool{t.Key.Partition: true, t.Key.Sort: true}
	for _, ix := range t.Indexes {
		if ix.Key.Multi() {
			// A model's KeyAttributes hold one PartitionKey and one SortKey: the
			// index is left out rather than written on its first attributes.
			notes = append(notes, fmt.Sprintf("index %s has a multi-attribute key; a NoSQL Workbench model's index holds one partition key and one sort key attribute, so it is left out", ix.Name))
			continue
		}
		if ix.Local {
			notes = append(notes, fmt.Sprintf("index %s is a local secondary index; NoSQL Workbench models have none, so it is written as a global one on the same keys", ix.Name))
		}
		g := wbGSIJS{IndexName: ix.Name, KeyAttributes: wbKeys(ix.Key, t),
			Projection: wbProjectionJS{ProjectionType: string(projType(ix.Projection)), NonKeyAttributes: ix.Projection.Include}}
		if t.Billing.Mode == model.Provisioned && !ix.Local && (ix.Read != 0 || ix.Write != 0 || !ix.Autoscaling.IsZero()) {
			// A Workbench model's GSIs hold IndexName, KeyAttributes and Projection
			// only: every 3.0 model seen (AWS's Credit Card Offers sample and the
			// provisioned community models) keeps capacity on the table alone. A
			// member the Data modeler does not know is not invented here.
			notes = append(notes, fmt.Sprintf("index %s: its own provisioned capacity and autoscaling have no place in a NoSQL Workbench model (its indexes carry no capacity settings) and are left out", ix.Name))
		}
		wt.GlobalSecondaryIndexes = append(wt.GlobalSecondaryIndexes, g)
	}

	// NonKeyAttributes: index key attributes first (the Workbench needs their types),
	// then the entities' attributes, then anything else the items hold.
	nonKey := map[string]model.Type{}
	var order []string
	addNonKey := func(name string, ty model.Type) {
		if name == "" || isKey[name] {
			return
		}
		if _, ok := nonKey[name]; ok {
			return
		}
		nonKey[name] = ty
		order = append(order, name)
	}
	for _, ix := range t.Indexes {
		addNonKey(ix.Key.Partition, t.KeyAttributeType(ix.Key.Partition))
		addNonKey(ix.Key.Sort, t.KeyAttributeType(ix.Key.Sort))
	}
	for _, e := range d.Entities {
		for _, a := range e.Attributes {
			addNonKey(a.Name, a.Type)
		}
	}
	for _, it := range d.Items {
		for _, a := range it.Names() {
			addNonKey(a, it[a].Type)
		}
	}
	for _, a := range order {
		wt.NonKeyAttributes = append(wt.NonKeyAttributes, wbAttrJS{AttributeName: a, AttributeType: nonKey[a].String()})
	}

	// Facets, one per entity, with the items of that entity.
	typeAttr := d.TypeAttr()
	facetOf := map[string]int{}
	for _, e := range d.Entities {
		f := wbFacetJS{FacetName: e.Name, DataAccess: map[string]any{"MySql": map[string]any{}},
			KeyAttributeAlias: map[string]string{"PartitionKeyAlias": keyAlias(e, t.Key.Partition)},
			TableData:         []dynamojson.ItemExact{}, NonKeyAttributes: []string{}}
		if t.Key.Sort != "" {
			f.KeyAttributeAlias["SortKeyAlias"] = keyAlias(e, t.Key.Sort)
		}
		facetOf[e.Name] = len(wt.TableFacets)
		wt.TableFacets = append(wt.TableFacets, f)
	}
	wt.TableData = []dynamojson.ItemExact{}
	facetAttrs := make([]map[string]bool, len(wt.TableFacets))
	for i := range facetAttrs {
		facetAttrs[i] = map[string]bool{}
	}
	check, err := newItemCheck(t)
	if err != nil {
		return nil, nil, err
	}
	for i, it := range d.Items {
		full := completeItem(d, it)
		if err := check(full); err != nil {
			return nil, nil, fmt.Errorf("item %d: %v", i, err)
		}
		tv, ok := full[typeAttr]
		if k, isFacet := facetOf[tv.Str]; ok && tv.Type == model.TypeS && isFacet {
			wt.TableFacets[k].TableData = append(wt.TableFacets[k].TableData, dynamojson.ItemExact(full))
			for a := range full {
				facetAttrs[k][a] = true
			}
			continue
		}
		wt.TableData = append(wt.TableData, dynamojson.ItemExact(full))
	}
	// A facet's NonKeyAttributes: its declared attributes, the type attribute, then
	// the index keys its templates build. The importer reads back exactly these.
	for k, e := range d.Entities {
		seen := map[string]bool{}
		f := &wt.TableFacets[k]
		add := func(a string) {
			if !seen[a] && !isKey[a] {
				seen[a] = true
				f.NonKeyAttributes = append(f.NonKeyAttributes, a)
			}
		}
		for _, a := range e.Attributes {
			add(a.Name)
		}
		if facetAttrs[k][typeAttr] {
			add(typeAttr)
		}
		for _, a := range model.KeyAttributeNames(t) {
			if e.Keys[a] != "" {
				add(a)
			}
		}
	}
	if t.Billing.Mode == model.Provisioned {
		wt.BillingMode = "PROVISIONED"
		c := &wbCapacityJS{ProvisionedThroughput: wbThroughputJS{t.Billing.Read, t.Billing.Write}}
		a, guessed := tableAutoscaling(&t.Billing)
		if guessed {
			notes = append(notes, "billing.provisioned.target has no min or max: the Workbench model scales between 1 and the provisioned capacity; give billing.provisioned.autoscaling to set them")
		}
		c.AutoScalingRead, c.AutoScalingWrite = autoScaling(a.Read), autoScaling(a.Write)
		wt.ProvisionedCapacitySettings = c
	}
	if t.Class == model.ClassStandardIA {
		notes = append(notes, "the table class standard-ia has no place in a NoSQL Workbench model and is left out")
	}
	wt.ModelSchema = modelSchema(d)
	var queryNotes []string
	wt.SavedQuery, queryNotes = savedQueries(d)
	notes = append(notes, queryNotes...)
	name := d.Name
	if name == "" {
		name = t.Name
	}
	m := wbModel{
		ModelName: name,
		ModelMetadata: wbMetadata{Description: d.Description, AWSService: "Amazon DynamoDB",
			Version: "3.0"},
		DataModel: []wbTableJS{wt},
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, nil, err
	}
	return buf.Bytes(), notes, nil
}

// keyAlias is the facet's name for a key attribute: the entity's alias for it
// when it keeps one (an import's that no template held), else the variable of a one-variable
// template ("c#{CustomerId}" gives CustomerId), which is what the importer reads back
// (aliasTemplate); otherwise the attribute's own name.
func keyAlias(e model.Entity, attr string) string {
	if a := e.Aliases[attr]; a != "" {
		return a
	}
	if vs := model.TemplateVars(e.Keys[attr]); len(vs) == 1 {
		return vs[0]
	}
	return attr
}

// autoScaling writes one capacity's target-tracking policy; nil when it is not
// autoscaled. The Workbench writes its target as a percentage.
func autoScaling(sc *model.Scaling) *wbAutoScalingJS {
	if sc == nil {
		return nil
	}
	a := &wbAutoScalingJS{}
	a.ScalableTargetRequest.MinCapacity = sc.Min
	a.ScalableTargetRequest.MaxCapacity = sc.Max
	a.ScalableTargetRequest.ServiceRole = "AWSServiceRoleForApplicationAutoScaling_DynamoDBTable"
	a.ScalingPolicyConfiguration.TargetValue = percentOf(sc.Target)
	return a
}

// percentOf turns a fraction into a percentage without float noise (0.7 gives
// 70, not 70.00000000000001).
func percentOf(f float64) float64 {
	p, _ := strconv.ParseFloat(strconv.FormatFloat(f*100, 'f', 6, 64), 64)
	return p
}

func wbKeys(k model.KeySchema, t *model.Table) wbKeysJS {
	ks := wbKeysJS{PartitionKey: wbAttrJS{k.Partition, t.KeyAttributeType(k.Partition).String()}}
	if k.Sort != "" {
		ks.SortKey = &wbAttrJS{k.Sort, t.KeyAttributeType(k.Sort).String()}
	}
	return ks
}

// projType is the projection type, ALL when not set (the design file's default).
func projType(p model.Projection) model.ProjectionType {
	if p.Type == "" {
		return model.ProjectAll
	}
	return p.Type
}

// completeItem returns the item with the key attributes that its entity's
// templates build and the item leaves out (FORMAT.md "Items and entities"), so that
// exports hold whole items. An item that gives a key keeps its own value.
func completeItem(d *model.Design, it model.Item) model.Item {
	tv, ok := it[d.TypeAttr()]
	if !ok || tv.Type != model.TypeS {
		return it
	}
	e := d.EntityByName(tv.Str)
	if e == nil {
		return it
	}
	var out model.Item
	for _, k := range sortedStrings(e.Keys) {
		if _, has := it[k]; has {
			continue
		}
		v, ok := model.ExpandKey(e.Keys[k], it, d.Table.KeyAttributeType(k))
		if !ok {
			continue
		}
		if out == nil {
			out = it.Clone()
		}
		out[k] = v
	}
	if out == nil {
		return it
	}
	return out
}
