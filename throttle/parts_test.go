package throttle

import (
	"testing"
)

// TestCheckParts: a transaction's actions are checked each on its own, nothing
// taken, and Take takes their units once all may run.
func TestCheckParts(t *testing.T) {
	c := newClock()
	l := New(Options{Scale: 100, Now: c.now}) // 10 WCU a second a key value
	def := onDemand()
	// HOT spends its second's units and more: its bucket is in debt.
	if r := l.Admit(&def, arn, []Charge{write("", "S:HOT", "", 12, false)}); r != nil {
		t.Fatalf("first write refused: %+v", r)
	}
	parts := [][]Charge{{write("", "S:COLD", "", 1, false)}, {write("", "S:HOT", "", 1, false)}, {write("", "S:OTHER", "", 1, false)}}
	rs := l.Check(&def, arn, parts)
	if len(rs) != 3 || rs[0] != nil || rs[1] == nil || rs[2] != nil {
		t.Fatalf("Check = %v, want only the HOT action refused", rs)
	}
	if got := rs[1].Reasons; len(got) != 1 || got[0].Reason != "TableWriteKeyRangeThroughputExceeded" {
		t.Errorf("HOT's reasons %+v", got)
	}
	// Nothing was taken: COLD still has its whole second (10 WCU), so a write of
	// 10 passes and leaves it empty.
	if r := l.Admit(&def, arn, []Charge{write("", "S:COLD", "", 10, false)}); r != nil {
		t.Fatalf("COLD refused: Check took its units: %+v", r)
	}
	if rs := l.Check(&def, arn, [][]Charge{{write("", "S:COLD", "", 1, false)}}); rs == nil {
		t.Error("COLD not refused once empty")
	}
	// Take takes every part's units.
	if rs := l.Check(&def, arn, [][]Charge{{write("", "S:A", "", 10, false)}}); rs != nil {
		t.Fatalf("A refused: %+v", rs)
	}
	l.Take(&def, arn, []Charge{write("", "S:A", "", 10, false)})
	if rs := l.Check(&def, arn, [][]Charge{{write("", "S:A", "", 1, false)}}); rs == nil {
		t.Error("Take took nothing from A")
	}
}

// TestPartWords: the code and message each kind of refusal gives a transaction's
// action (TransactionCanceledException's list, API_TransactWriteItems.html), a
// batch statement (API_BatchStatementError.html) and a batch none of whose items
// ran (API_BatchWriteItem.html, API_BatchGetItem.html).
func TestPartWords(t *testing.T) {
	tableARN := arn
	gsiARN := arn + "/index/g"
	reason := func(index bool, limit string) Reason {
		res := tableARN
		if index {
			res = gsiARN
		}
		return Reason{Reason: ReasonName(index, true, limit), Resource: res}
	}
	refused := func(provisioned bool, rs ...Reason) *Refusal {
		var limits []string
		for _, r := range rs {
			for _, l := range LimitTypes {
				if len(r.Reason) > len(l) && r.Reason[len(r.Reason)-len(l):] == l {
					limits = append(limits, l)
				}
			}
		}
		return refusal(provisioned, rs, limits)
	}
	cases := []struct {
		name              string
		r                 *Refusal
		cancel, cancelMsg string
		stmt, stmtMsg     string
	}{
		{"provisioned table", refused(true, reason(false, Provisioned)), CodeProvisioned, msgProvisioned, CodeProvisioned, msgProvisioned},
		{"provisioned GSI", refused(true, reason(true, Provisioned)), CodeProvisioned, msgProvisionedIndex, CodeProvisioned, msgProvisionedIndex},
		{"hot key, provisioned table", refused(true, reason(false, KeyRange)), CodeProvisioned, msgProvisioned, CodeProvisioned, msgProvisioned},
		{"hot key, on-demand table", refused(false, reason(false, KeyRange)), CodeThrottling, msgOnDemandKey, CodeThrottling, msgOnDemandKey},
		{"hot key, on-demand GSI", refused(false, reason(true, KeyRange)), CodeThrottling, msgOnDemandIndex, CodeThrottling, msgOnDemandIndex},
		{"table and GSI, on-demand", refused(false, reason(false, KeyRange), reason(true, KeyRange)), CodeThrottling, msgOnDemandKey, CodeThrottling, msgOnDemandKey},
		{"account quota", refused(false, reason(false, AccountLimit)), CodeThrottling, msgOnDemandKey, CodeRequestLimit, msgAccount},
		{"on-demand maximum", refused(false, reason(false, MaxOnDemand)), CodeThrottling, msgOnDemandKey, CodeThrottling, msgOnDemandKey},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if c, m := tc.r.Cancellation(); c != tc.cancel || m != tc.cancelMsg {
				t.Errorf("Cancellation = %s %q, want %s %q", c, m, tc.cancel, tc.cancelMsg)
			}
			if c, m := tc.r.StatementError(); c != tc.stmt || m != tc.stmtMsg {
				t.Errorf("StatementError = %s %q, want %s %q", c, m, tc.stmt, tc.stmtMsg)
			}
		})
	}
	batches := []struct {
		name string
		rs   []*Refusal
		code string
		msg  string
		n    int // reasons
	}{
		{"provisioned only", []*Refusal{refused(true, reason(false, Provisioned)), refused(true, reason(true, Provisioned))},
			ProvisionedThroughputExceededException, msgProvisioned, 2},
		{"partition limit on a provisioned table", []*Refusal{refused(true, reason(false, Provisioned)), refused(true, reason(false, KeyRange))},
			ThrottlingException, msgOnDemandKey, 2},
		{"on-demand hot keys, one reason", []*Refusal{refused(false, reason(false, KeyRange)), refused(false, reason(false, KeyRange))},
			ThrottlingException, msgOnDemandKey, 1},
		{"on-demand maximum", []*Refusal{refused(false, reason(false, MaxOnDemand))}, ThrottlingException, msgMaxOnDemand, 1},
	}
	for _, tc := range batches {
		t.Run("batch "+tc.name, func(t *testing.T) {
			r := BatchRefusal(tc.rs)
			if r.Code != tc.code || r.Message != tc.msg || len(r.Reasons) != tc.n {
				t.Errorf("BatchRefusal = %s %q %v, want %s %q and %d reasons", r.Code, r.Message, r.Reasons, tc.code, tc.msg, tc.n)
			}
		})
	}
}
