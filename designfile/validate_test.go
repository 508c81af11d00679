package designfile

import (
	"fmt"
	"strings"
	"testing"

	"stwb/model"
)

// Validation rules. Limits follow the developer guide: HowItWorks.NamingRulesDataTypes.html
// (table and index names, attribute name lengths, key value sizes, empty key values),
// ServiceQuotas.html (20 GSIs, 5 LSIs, 400 KB items, 100 projected attributes), and the
// API reference of each operation (API_Query.html, API_GetItem.html, ...) for the
// request fields an operation takes.

func validDesignText(table, items, patterns string) string {
	return "version: 1\ntable:\n  name: tbl\n  key: {partition: PK, sort: SK}\n" + table +
		"items:\n" + items + "patterns:\n" + patterns
}

func TestValidationRules(t *testing.T) {
	gsis := "  indexes:\n"
	for i := 0; i <= model.MaxGSIs; i++ {
		gsis += fmt.Sprintf("    - {name: GSI%d, key: {partition: G%d}}\n", i, i)
	}
	lsis := "  indexes:\n"
	for i := 0; i <= model.MaxLSIs; i++ {
		lsis += fmt.Sprintf("    - {name: LSI%d, local: true, key: {sort: L%d}}\n", i, i)
	}
	long := func(n int) string { return strings.Repeat("x", n) }
	const noItems = "  []\n"
	const scan = "  - {id: 1, operation: Scan}\n"
	cases := []struct {
		name                   string
		table, items, patterns string
		want                   string // a substring of the one error expected; "" for valid
	}{
		{"valid", "", "  - {PK: a, SK: b}\n", scan, ""},
		{"duplicate item keys", "", "  - {PK: a, SK: b}\n  - {PK: a, SK: b, x: 1}\n", scan, "t.yaml:7:5: item 1 has the same key as item 0 (PK=\"a\", SK=\"b\")"},
		{"duplicate numeric keys", "  attributes: {SK: N}\n", "  - {PK: a, SK: 1}\n  - {PK: a, SK: 1.0}\n", scan, "item 1 has the same key as item 0 (PK=\"a\", SK=1.0)"},
		{"key type", "  attributes: {SK: N}\n", "  - {PK: a, SK: b}\n", scan, "item 0: SK (the table's sort key) is S but the key attribute is declared N"},
		{"missing key", "", "  - {PK: a}\n", scan, "t.yaml:6:5: item 0 lacks SK (the table's sort key)"},
		{"empty key", "", "  - {PK: \"\", SK: b}\n", scan, "item 0: PK (the table's partition key) is empty"},
		{"partition key size", "", fmt.Sprintf("  - {PK: %s, SK: b}\n", long(2049)), scan, "is 2049 bytes; the limit is 2048"},
		{"partition key size ok", "", fmt.Sprintf("  - {PK: %s, SK: b}\n", long(2048)), scan, ""},
		{"sort key size", "", fmt.Sprintf("  - {PK: a, SK: %s}\n", long(1025)), scan, "is 1025 bytes; the limit is 1024"},
		{"multi-byte key size", "", fmt.Sprintf("  - {PK: a, SK: %s}\n", strings.Repeat("é", 513)), scan, "is 1026 bytes; the limit is 1024"},
		{"index key type", "  attributes: {G: N}\n  indexes:\n    - {name: GSI1, key: {partition: G}}\n", "  - {PK: a, SK: b, G: x}\n", scan, "item 0: G (index GSI1's partition key) is S but the key attribute is declared N"},
		{"index key empty", "  indexes:\n    - {name: GSI1, key: {partition: G}}\n", "  - {PK: a, SK: b, G: \"\"}\n", scan, "G (index GSI1's partition key) is empty"},
		{"sparse index", "  indexes:\n    - {name: GSI1, key: {partition: G}}\n", "  - {PK: a, SK: b}\n", scan, ""},
		{"item size", "", fmt.Sprintf("  - {PK: a, SK: b, big: %s}\n", long(model.MaxItemSize)), scan, ""}, // opens: review's item-too-large
		{"table name", "", noItems, scan, ""},
		{"too many GSIs", gsis, noItems, scan, ""}, // opens: review's too-many-indexes, deploy refuses
		{"too many LSIs", lsis, noItems, scan, ""}, // as above
		{"index name", "  indexes:\n    - {name: G1, key: {partition: G}}\n", noItems, scan, `index name "G1" is not a valid DynamoDB index name`},
		{"index name twice", "  indexes:\n    - {name: GSI1, key: {partition: G}}\n    - {name: GSI1, key: {partition: H}}\n", noItems, scan, `index name "GSI1" is used twice`},
		{"LSI without sort", "  indexes:\n    - {name: LSI1, local: true, key: {}}\n", noItems, scan, "a local index needs a sort key"},
		{"LSI other partition", "  indexes:\n    - {name: LSI1, local: true, key: {partition: X, sort: Y}}\n", noItems, scan, `a local index shares the table's partition key, not "X"`},
		{"key attribute name", "  indexes:\n    - {name: GSI1, key: {partition: " + long(256) + "}}\n", noItems, scan, "a key attribute name is at most 255 bytes"},
		{"index capacity on-demand", "  indexes:\n    - {name: GSI1, key: {partition: G}, read: 5, write: 5}\n", noItems, scan, "index capacity applies to a provisioned table only"},
		{"unknown index", "", noItems, "  - {id: 1, operation: Query, index: GSI2, key: \"PK = :p\"}\n", `pattern 1: index "GSI2" does not exist`},
		{"query needs key", "", noItems, "  - {id: 1, operation: Query}\n", "pattern 1: a Query needs a key condition"},
		{"get key string", "", noItems, "  - {id: 1, operation: GetItem, key: \"PK = :p\"}\n", "pattern 1: GetItem's key is a mapping of the key attributes, not an expression"},
		{"put needs item", "", noItems, "  - {id: 1, operation: PutItem}\n", "pattern 1: PutItem needs an item"},
		{"field not for operation", "", noItems, "  - {id: 1, operation: GetItem, key: {PK: a, SK: b}, filter: \"x = :y\"}\n", "pattern 1: GetItem has no filter"},
		{"update needs expression", "", noItems, "  - {id: 1, operation: UpdateItem, key: {PK: a, SK: b}}\n", "UpdateItem needs an update expression"},
		{"batch write kinds", "", noItems, "  - {id: 1, operation: BatchWriteItem, actions: [{update: {key: {PK: a}, update: \"SET x = :y\"}}]}\n", "BatchWriteItem takes put and delete only, not update"},
		{"batch get needs keys", "", noItems, "  - {id: 1, operation: BatchGetItem}\n", "BatchGetItem needs keys"},
		{"return values", "", noItems, "  - {id: 1, operation: PutItem, item: {PK: a, SK: b}, returnValues: ALL_NEW}\n", "ReturnValues ALL_NEW is for UpdateItem only"},
		{"pattern id", "", noItems, "  - {id: 0, operation: Scan}\n", "pattern 0.id 0 is out of range"},
		// The ranges cost's arithmetic carries exactly (validate.go MaxRate, MaxCount).
		{"rate at the limit", "", noItems, "  - {id: 1, operation: Scan, rate: 1000000000}\n", ""},
		{"rate past the limit", "", noItems, "  - {id: 1, operation: Scan, rate: 1e20}\n",
			"t.yaml:8:5: pattern 1: rate 1e+20 is out of the range stwb's cost arithmetic carries. write a number from 0 to 1,000,000,000 requests a second"},
	}
	for _, c := range cases {
		_, err := Parse("t.yaml", []byte(validDesignText(c.table, c.items, c.patterns)))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		case c.want != "" && len(err.(model.ErrorList)) != 1:
			t.Errorf("%s: %d errors, want 1: %v", c.name, len(err.(model.ErrorList)), err)
		}
	}
}

// TestValidateCountRange: an entity's count, and the counts together, stay within
// MaxCount, which cost's int64 byte sums carry.
func TestValidateCountRange(t *testing.T) {
	head := "version: 1\ntable:\n  name: tbl\n  key: {partition: PK}\nentities:\n"
	cases := []struct{ entities, want string }{
		{"  - {name: a, count: 500000000000}\n", ""},
		{"  - {name: a, count: 500000000001}\n", "e.yaml:6:5: entity a: count 500,000,000,001 is out of the range stwb's cost arithmetic carries. write a number from 0 to 500,000,000,000"},
		{"  - {name: a, count: 4611686018427387904}\n", "count"},
		{"  - {name: a, count: 300000000000}\n  - {name: b, count: 300000000000}\n",
			"e.yaml:7:5: entity b: the entities' counts add up to more than 500,000,000,000 items"},
	}
	for _, c := range cases {
		_, err := Parse("e.yaml", []byte(head+c.entities))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.entities, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q: error %v, want %q", c.entities, err, c.want)
		}
	}
	d := &model.Design{Version: 1, Table: model.Table{Name: "tbl", Key: model.KeySchema{Partition: "PK"},
		Billing: model.Billing{Mode: model.Provisioned, Read: 1 << 41, Write: 1}}}
	if err := model.Validate(d); err == nil || !strings.Contains(err.Error(), "more than stwb's cost arithmetic carries") {
		t.Errorf("capacity 2^41 built in code: %v", err)
	}
}

func TestValidateEntities(t *testing.T) {
	text := "version: 1\ntable:\n  name: tbl\n  key: {partition: PK}\nentities:\n  - {name: a, keys: {PK: \"A#{x}\", GSI9PK: y}}\n  - {name: a}\n"
	_, err := Parse("e.yaml", []byte(text))
	want := []string{
		`e.yaml:6:5: entity a: keys.GSI9PK is not a key attribute of the table or any index`,
		`e.yaml:7:5: entity "a" is defined twice`,
	}
	for _, w := range want {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v, want %s", err, w)
		}
	}
}

// TestValidateCodeBuilt checks what the loader checks for a file, on a design built in
// code: numbers, sets, pattern ids, operations.
// TestValidateLoadedAfterEdits: Validate re-checks what loading checked, since code
// may have changed it; with the file's item positions (ValidateAt), the errors keep
// them.
func TestValidateLoadedAfterEdits(t *testing.T) {
	d, err := Load("testdata/format-example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := model.ValidateAt(d.Design, d.ItemPos); err != nil {
		t.Fatalf("the loaded example does not validate: %v", err)
	}
	d.Items[2]["qty"] = model.Num("1e999")
	d.Patterns[1].Operation = "Querry"
	err = model.ValidateAt(d.Design, d.ItemPos)
	for _, want := range []string{
		"testdata/format-example.yaml:31:5: item 2: qty: number 1e999: number overflow",
		`testdata/format-example.yaml:41:5: pattern 2: operation "Querry" is not known`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want %s", err, want)
		}
	}
}

// A key that does not follow its entity's template (a stale GSI1PK after its
// attribute changed) opens, as DynamoDB would store it; model.TemplateMismatches,
// which review's template-mismatch and the workbench's edits read, names it
// (FORMAT.md "Items and entities": where it gives the key, the key must match).
func TestValidateChecksKeysAgainstTemplates(t *testing.T) {
	src := `version: 1
name: t
table: {name: courses, key: {partition: PK, sort: SK}, indexes: [{name: GSI1, key: {partition: GSI1PK}}]}
entities:
  - {name: course, keys: {PK: "COURSE#{courseId}", SK: META, GSI1PK: "DEPT#{dept}"}}
items:
  - {type: course, courseId: c1, dept: CS}
`
	d, err := Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if m := model.TemplateMismatches(d.Design, d.ItemPos); m != nil {
		t.Fatalf("a loaded design has mismatches: %v", m)
	}
	d.Items[0]["dept"] = model.Str("MATH") // the stale key: GSI1PK still DEPT#CS
	reread, loadErr := Parse("t.yaml", mustMarshal(t, d))
	if loadErr != nil || model.Validate(d.Design) != nil {
		t.Fatalf("a stale GSI1PK is refused: loader %v, Validate %v", loadErr, model.Validate(d.Design))
	}
	for _, m := range []model.ErrorList{model.TemplateMismatches(d.Design, nil), model.TemplateMismatches(reread.Design, reread.ItemPos)} {
		if len(m) != 1 || !strings.Contains(m.Error(), `GSI1PK "DEPT#CS" does not match the template "DEPT#{dept}"`) {
			t.Errorf("TemplateMismatches says %v", m)
		}
	}
}

func mustMarshal(t *testing.T, d *File) []byte {
	t.Helper()
	b, err := fileOf(d).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestValidateRegion: a region is refused when it cannot be an AWS region name, so
// that `stwb check` says so rather than passing a design `stwb cost` then refuses.
func TestValidateRegion(t *testing.T) {
	for _, c := range []struct {
		region string
		ok     bool
	}{
		{"us-east-1", true}, {"eu-west-1", true}, {"us-gov-west-1", true}, {"us-isob-east-1", true},
		{"cn-north-1", true}, {"ap-southeast-5", true}, {"il-central-1", true}, {"eusc-de-east-1", true},
		{"mars-1", false}, {"US-EAST-1", false}, {"us-east", false}, {"useast1", false}, {"us-east-1 ", false},
	} {
		_, err := Parse("r.yaml", []byte("version: 1\nregion: \""+c.region+"\"\ntable: {name: tbl, key: {partition: PK}}\n"))
		if c.ok != (err == nil) || !c.ok && !strings.Contains(err.Error(), "is not an AWS region name") {
			t.Errorf("region %q: %v, want ok=%v", c.region, err, c.ok)
		}
	}
}

// TestLongValuesCut: a value from the file is cut in a message, not echoed whole.
func TestLongValuesCut(t *testing.T) {
	name := strings.Repeat("x", 1<<20)
	_, err := Parse("l.yaml", []byte("version: 1\ntable:\n  name: \""+name+"\"\n  key: {partition: PK}\n"))
	if err == nil || !strings.Contains(err.Error(), "is not a valid DynamoDB table name") || len(err.Error()) > 1000 {
		t.Fatalf("a 1 MB table name: %d bytes of error", len(fmt.Sprint(err)))
	}
}
