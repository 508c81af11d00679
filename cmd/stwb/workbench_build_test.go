package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"stwb/ui"
)

// The course-enrolment design of issue 13 (students, courses, enrolments many to
// many, a student by email, courses by department), built from an empty file through
// the workbench's forms alone: a GSI, four entities, items, seven patterns among them
// a TransactWriteItems of two conditional puts and its taken-email twin with
// expectError; saved with ctrl+s; run as the real Bubble Tea program (teatest) at
// 120x40. The saved file then passes
// stwb check (exit 0) and stwb query --json returns the expected items in order.
func TestWorkbenchBuildsCourseEnrolment(t *testing.T) {
	path := filepath.Join(t.TempDir(), "school.yaml")
	doc, err := ui.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := ui.New(doc, ui.Options{KeyMap: ui.DefaultKeyMap(), Styles: ui.NewStyles(ui.DefaultTheme()), RecoverEvery: -1})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	// wait reads the program's output until every text has been drawn: each step
	// waits for what it causes before the next key, as a user looks before typing.
	wait := func(texts ...string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			s := ansi.Strip(string(b))
			for _, x := range texts {
				if !strings.Contains(s, x) {
					return false
				}
			}
			return true
		}, teatest.WithDuration(15*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	}
	press := func(ks ...string) {
		for _, k := range ks {
			switch k {
			case "tab":
				tm.Send(tea.KeyMsg{Type: tea.KeyTab})
			case "ctrl+s":
				tm.Send(tea.KeyMsg{Type: tea.KeyCtrlS})
			case "ctrl+u":
				tm.Send(tea.KeyMsg{Type: tea.KeyCtrlU})
			default:
				tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
			}
		}
	}
	tabs := func(n int) {
		for range n {
			press("tab")
		}
	}
	wait("new design")
	// The GSI, from the Table pane's table row.
	press("3", "a")
	wait("Add a GSI")
	press("GSI1", "tab", "GSI1PK", "tab", "tab", "GSI1SK", "ctrl+s")
	wait("added GSI GSI1")
	// The entities: the first from the Entities heading (the last row), then from
	// the last entity.
	for _, e := range [][3]string{
		{"student", `{PK: "STUDENT#{studentId}", SK: PROFILE, GSI1PK: "EMAIL#{email}", GSI1SK: STUDENT}`, `{studentId: S, email: {type: S, unique: true}, name: S}`},
		{"course", `{PK: "COURSE#{courseId}", SK: META, GSI1PK: "DEPT#{dept}", GSI1SK: "COURSE#{courseId}"}`, `{courseId: S, dept: S, title: S}`},
		{"enrolment", `{PK: "STUDENT#{studentId}", SK: "COURSE#{courseId}", GSI1PK: "COURSE#{courseId}", GSI1SK: "STUDENT#{studentId}"}`, `{studentId: S, courseId: S}`},
		{"emailClaim", `{PK: "EMAIL#{email}", SK: CLAIM}`, `{email: S}`},
	} {
		press("3", "G", "a")
		wait("Add an entity")
		press(e[0], "tab", e[1], "tab", e[2], "ctrl+s")
		wait("added entity " + e[0])
	}
	// The items, through the item form: the keys are derived from the templates.
	for _, it := range [][3]string{
		{"student", `{studentId: s-1, email: ada@example.com, name: Ada}`, "STUDENT#s-1"},
		{"student", `{studentId: s-2, email: alan@example.com, name: Alan}`, "STUDENT#s-2"},
		{"emailClaim", `{email: ada@example.com}`, "EMAIL#ada@example.com"},
		{"emailClaim", `{email: alan@example.com}`, "EMAIL#alan@example.com"},
		{"course", `{courseId: c-1, dept: CS, title: Compilers}`, "COURSE#c-1"},
		{"course", `{courseId: c-2, dept: CS, title: Databases}`, "COURSE#c-2"},
		{"course", `{courseId: c-3, dept: MATH, title: Algebra}`, "COURSE#c-3"},
		{"enrolment", `{studentId: s-1, courseId: c-1}`, "STUDENT#s-1 SK=COURSE#c-1"},
		{"enrolment", `{studentId: s-1, courseId: c-2}`, "STUDENT#s-1 SK=COURSE#c-2"},
		{"enrolment", `{studentId: s-2, courseId: c-1}`, "STUDENT#s-2 SK=COURSE#c-1"},
	} {
		press("2", "a")
		wait("Add an item")
		press(it[0], "tab", it[1], "ctrl+s")
		wait("added item PK=" + it[2])
	}
	// The patterns. Fields in the form's order: name 1, operation 7, index 8, key 9,
	// values 15, actions 23, expectError 25.
	claim := func(id, email string) string {
		return `[{put: {type: student, PK: "STUDENT#` + id + `", SK: PROFILE, studentId: ` + id + `, email: ` + email + `, GSI1PK: "EMAIL#` + email + `", GSI1SK: STUDENT}, condition: "attribute_not_exists(PK)"}, ` +
			`{put: {type: emailClaim, PK: "EMAIL#` + email + `", SK: CLAIM, email: ` + email + `}, condition: "attribute_not_exists(PK)"}]`
	}
	for n, p := range []map[int]string{
		{1: "Get a student's profile", 7: "GetItem", 9: `{PK: "STUDENT#s-1", SK: PROFILE}`},
		{1: "Find a student by email", 7: "Query", 8: "GSI1", 9: "GSI1PK = :e", 15: `{":e": "EMAIL#ada@example.com"}`},
		{1: "List a department's courses", 7: "Query", 8: "GSI1", 9: "GSI1PK = :d AND begins_with(GSI1SK, :c)", 15: `{":d": "DEPT#CS", ":c": "COURSE#"}`},
		{1: "List a student's courses", 7: "Query", 9: "PK = :s AND begins_with(SK, :c)", 15: `{":s": "STUDENT#s-1", ":c": "COURSE#"}`},
		{1: "List a course's students", 7: "Query", 8: "GSI1", 9: "GSI1PK = :c AND begins_with(GSI1SK, :s)", 15: `{":c": "COURSE#c-1", ":s": "STUDENT#"}`},
		{1: "Register a student, claiming the email", 7: "TransactWriteItems", 23: claim("s-3", "grace@example.com")},
		{1: "Register with a taken email", 7: "TransactWriteItems", 23: claim("s-4", "ada@example.com"), 25: "TransactionCanceledException"},
	} {
		press("1", "a")
		wait("Add an access pattern")
		at := 0
		for f := 0; f <= 27; f++ {
			v, ok := p[f]
			if !ok {
				continue
			}
			tabs(f - at)
			at = f
			if f == 7 {
				press("ctrl+u")
			}
			press(v)
		}
		press("ctrl+s")
		wait(fmt.Sprintf("added pattern %d", n+1))
	}
	press("ctrl+s")
	wait("saved " + path[:20])
	press("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	d := tm.FinalModel(t).(*ui.Model).Doc().D
	if len(d.Patterns) != 7 || len(d.Items) != 10 || len(d.Entities) != 4 {
		t.Fatalf("built %d patterns, %d items, %d entities", len(d.Patterns), len(d.Items), len(d.Entities))
	}

	checkCourseDesign(t, path)
}

// checkCourseDesign holds a saved course-enrolment design to the command line: stwb
// check exits 0, and stwb query --json returns each read's items in order and the
// taken email's registration fails.
func checkCourseDesign(t *testing.T, path string) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run([]string{"check", path}, nil, &out, &errb); code != 0 {
		t.Fatalf("stwb check exit %d:\n%s%s", code, out.String(), errb.String())
	}
	for id, want := range map[string][][2]string{
		"3": {{"COURSE#c-1", "META"}, {"COURSE#c-2", "META"}},
		"2": {{"STUDENT#s-1", "PROFILE"}},
		"5": {{"STUDENT#s-1", "COURSE#c-1"}, {"STUDENT#s-2", "COURSE#c-1"}},
		"4": {{"STUDENT#s-1", "COURSE#c-1"}, {"STUDENT#s-1", "COURSE#c-2"}},
	} {
		out.Reset()
		if code := run([]string{"query", path, id, "--json"}, nil, &out, &errb); code != 0 {
			t.Fatalf("stwb query %s exit %d: %s", id, code, errb.String())
		}
		var r struct {
			Items []map[string]map[string]string `json:"items"`
		}
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		var got [][2]string
		for _, it := range r.Items {
			got = append(got, [2]string{it["PK"]["S"], it["SK"]["S"]})
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("pattern %s returns %v, want %v", id, got, want)
		}
	}
	out.Reset()
	run([]string{"query", path, "7", "--json"}, nil, &out, &errb)
	if !strings.Contains(out.String(), "TransactionCanceledException") {
		t.Errorf("the taken email's registration does not fail: %s", out.String())
	}
}
