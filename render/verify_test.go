package render

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"stwb/verify"
)

// verifyFixture is a report with one outcome of each status. Its mismatch carries an
// item in DynamoDB JSON (no spaces: it must wrap, not be cut), one pattern name is
// CJK and emoji (two cells a character), and its emulator's capacity differs from the
// prediction on an index, as dynalite's does (it charges no index writes and sizes
// strings in UTF-16: DYNAMODB.md "Emulators as peers").
func verifyFixture() *verify.Report {
	caps := func(total, table float64, ix map[string]float64) *verify.CapacityFigures {
		return &verify.CapacityFigures{CapacityUnits: total, Table: table, Indexes: ix}
	}
	return &verify.Report{
		Design: "orders", Table: "orders-data", Endpoint: "http://127.0.0.1:4599",
		Notes: []string{"this endpoint is not AWS: an emulator's consumed capacity is not DynamoDB's " +
			"(dynalite sizes strings in UTF-16 code units, not UTF-8 bytes, and charges no index writes); " +
			"the items, their order, Count and ScannedCount are what is verified"},
		Mismatched: 1,
		Patterns: []verify.Outcome{
			{ID: 1, Name: "Get a customer's profile", Operation: "GetItem", Status: verify.StatusOK, Mismatches: []verify.Mismatch{},
				Count: 1, Predicted: caps(0.5, 0.5, map[string]float64{}), Consumed: caps(0.5, 0.5, map[string]float64{})},
			{ID: 2, Name: "注文一覧 🍣 newest first", Operation: "Query", Status: verify.StatusOK, Mismatches: []verify.Mismatch{},
				Count: 2, Scanned: 3, Predicted: caps(0.5, 0.5, map[string]float64{}), Consumed: caps(1, 1, map[string]float64{})},
			{ID: 3, Name: "Orders in a status", Operation: "Query", Index: "GSI1", Status: verify.StatusMismatch,
				Mismatches: []verify.Mismatch{
					{Field: "items", Predicted: "2 items", Got: "2 items",
						Detail: `item 1: predicted {"GSI1PK":{"S":"STATUS#SHIPPED"},"PK":{"S":"CUST#1"},"SK":{"S":"ORDER#002"},"total":{"N":"99"}}, got {"GSI1PK":{"S":"STATUS#SHIPPED"},"PK":{"S":"CUST#1"},"SK":{"S":"ORDER#002"},"total":{"N":"100"}}`},
				},
				Count: 2, Scanned: 2, Predicted: caps(0.5, 0, map[string]float64{"GSI1": 0.5}), Consumed: caps(0.5, 0, map[string]float64{"GSI1": 0.5})},
			{ID: 4, Name: "Place an order", Operation: "TransactWriteItems", Status: verify.StatusSkipped, Mismatches: []verify.Mismatch{},
				Reason: "a write pattern; verify never changes the loaded items"},
			{ID: 5, Name: "An order and its lines at once", Operation: "TransactGetItems", Status: verify.StatusUnsupported, Mismatches: []verify.Mismatch{},
				Reason: "the endpoint does not implement TransactGetItems (UnknownOperationException); dynalite has no transactions"},
		},
	}
}

func TestVerifyGoldens(t *testing.T) {
	for _, c := range []struct {
		name  string
		width int
	}{{"verify_120", 120}, {"verify_80", 80}} {
		t.Run(c.name, func(t *testing.T) {
			lines := Verify(verifyFixture(), c.width, Plain())
			for i, l := range lines {
				if w := Width(l); w > c.width {
					t.Errorf("line %d is %d cells wide, over %d: %q", i, w, c.width, l)
				}
			}
			checkGolden(t, c.name, strings.Join(lines, "\n")+"\n")
		})
	}
}

// What each outcome must show, at any width: the report is the whole answer the
// workbench gives, so nothing of it may be cut away (a long mismatch wraps).
func TestVerifyContent(t *testing.T) {
	rep := verifyFixture()
	for _, width := range []int{120, 80, 50} {
		joined := ansi.Strip(strings.Join(Verify(rep, width, Plain()), ""))
		flat := strings.ReplaceAll(joined, " ", "")
		for _, want := range []string{
			"5patterns:2ok·1mismatch·1skipped·1unsupported·1differfromtheprediction",
			// A Query shows ScannedCount beside Count (Query.html "Query result counts").
			"returned2,scanned3",
			// dynalite's figure differs from the prediction: marked, not a mismatch.
			"capacityconsumed1,predicted0.5(differs)",
			// An index charge is named (ReturnConsumedCapacity INDEXES, API_ConsumedCapacity.html).
			"capacityconsumed0.5(table0,GSI10.5),predicted0.5(table0,GSI10.5)",
			// The whole mismatch, including the end of the second item.
			`got{"GSI1PK":{"S":"STATUS#SHIPPED"},"PK":{"S":"CUST#1"},"SK":{"S":"ORDER#002"},"total":{"N":"100"}}`,
			"awritepattern;verifyneverchangestheloadeditems",
			"dynalitehasnotransactions",
			"chargesnoindexwrites",
		} {
			if !strings.Contains(flat, want) {
				t.Errorf("width %d: %q is missing from\n%s", width, want, strings.Join(Verify(rep, width, Plain()), "\n"))
			}
		}
		// A GetItem has no ScannedCount (API_GetItem.html "Response Elements").
		if strings.Contains(flat, "returned1,scanned") {
			t.Errorf("width %d: the GetItem shows a ScannedCount", width)
		}
	}
}

func TestVerifySummary(t *testing.T) {
	ok := &verify.Report{Design: "d", Table: "t", Patterns: []verify.Outcome{
		{ID: 1, Operation: "GetItem", Status: verify.StatusOK, Count: 1,
			Predicted: &verify.CapacityFigures{CapacityUnits: 0.5, Table: 0.5},
			// An index absent on one side and charged 0 on the other is the same charge.
			Consumed: &verify.CapacityFigures{CapacityUnits: 0.5, Table: 0.5, Indexes: map[string]float64{"GSI1": 0}}},
	}}
	cases := []struct {
		name    string
		rep     *verify.Report
		want    []string
		notWant []string
	}{
		{"all as predicted, against AWS", ok,
			[]string{"table t at AWS", "1 patterns: 1 ok · 0 mismatch", "every read pattern answered as predicted"},
			[]string{"(differs)", "Notes", "differ from the prediction"}},
		{"one mismatch", verifyFixture(),
			[]string{"1 differ from the prediction", "Notes"},
			[]string{"every read pattern answered as predicted"}},
		{"no report", nil, nil, []string{"Verify"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := strings.Join(Verify(c.rep, 120, Plain()), "\n")
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q missing from\n%s", w, got)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(got, w) {
					t.Errorf("%q should not be in\n%s", w, got)
				}
			}
		})
	}
}
