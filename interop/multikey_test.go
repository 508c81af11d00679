package interop

import (
	"strings"
	"testing"

	"stwb/samples"
)

// TestMultiAttributeIndexExports: each format writes a multi-attribute GSI key
// (GSI.DesignPattern.MultiAttributeKeys.html) as it can carry it: CloudFormation
// a HASH element per partition attribute and a RANGE per sort attribute, every
// one in AttributeDefinitions; Terraform key_schema blocks (the AWS provider's
// global_secondary_index key_schema, hash_key and range_key left out); CDK
// TableV2 partitionKeys and sortKeys; the Markdown document every attribute in
// key order; a NoSQL Workbench model, whose index holds one attribute a side,
// leaves the index out with a note rather than write it on its first attributes.
func TestMultiAttributeIndexExports(t *testing.T) {
	f, err := samples.Load("tournament-matches")
	if err != nil {
		t.Fatal(err)
	}
	d := f.Design
	cases := []struct {
		format string
		want   []string
		not    []string
	}{
		{"cloudformation", []string{
			"- AttributeName: tournamentId\n              KeyType: HASH\n            - AttributeName: region\n              KeyType: HASH\n            - AttributeName: round\n              KeyType: RANGE\n            - AttributeName: bracket\n              KeyType: RANGE\n            - AttributeName: matchId\n              KeyType: RANGE",
			"- AttributeName: round\n          AttributeType: N"}, nil},
		{"terraform", []string{
			"    key_schema {\n      attribute_name = \"tournamentId\"\n      key_type       = \"HASH\"\n    }\n\n    key_schema {\n      attribute_name = \"region\"\n      key_type       = \"HASH\"\n    }",
			"    key_schema {\n      attribute_name = \"matchId\"\n      key_type       = \"RANGE\"\n    }\n  }",
			"  attribute {\n    name = \"round\"\n    type = \"N\"\n  }"},
			[]string{`hash_key        = "tournamentId"`}},
		{"cdk", []string{
			"partitionKeys: [\n        { name: 'tournamentId', type: dynamodb.AttributeType.STRING },\n        { name: 'region', type: dynamodb.AttributeType.STRING },\n      ],",
			"sortKeys: [\n        { name: 'round', type: dynamodb.AttributeType.NUMBER },"},
			[]string{"partitionKey: { name: 'tournamentId'"}},
		{"markdown", []string{"| ByRegionRound | GSI  | `tournamentId`, `region` | `round`, `bracket`, `matchId` | ALL        |"}, nil},
		{"workbench", []string{"index ByRegionRound has a multi-attribute key"}, []string{`"IndexName": "ByRegionRound"`}},
	}
	for _, c := range cases {
		out, err := Export(d, c.format, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.format, err)
		}
		text := string(out.Files[0].Data) + "\n" + strings.Join(out.Notes, "\n")
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s lacks\n%s\nin\n%s", c.format, w, text)
			}
		}
		for _, n := range c.not {
			if strings.Contains(text, n) {
				t.Errorf("%s holds %q", c.format, n)
			}
		}
	}
}
