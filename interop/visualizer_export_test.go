package interop

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"stwb/engine"
	"stwb/model"
	"stwb/samples"
)

// A visualizer model goes through import, export and import again with its saved
// queries and ModelSchema templates: the second import's patterns are the first's,
// and so are its entities' templates and attributes (issue 16).
func TestVisualizerRoundTrip(t *testing.T) {
	first, err := ImportWorkbench(readTestdata(t, "visualizer/Flights.json"))
	if err != nil {
		t.Fatal(err)
	}
	d := first.Designs[0]
	out, notes, err := ExportWorkbench(d)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.Join(notes, "\n"), "saved quer") {
		t.Errorf("every imported saved query should be written back; notes:\n%s", strings.Join(notes, "\n"))
	}
	second, err := ImportWorkbench(out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	back := second.Designs[0]
	if !reflect.DeepEqual(back.Patterns, d.Patterns) {
		t.Errorf("patterns changed:\n got %+v\nwant %+v", back.Patterns, d.Patterns)
	}
	if len(back.Patterns) != 3 {
		t.Errorf("%d patterns, want Flights.json's 3 expressible saved queries", len(back.Patterns))
	}
	// Every template and attribute comes back. The export writes the entities as
	// facets too, whose import infers templates from the items where the
	// ModelSchema gave none: booking's one item gives SK {depart}#{flight}.
	for _, e := range d.Entities {
		b := back.EntityByName(e.Name)
		if b == nil {
			t.Errorf("entity %s lost", e.Name)
			continue
		}
		for k, tmpl := range e.Keys {
			if b.Keys[k] != tmpl {
				t.Errorf("%s %s: template %q, want %q", e.Name, k, b.Keys[k], tmpl)
			}
		}
		if !reflect.DeepEqual(b.Attributes, e.Attributes) {
			t.Errorf("%s attributes %+v, want %+v", e.Name, b.Attributes, e.Attributes)
		}
	}
	if len(back.Entities) != len(d.Entities) || back.EntityByName("booking").Keys["SK"] != "{depart}#{flight}" {
		t.Errorf("entities %+v", back.Entities)
	}
	for _, n := range second.Notes {
		if strings.Contains(n, "ModelSchema") || strings.Contains(n, "SavedQuery") {
			t.Errorf("the re-import notes its own export's members: %s", n)
		}
	}
	// From there the round trip is a fixed point: export, import and export
	// again give the same bytes.
	again, _, err := ExportWorkbench(back)
	if err != nil {
		t.Fatal(err)
	}
	third, err := ImportWorkbench(again)
	if err != nil {
		t.Fatal(err)
	}
	last, _, err := ExportWorkbench(third.Designs[0])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(last, again) {
		t.Errorf("a re-exported model differs from the export it came from")
	}
}

// Every sample design's Query patterns that the saved-query form holds come back
// from a Workbench round trip returning the same items in the same order; every
// other pattern is named in a note, none is dropped silently.
func TestSavedQueriesRoundTripSamples(t *testing.T) {
	written := 0
	for _, name := range samples.Names() {
		t.Run(name, func(t *testing.T) {
			f, err := samples.Load(name)
			if err != nil {
				t.Fatal(err)
			}
			d := f.Design
			out, notes, err := ExportWorkbench(d)
			if err != nil {
				t.Fatal(err)
			}
			r, err := ImportWorkbench(out)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			back := r.Designs[0]
			byName := map[string]*model.Pattern{}
			for i := range back.Patterns {
				byName[back.Patterns[i].Name] = &back.Patterns[i]
			}
			eng, err := engine.FromDesign(d)
			if err != nil {
				t.Fatal(err)
			}
			engBack, err := engine.FromDesign(back)
			if err != nil {
				t.Fatal(err)
			}
			text := strings.Join(notes, "\n")
			for i := range d.Patterns {
				p := &d.Patterns[i]
				label := fmt.Sprintf("%d (%s)", p.ID, p.Name)
				q := byName[p.Name]
				if q == nil {
					if !strings.Contains(text, label) {
						t.Errorf("pattern %s is neither written nor named in a note:\n%s", label, text)
					}
					continue
				}
				written++
				if q.Index != p.Index {
					t.Errorf("%s: index %q, want %q", label, q.Index, p.Index)
				}
				want := eng.Run(p, engine.RunOptions{})
				got := engBack.Run(q, engine.RunOptions{})
				if (want.Err == nil) != (got.Err == nil) || keysOf(got.Items, &back.Table) != keysOf(want.Items, &d.Table) {
					if p.Limit == 0 && p.ScanForward() && p.Projection == "" {
						t.Errorf("%s: the saved query returns %s (%v), the pattern %s (%v)", label,
							keysOf(got.Items, &back.Table), got.Err, keysOf(want.Items, &d.Table), want.Err)
					}
				}
				if left := unsavedFields(p); len(left) > 0 && !strings.Contains(text, label+": "+strings.Join(left, ", ")) {
					t.Errorf("%s: the fields left out (%v) are not named:\n%s", label, left, text)
				}
			}
		})
	}
	if written == 0 {
		t.Error("no sample pattern was written as a saved query")
	}
}

func keysOf(items []model.Item, t *model.Table) string {
	var ks []string
	for _, it := range items {
		ks = append(ks, primaryKeyString(it, t))
	}
	return strings.Join(ks, " | ")
}

// A Query pattern the saved-query form cannot express is named with the reason, and
// the export holds no saved query for it.
func TestSavedQueriesNotExpressible(t *testing.T) {
	d := ordersDesign()
	q := func(id int, name, key, filter string, names map[string]string, values map[string]model.Value) model.Pattern {
		return model.Pattern{ID: id, Name: name, Operation: model.OpQuery, KeyCondition: key, Filter: filter, Names: names, Values: values}
	}
	pk := map[string]model.Value{":pk": model.Str("CUST#42"), ":v": model.Str("x"), ":w": model.Str("y"), ":n": model.Num("1")}
	d.Patterns = []model.Pattern{
		q(1, "not", "PK = :pk", "NOT #s = :v", map[string]string{"#s": "status"}, pk),
		q(2, "not equal", "PK = :pk", "#s <> :v", map[string]string{"#s": "status"}, pk),
		q(3, "nested", "PK = :pk", "a.b = :v", nil, pk),
		q(4, "exists", "PK = :pk", "attribute_exists(email)", nil, pk),
		q(5, "and of or", "PK = :pk", "a = :v AND (b = :w OR c = :n)", nil, pk),
		q(6, "mixed in", "PK = :pk", "a IN (:v, :n)", nil, pk),
		q(7, "fine", "PK = :pk", "a = :v OR contains(b, :w) AND c = :n", nil, pk),
		q(8, "fine", "PK = :pk", "", nil, map[string]model.Value{":pk": model.Str("CUST#7")}),
		q(9, "refused", "SK = :pk", "", nil, map[string]model.Value{":pk": model.Str("CUST#7")}),
		q(10, " ", "PK = :pk", "", nil, map[string]model.Value{":pk": model.Str("CUST#7")}),
	}
	out, notes, err := ExportWorkbench(d)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(notes, "\n")
	for _, w := range []string{
		`1 (not): its filter is not an OR of ANDs of tests of an attribute against values`,
		`2 (not equal): its filter: <> on status is not one of the dialog's tests`,
		`3 (nested): its filter: a.b is a document path; the dialog tests top-level attributes`,
		`4 (exists): its filter: attribute_exists on email is not one of the dialog's tests`,
		`5 (and of or): its filter is not an OR of ANDs`,
		`6 (mixed in): its filter: values of types S and N on a; the dialog gives one type per test`,
		`8 (fine): another pattern of that name is saved, and saved queries are kept by name`,
		`9 (refused): its key condition: ValidationException`,
		`10 ( ): it has no name, and saved queries are kept by name`,
	} {
		if !strings.Contains(text, w) {
			t.Errorf("no note %q:\n%s", w, text)
		}
	}
	r, err := ImportWorkbench(out)
	if err != nil {
		t.Fatal(err)
	}
	ps := r.Designs[0].Patterns
	if len(ps) != 1 || ps[0].Name != "fine" || ps[0].Filter != "#f0 = :f0 OR (contains(#f1, :f1) AND #f2 = :f2)" {
		t.Fatalf("patterns back %+v", ps)
	}
}
