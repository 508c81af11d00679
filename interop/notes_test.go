package interop

import (
	"strings"
	"testing"
)

// Nothing is dropped without a note (issue 16): every member the importer does
// not read is named by its JSON path, a facet key alias that no template holds is
// named, a declared attribute no item holds is named, a multi-table model's name
// is said to go, and items with a type attribute of their own keep it.
func TestImportWorkbenchNotes(t *testing.T) {
	m := `{"ModelName": "Music", "ModelMetadata": {"Author": "ann", "Version": "3.0", "SampleDataFormats": {"date": ["ISO 8601"]}},
	 "SavedQuery": [{"name": "songs by album"}],
	 "DataModel": [
	  {"TableName": "songs", "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
	   "NonKeyAttributes": [{"AttributeName": "Type", "AttributeType": "S"}, {"AttributeName": "rating", "AttributeType": "N"}],
	   "ModelSchema": {"Song": {"PK": {"value": "SONG#${id}"}}},
	   "DataAccess": {"MySql": {}},
	   "GlobalSecondaryIndexes": [{"IndexName": "GSI1", "KeyAttributes": {"PartitionKey": {"AttributeName": "G", "AttributeType": "S"}}, "Hint": "x"}],
	   "TableFacets": [
	    {"FacetName": "song", "KeyAttributeAlias": {"PartitionKeyAlias": "SongId", "SortKeyAlias": "SubId#SKU"}, "NonKeyAttributes": ["Type"],
	     "TableData": [{"PK": {"S": "SONG#1"}, "SK": {"S": "x1"}, "Type": {"S": "Song"}}, {"PK": {"S": "SONG#2"}, "SK": {"S": "x2"}, "Type": {"S": "Song"}}]},
	    {"FacetName": "album", "NonKeyAttributes": ["Type"], "Color": "blue",
	     "TableData": [{"PK": {"S": "ALBUM#1"}, "SK": {"S": "A"}, "Type": {"S": "Album"}}]}]},
	  {"TableName": "other", "KeyAttributes": {"PartitionKey": {"AttributeName": "id", "AttributeType": "S"}}}]}`
	r, err := ImportWorkbench([]byte(m))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"left out, with no place in a design: $.SavedQuery, $.ModelMetadata.Author, $.ModelMetadata.SampleDataFormats",
		`the model's name "Music" has no place: each of its 2 tables becomes a design named for its table`,
		"table songs: left out, with no place in a design: $.DataModel[0].GlobalSecondaryIndexes[0].Hint, $.DataModel[0].TableFacets[1].Color",
		// Not the OneTable shape ({models: {Song: ...}}): its member is named.
		"table songs: left out of the ModelSchema, with no place in a design: $.DataModel[0].ModelSchema.Song",
		`table songs: facet song: its items' Type is "Song" on every item; the entity is named "Song"`,
		`table songs: facet album: its items' Type is "Album" on every item; the entity is named "Album"`,
		"table songs: declared in NonKeyAttributes but held by no item, so not in the design: rating (N)",
	}
	got := strings.Join(r.Notes, "\n")
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("no note %q; the notes:\n%s", w, got)
		}
	}
	if strings.Contains(got, "outside any facet are kept only as item values (a design declares non-key types per entity): rating") {
		t.Error("rating is named twice")
	}
	d := r.Designs[0]
	// The alias that a template can hold is kept as its variable, the other as
	// the entity's alias, and both are exported back.
	song := d.EntityByName("Song")
	if k := song.Keys["PK"]; k != "SONG#{SongId}" {
		t.Errorf("Song's PK template %q", k)
	}
	if a := song.Aliases["SK"]; a != "SubId#SKU" || len(song.Aliases) != 1 {
		t.Errorf("Song's aliases %v", song.Aliases)
	}
	out, _, err := ExportWorkbench(d)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"PartitionKeyAlias": "SongId"`) || !strings.Contains(string(out), `"SortKeyAlias": "SubId#SKU"`) {
		t.Errorf("the aliases are not exported back:\n%s", out)
	}
	if d.TypeAttr() != "Type" || d.EntityByName("Song") == nil || d.EntityByName("Album") == nil {
		t.Errorf("type attribute %q, entities %+v", d.TypeAttr(), d.Entities)
	}
	for _, it := range d.Items {
		if _, second := it["type"]; second {
			t.Errorf("an item got a second type attribute: %v", it)
		}
	}
}
