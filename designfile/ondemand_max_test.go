package designfile

import (
	"strings"
	"testing"
)

// An on-demand table's maximum throughput (on-demand-capacity-mode-max-throughput.html,
// API_OnDemandThroughput.html): billing: {on-demand: {maxRead, maxWrite}}, each at
// least 1, either optional; saved back as read.
func TestOnDemandMaximum(t *testing.T) {
	const design = "version: 1\nname: capped\ntable:\n  name: capped-table\n  key: {partition: PK}\n  billing: {on-demand: {maxRead: 4000, maxWrite: 500}}\nitems:\n  - {PK: a}\n"
	f, err := Parse("capped.yaml", []byte(design))
	if err != nil {
		t.Fatal(err)
	}
	if b := f.Design.Table.Billing; b.Mode != "on-demand" || b.MaxRead != 4000 || b.MaxWrite != 500 {
		t.Fatalf("billing %+v", b)
	}
	f.source = nil // the canonical writer
	out, err := fileOf(f).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("capped.yaml", out)
	if err != nil || back.Design.Table.Billing != f.Design.Table.Billing {
		t.Errorf("saved as\n%s\nread back %+v (%v)", out, back.Design.Table.Billing, err)
	}
	for _, tc := range []struct{ billing, want string }{
		{"{on-demand: {maxWrite: 0}}", "maxWrite"},
		{"{on-demand: {maxReads: 5}}", "maxReads"},
		{"{on-demand: {maxRead: 5}, provisioned: {read: 1, write: 1}}", "needs provisioned"},
	} {
		_, err := Parse("capped.yaml", []byte(strings.Replace(design, "{on-demand: {maxRead: 4000, maxWrite: 500}}", tc.billing, 1)))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("billing %s: %v, want an error naming %s", tc.billing, err, tc.want)
		}
	}
}
