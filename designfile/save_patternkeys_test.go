package designfile

import (
	"strings"
	"testing"

	"stwb/model"
)

// The items a pattern writes are saved as the file wrote them (issue 25): a key its
// template builds stays when the file wrote it and stays out when the file left it
// out, so opening and saving without edits changes nothing; a pattern the file did
// not have leaves built keys out, as a new item does; after a template change, a key
// the file wrote is written with the value the new template builds.
func TestSavePatternItemsAsWritten(t *testing.T) {
	const src = `version: 1
name: shop
table:
  name: shop
  key: {partition: PK, sort: SK}
entities:
  - name: customer
    keys: {PK: "CUST#{customerId}", SK: PROFILE}
patterns:
  - id: 1
    name: Sign up, keys written
    operation: PutItem
    item: {type: customer, PK: "CUST#9", SK: PROFILE, customerId: "9", name: Zed}
  - id: 2
    name: Sign up, keys built
    operation: TransactWriteItems
    actions:
      - put: {type: customer, customerId: "8", name: Yun}
      - put: {type: customer, PK: "CUST#7", SK: PROFILE, customerId: "7", name: Xi}
`
	f, err := Parse("shop.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Design.Patterns[1].Actions[0].Item["PK"].Str; got != "CUST#8" {
		t.Fatalf("the reader did not build the put's key: %q", got)
	}
	out, err := f.With(f.Design).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != src {
		t.Errorf("opened and saved without edits, the file changed:\n%s", out)
	}

	d := f.Design
	d.Entities[0].Keys = map[string]string{"PK": "CUSTOMER#{customerId}", "SK": "PROFILE"}
	d.Patterns[0].Item["PK"] = model.Str("CUSTOMER#9")
	d.Patterns[1].Actions[0].Item["PK"] = model.Str("CUSTOMER#8")
	d.Patterns[1].Actions[1].Item["PK"] = model.Str("CUSTOMER#7")
	d.Patterns = append(d.Patterns, model.Pattern{ID: 3, Name: "new", Operation: model.OpPutItem,
		Item: model.Item{"type": model.Str("customer"), "PK": model.Str("CUSTOMER#6"), "SK": model.Str("PROFILE"), "customerId": model.Str("6")}})
	out, err = f.With(d).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{
		`item: {type: customer, PK: CUSTOMER#9, SK: PROFILE, customerId: "9", name: Zed}`,
		`- put: {type: customer, customerId: "8", name: Yun}`,
		`- put: {type: customer, PK: CUSTOMER#7, SK: PROFILE, customerId: "7", name: Xi}`,
		`item: {customerId: "6", type: customer}`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("saved after the template change, the file lacks %s:\n%s", want, s)
		}
	}
	if _, err := Parse("shop.yaml", out); err != nil {
		t.Errorf("the saved file does not load: %v", err)
	}
}
