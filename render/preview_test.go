package render

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"

	"stwb/engine"
	"stwb/model"
)

// Preview follows DynamoDB's Query semantics (Query.html): items READ in key order
// and then filtered, so a dropped item still shows (dimmed) and counts in
// ScannedCount; a page that stops at Limit carries a LastEvaluatedKey.
func TestPreview(t *testing.T) {
	s := model.Str
	k := func(pk, sk string) model.Item { return model.Item{"PK": s(pk), "SK": s(sk)} }
	cases := []struct {
		name string
		res  *engine.Result
		want []string
	}{
		{"read with filter and page end", &engine.Result{Operation: model.OpQuery,
			Pages: []engine.Page{{Count: 1, ScannedCount: 2, LastEvaluatedKey: k("A", "2"),
				Visits:   []engine.Visit{{Item: k("A", "1"), Kept: false}, {Item: model.Item{"PK": s("A"), "SK": s("2"), "名前": s("山田 🚀")}, Kept: true}},
				Consumed: engine.Capacity{Table: engine.Units{Read: 0.5}}}},
			Consumed: engine.Capacity{Table: engine.Units{Read: 0.5}}},
			[]string{"page 1: Count 1, ScannedCount 2", "  ✗ PK=A SK=1  (dropped by filter)", "  PK=A SK=2 名前=山田 🚀", "── page ends · LastEvaluatedKey PK=A SK=2", "capacity per request: 0.5 RCU (table 0.5)"}},
		{"get item missing", &engine.Result{Operation: model.OpGetItem, Consumed: engine.Capacity{Table: engine.Units{Read: 0.5}}},
			[]string{"0 item(s)", "(no item with this key)", "0.5 RCU"}},
		{"index read units", &engine.Result{Operation: model.OpQuery, Pages: []engine.Page{{}},
			Consumed: engine.Capacity{Indexes: map[string]engine.Units{"GSI1": {Read: 1.5}}}},
			[]string{"(no items)", "end of results · no LastEvaluatedKey", "1.5 RCU (table 0, GSI1 1.5)"}},
		{"validation error", &engine.Result{Operation: model.OpQuery, Err: &engine.Error{Type: "ValidationException", Message: "Query condition missed key schema element: PK"}},
			[]string{"ValidationException: Query condition missed key schema element: PK"}},
		// GSI.html "Writes": an index key change is a delete and a put in the index.
		{"write before and after", &engine.Result{Operation: model.OpUpdateItem,
			Changes: []engine.Change{{Key: k("O", "M"), Before: model.Item{"PK": s("O"), "SK": s("M"), "st": s("NEW")},
				After: model.Item{"PK": s("O"), "SK": s("M"), "st": s("SHIPPED")}, Table: 1, Indexes: map[string]float64{"GSI1": 2}}},
			Consumed: engine.Capacity{Table: engine.Units{Write: 1}, Indexes: map[string]engine.Units{"GSI1": {Write: 2}}}},
			[]string{"PK=O SK=M   table 1 WCU · GSI1 2 WCU", "  before: st=NEW   (+2 unchanged)", "  after:  st=SHIPPED   (+2 unchanged)", "write units per request: 3 WCU (table 1, GSI1 2)"}},
		{"put of a new item", &engine.Result{Operation: model.OpPutItem,
			Changes:  []engine.Change{{Key: k("N", "1"), After: k("N", "1"), Table: 1}},
			Consumed: engine.Capacity{Table: engine.Units{Write: 1}}},
			[]string{"  before: (absent)", "  after:  PK=N SK=1"}},
		{"failed condition still billed", &engine.Result{Operation: model.OpPutItem,
			Err:     &engine.Error{Type: "ConditionalCheckFailedException", Message: "The conditional request failed"},
			Changes: nil, Consumed: engine.Capacity{Table: engine.Units{Write: 1}}},
			[]string{"ConditionalCheckFailedException: The conditional request failed", "(no item touched)", "1 WCU"}},
		{"transaction reasons", &engine.Result{Operation: model.OpTransactWriteItems,
			Err: &engine.Error{Type: "TransactionCanceledException", Message: "Transaction cancelled",
				Reasons: []engine.CancellationReason{{Code: "None"}, {Code: "ConditionalCheckFailed", Message: "The conditional request failed"}}}},
			[]string{"TransactionCanceledException", "  action 1: ConditionalCheckFailed The conditional request failed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lines := Preview(c.res, []string{"PK", "SK"}, 100, Plain())
			out := strings.Join(lines, "\n")
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("preview lacks %q:\n%s", w, out)
				}
			}
			for _, l := range lines {
				if lipgloss.Width(l) > 100 {
					t.Errorf("line wider than 100 cells: %q", l)
				}
			}
		})
	}
	if Preview(nil, nil, 80, Plain()) != nil {
		t.Error("a nil result drew something")
	}
}

func TestPatternRowAndDetail(t *testing.T) {
	f := false
	p := model.Pattern{ID: 12, Name: "注文を探す 🚀 by status", Operation: model.OpQuery, Index: "GSI1", Holds: "status",
		KeyCondition: "GSI1PK = :s", Filter: "#t > :m", Names: map[string]string{"#t": "total"},
		Values: map[string]model.Value{":s": model.Str("STATUS#X"), ":m": model.Num("10")}, Forward: &f, Limit: 25, Rate: 5}
	for _, w := range []int{40, 80, 120} {
		if got := lipgloss.Width(PatternRow(&p, w)); got != w {
			t.Errorf("PatternRow at %d is %d cells", w, got)
		}
	}
	out := strings.Join(PatternDetail(&p, 80, Plain()), "\n")
	checkGolden(t, "pattern_detail", out)
}

func TestFindings(t *testing.T) {
	fs := []Finding{
		{Rule: "unused-index", Severity: "warning", Where: "index GSI1", Message: "no pattern reads GSI1", Fix: "drop it"},
		{Severity: "error", Where: "x.yaml:3:4", Message: "bad"},
	}
	out := strings.Join(Findings(fs, 0, 1, 60, 10, Plain()), "\n")
	checkGolden(t, "findings", out)
	if got := Findings(nil, 0, 0, 60, 10, Plain()); len(got) != 1 || !strings.Contains(got[0], "no findings") {
		t.Errorf("no findings drew %q", got)
	}
	if got := Findings(fs, 1, 1, 60, 1, Plain()); len(got) != 1 || !strings.Contains(got[0], "> error") {
		t.Errorf("from 1 in one line drew %q", got)
	}
}

// A finding whole: the message, the fix and the source wrapped, nothing cut.
func TestFindingDetail(t *testing.T) {
	f := Finding{Rule: "uniqueness-unenforced", Severity: "warning", Where: "entity student",
		Message: "email is unique but nothing enforces it: two students can register the same email",
		Fix:     "write a claim item (PK=EMAIL#{email}) in the same TransactWriteItems with attribute_not_exists(PK)",
		Source:  "seeds/04-patterns.md, Uniqueness"}
	lines := FindingDetail(f, 30, Plain())
	text := strings.Join(lines, " ")
	for _, w := range []string{"register", "attribute_not_exists(PK)", "Uniqueness"} {
		if !strings.Contains(text, w) {
			t.Errorf("%q is cut: %q", w, lines)
		}
	}
	for _, l := range lines {
		if Width(l) > 30 {
			t.Errorf("line wider than 30: %q", l)
		}
	}
}
