package serve

import (
	"fmt"
	"strconv"
	"strings"
)

// violations collects the constraint failures of one request, which DynamoDB
// reports together before anything else: "2 validation errors detected: Value 'a'
// at 'tableName' failed to satisfy constraint: ...; Value ...".
type violations []string

func (v *violations) add(format string, args ...any) { *v = append(*v, fmt.Sprintf(format, args...)) }

func (v violations) err() *apiError {
	if len(v) == 0 {
		return nil
	}
	word := "error"
	if len(v) > 1 {
		word = "errors"
	}
	return validationError("%d validation %s detected: %s", len(v), word, strings.Join(v, "; "))
}

// checkName adds the violations of a table or index name (API_CreateTable.html
// "TableName": 3 to 255 characters of [a-zA-Z0-9_.-]; IndexName the same), with
// the member path DynamoDB names (tableName, globalSecondaryIndexes.1.member.indexName).
func (v *violations) checkName(name *string, at string) {
	if name == nil {
		v.add("Value null at '%s' failed to satisfy constraint: Member must not be null", at)
		return
	}
	n := *name
	if !validNameChars(n) {
		v.add("Value '%s' at '%s' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+", n, at)
	}
	if len(n) < 3 {
		v.add("Value '%s' at '%s' failed to satisfy constraint: Member must have length greater than or equal to 3", n, at)
	}
	if len(n) > 255 {
		v.add("Value '%s' at '%s' failed to satisfy constraint: Member must have length less than or equal to 255", n, at)
	}
}

func validNameChars(n string) bool {
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// itemTable adds the violations of an item operation's TableName and returns it.
// A missing name is "Value null" and an empty one is below the member's minimum
// length of 1 (API_PutItem.html "TableName": 1 to 1024 characters, since the
// member also takes a table's ARN), alone, in the words real DynamoDB answered
// (the conformance suite's captures, "PutItem — exact error messages"); any
// other name is held to a table name's rules (checkName).
func (v *violations) itemTable(name *string) string {
	switch {
	case name == nil:
		v.add("Value null at 'tableName' failed to satisfy constraint: Member must not be null")
		return ""
	case *name == "":
		v.add("Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 1")
		return ""
	}
	v.checkName(name, "tableName")
	return *name
}

// checkTableName checks one table name alone (an item operation's TableName),
// before the table is looked up.
func checkTableName(name, at string) *apiError {
	var v violations
	v.checkName(&name, at)
	return v.err()
}

// checkEnum adds a violation when a given value is not one of the allowed ones.
func (v *violations) checkEnum(val *string, at string, allowed ...string) {
	if val == nil {
		return
	}
	for _, a := range allowed {
		if *val == a {
			return
		}
	}
	v.add("Value '%s' at '%s' failed to satisfy constraint: Member must satisfy enum value set: [%s]", *val, at, strings.Join(allowed, ", "))
}

// checkMin adds a violation when a given number is below min.
func (v *violations) checkMin(n *int64, at string, min int64) {
	if n != nil && *n < min {
		v.add("Value '%s' at '%s' failed to satisfy constraint: Member must have value greater than or equal to %d", strconv.FormatInt(*n, 10), at, min)
	}
}
