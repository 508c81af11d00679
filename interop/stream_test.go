package interop

import (
	"strings"
	"testing"

	"stwb/model"
)

// A table's stream is in each infrastructure export as that tool declares it
// (AWS::DynamoDB::Table StreamSpecification.StreamViewType; aws_dynamodb_table
// stream_enabled and stream_view_type; TableV2 dynamoStream), and in none when the
// design declares none.
func TestStreamExported(t *testing.T) {
	d := &model.Design{Name: "s", Table: model.Table{Name: "s-data", Key: model.KeySchema{Partition: "PK"},
		Billing: model.Billing{Mode: model.OnDemand}, Stream: model.StreamNewAndOld}}
	for _, tc := range []struct {
		name   string
		export func(*model.Design) []byte
		want   []string
	}{
		{"CloudFormation", ExportCloudFormation, []string{"      StreamSpecification:\n        StreamViewType: NEW_AND_OLD_IMAGES\n"}},
		{"Terraform", ExportTerraform, []string{"stream_enabled", "= true", "stream_view_type", `= "NEW_AND_OLD_IMAGES"`}},
		{"CDK", ExportCDK, []string{"  dynamoStream: dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,\n"}},
	} {
		out := string(tc.export(d))
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: no %q in\n%s", tc.name, w, out)
			}
		}
		plain := *d
		plain.Table.Stream = ""
		if out := string(tc.export(&plain)); strings.Contains(strings.ToLower(out), "stream") {
			t.Errorf("%s: a table without a stream is exported with one:\n%s", tc.name, out)
		}
	}
}
