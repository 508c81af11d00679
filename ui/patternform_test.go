package ui

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"stwb/model"
)

// Every FORMAT.md pattern field can be entered: a TransactWriteItems with two
// conditional puts, a BatchGetItem's keys, expect, expectError, partitions, batch.
// The list fields are read by the loader, and written back as they were read.
func TestPatternFormEveryField(t *testing.T) {
	d := fixture()
	base := func(op string) map[string]string {
		return map[string]string{"id": "9", "name": "n", "operation": op}
	}
	with := func(v map[string]string, kv ...string) map[string]string {
		for i := 0; i+1 < len(kv); i += 2 {
			v[kv[i]] = kv[i+1]
		}
		return v
	}
	cases := []struct {
		name  string
		vals  map[string]string
		field string // the field expected to hold an error; "" for none
		check func(p model.Pattern) bool
	}{
		{"transaction of two conditional puts", with(base("TransactWriteItems"), "actions",
			`[{put: {PK: "STUDENT#s-1", SK: PROFILE, email: a@x}, condition: "attribute_not_exists(PK)"}, {put: {PK: "EMAIL#a@x", SK: CLAIM}, condition: "attribute_not_exists(PK)"}]`,
			"expectError", "TransactionCanceledException"), "",
			func(p model.Pattern) bool {
				return len(p.Actions) == 2 && p.Actions[1].Kind == model.ActionPut && p.Actions[1].Condition == "attribute_not_exists(PK)" && p.ExpectError == "TransactionCanceledException"
			}},
		{"update, delete and check actions", with(base("TransactWriteItems"), "actions",
			`[{update: {key: {PK: A, SK: B}, update: "SET n = :n", values: {":n": 1}}}, {delete: {key: {PK: A, SK: C}}}, {check: {key: {PK: A, SK: D}, condition: "attribute_exists(PK)"}}]`), "",
			func(p model.Pattern) bool {
				return len(p.Actions) == 3 && p.Actions[0].Update == "SET n = :n" && p.Actions[2].Kind == model.ActionCheck
			}},
		{"batch get keys and expect", with(base("BatchGetItem"), "keys", `[{PK: "CUST#1", SK: PROFILE}, {PK: "CUST#2", SK: PROFILE}]`,
			"expect", `[{PK: "CUST#1", SK: PROFILE}]`, "partitions", "1000"), "",
			func(p model.Pattern) bool { return len(p.Keys) == 2 && len(p.Expect) == 1 && p.Partitions == 1000 }},
		{"batch scan", with(base("Scan"), "batch", "true"), "", func(p model.Pattern) bool { return p.Batch }},
		// The loader's words, at the field.
		{"an action of no kind", with(base("TransactWriteItems"), "actions", `[{putt: {PK: A, SK: B}}]`), "actions", nil},
		{"a check without its condition", with(base("TransactWriteItems"), "actions", `[{check: {key: {PK: A, SK: B}}}]`), "actions", nil},
		{"BatchWriteItem takes no update", with(base("BatchWriteItem"), "actions", `[{update: {key: {PK: A, SK: B}, update: "SET a = :a"}}]`), "actions", nil},
		{"a transaction needs actions", base("TransactWriteItems"), "actions", nil},
		{"GetItem takes no keys", with(base("GetItem"), "key", `{PK: "CUST#1", SK: PROFILE}`, "keys", `[{PK: A, SK: B}]`), "keys", nil},
		{"batch is for a Scan", with(base("Query"), "key", "PK = :p", "values", `{":p": A}`, "batch", "true"), "batch", nil},
		{"partitions are a count", with(base("Scan"), "partitions", "-3"), "partitions", nil},
		// Fan-out and pages, read as the loader reads them (docs/FORMAT.md "Fan-out patterns").
		{"a fan-out over shards, every page", with(base("Query"), "key", "PK = :p", "values", `{":p": "S#{shard}"}`, "fanout", `{shard: "0..3"}`, "pages", "all"), "",
			func(p model.Pattern) bool {
				return p.Fanout != nil && len(p.Fanout.Values) == 4 && p.Fanout.Range == "0..3" && p.AllPages
			}},
		{"a GetItem over a list", with(base("GetItem"), "key", `{PK: "R#{region}", SK: P}`, "fanout", `{region: [eu, us]}`), "",
			func(p model.Pattern) bool {
				return p.Fanout != nil && slices.Equal(p.Fanout.Values, []string{"eu", "us"})
			}},
		{"a range over 1,000 values", with(base("Query"), "key", "PK = :p", "values", `{":p": "S#{shard}"}`, "fanout", `{shard: "0..1000"}`), "fanout", nil},
		{"a list over 1,000 values", with(base("Query"), "key", "PK = :p", "values", `{":p": "S#{shard}"}`, "fanout", "{shard: ["+strings.Repeat("a, ", 1000)+"b]}"), "fanout", nil},
		{"two variables", with(base("Query"), "key", "PK = :p", "values", `{":p": "S#{a}"}`, "fanout", `{a: "0..1", b: "0..1"}`), "fanout", nil},
		{"not a range", with(base("Query"), "key", "PK = :p", "values", `{":p": "S#{a}"}`, "fanout", `{a: "0-9"}`), "fanout", nil},
		{"a value twice", with(base("Query"), "key", "PK = :p", "values", `{":p": "S#{a}"}`, "fanout", `{a: [x, x]}`), "fanout", nil},
		{"a fan-out no value uses", with(base("Query"), "key", "PK = :p", "values", `{":p": "S#1"}`, "fanout", `{a: "0..1"}`), "fanout", nil},
		{"a Scan does not fan out", with(base("Scan"), "fanout", `{a: "0..1"}`), "fanout", nil},
		{"pages is all or empty", with(base("Scan"), "pages", "2"), "pages", nil},
		{"a GetItem has one page", with(base("GetItem"), "key", `{PK: A, SK: B}`, "pages", "all"), "pages", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, errs := patternFromForm(d, model.Pattern{}, -1, c.vals)
			if c.field != "" {
				if errs[c.field] == "" {
					t.Fatalf("no error on %s (errors %v)", c.field, errs)
				}
				return
			}
			if len(errs) > 0 {
				t.Fatalf("errors %v", errs)
			}
			if !c.check(p) {
				t.Fatalf("pattern %+v", p)
			}
			// Written back into the form, the fields read as the same pattern.
			again, errs := patternFromForm(d, model.Pattern{}, -1, patternFormValues(&p))
			if len(errs) > 0 || !reflect.DeepEqual(again.WithoutPos(), p.WithoutPos()) {
				t.Errorf("the form's text of the pattern reads back differently: %v\n%+v\n%+v", errs, again, p)
			}
		})
	}
}

// The loader's message for an action names what to write.
func TestPatternFormActionMessage(t *testing.T) {
	_, errs := patternFromForm(fixture(), model.Pattern{}, -1, map[string]string{"id": "9", "name": "n",
		"operation": "TransactWriteItems", "actions": `[{check: {key: {PK: A, SK: B}}}]`})
	if !strings.Contains(errs["actions"], "condition is missing") {
		t.Errorf("actions: %q", errs["actions"])
	}
}

// p pins a pattern's expect to its current result; when the items change, the
// preview shows the drift, and p pins again.
func TestPinExpectAndDrift(t *testing.T) {
	m := testModel(t, fixtureDoc(), 120, 40)
	send(t, m, keys("1", "j", "p")...)
	pt := m.Doc().D.Patterns[1]
	if len(pt.Expect) != 1 || pt.Expect[0]["SK"].Str != "ORDER#002" || len(pt.Expect[0]) != 2 {
		t.Fatalf("expect pinned as %v; status %q", pt.Expect, m.status)
	}
	if !strings.Contains(screen(m), "· ✓ as expected") {
		t.Errorf("no sign the result is as expected:\n%s", screen(m))
	}
	// Order 001's total rises over the filter's 50: pattern 2 now returns both.
	d := m.Doc().D
	it := d.Items[1].Clone()
	it["total"] = model.Num("60")
	send(t, m, applyEdit{e: itemEdit("raise", opSet, 1, d.Items[1], it)})
	send(t, m, keys("1")...)
	if !strings.Contains(screen(m), "✗ drift: pattern 2 returns [PK=CUST#1 SK=ORDER#002, PK=CUST#1 SK=ORDER#001]") {
		t.Errorf("no drift shown:\n%s", screen(m))
	}
	send(t, m, keys("p")...)
	if n := len(m.Doc().D.Patterns[1].Expect); n != 2 {
		t.Errorf("re-pinned %d keys", n)
	}
}

// The table form takes the autoscaling target, the region and the review settings,
// each read by the loader's rules; bad ones are refused at their field.
func TestTableFormSettings(t *testing.T) {
	for _, c := range []struct {
		field, value, bad string
	}{
		{"billing", "provisioned 100 50 target 0.7", ""},
		{"billing", "provisioned 100 50 target 1.5", "billing"},
		{"region", "us-east-1", ""},
		{"region", "mars-north-1", "region"},
		{"review", `{unused-index: {severity: off, reason: "read by the nightly export"}}`, ""},
		{"review", `{unused-index: {severity: off}}`, "review"},
		{"review", `{unused-index: {severity: loud, reason: x}}`, "review"},
	} {
		m := testModel(t, fixtureDoc(), 120, 40)
		send(t, m, keys("3", "g", "enter")...)
		for m.form().fields[m.form().focus].name != c.field {
			send(t, m, keys("tab")...)
		}
		send(t, m, keys("ctrl+u")...)
		send(t, m, typeText(c.value))
		send(t, m, keys("ctrl+s")...)
		if c.bad != "" {
			if m.form() == nil || m.form().field(c.bad).err == "" {
				t.Errorf("%s %q was not refused at its field", c.field, c.value)
			}
			continue
		}
		if m.form() != nil {
			t.Fatalf("%s %q refused: %s", c.field, c.value, m.form().err)
		}
		d := m.Doc().D
		switch c.field {
		case "billing":
			if d.Table.Billing.Target != 0.7 || d.Table.Billing.Read != 100 {
				t.Errorf("billing %+v", d.Table.Billing)
			}
		case "region":
			if d.Region != "us-east-1" {
				t.Errorf("region %q", d.Region)
			}
		case "review":
			if len(d.Review) != 1 || d.Review[0].Severity != "off" || d.Review[0].Reason != "read by the nightly export" {
				t.Errorf("review %+v", d.Review)
			}
			send(t, m, keys("3", "g", "enter")...)
			if v := m.form().field("review").input.Value(); !strings.Contains(v, "nightly export") {
				t.Errorf("the form shows the review settings as %q", v)
			}
		}
	}
}

// Editing the table keeps what its billing field does not show: the autoscaling
// bounds of a provisioned table.
func TestTableFormKeepsAutoscaling(t *testing.T) {
	d := fixture()
	d.Table.Billing = model.Billing{Mode: model.Provisioned, Read: 10, Write: 5,
		Autoscaling: model.Autoscaling{Read: &model.Scaling{Min: 5, Max: 100, Target: 0.7}}}
	m := testModel(t, &Doc{D: d, Sample: "fixture"}, 120, 40)
	send(t, m, keys("3", "g", "enter", "tab")...)
	send(t, m, typeText(" (renamed)"))
	send(t, m, keys("ctrl+s")...)
	if m.form() != nil {
		t.Fatal(m.form().err)
	}
	if a := m.Doc().D.Table.Billing.Autoscaling.Read; a == nil || a.Max != 100 {
		t.Errorf("the table form dropped the autoscaling bounds: %+v", m.Doc().D.Table.Billing)
	}
}

// A fan-out set through the pattern form runs: daily-orders-sharded's pattern 2,
// edited from ten shards to four, heads its preview with the four queries. A range
// over model.MaxFanout is refused at the field, in the loader's words.
func TestPatternFormSetsAFanout(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		doc, err := OpenSample("daily-orders-sharded")
		if err != nil {
			t.Fatal(err)
		}
		m := testModel(t, doc, size[0], size[1])
		send(t, m, keys("j", "enter")...)
		f := m.form()
		if f == nil || f.field("fanout").input.Value() != `{shard: "0..9"}` {
			t.Fatalf("%dx%d: the edit form does not show the pattern's fanout:\n%s", size[0], size[1], screen(m))
		}
		for f.fields[f.focus].name != "fanout" {
			send(t, m, keys("tab")...)
		}
		send(t, m, keys("ctrl+u")...)
		send(t, m, typeText(`{shard: "0..5000"}`))
		if e := f.field("fanout").err; !strings.Contains(e, `fanout.shard: range "0..5000" is 5,001 values; a fan-out runs at most 1000 requests`) {
			t.Errorf("%dx%d: fanout error %q", size[0], size[1], e)
		}
		send(t, m, keys("ctrl+u")...)
		send(t, m, typeText(`{shard: "0..3"}`))
		send(t, m, keys("ctrl+s")...)
		if m.form() != nil {
			t.Fatalf("%dx%d: the form was refused: %v\n%s", size[0], size[1], m.form().err, screen(m))
		}
		if scr := screen(m); !strings.Contains(scr, "4 queries over shard 0..3, merged:") {
			t.Errorf("%dx%d: the preview does not run the form's fan-out:\n%s", size[0], size[1], scr)
		}
		if fo := m.Doc().D.Patterns[1].Fanout; fo == nil || fo.Range != "0..3" || len(fo.Values) != 4 {
			t.Errorf("%dx%d: pattern 2's fanout is %+v", size[0], size[1], fo)
		}
	}
}
