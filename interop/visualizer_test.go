package interop

import (
	"reflect"
	"strings"
	"testing"

	"stwb/engine"
	"stwb/model"
)

// A model in the shape the DynamoDB Labs visualizer writes (testdata/visualizer,
// built after aws-samples/amazon-dynamodb-labs static/files/visualizer): its
// ModelSchema's value templates become the entities' key templates where the
// items agree with them, its SavedQuery entries become Query patterns, and what
// cannot be carried is named by its JSON path (issue 16).
func TestImportVisualizerModel(t *testing.T) {
	r, err := ImportWorkbench(readTestdata(t, "visualizer/Flights.json"))
	if err != nil {
		t.Fatal(err)
	}
	d := r.Designs[0]
	wantKeys := map[string]map[string]string{
		"fare":    {"PK": "{origin}", "SK": "{dest}#{start}#{class}", "GSI1PK": "{dest}", "GSI1SK": "{origin}#{start}"},
		"flight":  {"PK": "{origin}", "SK": "{dest}#{depart}#{number}", "GSI1PK": "{dest}", "GSI1SK": "{origin}#{arrive}", "GSI2PK": "{number}"},
		"booking": {"PK": "P#{passenger}"},
	}
	if len(d.Entities) != len(wantKeys) {
		t.Errorf("entities %+v", d.Entities)
	}
	for name, keys := range wantKeys {
		e := d.EntityByName(name)
		if e == nil {
			t.Errorf("no entity %s", name)
			continue
		}
		if !reflect.DeepEqual(e.Keys, keys) {
			t.Errorf("%s keys %v, want %v", name, e.Keys, keys)
		}
	}
	flight := d.EntityByName("flight")
	types := map[string]model.Type{}
	for _, a := range flight.Attributes {
		types[a.Name] = a.Type
	}
	if types["seats"] != model.TypeN || types["isFull"] != model.TypeBOOL || types["arrive"] != model.TypeS {
		t.Errorf("flight attributes %+v", flight.Attributes)
	}
	if _, ok := types["label"]; ok {
		t.Error("a computed non-key field is declared as an attribute")
	}

	notes := strings.Join(r.Notes, "\n")
	for _, w := range []string{
		"$.DataModel[0].ModelSchema.indexes.GSI3 is not an index of the table",
		`$.DataModel[0].ModelSchema.models.booking.SK.value "${depart}#{flight}" (a { or } outside ${...} has no place in a design's template)`,
		"$.DataModel[0].ModelSchema.models.flight.label.value (a design has templates for key attributes only)",
		"ModelSchema entities that no item has as its type, so not in the design: crew",
		`$.DataModel[0].SavedQuery["Bookings of a passenger"]: SK: condition "contains" is not one of = < <= > >= begins between`,
		`$.DataModel[0].SavedQuery["By crew index"]: view "GSI3" is neither the table flights nor one of its indexes`,
		`$.DataModel[0].SavedQuery["Few seats"]: filter[0]: "ten" is not a number`,
		`$.DataModel[0].SavedQuery["Flight by number and date"]: a sort key condition, but index GSI2 has no sort key`,
	} {
		if !strings.Contains(notes, w) {
			t.Errorf("no note %q; the notes:\n%s", w, notes)
		}
	}
	if strings.Contains(notes, "ModelSchema,") || strings.Contains(notes, ".SavedQuery,") || strings.Contains(notes, "~new~") {
		t.Errorf("read members named as left out:\n%s", notes)
	}

	type want struct {
		name, index, key, filter string
		names                    map[string]string
		values                   map[string]model.Value
		count                    int
	}
	wants := []want{
		{"Fares from SFO to JFK on Aug 1", "", "#pk = :pk AND #sk BETWEEN :ska AND :skb", "",
			map[string]string{"#pk": "PK", "#sk": "SK"},
			map[string]model.Value{":pk": model.Str("SFO"), ":ska": model.Str("JFK#2021-08-01"), ":skb": model.Str("JFK#2021-08-01~")}, 3},
		{"Flight 150", "GSI2", "#pk = :pk", "", map[string]string{"#pk": "GSI2PK"}, map[string]model.Value{":pk": model.Str("150")}, 1},
		{"Flights into JFK with seats or full", "GSI1", "#pk = :pk AND begins_with(#sk, :sk)", "(#f0 > :f0 AND #f1 IN (:f1x0, :f1x1)) OR #f2 = :f2",
			map[string]string{"#pk": "GSI1PK", "#sk": "GSI1SK", "#f0": "seats", "#f1": "number", "#f2": "isFull"},
			map[string]model.Value{":pk": model.Str("JFK"), ":sk": model.Str("SFO#2021-08-01T"), ":f0": model.Num("10"),
				":f1x0": model.Str("150"), ":f1x1": model.Str("151"), ":f2": model.Bool(true)}, 2},
	}
	if len(d.Patterns) != len(wants) {
		t.Fatalf("%d patterns, want %d: %+v", len(d.Patterns), len(wants), d.Patterns)
	}
	e, err := engine.FromDesign(d)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range wants {
		p := d.Patterns[i]
		if p.ID != i+1 || p.Name != w.name || p.Operation != model.OpQuery || p.Index != w.index || p.KeyCondition != w.key || p.Filter != w.filter ||
			!reflect.DeepEqual(p.Names, w.names) || !reflect.DeepEqual(p.Values, w.values) {
			t.Errorf("pattern %d:\n got %+v\nwant %+v", i+1, p, w)
		}
		res := e.Run(&d.Patterns[i], engine.RunOptions{})
		if res.Err != nil || res.Count != w.count {
			t.Errorf("pattern %d (%s) returns %d items (%v), want %d", p.ID, p.Name, res.Count, res.Err, w.count)
		}
	}
}

// A template the items do not follow is noted, naming the template and the item,
// and left out: the design would refuse its own items, or give an item an index
// key it does not have.
func TestVisualizerTemplateMismatch(t *testing.T) {
	m := `{"ModelName": "m", "ModelMetadata": {"Version": "2.0"}, "DataModel": [{"TableName": "orders",
	 "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
	 "GlobalSecondaryIndexes": [{"IndexName": "GSI1", "KeyAttributes": {"PartitionKey": {"AttributeName": "GSI1PK", "AttributeType": "S"}}, "Projection": {"ProjectionType": "ALL"}}],
	 "TableData": [
	   {"PK": {"S": "C#1"}, "SK": {"S": "O#2021#T1"}, "type": {"S": "order"}, "day": {"S": "2021"}, "orderId": {"S": "T11"}, "status": {"S": "new"}},
	   {"PK": {"S": "C#1"}, "SK": {"S": "O#2022#T2"}, "type": {"S": "order"}, "day": {"S": "2022"}, "orderId": {"S": "T2"}, "status": {"S": "new"}}],
	 "ModelSchema": {"models": {"order": {"PK": {"type": "String", "value": "C#${customer}"}, "SK": {"type": "String", "value": "O#${day}#${orderId}"},
	   "GSI1PK": {"type": "String", "value": "S#${status}"}}}}}]}`
	r, err := ImportWorkbench([]byte(m))
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(r.Notes, "\n")
	for _, w := range []string{
		`$.DataModel[0].ModelSchema.models.order.SK.value: the template "O#{day}#{orderId}" does not fit item $.DataModel[0].TableData[0] (SK "O#2021#T1")`,
		`$.DataModel[0].ModelSchema.models.order.GSI1PK.value: the template "S#{status}" does not fit item $.DataModel[0].TableData[0] (no GSI1PK)`,
	} {
		if !strings.Contains(notes, w) {
			t.Errorf("no note %q; the notes:\n%s", w, notes)
		}
	}
	e := r.Designs[0].EntityByName("order")
	if e == nil || !reflect.DeepEqual(e.Keys, map[string]string{"PK": "C#{customer}"}) {
		t.Fatalf("order %+v", e)
	}
	if err := model.Validate(r.Designs[0]); err != nil {
		t.Errorf("the design refuses its items: %v", err)
	}
}

// A ModelSchema at the top of the file is the first table's, as the visualizer
// moves it there; the older MapFunction templates on the key attributes are read
// too, and a ModelSchema's template for the same key wins.
func TestVisualizerRootSchemaAndMapFunction(t *testing.T) {
	m := `{"ModelName": "m", "ModelMetadata": {"Version": "2.0"}, "DataModel": [{"TableName": "hospital",
	 "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"},
	   "SortKey": {"AttributeName": "SK", "AttributeType": "S", "MapFunction": {"visit": "V#${day}", "drug": "D#${name}"}}},
	 "TableData": [
	   {"PK": {"S": "P1"}, "SK": {"S": "V#2021"}, "type": {"S": "visit"}, "day": {"S": "2021"}},
	   {"PK": {"S": "P1"}, "SK": {"S": "DRUG#asp"}, "type": {"S": "drug"}, "name": {"S": "asp"}}]}],
	 "ModelSchema": {"models": {"drug": {"SK": {"type": "String", "value": "DRUG#${name}"}}}}}`
	r, err := ImportWorkbench([]byte(m))
	if err != nil {
		t.Fatal(err)
	}
	d := r.Designs[0]
	if v := d.EntityByName("visit"); v == nil || v.Keys["SK"] != "V#{day}" {
		t.Errorf("visit %+v", v)
	}
	if g := d.EntityByName("drug"); g == nil || g.Keys["SK"] != "DRUG#{name}" {
		t.Errorf("drug %+v", g)
	}
	if strings.Contains(strings.Join(r.Notes, "\n"), "ModelSchema") {
		t.Errorf("notes %q", r.Notes)
	}
}

// Re-importing a model with saved queries into a design keeps the design's
// patterns and adds the saved queries it does not have, matched by name, after its
// highest id; importing the same model again adds none. A saved query whose
// pattern the design changed stays as the design has it, and the report says so.
func TestMergeSavedQueries(t *testing.T) {
	r, err := ImportWorkbench(readTestdata(t, "visualizer/Flights.json"))
	if err != nil {
		t.Fatal(err)
	}
	imported := r.Designs[0]
	old := *imported
	old.Patterns = []model.Pattern{
		// The design's "Flight 150" asks for another flight than the model's saved
		// query does: kept, and reported.
		{ID: 7, Name: "Flight 150", Operation: model.OpQuery, Index: "GSI2", KeyCondition: "GSI2PK = :n", Values: map[string]model.Value{":n": model.Str("151")}, Rate: 50},
		{ID: 9, Name: "Scan everything", Operation: model.OpScan, Batch: true},
	}
	merged, rep := MergeDesign(&old, imported)
	var got []string
	for _, p := range merged.Patterns {
		got = append(got, strings.Join([]string{itoa(int64(p.ID)), p.Name}, " "))
	}
	want := []string{"7 Flight 150", "9 Scan everything", "10 Fares from SFO to JFK on Aug 1", "11 Flights into JFK with seats or full"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("patterns %q, want %q", got, want)
	}
	if merged.Patterns[0].Rate != 50 || merged.Patterns[0].KeyCondition != "GSI2PK = :n" {
		t.Errorf("the design's pattern changed: %+v", merged.Patterns[0])
	}
	if !reflect.DeepEqual(rep.PatternsAdded, []string{"10 (Fares from SFO to JFK on Aug 1)", "11 (Flights into JFK with seats or full)"}) ||
		!reflect.DeepEqual(rep.PatternsKept, []string{"7 (Flight 150)"}) {
		t.Errorf("report added %q kept %q", rep.PatternsAdded, rep.PatternsKept)
	}
	lines := strings.Join(rep.Lines(), "\n")
	if !strings.Contains(lines, "patterns added from the model's saved queries: 10 (Fares from SFO to JFK on Aug 1), 11 (Flights into JFK with seats or full)") ||
		!strings.Contains(lines, "patterns kept as the design has them, though the model's saved query of that name differs: 7 (Flight 150)") {
		t.Errorf("report:\n%s", lines)
	}
	again, rep2 := MergeDesign(merged, imported)
	if len(again.Patterns) != 4 || len(rep2.PatternsAdded) != 0 {
		t.Errorf("a second import added %q: %d patterns", rep2.PatternsAdded, len(again.Patterns))
	}
	if err := model.Validate(again); err != nil {
		t.Errorf("merged design: %v", err)
	}
}
