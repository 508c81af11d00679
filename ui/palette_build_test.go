package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"stwb/designfile"
	"stwb/model"
)

// runPalette runs one command line through the palette as a user types it.
func runPalette(t *testing.T, m *Model, line string) {
	t.Helper()
	send(t, m, keys(":")...)
	send(t, m, typeText(line))
	send(t, m, keys("enter")...)
}

// A design built from an empty file with palette commands alone: entities with
// key templates, a GSI, items whose keys the templates build; saved, it loads.
func TestPaletteBuildsADesign(t *testing.T) {
	path := filepath.Join(t.TempDir(), "school.yaml")
	doc, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := testModel(t, doc, 80, 24)
	for _, line := range []string{
		"gsi GSI1 GSI1PK GSI1SK",
		`entity student PK=STUDENT#{studentId} SK=PROFILE GSI1PK=EMAIL#{email} GSI1SK=PROFILE studentId:S email:S:unique`,
		`entity course PK=COURSE#{courseId} SK=META GSI1PK=DEPT#{dept} GSI1SK="{courseId}"`,
		`item student studentId=s-1 email=ada@example.com name="Ada Lovelace"`,
		`item course courseId=c-1 dept=CS title="Intro" credits=6 tags=!ss [core, y1]`,
	} {
		runPalette(t, m, line)
		if m.palette() != nil {
			t.Fatalf("%s: %s", line, m.palette().err)
		}
		if m.statusErr {
			t.Fatalf("%s: %s", line, m.status)
		}
	}
	d := m.Doc().D
	if len(d.Entities) != 2 || !d.Entities[0].Attributes[0].Unique || d.Entities[0].Attributes[0].Name != "email" || d.Entities[1].Keys["GSI1SK"] != "{courseId}" {
		t.Fatalf("entities %+v", d.Entities)
	}
	c := d.Items[1]
	if c["PK"].Str != "COURSE#c-1" || c["GSI1PK"].Str != "DEPT#CS" || c["credits"].Type != model.TypeN || c["tags"].Type != model.TypeSS || c["title"].Str != "Intro" {
		t.Fatalf("course item %v", c)
	}
	if d.Items[0]["name"].Str != "Ada Lovelace" {
		t.Errorf("quoted value read as %v", d.Items[0]["name"])
	}
	// Refusals keep the palette open with the reason, and change nothing.
	for line, want := range map[string]string{
		`item course courseId=c-1 dept=CS`:                  "already has this key",
		`item course courseId=c-2 dept=CS GSI1PK=DEPT#MATH`: `does not match the template "DEPT#{dept}"`,
		`item student email=x@example.com`:                  "needs studentId",
		`entity course PK=C#{id}`:                           "already an entity course",
		`entity thing PK=T#{id} NOTAKEY=x`:                  "keys.NOTAKEY is not a key attribute",
		`item course courseId=c-3 dept=CS credits=.inf`:     "credits",
	} {
		runPalette(t, m, line)
		if m.palette() == nil || !strings.Contains(m.palette().err, want) {
			got := "(closed)"
			if m.palette() != nil {
				got = m.palette().err
			}
			t.Errorf("%s: palette says %q, want %q", line, got, want)
		}
		send(t, m, keys("esc")...)
	}
	if len(m.Doc().D.Items) != 2 || len(m.Doc().D.Entities) != 2 {
		t.Fatal("a refused command changed the design")
	}
	runPalette(t, m, "w")
	if _, err := designfile.Load(path); err != nil {
		t.Fatalf("saved design does not load: %v", err)
	}
}

// :import adds DynamoDB JSON items to the design as one edit; a NoSQL Workbench
// model opens as a new design beside the file.
func TestPaletteImport(t *testing.T) {
	dir := t.TempDir()
	items := filepath.Join(dir, "items.json")
	os.WriteFile(items, []byte(`{"Item": {"PK": {"S": "CUST#9"}, "SK": {"S": "PROFILE"}, "name": {"S": "Imported"}}}`+"\n"), 0o644)
	m := testModel(t, fixtureDoc(), 120, 40)
	runPalette(t, m, "import "+items)
	if m.palette() != nil {
		t.Fatal(m.palette().err)
	}
	if n := len(m.Doc().D.Items); n != 5 {
		t.Fatalf("%d items after import; status %q", n, m.status)
	}
	send(t, m, keys("ctrl+z")...)
	if n := len(m.Doc().D.Items); n != 4 {
		t.Fatalf("undo left %d items", n)
	}
	// A NoSQL Workbench model from the repository's own test data (interop's).
	data, err := os.ReadFile(filepath.Join("..", "interop", "testdata", "nwb", "AnOnlineShop_14.json"))
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "model.json")
	if err := os.WriteFile(src, data, 0o644); err != nil {
		t.Fatal(err)
	}
	m = testModel(t, fixtureDoc(), 120, 40)
	runPalette(t, m, "import "+src)
	if m.palette() != nil && !strings.Contains(m.palette().err, "import FILE TABLE") {
		t.Fatal(m.palette().err)
	}
	if m.palette() == nil && m.Doc().Path != filepath.Join(dir, "model.yaml") {
		t.Errorf("imported model opened as %q", m.Doc().Path)
	}
}

// :newpattern adds a pattern from the form's fields by name, refusing what the
// form refuses.
func TestPaletteNewPattern(t *testing.T) {
	m := testModel(t, fixtureDoc(), 80, 24)
	runPalette(t, m, `newpattern name="Orders in a status" index=GSI1 key="GSI1PK = :s" values={":s": STATUS#PENDING}`)
	if m.palette() != nil {
		t.Fatal(m.palette().err)
	}
	p := m.Doc().D.Patterns[3]
	if p.ID != 4 || p.Index != "GSI1" || p.KeyCondition != "GSI1PK = :s" || p.Values[":s"].Str != "STATUS#PENDING" {
		t.Fatalf("pattern %+v", p)
	}
	runPalette(t, m, `newpattern name=x key="PK = :nope"`)
	if m.palette() == nil || !strings.Contains(m.palette().err, ":nope") {
		t.Errorf("an undefined value was not refused")
	}
}
