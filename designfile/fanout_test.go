package designfile

import (
	"slices"
	"strings"
	"testing"
)

const fanoutDesign = `version: 1
name: t
table:
  name: t-data
  key: {partition: PK, sort: SK}
patterns:
  - id: 1
    operation: Query
    key: "PK = :pk"
    values: {":pk": "D#{shard}"}
    fanout: {shard: "00..11"}
    pages: all
  - id: 2
    operation: GetItem
    key: {PK: "R#{r}", SK: M}
    fanout: {r: [eu, us, ap]}
`

// fanout and pages are read, and written back as they were read (a range stays a
// range, a list a list).
func TestFanoutRoundTrip(t *testing.T) {
	f, err := Parse("t.yaml", []byte(fanoutDesign))
	if err != nil {
		t.Fatal(err)
	}
	check := func(f *File) {
		t.Helper()
		p1, p2 := f.Design.Patterns[0], f.Design.Patterns[1]
		if p1.Fanout == nil || p1.Fanout.Var != "shard" || p1.Fanout.Range != "00..11" || len(p1.Fanout.Values) != 12 || p1.Fanout.Values[11] != "11" || !p1.AllPages {
			t.Errorf("pattern 1: %+v all pages %v", p1.Fanout, p1.AllPages)
		}
		if p2.Fanout == nil || p2.Fanout.Range != "" || !slices.Equal(p2.Fanout.Values, []string{"eu", "us", "ap"}) || p2.AllPages {
			t.Errorf("pattern 2: %+v", p2.Fanout)
		}
	}
	check(f)
	for _, from := range []*File{f, {Design: f.Design}} {
		out, err := from.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), `fanout: {shard: "00..11"}`) && !strings.Contains(string(out), `fanout: {shard: 00..11}`) {
			t.Errorf("the range is not written as a range:\n%s", out)
		}
		f2, err := Parse("t.yaml", out)
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		check(f2)
	}
}

// Each mistake is an error at its place, naming the field and the fix.
func TestFanoutErrors(t *testing.T) {
	cases := []struct{ from, to, want string }{
		{`fanout: {shard: "00..11"}`, `fanout: {shard: "0..1000"}`, "t.yaml:11:21: pattern 1.fanout.shard: range \"0..1000\" is 1,001 values"},
		{`fanout: {shard: "00..11"}`, `fanout: {shard: "9..0"}`, "must run upward"},
		{`fanout: {shard: "00..11"}`, `fanout: {shard: "x"}`, "is not a range"},
		{`fanout: {shard: "00..11"}`, `fanout: {a: "0..1", b: "0..1"}`, "t.yaml:11:13: pattern 1.fanout must be a mapping of one variable"},
		{`fanout: {shard: "00..11"}`, `fanout: {shard: {x: 1}}`, "must be a range or a list"},
		{`fanout: {shard: "00..11"}`, `fanout: {s: "0..1"}`, "no value uses the fan-out's {s}"},
		{`fanout: {r: [eu, us, ap]}`, `fanout: {r: [eu, eu]}`, `fanout.r gives "eu" twice`},
		{"pages: all", "pages: some", `pattern 1.pages "some" is not known`},
		{"operation: GetItem", "operation: Scan", "Scan has no fanout"},
	}
	for _, c := range cases {
		src := strings.Replace(fanoutDesign, c.from, c.to, 1)
		_, err := Parse("t.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.to, err, c.want)
		}
	}
}
