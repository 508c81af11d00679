package engine

import (
	"strings"
	"testing"
)

// A key value DynamoDB refuses is refused the same in a Query's key condition as in
// GetItem's key and PutItem's item, with DynamoDB's words (validate.go: msgEmptyKey,
// msgHashKeyTooLarge, msgRangeKeyTooLarge; HowItWorks.NamingRulesDataTypes.html: a
// key value is 1 to 2,048 bytes for the partition key, 1 to 1,024 for the sort key).
// Sources of the wording: getmoto/moto#7062 (a real Query with an empty partition
// key), getmoto/moto#5345 (a real GetItem with one), facebook/ThreatExchange#1324 (a
// real Query over 2,048 bytes), ExtendDB/extenddb#194 (GetItem, UpdateItem and
// DeleteItem over 1,024 bytes, captured with the AWS CLI). The Query sort key over
// 1,024 bytes is taken to answer as its partition key does: no captured answer of a
// real Query was found.
func TestKeyValueRefusals(t *testing.T) {
	e := newTestEngine(t, item("PK", "P", "SK", "1", "GSI1PK", "g", "GSI1SK", "s"))
	const (
		empty = "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: "
		hash  = "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"
		rng   = "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes"
	)
	long, most := strings.Repeat("s", 1025), strings.Repeat("s", 1024)
	query := func(index, kce string, kv ...any) func() error {
		return func() error {
			_, err := e.Query(QueryInput{IndexName: index, KeyConditionExpression: kce, ExpressionAttributeValues: vals(kv...)})
			return err
		}
	}
	for _, tc := range []struct {
		name string
		run  func() error
		msg  string // "" when the request is valid
	}{
		{"Query empty partition key", query("", "PK = :p", ":p", ""), empty + "PK"},
		{"Query empty index partition key", query("GSI1", "GSI1PK = :p", ":p", ""), empty + "GSI1PK"},
		{"Query empty sort key", query("", "PK = :p AND SK = :s", ":p", "P", ":s", ""), empty + "SK"},
		{"Query empty begins_with prefix", query("", "PK = :p AND begins_with(SK, :s)", ":p", "P", ":s", ""), empty + "SK"},
		{"Query partition key of 2,048 bytes", query("", "PK = :p", ":p", strings.Repeat("k", 2048)), ""},
		{"Query partition key of 2,049 bytes", query("", "PK = :p", ":p", strings.Repeat("k", 2049)), hash},
		{"Query sort key of 1,024 bytes", query("", "PK = :p AND SK = :s", ":p", "P", ":s", most), ""},
		{"Query sort key of 1,025 bytes", query("", "PK = :p AND SK = :s", ":p", "P", ":s", long), rng},
		{"Query sort key bound of 1,025 bytes", query("", "PK = :p AND SK < :s", ":p", "P", ":s", long), rng},
		{"Query BETWEEN upper bound of 1,025 bytes", query("", "PK = :p AND SK BETWEEN :a AND :b", ":p", "P", ":a", "a", ":b", long), rng},
		{"Query index sort key of 1,025 bytes", query("GSI1", "GSI1PK = :p AND begins_with(GSI1SK, :s)", ":p", "g", ":s", long), rng},
		{"GetItem sort key of 1,025 bytes", func() error { _, err := e.GetItem(GetItemInput{Key: item("PK", "P", "SK", long)}); return err }, rng},
		{"GetItem empty partition key", func() error { _, err := e.GetItem(GetItemInput{Key: item("PK", "", "SK", "1")}); return err }, empty + "PK"},
		{"DeleteItem sort key of 1,025 bytes", func() error { _, err := e.DeleteItem(DeleteItemInput{Key: item("PK", "P", "SK", long)}); return err }, rng},
		{"PutItem sort key of 1,025 bytes", func() error { _, err := e.PutItem(PutItemInput{Item: item("PK", "P", "SK", long)}); return err }, rng},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			switch {
			case tc.msg == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.msg != "" && (errType(err) != ValidationException || errMsg(err) != tc.msg):
				t.Errorf("got %v\nwant ValidationException: %s", err, tc.msg)
			}
		})
	}
}
