package model

import "testing"

// The document paths of ExpressionAttributeNames' page
// (Expressions.Attributes.html#Expressions.Attributes.NestedElements): a name, a map
// key below it, a list element, and the misses DynamoDB treats as "attribute does not
// exist".
func TestPathLookup(t *testing.T) {
	item := Item{
		"Id":           Num("123"),
		"RelatedItems": List(Num("341"), Num("472")),
		"ProductReviews": Map(map[string]Value{
			"FiveStar": List(Str("Excellent!")),
		}),
	}
	cases := []struct {
		path Path
		text string
		want string // the value's text, "" for a miss
	}{
		{Path{{Name: "Id"}}, "Id", "123"},
		{Path{{Name: "RelatedItems"}, {Index: 1, IsIndex: true}}, "RelatedItems[1]", "472"},
		{Path{{Name: "ProductReviews"}, {Name: "FiveStar"}, {Index: 0, IsIndex: true}}, "ProductReviews.FiveStar[0]", "Excellent!"},
		{Path{{Name: "Missing"}}, "Missing", ""},
		{Path{{Name: "RelatedItems"}, {Index: 2, IsIndex: true}}, "RelatedItems[2]", ""},
		{Path{{Name: "Id"}, {Name: "x"}}, "Id.x", ""},
		{Path{{Name: "ProductReviews"}, {Index: 0, IsIndex: true}}, "ProductReviews[0]", ""},
	}
	for _, c := range cases {
		if got := c.path.String(); got != c.text {
			t.Errorf("String() = %q, want %q", got, c.text)
		}
		v, ok := c.path.Lookup(item)
		if ok != (c.want != "") || (ok && v.Str != c.want) {
			t.Errorf("%s: Lookup = %+v %v, want %q", c.text, v, ok, c.want)
		}
	}
}
