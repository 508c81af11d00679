package render

import (
	"strings"
	"testing"

	"stwb/model"
)

// A PartiQL pattern's sheet shows its statement and parameters.
func TestPatternDetailShowsTheStatement(t *testing.T) {
	p := &model.Pattern{ID: 3, Name: "orders", Operation: model.OpExecuteStatement, Limit: 25,
		Statement: `SELECT * FROM "t" WHERE PK = ?`, Parameters: []model.Value{model.Str("CUST#42"), model.Num("7")}}
	got := strings.Join(PatternDetail(p, 120, Plain()), "\n")
	for _, want := range []string{"ExecuteStatement (limit 25)", `statement   SELECT * FROM "t" WHERE PK = ?`, "parameters  [CUST#42, 7]"} {
		if !strings.Contains(got, want) {
			t.Errorf("the sheet lacks %q:\n%s", want, got)
		}
	}
}
