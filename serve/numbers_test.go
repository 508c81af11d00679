package serve

import (
	"strings"
	"testing"

	"stwb/model"
)

// TestNumbersDynamoDBRefuses: a number DynamoDB cannot store, in an item, a key or
// an expression value, is a ValidationException in DynamoDB's words
// (HowItWorks.NamingRulesDataTypes.html "Number"; the words as DynamoDB answers
// them and dynalite copies, validations/index.js checkNum), as UpdateItem's ADD
// already answered; on main it was a SerializationException in stwb's words.
func TestNumbersDynamoDBRefuses(t *testing.T) {
	s := New(Options{})
	if err := s.AddDesign(&model.Design{Table: model.Table{Name: "tab", Key: model.KeySchema{Partition: "pk"}}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ value, want string }{
		{`{"N":"123456789012345678901234567890123456789"}`, "Attempting to store more than 38 significant digits in a Number"},
		{`{"N":"1e126"}`, "Number overflow. Attempting to store a number with magnitude larger than supported range"},
		{`{"N":"1e-131"}`, "Number underflow. Attempting to store a number with magnitude smaller than supported range"},
		{`{"N":"NaN"}`, "The parameter cannot be converted to a numeric value: NaN"},
		{`{"N":"0x10"}`, "The parameter cannot be converted to a numeric value: 0x10"},
		{`{"N":""}`, "The parameter cannot be converted to a numeric value"},
		{`{"NS":["1","x"]}`, "The parameter cannot be converted to a numeric value: x"},
		{`{"NS":["1","1.0"]}`, "Input collection contains duplicates"},
		{`{"L":[{"N":"Infinity"}]}`, "The parameter cannot be converted to a numeric value: Infinity"},
	} {
		for _, req := range []struct{ op, body, prefix string }{
			{"PutItem", `{"TableName":"tab","Item":{"pk":{"S":"a"},"n":` + c.value + `}}`, ""},
			{"Scan", `{"TableName":"tab","FilterExpression":"n = :v","ExpressionAttributeValues":{":v":` + c.value + `}}`, "ExpressionAttributeValues contains invalid value: "},
		} {
			status, out := s.Call(req.op, []byte(req.body))
			want := `{"__type":"com.amazonaws.dynamodb.v20120810#ValidationException","message":"` + req.prefix + c.want
			if status != 400 || !strings.HasPrefix(string(out), want) {
				t.Errorf("%s with %s: %d %s\nwant %s", req.op, c.value, status, out, want)
			}
		}
	}
}
