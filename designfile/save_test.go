package designfile

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"stwb/model"
)

// TestPlainTagAgreesWithYAML holds the fast path's reading of plain scalars to
// yaml.v3's: where plainTag gives an answer, it is yaml.v3's.
func TestPlainTagAgreesWithYAML(t *testing.T) {
	words := []string{"9f2a", "0x1F", "0b101", "0B1", "0o17", "017", "08", "1_000", "12", "-12", "+12", "1.", ".5", "1e3",
		"1E-5", "2026-08-03", "2026-08-03T14:22:00Z", "2026-8-3", "1:20", ".inf", "-.Inf", ".NaN", "123abc", "1a2b3c",
		"0abc", "0b", "12 monkeys", "1.2.3", "1-2", "+", "-", ".", "9#x", "3D", "abc", "true", "TRUE", "yes", "no", "on",
		"null", "~", "Null", "nan", "inf", "0xZZ", "1e", "e1", "1__0", "deadbeef", "DEADBEEF", "0e", "0E1", "1t", "1e999", "123456789012345678901234567890"}
	for _, w := range words {
		got := plainTag(w)
		if got == "" {
			continue // the fast path gives the line to yaml.v3
		}
		n := &yaml.Node{Kind: yaml.ScalarNode, Value: w}
		want := n.ShortTag()
		if want == "!!int" || want == "!!str" && yamlDecimal(w) { // see decoder.value
			want = "!!float" // both are numbers to us
		}
		if want == "!!timestamp" {
			want = "!!str"
		}
		if got != want {
			t.Errorf("%q: fast path reads %s, yaml.v3 %s", w, got, want)
		}
	}
}

func mustLoad(t *testing.T, path string) *File {
	t.Helper()
	d, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// stripped is a design without positions and source, for comparing two loads.
func stripped(d *File) model.Design {
	c := *d.Design
	c.Pos = model.Pos{}
	c.Table.Pos = model.Pos{}
	c.Table.Indexes = append([]model.Index(nil), d.Table.Indexes...)
	for i := range c.Table.Indexes {
		c.Table.Indexes[i].Pos = model.Pos{}
	}
	c.Entities = append([]model.Entity(nil), d.Entities...)
	for i := range c.Entities {
		c.Entities[i].Pos = model.Pos{}
	}
	c.Patterns = append([]model.Pattern(nil), d.Patterns...)
	for i := range c.Patterns {
		c.Patterns[i] = c.Patterns[i].WithoutPos()
	}
	c.Review = append([]model.ReviewSetting(nil), d.Review...)
	for i := range c.Review {
		c.Review[i].Pos = model.Pos{}
	}
	return c
}

func TestRoundTrip(t *testing.T) {
	for _, file := range []string{"testdata/format-example.yaml", "testdata/all-fields.yaml", "testdata/comments.yaml"} {
		d := mustLoad(t, file)
		out1, err := fileOf(d).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		again, err := fileOf(d).Marshal()
		if err != nil || !bytes.Equal(out1, again) {
			t.Errorf("%s: a second Marshal differs:\n%s\n---\n%s", file, out1, again)
		}
		d2, err := Parse(file, out1)
		if err != nil {
			t.Fatalf("%s: reading the saved file: %v\n%s", file, err, out1)
		}
		if a, b := stripped(d), stripped(d2); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: load-save-load changed the design:\n%+v\n%+v", file, a, b)
		}
		out2, _ := fileOf(d2).Marshal()
		if !bytes.Equal(out1, out2) {
			t.Errorf("%s: Marshal(Parse(fileOf(d).Marshal())) differs:\n%s\n---\n%s", file, out1, out2)
		}
		// The same design built in code (no source tree) saves to a canonical file that
		// loads to the same design and is itself stable.
		fresh := *d
		fresh.source = nil
		out3, err := fileOf(&fresh).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		d3, err := Parse(file, out3)
		if err != nil {
			t.Fatalf("%s: reading the fresh file: %v\n%s", file, err, out3)
		}
		if a, b := stripped(d), stripped(d3); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: fresh save changed the design", file)
		}
		if out4, _ := fileOf(d3).Marshal(); !bytes.Equal(out3, out4) {
			t.Errorf("%s: fresh save is not stable:\n%s\n---\n%s", file, out3, out4)
		}
	}
}

func TestSaveKeepsCommentsAndLayout(t *testing.T) {
	d := mustLoad(t, "testdata/comments.yaml")
	out, err := fileOf(d).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{
		"# The design of the comment test.",
		"# a comment on the table name",
		"# head of the first item",
		"# on the first item",
		"# on pattern 1",
		"# about the GSI",
		"billing: on-demand", // a default written out stays written out
		"'single quoted'",    // quoting style survives
		"  - {type: customer, customerId: \"7\", email: x@example.com}",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("saved file lacks %q:\n%s", want, s)
		}
	}
	// Derived keys are not written back.
	if strings.Contains(s, "CUST#7") {
		t.Errorf("a derived key was written:\n%s", s)
	}
}

func TestSaveAfterEdits(t *testing.T) {
	d := mustLoad(t, "testdata/comments.yaml")
	d.Name = "renamed"
	d.Table.Class = model.ClassStandardIA
	d.Patterns = append(d.Patterns, model.Pattern{ID: 9, Name: "new one", Operation: model.OpScan})
	d.Patterns[0].Limit = 7
	d.Items = append(d.Items[1:], model.Item{"PK": model.Str("NEW"), "SK": model.Str("ONE"), "n": model.Num("1.50")})
	out, err := fileOf(d).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	d2, err := Parse("edited.yaml", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if d2.Name != "renamed" || d2.Table.Class != model.ClassStandardIA || len(d2.Patterns) != 3 || d2.Patterns[0].Limit != 7 ||
		len(d2.Items) != len(d.Items) || d2.Items[len(d2.Items)-1]["n"].Str != "1.50" {
		t.Errorf("edits lost:\n%s", out)
	}
	s := string(out)
	if !strings.Contains(s, "# on pattern 1") || !strings.Contains(s, "# a comment on the table name") {
		t.Errorf("comments lost:\n%s", s)
	}
	if strings.Contains(s, "# head of the first item") {
		t.Errorf("the removed item's comment stayed:\n%s", s)
	}
	if !strings.Contains(s, "# on the second item") {
		t.Errorf("the kept item lost its comment:\n%s", s)
	}
	// The new field lands in canonical order: limit after key.
	if strings.Index(s, "limit: 7") < strings.Index(s, "key: \"PK = :pk\"") {
		t.Errorf("limit placed before key:\n%s", s)
	}
}

func TestSaveFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "design.yaml")
	d := mustLoad(t, "testdata/format-example.yaml")
	if err := fileOf(d).Save(path); err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadFile(path)
	if _, err := Parse(path, first); err != nil {
		t.Fatalf("saved file does not load: %v", err)
	}
	// A design that cannot be written (a value yaml.v3 cannot encode is not reachable,
	// so use an unwritable directory) leaves the old file alone.
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o700)
	d.Name = "changed"
	if os.Geteuid() != 0 { // root writes anywhere
		if err := fileOf(d).Save(path); err == nil {
			t.Errorf("saving into a read-only directory succeeded")
		}
		if now, _ := os.ReadFile(path); !bytes.Equal(now, first) {
			t.Errorf("the previous file changed")
		}
	}
	os.Chmod(dir, 0o700)
	if err := fileOf(d).Save(path); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	if err := d.Save(filepath.Join(dir, "missing", "x.yaml")); err == nil {
		t.Errorf("saving into a missing directory succeeded")
	}
}

func TestMarshalCodeBuilt(t *testing.T) {
	fw := false
	d := &model.Design{Version: 1, Name: "code",
		Table:    model.Table{Name: "tbl", Key: model.KeySchema{Partition: "PK", Sort: "SK"}, Attributes: map[string]model.Type{"SK": model.TypeN}},
		Entities: []model.Entity{{Name: "user", Keys: map[string]string{"PK": "USER#{id}", "SK": "0"}}},
		Items: []model.Item{
			{"type": model.Str("user"), "id": model.Str("1"), "PK": model.Str("USER#1"), "SK": model.Num("0"), "z": model.Str("12"), "a": model.Bool(true)},
			{"PK": model.Str("X"), "SK": model.Num("1.50"), "e": model.Str("")},
		},
		Patterns: []model.Pattern{{ID: 1, Operation: model.OpQuery, KeyCondition: "PK = :p", Values: map[string]model.Value{":p": model.Str("X")}, Forward: &fw}},
	}
	out, err := fileOf(d).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	want := `version: 1
name: code
table:
  name: tbl
  key: {partition: PK, sort: SK}
  attributes: {SK: N}
entities:
  - name: user
    keys: {PK: "USER#{id}", SK: "0"}
items:
  - {type: user, a: true, id: "1", z: "12"}
  - {PK: X, SK: 1.50, e: ""}
patterns:
  - id: 1
    operation: Query
    key: PK = :p
    values: {":p": X}
    forward: false
`
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// TestMarshalLeavesSourceAlone: saving does not change the kept tree, so snapshots of
// one design (sharing it) can be saved from several goroutines.
func TestMarshalLeavesSourceAlone(t *testing.T) {
	d := mustLoad(t, "testdata/comments.yaml")
	before, _ := fileOf(d).Marshal()
	c := *d.Design // a snapshot, as the workbench saves one
	c.Name = "other"
	c.Patterns = nil
	edited := d.With(&c)
	done := make(chan []byte)
	for range 4 {
		go func() {
			out, _ := edited.Marshal()
			done <- out
		}()
	}
	for range 4 {
		if out := <-done; !strings.Contains(string(out), "name: other") || strings.Contains(string(out), "patterns:") {
			t.Errorf("edited save:\n%s", out)
		}
	}
	if after, _ := fileOf(d).Marshal(); !bytes.Equal(before, after) {
		t.Errorf("saving a snapshot changed the original's output:\n%s\n---\n%s", before, after)
	}
}

// TestLongAttributeNames: DynamoDB allows attribute names of 65,535 bytes, YAML simple
// keys stop at 1024 characters; long names are saved as explicit keys and read back.
func TestLongAttributeNames(t *testing.T) {
	for _, n := range []int{999, 1000, 1001, 1024, 5000, model.MaxAttrNameBytes} {
		long := strings.Repeat("a", n)
		d := &model.Design{Version: 1, Table: model.Table{Name: "tbl", Key: model.KeySchema{Partition: "PK"}},
			Items: []model.Item{{"PK": model.Str("k"), long: model.Map(map[string]model.Value{long: model.Num("1")})}}}
		out, err := fileOf(d).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		for _, fast := range []bool{true, false} {
			back, err := parse("l.yaml", out, fast)
			if err != nil || !back.Items[0].Equal(d.Items[0]) {
				t.Errorf("%d-byte name (fast %v): %v", n, fast, err)
			}
		}
	}
}
