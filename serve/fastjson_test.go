package serve

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// fastBodies are GetItem, Query and single-item write bodies as applications and
// SDKs send them; fast names the operations whose decodeFast must read them itself
// (the plainest forms) rather than leave them to encoding/json: "" none, "*" all.
var fastBodies = []struct {
	body string
	fast string
}{
	{`{"TableName":"t","Key":{"PK":{"S":"CUST#1"},"SK":{"S":"ORDER#001"}}}`, "GetItem UpdateItem DeleteItem"},
	{` { "TableName" : "t" , "Key" : { "PK" : { "N" : "-1.5e3" } } , "ConsistentRead" : true } `, "GetItem"},
	{`{"TableName":"t","Key":{"PK":{"S":"a"}},"ProjectionExpression":"#n, b[1].c","ExpressionAttributeNames":{"#n":"name"},"ReturnConsumedCapacity":"TOTAL"}`, "GetItem"},
	{`{"TableName":"t","KeyConditionExpression":"PK = :p AND begins_with(SK, :s)","ExpressionAttributeValues":{":p":{"S":"x"},":s":{"S":"O"}},"Limit":25,"ScanIndexForward":false}`, "Query"},
	{`{"TableName":"t","IndexName":"gsi","KeyConditionExpression":"#k = :p","ExpressionAttributeNames":{},"ExpressionAttributeValues":{":p":{"L":[{"NULL":true},{"BOOL":false},{"M":{}},{"NS":["1","2"]}]}},"ExclusiveStartKey":{"PK":{"S":"a"}},"Select":"COUNT","FilterExpression":"a <> :p","ConsistentRead":false,"Limit":-0}`, "Query"},
	{`{"TableName":"t","ReturnConsumedCapacity":"INDEXES","ExpressionAttributeNames":{"#a":"b"}}`, "*"},
	{`{}`, "*"},
	{`{"TableName":"t","Item":{"PK":{"S":"CUST#1"},"SK":{"S":"ORDER#001"},"total":{"N":"42.50"},"tags":{"SS":["a","b"]},"m":{"M":{"x":{"NULL":true}}}},"ConditionExpression":"attribute_not_exists(PK)","ReturnValues":"ALL_OLD","ReturnValuesOnConditionCheckFailure":"ALL_OLD","ReturnItemCollectionMetrics":"SIZE"}`, "PutItem"},
	{`{"TableName":"t","Key":{"PK":{"S":"a"}},"UpdateExpression":"SET #c = #c + :one","ExpressionAttributeNames":{"#c":"count"},"ExpressionAttributeValues":{":one":{"N":"1"}},"ReturnValues":"UPDATED_NEW","ConditionalOperator":"AND"}`, "UpdateItem"},
	{`{"TableName":"t","Key":{"PK":{"S":"a"}},"ConditionExpression":"v = :v","ExpressionAttributeValues":{":v":{"N":"1"}},"ReturnConsumedCapacity":"TOTAL"}`, "UpdateItem DeleteItem"},
	// Left to encoding/json: another spelling, a second member of one name, an
	// escape, non-ASCII, null, a wrong type, a member decodeFast does not read,
	// a number an int cannot hold, and what is not JSON at all.
	{`{"tablename":"t"}`, ""},
	{`{"TableName":"a","TableName":"b"}`, ""},
	{`{"TableName":"t\u0041"}`, ""},
	{`{"TableName":"tä"}`, ""},
	{`{"TableName":null}`, ""},
	{`{"TableName":1}`, ""},
	{`{"Key":"k"}`, ""},
	{`{"Limit":1.5}`, ""},
	{`{"Limit":1e2}`, ""},
	{`{"Limit":99999999999999999999}`, ""},
	{`{"ScanIndexForward":"true"}`, ""},
	{`{"ExpressionAttributeNames":{"#a":"x","#a":"y"}}`, ""},
	{`{"ExpressionAttributeNames":{"#a":1}}`, ""},
	{`{"AttributesToGet":["a"]}`, ""},
	{`{"KeyConditions":{}}`, ""},
	{`{"TableName":"t"} x`, ""},
	{`{"TableName":"t",}`, ""},
	{`{"Key":{"PK":{"N":01}}}`, ""},
	{`{"Key":{"PK":{"N":-}}}`, ""},
	{`{"Expected":{"a":{"Exists":false}}}`, ""},
	{`{"AttributeUpdates":{}}`, ""},
	{`{"Item":"x"}`, ""},
	{`{"Item":null}`, ""},
	{`{"ReturnValues":null}`, ""},
	{`{"UpdateExpression":["SET a = :a"]}`, ""},
	{`[]`, ""},
	{``, ""},
}

// TestFastDecodeAgrees: a body decodeFast reads decodes exactly as encoding/json
// decodes it, member for member; the plainest bodies are read by decodeFast; and
// so is no body encoding/json refuses. Each body is also mutated a few thousand
// ways (a byte dropped, doubled or changed) and the same held of every mutant.
func TestFastDecodeAgrees(t *testing.T) {
	for _, c := range fastBodies {
		for op, fast := range agreeBoth(t, []byte(c.body)) {
			want := c.fast == "*" || slices.Contains(strings.Fields(c.fast), op)
			if want && !fast {
				t.Errorf("%s: %s left it to encoding/json, want read by decodeFast", c.body, op)
			}
			if !want && fast {
				t.Errorf("%s: %s read it, want it left to encoding/json", c.body, op)
			}
		}
	}
	rng := rand.New(rand.NewPCG(24, 1))
	const alphabet = "{}[]:,\" \\-+.0123456789eEtruefalsnlTK\x00\x7f\xc3"
	for _, c := range fastBodies {
		for range 3000 {
			b := []byte(c.body)
			if len(b) == 0 {
				break
			}
			agreeBoth(t, mutate(rng, b, alphabet))
		}
	}
}

// mutate changes b (not empty) one way: a byte dropped, doubled, or replaced by
// one of alphabet's. The two agreement tests share it.
func mutate(rng *rand.Rand, b []byte, alphabet string) []byte {
	i := rng.IntN(len(b))
	switch rng.IntN(3) {
	case 0:
		return append(b[:i:i], b[i+1:]...)
	case 1:
		return append(b[:i+1:i+1], b[i:]...)
	default:
		b[i] = alphabet[rng.IntN(len(alphabet))]
		return b
	}
}

// TestValidJSONAgrees: validJSON says what json.Valid says, of every body above,
// of a few thousand mutants of each, and of what only json.Valid reads (escapes,
// non-ASCII, nesting past maxFastDepth).
func TestValidJSONAgrees(t *testing.T) {
	bodies := []string{`"a\u0041\n"`, `{"a":"é"}`, `[` + strings.Repeat(`{"a":[`, 40) + `1` + strings.Repeat(`]}`, 40) + `]`,
		` 1 `, `-0.5e+3`, `true`, `nul`, `{"a":1}}`, `{"a" 1}`, `[1,]`, `01`, `1.`, `"\x"`, "\"\t\"", `{"a":"b"`}
	for _, c := range fastBodies {
		bodies = append(bodies, c.body)
	}
	rng := rand.New(rand.NewPCG(24, 2))
	const alphabet = "{}[]:,\" \\-+.0123456789eEtruefalsnl\x00\x7f\xc3\t"
	for _, body := range bodies {
		for n := range 2000 {
			b := []byte(body)
			if n > 0 && len(b) > 0 {
				b = mutate(rng, b, alphabet)
			}
			if got, want := validJSON(b), json.Valid(b); got != want {
				t.Errorf("validJSON(%q) = %v, json.Valid %v", b, got, want)
			}
		}
	}
}

// agreeBoth checks decodeFast against encoding/json on body for each input that
// has one, and reports whether decodeFast read it, for each.
func agreeBoth(t *testing.T, body []byte) map[string]bool {
	t.Helper()
	return map[string]bool{"GetItem": agree[getItemInput](t, body), "Query": agree[queryInput](t, body),
		"PutItem": agree[putItemInput](t, body), "UpdateItem": agree[updateItemInput](t, body), "DeleteItem": agree[deleteItemInput](t, body)}
}

func agree[T any, P interface {
	*T
	fastDecoder
}](t *testing.T, body []byte) bool {
	t.Helper()
	fast := P(new(T))
	if !fast.decodeFast(body) {
		return false
	}
	std := new(T)
	if err := json.Unmarshal(body, std); err != nil {
		t.Errorf("%T: decodeFast read %q, which encoding/json refuses: %v", std, body, err)
		return true
	}
	if !reflect.DeepEqual((*T)(fast), std) {
		t.Errorf("%T: %q decoded\n%+v\nencoding/json:\n%+v", std, body, *(*T)(fast), *std)
	}
	return true
}
