package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"stwb/model"
)

// The pattern form shaped by its operation (issue 25, item 7), driven through the
// program as a terminal drives it, in bursts (one write, one message of runes and
// keys) and key by key, at 120x40 and 80x24.

// mark is where the output is now: waitAfter looks only at what is drawn after it.
func (tt *terminal) mark() int { return len(tt.out.String()) }

// waitAfter waits until each text has been drawn after mark at.
func (tt *terminal) waitAfter(at int, texts ...string) {
	tt.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		out := ansi.Strip(tt.out.String()[at:])
		if !slices.ContainsFunc(texts, func(s string) bool { return !strings.Contains(out, s) }) {
			return
		}
		if time.Now().After(deadline) {
			tt.t.Fatalf("never drawn: %q; the last lines drawn:\n%s", texts, tail(out, 1500))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// key sends one named key, as a terminal sends it on its own.
func (tt *terminal) key(k tea.KeyType) { tt.p.Send(tea.KeyMsg{Type: k}) }

const shiftTab = "\x1b[Z"

// A Query in a few keys: tab on the empty key condition offers the table's key,
// " " and tab its AND, b and tab begins_with over the sort key; each placeholder is
// a field under it, completed from the items' values. The preview of what the
// pattern returns is drawn inside the form and follows each change; a filter on a
// key attribute, which DynamoDB refuses, is said in the form before applying.
func TestPatternFormQueryInAFewKeys(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		m := New(fixtureDoc(), Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
		tt := startTerminal(t, m, w, h)
		tt.waitFor("capacity per request")
		tt.write("a")
		tt.write("Orders of a customer\t\t\t\t") // name; rate, operation (Query), index (the table), key
		at := tt.mark()
		tt.write("\t") // the empty key condition: the table's key offered
		tt.waitAfter(at, "PK = :pk", "give the value of :pk")
		tt.each(" ") // key by key
		tt.key(tea.KeyTab)
		tt.each("b")
		tt.key(tea.KeyTab)
		tt.waitAfter(at, "PK = :pk AND begins_with(SK, :sk)", ":sk")
		at = tt.mark()
		tt.write("\tC\t1\tO\t") // :pk is CUST# then 1, :sk ORDER#
		tt.waitAfter(at, "Count 2, ScannedCount 2", "SK=ORDER#001", "SK=ORDER#002")
		at = tt.mark()
		tt.write("\x15ORDER#002") // ctrl+u, and :sk names one order: the preview follows
		tt.waitAfter(at, "Count 1, ScannedCount 1")
		at = tt.mark()
		tt.write("\tPK = :pk") // a filter on the partition key
		tt.waitAfter(at, "DynamoDB refuses this request: ValidationException: Filter Expression can")
		tt.write("\x15\x13") // ctrl+u clears it, ctrl+s applies
		tt.waitFor("added pattern 4")
		m = tt.stop()
		p := m.Doc().D.Patterns[3]
		if p.KeyCondition != "PK = :pk AND begins_with(SK, :sk)" || !p.Values[":pk"].Equal(model.Str("CUST#1")) ||
			!p.Values[":sk"].Equal(model.Str("ORDER#002")) || p.Filter != "" || p.Operation != model.OpQuery {
			t.Errorf("pattern 4 is %+v", p)
		}
	})
}

// The form shows the fields the operation takes: a GetItem its key attributes, one
// field each, and no filter, limit or actions. Changing the operation reshapes the
// form and keeps the text of what no longer applies: back to GetItem, its key is
// as it was, and what the Query had is not part of the GetItem.
func TestPatternFormReshapesByOperation(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		m := New(fixtureDoc(), Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
		tt := startTerminal(t, m, w, h)
		tt.waitFor("capacity per request")
		tt.write("aA profile\t\tg\t") // a burst: the form, its name, GetItem by its first letter
		at := tt.mark()
		tt.write("C\t1\tP\t") // key PK: CUST# then 1; key SK: PROFILE
		tt.waitAfter(at, "key PK", "key SK", "PROFILE", "customerId=1")
		tt.write(shiftTab + shiftTab + "q\t") // back to the operation: a Query
		at = tt.mark()
		tt.write("\t\t")
		tt.waitAfter(at, "PK = :pk", "filter", "limit")
		at = tt.mark()
		tt.write(shiftTab + shiftTab)
		// write goes through the terminal's input and each straight to the program:
		// wait for the focus to reach the operation before sending keys the other way.
		tt.waitAfter(at, "› operation")
		tt.each("g") // key by key: GetItem again
		tt.key(tea.KeyTab)
		tt.settle()
		m = tt.stop()
		f := m.form()
		if f == nil {
			t.Fatal("the form closed")
		}
		names := f.fieldNames()
		for _, want := range []string{"key:PK", "key:SK", "projection", "consistent"} {
			if !slices.Contains(names, want) {
				t.Errorf("a GetItem's form lacks %s: %v", want, names)
			}
		}
		for _, not := range []string{"key", "index", "filter", "limit", "actions", "item", "update", "forward", ":pk"} {
			if slices.Contains(names, not) {
				t.Errorf("a GetItem's form shows %s: %v", not, names)
			}
		}
		if v := f.field("key:PK").input.Value(); v != "CUST#1" {
			t.Errorf("key PK came back as %q", v)
		}
		scr := screen(m)
		if !strings.Contains(scr, "key PK") || strings.Contains(scr, "filter ") {
			t.Errorf("the screen:\n%s", scr)
		}
		f.validate()
		p, errs := patternFromFormOf(f)
		if len(errs) > 0 || p.Operation != model.OpGetItem || p.KeyCondition != "" || len(p.Values) != 0 || !p.Key["SK"].Equal(model.Str("PROFILE")) {
			t.Errorf("the GetItem the form makes: %+v (errors %v)", p, errs)
		}
	})
}

// patternFromFormOf is the pattern the pattern form f makes now.
func patternFromFormOf(f *form) (model.Pattern, map[string]string) {
	return f.aside.(*patternPreview).pf.check(f.values())
}

// ExecuteStatement takes a statement and its parameters, which the form shows for
// it alone; the preview runs the statement.
func TestPatternFormExecuteStatement(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		m := New(fixtureDoc(), Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
		tt := startTerminal(t, m, w, h)
		tt.waitFor("capacity per request")
		tt.write("aA customer's items\t\tes\t") // es: ExecuteStatement's capitals
		tt.waitFor("statement", "parameters")
		at := tt.mark()
		tt.write(`SELECT * FROM "orders-data" WHERE PK = ?` + "\t[CUST#2]")
		tt.waitAfter(at, "Ada")
		tt.write("\x13")
		tt.waitFor("added pattern 4")
		m = tt.stop()
		p := m.Doc().D.Patterns[3]
		if p.Operation != model.OpExecuteStatement || !strings.HasPrefix(p.Statement, "SELECT") || len(p.Parameters) != 1 || p.Parameters[0].Str != "CUST#2" {
			t.Errorf("pattern 4 is %+v", p)
		}
	})
}

// A transaction's actions from their structure: tab opens the list, p a put, the
// entity and its attributes by their first letters, the condition once the put is
// written; the preview shows what the write changes before it is applied.
func TestPatternFormTransactionCompleted(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		m := New(fixtureDoc(), Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
		tt := startTerminal(t, m, w, h)
		tt.waitFor("capacity per request")
		tt.write("aAdd a customer\t\ttw\t")
		at := tt.mark()
		tt.write("\tp\tc\tc\t\"9\", n\tZed}, \tn\t]")
		tt.waitAfter(at, "after:  PK=CUST#9 SK=PROFILE")
		tt.write("\x13")
		tt.waitFor("added pattern 4")
		m = tt.stop()
		p := m.Doc().D.Patterns[3]
		if p.Operation != model.OpTransactWriteItems || len(p.Actions) != 1 || p.Actions[0].Condition != "attribute_not_exists(PK)" ||
			!p.Actions[0].Item["PK"].Equal(model.Str("CUST#9")) {
			t.Errorf("pattern 4 is %+v", p)
		}
	})
}

// A key attribute whose name is a reserved word is offered as a #name, and its
// field comes filled with the attribute (ReservedWords.html).
func TestPatternFormReservedKeyName(t *testing.T) {
	doc := fixtureDoc()
	doc.D.Table.Indexes[0].Key = model.KeySchema{Partition: "status", Sort: "GSI1SK"}
	m := testModel(t, doc, 120, 40)
	send(t, m, keys("a", "x", "tab", "tab", "tab", "G", "tab", "tab")...)
	f := m.form()
	if v := f.field("key").input.Value(); v != "#pk = :pk" {
		t.Fatalf("the key condition offered is %q", v)
	}
	if fl := f.field("#pk"); fl == nil || fl.input.Value() != "status" {
		t.Fatalf("the #pk field: %+v (fields %v)", fl, f.fieldNames())
	}
}
