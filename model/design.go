package model

import (
	"fmt"
	"slices"
	"strings"
)

// The design file's types (FORMAT.md, version 1). Validation lives in validate.go;
// reading and writing the file, in package designfile. This file only says what a
// design is.

// Pos is a place in a design file, for error messages: file:line:col.
type Pos struct {
	File string
	Line int
	Col  int
}

// Design is one design file: a table, its entities, sample items and access patterns.
type Design struct {
	Version     int
	Name        string
	Description string
	Region      string // prices region; "" means us-east-1
	Table       Table
	Entities    []Entity
	Items       []Item
	Patterns    []Pattern
	Review      []ReviewSetting
	// Skew is how unevenly traffic falls on a key's values, for every pattern that
	// sets none (zero: the default, Zipf with s = 1; see cost.HottestShare).
	Skew Skew

	// Pos is where the document starts; its File names the design file. Where each
	// item is, and what saving needs of the file (its comments), the design file
	// keeps (package designfile), not the design.
	Pos Pos
}

// KeySchema names a partition key and an optional sort key attribute. A global
// secondary index's partition key and sort key may each be up to four attributes,
// in order (multi-attribute keys, GSI.DesignPattern.MultiAttributeKeys.html):
// Partition and Sort hold the first attribute of each side and MorePartition and
// MoreSort the others, so code that reads one attribute a side keeps reading the
// first, and a side of one attribute is the same key whichever way it was written.
type KeySchema struct {
	Partition string
	Sort      string // "" when there is no sort key
	// MorePartition and MoreSort are a multi-attribute key's second to fourth
	// attributes of each side, in key order; nil for a key of one attribute a side.
	MorePartition []string
	MoreSort      []string
}

// MaxKeyAttributes is how many attributes one side of a GSI's key may have
// (GSI.DesignPattern.MultiAttributeKeys.html: "partition and sort keys composed of
// up to four attributes each").
const MaxKeyAttributes = 4

// NewKeySchema makes a key of the given attributes a side, in order (either may
// be empty).
func NewKeySchema(partition, sort []string) KeySchema {
	var k KeySchema
	if len(partition) > 0 {
		k.Partition = partition[0]
		if len(partition) > 1 {
			k.MorePartition = slices.Clone(partition[1:])
		}
	}
	if len(sort) > 0 {
		k.Sort = sort[0]
		if len(sort) > 1 {
			k.MoreSort = slices.Clone(sort[1:])
		}
	}
	return k
}

// Partitions lists the partition key's attributes in order (none for a key without one).
func (k KeySchema) Partitions() []string { return side(k.Partition, k.MorePartition) }

// Sorts lists the sort key's attributes in order (none without a sort key).
func (k KeySchema) Sorts() []string { return side(k.Sort, k.MoreSort) }

// Attributes lists every key attribute, the partition key's then the sort key's.
func (k KeySchema) Attributes() []string { return append(k.Partitions(), k.Sorts()...) }

// Multi reports whether either side has more than one attribute.
func (k KeySchema) Multi() bool { return len(k.MorePartition) > 0 || len(k.MoreSort) > 0 }

// Equal reports whether two keys name the same attributes in the same order.
func (k KeySchema) Equal(o KeySchema) bool {
	return slices.Equal(k.Partitions(), o.Partitions()) && slices.Equal(k.Sorts(), o.Sorts())
}

func side(first string, more []string) []string {
	if first == "" {
		return slices.Clone(more)
	}
	return append([]string{first}, more...)
}

// Billing is on-demand, or provisioned with read and write capacity.
type Billing struct {
	Mode   BillingMode
	Read   int64   // provisioned RCU
	Write  int64   // provisioned WCU
	Target float64 // autoscaling target utilisation (0 < t <= 1); 0 when not set
	// Autoscaling of the table's read and write capacity, each on its own; what
	// the exports and NoSQL Workbench models carry. Target above is what cost
	// prices at.
	Autoscaling Autoscaling
	// MaxRead and MaxWrite are an on-demand table's maximum throughput, request
	// units a second (OnDemandThroughput's MaxReadRequestUnits and
	// MaxWriteRequestUnits, on-demand-capacity-mode-max-throughput.html); 0 sets
	// none. DynamoDB throttles past them (stwb serve --throttle does too).
	MaxRead, MaxWrite int64
}

// Autoscaling is Application Auto Scaling's target tracking of a table's or a
// GSI's provisioned capacity, read and write separately (nil: that capacity is
// not autoscaled). AutoScaling.html: "a target utilization ... between 20 and 90
// percent", between a minimum and a maximum number of units.
type Autoscaling struct {
	Read, Write *Scaling
}

// Scaling is one capacity's autoscaling: Min and Max units, and the target
// utilisation as a fraction (0.7 for 70%).
type Scaling struct {
	Min, Max int64
	Target   float64
}

// The target utilisations DynamoDB autoscaling accepts (AutoScaling.html: "You
// can set the target utilization values between 20 and 90 percent").
const (
	MinScalingTarget = 0.2
	MaxScalingTarget = 0.9
)

// Problem says what is wrong with a capacity's autoscaling, and what to do; ""
// when DynamoDB would accept it: at least 1 unit, max not below min, a target
// from 20% to 90%.
func (s *Scaling) Problem() (msg, hint string) {
	switch {
	case s.Min < 1:
		return fmt.Sprintf("min %d is below 1 unit", s.Min), "write min: 1 or more"
	case s.Max < s.Min:
		return fmt.Sprintf("max %d is below min %d", s.Max, s.Min), "raise max or lower min"
	case s.Target < MinScalingTarget || s.Target > MaxScalingTarget:
		return fmt.Sprintf("target %v is outside 0.2 to 0.9 (DynamoDB autoscaling keeps 20%% to 90%% utilisation)", s.Target), "write a utilisation such as 0.7"
	}
	return "", ""
}

// IsZero reports whether neither capacity is autoscaled.
func (a Autoscaling) IsZero() bool { return a.Read == nil && a.Write == nil }

// BillingMode is how the table pays for throughput.
type BillingMode string

// The billing modes as the design file writes them.
const (
	OnDemand    BillingMode = "on-demand"
	Provisioned BillingMode = "provisioned"
)

// TableClass is standard or standard-ia.
type TableClass string

// The table classes as the design file writes them.
const (
	ClassStandard   TableClass = "standard"
	ClassStandardIA TableClass = "standard-ia"
)

// StreamView is what a table's stream records hold of each changed item, as the
// design file writes it (Streams.html "StreamViewType"): keys-only, new-image,
// old-image or new-and-old-images; "" for a table without a stream.
type StreamView string

// The stream view types as the design file writes them.
const (
	StreamKeysOnly  StreamView = "keys-only"
	StreamNewImage  StreamView = "new-image"
	StreamOldImage  StreamView = "old-image"
	StreamNewAndOld StreamView = "new-and-old-images"
)

// StreamViews are the view types, in the order the design file's contract lists
// them.
var StreamViews = []StreamView{StreamNewAndOld, StreamNewImage, StreamOldImage, StreamKeysOnly}

// ViewType is the view type as DynamoDB's API names it (KEYS_ONLY, NEW_IMAGE,
// OLD_IMAGE, NEW_AND_OLD_IMAGES); "" for none.
func (v StreamView) ViewType() string {
	return strings.ToUpper(strings.ReplaceAll(string(v), "-", "_"))
}

// Table is the table and its indexes.
type Table struct {
	Name       string
	Key        KeySchema
	Attributes map[string]Type // declared key attribute types; missing ones are S
	Billing    Billing
	Class      TableClass
	// Stream is the table's DynamoDB stream view type; "" for none.
	Stream        StreamView
	TypeAttribute string // default "type"
	// TTL names the attribute whose Number value, epoch seconds, is when an item
	// expires; DynamoDB then deletes it without consuming write throughput
	// (TTL.html). "" when the table has no TTL.
	TTL     string
	Indexes []Index
	Pos     Pos
}

// ProjectionType is ALL, KEYS_ONLY or INCLUDE.
type ProjectionType string

// The projection types, as DynamoDB names them. The design file writes them as
// all, keys-only and {include: [...]}.
const (
	ProjectAll      ProjectionType = "ALL"
	ProjectKeysOnly ProjectionType = "KEYS_ONLY"
	ProjectInclude  ProjectionType = "INCLUDE"
)

// Projection says which attributes an index holds besides the keys.
type Projection struct {
	Type    ProjectionType
	Include []string // for INCLUDE
}

// Index is a global or local secondary index.
type Index struct {
	Name       string
	Local      bool      // an LSI: Key.Partition is the table's partition key
	Key        KeySchema // for an LSI, Partition is filled with the table's
	Projection Projection
	// Provisioned capacity of a GSI on a provisioned table (0: same as the table).
	Read, Write int64
	// Autoscaling of a GSI's capacity on a provisioned table.
	Autoscaling Autoscaling
	Pos         Pos
}

// Entity is one entity type: its key templates and declared attributes.
type Entity struct {
	Name       string
	Keys       map[string]string // key attribute -> template such as "CUST#{customerId}"
	Attributes []EntityAttribute // in file order
	Count      int64             // how many exist in production
	// Aliases are another tool's names for the entity's key attributes (a NoSQL
	// Workbench facet's PartitionKeyAlias and SortKeyAlias: PK is "SongId"), kept so
	// that an export gives them back; key attribute -> alias.
	Aliases map[string]string
	// Values says how many values a key template variable takes in production
	// (`values: {status: 4, day: period}`); a variable it leaves out is inferred
	// from the sample items (cost.KeySpace).
	Values map[string]VarValues
	// Expires is how many of its items expire by the table's TTL a second at peak
	// (`expires`); 0 when none do. It needs Table.TTL.
	Expires float64
	Pos     Pos
}

// VarValues is how many values one template variable takes: N of them, or a
// period (a date or a time), of which one, the current one, takes the writes.
type VarValues struct {
	N      int64
	Period bool
}

// Skew is how unevenly requests fall on the values of a key: a Zipf exponent
// (`skew: {zipf: 1.2}`; 0 is an even spread), or the hottest value's measured share
// of the traffic (`skew: {hottest: 0.25}`, as CloudWatch Contributor Insights shows
// it). The zero Skew sets nothing.
type Skew struct {
	Zipf    *float64
	Hottest float64
}

// MaxSkewZipf bounds a Zipf exponent: past 10 the hottest value takes all but a
// ten-thousandth of the load, so a larger figure says nothing more.
const MaxSkewZipf = 10

// IsSet reports whether the skew says anything.
func (s Skew) IsSet() bool { return s.Zipf != nil || s.Hottest > 0 }

// EntityAttribute is one declared attribute of an entity.
type EntityAttribute struct {
	Name   string
	Type   Type
	Unique bool
}

// Operation is a DynamoDB API operation that a pattern runs.
type Operation string

// The operations a pattern may run.
const (
	OpGetItem            Operation = "GetItem"
	OpQuery              Operation = "Query"
	OpScan               Operation = "Scan"
	OpBatchGetItem       Operation = "BatchGetItem"
	OpTransactGetItems   Operation = "TransactGetItems"
	OpPutItem            Operation = "PutItem"
	OpUpdateItem         Operation = "UpdateItem"
	OpDeleteItem         Operation = "DeleteItem"
	OpBatchWriteItem     Operation = "BatchWriteItem"
	OpTransactWriteItems Operation = "TransactWriteItems"
	// OpExecuteStatement is a PartiQL statement (Pattern.Statement): it runs as the
	// operation the statement stands for (a SELECT as a Query or a Scan, INSERT as
	// a PutItem, ...; engine/statement.go).
	OpExecuteStatement Operation = "ExecuteStatement"
)

// Operations lists every operation in the order FORMAT.md gives them.
var Operations = []Operation{OpGetItem, OpQuery, OpScan, OpBatchGetItem, OpTransactGetItems,
	OpPutItem, OpUpdateItem, OpDeleteItem, OpBatchWriteItem, OpTransactWriteItems, OpExecuteStatement}

// IsWrite reports whether the operation changes items. ExecuteStatement's depends
// on its statement: ask the pattern (Pattern.IsWrite).
func (o Operation) IsWrite() bool {
	switch o {
	case OpPutItem, OpUpdateItem, OpDeleteItem, OpBatchWriteItem, OpTransactWriteItems:
		return true
	}
	return false
}

// Pattern is one numbered access pattern and the request that serves it.
type Pattern struct {
	ID          int
	Name        string
	Holds       string
	Returns     string
	Order       string
	Cardinality string
	Rate        float64 // requests per second at peak; 0 in the file means 1
	Operation   Operation
	Index       string

	// KeyCondition is the Query's KeyConditionExpression.
	KeyCondition string
	// Key is the primary key for GetItem, UpdateItem and DeleteItem.
	Key Item

	Filter     string
	Projection string
	Condition  string
	Update     string
	Names      map[string]string
	Values     map[string]Value
	Forward    *bool // ScanIndexForward; nil means true
	Limit      int   // 0 means no Limit
	Consistent bool

	Item    Item     // for PutItem
	Keys    []Item   // for BatchGetItem and TransactGetItems
	Actions []Action // for BatchWriteItem and TransactWriteItems
	// ItemPos is where Item is written in the file (review names a pattern item there).
	ItemPos Pos

	Expect []Item // the keys the pattern must return, in order; nil when not set
	// ExpectError is the DynamoDB error type the pattern must end in, for a pattern
	// whose point is to fail (a taken email's TransactionCanceledException); "" when
	// it must succeed.
	ExpectError string
	Partitions  int64 // how many partition key values the traffic spreads over; 0: default
	// PartitionsOn is `partitions` per body of keys: "table" or an index name -> how
	// many partition key values the pattern's traffic on it spreads over evenly
	// (`partitions: {table: 1000000, GSI1: 4}`). Nil when the field is a number.
	PartitionsOn map[string]int64
	// Skew overrides the design's skew for this pattern's traffic.
	Skew Skew
	// Fanout, when set, runs the read once per value of a set of key values (the
	// shards 0..9, the days of a range) and merges the results (fanout.go).
	Fanout *Fanout
	// AllPages says the caller reads every page (`pages: all`): the pattern runs and
	// is priced as every page of its result, following LastEvaluatedKey.
	AllPages bool
	Batch    bool // a Scan that runs as a batch job

	// ReturnValues for writes (NONE, ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATED_NEW).
	ReturnValues string

	// Statement is an ExecuteStatement pattern's PartiQL statement, Parameters the
	// values of its ? placeholders in order. Analysis runs, prices and reviews such
	// a pattern as the operation it stands for, a pattern with the operation's
	// fields that keeps its Statement (engine.Result.StandIn).
	Statement  string
	Parameters []Value

	Pos Pos
}

// WithoutPos is p without positions (its own, its item's, its actions'), to compare
// patterns read from different texts.
func (p Pattern) WithoutPos() Pattern {
	p.Pos, p.ItemPos = Pos{}, Pos{}
	p.Actions = append([]Action(nil), p.Actions...)
	for i := range p.Actions {
		p.Actions[i].Pos, p.Actions[i].ItemPos = Pos{}, Pos{}
	}
	return p
}

// IsWrite reports whether the pattern changes items: its operation's word, or for
// a PartiQL statement whether it is an INSERT, UPDATE or DELETE rather than a
// SELECT (ql-reference.html: the statement's first word says which).
func (p *Pattern) IsWrite() bool {
	if p.Operation != OpExecuteStatement {
		return p.Operation.IsWrite()
	}
	return StatementWrites(p.Statement)
}

// StatementWrites reports whether a PartiQL statement writes: it starts with
// INSERT, UPDATE or DELETE, in any case, after spaces.
func StatementWrites(statement string) bool {
	word := strings.ToUpper(strings.TrimLeft(statement, " \t\r\n"))
	for _, w := range []string{"INSERT", "UPDATE", "DELETE"} {
		if strings.HasPrefix(word, w) {
			return true
		}
	}
	return false
}

// ScanForward reports the pattern's ScanIndexForward (default true).
func (p *Pattern) ScanForward() bool { return p.Forward == nil || *p.Forward }

// EffectiveRate is the pattern's rate, 1 when it gives none.
func (p *Pattern) EffectiveRate() float64 {
	if p.Rate <= 0 {
		return 1
	}
	return p.Rate
}

// ActionKind is one kind of write in a batch or transaction.
type ActionKind string

// The action kinds as the design file writes them.
const (
	ActionPut    ActionKind = "put"
	ActionUpdate ActionKind = "update"
	ActionDelete ActionKind = "delete"
	ActionCheck  ActionKind = "check"
)

// Action is one write of a BatchWriteItem or TransactWriteItems.
type Action struct {
	Kind      ActionKind
	Item      Item // put
	ItemPos   Pos  // where a put's item is written in the file
	Key       Item // update, delete, check
	Update    string
	Condition string
	// Names and Values of this action; when empty, the pattern's are used.
	Names  map[string]string
	Values map[string]Value
	Pos    Pos
}

// ReviewSetting turns a review rule off or changes its severity.
type ReviewSetting struct {
	Rule     string
	Severity string // error, warning, info or off
	Reason   string
	Pos      Pos
}

// KeyAttributeType is the declared type of a key attribute (S when not declared).
func (t *Table) KeyAttributeType(name string) Type {
	if ty, ok := t.Attributes[name]; ok {
		return ty
	}
	return TypeS
}

// IndexByName finds an index; ok is false when there is none of that name.
func (t *Table) IndexByName(name string) (Index, bool) {
	for _, ix := range t.Indexes {
		if ix.Name == name {
			return ix, true
		}
	}
	return Index{}, false
}

// EntityByName finds an entity; nil when there is none of that name.
func (d *Design) EntityByName(name string) *Entity {
	for i := range d.Entities {
		if d.Entities[i].Name == name {
			return &d.Entities[i]
		}
	}
	return nil
}

// ItemView is an item with what each reader of a design's items asks of it first,
// found once: its type attribute, the entity that names and the attributes of
// another type than that entity declares. analysis.Load gives one view of each item
// to its readers (review's item pass, the summary it keeps), which so look the type
// up once per item between them, not once each.
type ItemView struct {
	Item Item
	// HasType reports whether the item has the type attribute, of any type; Type
	// is its text when it is a string, else "".
	HasType bool
	Type    string
	// Entity is the entity Type names (EntityByName), nil when none.
	Entity *Entity
	// Mismatched are the attributes of another type than Entity declares
	// (Entity.MismatchedAttributes), nil when none.
	Mismatched []string
}

// View is it's view (ItemView) in d.
func (d *Design) View(it Item) ItemView {
	v := ItemView{Item: it}
	t, ok := it[d.TypeAttr()]
	if !ok {
		return v
	}
	v.HasType = true
	if t.Type != TypeS {
		return v
	}
	v.Type, v.Entity = t.Str, d.EntityByName(t.Str)
	if v.Entity != nil && len(v.Entity.Attributes) > 0 {
		v.Mismatched = v.Entity.MismatchedAttributes(it)
	}
	return v
}

// TypeAttr is the attribute naming each item's entity ("type" by default).
func (d *Design) TypeAttr() string {
	if d.Table.TypeAttribute == "" {
		return "type"
	}
	return d.Table.TypeAttribute
}

// IndexPartition is an index's partition key attribute: a GSI's own, an LSI's the
// table's.
func (t *Table) IndexPartition(ix *Index) string {
	if ix.Local || ix.Key.Partition == "" {
		return t.Key.Partition
	}
	return ix.Key.Partition
}

// IndexKey is an index's whole key: a GSI's own, an LSI's partition key the table's.
func (t *Table) IndexKey(ix *Index) KeySchema {
	if ix.Local || ix.Key.Partition == "" {
		k := ix.Key
		k.Partition, k.MorePartition = t.Key.Partition, nil
		return k
	}
	return ix.Key
}

// IndexEntryAttributes lists, each once, the attributes a KEYS_ONLY or INCLUDE index
// entry holds: the table's keys, the index's keys, then the projected attributes
// (GSI.html and LSI.html, "Attribute projections"). An entry's size is the size of
// these attributes (DYNAMODB.md "Storage"); an ALL entry holds the whole item. The
// engine and the storage report both size entries by this one list.
func (t *Table) IndexEntryAttributes(ix *Index) []string {
	names := append([]string{t.Key.Partition, t.Key.Sort}, t.IndexKey(ix).Attributes()...)
	if ix.Projection.Type == ProjectInclude {
		names = append(names, ix.Projection.Include...)
	}
	out := make([]string, 0, len(names))
	for _, n := range names {
		if n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// MismatchedAttributes lists, in declaration order, the attributes of it whose type
// differs from the one the entity declares: the rule of review's
// attribute-type-mismatch finding (YAML reads an unquoted 4e10 as the number
// 40000000000, not the string an id was meant to be).
func (e *Entity) MismatchedAttributes(it Item) []string {
	var out []string
	for _, a := range e.Attributes {
		if v, ok := it[a.Name]; ok && a.Type != 0 && v.Type != a.Type {
			out = append(out, a.Name)
		}
	}
	return out
}

// TTLNameProblem says why name cannot be a table's TTL attribute, "" when it can:
// UpdateTimeToLive's AttributeName is 1 to 255 characters
// (API_TimeToLiveSpecification.html).
func TTLNameProblem(name string) string {
	if len(name) < 1 || len(name) > 255 {
		return "table.ttl must name an attribute of 1 to 255 characters"
	}
	return ""
}
