package interop

import (
	"slices"
	"strings"
	"testing"

	"stwb/model"
)

// Autoscaling survives every format that can hold it (issue 16): a NoSQL
// Workbench model's MinCapacity 1, MaxCapacity 10, TargetValue 70 comes back as
// written, not as a ceiling of the provisioned figure; read and write stay apart;
// a capacity that is not autoscaled is not made so by an export.

func TestWorkbenchAutoscalingImported(t *testing.T) {
	r, err := ImportWorkbench(readTestdata(t, "nwb3/BasicTemplate.json"))
	if err != nil {
		t.Fatal(err)
	}
	b := r.Designs[0].Table.Billing
	want := model.Scaling{Min: 1, Max: 10, Target: 0.7}
	if b.Autoscaling.Read == nil || *b.Autoscaling.Read != want || b.Autoscaling.Write == nil || *b.Autoscaling.Write != want || b.Target != 0.7 {
		t.Fatalf("billing %+v read %+v write %+v", b, b.Autoscaling.Read, b.Autoscaling.Write)
	}
	out, _, err := ExportWorkbench(r.Designs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`"MinCapacity": 1`, `"MaxCapacity": 10`, `"TargetValue": 70`} {
		if strings.Count(string(out), s) != 2 {
			t.Errorf("export holds %q %d times, want 2 (read and write)", s, strings.Count(string(out), s))
		}
	}
}

// scaledVariant is a design whose autoscaling differs in one way, and the
// capacities it autoscales.
type scaledVariant struct {
	d    *model.Design
	caps []scaledCapacity
}

func scaledVariants() map[string]scaledVariant {
	withScale := func(edit func(d *model.Design)) *model.Design {
		d := ordersDesign()
		edit(d)
		return d
	}
	tableRead := scaledCapacity{"", "Read", model.Scaling{Min: 10, Max: 400, Target: 0.7}}
	tableWrite := scaledCapacity{"", "Write", model.Scaling{Min: 5, Max: 200, Target: 0.5}}
	gsiRead := scaledCapacity{"GSI1", "Read", model.Scaling{Min: 2, Max: 80, Target: 0.6}}
	gsiWrite := scaledCapacity{"GSI1", "Write", model.Scaling{Min: 3, Max: 33, Target: 0.4}}
	return map[string]scaledVariant{
		"read and write apart": {ordersDesign(), []scaledCapacity{tableRead, tableWrite, gsiRead}},
		"write not autoscaled": {withScale(func(d *model.Design) { d.Table.Billing.Autoscaling.Write = nil }), []scaledCapacity{tableRead, gsiRead}},
		"GSI write autoscaled": {withScale(func(d *model.Design) {
			d.Table.Indexes[0].Autoscaling.Write = &gsiWrite.Scaling
		}), []scaledCapacity{tableRead, tableWrite, gsiRead, gsiWrite}},
		"nothing autoscaled": {withScale(func(d *model.Design) {
			d.Table.Billing.Autoscaling = model.Autoscaling{}
			d.Table.Billing.Target = 0
			d.Table.Indexes[0].Autoscaling = model.Autoscaling{}
		}), nil},
	}
}

func TestAutoscalingRoundTripWorkbench(t *testing.T) {
	for name, v := range scaledVariants() {
		d := v.d
		t.Run(name, func(t *testing.T) {
			out, notes, err := ExportWorkbench(d)
			if err != nil {
				t.Fatal(err)
			}
			r, err := ImportWorkbench(out)
			if err != nil {
				t.Fatal(err)
			}
			back := r.Designs[0].Table
			if !sameScaling(back.Billing.Autoscaling, d.Table.Billing.Autoscaling) {
				t.Errorf("table autoscaling %s, want %s", scalingText(back.Billing.Autoscaling), scalingText(d.Table.Billing.Autoscaling))
			}
			// A Workbench model's GSIs carry no capacity (every real 3.0 model:
			// IndexName, KeyAttributes, Projection): the GSI's own is left out, and
			// the export says so.
			gsi, _ := back.IndexByName("GSI1")
			if !gsi.Autoscaling.IsZero() || gsi.Read != 0 || gsi.Write != 0 {
				t.Errorf("GSI1 %d/%d autoscaling %s, want none of its own", gsi.Read, gsi.Write, scalingText(gsi.Autoscaling))
			}
			if strings.Count(string(out), "ProvisionedCapacitySettings") != 1 {
				t.Errorf("export holds %d ProvisionedCapacitySettings, want the table's only", strings.Count(string(out), "ProvisionedCapacitySettings"))
			}
			if !slices.ContainsFunc(notes, func(n string) bool { return strings.HasPrefix(n, "index GSI1: its own provisioned capacity") }) {
				t.Errorf("no note on GSI1's capacity: %q", notes)
			}
		})
	}
}

// Each infrastructure export writes one scalable target and one policy per
// autoscaled capacity, with its own bounds and target, and nothing for a
// capacity that is not autoscaled.
func TestAutoscalingExports(t *testing.T) {
	type capacity struct {
		cfn, tf, cdk []string // what the export holds for this capacity
	}
	for name, v := range scaledVariants() {
		d, caps := v.d, v.caps
		t.Run(name, func(t *testing.T) {
			cfn, tf, cdk := string(ExportCloudFormation(d)), string(ExportTerraform(d)), string(ExportCDK(d))
			if got := strings.Count(cfn, "Type: AWS::ApplicationAutoScaling::ScalableTarget"); got != len(caps) {
				t.Errorf("CloudFormation: %d scalable targets, want %d", got, len(caps))
			}
			if got := strings.Count(cfn, "Type: AWS::ApplicationAutoScaling::ScalingPolicy"); got != len(caps) {
				t.Errorf("CloudFormation: %d policies, want %d", got, len(caps))
			}
			if got := strings.Count(tf, `resource "aws_appautoscaling_target"`); got != len(caps) {
				t.Errorf("Terraform: %d targets, want %d", got, len(caps))
			}
			if got := strings.Count(tf, `resource "aws_appautoscaling_policy"`); got != len(caps) {
				t.Errorf("Terraform: %d policies, want %d", got, len(caps))
			}
			if got := strings.Count(cdk, "targetUtilizationPercent"); got != len(caps) {
				t.Errorf("CDK: %d autoscaled capacities, want %d\n%s", got, len(caps), cdk)
			}
			for _, c := range caps {
				pct := formatPercent(c.Target)
				want := capacity{
					cfn: []string{"ScalableDimension: " + c.dimension() + "\n      ResourceId: !Sub " + cfnResource(d, c.Index) + "\n      MinCapacity: " + itoa(c.Min) + "\n      MaxCapacity: " + itoa(c.Max),
						"TargetValue: " + pct + "\n        PredefinedMetricSpecification:\n          PredefinedMetricType: " + c.metric()},
					tf: []string{"max_capacity       = " + itoa(c.Max) + "\n  min_capacity       = " + itoa(c.Min),
						`scalable_dimension = "` + c.dimension() + `"`},
					cdk: []string{"Capacity.autoscaled({ minCapacity: " + itoa(c.Min) + ", maxCapacity: " + itoa(c.Max) + ", targetUtilizationPercent: " + pct + " })"},
				}
				for _, w := range want.cfn {
					if !strings.Contains(cfn, w) {
						t.Errorf("CloudFormation lacks %q:\n%s", w, cfn)
					}
				}
				for _, w := range want.tf {
					if !strings.Contains(tf, w) {
						t.Errorf("Terraform lacks %q", w)
					}
				}
				for _, w := range want.cdk {
					if !strings.Contains(cdk, w) {
						t.Errorf("CDK lacks %q", w)
					}
				}
			}
		})
	}
}

func cfnResource(d *model.Design, index string) string {
	r := "table/${" + logicalName(d.Table.Name) + "}"
	if index != "" {
		r += "/index/" + index
	}
	return `"` + r + `"`
}

func itoa(n int64) string { return formatPercent(float64(n) / 100) }

func sameScaling(a, b model.Autoscaling) bool {
	eq := func(x, y *model.Scaling) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	return eq(a.Read, b.Read) && eq(a.Write, b.Write)
}

func scalingText(a model.Autoscaling) string {
	f := func(s *model.Scaling) string {
		if s == nil {
			return "-"
		}
		return itoa(s.Min) + ".." + itoa(s.Max) + "@" + formatPercent(s.Target)
	}
	return "read " + f(a.Read) + " write " + f(a.Write)
}

// A GSI ProvisionedCapacitySettings, which NoSQL Workbench models do not have but
// stwb's exports before this change wrote, is still read.
func TestWorkbenchGSICapacityStillRead(t *testing.T) {
	m := `{"ModelName": "m", "ModelMetadata": {"Version": "3.0"}, "DataModel": [{"TableName": "things",
	 "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}},
	 "GlobalSecondaryIndexes": [{"IndexName": "GSI1", "KeyAttributes": {"PartitionKey": {"AttributeName": "GPK", "AttributeType": "S"}}, "Projection": {"ProjectionType": "ALL"},
	   "ProvisionedCapacitySettings": {"ProvisionedThroughput": {"ReadCapacityUnits": 7, "WriteCapacityUnits": 3},
	     "AutoScalingRead": {"ScalableTargetRequest": {"MinCapacity": 2, "MaxCapacity": 9}, "ScalingPolicyConfiguration": {"TargetValue": 60}}}}],
	 "BillingMode": "PROVISIONED", "ProvisionedCapacitySettings": {"ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}}}]}`
	r, err := ImportWorkbench([]byte(m))
	if err != nil {
		t.Fatal(err)
	}
	g := r.Designs[0].Table.Indexes[0]
	if g.Read != 7 || g.Write != 3 || g.Autoscaling.Read == nil || *g.Autoscaling.Read != (model.Scaling{Min: 2, Max: 9, Target: 0.6}) {
		t.Fatalf("GSI %d/%d %s", g.Read, g.Write, scalingText(g.Autoscaling))
	}
}
