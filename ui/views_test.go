package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"stwb/interop"
	"stwb/model"
)

// The workbench's Markdown export is stwb export's (issue 25, item 3): one path,
// interop.ExportFile, so it has the Review section the command line's has.
func TestWorkbenchMarkdownIsStwbExport(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		doc, err := OpenSample("page-view-poor")
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "design.md")
		m := New(doc, Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
		tt := startTerminal(t, m, w, h)
		tt.waitFor("? for help")
		tt.write(":export markdown " + out)
		tt.write("\r")
		tt.waitFor("exported markdown")
		tt.stop()
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := interop.ExportFile(doc.D, "", doc.ItemPos, "markdown", interop.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(got), "## Review") {
			t.Error("the workbench's design document has no Review section")
		}
		if string(got) != string(want.Files[0].Data) {
			t.Error("the workbench's design document differs from stwb export's")
		}
	})
}

// An entity without a count is counted from its samples in the Table pane as the
// Cost pane counts it, and says so (issue 25, item 5: it showed "count 0").
func TestTablePaneCountsFromSamples(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		doc := fixtureDoc()
		doc.D.Entities[0].Count = 0 // customer: two sample items
		m := New(doc, Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
		tt := startTerminal(t, m, w, h)
		tt.waitFor("capacity per request")
		tt.write("3")
		tt.waitFor("Entities (2)")
		m = tt.stop()
		line := lineWith(screen(m), "customer ")
		if !strings.Contains(line, "count 2 (samples: no count)") {
			t.Errorf("the customer line says %q, want the samples' count 2, said so", line)
		}
	})
}

// A PutItem pattern's item is built from its entity's templates as an Items-pane
// item is (issue 25, item 6): the form takes {type: customer, customerId: "9", ...}
// and the pattern writes PK=CUST#9 SK=PROFILE.
func TestPatternFormBuildsPutKeys(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		m := New(fixtureDoc(), Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
		tt := startTerminal(t, m, w, h)
		tt.waitFor("capacity per request")
		tt.write("a")
		tt.write("Add a customer")
		tt.write("\t\t\x15PutItem")                                     // to operation, ctrl+u clears it
		tt.write("\t" + `{type: customer, customerId: "9", name: Zed}`) // a PutItem's next field is its item
		tt.write("\x13")                                                // ctrl+s
		tt.waitFor("added pattern 4")
		m = tt.stop()
		p := m.Doc().D.Patterns[3]
		if !p.Item["PK"].Equal(model.Str("CUST#9")) || !p.Item["SK"].Equal(model.Str("PROFILE")) {
			t.Errorf("the put item is %v, want its keys built: PK=CUST#9 SK=PROFILE", p.Item)
		}
	})
}
