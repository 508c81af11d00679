package review_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"stwb/analysis"
	"stwb/designfile"
	"stwb/model"
	"stwb/review"
	"stwb/samples"
)

// The items a pattern writes follow the template rules of the design's items
// (FORMAT.md "Items and entities"; issue 25): keys left out are built when the file
// is read and left out again when it is saved, and a key that drifts from its
// template (the template changed, the pattern did not) is a template-mismatch
// finding on that pattern.
func TestPatternItemsFollowTemplates(t *testing.T) {
	f, err := samples.Load("unique-email")
	if err != nil {
		t.Fatal(err)
	}
	register := func(d *model.Design) *model.Pattern { return pattern(d, 3) }

	// Saved, the put keeps the keys the sample wrote (a design opened and saved
	// is written as it was); written without them, it gets them from the templates.
	path := filepath.Join(t.TempDir(), "d.yaml")
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	saved, _ := os.ReadFile(path)
	const keys = `PK: "CUSTOMER#c-71", SK: "#PROFILE", `
	if !strings.Contains(string(saved), keys) {
		t.Fatal("the saved pattern lost the keys the sample wrote")
	}
	data := []byte(strings.Replace(string(saved), keys, "", 1))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, read := range []func() (*designfile.File, error){
		func() (*designfile.File, error) { return designfile.Load(path) },
		func() (*designfile.File, error) { return designfile.ParseLazily(path, data) },
	} {
		g, err := read()
		if err != nil {
			t.Fatal(err)
		}
		put := register(g.Design).Actions[0].Item
		if !put["PK"].Equal(model.Str("CUSTOMER#c-71")) || !put["SK"].Equal(model.Str("#PROFILE")) {
			t.Errorf("the put's key read back as PK=%v SK=%v, want the template's CUSTOMER#c-71 #PROFILE", put["PK"], put["SK"])
		}
	}

	// The template changes; the pattern's key, given in the file, does not.
	drift := strings.Replace(string(data), `PK: "CUSTOMER#{customerId}"`, `PK: "CUST#{customerId}"`, 1)
	drift = strings.Replace(drift, "customerId: c-71, email: noor", `PK: "CUSTOMER#c-71", customerId: c-71, email: noor`, 1)
	g, err := designfile.Parse(path, []byte(drift))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := analysis.Run(g.Design, analysis.Options{Review: true, ItemPos: g.ItemPos})
	var f2 review.Finding
	for _, f := range a.Findings {
		if f.Rule == "template-mismatch" && f.Pattern == 3 {
			f2 = f
		}
	}
	if f2.Pattern != 3 || !strings.Contains(f2.Message, "pattern 3's put 1") || !strings.Contains(f2.Message, `"CUST#{customerId}"`) {
		t.Errorf("no template-mismatch on pattern 3's put: %+v", f2)
	}

	// A put with no key and no way to build it is refused where it is.
	bad := strings.Replace(string(data), "customerId: c-71, email: noor", "email: noor", 1)
	if _, err := designfile.Parse(path, []byte(bad)); err == nil || !strings.Contains(err.Error(), "pattern 3's put 1 (customer) has no PK") {
		t.Errorf("a put whose key cannot be built: %v", err)
	}
}
