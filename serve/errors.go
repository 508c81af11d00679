package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"stwb/dynamojson"
	"stwb/engine"
	"stwb/model"
	"stwb/throttle"
)

// apiError is an error as DynamoDB sends it: an HTTP status and a JSON body naming
// the error type. prefix is the __type's namespace: DynamoDB's own errors are
// com.amazonaws.dynamodb.v20120810, the protocol's (unknown operation, a body that
// is not JSON) com.amazon.coral.service.
type apiError struct {
	status  int
	prefix  string
	code    string
	message string
	// item is ReturnValuesOnConditionCheckFailure's item of a failed condition.
	item model.Item
	// reasons are a TransactionCanceledException's cancellation reasons.
	reasons []engine.CancellationReason
	// throttled are a throttled request's ThrottlingReasons (throttle.go).
	throttled []throttle.Reason
}

func (e *apiError) Error() string { return e.code + ": " + e.message }

const (
	nsDynamoDB = "com.amazonaws.dynamodb.v20120810"
	nsCoral    = "com.amazon.coral.service"
)

func validationError(format string, args ...any) *apiError {
	return &apiError{status: 400, prefix: nsDynamoDB, code: engine.ValidationException, message: fmt.Sprintf(format, args...)}
}

func notFound(format string, args ...any) *apiError {
	return &apiError{status: 400, prefix: nsDynamoDB, code: "ResourceNotFoundException", message: fmt.Sprintf(format, args...)}
}

func inUse(format string, args ...any) *apiError {
	return &apiError{status: 400, prefix: nsDynamoDB, code: "ResourceInUseException", message: fmt.Sprintf(format, args...)}
}

// tableNotFound is DynamoDB's answer for a table that does not exist
// (API_DescribeTable.html, ResourceNotFoundException).
func tableNotFound(name string) *apiError {
	return notFound("Requested resource not found: Table: %s not found", name)
}

// itemTableNotFound is the answer an item operation gives for a missing table.
func itemTableNotFound() *apiError { return notFound("Requested resource not found") }

func serializationError(msg string) *apiError {
	return &apiError{status: 400, prefix: nsCoral, code: "SerializationException", message: msg}
}

func unknownOperation() *apiError {
	return &apiError{status: 400, prefix: nsCoral, code: "UnknownOperationException"}
}

// fromEngine turns an engine error into the API error it is.
func fromEngine(err error) *apiError {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	var ee *engine.Error
	if errors.As(err, &ee) {
		return &apiError{status: 400, prefix: nsDynamoDB, code: ee.Type, message: ee.Message, item: ee.Item, reasons: ee.Reasons}
	}
	return &apiError{status: 500, prefix: nsDynamoDB, code: "InternalServerError", message: err.Error()}
}

// body is the error's JSON body. The SDKs read the code after '#' in __type and
// the message from "message" (or "Message").
func (e *apiError) body() []byte {
	var b []byte
	b = append(b, `{"__type":`...)
	b = dynamojson.AppendString(b, e.prefix+"#"+e.code)
	if e.message != "" || e.code != "UnknownOperationException" {
		b = append(b, `,"message":`...)
		b = dynamojson.AppendString(b, e.message)
	}
	if e.item != nil {
		b = append(b, `,"Item":`...)
		b = dynamojson.AppendItem(b, e.item)
	}
	if len(e.reasons) > 0 {
		b = append(b, `,"CancellationReasons":[`...)
		for i, r := range e.reasons {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"Code":`...)
			b = dynamojson.AppendString(b, r.Code)
			if r.Message != "" {
				b = append(b, `,"Message":`...)
				b = dynamojson.AppendString(b, r.Message)
			}
			if r.Item != nil {
				b = append(b, `,"Item":`...)
				b = dynamojson.AppendItem(b, r.Item)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if e.throttled != nil {
		b = appendThrottling(b, e.code, e.throttled)
	}
	return append(b, '}')
}

// decodeError is DynamoDB's answer to a body that does not decode into the
// operation's request: not JSON, or a member of the wrong JSON type, in the words
// the service's deserializer uses (dynalite validations/index.js checkTypes copies
// them: "STRING_VALUE cannot be converted to Integer").
func decodeError(err error) *apiError {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return serializationError(typeMessage(te))
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return serializationError("")
	}
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	return serializationError(err.Error())
}

func typeMessage(te *json.UnmarshalTypeError) string {
	got := te.Value
	if strings.HasPrefix(got, "number") {
		got = "number"
	}
	want := javaType(te.Type.Kind().String())
	switch got {
	case "object":
		return "Start of structure or map found where not expected"
	case "array":
		if want == "List" {
			return "Unexpected field type"
		}
		return "Unrecognized collection type class java.lang." + want
	case "string":
		return "STRING_VALUE cannot be converted to " + want
	case "number":
		return "NUMBER_VALUE cannot be converted to " + want
	case "bool":
		return "TRUE_VALUE cannot be converted to " + want
	}
	return "Unexpected field type"
}

func javaType(kind string) string {
	switch kind {
	case "int", "int32", "int64":
		return "Integer"
	case "bool":
		return "Boolean"
	case "string":
		return "String"
	case "slice":
		return "List"
	case "map", "struct":
		return "Map"
	}
	return kind
}
