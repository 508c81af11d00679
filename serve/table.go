package serve

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"sync"
	"time"

	"stwb/engine"
	"stwb/model"
	"stwb/throttle"
)

// table is one table served: its definition, the engine holding its items, and
// what the control plane stores beside them.
type table struct {
	def     model.Table
	eng     *engine.Engine
	arn, id string
	created time.Time
	// design is the name of the design the table came from ("" when created by
	// CreateTable).
	design string
	// attrs are the AttributeDefinitions in the order given (or the design's key
	// attributes, sorted).
	attrs  []attributeDefinition
	tags   []tag
	ttl    ttlSpec
	expiry *expiry // the items by expiry time while TTL is on (ttl.go)
	// live is the table's stream while enabled (nil when it has none); streams
	// are every stream it has had, live last (stream.go).
	live               *stream
	streams            []*stream
	deletionProtection bool
	billingChanged     time.Time
	// source and sourceItems are the design the table came from and its items, for
	// --throttle's split-for-heat rule (nil otherwise); charger is made from them
	// (throttle.go), under chargeMu since reads run side by side.
	source      *model.Design
	sourceItems []model.Item
	chargeMu    sync.Mutex
	charger     *throttle.Charger
}

type ttlSpec struct {
	attribute string
	enabled   bool
}

func (s *Server) tableARN(name string) string {
	return "arn:aws:dynamodb:" + s.region + ":" + s.account + ":table/" + name
}

// newTable is the state of a table made from a definition and an engine.
func (s *Server) newTable(def model.Table, e *engine.Engine) *table {
	now := s.now()
	sum := sha256.Sum256([]byte(def.Name + now.String()))
	h := hex.EncodeToString(sum[:16])
	t := &table{def: def, eng: e, arn: s.tableARN(def.Name), created: now,
		id: h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]}
	t.attrs = definitionsOf(def)
	return t
}

// definitionsOf lists a table's key attributes (table and indexes) once each with
// their types, sorted by name, as live.CreateTableInput defines them.
func definitionsOf(def model.Table) []attributeDefinition {
	seen := map[string]bool{}
	var out []attributeDefinition
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			out = append(out, attributeDefinition{AttributeName: n, AttributeType: def.KeyAttributeType(n).String()})
		}
	}
	add(def.Key.Partition)
	add(def.Key.Sort)
	for _, ix := range def.Indexes {
		for _, n := range def.IndexKey(&ix).Attributes() {
			add(n)
		}
	}
	slices.SortFunc(out, func(a, b attributeDefinition) int {
		if a.AttributeName < b.AttributeName {
			return -1
		}
		if a.AttributeName > b.AttributeName {
			return 1
		}
		return 0
	})
	return out
}

// lookup finds a table for an item operation, with DynamoDB's messages for a bad
// name and a missing table.
func (s *Server) lookup(name string) (*table, *apiError) {
	if err := checkTableName(name, "tableName"); err != nil {
		return nil, err
	}
	t, ok := s.tables[name]
	if !ok {
		return nil, itemTableNotFound()
	}
	return t, nil
}

// The wire shapes of the control plane (API_TableDescription.html and the
// members it names).

type attributeDefinition struct {
	AttributeName string
	AttributeType string
}

type keySchemaElement struct {
	AttributeName string
	KeyType       string
}

type projectionWire struct {
	ProjectionType   string   `json:",omitempty"`
	NonKeyAttributes []string `json:",omitempty"`
}

type throughputWire struct {
	ReadCapacityUnits  *int64 `json:",omitempty"`
	WriteCapacityUnits *int64 `json:",omitempty"`
}

type throughputDescription struct {
	NumberOfDecreasesToday int64
	ReadCapacityUnits      int64
	WriteCapacityUnits     int64
}

type streamSpecification struct {
	StreamEnabled  bool
	StreamViewType string `json:",omitempty"`
}

type tag struct {
	Key   string
	Value string
}

type indexDescription struct {
	IndexName             string
	KeySchema             []keySchemaElement
	Projection            projectionWire
	IndexStatus           string                 `json:",omitempty"`
	Backfilling           bool                   `json:",omitempty"`
	ProvisionedThroughput *throughputDescription `json:",omitempty"`
	IndexSizeBytes        int64
	ItemCount             int64
	IndexArn              string
}

type billingModeSummary struct {
	BillingMode                       string
	LastUpdateToPayPerRequestDateTime float64 `json:",omitempty"`
}

type tableClassSummary struct {
	TableClass string
}

type tableDescription struct {
	AttributeDefinitions      []attributeDefinition
	TableName                 string
	KeySchema                 []keySchemaElement
	TableStatus               string
	CreationDateTime          float64
	ProvisionedThroughput     throughputDescription
	TableSizeBytes            int64
	ItemCount                 int64
	TableArn                  string
	TableId                   string
	BillingModeSummary        *billingModeSummary  `json:",omitempty"`
	LocalSecondaryIndexes     []indexDescription   `json:",omitempty"`
	GlobalSecondaryIndexes    []indexDescription   `json:",omitempty"`
	StreamSpecification       *streamSpecification `json:",omitempty"`
	LatestStreamLabel         string               `json:",omitempty"`
	LatestStreamArn           string               `json:",omitempty"`
	TableClassSummary         *tableClassSummary   `json:",omitempty"`
	DeletionProtectionEnabled bool
}

func epoch(t time.Time) float64 { return float64(t.UnixMilli()) / 1000 }

// keySchemaOf is a key as DescribeTable gives it: a HASH element for each
// partition key attribute, then a RANGE element for each sort key attribute, in
// key order (several of each for a multi-attribute GSI key).
func keySchemaOf(ks model.KeySchema) []keySchemaElement {
	var out []keySchemaElement
	for _, n := range ks.Partitions() {
		out = append(out, keySchemaElement{n, "HASH"})
	}
	for _, n := range ks.Sorts() {
		out = append(out, keySchemaElement{n, "RANGE"})
	}
	return out
}

func projectionOf(p model.Projection) projectionWire {
	w := projectionWire{ProjectionType: string(p.Type)}
	if w.ProjectionType == "" {
		w.ProjectionType = string(model.ProjectAll)
	}
	if p.Type == model.ProjectInclude {
		w.NonKeyAttributes = slices.Clone(p.Include)
	}
	return w
}

const (
	payPerRequest = "PAY_PER_REQUEST"
	provisioned   = "PROVISIONED"
)

// describe is the table's TableDescription as the change c answers it (active
// after it); a GSI the change is creating is CREATING (and Backfilling, when added
// to an existing table), the others ACTIVE.
func (s *Server) describe(t *table, c changing) tableDescription {
	status := c.status
	n, size := t.eng.Size()
	d := tableDescription{
		AttributeDefinitions: t.attrs, TableName: t.def.Name, KeySchema: keySchemaOf(t.def.Key),
		TableStatus: status, CreationDateTime: epoch(t.created),
		TableSizeBytes: size, ItemCount: int64(n), TableArn: t.arn, TableId: t.id,
		DeletionProtectionEnabled: t.deletionProtection,
	}
	prov := t.def.Billing.Mode == model.Provisioned
	if prov {
		d.ProvisionedThroughput = throughputDescription{ReadCapacityUnits: t.def.Billing.Read, WriteCapacityUnits: t.def.Billing.Write}
		d.BillingModeSummary = &billingModeSummary{BillingMode: provisioned}
	} else {
		d.BillingModeSummary = &billingModeSummary{BillingMode: payPerRequest, LastUpdateToPayPerRequestDateTime: epoch(t.billingChanged)}
		if t.billingChanged.IsZero() {
			d.BillingModeSummary.LastUpdateToPayPerRequestDateTime = epoch(t.created)
		}
	}
	for _, ix := range t.def.Indexes {
		cnt, bytes, _ := t.eng.IndexSize(ix.Name)
		id := indexDescription{IndexName: ix.Name, KeySchema: keySchemaOf(t.def.IndexKey(&ix)), Projection: projectionOf(ix.Projection),
			IndexSizeBytes: bytes, ItemCount: int64(cnt), IndexArn: t.arn + "/index/" + ix.Name}
		if ix.Local {
			d.LocalSecondaryIndexes = append(d.LocalSecondaryIndexes, id)
			continue
		}
		id.IndexStatus = "ACTIVE"
		if slices.Contains(c.indexes, ix.Name) {
			id.IndexStatus, id.Backfilling = "CREATING", c.backfill
		}
		id.ProvisionedThroughput = &throughputDescription{}
		if prov {
			r, w := ix.Read, ix.Write
			if r == 0 {
				r = t.def.Billing.Read
			}
			if w == 0 {
				w = t.def.Billing.Write
			}
			id.ProvisionedThroughput.ReadCapacityUnits, id.ProvisionedThroughput.WriteCapacityUnits = r, w
		}
		d.GlobalSecondaryIndexes = append(d.GlobalSecondaryIndexes, id)
	}
	if t.live != nil {
		d.StreamSpecification = &streamSpecification{StreamEnabled: true, StreamViewType: t.live.viewType}
	}
	// The latest stream is named even once disabled, as DynamoDB names it.
	if n := len(t.streams); n > 0 {
		d.LatestStreamLabel = t.streams[n-1].label
		d.LatestStreamArn = t.streams[n-1].arn
	}
	if t.def.Class == model.ClassStandardIA {
		d.TableClassSummary = &tableClassSummary{TableClass: "STANDARD_INFREQUENT_ACCESS"}
	} else {
		d.TableClassSummary = &tableClassSummary{TableClass: "STANDARD"}
	}
	return d
}

// itemKey is the key of an item of t: its partition and sort key attributes.
func itemKey(t model.Table, it model.Item) model.Item {
	k := model.Item{t.Key.Partition: it[t.Key.Partition]}
	if t.Key.Sort != "" {
		k[t.Key.Sort] = it[t.Key.Sort]
	}
	return k
}
