package live

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"stwb/model"
)

// TestCreateTableInput: every key attribute is defined once with its declared type,
// LSIs share the table's partition key, projections map to DynamoDB's, and a
// provisioned table gives its GSIs throughput (API_CreateTable.html).
func TestCreateTableInput(t *testing.T) {
	tbl := model.Table{Name: "t", Key: model.KeySchema{Partition: "PK", Sort: "SK"},
		Attributes: map[string]model.Type{"PK": model.TypeS, "SK": model.TypeN, "G": model.TypeB},
		Billing:    model.Billing{Mode: model.Provisioned, Read: 5, Write: 0},
		Indexes: []model.Index{
			{Name: "G1", Key: model.KeySchema{Partition: "G", Sort: "SK"}, Projection: model.Projection{Type: model.ProjectInclude, Include: []string{"a", "b"}}, Read: 7},
			{Name: "L1", Local: true, Key: model.KeySchema{Sort: "L"}, Projection: model.Projection{Type: model.ProjectKeysOnly}},
		}}
	in := CreateTableInput("custom", tbl)
	var defs []string
	for _, d := range in.AttributeDefinitions {
		defs = append(defs, aws.ToString(d.AttributeName)+":"+string(d.AttributeType))
	}
	cases := []struct{ what, got, want string }{
		{"name", aws.ToString(in.TableName), "custom"},
		{"definitions", strings.Join(defs, ","), "G:B,L:S,PK:S,SK:N"},
		{"billing", string(in.BillingMode), "PROVISIONED"},
		{"table throughput", fmtThroughput(in.ProvisionedThroughput), "5/1"},
		{"gsi throughput", fmtThroughput(in.GlobalSecondaryIndexes[0].ProvisionedThroughput), "7/1"},
		{"gsi projection", string(in.GlobalSecondaryIndexes[0].Projection.ProjectionType) + " " +
			strings.Join(in.GlobalSecondaryIndexes[0].Projection.NonKeyAttributes, ","), "INCLUDE a,b"},
		{"lsi key", aws.ToString(in.LocalSecondaryIndexes[0].KeySchema[0].AttributeName) + "/" +
			aws.ToString(in.LocalSecondaryIndexes[0].KeySchema[1].AttributeName), "PK/L"},
		{"lsi projection", string(in.LocalSecondaryIndexes[0].Projection.ProjectionType), "KEYS_ONLY"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.what, c.got, c.want)
		}
	}
	od := CreateTableInput("t", model.Table{Key: model.KeySchema{Partition: "PK"},
		Indexes: []model.Index{{Name: "G", Key: model.KeySchema{Partition: "X"}}}})
	if od.BillingMode != types.BillingModePayPerRequest || od.ProvisionedThroughput != nil ||
		od.GlobalSecondaryIndexes[0].ProvisionedThroughput != nil || od.GlobalSecondaryIndexes[0].Projection.ProjectionType != types.ProjectionTypeAll {
		t.Errorf("on-demand table: %+v", od)
	}
}

func fmtThroughput(p *types.ProvisionedThroughput) string {
	if p == nil {
		return "nil"
	}
	return strconv.FormatInt(aws.ToInt64(p.ReadCapacityUnits), 10) + "/" + strconv.FormatInt(aws.ToInt64(p.WriteCapacityUnits), 10)
}

func TestEndpointKinds(t *testing.T) {
	cases := []struct {
		endpoint    string
		loopback    bool
		aws, badURL bool
	}{
		{"", false, true, false},
		{"http://localhost:8000", true, false, false},
		{"http://127.0.0.1:4567", true, false, false},
		{"http://[::1]:8000", true, false, false},
		{"https://dynamodb.eu-west-1.amazonaws.com", false, true, false},
		{"http://dynamo.internal:8000", false, false, false},
		{"localhost:8000", false, false, true},
		{"ftp://localhost", false, false, true},
	}
	for _, c := range cases {
		lb, err := isLoopback(c.endpoint)
		if (err != nil) != c.badURL || lb != c.loopback || IsAWS(c.endpoint) != c.aws {
			t.Errorf("%q: loopback %v err %v aws %v; want %v, bad %v, aws %v", c.endpoint, lb, err, IsAWS(c.endpoint), c.loopback, c.badURL, c.aws)
		}
	}
}

func TestTagValueAndPlan(t *testing.T) {
	cases := []struct{ name, want string }{
		{"orders-service", "orders-service"},
		{"café orders", "caf- orders"},
		{"a/b:c=d+e@f_g.h", "a/b:c=d+e@f_g.h"},
		{strings.Repeat("n", 300), strings.Repeat("n", 256)},
	}
	for _, c := range cases {
		if got := TagValue(&model.Design{Name: c.name}); got != c.want {
			t.Errorf("TagValue(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	d := smallDesign()
	local := Plan(d, "tbl", "http://localhost:8000")
	aws := Plan(d, "tbl", "")
	for _, want := range []string{"table   tbl  key PK / SK", "GSI     GSI1  key GSI1PK / GSI1SK  projection ALL",
		"LSI     LSI1  key PK / placedAt  projection KEYS_ONLY", "items   5", "stwb:design=live-small"} {
		if !strings.Contains(local, want) {
			t.Errorf("plan lacks %q:\n%s", want, local)
		}
	}
	if strings.Contains(local, "billed") || !strings.Contains(aws, "billed to the account") {
		t.Errorf("the cost warning belongs to AWS only:\nlocal:\n%s\naws:\n%s", local, aws)
	}
}

// TestNewClientResolution: --profile and --region resolve as the AWS CLI's do
// (cli-configure-files.html): a flag wins over the profile, the profile over the
// defaults; a loopback endpoint without credentials gets dummy ones, and AWS itself
// without a region is an error naming the fix.
func TestNewClientResolution(t *testing.T) {
	dir := t.TempDir()
	cfgFile := dir + "/config"
	credFile := dir + "/credentials"
	if err := os.WriteFile(cfgFile, []byte("[profile team]\nregion = eu-west-3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(credFile, []byte("[team]\naws_access_key_id = AKIATEAM\naws_secret_access_key = secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_CONFIG_FILE", cfgFile)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", credFile)
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION"} {
		t.Setenv(k, "")
	}
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	cases := []struct {
		name       string
		cfg        Config
		wantRegion string
		wantKey    string
		wantErr    string
	}{
		{"profile gives region and keys", Config{Endpoint: "http://localhost:8000", Profile: "team"}, "eu-west-3", "AKIATEAM", ""},
		{"--region beats the profile", Config{Endpoint: "http://localhost:8000", Profile: "team", Region: "ap-south-1"}, "ap-south-1", "AKIATEAM", ""},
		{"loopback without anything", Config{Endpoint: "http://127.0.0.1:4567"}, "us-east-1", "stwb-local", ""},
		{"AWS without a region", Config{}, "", "", "no AWS region"},
		{"unknown profile", Config{Endpoint: "http://localhost:8000", Profile: "nobody"}, "", "", "nobody"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db, err := NewClient(context.Background(), c.cfg)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			o := db.Options()
			creds, err := o.Credentials.Retrieve(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if o.Region != c.wantRegion || creds.AccessKeyID != c.wantKey || aws.ToString(o.BaseEndpoint) != c.cfg.Endpoint {
				t.Fatalf("region %q key %q endpoint %q; want %q %q %q", o.Region, creds.AccessKeyID,
					aws.ToString(o.BaseEndpoint), c.wantRegion, c.wantKey, c.cfg.Endpoint)
			}
		})
	}
}

// TestCreateTableInputOnDemandMaximum: deploy creates an on-demand table with the
// design's maximum throughput, -1 (none) for a side the design leaves out
// (API_OnDemandThroughput.html), and none at all when the design sets neither.
func TestCreateTableInputOnDemandMaximum(t *testing.T) {
	tb := model.Table{Name: "t", Key: model.KeySchema{Partition: "PK"}, Billing: model.Billing{Mode: model.OnDemand, MaxWrite: 500}}
	in := CreateTableInput("t", tb)
	if o := in.OnDemandThroughput; o == nil || *o.MaxWriteRequestUnits != 500 || *o.MaxReadRequestUnits != -1 {
		t.Fatalf("OnDemandThroughput %+v", in.OnDemandThroughput)
	}
	tb.Billing.MaxWrite = 0
	if in := CreateTableInput("t", tb); in.OnDemandThroughput != nil {
		t.Errorf("a design with no maximum sent %+v", in.OnDemandThroughput)
	}
}
