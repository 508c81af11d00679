package interop

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"stwb/model"
)

// The resource shapes follow the AWS::DynamoDB::Table reference (CloudFormation User
// Guide, aws-resource-dynamodb-table.html), the Terraform AWS provider's
// aws_dynamodb_table page, and the CDK's aws_dynamodb.TableV2 API reference.

func onDemandDesign() *model.Design {
	d := ordersDesign()
	d.Table.Billing = model.Billing{Mode: model.OnDemand}
	d.Table.Class = ""
	d.Table.Indexes = d.Table.Indexes[:1]
	return d
}

func TestInfraGolden(t *testing.T) {
	cases := []struct {
		name string
		fn   func(*model.Design) []byte
		ext  string
	}{
		{"cloudformation", ExportCloudFormation, "yaml"},
		{"terraform", ExportTerraform, "tf"},
		{"cdk", ExportCDK, "ts"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkGolden(t, "orders."+c.name+"."+c.ext, c.fn(ordersDesign()))
			checkGolden(t, "ondemand."+c.name+"."+c.ext, c.fn(onDemandDesign()))
		})
	}
}

// The CloudFormation template must be YAML that says what the design says.
func TestCloudFormationContent(t *testing.T) {
	var tmpl map[string]any
	if err := yaml.Unmarshal(ExportCloudFormation(ordersDesign()), &tmpl); err != nil {
		t.Fatal(err)
	}
	// get walks maps by key and lists by index.
	get := func(path ...any) any {
		var x any = tmpl
		for _, p := range path {
			switch k := p.(type) {
			case string:
				m, _ := x.(map[string]any)
				x = m[k]
			case int:
				l, _ := x.([]any)
				if k >= len(l) {
					return nil
				}
				x = l[k]
			}
		}
		return x
	}
	props := []any{"Resources", "OrdersServiceData", "Properties"}
	at := func(p ...any) any { return get(append(append([]any{}, props...), p...)...) }
	if get("Resources", "OrdersServiceData", "Type") != "AWS::DynamoDB::Table" {
		t.Fatalf("no table resource: %v", tmpl["Resources"])
	}
	var defs []string
	for i := 0; at("AttributeDefinitions", i) != nil; i++ {
		defs = append(defs, at("AttributeDefinitions", i, "AttributeName").(string)+":"+at("AttributeDefinitions", i, "AttributeType").(string))
	}
	// Only key attributes: PK, SK, the GSIs' keys and the LSI's sort key; not
	// customerId, email or any other item attribute.
	if want := []string{"PK:S", "SK:S", "GSI1PK:S", "GSI1SK:S", "placedAt:S", "total:N"}; !reflect.DeepEqual(defs, want) {
		t.Errorf("AttributeDefinitions %v, want %v", defs, want)
	}
	checks := []struct {
		path []any
		want any
	}{
		{[]any{"BillingMode"}, "PROVISIONED"},
		{[]any{"ProvisionedThroughput", "ReadCapacityUnits"}, 100},
		{[]any{"ProvisionedThroughput", "WriteCapacityUnits"}, 50},
		{[]any{"TableClass"}, "STANDARD_INFREQUENT_ACCESS"},
		{[]any{"PointInTimeRecoverySpecification", "PointInTimeRecoveryEnabled"}, true},
		{[]any{"KeySchema", 1, "KeyType"}, "RANGE"},
		{[]any{"GlobalSecondaryIndexes", 0, "Projection", "ProjectionType"}, "INCLUDE"},
		{[]any{"GlobalSecondaryIndexes", 0, "Projection", "NonKeyAttributes", 1}, "total"},
		{[]any{"GlobalSecondaryIndexes", 1, "ProvisionedThroughput", "ReadCapacityUnits"}, 100},
		{[]any{"LocalSecondaryIndexes", 0, "KeySchema", 0, "AttributeName"}, "PK"},
		{[]any{"LocalSecondaryIndexes", 0, "KeySchema", 1, "AttributeName"}, "placedAt"},
		{[]any{"LocalSecondaryIndexes", 0, "ProvisionedThroughput"}, nil},
	}
	for _, c := range checks {
		if got := at(c.path...); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v = %#v, want %#v", c.path, got, c.want)
		}
	}
}

func TestYAMLScalar(t *testing.T) {
	cases := map[string]string{
		"orders": "orders", "GSI1-PK": "GSI1-PK", "true": `"true"`, "12": `"12"`, "": `""`,
		"a: b": `"a: b"`, "-x": `"-x"`, "#c": `"#c"`, "State#Date": `"State#Date"`, "美": `"美"`,
	}
	for in, want := range cases {
		got := yamlScalar(in)
		if got != want {
			t.Errorf("yamlScalar(%q) = %s, want %s", in, got, want)
		}
		var back string
		if err := yaml.Unmarshal([]byte("v: "+got), &struct{ V *string }{&back}); err != nil || back != in {
			t.Errorf("%q read back as %q (%v)", in, back, err)
		}
	}
}

// terraform fmt both parses the HCL and holds it to Terraform's layout.
func TestTerraformFormatted(t *testing.T) {
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not installed")
	}
	for _, d := range []*model.Design{ordersDesign(), onDemandDesign()} {
		dir := t.TempDir()
		path := filepath.Join(dir, "main.tf")
		if err := os.WriteFile(path, ExportTerraform(d), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(tf, "fmt", "-check", "-diff", path).CombinedOutput()
		if err != nil {
			t.Errorf("terraform fmt -check: %v\n%s", err, out)
		}
	}
}

// The CDK snippet is checked for syntax by node: wrapped in a class constructor
// (the snippet uses `this`), it has no TypeScript-only syntax, so node --check
// parses it as JavaScript.
func TestCDKSyntax(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	src := "class Stack {\n  constructor() {\n" + string(ExportCDK(ordersDesign())) + "\n  }\n}\n"
	path := filepath.Join(t.TempDir(), "stack.mjs")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(node, "--check", path).CombinedOutput(); err != nil {
		t.Fatalf("node --check: %v\n%s\n%s", err, out, src)
	}
	if !strings.Contains(src, "new dynamodb.TableV2(this, 'OrdersServiceData'") {
		t.Error("no TableV2 construct")
	}
}

func TestNames(t *testing.T) {
	cases := []struct{ in, logical, snake string }{
		{"orders-service-data", "OrdersServiceData", "orders_service_data"},
		{"2024_events", "Table2024Events", "table_2024_events"},
		{"美", "Table", "table_"},
	}
	for _, c := range cases {
		if got := logicalName(c.in); got != c.logical {
			t.Errorf("logicalName(%q) = %q, want %q", c.in, got, c.logical)
		}
		if got := snakeName(c.in); got != c.snake {
			t.Errorf("snakeName(%q) = %q, want %q", c.in, got, c.snake)
		}
	}
}
