package engine

import (
	"slices"
	"strings"
	"testing"

	"stwb/model"
)

func testDesign() *model.Design {
	return &model.Design{
		Table: testTable(),
		Items: []model.Item{
			item("PK", "c#1", "SK", "A", "status", "new"),
			item("PK", "c#1", "SK", "B", "status", "old"),
			item("PK", "c#1", "SK", "C", "status", "new"),
			item("PK", "c#2", "SK", "A", "GSI1PK", "g", "GSI1SK", "1"),
		},
	}
}

// Patterns run as their operation; writes run on a copy and never change the engine
// (FORMAT.md "Patterns": "writes are applied to a copy of the items").
func TestRunPatterns(t *testing.T) {
	d := testDesign()
	e, err := FromDesign(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		p     model.Pattern
		opts  RunOptions
		check func(t *testing.T, r *Result)
	}{
		{"get", model.Pattern{ID: 1, Operation: model.OpGetItem, Key: item("PK", "c#1", "SK", "B")}, RunOptions{},
			func(t *testing.T, r *Result) {
				if r.Count != 1 || r.Items[0]["status"].Str != "old" || r.Consumed.Table.Read != 0.5 {
					t.Errorf("%+v", r)
				}
			}},
		{"query one page", model.Pattern{ID: 2, Operation: model.OpQuery, KeyCondition: "PK = :p", Values: vals(":p", "c#1"), Limit: 2}, RunOptions{},
			func(t *testing.T, r *Result) {
				if len(r.Pages) != 1 || r.Count != 2 || r.LastEvaluatedKey == nil {
					t.Errorf("%+v", r)
				}
			}},
		{"query all pages", model.Pattern{ID: 3, Operation: model.OpQuery, KeyCondition: "PK = :p", Values: vals(":p", "c#1"), Limit: 2, Forward: ptr(false)}, RunOptions{AllPages: true},
			func(t *testing.T, r *Result) {
				if len(r.Pages) != 2 || !slices.Equal(attr(r.Items, "SK"), []string{"C", "B", "A"}) || r.LastEvaluatedKey != nil || r.Consumed.Table.Read != 1 {
					t.Errorf("%+v", r)
				}
			}},
		{"scan filtered", model.Pattern{ID: 4, Operation: model.OpScan, Filter: "#s = :n", Names: map[string]string{"#s": "status"}, Values: vals(":n", "new")}, RunOptions{},
			func(t *testing.T, r *Result) {
				if r.Count != 2 || r.ScannedCount != 4 || len(r.Pages[0].Visits) != 4 {
					t.Errorf("%+v", r)
				}
			}},
		{"put", model.Pattern{ID: 5, Operation: model.OpPutItem, Item: item("PK", "c#9", "SK", "A", "G2", "x")}, RunOptions{},
			func(t *testing.T, r *Result) {
				if r.Err != nil || len(r.Changes) != 1 || r.Changes[0].Before != nil || r.Consumed.Indexes["G2"].Write != 1 {
					t.Errorf("%+v", r)
				}
			}},
		{"update failed condition", model.Pattern{ID: 6, Operation: model.OpUpdateItem, Key: item("PK", "c#1", "SK", "A"),
			Update: "SET #s = :x", Condition: "#s = :o", Names: map[string]string{"#s": "status"}, Values: vals(":x", "y", ":o", "zzz")}, RunOptions{},
			func(t *testing.T, r *Result) {
				if r.Err == nil || r.Err.Type != ConditionalCheckFailedException || r.Consumed.Table.Write != 1 {
					t.Errorf("%+v", r)
				}
			}},
		{"transaction sharing the pattern's values", model.Pattern{ID: 7, Operation: model.OpTransactWriteItems, Values: vals(":a", "1", ":b", "2"),
			Actions: []model.Action{
				{Kind: model.ActionUpdate, Key: item("PK", "c#1", "SK", "A"), Update: "SET x = :a"},
				{Kind: model.ActionUpdate, Key: item("PK", "c#1", "SK", "B"), Update: "SET x = :b"},
			}}, RunOptions{},
			func(t *testing.T, r *Result) {
				if r.Err != nil || len(r.Changes) != 2 || r.Changes[1].After["x"].Str != "2" {
					t.Errorf("%+v %v", r, r.Err)
				}
			}},
		{"batch write refuses an update", model.Pattern{ID: 8, Operation: model.OpBatchWriteItem,
			Actions: []model.Action{{Kind: model.ActionUpdate, Key: item("PK", "c#1", "SK", "A"), Update: "SET x = :a"}}}, RunOptions{},
			func(t *testing.T, r *Result) {
				if r.Err == nil || !strings.Contains(r.Err.Message, "Pattern 8 action 0") {
					t.Errorf("%+v", r.Err)
				}
			}},
		{"unknown operation", model.Pattern{ID: 9, Operation: "Frobnicate"}, RunOptions{},
			func(t *testing.T, r *Result) {
				if r.Err == nil || r.Err.Type != ValidationException {
					t.Errorf("%+v", r.Err)
				}
			}},
		{"batch get", model.Pattern{ID: 10, Operation: model.OpBatchGetItem, Keys: []model.Item{item("PK", "c#1", "SK", "A"), item("PK", "c#2", "SK", "A")}}, RunOptions{},
			func(t *testing.T, r *Result) {
				if r.Count != 2 || r.Consumed.Table.Read != 1 {
					t.Errorf("%+v", r)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.Run(&tc.p, tc.opts)
			if r.PatternID != tc.p.ID || r.Operation != tc.p.Operation {
				t.Errorf("result names pattern %d %s", r.PatternID, r.Operation)
			}
			tc.check(t, r)
			if e.Len() != 4 {
				t.Errorf("a pattern changed the engine: len %d", e.Len())
			}
			g, _ := e.GetItem(GetItemInput{Key: item("PK", "c#1", "SK", "A")})
			if !g.Item.Equal(d.Items[0]) {
				t.Errorf("a pattern changed an item: %v", g.Item)
			}
		})
	}
	rs := e.RunAll([]model.Pattern{
		{ID: 1, Operation: model.OpDeleteItem, Key: item("PK", "c#1", "SK", "A")},
		{ID: 2, Operation: model.OpGetItem, Key: item("PK", "c#1", "SK", "A")},
	}, RunOptions{})
	if len(rs) != 2 || rs[0].PatternID != 1 || rs[1].Count != 1 {
		t.Errorf("RunAll: a write was seen by the next pattern: %+v", rs)
	}
}

// FromDesign names the item DynamoDB would refuse; Load, also where it is in the file.
func TestFromDesignErrors(t *testing.T) {
	d := testDesign()
	d.Items = append(d.Items, item("PK", "x"))
	if _, err := FromDesign(d); err == nil || !strings.Contains(err.Error(), "items[4]: One or more parameter values were invalid: Missing the key SK in the item") {
		t.Errorf("got %v", err)
	}
	pos := make([]model.Pos, 5)
	pos[4] = model.Pos{File: "d.yaml", Line: 12, Col: 5}
	if _, err := Load(d.Table, ItemSlice{Items: d.Items, At: pos}); err == nil || !strings.HasPrefix(errMsg(err), "d.yaml:12:5: items[4]:") {
		t.Errorf("got %v", err)
	}
	bad := testTable()
	bad.Indexes = append(bad.Indexes, bad.Indexes[0])
	if _, err := New(bad); err == nil {
		t.Errorf("duplicate index name accepted")
	}
	bad = testTable()
	bad.Attributes["SK"] = model.TypeBOOL
	if _, err := New(bad); err == nil {
		t.Errorf("BOOL key accepted")
	}
}

// Clone is copy-on-write: writes on either side are not seen by the other.
func TestClone(t *testing.T) {
	e := newTestEngine(t, item("PK", "a", "SK", "s", "G2", "g"))
	c := e.Clone()
	if _, err := c.PutItem(PutItemInput{Item: item("PK", "b", "SK", "s", "G2", "g")}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DeleteItem(DeleteItemInput{Key: item("PK", "a", "SK", "s")}); err != nil {
		t.Fatal(err)
	}
	if e.Len() != 0 || c.Len() != 2 {
		t.Errorf("len e %d c %d", e.Len(), c.Len())
	}
	pg, err := c.Query(QueryInput{IndexName: "G2", KeyConditionExpression: "G2 = :g", ExpressionAttributeValues: vals(":g", "g")})
	if err != nil || pg.Count != 2 {
		t.Errorf("clone's index: %v %+v", err, pg)
	}
	pg, err = e.Query(QueryInput{IndexName: "G2", KeyConditionExpression: "G2 = :g", ExpressionAttributeValues: vals(":g", "g")})
	if err != nil || pg.Count != 0 {
		t.Errorf("original's index: %v %+v", err, pg)
	}
}
