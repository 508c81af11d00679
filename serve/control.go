package serve

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"stwb/dynamojson"
	"stwb/engine"
	"stwb/model"
)

// The control plane: tables made, described, listed, changed and deleted, with
// DynamoDB's validations and messages (API_CreateTable.html, API_UpdateTable.html;
// the wording as dynalite validations/createTable.js and updateTable.js copy it).
// CreateTable answers CREATING and UpdateTable UPDATING, as DynamoDB does; the
// change is complete once answered (status.go says why).

type indexInput struct {
	IndexName             *string
	KeySchema             []keySchemaElement
	Projection            *projectionWire
	ProvisionedThroughput *throughputWire
}

type createTableInput struct {
	TableName                 *string
	AttributeDefinitions      []attributeDefinition
	KeySchema                 []keySchemaElement
	LocalSecondaryIndexes     []indexInput
	GlobalSecondaryIndexes    []indexInput
	BillingMode               *string
	ProvisionedThroughput     *throughputWire
	StreamSpecification       *streamSpecification
	TableClass                *string
	Tags                      []tag
	DeletionProtectionEnabled *bool
	OnDemandThroughput        *onDemandWire
}

// onDemandWire is an on-demand table's maximum throughput (API_OnDemandThroughput.html);
// -1 or absent is none. --throttle holds the table to it.
type onDemandWire struct {
	MaxReadRequestUnits  *int64 `json:",omitempty"`
	MaxWriteRequestUnits *int64 `json:",omitempty"`
}

type tableOutput struct {
	TableDescription tableDescription
}

func createTable(s *Server, in *createTableInput) (any, *apiError) {
	if in.TableName == nil {
		// A missing TableName is answered alone, before any other constraint, in
		// the words real DynamoDB answered (the conformance suite's capture,
		// "CreateTable — exact error messages").
		return nil, validationError("The parameter 'TableName' is required but was not present in the request")
	}
	var v violations
	v.checkName(in.TableName, "tableName")
	checkKeySchema(&v, in.KeySchema, "keySchema", 2)
	if in.AttributeDefinitions == nil {
		v.add("Value null at 'attributeDefinitions' failed to satisfy constraint: Member must not be null")
	}
	for i, a := range in.AttributeDefinitions {
		at := "attributeDefinitions." + strconv.Itoa(i+1) + ".member.attributeType"
		v.checkEnum(&a.AttributeType, at, "B", "N", "S")
	}
	for i, ix := range in.LocalSecondaryIndexes {
		checkIndexInput(&v, ix, "localSecondaryIndexes."+strconv.Itoa(i+1)+".member", 2)
	}
	for i, ix := range in.GlobalSecondaryIndexes {
		checkIndexInput(&v, ix, "globalSecondaryIndexes."+strconv.Itoa(i+1)+".member", maxGSIKeySchema)
	}
	v.checkEnum(in.BillingMode, "billingMode", provisioned, payPerRequest)
	v.checkEnum(in.TableClass, "tableClass", "STANDARD", "STANDARD_INFREQUENT_ACCESS")
	checkThroughput(&v, in.ProvisionedThroughput, "provisionedThroughput")
	if err := v.err(); err != nil {
		return nil, err
	}
	def, err := tableFromInput(in)
	if err != nil {
		return nil, err
	}
	if _, ok := s.tables[def.Name]; ok {
		return nil, inUse("Table already exists: %s", def.Name)
	}
	e, eerr := engine.New(def)
	if eerr != nil {
		return nil, fromEngine(eerr)
	}
	t := s.newTable(def, e)
	t.attrs = in.AttributeDefinitions
	t.tags = in.Tags
	if in.DeletionProtectionEnabled != nil {
		t.deletionProtection = *in.DeletionProtectionEnabled
	}
	if in.StreamSpecification != nil {
		if err := s.setStream(t, in.StreamSpecification); err != nil {
			return nil, err
		}
	}
	s.tables[def.Name] = t
	var gsis []string
	for _, ix := range def.Indexes {
		if !ix.Local {
			gsis = append(gsis, ix.Name)
		}
	}
	return tableOutput{s.describe(t, changing{status: "CREATING", indexes: gsis})}, nil
}

// maxGSIKeySchema is how many elements a GSI's KeySchema may have: four HASH and
// four RANGE (API_GlobalSecondaryIndex.html "KeySchema"; multi-attribute keys,
// GSI.DesignPattern.MultiAttributeKeys.html). A table's and an LSI's stay at two.
const maxGSIKeySchema = 2 * model.MaxKeyAttributes

// checkKeySchema adds the constraint violations of a KeySchema: given, one to most
// elements, each with a name and a HASH or RANGE type.
func checkKeySchema(v *violations, ks []keySchemaElement, at string, most int) {
	if ks == nil {
		v.add("Value null at '%s' failed to satisfy constraint: Member must not be null", at)
		return
	}
	if len(ks) < 1 || len(ks) > most {
		v.add("Value '%s' at '%s' failed to satisfy constraint: Member must have length less than or equal to %d", keySchemaText(ks), at, most)
	}
	for i, k := range ks {
		kt := k.KeyType
		v.checkEnum(&kt, at+"."+strconv.Itoa(i+1)+".member.keyType", "HASH", "RANGE")
	}
}

func keySchemaText(ks []keySchemaElement) string {
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = "KeySchemaElement(attributeName=" + k.AttributeName + ", keyType=" + k.KeyType + ")"
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func checkIndexInput(v *violations, ix indexInput, at string, most int) {
	v.checkName(ix.IndexName, at+".indexName")
	checkKeySchema(v, ix.KeySchema, at+".keySchema", most)
	if ix.Projection == nil {
		v.add("Value null at '%s.projection' failed to satisfy constraint: Member must not be null", at)
	} else if ix.Projection.ProjectionType != "" {
		pt := ix.Projection.ProjectionType
		v.checkEnum(&pt, at+".projection.projectionType", "ALL", "INCLUDE", "KEYS_ONLY")
	}
	checkThroughput(v, ix.ProvisionedThroughput, at+".provisionedThroughput")
}

func checkThroughput(v *violations, t *throughputWire, at string) {
	if t == nil {
		return
	}
	if t.ReadCapacityUnits == nil {
		v.add("Value null at '%s.readCapacityUnits' failed to satisfy constraint: Member must not be null", at)
	}
	if t.WriteCapacityUnits == nil {
		v.add("Value null at '%s.writeCapacityUnits' failed to satisfy constraint: Member must not be null", at)
	}
	v.checkMin(t.ReadCapacityUnits, at+".readCapacityUnits", 1)
	v.checkMin(t.WriteCapacityUnits, at+".writeCapacityUnits", 1)
}

// tableFromInput checks a CreateTable request's definitions against each other, as
// DynamoDB does after the constraints, and makes the table definition.
func tableFromInput(in *createTableInput) (model.Table, *apiError) {
	def := model.Table{Name: *in.TableName, Attributes: map[string]model.Type{}}
	if err := duplicateDefinition(in.AttributeDefinitions); err != nil {
		return def, err
	}
	ppr := in.BillingMode != nil && *in.BillingMode == payPerRequest
	if ppr {
		if in.ProvisionedThroughput != nil {
			return def, validationError("One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST")
		}
		def.Billing.Mode = model.OnDemand
		if o := in.OnDemandThroughput; o != nil {
			if o.MaxReadRequestUnits != nil && *o.MaxReadRequestUnits > 0 {
				def.Billing.MaxRead = *o.MaxReadRequestUnits
			}
			if o.MaxWriteRequestUnits != nil && *o.MaxWriteRequestUnits > 0 {
				def.Billing.MaxWrite = *o.MaxWriteRequestUnits
			}
		}
	} else {
		if in.ProvisionedThroughput == nil {
			return def, validationError("One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED")
		}
		def.Billing = model.Billing{Mode: model.Provisioned, Read: *in.ProvisionedThroughput.ReadCapacityUnits, Write: *in.ProvisionedThroughput.WriteCapacityUnits}
	}
	if in.TableClass != nil && *in.TableClass == "STANDARD_INFREQUENT_ACCESS" {
		def.Class = model.ClassStandardIA
	}
	var defns []string
	for _, a := range in.AttributeDefinitions {
		defns = append(defns, a.AttributeName)
		t, _ := model.ParseType(a.AttributeType)
		def.Attributes[a.AttributeName] = t
	}
	keys := names(in.KeySchema)
	if len(keys) > len(defns) {
		return def, validationError("Invalid KeySchema: Some index key attribute have no definition")
	}
	if err := keysDefined(keys, defns); err != nil {
		return def, err
	}
	if err := keyOrder(in.KeySchema); err != nil {
		return def, err
	}
	def.Key = schemaOf(in.KeySchema)
	used := slices.Clone(keys)
	seen := map[string]bool{}
	if in.LocalSecondaryIndexes != nil && len(in.LocalSecondaryIndexes) == 0 {
		return def, validationError("One or more parameter values were invalid: List of LocalSecondaryIndexes is empty")
	}
	if len(in.LocalSecondaryIndexes) > 0 && def.Key.Sort == "" {
		return def, validationError("One or more parameter values were invalid: Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex")
	}
	for _, ix := range in.LocalSecondaryIndexes {
		mi, err := indexFromInput(ix, defns, seen, ppr)
		if err != nil {
			return def, err
		}
		if len(ix.KeySchema) != 2 {
			return def, validationError("One or more parameter values were invalid: Index KeySchema does not have a range key for index: %s", mi.Name)
		}
		if mi.Key.Partition != def.Key.Partition {
			return def, validationError("One or more parameter values were invalid: Index KeySchema does not have the same leading hash key as table KeySchema for index: %s. index hash key: %s, table hash key: %s", mi.Name, mi.Key.Partition, def.Key.Partition)
		}
		mi.Local = true
		used = append(used, names(ix.KeySchema)...)
		def.Indexes = append(def.Indexes, mi)
	}
	if len(in.LocalSecondaryIndexes) > 5 {
		return def, validationError("One or more parameter values were invalid: Number of LocalSecondaryIndexes exceeds per-table limit of 5")
	}
	if in.GlobalSecondaryIndexes != nil && len(in.GlobalSecondaryIndexes) == 0 {
		return def, validationError("One or more parameter values were invalid: List of GlobalSecondaryIndexes is empty")
	}
	for _, ix := range in.GlobalSecondaryIndexes {
		mi, err := indexFromInput(ix, defns, seen, ppr)
		if err != nil {
			return def, err
		}
		if !ppr && ix.ProvisionedThroughput == nil {
			return def, validationError("One or more parameter values were invalid: ProvisionedThroughput is not specified for index: %s", mi.Name)
		}
		used = append(used, names(ix.KeySchema)...)
		def.Indexes = append(def.Indexes, mi)
	}
	if len(in.GlobalSecondaryIndexes) > 20 {
		return def, validationError("One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the per-table limit of 20")
	}
	if err := allDefinitionsUsed(defns, used); err != nil {
		return def, err
	}
	return def, nil
}

// duplicateDefinition refuses an attribute named twice in AttributeDefinitions,
// whatever its types, in DynamoDB's words ("Attribute Name is duplicated: x", a
// ValidationException; real DynamoDB's answer in scylladb/scylladb#13870).
func duplicateDefinition(defs []attributeDefinition) *apiError {
	seen := make(map[string]bool, len(defs))
	for _, a := range defs {
		if seen[a.AttributeName] {
			return validationError("Attribute Name is duplicated: %s", a.AttributeName)
		}
		seen[a.AttributeName] = true
	}
	return nil
}

// allDefinitionsUsed refuses an AttributeDefinitions entry no key uses (DynamoDB:
// "Some AttributeDefinitions are not used"; API_CreateTable.html
// "AttributeDefinitions": "An array of attributes that describe the key schema for
// the table and indexes").
func allDefinitionsUsed(defns, used []string) *apiError {
	var distinct []string
	for _, u := range used {
		if !slices.Contains(distinct, u) {
			distinct = append(distinct, u)
		}
	}
	for _, d := range defns {
		if !slices.Contains(distinct, d) {
			return validationError("One or more parameter values were invalid: Some AttributeDefinitions are not used. AttributeDefinitions: [%s], keys used: [%s]", strings.Join(defns, ", "), strings.Join(distinct, ", "))
		}
	}
	return nil
}

func names(ks []keySchemaElement) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = k.AttributeName
	}
	return out
}

func keysDefined(keys, defns []string) *apiError {
	for _, k := range keys {
		if !slices.Contains(defns, k) {
			return validationError("One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [%s], AttributeDefinitions: [%s]", strings.Join(keys, ", "), strings.Join(defns, ", "))
		}
	}
	return nil
}

func keyOrder(ks []keySchemaElement) *apiError {
	if len(ks) == 2 && ks[0].AttributeName == ks[1].AttributeName {
		return validationError("Both the Hash Key and the Range Key element in the KeySchema have the same name")
	}
	if ks[0].KeyType != "HASH" {
		return validationError("Invalid KeySchema: The first KeySchemaElement is not a HASH key type")
	}
	if len(ks) == 2 && ks[1].KeyType != "RANGE" {
		return validationError("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type")
	}
	return nil
}

// schemaOf is a checked KeySchema as a key: its HASH elements in order, then its
// RANGE elements.
func schemaOf(ks []keySchemaElement) model.KeySchema {
	var parts, sorts []string
	for _, k := range ks {
		if k.KeyType == "HASH" {
			parts = append(parts, k.AttributeName)
		} else {
			sorts = append(sorts, k.AttributeName)
		}
	}
	return model.NewKeySchema(parts, sorts)
}

// multiKeyOrder checks a GSI KeySchema of more than two elements (a
// multi-attribute key): the HASH elements first, then the RANGE elements, at most
// model.MaxKeyAttributes of each, every attribute once. The first element's and
// the repeated name's messages are DynamoDB's for a two-element key; no capture
// of DynamoDB's answer to a HASH after a RANGE or to a fifth attribute on one
// side was found, so those say the rule in DynamoDB's form.
func multiKeyOrder(ks []keySchemaElement) *apiError {
	if ks[0].KeyType != "HASH" {
		return validationError("Invalid KeySchema: The first KeySchemaElement is not a HASH key type")
	}
	for i, k := range ks {
		if slices.ContainsFunc(ks[:i], func(o keySchemaElement) bool { return o.AttributeName == k.AttributeName }) {
			return validationError("Both the Hash Key and the Range Key element in the KeySchema have the same name")
		}
		if i > 0 && k.KeyType == "HASH" && ks[i-1].KeyType == "RANGE" {
			return validationError("Invalid KeySchema: All HASH key elements must come before the RANGE key elements")
		}
	}
	key := schemaOf(ks)
	for _, side := range []struct {
		kind  string
		names []string
	}{{"HASH", key.Partitions()}, {"RANGE", key.Sorts()}} {
		if len(side.names) > model.MaxKeyAttributes {
			return validationError("One or more parameter values were invalid: Invalid KeySchema: a key may have at most %d %s key elements, found %d",
				model.MaxKeyAttributes, side.kind, len(side.names))
		}
	}
	return nil
}

// indexFromInput checks one index of CreateTable or UpdateTable's Create and makes
// its definition.
func indexFromInput(ix indexInput, defns []string, seen map[string]bool, ppr bool) (model.Index, *apiError) {
	name := *ix.IndexName
	if err := keysDefined(names(ix.KeySchema), defns); err != nil {
		return model.Index{}, err
	}
	order := keyOrder
	if len(ix.KeySchema) > 2 {
		order = multiKeyOrder
	}
	if err := order(ix.KeySchema); err != nil {
		return model.Index{}, err
	}
	p := ix.Projection
	if p.ProjectionType == "" {
		return model.Index{}, validationError("One or more parameter values were invalid: Unknown ProjectionType: null")
	}
	if p.NonKeyAttributes != nil && p.ProjectionType != "INCLUDE" {
		return model.Index{}, validationError("One or more parameter values were invalid: ProjectionType is %s, but NonKeyAttributes is specified", p.ProjectionType)
	}
	if ppr && ix.ProvisionedThroughput != nil {
		return model.Index{}, validationError("One or more parameter values were invalid: ProvisionedThroughput should not be specified for index: %s when BillingMode is PAY_PER_REQUEST", name)
	}
	if seen[name] {
		return model.Index{}, validationError("One or more parameter values were invalid: Duplicate index name: %s", name)
	}
	seen[name] = true
	mi := model.Index{Name: name, Key: schemaOf(ix.KeySchema),
		Projection: model.Projection{Type: model.ProjectionType(p.ProjectionType), Include: slices.Clone(p.NonKeyAttributes)}}
	if ix.ProvisionedThroughput != nil {
		mi.Read, mi.Write = *ix.ProvisionedThroughput.ReadCapacityUnits, *ix.ProvisionedThroughput.WriteCapacityUnits
	}
	return mi, nil
}

// setStream checks a StreamSpecification of CreateTable or UpdateTable against
// the table and applies it: enabling gives the table a new stream, disabling
// closes the current one (stream.go).
func (s *Server) setStream(t *table, spec *streamSpecification) *apiError {
	if spec.StreamEnabled {
		vt := spec.StreamViewType
		if vt == "" {
			return validationError("One or more parameter values were invalid: Enabled streams must have a StreamViewType")
		}
		var v violations
		v.checkEnum(&vt, "streamSpecification.streamViewType", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY")
		if err := v.err(); err != nil {
			return err
		}
		if t.live != nil {
			return validationError("Table already has an enabled stream: %s", t.live.arn)
		}
		s.enableStream(t, vt)
		return nil
	}
	if spec.StreamViewType != "" {
		return validationError("One or more parameter values were invalid: Disabled streams must not have a StreamViewType")
	}
	if t.live == nil {
		return validationError("Table already has no stream")
	}
	s.disableStream(t)
	return nil
}

type tableNameInput struct {
	TableName *string
}

// tableByName checks a control-plane request's TableName and finds the table.
func (s *Server) tableByName(name *string) (*table, *apiError) {
	var v violations
	v.checkName(name, "tableName")
	if err := v.err(); err != nil {
		return nil, err
	}
	t, ok := s.tables[*name]
	if !ok {
		return nil, tableNotFound(*name)
	}
	return t, nil
}

func describeTable(s *Server, in *tableNameInput) (any, *apiError) {
	t, err := s.tableByName(in.TableName)
	if err != nil {
		return nil, err
	}
	return struct{ Table tableDescription }{s.describe(t, active)}, nil
}

func deleteTable(s *Server, in *tableNameInput) (any, *apiError) {
	t, err := s.tableByName(in.TableName)
	if err != nil {
		return nil, err
	}
	if t.deletionProtection {
		return nil, validationError("Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.")
	}
	d := s.describe(t, changing{status: "DELETING"})
	delete(s.tables, t.def.Name)
	// Its streams outlive it by 24 hours (stream.go).
	s.disableStream(t)
	s.dropped = append(s.dropped, t.streams...)
	return tableOutput{d}, nil
}

type listTablesInput struct {
	ExclusiveStartTableName *string
	Limit                   *int64
}

func listTables(s *Server, in *listTablesInput) (any, *apiError) {
	var v violations
	if in.ExclusiveStartTableName != nil {
		v.checkName(in.ExclusiveStartTableName, "exclusiveStartTableName")
	}
	v.checkMin(in.Limit, "limit", 1)
	if in.Limit != nil && *in.Limit > 100 {
		v.add("Value '%d' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100", *in.Limit)
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	limit := 100
	if in.Limit != nil {
		limit = int(*in.Limit)
	}
	all := make([]string, 0, len(s.tables))
	for n := range s.tables {
		if in.ExclusiveStartTableName == nil || n > *in.ExclusiveStartTableName {
			all = append(all, n)
		}
	}
	slices.Sort(all)
	out := struct {
		TableNames             []string
		LastEvaluatedTableName string `json:",omitempty"`
	}{TableNames: all}
	if len(all) > limit {
		out.TableNames = all[:limit]
		out.LastEvaluatedTableName = all[limit-1]
	}
	return out, nil
}

type gsiUpdate struct {
	Create *indexInput
	Delete *struct{ IndexName *string }
	Update *struct {
		IndexName             *string
		ProvisionedThroughput *throughputWire
	}
}

type updateTableInput struct {
	TableName                   *string
	AttributeDefinitions        []attributeDefinition
	BillingMode                 *string
	ProvisionedThroughput       *throughputWire
	GlobalSecondaryIndexUpdates []gsiUpdate
	StreamSpecification         *streamSpecification
	TableClass                  *string
	DeletionProtectionEnabled   *bool
}

func updateTable(s *Server, in *updateTableInput) (any, *apiError) {
	var v violations
	v.checkName(in.TableName, "tableName")
	v.checkEnum(in.BillingMode, "billingMode", provisioned, payPerRequest)
	v.checkEnum(in.TableClass, "tableClass", "STANDARD", "STANDARD_INFREQUENT_ACCESS")
	checkThroughput(&v, in.ProvisionedThroughput, "provisionedThroughput")
	for i, u := range in.GlobalSecondaryIndexUpdates {
		if u.Create != nil {
			checkIndexInput(&v, *u.Create, "globalSecondaryIndexUpdates."+strconv.Itoa(i+1)+".member.create", maxGSIKeySchema)
		}
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	if in.ProvisionedThroughput == nil && in.BillingMode == nil && in.StreamSpecification == nil &&
		len(in.GlobalSecondaryIndexUpdates) == 0 && in.TableClass == nil && in.DeletionProtectionEnabled == nil {
		return nil, validationError("At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required")
	}
	t, err := s.tableByName(in.TableName)
	if err != nil {
		return nil, err
	}
	if err := duplicateDefinition(in.AttributeDefinitions); err != nil {
		return nil, err
	}
	// Work on a copy of the definition: nothing changes unless all of it is valid.
	def := t.def
	def.Indexes = slices.Clone(t.def.Indexes)
	def.Attributes = map[string]model.Type{}
	for k, ty := range t.def.Attributes {
		def.Attributes[k] = ty
	}
	billingChanged := false
	if in.BillingMode != nil || in.ProvisionedThroughput != nil {
		mode := t.def.Billing.Mode
		if in.BillingMode != nil {
			mode = model.OnDemand
			if *in.BillingMode == provisioned {
				mode = model.Provisioned
			}
		}
		if mode == model.OnDemand && in.ProvisionedThroughput != nil {
			return nil, validationError("One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST")
		}
		if mode == model.Provisioned && t.def.Billing.Mode != model.Provisioned && in.ProvisionedThroughput == nil {
			return nil, validationError("One or more parameter values were invalid: ProvisionedThroughput must be specified when BillingMode is PROVISIONED")
		}
		if in.ProvisionedThroughput != nil {
			r, w := *in.ProvisionedThroughput.ReadCapacityUnits, *in.ProvisionedThroughput.WriteCapacityUnits
			if mode == t.def.Billing.Mode && r == t.def.Billing.Read && w == t.def.Billing.Write {
				return nil, validationError("The provisioned throughput for the table will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned for the table: %d. Requested ReadCapacityUnits: %d. Current WriteCapacityUnits provisioned for the table: %d. Requested WriteCapacityUnits: %d. Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.", t.def.Billing.Read, r, t.def.Billing.Write, w)
			}
			def.Billing.Read, def.Billing.Write = r, w
		}
		billingChanged = mode == model.OnDemand && t.def.Billing.Mode != model.OnDemand
		def.Billing.Mode = mode
		if mode == model.OnDemand {
			def.Billing.Read, def.Billing.Write = 0, 0
		}
	}
	if in.TableClass != nil {
		def.Class = model.ClassStandard
		if *in.TableClass == "STANDARD_INFREQUENT_ACCESS" {
			def.Class = model.ClassStandardIA
		}
	}
	attrs := t.attrs
	rebuild := false
	seen := map[string]bool{}
	for _, u := range in.GlobalSecondaryIndexUpdates {
		n := 0
		var name string
		if u.Create != nil {
			n++
			name = *u.Create.IndexName
		}
		if u.Delete != nil {
			n++
			if u.Delete.IndexName != nil {
				name = *u.Delete.IndexName
			}
		}
		if u.Update != nil {
			n++
			if u.Update.IndexName != nil {
				name = *u.Update.IndexName
			}
		}
		if n != 1 {
			return nil, validationError("One or more parameter values were invalid: One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be null")
		}
		if seen[name] {
			return nil, validationError("One or more parameter values were invalid: Only one global secondary index update per index is allowed simultaneously. Index: %s", name)
		}
		seen[name] = true
		at := slices.IndexFunc(def.Indexes, func(ix model.Index) bool { return ix.Name == name && !ix.Local })
		switch {
		case u.Create != nil:
			if slices.ContainsFunc(def.Indexes, func(ix model.Index) bool { return ix.Name == name }) {
				return nil, validationError("One or more parameter values were invalid: Index with name: %s already exists", name)
			}
			attrs = mergeDefinitions(attrs, in.AttributeDefinitions)
			var defns []string
			for _, a := range attrs {
				defns = append(defns, a.AttributeName)
				ty, _ := model.ParseType(a.AttributeType)
				def.Attributes[a.AttributeName] = ty
			}
			mi, err := indexFromInput(*u.Create, defns, map[string]bool{}, def.Billing.Mode == model.OnDemand)
			if err != nil {
				return nil, err
			}
			if def.Billing.Mode == model.Provisioned && u.Create.ProvisionedThroughput == nil {
				return nil, validationError("One or more parameter values were invalid: ProvisionedThroughput is not specified for index: %s", name)
			}
			def.Indexes = append(def.Indexes, mi)
			rebuild = true
		case at < 0:
			return nil, notFound("Requested resource not found: Index: %s not found", name)
		case u.Delete != nil:
			def.Indexes = slices.Delete(def.Indexes, at, at+1)
			rebuild = true
		default:
			if def.Billing.Mode != model.Provisioned {
				return nil, validationError("One or more parameter values were invalid: ProvisionedThroughput should not be specified for index: %s when BillingMode is PAY_PER_REQUEST", name)
			}
			if u.Update.ProvisionedThroughput == nil {
				return nil, validationError("1 validation error detected: Value null at 'globalSecondaryIndexUpdates.member.update.provisionedThroughput' failed to satisfy constraint: Member must not be null")
			}
			def.Indexes[at].Read = *u.Update.ProvisionedThroughput.ReadCapacityUnits
			def.Indexes[at].Write = *u.Update.ProvisionedThroughput.WriteCapacityUnits
		}
	}
	if rebuild {
		attrs = usedDefinitions(attrs, def)
	}
	// The stream last: its checks are the last that can refuse the request.
	if in.StreamSpecification != nil {
		if err := s.setStream(t, in.StreamSpecification); err != nil {
			return nil, err
		}
	}
	if rebuild {
		e, err := s.backfill(def, t.eng)
		if err != nil {
			return nil, err
		}
		t.eng = e
	}
	if billingChanged {
		t.billingChanged = s.now()
	}
	t.def, t.attrs = def, attrs
	if in.DeletionProtectionEnabled != nil {
		t.deletionProtection = *in.DeletionProtectionEnabled
	}
	var created []string
	for _, u := range in.GlobalSecondaryIndexUpdates {
		if u.Create != nil {
			created = append(created, *u.Create.IndexName)
		}
	}
	return tableOutput{s.describe(t, changing{status: "UPDATING", indexes: created, backfill: true})}, nil
}

// mergeDefinitions adds UpdateTable's AttributeDefinitions to the table's.
func mergeDefinitions(have, add []attributeDefinition) []attributeDefinition {
	out := slices.Clone(have)
	for _, a := range add {
		if i := slices.IndexFunc(out, func(b attributeDefinition) bool { return b.AttributeName == a.AttributeName }); i >= 0 {
			out[i] = a
		} else {
			out = append(out, a)
		}
	}
	return out
}

// usedDefinitions keeps the definitions of attributes some key still uses: an
// index's key attributes leave the table's definitions with the index.
func usedDefinitions(attrs []attributeDefinition, def model.Table) []attributeDefinition {
	used := map[string]bool{def.Key.Partition: true, def.Key.Sort: true}
	for _, ix := range def.Indexes {
		for _, n := range def.IndexKey(&ix).Attributes() {
			used[n] = true
		}
	}
	var out []attributeDefinition
	for _, a := range attrs {
		if used[a.AttributeName] {
			out = append(out, a)
		}
	}
	return out
}

// backfill makes the engine for a changed definition and fills it with the old
// engine's items (engine.Rebuild): an item whose value for a new index's key has
// another type, or is empty, stays in the table and out of the index, as DynamoDB
// leaves it (an index key violation, GSI.OnlineOps.ViolationDetection.html); the
// UpdateTable is not refused. DynamoDB reports violations only through its
// violation detector, so serve names them on its log.
func (s *Server) backfill(def model.Table, old *engine.Engine) (*engine.Engine, *apiError) {
	e, bad, err := old.Rebuild(def)
	if err != nil {
		return nil, fromEngine(err)
	}
	if len(bad) > 0 && s.opts.Log != nil {
		const shown = 5
		var b strings.Builder
		for i, v := range bad[:min(len(bad), shown)] {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(itemText(def, v.Key) + " (" + v.Index + "." + v.Attribute + ")")
		}
		if len(bad) > shown {
			b.WriteString(", ...")
		}
		fmt.Fprintf(s.opts.Log, "stwb serve: UpdateTable %s: %d items left out of the new index: their key attribute has another type or is empty (index key violations, GSI.OnlineOps.ViolationDetection.html); writes to them are refused until fixed: %s\n",
			def.Name, len(bad), b.String())
	}
	return e, nil
}

func itemText(t model.Table, it model.Item) string {
	k := model.Item{t.Key.Partition: it[t.Key.Partition]}
	if t.Key.Sort != "" {
		k[t.Key.Sort] = it[t.Key.Sort]
	}
	return string(dynamojson.AppendItem(nil, k))
}

type describeLimitsOutput struct {
	AccountMaxReadCapacityUnits  int64
	AccountMaxWriteCapacityUnits int64
	TableMaxReadCapacityUnits    int64
	TableMaxWriteCapacityUnits   int64
}

// describeLimits gives DynamoDB's default quotas for provisioned throughput
// (ServiceQuotas.html "Throughput default quotas": 80,000 per account, 40,000 per
// table, each of reads and writes).
func describeLimits(s *Server, _ *struct{}) (any, *apiError) {
	return describeLimitsOutput{80000, 80000, 40000, 40000}, nil
}
