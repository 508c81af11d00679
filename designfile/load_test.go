package designfile

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"stwb/model"
)

// Tests of loading design files. The value mapping follows FORMAT.md "Values"; the
// number rules follow the developer guide's HowItWorks.NamingRulesDataTypes.html
// ("Number": 38 digits, 1E-130 to 9.99E+125) and the set rules the same page's "Sets"
// (no empty sets, no duplicates).

// baseDesign is a small valid design; %ITEM% is replaced by one item line's body and
// %VALUE% by a pattern value.
const baseDesign = `version: 1
name: t
table:
  name: test-table
  key: {partition: PK, sort: SK}
items:
  - {PK: a, SK: b, v: %ITEM%}
patterns:
  - id: 1
    operation: Query
    key: "PK = :v"
    values:
      ":v": %VALUE%
`

func designWith(item, value string) []byte {
	return []byte(strings.NewReplacer("%ITEM%", item, "%VALUE%", value).Replace(baseDesign))
}

func TestParseValues(t *testing.T) {
	cases := []struct {
		yaml string
		want model.Value
	}{
		{`hello`, model.Str("hello")},
		{`"hello"`, model.Str("hello")},
		{`'it''s'`, model.Str("it's")},
		{`"12"`, model.Str("12")},
		{`"true"`, model.Str("true")},
		{`""`, model.Str("")},
		{`ITEM#001`, model.Str("ITEM#001")},
		{`ada@example.com`, model.Str("ada@example.com")},
		{`中文 é 🙂`, model.Str("中文 é 🙂")},
		{`"caf\u00e9\n"`, model.Str("café\n")},
		{`2026-08-03`, model.Str("2026-08-03")},
		{`!!str 12`, model.Str("12")},
		{`12`, model.Num("12")},
		{`-0.5`, model.Num("-0.5")},
		{`1e3`, model.Num("1e3")},
		{`99.50`, model.Num("99.50")},
		{`.5`, model.Num(".5")},
		{`12345678901234567890123456789012345678`, model.Num("12345678901234567890123456789012345678")},
		{`9.9999999999999999999999999999999999999E+125`, model.Num("9.9999999999999999999999999999999999999E+125")},
		{`1E-130`, model.Num("1E-130")},
		{`!!float 12`, model.Num("12")},
		{`true`, model.Bool(true)},
		{`False`, model.Bool(false)},
		{`null`, model.Null()},
		{`~`, model.Null()},
		{`[1, a, [true]]`, model.List(model.Num("1"), model.Str("a"), model.List(model.Bool(true)))},
		{`[]`, model.List()},
		{`{a: 1, "b c": {d: x}}`, model.Map(map[string]model.Value{"a": model.Num("1"), "b c": model.Map(map[string]model.Value{"d": model.Str("x")})})},
		{`{}`, model.Map(map[string]model.Value{})},
		{`!!binary aGVsbG8=`, model.Bin([]byte("hello"))},
		{`!!binary "aGVsbG8="`, model.Bin([]byte("hello"))},
		{`!ss [gift, "12"]`, model.StrSet("gift", "12")},
		{`!ns [1, 2.5, -3e2]`, model.NumSet("1", "2.5", "-3e2")},
		{`!bs [aGk=, "aGVsbG8="]`, model.BinSet([]byte("hi"), []byte("hello"))},
	}
	for _, c := range cases {
		for _, fast := range []bool{true, false} {
			d, err := parse("v.yaml", designWith(c.yaml, c.yaml), fast)
			if err != nil {
				t.Errorf("%s (fast %v): %v", c.yaml, fast, err)
				continue
			}
			got := d.Items[0]["v"]
			if !got.Equal(c.want) || got.Str != c.want.Str {
				t.Errorf("%s (fast %v): item value %+v, want %+v", c.yaml, fast, got, c.want)
			}
			if pv := d.Patterns[0].Values[":v"]; !pv.Equal(c.want) || pv.Str != c.want.Str {
				t.Errorf("%s: pattern value %+v, want %+v", c.yaml, pv, c.want)
			}
		}
	}
}

func TestParseValueErrors(t *testing.T) {
	cases := []struct{ yaml, msg string }{
		{`.inf`, "DynamoDB has no infinity or NaN"},
		{`-.inf`, "DynamoDB has no infinity or NaN"},
		{`.nan`, "DynamoDB has no infinity or NaN"},
		{`1e200`, "number overflow"},
		{`1e999`, "number overflow"}, // yaml.v3 alone would read this as a string
		{`1e-200`, "number underflow"},
		{`123456789012345678901234567890123456789`, "more than 38 significant digits"},
		{`0x1F`, `"0x1F" is not a DynamoDB number`},
		{`!ss []`, "empty SS set"},
		{`!ss [a, a]`, `duplicate element "a" in SS set`},
		{`!ns [1, 1.0]`, `duplicate element "1.0" in NS set`},
		{`!ns [x]`, `"x" is not a DynamoDB number`},
		{`!ss [null]`, "null is not a valid SS set element"},
		{`!bs ["@@"]`, "invalid base64"},
		{`!!binary "@@"`, "invalid base64"},
		{`!foo x`, "unknown tag !foo"},
		{`!ss x`, "!ss needs a sequence"},
		{`&a x`, "anchors (&a) are not supported"},
		{`{a: 1, a: 2}`, `duplicate key "a"`},
	}
	for _, c := range cases {
		for _, fast := range []bool{true, false} {
			_, err := parse("v.yaml", designWith(c.yaml, `x`), fast)
			var list model.ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Errorf("%s (fast %v): error %v, want an ErrorList", c.yaml, fast, err)
				continue
			}
			if !strings.Contains(list[0].Error(), c.msg) || !strings.HasPrefix(list[0].Error(), "v.yaml:7:") {
				t.Errorf("%s (fast %v): %q, want v.yaml:7:...: ...%s", c.yaml, fast, list[0].Error(), c.msg)
			}
			// The same value in a pattern's values is read by the node path.
			_, err = parse("v.yaml", designWith(`x`, c.yaml), fast)
			if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.HasPrefix(err.Error(), "v.yaml:13:") {
				t.Errorf("%s in values: %v", c.yaml, err)
			}
		}
	}
}

func TestValueNodeRoundTrip(t *testing.T) {
	values := []model.Value{
		model.Str(""), model.Str("12"), model.Str("true"), model.Str("null"), model.Str("~"), model.Str("yes"), model.Str("a: b"), model.Str("a #b"), model.Str(" lead"),
		model.Str("trail "), model.Str("-x"), model.Str("x,y"), model.Str("[x]"), model.Str("{x}"), model.Str("\"q\""), model.Str("line\nbreak"), model.Str("tab\t"),
		model.Str("\u2028"), model.Str("\x7f"), model.Str("\u0085"), model.Str("é\x01"), model.Str("#"), model.Str("a:"), model.Str("'"), model.Str("- x"), model.Str("? x"),
		model.Str("!x"), model.Str("&x"), model.Str("*x"), model.Str("|"), model.Str(">"), model.Str("%x"), model.Str("`x"), model.Str("\ufeffx"), model.Str("a  b"), model.Str("a\"b"),
		model.Str("中文"), model.Str("CUST#42"), model.Str("2026-08-03"), model.Str(".inf"), model.Str("0x1F"), model.Str("1e3"), model.Str("@x"), model.Str("a\\b"),
		model.Num("0"), model.Num("-0.5"), model.Num("1e3"), model.Num("99.50"), model.Num("12345678901234567890123456789012345678"),
		model.Bool(true), model.Null(), model.Bin([]byte{0, 1, 255}), model.Bin([]byte("1234")), model.List(model.Str("a"), model.Num("1")),
		model.Map(map[string]model.Value{"z": model.Str("1"), "a b": model.Null(), "12": model.Num("12")}),
		model.StrSet("a", "true", ""), model.NumSet("1", "2"), model.BinSet([]byte("x")),
	}
	for _, v := range values {
		got, err := ValueFromNode(ValueToNode(v))
		if err != nil || !got.Equal(v) || got.Str != v.Str {
			t.Errorf("%+v came back as %+v (%v)", v, got, err)
		}
		// And through text: the item fast path must read what saving writes.
		d := &model.Design{Version: 1, Table: model.Table{Name: "tbl", Key: model.KeySchema{Partition: "PK"}},
			Items: []model.Item{{"PK": model.Str("k"), "v": v}}}
		out, err := fileOf(d).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		for _, fast := range []bool{true, false} {
			back, err := parse("rt.yaml", out, fast)
			if err != nil {
				t.Errorf("%+v: %v\n%s", v, err, out)
				continue
			}
			if w := back.Items[0]["v"]; !w.Equal(v) || w.Str != v.Str {
				t.Errorf("%+v (fast %v) read back as %+v from\n%s", v, fast, w, out)
			}
		}
	}
}

func TestFormatExampleLoads(t *testing.T) {
	d, err := Load("testdata/format-example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "orders-service" || len(d.Entities) != 2 || len(d.Items) != 3 || len(d.Patterns) != 4 {
		t.Fatalf("loaded %+v", d)
	}
	// Item 1 names the order entity and leaves its keys out: all four are built.
	order := d.Items[1]
	for attr, want := range map[string]model.Value{"PK": model.Str("ORDER#9f2a"), "SK": model.Str("METADATA"),
		"GSI1PK": model.Str("STATUS#SHIPPED"), "GSI1SK": model.Str("2026-08-03T14:22Z")} {
		if !order[attr].Equal(want) {
			t.Errorf("order item %s = %+v, want %+v", attr, order[attr], want)
		}
	}
	if d.Items[1]["total"].Str != "99.50" {
		t.Errorf("total kept as %q, want the exact text 99.50", d.Items[1]["total"].Str)
	}
	lsi, _ := d.Table.IndexByName("LSI1")
	if !lsi.Local || lsi.Key.Partition != "PK" || lsi.Key.Sort != "placedAt" || lsi.Projection.Type != model.ProjectKeysOnly {
		t.Errorf("LSI1 = %+v", lsi)
	}
	p2 := d.Patterns[1]
	if p2.KeyCondition != "PK = :pk AND begins_with(SK, :sk)" || p2.ScanForward() || p2.Limit != 25 {
		t.Errorf("pattern 2 = %+v", p2)
	}
	if d.Patterns[0].Key == nil || !d.Patterns[0].Key["PK"].Equal(model.Str("CUST#42")) || d.Patterns[0].Rate != 200 {
		t.Errorf("pattern 1 = %+v", d.Patterns[0])
	}
	if d.ItemPos[2] != (model.Pos{File: "testdata/format-example.yaml", Line: 31, Col: 5}) {
		t.Errorf("item 2 at %+v", d.ItemPos[2])
	}
	if d.Patterns[3].Pos != (model.Pos{File: d.Pos.File, Line: 57, Col: 5}) || d.Entities[1].Pos.Line != 24 || d.Table.Indexes[1].Pos != (model.Pos{File: d.Pos.File, Line: 15, Col: 7}) {
		t.Errorf("positions: pattern %v entity %v index %v", d.Patterns[3].Pos, d.Entities[1].Pos, d.Table.Indexes[1].Pos)
	}
}

// TestParseAllFields reads testdata/all-fields.yaml, which sets every field FORMAT.md
// lists and the documented extras (returnValues, per-action names and values, index
// capacity).
func TestParseAllFields(t *testing.T) {
	d, err := Load("testdata/all-fields.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tb := d.Table
	if tb.Billing != (model.Billing{Mode: model.Provisioned, Read: 100, Write: 50, Target: 0.7}) || tb.Class != model.ClassStandardIA || tb.TypeAttribute != "kind" {
		t.Errorf("table = %+v", tb)
	}
	if tb.KeyAttributeType("SK") != model.TypeN || tb.KeyAttributeType("other") != model.TypeS {
		t.Errorf("attributes = %v", tb.Attributes)
	}
	gsi, _ := tb.IndexByName("GSI1")
	if gsi.Read != 10 || gsi.Write != 5 || gsi.Projection.Type != model.ProjectInclude || !reflect.DeepEqual(gsi.Projection.Include, []string{"status", "total"}) {
		t.Errorf("GSI1 = %+v", gsi)
	}
	if d.Region != "eu-west-1" || d.Description == "" {
		t.Errorf("region %q description %q", d.Region, d.Description)
	}
	e := d.Entities[0]
	if len(e.Attributes) != 2 || e.Attributes[0] != (model.EntityAttribute{Name: "email", Type: model.TypeS, Unique: true}) || e.Attributes[1].Type != model.TypeN || e.Count != 7 {
		t.Errorf("entity = %+v", e)
	}
	byID := map[int]model.Pattern{}
	for _, p := range d.Patterns {
		byID[p.ID] = p
	}
	q := byID[1]
	if q.Holds != "h" || q.Returns != "r" || q.Order != "o" || q.Cardinality != "1" || q.Rate != 2.5 || q.Index != "GSI1" ||
		q.Filter != "#s = :s" || q.Projection != "PK, total" || q.Names["#s"] != "status" || !q.Consistent == false ||
		q.Partitions != 1000 || len(q.Expect) != 1 || q.ScanForward() {
		t.Errorf("pattern 1 = %+v", q)
	}
	if s := byID[2]; !s.Batch || s.Operation != model.OpScan || s.Limit != 10 || !s.Consistent {
		t.Errorf("pattern 2 = %+v", s)
	}
	if b := byID[3]; len(b.Keys) != 2 || b.Operation != model.OpBatchGetItem {
		t.Errorf("pattern 3 = %+v", b)
	}
	if p := byID[4]; p.Item == nil || p.Condition == "" || p.ReturnValues != "ALL_OLD" {
		t.Errorf("pattern 4 = %+v", p)
	}
	tw := byID[5]
	if len(tw.Actions) != 4 {
		t.Fatalf("pattern 5 actions = %+v", tw.Actions)
	}
	kinds := []model.ActionKind{tw.Actions[0].Kind, tw.Actions[1].Kind, tw.Actions[2].Kind, tw.Actions[3].Kind}
	if !reflect.DeepEqual(kinds, []model.ActionKind{model.ActionPut, model.ActionUpdate, model.ActionDelete, model.ActionCheck}) {
		t.Errorf("kinds %v", kinds)
	}
	if tw.Actions[0].Condition != "attribute_not_exists(PK)" || tw.Actions[1].Names["#t"] != "total" ||
		!tw.Actions[1].Values[":one"].Equal(model.Num("1")) || tw.Actions[3].Condition == "" || tw.Actions[2].Key == nil {
		t.Errorf("actions %+v", tw.Actions)
	}
	if u := byID[6]; u.ReturnValues != "UPDATED_NEW" || u.Update == "" || u.Key == nil {
		t.Errorf("pattern 6 = %+v", u)
	}
	if len(d.Review) != 2 || d.Review[0] != (model.ReviewSetting{Rule: "unused-index", Severity: "off", Reason: "read by the nightly export", Pos: d.Review[0].Pos}) {
		t.Errorf("review = %+v", d.Review)
	}
}

func TestParseDefaults(t *testing.T) {
	d, err := Parse("min.yaml", []byte("version: 1\ntable:\n  name: tbl\n  key: {partition: id}\n  indexes:\n    - name: byX\n      key: {partition: x}\npatterns:\n  - id: 1\n    operation: Scan\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Table.Billing.Mode != model.OnDemand || d.Table.Class != model.ClassStandard || d.TypeAttr() != "type" || d.Table.TypeAttribute != "type" {
		t.Errorf("table defaults %+v", d.Table)
	}
	if d.Table.Indexes[0].Projection.Type != model.ProjectAll || d.Table.Indexes[0].Local {
		t.Errorf("index defaults %+v", d.Table.Indexes[0])
	}
	p := d.Patterns[0]
	if !p.ScanForward() || p.EffectiveRate() != 1 || p.Consistent || p.Limit != 0 || p.Batch {
		t.Errorf("pattern defaults %+v", p)
	}
	if d.Region != "" || d.Items != nil {
		t.Errorf("region %q items %v", d.Region, d.Items)
	}
}

// fastPathFiles are designs whose items the fast path reads, each with something
// to get right.
func fastPathFiles() map[string][]byte {
	files := map[string][]byte{
		"generated": genDesign(300),
		"chunked":   genDesign(5000), // read by several goroutines
		"comments":  []byte("version: 1\ntable: {name: tbl, key: {partition: PK}}\nitems:\n  # first\n  - {PK: a, n: 1}  # one\n\n  - {PK: b, 'q': 'x''y', s: !ss [\"a b\", c], m: {x: [1, {y: null}]}, e: {}, l: []}\n# margin\npatterns: []\n"),
		"margin":    []byte("version: 1\ntable: {name: tbl, key: {partition: PK}}\nitems:\n- {PK: a, n: -1.5e3}\n- {PK: b, bin: !!binary AAE=, t: True, u: ~}\n"),
		// Plain dates and times: timestamps or strings to yaml.v3, strings to stwb.
		"dates": []byte("version: 1\ntable: {name: tbl, key: {partition: PK}}\nitems:\n" +
			"  - {PK: a, d: 2026-08-03, t: 2026-08-03T14:22:05Z, u: 2026-08-03T14:22Z, v: 2026-8-3 1:2:3, w: 14:22, x: 1-2, y: 12e-3}\n"),
	}
	if ex, err := readFile("testdata/format-example.yaml"); err == nil {
		files["example"] = ex
	}
	return files
}

// TestFastPathAgrees holds the items fast path to yaml.v3's reading of the same file.
func TestFastPathAgrees(t *testing.T) {
	for name, data := range fastPathFiles() {
		if splitItems(newDecoder(""), data) == nil {
			t.Errorf("%s: the fast path did not take the file", name)
		}
		fast, err1 := parse("f.yaml", data, true)
		slow, err2 := parse("f.yaml", data, false)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v / %v", name, err1, err2)
		}
		if !reflect.DeepEqual(fast.Items, slow.Items) || !reflect.DeepEqual(fast.ItemPos, slow.ItemPos) {
			t.Errorf("%s: fast and slow paths differ:\n%+v\n%+v\n%v\n%v", name, fast.Items, slow.Items, fast.ItemPos, slow.ItemPos)
		}
		for i := range fast.source.items {
			f, s := fast.source.items[i], slow.source.items[i]
			if !reflect.DeepEqual(f.order, s.order) || f.line != s.line || f.head != s.head || f.key != s.key {
				t.Errorf("%s: item %d record fast %+v slow %+v", name, i, f, s)
			}
		}
	}
}

func TestFastPathFallsBack(t *testing.T) {
	// Each of these is YAML the fast path does not take; the slow path still reads it.
	for _, items := range []string{
		"  - {PK: a, x: &anchor 1}",
		"  - PK: a\n    x: 1",
		"  - {PK: a,\n     x: 1}",
		"  - {PK: a, x: \"\\e\"}",
		"  - {PK: a, x: -abc}",
	} {
		data := []byte("version: 1\ntable: {name: tbl, key: {partition: PK}}\nitems:\n" + items + "\n")
		if splitItems(newDecoder(""), data) != nil {
			t.Errorf("fast path took %q", items)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, yaml string
		want       []string // every error, in order
	}{
		{"did you mean", "version: 1\ntable:\n  name: tbl\n  key:\n    parition: PK\n", []string{
			`model.yaml:3:3: table.key.partition is empty. name the attribute`,
			`model.yaml:5:5: unknown field "parition" in table.key; did you mean "partition"?`,
		}},
		{"unknown top-level field", "version: 1\ntable: {name: tbl, key: {partition: PK}}\nitemz: []\nfoo: 1\n", []string{
			`model.yaml:3:1: unknown field "itemz" in design; did you mean "items"?`,
			`model.yaml:4:1: unknown field "foo" in design. known fields: version, name, description, region, skew, table, entities, items, patterns, review`,
		}},
		{"missing version and table", "name: x\n", []string{
			`model.yaml:1:1: version is missing. add ` + "`version: 1`" + ` at the top`,
			`model.yaml:1:1: table is missing. add a table with a name and key`,
			`model.yaml:1:1: version must be 1, not 0. set version: 1`,
		}},
		{"yaml syntax", "version: 1\ntable: [\n", []string{
			`model.yaml:2:1: YAML syntax: did not find expected node content. fix the YAML at this line`,
		}},
		{"empty", "", []string{`model.yaml:1:1: the design file is empty. start from ` + "`stwb sample orders`" + ` or FORMAT.md's example`}},
		{"pattern fields", "version: 1\ntable: {name: tbl, key: {partition: PK}}\npatterns:\n  - id: 3\n    operation: GetItems\n  - id: 3\n    operation: Query\n    key: {PK: a}\n    forwrd: false\n", []string{
			`model.yaml:5:16: pattern 3.operation "GetItems" is not known. did you mean "GetItem"? (use one of: GetItem, Query, Scan, BatchGetItem, TransactGetItems, PutItem, UpdateItem, DeleteItem, BatchWriteItem, TransactWriteItems, ExecuteStatement)`,
			`model.yaml:6:5: pattern id 3 is used twice (first at model.yaml:4:5). give each pattern its own id`,
			`model.yaml:6:5: pattern 3: a Query's key is a KeyConditionExpression string, not a mapping. write key: "PK = :pk" with values: {":pk": ...}`,
			`model.yaml:9:5: unknown field "forwrd" in pattern 3; did you mean "forward"?`,
		}},
		{"review reason", "version: 1\ntable: {name: tbl, key: {partition: PK}}\nreview:\n  unused-index: {severity: of}\n", []string{
			`model.yaml:4:3: review.unused-index: a reason is required. add reason: "why this rule does not apply here"`,
			`model.yaml:4:28: review.unused-index.severity "of" is not known. did you mean "off"? (use one of: off, error, warning, info)`,
		}},
		{"billing", "version: 1\ntable:\n  name: tbl\n  key: {partition: PK}\n  billing: {provisioned: {read: 0}}\n", []string{
			`model.yaml:5:26: table.billing.provisioned.write is missing. add write: N (capacity units)`,
			`model.yaml:5:33: table.billing.provisioned.read 0 is out of range. write a number from 1 to 1099511627776`,
		}},
	}
	for _, c := range cases {
		_, err := Parse("model.yaml", []byte(c.yaml))
		var list model.ErrorList
		if !errors.As(err, &list) {
			t.Errorf("%s: error %v, want an ErrorList", c.name, err)
			continue
		}
		var got []string
		for _, e := range list {
			got = append(got, e.Error())
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\ngot  %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestChunkedErrorsInLineOrder: value errors found by the parallel item reader carry
// their own lines and come out in line order, as the node path reports them.
func TestChunkedErrorsInLineOrder(t *testing.T) {
	data := string(genDesign(5000))
	data = strings.Replace(data, "total: 1.50", "total: 1e200", 1)   // item 1, line 14
	data = strings.Replace(data, "total: 499.50", "total: 1e999", 1) // item 499 (first chunk)
	lines := strings.Split(data, "\n")
	lines[13+4900] = strings.Replace(lines[13+4900], "qty: 3", "qty: 0x3", 1) // last chunk
	data = strings.Join(lines, "\n")
	_, fastErr := parse("c.yaml", []byte(data), true)
	_, slowErr := parse("c.yaml", []byte(data), false)
	if fastErr == nil || slowErr == nil {
		t.Fatalf("errors: %v / %v", fastErr, slowErr)
	}
	// 0x3 is not in the fast subset, so the whole file falls back to yaml.v3; without it
	// the fast path reports the other two.
	if fastErr.Error() != slowErr.Error() {
		t.Errorf("fast:\n%v\nslow:\n%v", fastErr, slowErr)
	}
	lines[13+4900] = strings.Replace(lines[13+4900], "qty: 0x3", "qty: 1e-999", 1)
	data = strings.Join(lines, "\n")
	if splitItems(newDecoder(""), []byte(data)) == nil {
		t.Fatal("the fast path did not take the file")
	}
	_, fastErr = parse("c.yaml", []byte(data), true)
	_, slowErr = parse("c.yaml", []byte(data), false)
	list, _ := fastErr.(model.ErrorList)
	if fastErr == nil || fastErr.Error() != slowErr.Error() || len(list) != 3 || list[0].Pos.Line != 14 || list[2].Pos.Line != 4914 {
		t.Errorf("fast:\n%v\nslow:\n%v", fastErr, slowErr)
	}
}

// TestPlainScalarCharacters tries every printable ASCII character at the start, in the
// middle and at the end of an unquoted item value: the fast path must read what
// yaml.v3 reads (or leave the line to it), and a string saved and loaded again must
// come back the same.
func TestPlainScalarCharacters(t *testing.T) {
	for c := byte(0x20); c < 0x7f; c++ {
		for _, s := range []string{string(c) + "b", "a" + string(c) + "b", "a" + string(c)} {
			data := []byte("version: 1\ntable: {name: tbl, key: {partition: PK}}\nitems:\n  - {PK: k, v: " + s + "}\n")
			fast, err1 := parse("p.yaml", data, true)
			slow, err2 := parse("p.yaml", data, false)
			if (err1 == nil) != (err2 == nil) || err1 == nil && !reflect.DeepEqual(fast.Items, slow.Items) {
				t.Errorf("%q: fast path %v / %v, yaml.v3 %v / %v", s, fast, err1, slow, err2)
			}
			d := &model.Design{Version: 1, Table: model.Table{Name: "tbl", Key: model.KeySchema{Partition: "PK"}},
				Items: []model.Item{{"PK": model.Str("k"), "v": model.Str(s), s: model.Str("name")}}}
			out, err := fileOf(d).Marshal()
			if err != nil {
				t.Fatal(err)
			}
			for _, useFast := range []bool{true, false} {
				back, err := parse("p.yaml", out, useFast)
				if err != nil || !back.Items[0]["v"].Equal(model.Str(s)) || !back.Items[0][s].Equal(model.Str("name")) {
					t.Errorf("%q (fast %v) saved as\n%s read back as %v (%v)", s, useFast, out, back, err)
				}
			}
		}
	}
}

// TestQuotedCharacters saves strings holding every code point below U+0200 and the
// ones YAML treats specially, and reads them back by both paths.
func TestQuotedCharacters(t *testing.T) {
	var runes []rune
	for r := rune(0); r < 0x200; r++ {
		runes = append(runes, r)
	}
	runes = append(runes, 0x2028, 0x2029, 0xfeff, 0xfffd, 0x1f642, 0x4e2d)
	for _, r := range runes {
		s := "x" + string(r) + "y"
		d := &model.Design{Version: 1, Table: model.Table{Name: "tbl", Key: model.KeySchema{Partition: "PK"}},
			Items: []model.Item{{"PK": model.Str("k"), "v": model.Str(s), "l": model.List(model.Str(string(r)))}}}
		out, err := fileOf(d).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		for _, useFast := range []bool{true, false} {
			back, err := parse("q.yaml", out, useFast)
			if err != nil || !back.Items[0]["v"].Equal(model.Str(s)) || !back.Items[0]["l"].Equal(model.List(model.Str(string(r)))) {
				t.Errorf("U+%04X (fast %v) saved as %q read back as %v (%v)", r, useFast, out, back, err)
			}
		}
	}
}

// TestRawSpecialCharacters: characters that yaml.v3 rejects or treats as line breaks,
// written raw in an item, get yaml.v3's reading, not the fast path's.
func TestRawSpecialCharacters(t *testing.T) {
	for _, r := range []rune{0x01, 0x7f, 0x80, 0x85, 0x9f, 0x2028, 0x2029, 0xfeff, 0xfffe} {
		data := []byte("version: 1\ntable: {name: tbl, key: {partition: PK}}\nitems:\n  - {PK: k, v: a" + string(r) + "b}\n")
		if splitItems(newDecoder(""), data) != nil {
			t.Errorf("U+%04X: the fast path took the file", r)
		}
	}
}

// fastCharsOnly's eight-bytes-at-a-time path agrees with the byte-by-byte rule for
// every byte value at every place in a word.
func TestFastCharsOnlyEveryByte(t *testing.T) {
	// The rule one character at a time, without the eight-byte path.
	slow := func(data []byte) bool {
		for i := 0; i < len(data); {
			size := fastCharAt(data, i)
			if size == 0 {
				return false
			}
			i += size
		}
		return true
	}
	base := []byte("abcdefghijklmnopqrstuvwxyz0123456789 ~!{}")
	for b := 0; b < 256; b++ {
		for at := 0; at < 17; at++ {
			data := append([]byte(nil), base...)
			data[at] = byte(b)
			if got, want := fastCharsOnly(data), slow(data); got != want {
				t.Fatalf("byte %#x at %d: fastCharsOnly %v, want %v", b, at, got, want)
			}
		}
	}
	for _, s := range []string{"é 中文 😀 x", "ok\nok", "\x7f", "a\u2028b", "\xef\xbb\xbfabcdefgh"} {
		if got, want := fastCharsOnly([]byte(s)), slow([]byte(s)); got != want {
			t.Fatalf("%q: fastCharsOnly %v, want %v", s, got, want)
		}
	}
}

// fastCharsOnlyInParts finds a bad character wherever it is in a large file,
// including either side of where the parts are cut, and passes multi-byte text.
func TestFastCharsOnlyInParts(t *testing.T) {
	line := []byte("  - {PK: \"é 中文 😀\", SK: x}\n")
	data := bytes.Repeat(line, (3<<20)/len(line))
	if !fastCharsOnlyInParts(data) {
		t.Fatal("good text refused")
	}
	for _, at := range []int{0, len(data)/2 - 1, len(data) / 2, len(data)/2 + 1, len(data)/3 + 7, len(data) - 2} {
		bad := append([]byte(nil), data...)
		bad[at] = 0x01
		if fastCharsOnlyInParts(bad) {
			t.Fatalf("a control character at %d of %d passed", at, len(data))
		}
	}
}
