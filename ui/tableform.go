package ui

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"stwb/cost"
	"stwb/model"
)

// Forms of the Table pane: the table, an index, an entity. Names follow DynamoDB's
// naming rules (HowItWorks.NamingRulesDataTypes.html): tables and indexes 3-255
// characters of a-z, A-Z, 0-9, _ - and .; limits are ServiceQuotas.html's.

var tableNameRE = regexp.MustCompile(`^[a-zA-Z0-9_.-]{3,255}$`)

func nameProblem(kind, s string) string {
	if !tableNameRE.MatchString(s) {
		return fmt.Sprintf("%s names are 3 to 255 characters of a-z, A-Z, 0-9, underscore, hyphen and dot", kind)
	}
	return ""
}

func attrNameProblem(s string) string {
	switch {
	case s == "":
		return "give the attribute name"
	case len(s) > model.MaxKeyAttrNameBytes:
		return fmt.Sprintf("key attribute names are at most %d bytes", model.MaxKeyAttrNameBytes)
	}
	return ""
}

func parseKeyType(s string) (model.Type, error) {
	switch strings.TrimSpace(s) {
	case "", "S":
		return model.TypeS, nil
	case "N":
		return model.TypeN, nil
	case "B":
		return model.TypeB, nil
	}
	return 0, fmt.Errorf("key attributes are S, N or B")
}

// fieldChecker runs one builder per keystroke for all the fields of a form.
func fieldChecker(build func(map[string]string) map[string]string) func(string) func(map[string]string) error {
	var lastKey string
	var last map[string]string
	return func(field string) func(map[string]string) error {
		return func(v map[string]string) error {
			if k := fmt.Sprint(v); k != lastKey {
				last, lastKey = build(v), k
			}
			if msg, ok := last[field]; ok {
				return errors.New(msg)
			}
			return nil
		}
	}
}

func billingText(b model.Billing) string {
	if b.Mode == model.Provisioned {
		s := fmt.Sprintf("provisioned %d %d", b.Read, b.Write)
		if b.Target > 0 {
			s += " target " + strconv.FormatFloat(b.Target, 'f', -1, 64)
		}
		return s
	}
	return "on-demand"
}

// parseBilling reads the billing field: on-demand, or provisioned READ WRITE with an
// optional autoscaling target utilisation (FORMAT.md: table.billing.provisioned.target).
func parseBilling(s string) (model.Billing, error) {
	f := strings.Fields(s)
	const how = "write on-demand, or provisioned READ WRITE [target T] (such as provisioned 100 50 target 0.7)"
	switch {
	case len(f) == 1 && f[0] == "on-demand":
		return model.Billing{Mode: model.OnDemand}, nil
	case (len(f) == 3 || len(f) == 5 && f[3] == "target") && f[0] == "provisioned":
		r, err1 := strconv.ParseInt(f[1], 10, 64)
		w, err2 := strconv.ParseInt(f[2], 10, 64)
		if err1 != nil || err2 != nil || r < 1 || w < 1 {
			return model.Billing{}, fmt.Errorf("provisioned read and write capacity are whole numbers of 1 or more")
		}
		b := model.Billing{Mode: model.Provisioned, Read: r, Write: w}
		if len(f) == 5 {
			// The loader's rule (table.billing.provisioned.target): above 0, at most 1.
			t, err := strconv.ParseFloat(f[4], 64)
			if err != nil || !(t > 0 && t <= 1) {
				return model.Billing{}, fmt.Errorf("the autoscaling target is a utilisation above 0 and at most 1, such as 0.7")
			}
			b.Target = t
		}
		return b, nil
	}
	return model.Billing{}, fmt.Errorf("%s", how)
}

func tableFromForm(d *model.Design, v map[string]string) (model.Table, string, string, map[string]string) {
	t := d.Table
	errs := map[string]string{}
	t.Name = strings.TrimSpace(v["table"])
	if p := nameProblem("table", t.Name); p != "" {
		errs["table"] = p
	}
	t.Key = model.KeySchema{Partition: strings.TrimSpace(v["pk"]), Sort: strings.TrimSpace(v["sk"])}
	if p := attrNameProblem(t.Key.Partition); p != "" {
		errs["pk"] = p
	}
	attrs := map[string]model.Type{}
	for k, ty := range d.Table.Attributes {
		attrs[k] = ty
	}
	if ty, err := parseKeyType(v["pktype"]); err != nil {
		errs["pktype"] = err.Error()
	} else {
		attrs[t.Key.Partition] = ty
	}
	if t.Key.Sort != "" {
		if ty, err := parseKeyType(v["sktype"]); err != nil {
			errs["sktype"] = err.Error()
		} else {
			attrs[t.Key.Sort] = ty
		}
	}
	t.Attributes = attrs
	b, err := parseBilling(v["billing"])
	if err != nil {
		errs["billing"] = err.Error()
		b = d.Table.Billing
	}
	if b.Mode == model.Provisioned {
		// The field does not show the autoscaling bounds (min, max per capacity): they
		// are kept as they were, not lost.
		b.Autoscaling = d.Table.Billing.Autoscaling
	}
	if b.Mode == model.OnDemand {
		// Nor an on-demand table's maximum throughput: kept as it was.
		b.MaxRead, b.MaxWrite = d.Table.Billing.MaxRead, d.Table.Billing.MaxWrite
	}
	t.Billing = b
	switch c := model.TableClass(strings.TrimSpace(v["class"])); c {
	case model.ClassStandard, model.ClassStandardIA:
		t.Class = c
	default:
		errs["class"] = "standard or standard-ia"
	}
	// The TTL attribute: empty for none. An entity's expires needs it, which the
	// loader's check (model.Validate) says when the edit is applied.
	t.TTL = strings.TrimSpace(v["ttl"])
	if msg := model.TTLNameProblem(t.TTL); t.TTL != "" && msg != "" {
		errs["ttl"] = msg
	}
	t.TypeAttribute = strings.TrimSpace(v["typeattr"])
	if t.TypeAttribute == "type" {
		t.TypeAttribute = ""
	}
	name := strings.TrimSpace(v["design"])
	if name == "" {
		errs["design"] = "give the design a name"
	}
	return t, name, v["description"], errs
}

func newTableForm(w *world) *form {
	d := w.doc.D
	f := newForm("Edit the table", w.km, w.st)
	check := fieldChecker(func(v map[string]string) map[string]string { _, _, _, e := tableFromForm(w.doc.D, v); return e })
	f.add("design", "design name", d.Name, "the design's name", check("design"))
	f.add("description", "description", d.Description, "what the design is for", nil)
	f.add("table", "table name", d.Table.Name, "the DynamoDB table's name", check("table"))
	f.add("pk", "partition key", d.Table.Key.Partition, "the partition key attribute (PK is the single-table habit)", check("pk"))
	f.add("pktype", "pk type", d.Table.KeyAttributeType(d.Table.Key.Partition).String(), "S, N or B", check("pktype"))
	f.add("sk", "sort key", d.Table.Key.Sort, "the sort key attribute; empty for none", check("sk"))
	f.add("sktype", "sk type", d.Table.KeyAttributeType(d.Table.Key.Sort).String(), "S, N or B", check("sktype"))
	f.add("billing", "billing", billingText(d.Table.Billing), "on-demand, or provisioned READ WRITE [target T] (T: the autoscaling target utilisation, such as 0.7)", check("billing"))
	class := string(d.Table.Class)
	if class == "" {
		class = string(model.ClassStandard)
	}
	f.add("class", "class", class, "standard or standard-ia", check("class"))
	f.add("ttl", "ttl attribute", d.Table.TTL, "the attribute whose Number value, epoch seconds, expires an item (TTL); empty: no TTL", check("ttl"))
	f.add("typeattr", "type attribute", d.TypeAttr(), "the attribute that names each item's entity", nil)
	settings := fieldChecker(func(v map[string]string) map[string]string { _, _, e := settingsFromForm(v); return e })
	f.add("region", "region", d.Region, "the AWS region whose prices apply (empty: "+cost.DefaultRegion+")", settings("region"))
	f.add("review", "review", reviewText(d.Review), `rules off or re-graded, with a reason: {unused-index: {severity: off, reason: "read by the nightly export"}}`, settings("review"))
	f.submit = func(v map[string]string) (edit, error) {
		t, name, desc, errs := tableFromForm(w.doc.D, v)
		region, rev, errs2 := settingsFromForm(v)
		if len(errs) > 0 || len(errs2) > 0 {
			return edit{}, errors.New("fix the fields marked ✗ first")
		}
		old := *w.doc.D
		te := tableEdit("edited the table", old.Table, t)
		me := metaEdit("", old.Name, old.Description, name, desc)
		return edit{label: "edited the table", data: true,
			apply: func(d *model.Design) { te.apply(d); me.apply(d); d.Region, d.Review = region, rev },
			revert: func(d *model.Design) {
				te.revert(d)
				me.revert(d)
				d.Region, d.Review = old.Region, old.Review
			}}, nil
	}
	return f
}

// settingsFromForm reads the design's region (one cost.Builtin prices) and its review
// settings, which are read by the loader as the file's review: section is.
func settingsFromForm(v map[string]string) (string, []model.ReviewSetting, map[string]string) {
	errs := map[string]string{}
	region := strings.TrimSpace(v["region"])
	if region != "" {
		if _, err := cost.Builtin().For(region, model.ClassStandard); err != nil {
			errs["region"] = err.Error()
		}
	}
	var rev []model.ReviewSetting
	if src := strings.TrimSpace(strings.ReplaceAll(v["review"], "\n", " ")); src != "" {
		d, err := readWithLoader("review: " + src + "\n")
		if err != nil {
			errs["review"] = err.Error()
		} else {
			rev = d.Review
			for i := range rev {
				rev[i].Pos = model.Pos{}
			}
		}
	}
	return region, rev, errs
}

// reviewText writes review settings as the file does, one flow mapping.
func reviewText(rs []model.ReviewSetting) string {
	if len(rs) == 0 {
		return ""
	}
	m := map[string]model.Value{}
	for _, r := range rs {
		m[r.Rule] = model.Map(map[string]model.Value{"severity": model.Str(r.Severity), "reason": model.Str(r.Reason)})
	}
	return formatMapping(m)
}

// lsiRefusal is DynamoDB's reason an LSI cannot be added to or removed from a table
// that exists (LSI.html): "Local secondary indexes are created at the same time that
// you create a table. You cannot add a local secondary index to an existing table, nor
// can you delete any local secondary indexes that currently exist." A design counts
// as an existing table once it is in a file; a new design may still take LSIs.
const lsiRefusal = "You cannot add a local secondary index to an existing table: LSIs are created at the same time as the table (LSI.html). Use a GSI, or create a new table"

func tableExists(doc *Doc) bool { return !doc.New && (doc.Path != "" || doc.Sample != "") }

func projectionText(p model.Projection) string {
	switch p.Type {
	case model.ProjectKeysOnly:
		return "keys-only"
	case model.ProjectInclude:
		return "include " + strings.Join(p.Include, " ")
	}
	return "all"
}

func parseProjection(s string) (model.Projection, error) {
	f := strings.Fields(strings.ReplaceAll(s, ",", " "))
	switch {
	case len(f) == 0 || len(f) == 1 && f[0] == "all":
		return model.Projection{Type: model.ProjectAll}, nil
	case len(f) == 1 && f[0] == "keys-only":
		return model.Projection{Type: model.ProjectKeysOnly}, nil
	case f[0] == "include" && len(f) > 1:
		return model.Projection{Type: model.ProjectInclude, Include: f[1:]}, nil
	}
	return model.Projection{}, fmt.Errorf("all, keys-only, or include ATTR ATTR...")
}

// indexFromForm builds an index; editing is its position, -1 for a new one.
func indexFromForm(d *model.Design, local bool, editing int, v map[string]string) (model.Index, map[string]model.Type, map[string]string) {
	errs := map[string]string{}
	ix := model.Index{Name: strings.TrimSpace(v["name"]), Local: local}
	if editing >= 0 {
		old := d.Table.Indexes[editing]
		ix.Read, ix.Write, ix.Pos = old.Read, old.Write, old.Pos
	}
	if p := nameProblem("index", ix.Name); p != "" {
		errs["name"] = p
	}
	gsis, lsis := 0, 0
	for i, x := range d.Table.Indexes {
		if i == editing {
			continue
		}
		if x.Name == ix.Name {
			errs["name"] = fmt.Sprintf("the table already has an index named %s", ix.Name)
		}
		if x.Local {
			lsis++
		} else {
			gsis++
		}
	}
	// ServiceQuotas.html: 20 GSIs and 5 LSIs per table. Refused when the form adds
	// one past the limit; a table that came over it from its file (review's
	// too-many-indexes) keeps its indexes editable.
	adds := editing < 0 || d.Table.Indexes[editing].Local != local
	if adds && !local && gsis >= model.MaxGSIs {
		errs["name"] = fmt.Sprintf("a table has at most %d global secondary indexes", model.MaxGSIs)
	}
	if adds && local && lsis >= model.MaxLSIs {
		errs["name"] = fmt.Sprintf("a table has at most %d local secondary indexes", model.MaxLSIs)
	}
	attrs := map[string]model.Type{}
	// A GSI's side may be up to four attributes, comma-separated, with a type each
	// (a multi-attribute key, GSI.DesignPattern.MultiAttributeKeys.html); an LSI's
	// sort key is one attribute.
	var parts []string
	if !local {
		parts = keySide(v["pk"], v["pktype"], "pk", attrs, errs)
		if len(parts) == 0 && errs["pk"] == "" {
			errs["pk"] = attrNameProblem("")
		}
	}
	sorts := keySide(v["sk"], v["sktype"], "sk", attrs, errs)
	ix.Key = model.NewKeySchema(parts, sorts)
	switch {
	case local && len(sorts) > 1:
		errs["sk"] = "an LSI's sort key is one attribute; a GSI's may be up to 4"
	case local && ix.Key.Sort == "":
		errs["sk"] = "an LSI has the table's partition key and its own sort key: give the sort key"
	case local && ix.Key.Sort == d.Table.Key.Sort:
		errs["sk"] = "an LSI's sort key must differ from the table's"
	}
	for i, a := range sorts {
		if slices.Contains(parts, a) || slices.Contains(sorts[:i], a) {
			errs["sk"] = fmt.Sprintf("%s is in the key already; each key attribute appears once", a)
		}
	}
	for a, ty := range attrs {
		if old, ok := d.Table.Attributes[a]; ok && old != ty {
			errs["pktype"] = fmt.Sprintf("%s is declared %s already; one attribute has one type", a, old)
		}
	}
	proj, err := parseProjection(v["projection"])
	if err != nil {
		errs["projection"] = err.Error()
	}
	ix.Projection = proj
	return ix, attrs, errs
}

// keySide reads one side of an index key from its field ("a, b": up to
// model.MaxKeyAttributes names) and its types field (one type, or one a name;
// empty is S), declaring each attribute's type in attrs; problems go into errs
// under field and field+"type".
func keySide(names, types, field string, attrs map[string]model.Type, errs map[string]string) []string {
	var out []string
	for _, n := range strings.Split(names, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	if len(out) > model.MaxKeyAttributes {
		errs[field] = fmt.Sprintf("a key side is at most %d attributes, comma-separated", model.MaxKeyAttributes)
	}
	for i, n := range out {
		if p := attrNameProblem(n); p != "" {
			errs[field] = p
		}
		if slices.Contains(out[:i], n) {
			errs[field] = fmt.Sprintf("%s is named twice; each key attribute appears once", n)
		}
	}
	tys := strings.Split(types, ",")
	if len(tys) != 1 && len(tys) != len(out) {
		errs[field+"type"] = fmt.Sprintf("give one type, or one for each of the %d attributes, comma-separated", len(out))
		return out
	}
	for i, n := range out {
		ty, err := parseKeyType(tys[min(i, len(tys)-1)])
		if err != nil {
			errs[field+"type"] = err.Error()
			continue
		}
		attrs[n] = ty
	}
	return out
}

// keySideText writes a key side for its form field, and its types for the types
// field: "tournamentId, region" and "S, S".
func keySideText(t *model.Table, names []string) (string, string) {
	tys := make([]string, len(names))
	for i, n := range names {
		tys[i] = t.KeyAttributeType(n).String()
	}
	if len(names) == 0 {
		tys = []string{model.TypeS.String()}
	}
	return strings.Join(names, ", "), strings.Join(tys, ", ")
}

func newIndexForm(w *world, local bool, editing int) *form {
	d := w.doc.D
	kind := "GSI"
	if local {
		kind = "LSI"
	}
	ix := model.Index{Local: local, Projection: model.Projection{Type: model.ProjectAll}}
	title := "Add a " + kind
	if editing >= 0 {
		ix = d.Table.Indexes[editing]
		title = "Edit " + kind + " " + ix.Name
	}
	f := newForm(title, w.km, w.st)
	check := fieldChecker(func(v map[string]string) map[string]string {
		_, _, e := indexFromForm(w.doc.D, local, editing, v)
		return e
	})
	f.add("name", "name", ix.Name, "the index name, such as GSI1", check("name"))
	sk, skTypes := keySideText(&d.Table, ix.Key.Sorts())
	if !local {
		pk, pkTypes := keySideText(&d.Table, ix.Key.Partitions())
		f.add("pk", "partition key", pk, "the index's partition key attribute, such as GSI1PK; or up to 4, comma-separated (a multi-attribute key)", check("pk"))
		f.add("pktype", "pk type", pkTypes, "S, N or B; one for each attribute, comma-separated", check("pktype"))
		f.add("sk", "sort key", sk, "the index's sort key attribute; up to 4, comma-separated; empty for none", check("sk"))
		f.add("sktype", "sk type", skTypes, "S, N or B; one for each attribute, comma-separated", check("sktype"))
	} else {
		f.add("sk", "sort key", sk, "the index's sort key attribute; empty for none", check("sk"))
		f.add("sktype", "sk type", skTypes, "S, N or B", check("sktype"))
	}
	f.add("projection", "projection", projectionText(ix.Projection), "all, keys-only, or include ATTR ATTR...", check("projection"))
	f.submit = func(v map[string]string) (edit, error) {
		nix, attrs, errs := indexFromForm(w.doc.D, local, editing, v)
		if len(errs) > 0 {
			return edit{}, errors.New("fix the fields marked ✗ first")
		}
		old := w.doc.D.Table
		label := "edited index " + nix.Name
		if editing < 0 {
			label = "added " + kind + " " + nix.Name
		}
		return tableEdit(label, old, withIndex(old, editing, nix, attrs)), nil
	}
	return f
}

// withIndex is a copy of table old with index nix put at position editing (-1 adds
// it at the end) and the attribute types attrs declared. The copy shares no map or
// slice with old, so that undo can put old back as it was.
func withIndex(old model.Table, editing int, nix model.Index, attrs map[string]model.Type) model.Table {
	t := old
	t.Attributes = make(map[string]model.Type, len(old.Attributes)+len(attrs))
	maps.Copy(t.Attributes, old.Attributes)
	maps.Copy(t.Attributes, attrs)
	t.Indexes = append([]model.Index(nil), old.Indexes...)
	if editing >= 0 {
		t.Indexes[editing] = nix
	} else {
		t.Indexes = append(t.Indexes, nix)
	}
	return t
}

// addIndexEdit adds an index from the palette (gsi NAME PK [SK]).
func addIndexEdit(doc *Doc, ix model.Index) (edit, error) {
	v := map[string]string{"name": ix.Name, "pk": ix.Key.Partition, "sk": ix.Key.Sort, "projection": "all"}
	nix, attrs, errs := indexFromForm(doc.D, false, -1, v)
	for _, f := range []string{"name", "pk", "pktype", "sk", "sktype", "projection"} {
		if e, ok := errs[f]; ok {
			return edit{}, fmt.Errorf("%s: %s", f, e)
		}
	}
	old := doc.D.Table
	return tableEdit("added GSI "+nix.Name, old, withIndex(old, -1, nix, attrs)), nil
}

// entityFromForm builds an entity; editing is its position, -1 for a new one.
func entityFromForm(d *model.Design, editing int, v map[string]string) (model.Entity, map[string]string) {
	errs := map[string]string{}
	e := model.Entity{Name: strings.TrimSpace(v["name"])}
	if editing >= 0 {
		// What the form does not show is kept, not dropped: another tool's names for
		// the keys, and how many values each template variable takes.
		old := d.Entities[editing]
		e.Pos, e.Aliases, e.Values = old.Pos, old.Aliases, old.Values
	}
	if e.Name == "" {
		errs["name"] = "give the entity a name, such as customer"
	}
	for i, x := range d.Entities {
		if i != editing && x.Name == e.Name {
			errs["name"] = fmt.Sprintf("there is already an entity %s; names are unique", e.Name)
		}
	}
	keys, err := parseMapping(v["keys"])
	if err != nil {
		errs["keys"] = err.Error()
	}
	if len(keys) > 0 {
		e.Keys = map[string]string{}
	}
	for k, x := range keys {
		if x.Type != model.TypeS {
			errs["keys"] = fmt.Sprintf("the template of %s must be a string such as \"CUST#{customerId}\"", k)
			continue
		}
		if len(model.TemplateVars(x.Str)) == 0 && strings.ContainsAny(x.Str, "{}") {
			errs["keys"] = fmt.Sprintf("template %q has unbalanced braces or an empty {}", x.Str)
		}
		e.Keys[k] = x.Str
	}
	if _, ok := e.Keys[d.Table.Key.Partition]; !ok && errs["keys"] == "" && len(keys) > 0 {
		errs["keys"] = fmt.Sprintf("the templates must include the table's partition key %s", d.Table.Key.Partition)
	}
	attrs, err := parseMapping(v["attributes"])
	if err != nil {
		errs["attributes"] = err.Error()
	}
	// Attributes keep their order in the file; new ones follow by name.
	var order []string
	if editing >= 0 {
		for _, a := range d.Entities[editing].Attributes {
			if _, still := attrs[a.Name]; still {
				order = append(order, a.Name)
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(attrs)) {
		if !slices.Contains(order, k) {
			order = append(order, k)
		}
	}
	for _, k := range order {
		a, err := entityAttribute(k, attrs[k])
		if err != nil {
			errs["attributes"] = err.Error()
			continue
		}
		e.Attributes = append(e.Attributes, a)
	}
	if s := strings.TrimSpace(v["count"]); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			errs["count"] = "a whole number of items in production, 0 or more"
		}
		e.Count = n
	}
	if s := strings.TrimSpace(v["expires"]); s != "" {
		// A rate; that it is not negative, and that the table has a TTL, are the
		// loader's checks (model.Validate), said when the edit is applied.
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			errs["expires"] = "items a second that expire by the table's TTL at peak, such as 100"
		}
		e.Expires = x
	}
	return e, errs
}

// entityAttribute reads one attribute of the entity form as FORMAT.md writes it: a
// type (email: S), or the long form (email: {type: S, unique: true}).
func entityAttribute(name string, x model.Value) (model.EntityAttribute, error) {
	const types = "one of S N B BOOL NULL L M SS NS BS"
	bad := fmt.Errorf("%s: give a type, %s, or {type: S, unique: true}", name, types)
	switch x.Type {
	case model.TypeS:
		ty, ok := model.ParseType(x.Str)
		if !ok {
			return model.EntityAttribute{}, bad
		}
		return model.EntityAttribute{Name: name, Type: ty}, nil
	case model.TypeM:
		a := model.EntityAttribute{Name: name}
		for k, v := range x.Map {
			switch {
			case k == "type" && v.Type == model.TypeS:
				ty, ok := model.ParseType(v.Str)
				if !ok {
					return a, bad
				}
				a.Type = ty
			case k == "unique" && v.Type == model.TypeBOOL:
				a.Unique = v.Bool
			default:
				return a, fmt.Errorf("%s: the long form takes type and unique (true or false), not %s", name, k)
			}
		}
		if a.Type == 0 {
			return a, bad
		}
		return a, nil
	}
	return model.EntityAttribute{}, bad
}

// entityAttrsText writes an entity's attributes for its form: the short form, and
// the long form for a unique one.
func entityAttrsText(attrs []model.EntityAttribute) string {
	m := map[string]model.Value{}
	for _, a := range attrs {
		m[a.Name] = model.Str(a.Type.String())
		if a.Unique {
			m[a.Name] = model.Map(map[string]model.Value{"type": model.Str(a.Type.String()), "unique": model.Bool(true)})
		}
	}
	return formatMapping(m)
}

// templateExample is the key each of e's templates builds from a sample item of the
// entity (its first item, else its attributes' names as stand-ins), for the entity
// form's live line.
func templateExample(d *model.Design, e model.Entity, oldName string) string {
	var sample model.Item
	where := "with stand-ins"
	for i, it := range d.Items {
		if t, ok := it[d.TypeAttr()]; ok && t.Type == model.TypeS && (t.Str == oldName || t.Str == e.Name) && t.Str != "" {
			sample, where = it, fmt.Sprintf("from item %d", i)
			break
		}
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(e.Keys)) {
		tmpl := e.Keys[k]
		it := model.Item{}
		for _, v := range model.TemplateVars(tmpl) {
			it[v] = model.Str("<" + v + ">")
			if x, ok := sample[v]; ok {
				it[v] = x
			}
		}
		val, ok := model.ExpandKey(tmpl, it, model.TypeS)
		if !ok {
			continue
		}
		parts = append(parts, k+"="+val.Str)
	}
	if len(parts) == 0 {
		return ""
	}
	return "example " + where + ": " + strings.Join(parts, " ")
}

// entityItemsEdit makes the items of entity old follow its new definition ne: their
// type attribute follows a rename, and the keys old's templates built from their
// attributes are built again by ne's. The items the patterns write (a PutItem's item,
// a transaction's or batch's puts) follow it too, as the loader holds them to the
// same templates (issue 25, item 6). ok is false when nothing changes.
func entityItemsEdit(d *model.Design, old, ne model.Entity) (edit, bool) {
	items, patterns := d.Items, d.Patterns
	var changed []model.Item
	for i, it := range d.Items {
		if nt, ok := followEntity(d, old, ne, it); ok {
			if changed == nil {
				changed = slices.Clone(items)
			}
			changed[i] = nt
		}
	}
	var written []model.Pattern
	for i := range d.Patterns {
		p, ok := patternFollowsEntity(d, old, ne, d.Patterns[i])
		if !ok {
			continue
		}
		if written == nil {
			written = slices.Clone(patterns)
		}
		written[i] = p
	}
	if changed == nil && written == nil {
		return edit{}, false
	}
	return edit{data: changed != nil,
		apply: func(d *model.Design) {
			if changed != nil {
				d.Items = changed
			}
			if written != nil {
				d.Patterns = written
			}
		},
		revert: func(d *model.Design) { d.Items, d.Patterns = items, patterns },
	}, true
}

// patternFollowsEntity is p with the items it writes following entity old's new
// definition ne (followEntity); ok is false when none changes.
func patternFollowsEntity(d *model.Design, old, ne model.Entity, p model.Pattern) (model.Pattern, bool) {
	changed, cloned := false, false
	if nt, ok := followEntity(d, old, ne, p.Item); ok {
		p.Item, changed = nt, true
	}
	for k, a := range p.Actions {
		if a.Kind != model.ActionPut {
			continue
		}
		if nt, ok := followEntity(d, old, ne, a.Item); ok {
			if !cloned {
				p.Actions, cloned = slices.Clone(p.Actions), true // the design's stays as it was, for undo
			}
			p.Actions[k].Item, changed = nt, true
		}
	}
	return p, changed
}

// followEntity is item it of entity old as entity ne makes it: the type attribute
// renamed, the keys old's templates built from its attributes built by ne's; ok is
// false when it is not old's or nothing changes.
func followEntity(d *model.Design, old, ne model.Entity, it model.Item) (model.Item, bool) {
	ta := d.TypeAttr()
	if t, ok := it[ta]; !ok || t.Type != model.TypeS || t.Str != old.Name {
		return nil, false
	}
	nt := it.Clone()
	for k := range old.Keys {
		if v, ok := derivedKey(d, &old, k, it); ok && v.Equal(it[k]) {
			delete(nt, k)
		}
	}
	nt[ta] = model.Str(ne.Name)
	for k := range ne.Keys {
		if _, given := nt[k]; !given {
			if v, ok := derivedKey(d, &ne, k, nt); ok {
				nt[k] = v
			}
		}
	}
	if nt.Equal(it) {
		return nil, false
	}
	return nt, true
}

// both is one edit made of two, undone together.
func both(label string, a, b edit) edit {
	return edit{label: label, data: a.data || b.data,
		apply:  func(d *model.Design) { a.apply(d); b.apply(d) },
		revert: func(d *model.Design) { b.revert(d); a.revert(d) },
	}
}

func newEntityForm(w *world, editing int) *form {
	d := w.doc.D
	var e model.Entity
	title := "Add an entity"
	if editing >= 0 {
		e = d.Entities[editing]
		title = "Edit entity " + e.Name
	}
	f := newForm(title, w.km, w.st)
	check := fieldChecker(func(v map[string]string) map[string]string { _, x := entityFromForm(w.doc.D, editing, v); return x })
	keys := map[string]model.Value{}
	for k, t := range e.Keys {
		keys[k] = model.Str(t)
	}
	count := ""
	if e.Count > 0 {
		count = strconv.FormatInt(e.Count, 10)
	}
	f.add("name", "name", e.Name, "the entity's name, such as customer", check("name"))
	f.add("keys", "key templates", formatMapping(keys), `{PK: "CUST#{customerId}", SK: PROFILE}`, check("keys"))
	f.fields[len(f.fields)-1].live = func(v map[string]string) string {
		ne, _ := entityFromForm(w.doc.D, editing, v)
		return templateExample(w.doc.D, ne, e.Name)
	}
	f.add("attributes", "attributes", entityAttrsText(e.Attributes), "{customerId: S, email: {type: S, unique: true}, total: N}", check("attributes"))
	f.add("count", "count", count, "how many exist in production (for storage and cost)", check("count"))
	expires := ""
	if e.Expires > 0 {
		expires = strconv.FormatFloat(e.Expires, 'f', -1, 64)
	}
	f.add("expires", "expires", expires, "items a second that expire by the table's TTL at peak (priced at 0 WCU); empty: none", check("expires"))
	f.submit = func(v map[string]string) (edit, error) {
		ne, errs := entityFromForm(w.doc.D, editing, v)
		if len(errs) > 0 {
			return edit{}, errors.New("fix the fields marked ✗ first")
		}
		if editing >= 0 {
			old := d.Entities[editing]
			ee := sliceEdit("edited entity "+ne.Name, true, entitiesOf, opSet, editing, old, ne)
			if ie, ok := entityItemsEdit(d, old, ne); ok {
				return both("edited entity "+ne.Name+" and the keys of its items", ee, ie), nil
			}
			return ee, nil
		}
		return sliceEdit("added entity "+ne.Name, true, entitiesOf, opInsert, len(d.Entities), model.Entity{}, ne), nil
	}
	return f
}
