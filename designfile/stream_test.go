package designfile

import (
	"strings"
	"testing"

	"stwb/model"
)

const streamDesign = `version: 1
name: t
table:
  name: t-data
  key: {partition: PK, sort: SK}
  stream: new-and-old-images
`

// The table's stream is read, and written back as it was read, for each view type;
// a view type that is not one is an error at its place with the one meant.
func TestStreamRoundTrip(t *testing.T) {
	for _, v := range model.StreamViews {
		src := strings.Replace(streamDesign, "new-and-old-images", string(v), 1)
		f, err := Parse("t.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if f.Design.Table.Stream != v {
			t.Fatalf("%s: read %q", v, f.Design.Table.Stream)
		}
		for _, from := range []*File{f, {Design: f.Design}} {
			out, err := from.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(out), "stream: "+string(v)+"\n") {
				t.Errorf("%s: not written back:\n%s", v, out)
			}
			if f2, err := Parse("t.yaml", out); err != nil || f2.Design.Table.Stream != v {
				t.Errorf("%s: read back %v %v", v, f2, err)
			}
		}
	}
	none, err := Parse("t.yaml", []byte(strings.Replace(streamDesign, "  stream: new-and-old-images\n", "", 1)))
	if err != nil || none.Design.Table.Stream != "" {
		t.Fatalf("no stream: %q %v", none.Design.Table.Stream, err)
	}
	if out, _ := none.Marshal(); strings.Contains(string(out), "stream") {
		t.Errorf("a table without a stream is written with one:\n%s", out)
	}
	_, err = Parse("t.yaml", []byte(strings.Replace(streamDesign, "new-and-old-images", "new-and-old-image", 1)))
	if err == nil || !strings.Contains(err.Error(), `t.yaml:6:11: table.stream "new-and-old-image" is not known`) || !strings.Contains(err.Error(), `did you mean "new-and-old-images"`) {
		t.Errorf("a wrong view type: %v", err)
	}
}
