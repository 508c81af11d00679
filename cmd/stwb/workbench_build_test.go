package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"stwb/ui"
)

// The course-enrolment design of issue 13 (students, courses, enrolments many to
// many, a student by email, courses by department), built from an empty file through
// the workbench's forms alone: a GSI, four entities, items, seven patterns among them
// a TransactWriteItems of two conditional puts and its taken-email twin with
// expectError; expect pinned with p; saved with ctrl+s. The saved file then passes
// stwb check (exit 0) and stwb query --json returns the expected items in order.
func TestWorkbenchBuildsCourseEnrolment(t *testing.T) {
	path := filepath.Join(t.TempDir(), "school.yaml")
	doc, err := ui.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := ui.New(doc, ui.Options{KeyMap: ui.DefaultKeyMap(), Styles: ui.NewStyles(ui.DefaultTheme()), RecoverEvery: -1})
	drive(t, m, m.Init())
	drive(t, m, func() tea.Msg { return tea.WindowSizeMsg{Width: 120, Height: 40} })
	press := func(ks ...string) {
		for _, k := range ks {
			var msg tea.KeyMsg
			switch k {
			case "tab":
				msg = tea.KeyMsg{Type: tea.KeyTab}
			case "ctrl+s":
				msg = tea.KeyMsg{Type: tea.KeyCtrlS}
			case "ctrl+u":
				msg = tea.KeyMsg{Type: tea.KeyCtrlU}
			default:
				msg = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
			}
			drive(t, m, func() tea.Msg { return msg })
		}
	}
	tabs := func(n int) {
		for range n {
			press("tab")
		}
	}
	// The GSI, from the Table pane's table row.
	press("3", "a", "GSI1", "tab", "GSI1PK", "tab", "tab", "GSI1SK", "ctrl+s")
	// The entities: the first from the Entities heading (the last row), then from
	// the last entity.
	for _, e := range [][3]string{
		{"student", `{PK: "STUDENT#{studentId}", SK: PROFILE, GSI1PK: "EMAIL#{email}", GSI1SK: STUDENT}`, `{studentId: S, email: {type: S, unique: true}, name: S}`},
		{"course", `{PK: "COURSE#{courseId}", SK: META, GSI1PK: "DEPT#{dept}", GSI1SK: "COURSE#{courseId}"}`, `{courseId: S, dept: S, title: S}`},
		{"enrolment", `{PK: "STUDENT#{studentId}", SK: "COURSE#{courseId}", GSI1PK: "COURSE#{courseId}", GSI1SK: "STUDENT#{studentId}"}`, `{studentId: S, courseId: S}`},
		{"emailClaim", `{PK: "EMAIL#{email}", SK: CLAIM}`, `{email: S}`},
	} {
		press("3", "G", "a", e[0], "tab", e[1], "tab", e[2], "ctrl+s")
	}
	// The items, through the item form: the keys are derived from the templates.
	for _, it := range [][2]string{
		{"student", `{studentId: s-1, email: ada@example.com, name: Ada}`},
		{"student", `{studentId: s-2, email: alan@example.com, name: Alan}`},
		{"emailClaim", `{email: ada@example.com}`},
		{"emailClaim", `{email: alan@example.com}`},
		{"course", `{courseId: c-1, dept: CS, title: Compilers}`},
		{"course", `{courseId: c-2, dept: CS, title: Databases}`},
		{"course", `{courseId: c-3, dept: MATH, title: Algebra}`},
		{"enrolment", `{studentId: s-1, courseId: c-1}`},
		{"enrolment", `{studentId: s-1, courseId: c-2}`},
		{"enrolment", `{studentId: s-2, courseId: c-1}`},
	} {
		press("2", "a", it[0], "tab", it[1], "ctrl+s")
	}
	// The patterns. Fields in the form's order: name 1, operation 7, index 8, key 9,
	// values 15, actions 21, expectError 23.
	claim := func(id, email string) string {
		return `[{put: {type: student, PK: "STUDENT#` + id + `", SK: PROFILE, studentId: ` + id + `, email: ` + email + `, GSI1PK: "EMAIL#` + email + `", GSI1SK: STUDENT}, condition: "attribute_not_exists(PK)"}, ` +
			`{put: {type: emailClaim, PK: "EMAIL#` + email + `", SK: CLAIM, email: ` + email + `}, condition: "attribute_not_exists(PK)"}]`
	}
	for _, p := range []map[int]string{
		{1: "Get a student's profile", 7: "GetItem", 9: `{PK: "STUDENT#s-1", SK: PROFILE}`},
		{1: "Find a student by email", 7: "Query", 8: "GSI1", 9: "GSI1PK = :e", 15: `{":e": "EMAIL#ada@example.com"}`},
		{1: "List a department's courses", 7: "Query", 8: "GSI1", 9: "GSI1PK = :d AND begins_with(GSI1SK, :c)", 15: `{":d": "DEPT#CS", ":c": "COURSE#"}`},
		{1: "List a student's courses", 7: "Query", 9: "PK = :s AND begins_with(SK, :c)", 15: `{":s": "STUDENT#s-1", ":c": "COURSE#"}`},
		{1: "List a course's students", 7: "Query", 8: "GSI1", 9: "GSI1PK = :c AND begins_with(GSI1SK, :s)", 15: `{":c": "COURSE#c-1", ":s": "STUDENT#"}`},
		{1: "Register a student, claiming the email", 7: "TransactWriteItems", 21: claim("s-3", "grace@example.com")},
		{1: "Register with a taken email", 7: "TransactWriteItems", 21: claim("s-4", "ada@example.com"), 23: "TransactionCanceledException"},
	} {
		press("1", "a")
		at := 0
		for f := 0; f <= 25; f++ {
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
	}
	// Pin the five reads' expect to what they return, then save.
	press("1", "g")
	for range 5 {
		press("p", "j")
	}
	press("ctrl+s")
	d := m.Doc().D
	if len(d.Patterns) != 7 || len(d.Items) != 10 || len(d.Entities) != 4 || m.Doc().Dirty {
		t.Fatalf("built %d patterns, %d items, %d entities (dirty %v):\n%s", len(d.Patterns), len(d.Items), len(d.Entities), m.Doc().Dirty, m.View())
	}

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

// drive runs a command and every command its messages cause, synchronously, as the
// Bubble Tea loop would, until nothing is left.
func drive(t *testing.T, m *ui.Model, cmd tea.Cmd) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 100000 {
			t.Fatal("commands never settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil, tea.QuitMsg:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			if reflect.TypeOf(msg).String() == "tea.sequenceMsg" {
				continue
			}
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
}
