package cost

import (
	"encoding/json"
	"strings"
	"testing"

	"stwb/engine"
	"stwb/model"
)

// The --json shape: the fields always; the autoscaling and configured
// figures only when the design sets them; every index listed under perRequest.
func TestReportJSON(t *testing.T) {
	cases := []struct {
		name    string
		billing model.Billing
		has     []string
		hasNot  []string
	}{
		{"on-demand", model.Billing{}, []string{
			`"region":"us-east-1"`, `"billing":"on-demand"`,
			`"perRequest":{"read":0.5,"write":0,"table":0.5,"indexes":{"GSI1":0,"LSI1":0}`,
			`"perSecond":{"read":100,"write":0`, `"monthly":{"onDemand":32.85`,
			`"hotPartition":{"read":6.947953777315174,"write":0,"meanRead":0.0001,"meanWrite":0,"partitions":1000000,"rule":"many","value":"CUST#{customerId}"`,
			`"spread":"Zipf s=1 over 1,000,000 values: hottest 6.9%","exceeds":false,"shards":1,"on":"table","anyExceeds":false`,
			`"keys":[{"on":"table","read":6.947953777315174`, `"totalRead":100,"totalWrite":0,"patterns":[1]}]`,
			`"storage":{"table":{"items":51000002`, `"error":null`,
		}, []string{`provisionedAtTarget`, `"configured"`}},
		{"provisioned with a target", model.Billing{Mode: model.Provisioned, Read: 10, Write: 10, Target: 0.5},
			[]string{`"billing":"provisioned"`, `"provisionedAtTarget":`, `"configured":`, `"targetRcu":200`, `"configuredRcu":10`, `"short":true`}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := testDesign()
			d.Items = []model.Item{{"PK": model.Str("X"), "SK": model.Str("Y")}}
			d.Table.Billing = c.billing
			d.Patterns = []model.Pattern{{ID: 1, Name: "Get", Rate: 200, Operation: model.OpGetItem,
				Key: model.Item{"PK": model.Str("CUST#42"), "SK": model.Str("PROFILE")}}}
			r, err := Compute(Input{Design: d, Results: resultsByID{1: {Consumed: capOf(0.5, 0, nil)}}.of(d)})
			if err != nil {
				t.Fatal(err)
			}
			js, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.has {
				if !strings.Contains(string(js), w) {
					t.Errorf("lacks %s in\n%s", w, js)
				}
			}
			for _, w := range c.hasNot {
				if strings.Contains(string(js), w) {
					t.Errorf("has %s", w)
				}
			}
		})
	}
}

// A Query on a GSI reports, at the top of hotPartition, the GSI key it reads.
func TestReportJSONHotOnIndex(t *testing.T) {
	d := testDesign()
	d.Patterns = []model.Pattern{{ID: 4, Rate: 10, Partitions: 2, Operation: model.OpQuery, Index: "GSI1", KeyCondition: "GSI1PK = :s",
		Values: map[string]model.Value{":s": model.Str("STATUS#NEW")}}}
	r, err := Compute(Input{Design: d, Results: resultsByID{4: {Pages: []engine.Page{{
		Consumed: engine.Capacity{Indexes: map[string]engine.Units{"GSI1": {Read: 2}}}}}}}.of(d)})
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(r)
	want := `"hotPartition":{"read":10,"write":0,"meanRead":10,"meanWrite":0,"partitions":2,"rule":"pattern","value":"STATUS#{status}","because":"the pattern's partitions: 2 values, an even spread","spread":"even over 2 values (the pattern's partitions)","exceeds":false,"shards":1,"on":"GSI1"`
	if !strings.Contains(string(js), want) {
		t.Errorf("lacks %s in\n%s", want, js)
	}
}
