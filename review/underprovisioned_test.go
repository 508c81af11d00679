package review_test

import (
	"strings"
	"testing"

	"stwb/analysis"
	"stwb/model"
)

// under-provisioned sizes each side of each pool at its own autoscaling target,
// as cost prices it (cost.Pool.Required and SizedAt; AutoScaling.html: one
// target-tracking policy per scalable dimension), and its message names the target
// used per side. The base design's peak load is 1 RCU and 10 WCU a second on the
// table, 0.5 RCU and 10 WCU on GSI1: at a 50% read and 80% write target the table
// needs 2 RCU and 13 WCU, where billing.provisioned.target alone (none here) would
// have asked for 1 and 10.
func TestUnderProvisionedPerSideTargets(t *testing.T) {
	scale := func(target float64) *model.Scaling { return &model.Scaling{Min: 1, Max: 1000, Target: target} }
	cases := []struct {
		name    string
		billing model.Billing
		gsi     model.Autoscaling
		want    []string // the under-provisioned messages, in part; none when empty
	}{
		{"two targets, enough", model.Billing{Mode: model.Provisioned, Read: 2, Write: 13,
			Autoscaling: model.Autoscaling{Read: scale(0.5), Write: scale(0.8)}}, model.Autoscaling{}, nil},
		{"two targets, one WCU short", model.Billing{Mode: model.Provisioned, Read: 2, Write: 12,
			Autoscaling: model.Autoscaling{Read: scale(0.5), Write: scale(0.8)}}, model.Autoscaling{}, []string{
			"the table is provisioned at 2 RCU and 12 WCU, but its patterns need 2 RCU and 13 WCU at the 50% read and 80% write autoscaling targets",
			"index GSI1 is provisioned at 2 RCU and 12 WCU, but its patterns need 1 RCU and 13 WCU at the 50% read and 80% write autoscaling targets"}},
		{"the read side from billing.provisioned.target", model.Billing{Mode: model.Provisioned, Read: 1, Write: 13, Target: 0.5,
			Autoscaling: model.Autoscaling{Write: scale(0.8)}}, model.Autoscaling{}, []string{
			"the table is provisioned at 1 RCU and 13 WCU, but its patterns need 2 RCU and 13 WCU at the 50% read and 80% write autoscaling targets"}},
		{"read autoscaled, write without a target: 100%", model.Billing{Mode: model.Provisioned, Read: 2, Write: 10,
			Autoscaling: model.Autoscaling{Read: scale(0.5)}}, model.Autoscaling{}, nil},
		{"read autoscaled, write without a target, short", model.Billing{Mode: model.Provisioned, Read: 2, Write: 9,
			Autoscaling: model.Autoscaling{Read: scale(0.5)}}, model.Autoscaling{}, []string{
			"the table is provisioned at 2 RCU and 9 WCU, but its patterns need 2 RCU and 10 WCU at the 50% read and 100% write autoscaling targets",
			"index GSI1 is provisioned at 2 RCU and 9 WCU, but its patterns need 1 RCU and 10 WCU at the 50% read and 100% write autoscaling targets"}},
		{"a GSI at its own target", model.Billing{Mode: model.Provisioned, Read: 2, Write: 13,
			Autoscaling: model.Autoscaling{Read: scale(0.5), Write: scale(0.8)}}, model.Autoscaling{Write: scale(0.5)}, []string{
			"index GSI1 is provisioned at 2 RCU and 13 WCU, but its patterns need 1 RCU and 20 WCU at the 50% autoscaling target"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := loadBase(t).Design
			d.Table.Billing = c.billing
			for i := range d.Table.Indexes {
				if d.Table.Indexes[i].Name == "GSI1" {
					d.Table.Indexes[i].Autoscaling = c.gsi
				}
			}
			a, err := analysis.Run(d, analysis.Options{Review: true})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range a.Findings {
				if f.Rule == "under-provisioned" {
					got = append(got, f.Message)
				}
			}
			if len(got) != len(c.want) {
				t.Fatalf("%d findings, want %d:\n%s", len(got), len(c.want), strings.Join(got, "\n"))
			}
			for i, w := range c.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("finding %q\nwant it to contain %q", got[i], w)
				}
			}
		})
	}
}
