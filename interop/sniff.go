package interop

import (
	"bytes"
	"encoding/json"
)

// The formats stwb import reads, as --format names them.
const (
	FormatWorkbench    = "workbench"
	FormatDynamoDBJSON = "dynamodb-json"
)

// SniffFormat says which importer reads a file, from its first bytes: a NoSQL
// Workbench model is a JSON object whose first member is ModelName,
// ModelMetadata or DataModel; gzip data, an object whose first member is Item,
// Items, Count, ScannedCount or a table name holding a list (a BatchWriteItem
// request) is DynamoDB JSON. "" when the head says neither.
func SniffFormat(head []byte) string {
	if bytes.HasPrefix(head, []byte{0x1f, 0x8b}) {
		return FormatDynamoDBJSON
	}
	dec := json.NewDecoder(bytes.NewReader(head))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return ""
	}
	tok, err := dec.Token()
	if err != nil {
		return ""
	}
	key, _ := tok.(string)
	switch key {
	case "ModelName", "ModelMetadata", "DataModel":
		return FormatWorkbench
	case "Item", "Items", "Count", "ScannedCount", "LastEvaluatedKey", "ConsumedCapacity":
		return FormatDynamoDBJSON
	}
	if tok, err := dec.Token(); err == nil && tok == json.Delim('[') {
		return FormatDynamoDBJSON
	}
	return ""
}
