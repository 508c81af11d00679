package live

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCleanErrorBodyKeepsShape: cleaning an error answer keeps its lists and
// objects (ThrottlingReasons, CancellationReasons, a failed condition's Item),
// which the SDK reads into the typed error, and still redacts and cuts the
// strings inside them.
func TestCleanErrorBodyKeepsShape(t *testing.T) {
	body := `{"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException","message":"m",` +
		`"ThrottlingReasons":[{"reason":"TableWriteKeyRangeThroughputExceeded","resource":"arn:aws:dynamodb:us-east-1:1:table/t AKIAABCDEFGHIJKLMNOP"}]}`
	var got map[string]any
	if err := json.Unmarshal(cleanErrorBody([]byte(body), nil), &got); err != nil {
		t.Fatal(err)
	}
	rs, ok := got["ThrottlingReasons"].([]any)
	if !ok || len(rs) != 1 {
		t.Fatalf("ThrottlingReasons became %#v", got["ThrottlingReasons"])
	}
	r := rs[0].(map[string]any)
	if r["reason"] != "TableWriteKeyRangeThroughputExceeded" || strings.Contains(r["resource"].(string), "AKIA") {
		t.Errorf("reason %v, resource %v (want the key id redacted)", r["reason"], r["resource"])
	}
}
