package engine

import (
	"testing"

	"stwb/model"
)

// TestRebuildLeavesViolationsOut: a new GSI is filled from the table's items; an
// item whose value for the index key has another type, or is empty, stays in the
// table, out of the index, and is reported as a violation
// (GSI.OnlineOps.ViolationDetection.html: "the items remain in the table, but the
// index doesn't have a corresponding entry for that item"); writes to it are then
// refused ("all writes to items that violate the new index's key schema will be
// rejected"), deletes are not.
func TestRebuildLeavesViolationsOut(t *testing.T) {
	plain := model.Table{Name: "t", Key: model.KeySchema{Partition: "PK", Sort: "SK"},
		Attributes: map[string]model.Type{"PK": model.TypeS, "SK": model.TypeS}}
	e, err := New(plain)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range []model.Item{
		item("PK", "a", "SK", "1", "email", "a@x"),
		item("PK", "b", "SK", "1", "email", model.Value{Type: model.TypeN, Str: "7"}), // another type
		item("PK", "c", "SK", "1", "email", ""),                                       // empty
		item("PK", "d", "SK", "1"),                                                    // absent: sparse, no violation
		item("PK", "e", "SK", "1", "email", "e@x"),
	} {
		if _, err := e.PutItem(PutItemInput{Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	def := plain
	def.Attributes = map[string]model.Type{"PK": model.TypeS, "SK": model.TypeS, "email": model.TypeS}
	def.Indexes = []model.Index{{Name: "byEmail", Key: model.KeySchema{Partition: "email"}, Projection: model.Projection{Type: model.ProjectAll}}}
	n, bad, err := e.Rebuild(def)
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) != 2 || bad[0].Key["PK"].Str != "b" || bad[1].Key["PK"].Str != "c" || bad[0].Index != "byEmail" || bad[0].Attribute != "email" {
		t.Fatalf("violations %+v, want b and c on byEmail.email", bad)
	}
	if n.Len() != 5 {
		t.Fatalf("table holds %d items, want all 5", n.Len())
	}
	p, err := n.Scan(ScanInput{IndexName: "byEmail"})
	if err != nil || p.Count != 2 {
		t.Fatalf("index holds %d items (%v), want a and e", p.Count, err)
	}
	_, err = n.UpdateItem(UpdateItemInput{Key: item("PK", "b", "SK", "1"), UpdateExpression: "SET v = :v",
		ExpressionAttributeValues: map[string]model.Value{":v": model.Str("x")}, Given: GivenUpdate})
	if want := "One or more parameter values were invalid: Type mismatch for Index Key email Expected: S Actual: N IndexName: byEmail"; errMsg(err) != want {
		t.Errorf("a write to a violating item: %q, want %q", errMsg(err), want)
	}
	if _, err := n.DeleteItem(DeleteItemInput{Key: item("PK", "c", "SK", "1")}); err != nil {
		t.Errorf("deleting a violating item: %v", err)
	}
	// Rebuilding again (another index added) does not report byEmail's again.
	def.Indexes = append(def.Indexes, model.Index{Name: "bySK", Key: model.KeySchema{Partition: "SK"}, Projection: model.Projection{Type: model.ProjectKeysOnly}})
	if _, bad, err := n.Rebuild(def); err != nil || len(bad) != 0 {
		t.Fatalf("second rebuild: %+v %v", bad, err)
	}
}
