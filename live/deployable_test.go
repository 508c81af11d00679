package live

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"stwb/model"
)

// A design DynamoDB would refuse to create or load opens (its findings are
// review's too-many-indexes and item-too-large), but deploy refuses it before
// any call, in DynamoDB's words, so nothing is changed. The client is nil: a
// call would panic.
func TestDeployRefusesWhatDynamoDBWould(t *testing.T) {
	base := func() *model.Design {
		return &model.Design{Version: 1, Name: "d", Table: model.Table{Name: "app-data", Key: model.KeySchema{Partition: "PK"}},
			Items: []model.Item{{"PK": model.Str("a")}}}
	}
	gsis := base()
	for i := range model.MaxGSIs + 1 {
		gsis.Table.Indexes = append(gsis.Table.Indexes, model.Index{Name: fmt.Sprintf("GSI%d", i), Key: model.KeySchema{Partition: fmt.Sprintf("G%d", i)}})
	}
	lsis := base()
	lsis.Table.Key.Sort = "SK"
	lsis.Items[0]["SK"] = model.Str("b")
	for i := range model.MaxLSIs + 1 {
		lsis.Table.Indexes = append(lsis.Table.Indexes, model.Index{Name: fmt.Sprintf("LSI%d", i), Local: true, Key: model.KeySchema{Sort: fmt.Sprintf("L%d", i)}})
	}
	big := base()
	big.Items = append(big.Items, model.Item{"PK": model.Str("b"), "blob": model.Str(strings.Repeat("x", model.MaxItemSize))})
	for _, c := range []struct {
		name string
		d    *model.Design
		want string
	}{
		{"21 GSIs", gsis, "ValidationException: One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the per-table limit of 20"},
		{"6 LSIs", lsis, "ValidationException: One or more parameter values were invalid: Number of LocalSecondaryIndexes exceeds per-table limit of 5"},
		{"an item over 400 KB", big, "item 1 is 409,607 bytes: DynamoDB would refuse to store it (ValidationException: Item size has exceeded the maximum allowed size); nothing was changed"},
	} {
		_, err := Deploy(context.Background(), nil, c.d, DeployOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "nothing was changed") {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
