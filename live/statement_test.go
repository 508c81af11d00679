package live

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/credentials"

	"stwb/designfile"
	"stwb/model"
	"stwb/serve"
	"stwb/verify"
)

// stwb verify sends a design's PartiQL read patterns as ExecuteStatement, to the
// table it verifies whatever its name, and compares the answer with the engine's
// prediction: here against stwb serve holding the design's items under another
// table name, so every statement must match, and a changed item must show.
func TestVerifyStatements(t *testing.T) {
	d := smallDesign()
	d.Patterns = []model.Pattern{
		{ID: 1, Name: "orders of customer 1, newest first", Operation: model.OpExecuteStatement,
			Statement: `SELECT * FROM "live-small" WHERE PK = ? AND begins_with(SK, 'ORDER#') ORDER BY SK DESC`, Parameters: []model.Value{model.Str("CUST#1")}},
		{ID: 2, Name: "orders in status A", Operation: model.OpExecuteStatement, Statement: `SELECT PK, total FROM "live-small"."GSI1" WHERE GSI1PK = 'STATUS#A'`},
		{ID: 3, Name: "big orders, every page", Operation: model.OpExecuteStatement, Statement: `SELECT * FROM "live-small" WHERE total > 50`, Limit: 2, AllPages: true},
		{ID: 4, Name: "a write", Operation: model.OpExecuteStatement, Statement: `DELETE FROM "live-small" WHERE PK = 'CUST#1' AND SK = 'PROFILE'`},
	}
	served := *d
	served.Table.Name = "renamed-small"
	srv := serve.New(serve.Options{})
	if err := srv.AddDesign(&served); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	ctx := context.Background()
	db, err := NewClient(ctx, Config{Endpoint: hs.URL, Region: "us-east-1",
		Credentials: credentials.NewStaticCredentialsProvider("x", "y", "")})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Verify(ctx, db, &designfile.File{Design: d}, "renamed-small", hs.URL)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{1: verify.StatusOK, 2: verify.StatusOK, 3: verify.StatusOK, 4: verify.StatusSkipped}
	for _, o := range rep.Patterns {
		if o.Status != want[o.ID] {
			t.Errorf("pattern %d: %s %v, want %s", o.ID, o.Status, o.Mismatches, want[o.ID])
		}
		if o.ID == 1 && o.Count != 2 {
			t.Errorf("pattern 1 returned %d items, want 2", o.Count)
		}
	}
	// The served table holds another total for ORDER#2: patterns 1 and 3 return it
	// (3 no longer), pattern 2 does not read it.
	if status, body := srv.Call("ExecuteStatement", []byte(`{"Statement": "UPDATE \"renamed-small\" SET total = 1 WHERE PK = 'CUST#1' AND SK = 'ORDER#2'"}`)); status != 200 {
		t.Fatalf("update: status %d %s", status, body)
	}
	rep, err = Verify(ctx, db, &designfile.File{Design: d}, "renamed-small", hs.URL)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range rep.Patterns {
		if got := o.Status == verify.StatusMismatch; got != (o.ID == 1 || o.ID == 3) {
			t.Errorf("after the change, pattern %d: %s %v", o.ID, o.Status, o.Mismatches)
		}
	}
}
