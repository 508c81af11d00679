package interop

import (
	"strings"
	"testing"

	"stwb/model"
)

// A design's TTL goes into each infrastructure template the way its tool takes it:
// CloudFormation's TimeToLiveSpecification (AWS::DynamoDB::Table), Terraform's ttl
// block (aws_dynamodb_table), CDK's timeToLiveAttribute (TableV2).
func TestTTLExported(t *testing.T) {
	d := &model.Design{Name: "s", Table: model.Table{Name: "s-data", Key: model.KeySchema{Partition: "PK", Sort: "SK"},
		Billing: model.Billing{Mode: model.OnDemand}, TTL: "expiresAt"}}
	for name, c := range map[string]struct {
		out  []byte
		want string
	}{
		"cloudformation": {ExportCloudFormation(d), "TimeToLiveSpecification:\n        AttributeName: expiresAt\n        Enabled: true"},
		"terraform":      {ExportTerraform(d), "ttl {\n    attribute_name = \"expiresAt\"\n    enabled        = true\n  }"},
		"cdk":            {ExportCDK(d), "timeToLiveAttribute: 'expiresAt',"},
	} {
		if !strings.Contains(string(c.out), c.want) {
			t.Errorf("%s lacks %q:\n%s", name, c.want, c.out)
		}
		d2 := *d
		d2.Table.TTL = ""
		for _, out := range [][]byte{ExportCloudFormation(&d2), ExportTerraform(&d2), ExportCDK(&d2)} {
			if strings.Contains(strings.ToLower(string(out)), "timetolive") || strings.Contains(string(out), "ttl {") {
				t.Errorf("%s: a design without TTL exports one:\n%s", name, out)
			}
		}
	}
}
