package designfile

import (
	"strings"
	"testing"

	"stwb/model"
)

// Autoscaling in the design file (issue 16): read and write separately, on the
// table and on each GSI, each with min, max and target; saved back as read; its
// bounds those of DynamoDB autoscaling (AutoScaling.html: target utilisation
// between 20 and 90 percent; at least 1 unit).

const autoscaledDesign = `version: 1
name: scaled
table:
  name: scaled-table
  key: {partition: PK}
  billing: {provisioned: {read: 5, write: 5, target: 0.7, autoscaling: {read: {min: 1, max: 10, target: 0.7}, write: {min: 2, max: 20, target: 0.5}}}}
  indexes:
    - name: GSI1
      key: {partition: G}
      read: 3
      write: 4
      autoscaling: {write: {min: 4, max: 40, target: 0.9}}
items:
  - {PK: a, G: b}
`

func TestAutoscalingRoundTrip(t *testing.T) {
	d, err := Parse("scaled.yaml", []byte(autoscaledDesign))
	if err != nil {
		t.Fatal(err)
	}
	a := d.Table.Billing.Autoscaling
	if a.Read == nil || *a.Read != (model.Scaling{Min: 1, Max: 10, Target: 0.7}) || a.Write == nil || *a.Write != (model.Scaling{Min: 2, Max: 20, Target: 0.5}) {
		t.Fatalf("table autoscaling %+v %+v", a.Read, a.Write)
	}
	ix := d.Table.Indexes[0].Autoscaling
	if ix.Read != nil || ix.Write == nil || *ix.Write != (model.Scaling{Min: 4, Max: 40, Target: 0.9}) {
		t.Fatalf("index autoscaling %+v %+v", ix.Read, ix.Write)
	}
	out, err := fileOf(d).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != autoscaledDesign {
		t.Errorf("saved differently:\n%s", out)
	}
	d.source = nil // the canonical writer, not the comment-keeping merge
	d.Table.Indexes[0].Autoscaling = model.Autoscaling{}
	out, _ = fileOf(d).Marshal()
	back, err := Parse("scaled.yaml", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !back.Table.Indexes[0].Autoscaling.IsZero() || *back.Table.Billing.Autoscaling.Write != (model.Scaling{Min: 2, Max: 20, Target: 0.5}) {
		t.Errorf("after removing the index's autoscaling:\n%s", out)
	}
}

func TestAutoscalingErrors(t *testing.T) {
	cases := []struct{ from, to, want string }{
		{"target: 0.5}", "target: 0.95}", "scaled.yaml:6:118: table.billing.provisioned.autoscaling.write: target 0.95 is outside 0.2 to 0.9"},
		{"{min: 2, max: 20,", "{min: 20, max: 2,", "table.billing.provisioned.autoscaling.write: max 2 is below min 20"},
		{"{min: 4, max: 40, target: 0.9}", "{min: 4, target: 0.9}", "index GSI1.autoscaling.write.max is missing"},
		{"{min: 4, max: 40, target: 0.9}", "{min: 4, max: 40, target: 0.9, step: 1}", `unknown field "step" in index GSI1.autoscaling.write`},
		{"autoscaling: {write:", "autoscaling: {writes:", `unknown field "writes" in index GSI1.autoscaling`},
	}
	for _, c := range cases {
		t.Run(c.to, func(t *testing.T) {
			text := strings.Replace(autoscaledDesign, c.from, c.to, 1)
			if text == autoscaledDesign {
				t.Fatal("the case changes nothing")
			}
			_, err := Parse("scaled.yaml", []byte(text))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
	// A design built in code is held to the same bounds, and to provisioned
	// capacity.
	d, _ := Parse("scaled.yaml", []byte(autoscaledDesign))
	d.Table.Indexes[0].Autoscaling.Write.Target = 0.1
	if err := model.Validate(d.Design); err == nil || !strings.Contains(err.Error(), "index GSI1.autoscaling.write: target 0.1 is outside") {
		t.Errorf("validate: %v", err)
	}
	d.Table.Indexes[0].Autoscaling.Write.Target = 0.5
	d.Table.Billing = model.Billing{Mode: model.OnDemand, Autoscaling: d.Table.Billing.Autoscaling}
	if err := model.Validate(d.Design); err == nil || !strings.Contains(err.Error(), "autoscaling applies to provisioned capacity only") {
		t.Errorf("validate: %v", err)
	}
}

// An entity's key aliases (another tool's names for its key attributes, issue 16)
// load and save as written.
func TestEntityAliasesRoundTrip(t *testing.T) {
	const text = `version: 1
name: songs
table:
  name: songs-table
  key: {partition: PK, sort: SK}
entities:
  - name: Song
    keys: {PK: "SONG#{SongId}"}
    aliases: {SK: SubId#SKU}
items:
  - {type: Song, SongId: "1", SK: x}
`
	d, err := Parse("songs.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if a := d.Entities[0].Aliases; len(a) != 1 || a["SK"] != "SubId#SKU" {
		t.Fatalf("aliases %v", a)
	}
	d.source = nil
	out, err := d.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "aliases: {SK: SubId#SKU}") {
		t.Errorf("saved without its aliases:\n%s", out)
	}
}

// An alias names a key attribute of the table or an index (another tool's name for
// it); one for any other attribute, or an empty one, is an error at its own line
// and column.
func TestEntityAliasesChecked(t *testing.T) {
	const text = `version: 1
name: songs
table:
  name: songs-table
  key: {partition: PK, sort: SK}
  indexes:
    - name: GSI1
      key: {partition: GSI1PK}
entities:
  - name: Song
    keys: {PK: "SONG#{SongId}"}
    aliases: {SK: SubId#SKU, GSI1PK: Album, title: Name, PK: ""}
items:
  - {type: Song, SongId: "1", SK: x}
`
	_, err := Parse("songs.yaml", []byte(text))
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{
		"songs.yaml:12:45: entity Song: aliases.title is not a key attribute of the table or any index",
		`songs.yaml:12:62: entity Song: aliases.PK is empty`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("no %q in:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "aliases.SK") || strings.Contains(err.Error(), "aliases.GSI1PK") {
		t.Errorf("a key attribute's alias refused:\n%v", err)
	}
	if n := strings.Count(err.Error(), "aliases.title"); n != 1 {
		t.Errorf("aliases.title reported %d times:\n%v", n, err)
	}
}
