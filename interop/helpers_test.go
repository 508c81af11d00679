package interop

import (
	"os"
	"path/filepath"
	"stwb/internal/golden"
	"testing"

	"stwb/model"
)

// checkGolden compares got with testdata/golden/NAME (go test ./interop -update
// rewrites it).
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", "golden", name), got)
}

func ptrBool(b bool) *bool { return &b }

// ordersDesign is the orders service of FORMAT.md, grown to exercise every export:
// a GSI with an INCLUDE projection, a KEYS_ONLY LSI, a GSI with a numeric sort key,
// provisioned billing autoscaled with different read and write bounds and
// targets, a GSI with capacity of its own and read autoscaling only, the standard-ia class, templates
// with one and two variables and a constant, an untyped item, and text that is
// wider than it is long (CJK and emoji) for the Markdown tables.
func ordersDesign() *model.Design {
	return &model.Design{
		Version:     1,
		Name:        "orders-service",
		Description: "The orders service from the seeds.",
		Table: model.Table{
			Name: "orders-service-data",
			Key:  model.KeySchema{Partition: "PK", Sort: "SK"},
			Attributes: map[string]model.Type{"PK": model.TypeS, "SK": model.TypeS,
				"GSI1PK": model.TypeS, "GSI1SK": model.TypeS, "placedAt": model.TypeS, "total": model.TypeN},
			Billing: model.Billing{Mode: model.Provisioned, Read: 100, Write: 50, Target: 0.7,
				Autoscaling: model.Autoscaling{Read: &model.Scaling{Min: 10, Max: 400, Target: 0.7}, Write: &model.Scaling{Min: 5, Max: 200, Target: 0.5}}},
			Class: model.ClassStandardIA,
			Indexes: []model.Index{
				{Name: "GSI1", Key: model.KeySchema{Partition: "GSI1PK", Sort: "GSI1SK"},
					Projection: model.Projection{Type: model.ProjectInclude, Include: []string{"status", "total"}},
					Read:       20, Write: 10, Autoscaling: model.Autoscaling{Read: &model.Scaling{Min: 2, Max: 80, Target: 0.6}}},
				{Name: "LSI1", Local: true, Key: model.KeySchema{Partition: "PK", Sort: "placedAt"},
					Projection: model.Projection{Type: model.ProjectKeysOnly}},
				{Name: "ByTotal", Key: model.KeySchema{Partition: "GSI1PK", Sort: "total"},
					Projection: model.Projection{Type: model.ProjectAll}},
			},
		},
		Entities: []model.Entity{
			{Name: "customer", Keys: map[string]string{"PK": "CUST#{customerId}", "SK": "PROFILE"},
				Attributes: []model.EntityAttribute{{Name: "customerId", Type: model.TypeS}, {Name: "email", Type: model.TypeS, Unique: true}, {Name: "name", Type: model.TypeS}},
				Count:      1000000},
			{Name: "order", Keys: map[string]string{"PK": "CUST#{customerId}", "SK": "ORDER#{orderId}", "GSI1PK": "STATUS#{status}", "GSI1SK": "{placedAt}#{orderId}"},
				Attributes: []model.EntityAttribute{{Name: "customerId", Type: model.TypeS}, {Name: "orderId", Type: model.TypeS}, {Name: "status", Type: model.TypeS}, {Name: "placedAt", Type: model.TypeS}, {Name: "total", Type: model.TypeN}},
				Count:      50000000},
		},
		Items: []model.Item{
			{"type": model.Str("customer"), "PK": model.Str("CUST#42"), "SK": model.Str("PROFILE"), "customerId": model.Str("42"), "email": model.Str("ada@example.com"), "name": model.Str("Ada")},
			{"type": model.Str("customer"), "PK": model.Str("CUST#7"), "SK": model.Str("PROFILE"), "customerId": model.Str("7"), "email": model.Str("mei@example.com"), "name": model.Str("美玲 🍜")},
			{"type": model.Str("order"), "PK": model.Str("CUST#42"), "SK": model.Str("ORDER#9f2a"), "GSI1PK": model.Str("STATUS#SHIPPED"), "GSI1SK": model.Str("2026-08-03T14:22Z#9f2a"),
				"customerId": model.Str("42"), "orderId": model.Str("9f2a"), "status": model.Str("SHIPPED"), "placedAt": model.Str("2026-08-03T14:22Z"), "total": model.Num("99.50")},
			{"type": model.Str("order"), "PK": model.Str("CUST#42"), "SK": model.Str("ORDER#a001"), "GSI1PK": model.Str("STATUS#PENDING"), "GSI1SK": model.Str("2026-08-05T09:00Z#a001"),
				"customerId": model.Str("42"), "orderId": model.Str("a001"), "status": model.Str("PENDING"), "placedAt": model.Str("2026-08-05T09:00Z"), "total": model.Num("12"),
				"tags": model.StrSet("gift"), "lines": model.List(model.Map(map[string]model.Value{"sku": model.Str("B-1"), "qty": model.Num("2")}))},
			{"PK": model.Str("ORDER#9f2a"), "SK": model.Str("ITEM#001"), "qty": model.Num("2"), "price": model.Num("12.5"), "gift": model.Bool(true), "note": model.Null(), "blob": model.Bin([]byte{0xde, 0xad})},
		},
		Patterns: []model.Pattern{
			{ID: 1, Name: "Get a customer's profile by customer id", Holds: "customer id", Returns: "the profile", Cardinality: "1", Rate: 200,
				Operation: model.OpGetItem, Key: model.Item{"PK": model.Str("CUST#42"), "SK": model.Str("PROFILE")}},
			{ID: 2, Name: "List a customer's orders, most recent first", Holds: "customer id", Returns: "orders", Order: "newest first", Cardinality: "0..many", Rate: 50,
				Operation: model.OpQuery, KeyCondition: "PK = :pk AND begins_with(SK, :sk)",
				Values: map[string]model.Value{":pk": model.Str("CUST#42"), ":sk": model.Str("ORDER#")}, Forward: ptrBool(false), Limit: 25},
			{ID: 3, Name: "Get 美玲's profile 🍜", Holds: "customer id", Returns: "the profile", Cardinality: "1", Rate: 1,
				Operation: model.OpGetItem, Key: model.Item{"PK": model.Str("CUST#7"), "SK": model.Str("PROFILE")}, Projection: "#n, email", Names: map[string]string{"#n": "name"}},
			{ID: 4, Name: "List orders in a status over a total", Holds: "status", Returns: "orders | keys", Order: "by placedAt", Cardinality: "many", Rate: 5,
				Operation: model.OpQuery, Index: "GSI1", KeyCondition: "GSI1PK = :s", Filter: "#t > :min",
				Names: map[string]string{"#t": "total"}, Values: map[string]model.Value{":s": model.Str("STATUS#SHIPPED"), ":min": model.Num("10")}},
			{ID: 6, Name: "Mark an order shipped", Rate: 20, Operation: model.OpUpdateItem,
				Key: model.Item{"PK": model.Str("CUST#42"), "SK": model.Str("ORDER#a001")}, Update: "SET #st = :new, GSI1PK = :gpk", Condition: "#st = :old",
				Names: map[string]string{"#st": "status"}, Values: map[string]model.Value{":new": model.Str("SHIPPED"), ":old": model.Str("PENDING"), ":gpk": model.Str("STATUS#SHIPPED")}},
		},
	}
}

// readTestdata reads a file under testdata.
func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// readFileForFuzz reads a testdata file for a fuzz seed.
func readFileForFuzz(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join("testdata", name))
}
