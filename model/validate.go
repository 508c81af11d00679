package model

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
)

// Validation of a design against FORMAT.md and DynamoDB's limits. The limits come from
// the developer guide: HowItWorks.NamingRulesDataTypes.html (names, key sizes, empty
// values), ServiceQuotas.html (100 projected attributes), and the API reference of
// each operation for the request fields it takes. What DynamoDB refuses only when
// a request is made or the table is created (over 20 GSIs or 5 LSIs, an item over
// 400 KB, a request over its number of keys or actions, a key its template would
// not build) is not refused here: such a design opens, its patterns carry
// DynamoDB's errors, and review reports it (issue 14).
// Expression syntax is not checked here: expr does that when a pattern runs.

// Severities are the severities a design's review settings may give a rule.
var Severities = []string{"off", "error", "warning", "info"}

// DynamoDB's per-table limits (ServiceQuotas.html).
const (
	MaxGSIs               = 20
	MaxLSIs               = 5
	MaxProjectedAttrs     = 100
	MaxKeyAttrNameBytes   = 255
	MaxAttrNameBytes      = 65535
	MaxTransactionActions = 100
)

// The ranges that cost's arithmetic carries exactly: storage is summed in int64
// bytes and capacity in int64 units per second. MaxCount items of 400 KB (the item
// limit, ServiceQuotas.html) plus 100 bytes of overhead each, in the table and in 25
// indexes, are 5.3e18 bytes, under int64's 9.2e18; MaxRate requests a second of the
// largest request (a 4 MB transaction of 8,192 WCU, each of 25 indexes written too)
// are 2e14 units a second, whose ceiling and monthly figure stay exact. Past them
// the figures would wrap around to negative ones.
const (
	MaxCount    = 500_000_000_000 // items of one entity, and of all entities together
	MaxRate     = 1_000_000_000   // requests a second of one pattern
	MaxCapacity = 1 << 40         // provisioned capacity units of the table or an index
)

// awsRegion is the shape of every AWS region name: an area code, an optional part
// (gov, iso, isob, de), a direction and a number (us-east-1, us-gov-west-1,
// us-isob-east-1, cn-north-1, ap-southeast-5, eusc-de-east-1; AWS General
// Reference "Regions and endpoints").
var awsRegion = regexp.MustCompile(`^[a-z]{2,4}(-[a-z]{2,4})?-(north|south|east|west|central|northeast|northwest|southeast|southwest)-[1-9][0-9]?$`)

// rangeHint names a range in a refusal's hint.
func rangeHint(lo, hi int64) string {
	return fmt.Sprintf("write a number from %s to %s", groupDigits(lo), groupDigits(hi))
}

// groupDigits writes n with commas every three digits (1,000,000).
func groupDigits(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}

// Validate checks a design, returning an ErrorList of every problem, or nil. A
// design file's reader (package designfile) calls it (ValidateRead); call it again
// after changing a design in code. It checks everything, including what loading
// checks as it reads (number text, sets, pattern ids, operations, review reasons),
// since code may have changed those. Problems of items name only the design's file;
// ValidateAt names their places.
func Validate(d *Design) error { return ValidateAt(d, nil) }

// ValidateAt is Validate for a design whose items' places in its file are known:
// itemPos[i] is where item i is (a shorter list leaves the rest unplaced).
func ValidateAt(d *Design, itemPos []Pos) error { return validate(d, itemPos, false).err() }

// ValidateRead is the validation a design file's reader applies once it has read a
// design: Validate without the checks the reader made as it read each field and
// value (which a design built in code needs), so that one mistake is not reported
// twice. The problems come in the order found (ErrorList.Err sorts them).
func ValidateRead(d *Design, itemPos []Pos) ErrorList { return validate(d, itemPos, true).list }

// validate checks d. loaded says a reader is calling, having checked as it read
// what a design built in code would otherwise need checked here; those checks are
// skipped.
func validate(d *Design, itemPos []Pos, loaded bool) *errs {
	v := &validator{d: d, c: &errs{}, loaded: loaded, itemPos: itemPos}
	v.design()
	return v.c
}

type validator struct {
	d       *Design
	c       *errs
	loaded  bool
	itemPos []Pos
}

func (v *validator) design() {
	d := v.d
	if d.Version != 1 {
		v.c.add(d.Pos, "set version: 1", "version must be 1, not %d", d.Version)
	}
	if d.Region != "" && !awsRegion.MatchString(d.Region) {
		v.c.add(d.Pos, "name an AWS region such as us-east-1 or eu-west-1", "region %q is not an AWS region name", d.Region)
	}
	if !v.loaded || d.Table.Pos.Line > 0 {
		// A loaded design without a table has that one error, not one per table field.
		v.table()
	}
	v.skew(d.Pos, "design", d.Skew)
	v.entities()
	v.items()
	ids := map[int]bool{}
	for i := range d.Patterns {
		p := &d.Patterns[i]
		if !v.loaded && ids[p.ID] {
			v.c.add(p.Pos, "give each pattern its own id", "pattern id %d is used twice", p.ID)
		}
		ids[p.ID] = true
		v.pattern(p)
	}
	for _, r := range d.Review {
		if v.loaded {
			continue // the loader checked severity and reason where it read them
		}
		if !slices.Contains(Severities, r.Severity) {
			v.c.add(r.Pos, "use off, error, warning or info", "review.%s: severity %q is not known", r.Rule, r.Severity)
		}
		if strings.TrimSpace(r.Reason) == "" {
			v.c.add(r.Pos, "say why the rule does not apply", "review.%s: a reason is required", r.Rule)
		}
	}
}

// nameOK checks a table or index name: 3 to 255 of a-z A-Z 0-9 _ . -
// (HowItWorks.NamingRulesDataTypes.html, "Naming rules").
// TableNameFrom makes a valid table name out of s (a file's base name, say): each
// character DynamoDB does not allow becomes '-', a name under 3 characters gets
// "-data" appended, and it is cut at 255 (the rule nameOK checks,
// HowItWorks.NamingRulesDataTypes.html).
func TableNameFrom(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !nameByteOK(c) {
			b[i] = '-'
		}
	}
	if len(b) < 3 {
		b = append(b, "-data"...)
	}
	return string(b[:min(len(b), 255)])
}

func nameOK(s string) bool {
	if len(s) < 3 || len(s) > 255 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !nameByteOK(s[i]) {
			return false
		}
	}
	return true
}

// nameByteOK reports whether a table or index name may hold c: a-z, A-Z, 0-9, _ . -
// (HowItWorks.NamingRulesDataTypes.html).
func nameByteOK(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

const nameHint = "use 3 to 255 characters from a-z, A-Z, 0-9, _ . -"

// keyAttrName checks the name of a key attribute: 1 to 255 bytes.
func (v *validator) keyAttrName(p Pos, where, name string) {
	switch {
	case name == "":
		v.c.add(p, "name the attribute", "%s is empty", where)
	case len(name) > MaxKeyAttrNameBytes:
		v.c.add(p, "use a shorter name", "%s: a key attribute name is at most %d bytes, %q has %d", where, MaxKeyAttrNameBytes, name[:20]+"...", len(name))
	}
}

// indexKeySide checks one side of a GSI's key: one to MaxKeyAttributes
// attributes, each a valid key attribute name.
func (v *validator) indexKeySide(p Pos, where string, names []string) {
	if len(names) == 0 {
		v.keyAttrName(p, where, "")
		return
	}
	if len(names) > MaxKeyAttributes {
		v.c.add(p, fmt.Sprintf("name at most %d attributes", MaxKeyAttributes),
			"%s has %d attributes; a key side of a global secondary index has at most %d (GSI.DesignPattern.MultiAttributeKeys.html)", where, len(names), MaxKeyAttributes)
	}
	for _, n := range names {
		v.keyAttrName(p, where, n)
	}
}

// repeated is the first name given twice, "" when none is.
func repeated(names []string) string {
	for i, n := range names {
		if n != "" && slices.Contains(names[:i], n) {
			return n
		}
	}
	return ""
}

// autoscaling checks a design built in code (a loaded one was checked where each
// field was read): autoscaling needs provisioned capacity, within Scaling.Problem's
// bounds.
func (v *validator) autoscaling(p Pos, where string, a Autoscaling) {
	if v.loaded || a.IsZero() {
		return
	}
	if v.d.Table.Billing.Mode != Provisioned {
		v.c.add(p, "remove autoscaling, or make the table provisioned", "%s: autoscaling applies to provisioned capacity only", where)
		return
	}
	for _, s := range []struct {
		side string
		s    *Scaling
	}{{"read", a.Read}, {"write", a.Write}} {
		if s.s == nil {
			continue
		}
		if msg, hint := s.s.Problem(); msg != "" {
			v.c.add(p, hint, "%s.%s: %s", where, s.side, msg)
		}
	}
}

func (v *validator) table() {
	t := &v.d.Table
	p := t.Pos
	if p.Line == 0 {
		p = v.d.Pos
	}
	if t.Name == "" {
		v.c.add(p, "add name: my-table", "table.name is missing")
	} else if !nameOK(t.Name) {
		v.c.add(p, nameHint, "table name %q is not a valid DynamoDB table name", t.Name)
	}
	v.keyAttrName(p, "table.key.partition", t.Key.Partition)
	if t.Key.Multi() {
		// CreateTable's table KeySchema is one HASH and at most one RANGE element
		// (API_CreateTable.html "KeySchema"); multi-attribute keys are a GSI's only.
		v.c.add(p, "key the table on one attribute a side; give an index several", "table.key: a table's partition and sort key are one attribute each (multi-attribute keys are for global secondary indexes)")
	}
	if t.Key.Sort != "" {
		v.keyAttrName(p, "table.key.sort", t.Key.Sort)
		if t.Key.Sort == t.Key.Partition {
			v.c.add(p, "use two different attributes", "table.key: partition and sort are both %q", t.Key.Sort)
		}
	}
	for name, ty := range t.Attributes {
		if !ty.IsScalarKeyType() {
			v.c.add(p, "use S, N or B", "table.attributes.%s: %s cannot type a key attribute", name, ty)
		}
	}
	// A loaded design's capacity was read as at least 1 or refused where it is
	// written (read: 1e999999 is not a whole number, and not also "not positive").
	if !v.loaded && t.Billing.Mode == Provisioned && (t.Billing.Read <= 0 || t.Billing.Write <= 0) {
		v.c.add(p, "give read and write capacity of at least 1", "table.billing: provisioned capacity must be positive")
	}
	if t.Billing.Read > MaxCapacity || t.Billing.Write > MaxCapacity {
		v.c.add(p, rangeHint(1, MaxCapacity), "table.billing: provisioned capacity of %d read and %d write units is more than stwb's cost arithmetic carries",
			t.Billing.Read, t.Billing.Write)
	}
	v.autoscaling(p, "table.billing.provisioned.autoscaling", t.Billing.Autoscaling)
	if t.TypeAttribute != "" && (t.TypeAttribute == t.Key.Partition || t.TypeAttribute == t.Key.Sort) {
		v.c.add(p, "name another attribute (default: type)", "table.typeAttribute %q is a key attribute", t.TypeAttribute)
	}
	projected := 0
	names := map[string]bool{}
	for i := range t.Indexes {
		ix := &t.Indexes[i]
		ip := ix.Pos
		if ip.Line == 0 {
			ip = p
		}
		where := "index " + ix.Name
		switch {
		case ix.Name == "":
			v.c.add(ip, "add name: GSI1", "index %d has no name", i)
		case !nameOK(ix.Name):
			v.c.add(ip, nameHint, "index name %q is not a valid DynamoDB index name", ix.Name)
		case names[ix.Name]:
			v.c.add(ip, "give each index its own name", "index name %q is used twice", ix.Name)
		}
		names[ix.Name] = true
		if ix.Local {
			if ix.Key.Multi() {
				v.c.add(ip, "give a local index one sort attribute, or make it global", "%s: a local index's key is one attribute a side (multi-attribute keys are for global secondary indexes)", where)
			}
			if ix.Key.Sort == "" {
				v.c.add(ip, "add key: {sort: X}", "%s: a local index needs a sort key", where)
			} else if ix.Key.Sort == t.Key.Sort {
				v.c.add(ip, "sort on another attribute", "%s: a local index on the table's own sort key adds nothing", where)
			}
			if t.Key.Sort == "" {
				v.c.add(ip, "give the table a sort key, or make the index global", "%s: a local index needs a table with a sort key", where)
			}
			if ix.Read != 0 || ix.Write != 0 || !ix.Autoscaling.IsZero() {
				v.c.add(ip, "remove read, write and autoscaling: a local index uses the table's capacity", "%s: a local index has no capacity of its own", where)
			}
		} else {
			v.indexKeySide(ip, where+": key.partition", ix.Key.Partitions())
			if (ix.Read != 0 || ix.Write != 0 || !ix.Autoscaling.IsZero()) && t.Billing.Mode != Provisioned {
				v.c.add(ip, "remove read, write and autoscaling, or make the table provisioned", "%s: index capacity applies to a provisioned table only", where)
			}
			if ix.Read < 0 || ix.Write < 0 || ix.Read > MaxCapacity || ix.Write > MaxCapacity {
				v.c.add(ip, rangeHint(1, MaxCapacity), "%s: capacity of %d read and %d write units is out of the range stwb's cost arithmetic carries", where, ix.Read, ix.Write)
			}
			v.autoscaling(ip, where+".autoscaling", ix.Autoscaling)
		}
		if ix.Key.Sort != "" {
			v.indexKeySide(ip, where+": key.sort", ix.Key.Sorts())
		}
		if dup := repeated(ix.Key.Attributes()); dup != "" {
			if !ix.Key.Multi() {
				v.c.add(ip, "use two different attributes", "%s: partition and sort are both %q", where, dup)
			} else {
				v.c.add(ip, "name each key attribute once", "%s: key attribute %q is used twice", where, dup)
			}
		}
		if ix.Projection.Type == ProjectInclude {
			projected += len(ix.Projection.Include)
			for _, a := range ix.Projection.Include {
				if a == "" {
					v.c.add(ip, "name the attribute", "%s: an included attribute name is empty", where)
				}
			}
		}
	}
	// More than MaxGSIs or MaxLSIs indexes is no broken file: CreateTable refuses
	// the table (engine.CheckCreateTable), so review's too-many-indexes reports it
	// and deploy refuses it, while the design still opens and its patterns run.
	if projected > MaxProjectedAttrs {
		v.c.add(p, "project fewer attributes, or use projection: all", "the indexes project %d non-key attributes; DynamoDB allows %d across all indexes", projected, MaxProjectedAttrs)
	}
}

// keyAttributes lists every attribute that is a key of the table or an index.
func (t *Table) keyAttributes() map[string]bool {
	m := map[string]bool{}
	add := func(k KeySchema) {
		for _, a := range k.Attributes() {
			m[a] = true
		}
	}
	add(t.Key)
	for _, ix := range t.Indexes {
		add(ix.Key)
	}
	return m
}

func (v *validator) entities() {
	keys := v.d.Table.keyAttributes()
	seen := map[string]bool{}
	var total int64
	for i := range v.d.Entities {
		e := &v.d.Entities[i]
		p := e.Pos
		if p.Line == 0 {
			p = v.d.Pos
		}
		switch {
		case e.Count < 0 || e.Count > MaxCount:
			v.c.add(p, rangeHint(0, MaxCount), "entity %s: count %s is out of the range stwb's cost arithmetic carries", e.Name, groupDigits(e.Count))
		case total+e.Count > MaxCount:
			v.c.add(p, fmt.Sprintf("keep the entities' counts together at most %s", groupDigits(MaxCount)),
				"entity %s: the entities' counts add up to more than %s items, the range stwb's cost arithmetic carries", e.Name, groupDigits(MaxCount))
			total = MaxCount + 1
		default:
			total += e.Count
		}
		switch {
		case e.Name == "":
			v.c.add(p, "add name: customer", "entity %d has no name", i)
		case seen[e.Name]:
			v.c.add(p, "give each entity its own name", "entity %q is defined twice", e.Name)
		}
		seen[e.Name] = true
		if e.Expires < 0 || math.IsNaN(e.Expires) || math.IsInf(e.Expires, 0) {
			v.c.add(p, "write expires: 100 (items a second)", "entity %s: expires %v is not a rate", e.Name, e.Expires)
		} else if e.Expires > 0 && v.d.Table.TTL == "" {
			v.c.add(p, "name the TTL attribute on the table (table: {ttl: expiresAt}) or drop expires", "entity %s expires %v items a second, but the table has no ttl", e.Name, e.Expires)
		}
		v.varValues(p, e)
		for _, attr := range slices.Sorted(maps.Keys(e.Keys)) {
			if !keys[attr] {
				v.c.add(p, "name the table's or an index's key attributes", "entity %s: keys.%s is not a key attribute of the table or any index", e.Name, attr)
			}
			if !v.loaded {
				if msg := TemplateProblem(e.Keys[attr]); msg != "" {
					v.c.add(p, "write {attribute} for a variable part", "entity %s: keys.%s: %s", e.Name, attr, msg)
				}
			}
		}
		// An alias is another tool's name for one of the entity's key attributes
		// (a NoSQL Workbench facet's PartitionKeyAlias, SortKeyAlias): it must name
		// a key attribute, or the Workbench export would write it for none.
		for _, attr := range slices.Sorted(maps.Keys(e.Aliases)) {
			if v.loaded {
				break // the reader checked them where it read them
			}
			switch {
			case !keys[attr]:
				v.c.add(p, "give aliases for the table's or an index's key attributes, or remove it",
					"entity %s: aliases.%s is not a key attribute of the table or any index", e.Name, attr)
			case e.Aliases[attr] == "":
				v.c.add(p, fmt.Sprintf("give the other tool's name for %s, or remove aliases.%s", attr, attr), "entity %s: aliases.%s is empty", e.Name, attr)
			}
		}
		for _, a := range e.Attributes {
			if a.Name == "" || len(a.Name) > MaxAttrNameBytes {
				v.c.add(p, "use a name of 1 to 65535 bytes", "entity %s: attribute name of %d bytes", e.Name, len(a.Name))
			}
			if a.Type == 0 {
				v.c.add(p, "give the attribute a type", "entity %s: attribute %s has no type", e.Name, a.Name)
			}
		}
	}
}

// keyPart is one key attribute an item must (table) or may (index) carry.
type keyPart struct {
	attr     string
	where    string // "the table's partition key", "index GSI1's sort key"
	max      int    // size limit in bytes
	required bool
}

func (t *Table) keyParts() []keyPart {
	parts := []keyPart{{t.Key.Partition, "the table's partition key", MaxPartitionKeyBytes, true}}
	if t.Key.Sort != "" {
		parts = append(parts, keyPart{t.Key.Sort, "the table's sort key", MaxSortKeyBytes, true})
	}
	for _, ix := range t.Indexes {
		for _, a := range ix.Key.Partitions() {
			if a != t.Key.Partition {
				parts = append(parts, keyPart{a, "index " + ix.Name + "'s partition key", MaxPartitionKeyBytes, false})
			}
		}
		for _, a := range ix.Key.Sorts() {
			if a != t.Key.Sort {
				parts = append(parts, keyPart{a, "index " + ix.Name + "'s sort key", MaxSortKeyBytes, false})
			}
		}
	}
	return parts
}

func (v *validator) items() {
	t := &v.d.Table
	if t.Key.Partition == "" {
		return // reported on the table; every item would repeat it
	}
	parts := t.keyParts()
	seen := make(map[string]int, len(v.d.Items))
	for i, it := range v.d.Items {
		p := itemPosAt(v.d, v.itemPos, i)
		if !v.item(i, it, p, parts) {
			continue
		}
		k := ItemKey(t, it)
		if first, dup := seen[k]; dup {
			v.c.add(p, "give one of them another key; DynamoDB keeps one item per key",
				"item %d has the same key as item %d (%s)", i, first, describeKey(t, it))
		} else {
			seen[k] = i
		}
	}
}

// ItemChecker checks items one at a time, each as ValidateRead checks an item on
// its own (key values, size, attribute names), for a reader that keeps a design's
// items as text and reads each just once to check it (designfile's lazy reader).
// Comparing the items' keys with each other is the reader's (AppendItemKey). An
// ItemChecker is for one goroutine.
type ItemChecker struct {
	v     validator
	parts []keyPart
}

// NewItemChecker makes a checker for the items of d, which has no Items of its own.
func NewItemChecker(d *Design) *ItemChecker {
	return &ItemChecker{v: validator{d: d, c: &errs{}, loaded: true}, parts: d.Table.keyParts()}
}

// Check reports whether item i, which is at pos, has no problem and a whole table
// key. The reader stops at the first item that fails (and reads the file again to
// report the problems), so a checker is not used after a false.
func (c *ItemChecker) Check(i int, it Item, pos Pos) bool {
	return c.v.item(i, it, pos, c.parts) && len(c.v.c.list) == 0
}

// item checks item i on its own (key values, size, attribute names), reporting at p;
// complete says its table key is whole and valid, so that it can be compared with
// the other items' keys. parts is the table's keyParts.
func (v *validator) item(i int, it Item, p Pos, parts []keyPart) (complete bool) {
	t := &v.d.Table
	complete = true
	for _, kp := range parts {
		val, ok := it[kp.attr]
		if !ok {
			if kp.required {
				v.c.add(p, fmt.Sprintf("add %s, or a type whose template builds it", kp.attr), "item %d lacks %s (%s)", i, kp.attr, kp.where)
				complete = false
			}
			continue
		}
		if msg := keyValueProblem(val, t.KeyAttributeType(kp.attr), kp.max); msg != "" {
			v.c.add(p, "fix the value, or declare the type in table.attributes", "item %d: %s (%s) %s", i, kp.attr, kp.where, msg)
			complete = complete && !kp.required
		}
	}
	// An item over MaxItemSize is a fact of the design, not a broken file: DynamoDB
	// would refuse to store it (PutItem's ValidationException), so the engine
	// leaves it out of what the patterns read and review's item-too-large names it.
	for name, val := range it {
		if name == "" || len(name) > MaxAttrNameBytes {
			v.c.add(p, "use a name of 1 to 65535 bytes", "item %d: attribute name of %d bytes", i, len(name))
		}
		if !v.loaded {
			if msg := valueRuleProblem(val, 1); msg != "" {
				v.c.add(p, "fix the value", "item %d: %s: %s", i, name, msg)
			}
		}
	}
	return complete
}

// keyValueProblem checks one key attribute value: its declared type, not empty (keys
// may not be empty strings or binaries), and within the key size limit.
func keyValueProblem(val Value, ty Type, max int) string {
	if val.Type != ty {
		return fmt.Sprintf("is %s but the key attribute is declared %s", val.Type, ty)
	}
	if (ty == TypeS || ty == TypeB) && val.Str == "" {
		return "is empty; a key attribute value may not be an empty string or binary"
	}
	if ty == TypeN {
		if p := NumberProblem(val.Str); p != nil {
			return p.Msg
		}
	}
	if size := val.Size(); size > max {
		return fmt.Sprintf("is %d bytes; the limit is %d", size, max)
	}
	return ""
}

// valueRuleProblem checks a value built in code against the rules the loader applies
// to values it reads: valid numbers, non-empty sets without duplicates, nesting depth.
func valueRuleProblem(val Value, depth int) string {
	if depth > MaxValueDepth {
		return fmt.Sprintf("nested more than %d levels deep", MaxValueDepth)
	}
	switch val.Type {
	case TypeN:
		if p := NumberProblem(val.Str); p != nil {
			return p.Msg
		}
	case TypeSS, TypeNS, TypeBS:
		for _, e := range val.List {
			if e.Type != SetElemType(val.Type) {
				return fmt.Sprintf("a %s set holds a %s element", val.Type, e.Type)
			}
			if msg := valueRuleProblem(e, depth+1); msg != "" {
				return msg
			}
		}
		if _, p := SetValue(val.Type, val.List); p != nil {
			return p.Msg
		}
	case TypeL:
		for _, e := range val.List {
			if msg := valueRuleProblem(e, depth+1); msg != "" {
				return msg
			}
		}
	case TypeM:
		for _, e := range val.Map {
			if msg := valueRuleProblem(e, depth+1); msg != "" {
				return msg
			}
		}
	case TypeS, TypeB, TypeBOOL, TypeNULL:
	default:
		return "has no type"
	}
	return ""
}

// ItemKey is an item's table key as one comparable string: each key value's type
// and text, numbers in canonical form (so 1 and 1.0 are the same key).
func ItemKey(t *Table, it Item) string {
	return string(AppendItemKey(make([]byte, 0, len(it[t.Key.Partition].Str)+len(it[t.Key.Sort].Str)+4), t, it))
}

// AppendItemKey appends the bytes ItemKey makes: two items have equal keys exactly
// when these are equal.
func AppendItemKey(b []byte, t *Table, it Item) []byte {
	for _, attr := range []string{t.Key.Partition, t.Key.Sort} {
		if attr == "" {
			continue
		}
		v := it[attr]
		b = append(b, byte(v.Type))
		if v.Type == TypeN {
			b = append(b, CanonicalNumber(v.Str)...)
		} else {
			b = append(b, v.Str...)
		}
		b = append(b, 0)
	}
	return b
}

func describeKey(t *Table, it Item) string {
	s := t.Key.Partition + "=" + showValue(it[t.Key.Partition])
	if t.Key.Sort != "" {
		s += ", " + t.Key.Sort + "=" + showValue(it[t.Key.Sort])
	}
	return s
}

// The request fields each operation takes, from the API reference pages (API_Query,
// API_GetItem, API_PutItem, ...). A field given to an operation that has no such
// parameter is an error: the pattern would not run as written.
var opFields = map[Operation][]string{
	OpGetItem:            {"key", "projection", "consistent", "fanout"},
	OpQuery:              {"index", "key", "filter", "projection", "forward", "limit", "consistent", "fanout", "pages"},
	OpScan:               {"index", "filter", "projection", "limit", "consistent", "batch", "pages"},
	OpBatchGetItem:       {"keys", "projection", "consistent"},
	OpTransactGetItems:   {"keys", "projection"},
	OpPutItem:            {"item", "condition", "returnValues"},
	OpUpdateItem:         {"key", "update", "condition", "returnValues"},
	OpDeleteItem:         {"key", "condition", "returnValues"},
	OpBatchWriteItem:     {"actions"},
	OpTransactWriteItems: {"actions"},
	// API_ExecuteStatement.html: Statement, Parameters, Limit, ConsistentRead; a
	// SELECT that scans may be a batch job, and any SELECT may read every page.
	OpExecuteStatement: {"statement", "parameters", "limit", "consistent", "pages", "batch"},
}

// OperationFields lists the request fields operation op takes (a pattern's other
// fields, such as name, rate and expect, are every operation's), for the
// workbench's pattern form, which shows only these.
func OperationFields(op Operation) []string { return opFields[op] }

// patternFieldsSet lists the request fields a pattern sets.
func patternFieldsSet(p *Pattern) []string {
	var out []string
	add := func(name string, set bool) {
		if set {
			out = append(out, name)
		}
	}
	add("index", p.Index != "")
	add("key", p.KeyCondition != "" || p.Key != nil)
	add("filter", p.Filter != "")
	add("projection", p.Projection != "")
	add("condition", p.Condition != "")
	add("update", p.Update != "")
	add("forward", p.Forward != nil)
	add("limit", p.Limit != 0)
	add("consistent", p.Consistent)
	add("item", p.Item != nil)
	add("keys", p.Keys != nil)
	add("actions", p.Actions != nil)
	add("returnValues", p.ReturnValues != "")
	add("batch", p.Batch)
	add("fanout", p.Fanout != nil)
	add("pages", p.AllPages)
	add("statement", p.Statement != "")
	add("parameters", p.Parameters != nil)
	return out
}

// varValues checks an entity's `values`: each names a variable of one of its key
// templates, with a count of at least 1 or period.
func (v *validator) varValues(p Pos, e *Entity) {
	vars := map[string]bool{}
	for _, tpl := range e.Keys {
		for _, x := range TemplateVars(tpl) {
			vars[x] = true
		}
	}
	// A multi-attribute key's attributes are its variables: the key is the tuple
	// of their values, as a template of them would be.
	for _, ix := range v.d.Table.Indexes {
		if ix.Key.Multi() {
			for _, a := range ix.Key.Partitions() {
				vars[a] = true
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(e.Values)) {
		val := e.Values[name]
		if !vars[name] {
			v.c.add(p, "name a {variable} of the entity's key templates, or an attribute of a multi-attribute partition key", "entity %s: values.%s is not a variable of its key templates", e.Name, name)
		}
		if !val.Period && (val.N < 1 || val.N > MaxCount) {
			v.c.add(p, rangeHint(1, MaxCount)+", or period", "entity %s: values.%s %d is out of range", e.Name, name, val.N)
		}
	}
}

// skew checks a Skew: one of a Zipf exponent from 0 to 10 and a hottest share
// above 0 and at most 1.
func (v *validator) skew(p Pos, where string, s Skew) {
	if s.Zipf != nil && s.Hottest != 0 {
		v.c.add(p, "give one of zipf and hottest", "%s: skew has both zipf and hottest", where)
	}
	if s.Zipf != nil && !(*s.Zipf >= 0 && *s.Zipf <= MaxSkewZipf) {
		v.c.add(p, "write an exponent from 0 (even) to 10", "%s: skew.zipf %g is out of range", where, *s.Zipf)
	}
	if s.Hottest != 0 && !(s.Hottest > 0 && s.Hottest <= 1) {
		v.c.add(p, "write a share above 0 and at most 1", "%s: skew.hottest %g is out of range", where, s.Hottest)
	}
}

func (v *validator) pattern(p *Pattern) {
	pos := p.Pos
	if pos.Line == 0 {
		pos = v.d.Pos
	}
	where := fmt.Sprintf("pattern %d", p.ID)
	if p.Rate < 0 || p.Rate > MaxRate || p.Rate != p.Rate {
		v.c.add(pos, rangeHint(0, MaxRate)+" requests a second", "%s: rate %g is out of the range stwb's cost arithmetic carries", where, p.Rate)
	}
	if p.Partitions < 0 {
		v.c.add(pos, "write a whole number of at least 1", "%s: partitions %d is out of range", where, p.Partitions)
	}
	for _, k := range slices.Sorted(maps.Keys(p.PartitionsOn)) {
		if ix, ok := v.d.Table.IndexByName(k); k != "table" && (!ok || ix.Local) {
			v.c.add(pos, "name table or one of the table's GSIs (an LSI's load is the table's)", "%s: partitions.%s names no GSI", where, k)
		}
		if n := p.PartitionsOn[k]; n < 1 || n > MaxCount {
			v.c.add(pos, rangeHint(1, MaxCount), "%s: partitions.%s %d is out of range", where, k, n)
		}
	}
	v.skew(pos, where, p.Skew)
	v.fanout(pos, where, p)
	if p.ID <= 0 {
		if !v.loaded {
			v.c.add(pos, "give the pattern a positive id", "%s: id must be a positive number", where)
		}
		return
	}
	allowed, known := opFields[p.Operation]
	if !known {
		if !v.loaded {
			v.c.add(pos, "use one of GetItem, Query, Scan, BatchGetItem, TransactGetItems, PutItem, UpdateItem, DeleteItem, BatchWriteItem, TransactWriteItems, ExecuteStatement",
				"%s: operation %q is not known", where, p.Operation)
		}
		return
	}
	for _, f := range patternFieldsSet(p) {
		if !slices.Contains(allowed, f) {
			v.c.add(pos, fmt.Sprintf("remove %s; %s takes %s", f, p.Operation, strings.Join(allowed, ", ")), "%s: %s has no %s", where, p.Operation, f)
		}
	}
	switch p.Operation {
	case OpQuery:
		if p.KeyCondition == "" {
			if p.Key != nil {
				v.c.add(pos, "write key: \"PK = :pk\" with values: {\":pk\": ...}", "%s: a Query's key is a KeyConditionExpression string, not a mapping", where)
			} else {
				v.c.add(pos, "add key: \"PK = :pk\"", "%s: a Query needs a key condition", where)
			}
		}
	case OpGetItem, OpUpdateItem, OpDeleteItem:
		if p.Key == nil {
			if p.KeyCondition != "" {
				v.c.add(pos, "write key: {PK: ..., SK: ...}", "%s: %s's key is a mapping of the key attributes, not an expression", where, p.Operation)
			} else {
				v.c.add(pos, "add key: {PK: ..., SK: ...}", "%s: %s needs a key", where, p.Operation)
			}
		}
		if p.Operation == OpUpdateItem && p.Update == "" {
			v.c.add(pos, "add update: \"SET #a = :v\"", "%s: UpdateItem needs an update expression", where)
		}
	case OpPutItem:
		if p.Item == nil {
			v.c.add(pos, "add item: {PK: ..., SK: ..., ...}", "%s: PutItem needs an item", where)
		}
	case OpBatchGetItem, OpTransactGetItems:
		// More keys than the request takes (MaxBatchGetKeys, MaxTransactionActions)
		// is the request DynamoDB refuses, not a broken file: the pattern runs and
		// carries the engine's ValidationException (review: pattern-error,
		// transaction-too-large).
		if len(p.Keys) == 0 {
			v.c.add(pos, "add keys: [{PK: ..., SK: ...}]", "%s: %s needs keys", where, p.Operation)
		}
	case OpBatchWriteItem, OpTransactWriteItems:
		v.actions(p, pos, where)
	case OpExecuteStatement:
		// The statement's grammar and meaning are checked when it runs: a statement
		// DynamoDB would refuse is a finding on the pattern (pattern-error).
		if strings.TrimSpace(p.Statement) == "" {
			v.c.add(pos, `add statement: 'SELECT * FROM "`+v.d.Table.Name+`" WHERE `+v.d.Table.Key.Partition+` = ?' with parameters: [...]`, "%s: ExecuteStatement needs a statement", where)
		}
	}
	switch p.ReturnValues {
	case "", "NONE", "ALL_OLD":
	case "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW":
		if p.Operation != OpUpdateItem {
			v.c.add(pos, "use NONE or ALL_OLD", "%s: ReturnValues %s is for UpdateItem only", where, p.ReturnValues)
		}
	default:
		v.c.add(pos, "use NONE, ALL_OLD, UPDATED_OLD, ALL_NEW or UPDATED_NEW", "%s: ReturnValues %q is not known", where, p.ReturnValues)
	}
	if p.Index != "" {
		if _, ok := v.d.Table.IndexByName(p.Index); !ok {
			hint := "name one of the table's indexes"
			names := make([]string, len(v.d.Table.Indexes))
			for i, ix := range v.d.Table.Indexes {
				names[i] = ix.Name
			}
			if s := DidYouMean(p.Index, names); s != "" {
				hint = fmt.Sprintf("did you mean %q?", s)
			}
			v.c.add(pos, hint, "%s: index %q does not exist", where, p.Index)
		}
	}
	if !v.loaded {
		for name, val := range p.Values {
			if msg := valueRuleProblem(val, 1); msg != "" {
				v.c.add(pos, "fix the value", "%s: values %s: %s", where, name, msg)
			}
		}
		for i, val := range p.Parameters {
			if msg := valueRuleProblem(val, 1); msg != "" {
				v.c.add(pos, "fix the value", "%s: parameters[%d]: %s", where, i, msg)
			}
		}
	}
}

func (v *validator) actions(p *Pattern, pos Pos, where string) {
	// More actions than the request takes (MaxBatchWriteActions,
	// MaxTransactionActions) is the request DynamoDB refuses: the pattern runs and
	// carries the engine's ValidationException, as for keys above.
	if len(p.Actions) == 0 {
		v.c.add(pos, "add actions: [{put: ITEM}, {delete: {key: KEY}}]", "%s: %s needs actions", where, p.Operation)
	}
	for i, a := range p.Actions {
		ap := a.Pos
		if ap.Line == 0 {
			ap = pos
		}
		if p.Operation == OpBatchWriteItem {
			if a.Kind != ActionPut && a.Kind != ActionDelete {
				v.c.add(ap, "use TransactWriteItems for updates and checks", "%s: action %d: BatchWriteItem takes put and delete only, not %s", where, i, a.Kind)
			}
			if a.Condition != "" {
				v.c.add(ap, "use TransactWriteItems for conditional writes", "%s: action %d: BatchWriteItem has no conditions", where, i)
			}
		}
		switch a.Kind {
		case ActionPut:
			if a.Item == nil {
				v.c.add(ap, "write {put: {PK: ..., SK: ...}}", "%s: action %d: put needs an item", where, i)
			}
		case ActionUpdate, ActionDelete, ActionCheck:
			if a.Key == nil && !v.loaded {
				v.c.add(ap, "add key: {PK: ..., SK: ...}", "%s: action %d: %s needs a key", where, i, a.Kind)
			}
		default:
			v.c.add(ap, "use put, update, delete or check", "%s: action %d: kind %q is not known", where, i, a.Kind)
		}
	}
}
