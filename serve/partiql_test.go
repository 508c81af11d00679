package serve

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"stwb/model"
)

// musicDesign is a table keyed by Artist and SongTitle, with a GSI on Genre, and
// three songs.
func musicDesign() *model.Design {
	song := func(artist, title, genre string, year string) model.Item {
		return model.Item{"Artist": model.Str(artist), "SongTitle": model.Str(title), "Genre": model.Str(genre),
			"Year": model.Num(year), "Info": model.Map(map[string]model.Value{"label": model.Str("L-" + title)})}
	}
	return &model.Design{Version: 1, Name: "music", Table: model.Table{Name: "Music",
		Key:        model.KeySchema{Partition: "Artist", Sort: "SongTitle"},
		Indexes:    []model.Index{{Name: "ByGenre", Key: model.KeySchema{Partition: "Genre", Sort: "Year"}, Projection: model.Projection{Type: model.ProjectAll}}},
		Attributes: map[string]model.Type{"Year": model.TypeN}},
		Items: []model.Item{song("Acme", "Happy Day", "rock", "2001"), song("Acme", "Hey Now", "pop", "2003"), song("Zed", "Blue", "rock", "1999")}}
}

// apiCode is an SDK error's code and message.
func apiCode(t *testing.T, err error) (string, string) {
	t.Helper()
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("error %v is not an API error", err)
	}
	return ae.ErrorCode(), ae.ErrorMessage()
}

func TestExecuteStatementOverTheWire(t *testing.T) {
	st := start(t, Options{}, musicDesign())
	ctx := context.Background()
	exec := func(stmt string, params ...types.AttributeValue) (*dynamodb.ExecuteStatementOutput, error) {
		return st.db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(stmt), Parameters: params,
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	}
	// A SELECT with the partition key is a Query: one partition, its capacity.
	out, err := exec(`SELECT SongTitle, Info.label FROM "Music" WHERE Artist = ? AND begins_with(SongTitle, 'H')`, &types.AttributeValueMemberS{Value: "Acme"})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Items) != 2 || out.Items[0]["label"].(*types.AttributeValueMemberS).Value != "L-Happy Day" || out.Items[0]["Info"] != nil {
		t.Fatalf("query items %v", out.Items)
	}
	if out.ConsumedCapacity == nil || *out.ConsumedCapacity.CapacityUnits != 0.5 {
		t.Errorf("query capacity %v, want 0.5 (one eventually consistent 4 KB read)", out.ConsumedCapacity)
	}
	// ORDER BY the sort key DESC reads backwards.
	out, err = exec(`SELECT * FROM "Music" WHERE Artist = 'Acme' ORDER BY SongTitle DESC`)
	if err != nil || len(out.Items) != 2 || out.Items[0]["SongTitle"].(*types.AttributeValueMemberS).Value != "Hey Now" {
		t.Fatalf("ORDER BY DESC: %v %v", out, err)
	}
	// A SELECT on an index by its partition key.
	out, err = exec(`SELECT * FROM "Music"."ByGenre" WHERE Genre = 'rock' AND "Year" > 2000`)
	if err != nil || len(out.Items) != 1 {
		t.Fatalf("index query: %v %v", out, err)
	}
	// Several partition key values are a Query each, paged together.
	out, err = exec(`SELECT SongTitle FROM "Music" WHERE Artist = 'Zed' OR Artist = ?`, &types.AttributeValueMemberS{Value: "Acme"})
	if err != nil || len(out.Items) != 3 || out.Items[0]["SongTitle"].(*types.AttributeValueMemberS).Value != "Blue" || *out.ConsumedCapacity.CapacityUnits != 1 {
		t.Fatalf("OR of partition keys: %v %v", out, err)
	}
	var titles []string
	var tok *string
	for range 5 {
		page, err := st.db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "Music" WHERE Artist IN ['Zed', 'Acme']`),
			Limit: aws.Int32(2), NextToken: tok})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			titles = append(titles, it["SongTitle"].(*types.AttributeValueMemberS).Value)
		}
		if tok = page.NextToken; tok == nil {
			break
		}
	}
	if strings.Join(titles, ",") != "Blue,Happy Day,Hey Now" {
		t.Errorf("IN by pages: %v", titles)
	}
	// Without a partition key equality it is a Scan, paged by Limit with NextToken.
	var seen int
	var token *string
	for pages := 0; ; pages++ {
		page, err := st.db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "Music" WHERE Genre = 'rock'`),
			Limit: aws.Int32(1), NextToken: token})
		if err != nil {
			t.Fatal(err)
		}
		seen += len(page.Items)
		if (page.NextToken == nil) != (page.LastEvaluatedKey == nil) {
			t.Errorf("page %d: NextToken %v, LastEvaluatedKey %v: both or neither", pages, page.NextToken, page.LastEvaluatedKey)
		}
		if page.NextToken == nil {
			break
		}
		if pages > 5 {
			t.Fatal("the scan never ended")
		}
		token = page.NextToken
	}
	if seen != 2 {
		t.Errorf("scan by pages found %d rock songs, want 2", seen)
	}
	// A NextToken given with another statement is refused.
	first, _ := st.db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "Music"`), Limit: aws.Int32(1)})
	_, err = st.db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "Music" WHERE Genre = 'pop'`), NextToken: first.NextToken})
	if code, msg := apiCode(t, err); code != "ValidationException" || msg != "NextToken does not match request" {
		t.Errorf("foreign NextToken: %s %s", code, msg)
	}

	// INSERT, then INSERT again: DuplicateItemException.
	if _, err := exec(`INSERT INTO "Music" VALUE {'Artist': 'New', 'SongTitle': 'One', 'Tags': <<'a', 'b'>>, 'Plays': 1}`); err != nil {
		t.Fatal(err)
	}
	_, err = exec(`INSERT INTO "Music" VALUE {'Artist': 'New', 'SongTitle': 'One'}`)
	if code, msg := apiCode(t, err); code != "DuplicateItemException" || msg != "Duplicate primary key exists in table" {
		t.Errorf("duplicate INSERT: %s %s", code, msg)
	}
	// UPDATE with SET, arithmetic, set_add and REMOVE, RETURNING the new item.
	out, err = exec(`UPDATE "Music" SET Plays = Plays + 2 SET Tags = set_add(Tags, <<'c'>>) REMOVE Genre WHERE Artist = 'New' AND SongTitle = 'One' RETURNING ALL NEW *`)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Items) != 1 || out.Items[0]["Plays"].(*types.AttributeValueMemberN).Value != "3" || len(out.Items[0]["Tags"].(*types.AttributeValueMemberSS).Value) != 3 {
		t.Errorf("UPDATE RETURNING ALL NEW: %v", out.Items)
	}
	// UPDATE of a missing item is not an upsert.
	_, err = exec(`UPDATE "Music" SET Plays = 1 WHERE Artist = 'Nobody' AND SongTitle = 'None'`)
	if code, msg := apiCode(t, err); code != "ConditionalCheckFailedException" || msg != "The conditional request failed" {
		t.Errorf("UPDATE of a missing item: %s %s", code, msg)
	}
	// A false non-key condition fails the write, with the item when asked.
	_, err = st.db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`DELETE FROM "Music" WHERE Artist = 'New' AND SongTitle = 'One' AND Plays > 10`),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) || ccf.Item["Plays"] == nil {
		t.Errorf("DELETE with a false condition: %v", err)
	}
	// DELETE of a missing item is no error; DELETE RETURNING ALL OLD * returns the item.
	if out, err = exec(`DELETE FROM "Music" WHERE Artist = 'Nobody' AND SongTitle = 'None' AND Plays = 1`); err != nil || len(out.Items) != 0 {
		t.Errorf("DELETE of a missing item: %v %v", out, err)
	}
	if out, err = exec(`DELETE FROM "Music" WHERE Artist = 'New' AND SongTitle = 'One' RETURNING ALL OLD *`); err != nil || len(out.Items) != 1 {
		t.Errorf("DELETE RETURNING ALL OLD: %v %v", out, err)
	}

	// Each refusal, with DynamoDB's type and message.
	for _, c := range []struct{ stmt, code, msg string }{
		{`SELECTT * FROMM "Music"`, "ValidationException", "Statement wasn't well formed, can't be processed: Expected data manipulation"},
		{`SELECT * FROM "Music" WHERE`, "ValidationException", "Statement wasn't well formed, can't be processed: Unexpected term"},
		{`SELECT * FROM "Nope" WHERE Artist = 'x'`, "ResourceNotFoundException", "Requested resource not found"},
		{`DELETE FROM "Music" WHERE Artist = 'Acme'`, "ValidationException", "Where clause does not contain a mandatory equality on all key attributes"},
		{`SELECT * FROM "Music" WHERE Artist = ?`, "ValidationException", "Number of parameters in request and statement don't match."},
		{`DELETE FROM "Music" WHERE Artist = 'a' AND SongTitle = 'b' RETURNING ALL NEW *`, "ValidationException", "Invalid returning clause: RETURNING ALL NEW *. Only RETURNING ALL OLD * is allowed in DELETE statements."},
		{`SELECT * FROM "Music" WHERE Artist = 'Acme' AND EXISTS(Genre)`, "ValidationException", "Unrecognized function: exists at 1:49:6"},
	} {
		_, err := exec(c.stmt)
		if code, msg := apiCode(t, err); code != c.code || msg != c.msg {
			t.Errorf("%s:\n got %s: %s\nwant %s: %s", c.stmt, code, msg, c.code, c.msg)
		}
	}
}

func TestBatchExecuteStatementOverTheWire(t *testing.T) {
	st := start(t, Options{}, musicDesign())
	ctx := context.Background()
	out, err := st.db.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		Statements: []types.BatchStatementRequest{
			{Statement: aws.String(`SELECT * FROM "Music" WHERE Artist = 'Acme' AND SongTitle = 'Hey Now'`)},
			{Statement: aws.String(`SELECT * FROM "Nope" WHERE Artist = 'x'`)},
			{Statement: aws.String(`SELECT * FROM "Music" WHERE Artist = 'Acme'`)},
			{Statement: aws.String(`INSERT INTO "Music" VALUE {'Artist': 'Acme', 'SongTitle': 'Hey Now'}`)},
			{Statement: aws.String(`INSERT INTO "Music" VALUE {'Artist': 'Acme', 'SongTitle': ?}`), Parameters: []types.AttributeValue{&types.AttributeValueMemberS{Value: "Third"}}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	r := out.Responses
	if len(r) != 5 || r[0].Item["Genre"] == nil || aws.ToString(r[0].TableName) != "Music" {
		t.Fatalf("responses %+v", r)
	}
	for i, want := range []struct{ code, msg string }{
		1: {"ResourceNotFound", "Requested resource not found"},
		2: {"ValidationError", "Select statements within BatchExecuteStatement must specify the primary key in the where clause."},
		3: {"DuplicateItem", "Duplicate primary key exists in table"},
	} {
		if want.code == "" {
			continue
		}
		if r[i].Error == nil || string(r[i].Error.Code) != want.code || aws.ToString(r[i].Error.Message) != want.msg {
			t.Errorf("statement %d: error %+v, want %s %s", i, r[i].Error, want.code, want.msg)
		}
	}
	if r[4].Error != nil {
		t.Errorf("statement 4: %+v", r[4].Error)
	}
	// Capacity, summed for the table: a 0.5 read, 1 for the failed insert, 1 for the insert.
	if len(out.ConsumedCapacity) != 1 || *out.ConsumedCapacity[0].CapacityUnits != 2.5 {
		t.Errorf("capacity %+v", out.ConsumedCapacity)
	}
	_, err = st.db.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{}})
	if code, msg := apiCode(t, err); code != "ValidationException" || msg != "1 validation error detected: Value '[]' at 'statements' failed to satisfy constraint: Member must have length greater than or equal to 1" {
		t.Errorf("empty batch: %s %s", code, msg)
	}
}

func TestExecuteTransactionOverTheWire(t *testing.T) {
	st := start(t, Options{}, musicDesign())
	ctx := context.Background()
	tx := func(stmts ...string) error {
		in := &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{}}
		for _, s := range stmts {
			in.TransactStatements = append(in.TransactStatements, types.ParameterizedStatement{Statement: aws.String(s)})
		}
		_, err := st.db.ExecuteTransaction(ctx, in)
		return err
	}
	// A duplicate INSERT cancels the transaction: nothing is written.
	err := tx(`INSERT INTO "Music" VALUE {'Artist': 'T', 'SongTitle': 'new'}`,
		`INSERT INTO "Music" VALUE {'Artist': 'Acme', 'SongTitle': 'Hey Now'}`,
		`UPDATE "Music" SET Plays = 1 WHERE Artist = 'Nobody' AND SongTitle = 'x'`)
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) || len(tce.CancellationReasons) != 3 {
		t.Fatalf("cancelled transaction: %v", err)
	}
	for i, want := range []string{"None", "DuplicateItem", "ConditionalCheckFailed"} {
		if got := aws.ToString(tce.CancellationReasons[i].Code); got != want {
			t.Errorf("reason %d: %s, want %s", i, got, want)
		}
	}
	if aws.ToString(tce.CancellationReasons[1].Message) != "Duplicate primary key exists in table" {
		t.Errorf("reason 1's message: %q", aws.ToString(tce.CancellationReasons[1].Message))
	}
	got, _ := st.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Music"), Key: map[string]types.AttributeValue{
		"Artist": &types.AttributeValueMemberS{Value: "T"}, "SongTitle": &types.AttributeValueMemberS{Value: "new"}}})
	if got.Item != nil {
		t.Error("the cancelled transaction wrote its INSERT")
	}
	// Writes all succeed together; reads read by whole key.
	if err := tx(`INSERT INTO "Music" VALUE {'Artist': 'T', 'SongTitle': 'new'}`, `EXISTS(SELECT * FROM "Music" WHERE Artist = 'Zed' AND SongTitle = 'Blue' AND Genre = 'rock')`); err != nil {
		t.Fatal(err)
	}
	out, err := st.db.ExecuteTransaction(ctx, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
		{Statement: aws.String(`SELECT Genre FROM "Music" WHERE Artist = 'Zed' AND SongTitle = 'Blue'`)},
		{Statement: aws.String(`SELECT * FROM "Music" WHERE Artist = 'T' AND SongTitle = 'new'`)}}})
	if err != nil || len(out.Responses) != 2 || len(out.Responses[0].Item) != 1 || out.Responses[1].Item["Artist"] == nil {
		t.Fatalf("read transaction: %+v %v", out, err)
	}
	err = tx(`SELECT * FROM "Music" WHERE Artist = 'Zed'`)
	if code, msg := apiCode(t, err); code != "ValidationException" || msg != "Validation failed in TransactStatements[0]: Select statements within ExecuteTransaction must specify the primary key in the where clause." {
		t.Errorf("read transaction without the key: %s %s", code, msg)
	}
	err = tx()
	if code, msg := apiCode(t, err); code != "ValidationException" || msg != "1 validation error detected: Value '[]' at 'transactStatements' failed to satisfy constraint: Member must have length greater than or equal to 1" {
		t.Errorf("empty transaction: %s %s", code, msg)
	}
}
