package interop

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"stwb/designfile"
	"stwb/engine"
	"stwb/model"
)

// The NoSQL Workbench model layout follows the files the Data modeler exports
// (workbench.Modeler.ExportModel.html); the real models under testdata/nwb come from
// aws-samples/amazon-dynamodb-design-patterns (see testdata/nwb/README.md).

func TestImportWorkbenchRealModels(t *testing.T) {
	type gsi struct{ name, pk, sk, proj string }
	cases := []struct {
		file     string
		items    int
		pk, sk   string
		gsis     []gsi
		entities int
		typeAttr string
	}{
		{"DeviceStateLog_5.json", 11, "DeviceID", "State#Date", []gsi{{"GSI1", "Operator", "Date", "ALL"}}, 0, "type"},
		{"DeviceStateLog_7.json", 11, "DeviceID", "State#Date", []gsi{{"GSI1", "Operator", "Date", "ALL"}, {"GSI2", "EscalatedTo", "State#Date", "ALL"}}, 0, "type"},
		{"AnOnlineShop_14.json", 19, "PK", "SK", []gsi{{"GSI1", "GSI1-PK", "GSI1-SK", "ALL"}, {"GSI2", "GSI2-PK", "GSI2-SK", "ALL"}}, 0, "type"},
		{"AnOnlineShop_facets.json", 20, "PK", "SK", []gsi{{"GSI1", "GSI1-PK", "GSI1-SK", "ALL"}, {"GSI2", "GSI2-PK", "GSI2-SK", "ALL"}}, 9, "EntityType"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			r, err := ImportWorkbench(readTestdata(t, "nwb/"+c.file))
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Designs) != 1 {
				t.Fatalf("%d designs, want 1", len(r.Designs))
			}
			d := r.Designs[0]
			if len(d.Items) != c.items {
				t.Errorf("%d items, want %d", len(d.Items), c.items)
			}
			if d.Table.Key.Partition != c.pk || d.Table.Key.Sort != c.sk {
				t.Errorf("key %+v, want %s/%s", d.Table.Key, c.pk, c.sk)
			}
			var got []gsi
			for _, ix := range d.Table.Indexes {
				got = append(got, gsi{ix.Name, ix.Key.Partition, ix.Key.Sort, string(ix.Projection.Type)})
				if ix.Local {
					t.Errorf("index %s imported as local", ix.Name)
				}
			}
			if !reflect.DeepEqual(got, c.gsis) {
				t.Errorf("indexes %v, want %v", got, c.gsis)
			}
			if len(d.Entities) != c.entities {
				t.Errorf("%d entities, want %d", len(d.Entities), c.entities)
			}
			if d.TypeAttr() != c.typeAttr {
				t.Errorf("type attribute %q, want %q", d.TypeAttr(), c.typeAttr)
			}
			for _, k := range []string{c.pk, c.sk} {
				if d.Table.KeyAttributeType(k) != model.TypeS {
					t.Errorf("key %s is %s", k, d.Table.KeyAttributeType(k))
				}
			}
		})
	}
}

func TestImportWorkbenchFacetEntities(t *testing.T) {
	r, err := ImportWorkbench(readTestdata(t, "nwb/AnOnlineShop_facets.json"))
	if err != nil {
		t.Fatal(err)
	}
	d := r.Designs[0]
	e := d.EntityByName("customer")
	if e == nil {
		t.Fatal("no customer entity")
	}
	var names []string
	for _, a := range e.Attributes {
		names = append(names, a.Name+":"+a.Type.String())
	}
	// EntityType is the type attribute, so it is not an entity attribute.
	if want := []string{"Email:S", "Name:S"}; !reflect.DeepEqual(names, want) {
		t.Errorf("customer attributes %v, want %v", names, want)
	}
	// The shop's ids ("c#12345") are held by no attribute, and the facets alias the
	// keys by their own names, so ids get no template. The one thing the data does
	// show: an order line's GSI2-SK is "p#" and its GSI1-SK on both items.
	for _, e := range d.Entities {
		want := map[string]string(nil)
		if e.Name == "orderItem" {
			want = map[string]string{"GSI2-SK": "p#{GSI1-SK}"}
		}
		if !reflect.DeepEqual(e.Keys, want) {
			t.Errorf("entity %s got templates %v, want %v", e.Name, e.Keys, want)
		}
	}
	// Nested maps survive.
	found := false
	for _, it := range d.Items {
		if it["EntityType"].Str == "product" && it["Detail"].Type == model.TypeM && it["Detail"].Map["Name"].Str != "" {
			found = true
		}
	}
	if !found {
		t.Error("product Detail map lost")
	}
}

func TestInferTemplate(t *testing.T) {
	item := func(kv ...string) model.Item {
		it := model.Item{}
		for i := 0; i < len(kv); i += 2 {
			it[kv[i]] = model.Str(kv[i+1])
		}
		return it
	}
	cases := []struct {
		name  string
		key   string
		items []model.Item
		want  string
	}{
		{"two variables", "SK", []model.Item{item("SK", "WARNING1#2020-04-24", "State", "WARNING1", "Date", "2020-04-24"), item("SK", "NORMAL#2020-04-25", "State", "NORMAL", "Date", "2020-04-25")}, "{State}#{Date}"},
		{"prefix and variable", "PK", []model.Item{item("PK", "CUST#42", "customerId", "42"), item("PK", "CUST#7", "customerId", "7")}, "CUST#{customerId}"},
		{"constant from two items", "SK", []model.Item{item("SK", "PROFILE"), item("SK", "PROFILE")}, "PROFILE"},
		{"constant from one item is not enough", "SK", []model.Item{item("SK", "PROFILE")}, ""},
		{"shared id is not a constant", "PK", []model.Item{item("PK", "o#12345"), item("PK", "o#12345")}, ""},
		{"id held by no attribute", "PK", []model.Item{item("PK", "c#12345"), item("PK", "c#23456")}, ""},
		{"differing part counts", "PK", []model.Item{item("PK", "a#1", "x", "1"), item("PK", "a#1#2", "x", "1")}, ""},
		{"attribute must match on every item", "PK", []model.Item{item("PK", "U#1", "id", "1"), item("PK", "U#2", "id", "3")}, ""},
		{"missing key", "PK", []model.Item{item("SK", "x")}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			exclude := map[string]bool{"PK": true, "SK": true, "type": true}
			got := inferTemplate(c.key, c.items, templateCandidates(c.items, exclude))
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestAliasTemplate(t *testing.T) {
	its := []model.Item{{"PK": model.Str("d#12345")}, {"PK": model.Str("d#54321")}}
	cases := []struct {
		alias, want string
	}{
		{"DeviceId", "d#{DeviceId}"},
		{"PK", ""},        // no alias: the facet calls the key by its own name
		{"Device#Id", ""}, // not usable as a variable
		{"", ""},          // none given
	}
	for _, c := range cases {
		if got := aliasTemplate("PK", c.alias, its); got != c.want {
			t.Errorf("alias %q: got %q, want %q", c.alias, got, c.want)
		}
	}
	if got := aliasTemplate("PK", "Id", []model.Item{{"PK": model.Str("d#1")}, {"PK": model.Str("e#2")}}); got != "" {
		t.Errorf("differing prefixes gave %q", got)
	}
}

func TestImportWorkbenchErrors(t *testing.T) {
	cases := []struct {
		name, json, want string
	}{
		{"not json", `{`, "$: not valid JSON"},
		{"no data model", `{"ModelName": "x"}`, "$: missing DataModel"},
		{"empty data model", `{"DataModel": []}`, "$.DataModel: the model has no tables"},
		{"bad version", `{"ModelMetadata": {"Version": "9.9"}, "DataModel": []}`, `$.ModelMetadata.Version: unsupported NoSQL Workbench model version "9.9"`},
		{"missing table name", `{"DataModel": [{"KeyAttributes": {}}]}`, "$.DataModel[0]: missing TableName"},
		{"missing attribute name", `{"DataModel": [{"TableName": "tbl", "KeyAttributes": {"PartitionKey": {"AttributeType": "S"}}}]}`,
			"$.DataModel[0].KeyAttributes.PartitionKey: missing AttributeName"},
		{"missing partition key", `{"DataModel": [{"TableName": "tbl", "KeyAttributes": {}}]}`, "$.DataModel[0].KeyAttributes: missing PartitionKey"},
		{"key type M", `{"DataModel": [{"TableName": "tbl", "KeyAttributes": {"PartitionKey": {"AttributeName": "p", "AttributeType": "M"}}}]}`,
			"$.DataModel[0].KeyAttributes.PartitionKey: key attribute p has type M"},
		{"unknown type", `{"DataModel": [{"TableName": "tbl", "KeyAttributes": {"PartitionKey": {"AttributeName": "p", "AttributeType": "STRING"}}}]}`,
			`$.DataModel[0].KeyAttributes.PartitionKey.AttributeType: unknown attribute type "STRING"`},
		{"conflicting key types", `{"DataModel": [{"TableName": "tbl", "KeyAttributes": {"PartitionKey": {"AttributeName": "p", "AttributeType": "S"}},
			"GlobalSecondaryIndexes": [{"IndexName": "g", "KeyAttributes": {"PartitionKey": {"AttributeName": "p", "AttributeType": "N"}}}]}]}`,
			"$.DataModel[0].GlobalSecondaryIndexes[0].KeyAttributes.PartitionKey: key attribute p is N here but S"},
		{"bad projection", `{"DataModel": [{"TableName": "tbl", "KeyAttributes": {"PartitionKey": {"AttributeName": "p", "AttributeType": "S"}},
			"GlobalSecondaryIndexes": [{"IndexName": "g", "KeyAttributes": {"PartitionKey": {"AttributeName": "q", "AttributeType": "S"}}, "Projection": {"ProjectionType": "SOME"}}]}]}`,
			`$.DataModel[0].GlobalSecondaryIndexes[0].Projection.ProjectionType: unknown ProjectionType "SOME"`},
		{"item without key", `{"DataModel": [{"TableName": "tbl", "KeyAttributes": {"PartitionKey": {"AttributeName": "p", "AttributeType": "S"}},
			"TableData": [{"p": {"S": "a"}}, {"q": {"S": "b"}}]}]}`, "$.DataModel[0].TableData[1]: One or more parameter values were invalid: Missing the key p in the item"},
		{"item with wrong key type", `{"DataModel": [{"TableName": "tbl", "KeyAttributes": {"PartitionKey": {"AttributeName": "p", "AttributeType": "N"}},
			"TableData": [{"p": {"S": "a"}}]}]}`, "$.DataModel[0].TableData[0]: One or more parameter values were invalid: Type mismatch for key p expected: N actual: S"},
		{"bad wire value in facet", `{"DataModel": [{"TableName": "tbl", "KeyAttributes": {"PartitionKey": {"AttributeName": "p", "AttributeType": "S"}},
			"TableFacets": [{"FacetName": "f", "TableData": [{"p": {"S": "a"}, "n": {"N": "x"}}]}]}]}`, "$.DataModel[0].TableFacets[0].TableData[0].n.N: The parameter cannot be converted to a numeric value: x"},
		{"provisioned without capacity", `{"DataModel": [{"TableName": "tbl", "KeyAttributes": {"PartitionKey": {"AttributeName": "p", "AttributeType": "S"}}, "BillingMode": "PROVISIONED"}]}`,
			"$.DataModel[0]: missing ProvisionedCapacitySettings"},
		{"negative capacity", `{"DataModel": [{"TableName": "tbl", "KeyAttributes": {"PartitionKey": {"AttributeName": "p", "AttributeType": "S"}}, "BillingMode": "PROVISIONED",
			"ProvisionedCapacitySettings": {"ProvisionedThroughput": {"ReadCapacityUnits": -1, "WriteCapacityUnits": 1}}}]}`,
			"$.DataModel[0].ProvisionedCapacitySettings.ProvisionedThroughput.ReadCapacityUnits: expected a whole number"},
		{"duplicate facet", `{"DataModel": [{"TableName": "tbl", "KeyAttributes": {"PartitionKey": {"AttributeName": "p", "AttributeType": "S"}},
			"TableFacets": [{"FacetName": "f"}, {"FacetName": "f"}]}]}`, `$.DataModel[0].TableFacets[1]: facet "f" is also defined`},
		{"duplicate table", `{"DataModel": [{"TableName": "tbl", "KeyAttributes": {"PartitionKey": {"AttributeName": "p", "AttributeType": "S"}}},
			{"TableName": "tbl", "KeyAttributes": {"PartitionKey": {"AttributeName": "p", "AttributeType": "S"}}}]}`, `$.DataModel[1]: table "tbl" is also defined at $.DataModel[0]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ImportWorkbench([]byte(c.json))
			if err == nil {
				t.Fatalf("no error, want %q", c.want)
			}
			if !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("got  %q\nwant %q", err, c.want)
			}
		})
	}
}

func TestImportWorkbenchVersion3Billing(t *testing.T) {
	r, err := ImportWorkbench(readTestdata(t, "nwb3/BasicTemplate.json"))
	if err != nil {
		t.Fatal(err)
	}
	b := r.Designs[0].Table.Billing
	if r.Version != "3.0" || b.Mode != model.Provisioned || b.Read != 5 || b.Write != 5 || b.Target != 0.7 {
		t.Fatalf("version %s billing %+v", r.Version, b)
	}
	// Key aliases and sample items give templates (aliasTemplate, inferTemplate).
	want := map[string]map[string]string{
		"device":  {"pk": "DEV#{DeviceId}", "sk": "META"},
		"reading": {"pk": "DEV#{DeviceId}", "sk": "R#{at}"},
	}
	for _, e := range r.Designs[0].Entities {
		if !reflect.DeepEqual(e.Keys, want[e.Name]) {
			t.Errorf("entity %s keys %v, want %v", e.Name, e.Keys, want[e.Name])
		}
	}
	if r.Designs[0].TypeAttr() != "kind" {
		t.Errorf("type attribute %q", r.Designs[0].TypeAttr())
	}
	// Two tables' worth is covered by the multi-table file.
	r, err = ImportWorkbench(readTestdata(t, "nwb3/TwoTables.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Designs) != 2 || r.Designs[0].Name != "Users" || r.Designs[1].Name != "Events" {
		t.Fatalf("designs %d", len(r.Designs))
	}
	if p := r.Designs[1].Table.Indexes[0].Projection; p.Type != model.ProjectInclude || !reflect.DeepEqual(p.Include, []string{"kind"}) {
		t.Fatalf("projection %+v", p)
	}
}

// normalise clears what a Workbench model cannot hold, so a round trip can be
// compared with DeepEqual.
func normalise(d *model.Design) *model.Design {
	c := *d
	c.Patterns = nil
	c.Table.Class = ""
	c.Table.Indexes = append([]model.Index(nil), d.Table.Indexes...)
	for i := range c.Table.Indexes {
		c.Table.Indexes[i].Local = false
		// A Workbench model's GSIs have no capacity of their own (noted on export).
		c.Table.Indexes[i].Read, c.Table.Indexes[i].Write = 0, 0
		c.Table.Indexes[i].Autoscaling = model.Autoscaling{}
		if c.Table.Indexes[i].Projection.Type == "" {
			c.Table.Indexes[i].Projection.Type = model.ProjectAll
		}
	}
	c.Entities = nil
	for _, e := range d.Entities {
		e.Count = 0
		var attrs []model.EntityAttribute
		for _, a := range e.Attributes {
			a.Unique = false
			attrs = append(attrs, a)
		}
		e.Attributes = attrs
		c.Entities = append(c.Entities, e)
	}
	return &c
}

func TestWorkbenchRoundTrip(t *testing.T) {
	cases := map[string]func(t *testing.T) *model.Design{
		"orders": func(t *testing.T) *model.Design { return ordersDesign() },
		"DeviceStateLog_7": func(t *testing.T) *model.Design {
			r, err := ImportWorkbench(readTestdata(t, "nwb/DeviceStateLog_7.json"))
			if err != nil {
				t.Fatal(err)
			}
			return r.Designs[0]
		},
		"AnOnlineShop_facets": func(t *testing.T) *model.Design {
			r, err := ImportWorkbench(readTestdata(t, "nwb/AnOnlineShop_facets.json"))
			if err != nil {
				t.Fatal(err)
			}
			return r.Designs[0]
		},
	}
	for name, mk := range cases {
		t.Run(name, func(t *testing.T) {
			d := mk(t)
			out, _, err := ExportWorkbench(d)
			if err != nil {
				t.Fatal(err)
			}
			r, err := ImportWorkbench(out)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			back := r.Designs[0]
			want, got := normalise(d), normalise(back)
			if !reflect.DeepEqual(got.Table, want.Table) {
				t.Errorf("table\n got %+v\nwant %+v", got.Table, want.Table)
			}
			if !reflect.DeepEqual(got.Entities, want.Entities) {
				t.Errorf("entities\n got %+v\nwant %+v", got.Entities, want.Entities)
			}
			if len(got.Items) != len(want.Items) {
				t.Fatalf("%d items, want %d", len(got.Items), len(want.Items))
			}
			// Items come back grouped by facet; compare as sets by primary key.
			byKey := map[string]model.Item{}
			for _, it := range got.Items {
				byKey[primaryKeyString(it, &got.Table)] = it
			}
			for i, it := range want.Items {
				full := completeItem(d, it)
				if b := byKey[primaryKeyString(full, &want.Table)]; !b.Equal(full) {
					t.Errorf("item %d changed:\n got %v\nwant %v", i, b, full)
				}
			}
			if got.Name != want.Name || got.Description != want.Description {
				t.Errorf("name %q/%q, want %q/%q", got.Name, got.Description, want.Name, want.Description)
			}
		})
	}
}

func TestExportWorkbenchGolden(t *testing.T) {
	out, notes, err := ExportWorkbench(ordersDesign())
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "orders.workbench.json", out)
	want := []string{
		"index GSI1: its own provisioned capacity and autoscaling have no place in a NoSQL Workbench model (its indexes carry no capacity settings) and are left out",
		"index LSI1 is a local secondary index; NoSQL Workbench models have none, so it is written as a global one on the same keys",
		"the table class standard-ia has no place in a NoSQL Workbench model and is left out",
		"patterns that are not Queries have no place in a NoSQL Workbench model (the visualizer saves Queries only) and are left out: 1 (Get a customer's profile by customer id) GetItem, 3 (Get 美玲's profile 🍜) GetItem, 6 (Mark an order shipped) UpdateItem",
		"written as saved queries (view, partition key value, sort key condition, filters), without these fields, which a saved query has no place for: 2 (List a customer's orders, most recent first): holds/returns/order/cardinality, rate, forward, limit; 4 (List orders in a status over a total): holds/returns/order/cardinality, rate",
	}
	if !reflect.DeepEqual(notes, want) {
		t.Errorf("notes %q", notes)
	}
}

func FuzzImportWorkbench(f *testing.F) {
	for _, name := range []string{"nwb/DeviceStateLog_5.json", "nwb/DeviceStateLog_7.json", "nwb/AnOnlineShop_14.json", "nwb/AnOnlineShop_facets.json", "nwb3/BasicTemplate.json", "nwb3/TwoTables.json", "visualizer/Flights.json"} {
		data, err := readFileForFuzz(name)
		if err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"DataModel":[{"TableName":"tbl","KeyAttributes":{"PartitionKey":{"AttributeName":"p","AttributeType":"S"}},"TableFacets":[{"FacetName":"f","KeyAttributeAlias":{"PartitionKeyAlias":"Id"},"TableData":[{"p":{"S":"a#1"}}]}]}]}`))
	// The visualizer's members: a top-level ModelSchema, MapFunction, a saved query
	// with every sort key condition and filter kind.
	f.Add([]byte(`{"DataModel":[{"TableName":"tbl","KeyAttributes":{"PartitionKey":{"AttributeName":"PK","AttributeType":"S"},"SortKey":{"AttributeName":"SK","AttributeType":"N","MapFunction":{"a":"${n}"}}},"TableData":[{"PK":{"S":"x"},"SK":{"N":"1"},"type":{"S":"a"},"n":{"N":"1"}}],"SavedQuery":{"q":{"view":"tbl","PK":"x","SK":{"condition":"between","values":["1","2"]},"filter":[{"attribute":"n","type":"N","condition":"in","values":["1"]},{"operator":"OR","attribute":"b","type":"B","condition":"=","values":["true"]}]}}}],"ModelSchema":{"params":{"typeField":"type"},"indexes":{"primary":{"hash":"PK","sort":"SK"}},"models":{"a":{"SK":{"type":"Number","value":"${n}"},"n":{"type":"Number"}}}}}`))
	f.Fuzz(fuzzBody)
}

// fuzzBody is one run of FuzzImportWorkbench.
func fuzzBody(t *testing.T, data []byte) {
	r, err := ImportWorkbench(data)
	if err != nil {
		checkImportError(t, err)
		return
	}
	// Whatever imports is a valid design, and exports and imports again.
	for _, d := range r.Designs {
		text, err := (&designfile.File{Design: d}).Marshal()
		if err != nil {
			t.Fatalf("an imported design does not save: %v", err)
		}
		if _, err := designfile.Parse("imported.yaml", text); err != nil {
			t.Fatalf("an imported design is not valid: %v\n%s", err, text)
		}
		out, notes, err := ExportWorkbench(d)
		if err != nil {
			t.Fatalf("export of an imported design failed: %v", err)
		}
		back, err := ImportWorkbench(out)
		if err != nil {
			t.Fatalf("re-import failed: %v\n%s", err, out)
		}
		// Every saved query comes back as the same pattern, or a note names it.
		if len(back.Designs) == 1 {
			again := map[string]model.Pattern{}
			for _, p := range back.Designs[0].Patterns {
				again[p.Name] = p
			}
			text := strings.Join(notes, "\n")
			for _, p := range d.Patterns {
				q, ok := again[p.Name]
				q.ID = p.ID
				if !(ok && reflect.DeepEqual(q, p)) && !strings.Contains(text, fmt.Sprintf("%d (%s)", p.ID, p.Name)) {
					t.Fatalf("saved query %q lost without a note: back %+v\nnotes:\n%s", p.Name, q, text)
				}
			}
		}
		// Saved queries become patterns that run (a refused request is the
		// pattern's finding, not a crash).
		if e, err := engine.FromDesign(d); err == nil {
			for i := range d.Patterns {
				e.Run(&d.Patterns[i], engine.RunOptions{})
			}
		}
	}
}

// A table-level item whose type attribute names a facet is one of that facet's
// items: a template must fit it too.
func TestImportWorkbenchTemplatesFitTableItems(t *testing.T) {
	model3 := func(tableItem string) []byte {
		return []byte(`{"DataModel": [{"TableName": "tbl",
			"KeyAttributes": {"PartitionKey": {"AttributeName": "pk", "AttributeType": "S"}},
			"TableFacets": [{"FacetName": "dev", "KeyAttributeAlias": {"PartitionKeyAlias": "DeviceId"},
				"TableData": [{"pk": {"S": "DEV#a"}, "kind": {"S": "dev"}}, {"pk": {"S": "DEV#b"}, "kind": {"S": "dev"}}]}],
			"TableData": [` + tableItem + `]}]}`)
	}
	cases := []struct {
		name, tableItem, want string
	}{
		{"fits", `{"pk": {"S": "DEV#c"}, "kind": {"S": "dev"}}`, "DEV#{DeviceId}"},
		{"does not fit", `{"pk": {"S": "OTHER"}, "kind": {"S": "dev"}}`, ""},
		{"untyped item does not count", `{"pk": {"S": "OTHER"}}`, "DEV#{DeviceId}"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := ImportWorkbench(model3(c.tableItem))
			if err != nil {
				t.Fatal(err)
			}
			d := r.Designs[0]
			if d.TypeAttr() != "kind" {
				t.Fatalf("type attribute %q", d.TypeAttr())
			}
			if got := d.Entities[0].Keys["pk"]; got != c.want {
				t.Errorf("template %q, want %q", got, c.want)
			}
		})
	}
}

// Every imported model makes a design that the design file format accepts: it
// saves, loads back and validates, items and entities intact.
func TestImportedDesignsValidate(t *testing.T) {
	for _, f := range []string{"nwb/DeviceStateLog_5.json", "nwb/DeviceStateLog_7.json", "nwb/AnOnlineShop_14.json",
		"nwb/AnOnlineShop_facets.json", "nwb3/BasicTemplate.json", "nwb3/TwoTables.json"} {
		r, err := ImportWorkbench(readTestdata(t, f))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, d := range r.Designs {
			text, err := (&designfile.File{Design: d}).Marshal()
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			back, err := designfile.Parse(f, text)
			if err != nil {
				t.Fatalf("%s: %v\n%s", f, err, text)
			}
			if len(back.Items) != len(d.Items) || len(back.Entities) != len(d.Entities) {
				t.Errorf("%s: %d items %d entities after a save, want %d %d", f, len(back.Items), len(back.Entities), len(d.Items), len(d.Entities))
			}
		}
	}
}
