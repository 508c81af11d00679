package interop

// Infrastructure code for the design's table: CloudFormation, Terraform and CDK.
// All three say the same things, taken from one place (tableSpec):
//   - AttributeDefinitions only for key attributes of the table and its indexes:
//     DynamoDB refuses a definition that no key uses
//     (AWS::DynamoDB::Table AttributeDefinitions, "must be used in a KeySchema");
//   - the key schema, GSIs and LSIs with their projections;
//   - billing mode and provisioned capacity; GSIs on a provisioned table get their
//     own capacity or, when the design gives none, the table's;
//   - autoscaling, read and write separately, of the table and of each GSI
//     (Application Auto Scaling target tracking: a scalable target with min and
//     max, and a policy with the target utilisation);
//   - the table class;
//   - point-in-time recovery on, as the architecture note of the seeds advises.

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"stwb/dynamojson"
	"stwb/model"
)

// tableSpec is what the infrastructure exporters write, resolved from a design.
type tableSpec struct {
	Name        string
	Key         model.KeySchema
	Attrs       []attrDef // key attributes, in first-use order
	Provisioned bool
	Read, Write int64
	// Scale is the table's autoscaling; Guessed when it comes from a bare
	// billing.provisioned.target, scaled between 1 and the provisioned figure.
	Scale      model.Autoscaling
	Guessed    bool
	ClassIA    bool
	Stream     string // the stream's view type as DynamoDB names it; "" for none
	GSIs, LSIs []indexSpec
}

type attrDef struct {
	Name string
	Type model.Type
}

type indexSpec struct {
	Name        string
	Key         model.KeySchema
	Projection  model.ProjectionType
	Include     []string
	Read, Write int64 // GSIs on a provisioned table
	Scale       model.Autoscaling
}

func specOf(d *model.Design) tableSpec {
	t := &d.Table
	s := tableSpec{Name: t.Name, Key: t.Key, ClassIA: t.Class == model.ClassStandardIA, Stream: t.Stream.ViewType(),
		Provisioned: t.Billing.Mode == model.Provisioned, Read: t.Billing.Read, Write: t.Billing.Write}
	if s.Provisioned {
		s.Scale, s.Guessed = tableAutoscaling(&t.Billing)
	}
	for _, a := range model.KeyAttributeNames(t) {
		s.Attrs = append(s.Attrs, attrDef{a, t.KeyAttributeType(a)})
	}
	for _, ix := range t.Indexes {
		is := indexSpec{Name: ix.Name, Key: ix.Key, Projection: projType(ix.Projection), Include: ix.Projection.Include}
		if ix.Local {
			is.Key.Partition = t.Key.Partition
			s.LSIs = append(s.LSIs, is)
			continue
		}
		if s.Provisioned {
			is.Read, is.Write = ix.Read, ix.Write
			if is.Read == 0 {
				is.Read = s.Read
			}
			if is.Write == 0 {
				is.Write = s.Write
			}
			is.Scale = ix.Autoscaling
		}
		s.GSIs = append(s.GSIs, is)
	}
	return s
}

// tableAutoscaling is the table's autoscaling as the exports write it: the
// design's billing.provisioned.autoscaling, or, for a design that gives only a
// target, both capacities at that target between 1 unit and the provisioned
// figure (guessed: the one reading that never provisions more than the design).
func tableAutoscaling(b *model.Billing) (a model.Autoscaling, guessed bool) {
	if !b.Autoscaling.IsZero() || b.Target <= 0 {
		return b.Autoscaling, false
	}
	return model.Autoscaling{Read: &model.Scaling{Min: 1, Max: max(b.Read, 1), Target: b.Target},
		Write: &model.Scaling{Min: 1, Max: max(b.Write, 1), Target: b.Target}}, true
}

// scaledCapacity is one autoscaled capacity of the table or of a GSI, as
// Application Auto Scaling names it (AutoScaling.HowTo.CLI.html: service
// namespace dynamodb, resource "table/NAME" or "table/NAME/index/INDEX",
// dimension dynamodb:table:ReadCapacityUnits and its three siblings, metric
// DynamoDBReadCapacityUtilization or DynamoDBWriteCapacityUtilization).
type scaledCapacity struct {
	Index string // "" for the table
	Side  string // "Read" or "Write"
	model.Scaling
}

func (c scaledCapacity) dimension() string {
	kind := "table"
	if c.Index != "" {
		kind = "index"
	}
	return "dynamodb:" + kind + ":" + c.Side + "CapacityUnits"
}

func (c scaledCapacity) metric() string { return "DynamoDB" + c.Side + "CapacityUtilization" }

// suffix names the capacity inside resource names: "Read", "Gsi1Write".
func (c scaledCapacity) suffix() string { return capitalWords(c.Index) + c.Side }

// scaledCapacities lists every autoscaled capacity: the table's read and
// write, then each GSI's.
func (s *tableSpec) scaledCapacities() []scaledCapacity {
	var out []scaledCapacity
	add := func(index string, a model.Autoscaling) {
		if a.Read != nil {
			out = append(out, scaledCapacity{index, "Read", *a.Read})
		}
		if a.Write != nil {
			out = append(out, scaledCapacity{index, "Write", *a.Write})
		}
	}
	add("", s.Scale)
	for _, ix := range s.GSIs {
		add(ix.Name, ix.Scale)
	}
	return out
}

// logicalName turns a table name into a CloudFormation logical ID or CDK construct
// id: letters and digits only, each word capitalised ("orders-service-data" ->
// "OrdersServiceData").
func logicalName(name string) string {
	s := capitalWords(name)
	if s == "" || unicode.IsDigit(rune(s[0])) {
		s = "Table" + s
	}
	return s
}

// snakeName turns a table name into a Terraform resource name.
func snakeName(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else if b.Len() > 0 && !strings.HasSuffix(b.String(), "_") {
			b.WriteByte('_')
		}
	}
	s := strings.TrimSuffix(b.String(), "_")
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		s = "table_" + s
	}
	return s
}

// yamlScalar writes a string so YAML reads it back as that string: plain when that
// is safe, otherwise double-quoted (a JSON string is a valid YAML double-quoted
// scalar).
func yamlScalar(s string) string {
	plain := s != ""
	for i, r := range s {
		ok := r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '/' || (i > 0 && (r == '-' || r == '.')))
		if !ok {
			plain = false
			break
		}
	}
	if plain {
		switch strings.ToLower(s) {
		case "true", "false", "yes", "no", "on", "off", "null", "y", "n":
			plain = false
		}
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			plain = false
		}
	}
	if plain {
		return s
	}
	return string(dynamojson.AppendString(nil, s))
}

// ExportCloudFormation writes an AWS::DynamoDB::Table resource in a template.
func ExportCloudFormation(d *model.Design) []byte {
	s := specOf(d)
	var b strings.Builder
	w := func(indent int, format string, args ...any) {
		b.WriteString(strings.Repeat("  ", indent))
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
	}
	// A HASH element per partition key attribute, then a RANGE element per sort
	// key attribute: several of each for a multi-attribute GSI key
	// (AWS::DynamoDB::Table GlobalSecondaryIndex KeySchema; cfn-lint accepts them
	// since aws-cloudformation/cfn-lint#4402).
	keySchema := func(indent int, k model.KeySchema) {
		w(indent, "KeySchema:")
		for _, a := range k.Partitions() {
			w(indent+1, "- AttributeName: %s", yamlScalar(a))
			w(indent+1, "  KeyType: HASH")
		}
		for _, a := range k.Sorts() {
			w(indent+1, "- AttributeName: %s", yamlScalar(a))
			w(indent+1, "  KeyType: RANGE")
		}
	}
	projection := func(indent int, ix indexSpec) {
		w(indent, "Projection:")
		w(indent+1, "ProjectionType: %s", ix.Projection)
		if len(ix.Include) > 0 {
			w(indent+1, "NonKeyAttributes:")
			for _, a := range ix.Include {
				w(indent+2, "- %s", yamlScalar(a))
			}
		}
	}
	throughput := func(indent int, r, wr int64) {
		w(indent, "ProvisionedThroughput:")
		w(indent+1, "ReadCapacityUnits: %d", r)
		w(indent+1, "WriteCapacityUnits: %d", wr)
	}
	w(0, "AWSTemplateFormatVersion: \"2010-09-09\"")
	w(0, "Description: %s", yamlScalar("DynamoDB table of the "+designName(d)+" design (generated by stwb)"))
	w(0, "Resources:")
	w(1, "%s:", logicalName(s.Name))
	w(2, "Type: AWS::DynamoDB::Table")
	w(2, "Properties:")
	w(3, "TableName: %s", yamlScalar(s.Name))
	w(3, "AttributeDefinitions:")
	for _, a := range s.Attrs {
		w(4, "- AttributeName: %s", yamlScalar(a.Name))
		w(4, "  AttributeType: %s", a.Type)
	}
	keySchema(3, s.Key)
	if s.Provisioned {
		w(3, "BillingMode: PROVISIONED")
		throughput(3, s.Read, s.Write)
	} else {
		w(3, "BillingMode: PAY_PER_REQUEST")
	}
	if s.ClassIA {
		w(3, "TableClass: STANDARD_INFREQUENT_ACCESS")
	} else {
		w(3, "TableClass: STANDARD")
	}
	if s.Stream != "" {
		w(3, "StreamSpecification:")
		w(4, "StreamViewType: %s", s.Stream)
	}
	w(3, "PointInTimeRecoverySpecification:")
	w(4, "PointInTimeRecoveryEnabled: true")
	if d.Table.TTL != "" {
		w(3, "TimeToLiveSpecification:")
		w(4, "AttributeName: %s", yamlScalar(d.Table.TTL))
		w(4, "Enabled: true")
	}
	if len(s.GSIs) > 0 {
		w(3, "GlobalSecondaryIndexes:")
		for _, ix := range s.GSIs {
			w(4, "- IndexName: %s", yamlScalar(ix.Name))
			keySchema(5, ix.Key)
			projection(5, ix)
			if s.Provisioned {
				throughput(5, ix.Read, ix.Write)
			}
		}
	}
	if len(s.LSIs) > 0 {
		w(3, "LocalSecondaryIndexes:")
		for _, ix := range s.LSIs {
			w(4, "- IndexName: %s", yamlScalar(ix.Name))
			keySchema(5, ix.Key)
			projection(5, ix)
		}
	}
	table := logicalName(s.Name)
	for _, c := range s.scaledCapacities() {
		target := table + c.suffix() + "Scaling"
		resource := "table/${" + table + "}"
		if c.Index != "" {
			resource += "/index/" + c.Index
		}
		w(1, "%s:", target)
		w(2, "Type: AWS::ApplicationAutoScaling::ScalableTarget")
		w(2, "Properties:")
		w(3, "ServiceNamespace: dynamodb")
		w(3, "ScalableDimension: %s", c.dimension())
		w(3, "ResourceId: !Sub %s", yamlScalar(resource))
		w(3, "MinCapacity: %d", c.Min)
		w(3, "MaxCapacity: %d", c.Max)
		if s.Guessed {
			w(3, "# billing.provisioned.target gives no bounds: 1 to the provisioned capacity")
		}
		w(1, "%sPolicy:", target)
		w(2, "Type: AWS::ApplicationAutoScaling::ScalingPolicy")
		w(2, "Properties:")
		w(3, "PolicyName: %s", yamlScalar(strings.ToLower(s.Name+"-"+strings.Join(strings.Fields(c.Index+" "+c.Side), "-"))+"-scaling"))
		w(3, "PolicyType: TargetTrackingScaling")
		w(3, "ScalingTargetId: !Ref %s", target)
		w(3, "TargetTrackingScalingPolicyConfiguration:")
		w(4, "TargetValue: %s", formatPercent(c.Target))
		w(4, "PredefinedMetricSpecification:")
		w(5, "PredefinedMetricType: %s", c.metric())
	}
	w(0, "Outputs:")
	w(1, "TableArn:")
	w(2, "Value: !GetAtt %s.Arn", logicalName(s.Name))
	return []byte(b.String())
}

func designName(d *model.Design) string {
	if d.Name != "" {
		return d.Name
	}
	return d.Table.Name
}

// formatPercent writes a utilisation fraction as a percentage without float noise.
func formatPercent(f float64) string {
	return strconv.FormatFloat(percentOf(f), 'f', -1, 64)
}

// hclString quotes a string for HCL: JSON escaping, plus "${" and "%{" doubled so
// Terraform does not read them as interpolation.
func hclString(s string) string {
	q := string(dynamojson.AppendString(nil, s))
	q = strings.ReplaceAll(q, "${", "$${")
	return strings.ReplaceAll(q, "%{", "%%{")
}

// hclBlock collects one block's attribute lines so their "=" can be aligned as
// terraform fmt aligns them.
type hclBlock struct {
	indent int
	lines  [][2]string // name, value; a name "" is written as is (a nested block)
}

func (h *hclBlock) set(name, value string) { h.lines = append(h.lines, [2]string{name, value}) }
func (h *hclBlock) raw(text string)        { h.lines = append(h.lines, [2]string{"", text}) }

func (h *hclBlock) write(b *strings.Builder) {
	pad := strings.Repeat("  ", h.indent)
	// terraform fmt aligns each run of consecutive attributes on its own.
	for i := 0; i < len(h.lines); {
		if h.lines[i][0] == "" {
			b.WriteString(h.lines[i][1])
			i++
			continue
		}
		j, width := i, 0
		for ; j < len(h.lines) && h.lines[j][0] != ""; j++ {
			width = max(width, len(h.lines[j][0]))
		}
		for _, l := range h.lines[i:j] {
			fmt.Fprintf(b, "%s%-*s = %s\n", pad, width, l[0], l[1])
		}
		i = j
	}
}

// ExportTerraform writes an aws_dynamodb_table resource (AWS provider).
func ExportTerraform(d *model.Design) []byte {
	s := specOf(d)
	top := &hclBlock{indent: 1}
	top.set("name", hclString(s.Name))
	if s.Provisioned {
		top.set("billing_mode", `"PROVISIONED"`)
		top.set("read_capacity", strconv.FormatInt(s.Read, 10))
		top.set("write_capacity", strconv.FormatInt(s.Write, 10))
	} else {
		top.set("billing_mode", `"PAY_PER_REQUEST"`)
	}
	top.set("hash_key", hclString(s.Key.Partition))
	if s.Key.Sort != "" {
		top.set("range_key", hclString(s.Key.Sort))
	}
	if s.ClassIA {
		top.set("table_class", `"STANDARD_INFREQUENT_ACCESS"`)
	} else {
		top.set("table_class", `"STANDARD"`)
	}
	if s.Stream != "" {
		top.set("stream_enabled", "true")
		top.set("stream_view_type", hclString(s.Stream))
	}
	nested := func(name string, fill func(h *hclBlock)) {
		h := &hclBlock{indent: 2}
		fill(h)
		var nb strings.Builder
		nb.WriteString("\n  " + name + " {\n")
		h.write(&nb)
		nb.WriteString("  }\n")
		top.raw(nb.String())
	}
	for _, a := range s.Attrs {
		nested("attribute", func(h *hclBlock) {
			h.set("name", hclString(a.Name))
			h.set("type", hclString(a.Type.String()))
		})
	}
	projection := func(h *hclBlock, ix indexSpec) {
		h.set("projection_type", hclString(string(ix.Projection)))
		if len(ix.Include) > 0 {
			q := make([]string, len(ix.Include))
			for i, a := range ix.Include {
				q[i] = hclString(a)
			}
			h.set("non_key_attributes", "["+strings.Join(q, ", ")+"]")
		}
	}
	for _, ix := range s.GSIs {
		nested("global_secondary_index", func(h *hclBlock) {
			h.set("name", hclString(ix.Name))
			if !ix.Key.Multi() {
				h.set("hash_key", hclString(ix.Key.Partition))
				if ix.Key.Sort != "" {
					h.set("range_key", hclString(ix.Key.Sort))
				}
			}
			projection(h, ix)
			if ix.Key.Multi() {
				// A multi-attribute key is key_schema blocks, HASH then RANGE in key
				// order (the AWS provider's aws_dynamodb_table global_secondary_index
				// key_schema: "up to 4 attributes with key_type = HASH and up to 4
				// with key_type = RANGE"; hash_key and range_key are mutually
				// exclusive with it).
				var kb strings.Builder
				for _, side := range [2]struct {
					kind  string
					names []string
				}{{"HASH", ix.Key.Partitions()}, {"RANGE", ix.Key.Sorts()}} {
					for _, a := range side.names {
						fmt.Fprintf(&kb, "\n    key_schema {\n      attribute_name = %s\n      key_type       = %q\n    }\n", hclString(a), side.kind)
					}
				}
				h.raw(kb.String())
			}
			if s.Provisioned {
				h.set("read_capacity", strconv.FormatInt(ix.Read, 10))
				h.set("write_capacity", strconv.FormatInt(ix.Write, 10))
			}
		})
	}
	for _, ix := range s.LSIs {
		nested("local_secondary_index", func(h *hclBlock) {
			h.set("name", hclString(ix.Name))
			h.set("range_key", hclString(ix.Key.Sort))
			projection(h, ix)
		})
	}
	nested("point_in_time_recovery", func(h *hclBlock) { h.set("enabled", "true") })
	if d.Table.TTL != "" {
		nested("ttl", func(h *hclBlock) {
			h.set("attribute_name", hclString(d.Table.TTL))
			h.set("enabled", "true")
		})
	}
	scaled := s.scaledCapacities()
	if !s.Scale.IsZero() {
		// Autoscaling changes the table's capacity; without this the next apply
		// would set it back (the AWS provider's advice for aws_dynamodb_table).
		var ignore []string
		if s.Scale.Read != nil {
			ignore = append(ignore, "read_capacity")
		}
		if s.Scale.Write != nil {
			ignore = append(ignore, "write_capacity")
		}
		nested("lifecycle", func(h *hclBlock) { h.set("ignore_changes", "["+strings.Join(ignore, ", ")+"]") })
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# DynamoDB table of the %s design (generated by stwb).\n", strings.ReplaceAll(designName(d), "\n", " "))
	table := snakeName(s.Name)
	fmt.Fprintf(&b, "resource \"aws_dynamodb_table\" %s {\n", hclString(table))
	top.write(&b)
	b.WriteString("}\n")
	for _, c := range scaled {
		name := table + "_" + snakeName(c.Index+" "+c.Side)
		resource := `"table/${aws_dynamodb_table.` + table + `.name}`
		if c.Index != "" {
			resource += "/index/" + c.Index
		}
		resource += `"`
		if s.Guessed {
			b.WriteString("\n# billing.provisioned.target gives no bounds: 1 to the provisioned capacity.")
		}
		fmt.Fprintf(&b, "\nresource \"aws_appautoscaling_target\" %s {\n", hclString(name))
		t := &hclBlock{indent: 1}
		t.set("max_capacity", strconv.FormatInt(c.Max, 10))
		t.set("min_capacity", strconv.FormatInt(c.Min, 10))
		t.set("resource_id", resource)
		t.set("scalable_dimension", hclString(c.dimension()))
		t.set("service_namespace", `"dynamodb"`)
		t.write(&b)
		b.WriteString("}\n")
		fmt.Fprintf(&b, "\nresource \"aws_appautoscaling_policy\" %s {\n", hclString(name))
		p := &hclBlock{indent: 1}
		ref := "aws_appautoscaling_target." + name
		p.set("name", hclString(strings.ReplaceAll(name, "_", "-")+"-scaling"))
		p.set("policy_type", `"TargetTrackingScaling"`)
		p.set("resource_id", ref+".resource_id")
		p.set("scalable_dimension", ref+".scalable_dimension")
		p.set("service_namespace", ref+".service_namespace")
		p.raw("\n  target_tracking_scaling_policy_configuration {\n" +
			"    predefined_metric_specification {\n" +
			"      predefined_metric_type = " + hclString(c.metric()) + "\n" +
			"    }\n" +
			"    target_value = " + formatPercent(c.Target) + "\n" +
			"  }\n")
		p.write(&b)
		b.WriteString("}\n")
	}
	return []byte(b.String())
}

// tsString quotes a string for TypeScript with single quotes, the CDK's style.
func tsString(s string) string {
	q := string(dynamojson.AppendString(nil, s))
	inner := q[1 : len(q)-1]
	inner = strings.ReplaceAll(inner, `\"`, `"`)
	inner = strings.ReplaceAll(inner, `'`, `\'`)
	return "'" + inner + "'"
}

func cdkAttrType(t model.Type) string {
	switch t {
	case model.TypeN:
		return "dynamodb.AttributeType.NUMBER"
	case model.TypeB:
		return "dynamodb.AttributeType.BINARY"
	}
	return "dynamodb.AttributeType.STRING"
}

// ExportCDK writes a TypeScript snippet for a CDK stack's constructor: a
// dynamodb.TableV2 with the design's keys, indexes, billing, autoscaling and
// class. TableV2 cannot fix write capacity (Capacity.fixed is read-only), so a
// provisioned write figure that is not autoscaled becomes autoscaled with min =
// max. A GSI given no capacity of its own inherits the table's, in TableV2 as in
// the design.
func ExportCDK(d *model.Design) []byte {
	s := specOf(d)
	t := &d.Table
	var b strings.Builder
	w := func(indent int, format string, args ...any) {
		b.WriteString(strings.Repeat("  ", indent))
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
	}
	key := func(indent int, field, name string) {
		w(indent, "%s: { name: %s, type: %s },", field, tsString(name), cdkAttrType(t.KeyAttributeType(name)))
	}
	keys := func(indent int, field string, names []string) {
		w(indent, "%s: [", field)
		for _, n := range names {
			w(indent+1, "{ name: %s, type: %s },", tsString(n), cdkAttrType(t.KeyAttributeType(n)))
		}
		w(indent, "],")
	}
	capacity := func(units int64, sc *model.Scaling, write bool) string {
		switch {
		case sc != nil:
			return fmt.Sprintf("dynamodb.Capacity.autoscaled({ minCapacity: %d, maxCapacity: %d, targetUtilizationPercent: %s })", sc.Min, sc.Max, formatPercent(sc.Target))
		case write:
			return fmt.Sprintf("dynamodb.Capacity.autoscaled({ minCapacity: %d, maxCapacity: %d })", units, units)
		}
		return fmt.Sprintf("dynamodb.Capacity.fixed(%d)", units)
	}
	projection := func(indent int, ix indexSpec) {
		switch ix.Projection {
		case model.ProjectKeysOnly:
			w(indent, "projectionType: dynamodb.ProjectionType.KEYS_ONLY,")
		case model.ProjectInclude:
			w(indent, "projectionType: dynamodb.ProjectionType.INCLUDE,")
			q := make([]string, len(ix.Include))
			for i, a := range ix.Include {
				q[i] = tsString(a)
			}
			w(indent, "nonKeyAttributes: [%s],", strings.Join(q, ", "))
		default:
			w(indent, "projectionType: dynamodb.ProjectionType.ALL,")
		}
	}
	w(0, "// DynamoDB table of the %s design (generated by stwb).", strings.ReplaceAll(designName(d), "\n", " "))
	w(0, "// In a Stack's constructor; needs: import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';")
	w(0, "const table = new dynamodb.TableV2(this, %s, {", tsString(logicalName(s.Name)))
	w(1, "tableName: %s,", tsString(s.Name))
	key(1, "partitionKey", s.Key.Partition)
	if s.Key.Sort != "" {
		key(1, "sortKey", s.Key.Sort)
	}
	if s.Provisioned {
		w(1, "billing: dynamodb.Billing.provisioned({")
		if s.Guessed {
			w(2, "// billing.provisioned.target gives no bounds: 1 to the provisioned capacity")
		}
		w(2, "readCapacity: %s,", capacity(s.Read, s.Scale.Read, false))
		w(2, "writeCapacity: %s,", capacity(s.Write, s.Scale.Write, true))
		w(1, "}),")
	} else {
		w(1, "billing: dynamodb.Billing.onDemand(),")
	}
	if s.ClassIA {
		w(1, "tableClass: dynamodb.TableClass.STANDARD_INFREQUENT_ACCESS,")
	} else {
		w(1, "tableClass: dynamodb.TableClass.STANDARD,")
	}
	if s.Stream != "" {
		w(1, "dynamoStream: dynamodb.StreamViewType.%s,", s.Stream)
	}
	w(1, "pointInTimeRecovery: true,")
	if d.Table.TTL != "" {
		w(1, "timeToLiveAttribute: %s,", tsString(d.Table.TTL))
	}
	if len(s.GSIs) > 0 {
		w(1, "globalSecondaryIndexes: [")
		for _, ix := range s.GSIs {
			w(2, "{")
			w(3, "indexName: %s,", tsString(ix.Name))
			switch {
			case ix.Key.Multi():
				// TableV2's multi-attribute keys (GlobalSecondaryIndexPropsV2
				// partitionKeys and sortKeys, aws-cdk-lib 2.226.0).
				keys(3, "partitionKeys", ix.Key.Partitions())
				if ix.Key.Sort != "" {
					keys(3, "sortKeys", ix.Key.Sorts())
				}
			default:
				key(3, "partitionKey", ix.Key.Partition)
				if ix.Key.Sort != "" {
					key(3, "sortKey", ix.Key.Sort)
				}
			}
			projection(3, ix)
			if s.Provisioned && (ix.Read != s.Read || ix.Write != s.Write || !ix.Scale.IsZero()) {
				w(3, "readCapacity: %s,", capacity(ix.Read, ix.Scale.Read, false))
				w(3, "writeCapacity: %s,", capacity(ix.Write, ix.Scale.Write, true))
			}
			w(2, "},")
		}
		w(1, "],")
	}
	if len(s.LSIs) > 0 {
		w(1, "localSecondaryIndexes: [")
		for _, ix := range s.LSIs {
			w(2, "{")
			w(3, "indexName: %s,", tsString(ix.Name))
			key(3, "sortKey", ix.Key.Sort)
			projection(3, ix)
			w(2, "},")
		}
		w(1, "],")
	}
	w(0, "});")
	return []byte(b.String())
}
