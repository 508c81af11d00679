package interop

import (
	"slices"
	"strings"
	"testing"

	"stwb/model"
)

// A design exported to NoSQL Workbench and imported back loses its patterns but
// the Queries (saved queries), its counts, class, LSIs and review settings (the Workbench has no place for them);
// merged into the design it came from, it keeps every one of them.
func TestMergeKeepsWhatTheModelCannotHold(t *testing.T) {
	old := ordersDesign()
	old.Region = "eu-west-1"
	old.Review = []model.ReviewSetting{{Rule: "unused-index", Severity: "off", Reason: "nightly export"}}
	data, _, err := ExportWorkbench(old)
	if err != nil {
		t.Fatal(err)
	}
	imp, err := ImportWorkbench(data)
	if err != nil {
		t.Fatal(err)
	}
	fresh := imp.Designs[0]
	// The Query patterns come back as the model's saved queries, in name order and
	// with the importer's placeholders; the rest are lost, and so is the class.
	var names []string
	for _, p := range fresh.Patterns {
		names = append(names, p.Name)
	}
	if !slices.Equal(names, []string{"List a customer's orders, most recent first", "List orders in a status over a total"}) || fresh.Table.Class == model.ClassStandardIA {
		t.Fatalf("the round trip was expected to keep the Query patterns %q and lose the class %q", names, fresh.Table.Class)
	}
	m, rep := MergeDesign(old, fresh)
	if len(m.Patterns) != len(old.Patterns) || m.Region != "eu-west-1" || len(m.Review) != 1 || m.Table.Class != model.ClassStandardIA {
		t.Errorf("lost the design's work: %d patterns, region %q, review %v, class %q", len(m.Patterns), m.Region, m.Review, m.Table.Class)
	}
	if ix, _ := m.Table.IndexByName("LSI1"); !ix.Local {
		t.Errorf("LSI1 came back as a GSI: %+v", ix)
	}
	if c := m.EntityByName("order").Count; c != 50000000 {
		t.Errorf("order count %d", c)
	}
	if a := m.EntityByName("customer").Attributes[1]; a.Name != "email" || !a.Unique {
		t.Errorf("unique flag lost: %+v", a)
	}
	if lines := rep.Lines(); len(lines) != 0 || len(rep.Broken) != 0 {
		t.Errorf("an unchanged model reports changes: %v %v", lines, rep.Broken)
	}
	if old.Table.Indexes[1].Local != true || len(old.Patterns) != 5 {
		t.Error("MergeDesign changed its argument")
	}
}

func TestMergeReportsChanges(t *testing.T) {
	old := ordersDesign()
	imp := ordersDesign()
	imp.Patterns = nil
	imp.Entities[0].Name = "client" // same keys: a rename
	imp.Entities[0].Count = 0
	imp.Entities = append(imp.Entities, model.Entity{Name: "invoice", Keys: map[string]string{"PK": "INV#{id}"}})
	imp.Table.Indexes = append(imp.Table.Indexes[:2], model.Index{Name: "GSI2", Key: model.KeySchema{Partition: "GSI1SK"}})
	imp.Table.Indexes[0].Projection = model.Projection{Type: model.ProjectAll}
	imp.Items = slices.Clone(imp.Items[1:])
	imp.Items[0] = imp.Items[0].Clone()
	imp.Items[0]["name"] = model.Str("Mei")
	imp.Items = append(imp.Items, model.Item{"PK": model.Str("X"), "SK": model.Str("Y")})
	m, rep := MergeDesign(old, imp)
	want := []string{
		"indexes added: GSI2",
		"indexes removed: ByTotal",
		"indexes changed: GSI1",
		"entities added: invoice",
		"entities renamed: customer -> client",
		"items: 1 added, 1 changed, 1 removed",
	}
	if got := rep.Lines(); !slices.Equal(got, want) {
		t.Errorf("report\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if c := m.EntityByName("client").Count; c != 1000000 {
		t.Errorf("the renamed entity lost its count: %d", c)
	}
	if len(rep.Broken) != 0 {
		t.Errorf("broken: %v", rep.Broken)
	}
}

// Which patterns a merge breaks: those DynamoDB would now refuse, and those whose
// key names a key attribute that is gone.
func TestMergeBrokenPatterns(t *testing.T) {
	cases := []struct {
		name string
		edit func(d *model.Design)
		want []string
	}{
		{"nothing", func(d *model.Design) {}, nil},
		{"index gone", func(d *model.Design) { d.Table.Indexes = d.Table.Indexes[1:] },
			[]string{"pattern 4 (List orders in a status over a total): its index GSI1 is gone"}},
		{"table sort key renamed", func(d *model.Design) {
			d.Table.Key.Sort = "sk"
			for i, it := range d.Items {
				it = it.Clone()
				it["sk"] = it["SK"]
				delete(it, "SK")
				d.Items[i] = it
			}
			for i := range d.Entities {
				d.Entities[i].Keys["sk"] = d.Entities[i].Keys["SK"]
				delete(d.Entities[i].Keys, "SK")
			}
		}, []string{
			"pattern 1 (Get a customer's profile by customer id): its key names SK, no longer a key attribute of the table (now PK, sk)",
			"pattern 2 (List a customer's orders, most recent first): its key names SK, no longer a key attribute of the table (now PK, sk)",
			"pattern 3 (Get 美玲's profile 🍜): its key names SK, no longer a key attribute of the table (now PK, sk)",
			"pattern 6 (Mark an order shipped): its key names SK, no longer a key attribute of the table (now PK, sk)",
		}},
		{"index key type changed, DynamoDB refuses the value", func(d *model.Design) {
			d.Table.Attributes["GSI1PK"] = model.TypeN
			for i, it := range d.Items {
				if _, ok := it["GSI1PK"]; ok {
					it = it.Clone()
					it["GSI1PK"] = model.Num("1")
					d.Items[i] = it
				}
			}
			d.Entities[1].Keys["GSI1PK"] = "{n}"
		}, []string{
			"pattern 4 (List orders in a status over a total): One or more parameter values were invalid: Condition parameter type does not match schema type",
			"pattern 6 (Mark an order shipped): One or more parameter values were invalid: Type mismatch for Index Key GSI1PK Expected: N Actual: S IndexName: GSI1",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			imp := ordersDesign()
			c.edit(imp)
			_, rep := MergeDesign(ordersDesign(), imp)
			var got []string
			for _, b := range rep.Broken {
				got = append(got, b.String())
			}
			if len(got) != len(c.want) {
				t.Fatalf("broken\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			for i := range got {
				if !strings.HasPrefix(got[i], c.want[i]) {
					t.Errorf("got %q, want %q...", got[i], c.want[i])
				}
			}
		})
	}
}
