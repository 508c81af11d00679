// Package expr is DynamoDB's expression language: one parser and evaluator for
// KeyConditionExpression, FilterExpression, ConditionExpression,
// ProjectionExpression and UpdateExpression, with ExpressionAttributeNames and
// ExpressionAttributeValues, and DynamoDB's validation errors and wording.
//
// The engine uses it in three steps: NewContext with the request's names and values;
// one Compile* call per expression of the request (each records which names and
// values it used); then Context.CheckUnused, which reports names or values that no
// expression used, as DynamoDB does for the request as a whole.
package expr

import (
	"fmt"

	"stwb/model"
)

// ValidationException is the error type of every error this package returns.
const ValidationException = "ValidationException"

// Error is a DynamoDB API error: its type (ValidationException,
// ConditionalCheckFailedException, ...) and DynamoDB's message.
type Error struct {
	Type    string
	Message string
}

func (e *Error) Error() string { return e.Type + ": " + e.Message }

// Validation makes a ValidationException with a formatted message.
func Validation(format string, args ...any) *Error {
	return &Error{Type: ValidationException, Message: fmt.Sprintf(format, args...)}
}

// Context holds one request's ExpressionAttributeNames and ExpressionAttributeValues,
// and records which of them the request's expressions use.
type Context struct {
	Names      map[string]string
	Values     map[string]model.Value
	usedNames  placeholderSet
	usedValues placeholderSet
}

// NewContext makes the context for one request. Either map may be nil.
func NewContext(names map[string]string, values map[string]model.Value) *Context {
	return &Context{Names: names, Values: values}
}

// PathElem is one step of a document path (model's, shared with PartiQL).
type PathElem = model.PathElem

// Path is a document path such as a.b[2].c, with its names already resolved from
// ExpressionAttributeNames.
type Path = model.Path

// SortKeyOp is the operator of a key condition on the sort key.
type SortKeyOp string

// The sort key conditions DynamoDB allows (Query.KeyConditionExpressions.html).
const (
	SortNone       SortKeyOp = ""
	SortEQ         SortKeyOp = "="
	SortLT         SortKeyOp = "<"
	SortLE         SortKeyOp = "<="
	SortGT         SortKeyOp = ">"
	SortGE         SortKeyOp = ">="
	SortBetween    SortKeyOp = "BETWEEN"
	SortBeginsWith SortKeyOp = "begins_with"
)

// KeyCondition is a compiled KeyConditionExpression: an equality on the partition
// key, and optionally one condition on the sort key.
//
// On a multi-attribute key (GSI.DesignPattern.MultiAttributeKeys.html) the
// partition fields are its first attribute's and PartitionValues holds every
// partition attribute's value in key order; the sort fields are the last sort
// attribute the condition gives, the only one that may carry a range, and
// SortEquals the values given with = to the sort attributes before it, in key
// order. On a key of one attribute a side PartitionValues is the one value and
// SortEquals is empty.
type KeyCondition struct {
	PartitionName   string
	PartitionValue  model.Value
	PartitionValues []model.Value
	SortEquals      []model.Value
	SortName        string // "" when there is no sort key condition
	SortOp          SortKeyOp
	SortValue       model.Value // the operand; the lower bound for BETWEEN
	SortValue2      model.Value // the upper bound for BETWEEN
}

// KeySchema is what a key condition is checked against: the key attribute names of
// the table or index queried, and their declared types. A multi-attribute key
// (a GSI's, up to four attributes a side) lists its other attributes in
// MorePartition and MoreSort, in key order.
type KeySchema struct {
	Partition     string
	Sort          string // "" when the table or index has no sort key
	PartitionType model.Type
	SortType      model.Type
	MorePartition []KeyAttr
	MoreSort      []KeyAttr
}

// KeyAttr is one key attribute and its declared type.
type KeyAttr struct {
	Name string
	Type model.Type
}

// Partitions lists the partition key's attributes in order.
func (s KeySchema) Partitions() []KeyAttr {
	return append([]KeyAttr{{s.Partition, s.PartitionType}}, s.MorePartition...)
}

// Sorts lists the sort key's attributes in order (none without a sort key).
func (s KeySchema) Sorts() []KeyAttr {
	if s.Sort == "" {
		return nil
	}
	return append([]KeyAttr{{s.Sort, s.SortType}}, s.MoreSort...)
}

// KeySchemaOf is a design's key (the table's, or an index's from
// model.Table.IndexKey) as a key condition is checked against it, each attribute
// with its declared type.
func KeySchemaOf(t *model.Table, k model.KeySchema) KeySchema {
	attr := func(n string) KeyAttr { return KeyAttr{n, t.KeyAttributeType(n)} }
	s := KeySchema{Partition: k.Partition, Sort: k.Sort, PartitionType: t.KeyAttributeType(k.Partition)}
	if k.Sort != "" {
		s.SortType = t.KeyAttributeType(k.Sort)
	}
	for _, n := range k.MorePartition {
		s.MorePartition = append(s.MorePartition, attr(n))
	}
	for _, n := range k.MoreSort {
		s.MoreSort = append(s.MoreSort, attr(n))
	}
	return s
}

// Multi reports whether either side of the key has several attributes.
func (s KeySchema) Multi() bool { return len(s.MorePartition) > 0 || len(s.MoreSort) > 0 }
