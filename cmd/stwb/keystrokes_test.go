package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"stwb/ui"
)

// keyDriver runs the workbench (teatest, 120x40) and counts the keys a person would
// press: each rune typed is one, each named key (tab, ctrl+s, ...) one.
type keyDriver struct {
	t    *testing.T
	tm   *teatest.TestModel
	keys int
}

func newKeyDriver(t *testing.T, path string) *keyDriver {
	doc, err := ui.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := ui.New(doc, ui.Options{KeyMap: ui.DefaultKeyMap(), Styles: ui.NewStyles(ui.DefaultTheme()), RecoverEvery: -1})
	return &keyDriver{t: t, tm: teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))}
}

// wait reads the output until every text has been drawn: each step waits for what
// it causes before the next key, as a person looks before typing.
func (k *keyDriver) wait(texts ...string) {
	k.t.Helper()
	teatest.WaitFor(k.t, k.tm.Output(), func(b []byte) bool {
		s := ansi.Strip(string(b))
		for _, x := range texts {
			if !strings.Contains(s, x) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(15*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

var namedKeys = map[string]tea.KeyType{"tab": tea.KeyTab, "ctrl+s": tea.KeyCtrlS, "ctrl+u": tea.KeyCtrlU, "enter": tea.KeyEnter, "esc": tea.KeyEsc}

func (k *keyDriver) press(ks ...string) {
	for _, s := range ks {
		if t, ok := namedKeys[s]; ok {
			k.tm.Send(tea.KeyMsg{Type: t})
			k.keys++
			continue
		}
		k.tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)})
		k.keys += len([]rune(s))
	}
}

func (k *keyDriver) tabs(n int) {
	for range n {
		k.press("tab")
	}
}

// finish saves, quits and returns the design built.
func (k *keyDriver) finish(path string) *ui.Model {
	k.press("ctrl+s")
	k.wait("saved " + path[:20])
	k.press("q")
	k.tm.WaitFinished(k.t, teatest.WithFinalTimeout(5*time.Second))
	return k.tm.FinalModel(k.t).(*ui.Model)
}

// The course-enrolment design (students, courses, enrolments, a unique email,
// seven patterns) scripted from an empty file twice: as issue 13's test types it
// (every field of every form written out) and the fast way the workbench now
// allows (the palette with tab completion for entities and items, the pattern
// puts built from the entity templates). Both designs pass stwb check and give the
// same query results; the keys each took are counted and compared.
func TestCourseEnrolmentKeystrokes(t *testing.T) {
	dir := t.TempDir()
	slow := filepath.Join(dir, "slow.yaml")
	k := newKeyDriver(t, slow)
	buildCourseByForms(k)
	if d := k.finish(slow).Doc().D; len(d.Patterns) != 7 || len(d.Items) != 10 || len(d.Entities) != 4 {
		t.Fatalf("by forms: %d patterns, %d items, %d entities", len(d.Patterns), len(d.Items), len(d.Entities))
	}
	checkCourseDesign(t, slow)

	fast := filepath.Join(dir, "fast.yaml")
	f := newKeyDriver(t, fast)
	buildCourseFast(f)
	if d := f.finish(fast).Doc().D; len(d.Patterns) != 7 || len(d.Items) != 10 || len(d.Entities) != 4 {
		t.Fatalf("fast: %d patterns, %d items, %d entities", len(d.Patterns), len(d.Items), len(d.Entities))
	}
	checkCourseDesign(t, fast)

	t.Logf("course-enrolment design from an empty file: %d keys form by form, %d the fast way (%.0f%%)", k.keys, f.keys, 100*float64(f.keys)/float64(k.keys))
	if f.keys >= k.keys {
		t.Errorf("the fast way took %d keys, form by form %d", f.keys, k.keys)
	}
}

var courseEntities = []struct{ name, keys, attrs, palette string }{
	{"student", `{PK: "STUDENT#{studentId}", SK: PROFILE, GSI1PK: "EMAIL#{email}", GSI1SK: STUDENT}`, `{studentId: S, email: {type: S, unique: true}, name: S}`,
		"PK=STUDENT#{studentId} SK=PROFILE GSI1PK=EMAIL#{email} GSI1SK=STUDENT studentId:S email:S:unique name:S"},
	{"course", `{PK: "COURSE#{courseId}", SK: META, GSI1PK: "DEPT#{dept}", GSI1SK: "COURSE#{courseId}"}`, `{courseId: S, dept: S, title: S}`,
		"PK=COURSE#{courseId} SK=META GSI1PK=DEPT#{dept} GSI1SK=COURSE#{courseId} courseId:S dept:S title:S"},
	{"enrolment", `{PK: "STUDENT#{studentId}", SK: "COURSE#{courseId}", GSI1PK: "COURSE#{courseId}", GSI1SK: "STUDENT#{studentId}"}`, `{studentId: S, courseId: S}`,
		"PK=STUDENT#{studentId} SK=COURSE#{courseId} GSI1PK=COURSE#{courseId} GSI1SK=STUDENT#{studentId} studentId:S courseId:S"},
	{"emailClaim", `{PK: "EMAIL#{email}", SK: CLAIM}`, `{email: S}`, "PK=EMAIL#{email} SK=CLAIM email:S"},
}

var courseItems = []struct{ entity, attrs, key string }{
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
}

// coursePatterns are the seven patterns by the pattern form's fields: name 1,
// operation 7, index 8, key 9, values 15, actions 23, expectError 25. claim writes
// the registration's two puts.
func coursePatterns(claim func(id, email string) string) []map[int]string {
	return []map[int]string{
		{1: "Get a student's profile", 7: "GetItem", 9: `{PK: "STUDENT#s-1", SK: PROFILE}`},
		{1: "Find a student by email", 7: "Query", 8: "GSI1", 9: "GSI1PK = :e", 15: `{":e": "EMAIL#ada@example.com"}`},
		{1: "List a department's courses", 7: "Query", 8: "GSI1", 9: "GSI1PK = :d AND begins_with(GSI1SK, :c)", 15: `{":d": "DEPT#CS", ":c": "COURSE#"}`},
		{1: "List a student's courses", 7: "Query", 9: "PK = :s AND begins_with(SK, :c)", 15: `{":s": "STUDENT#s-1", ":c": "COURSE#"}`},
		{1: "List a course's students", 7: "Query", 8: "GSI1", 9: "GSI1PK = :c AND begins_with(GSI1SK, :s)", 15: `{":c": "COURSE#c-1", ":s": "STUDENT#"}`},
		{1: "Register a student, claiming the email", 7: "TransactWriteItems", 23: claim("s-3", "grace@example.com")},
		{1: "Register with a taken email", 7: "TransactWriteItems", 23: claim("s-4", "ada@example.com"), 25: "TransactionCanceledException"},
	}
}

func addPatterns(k *keyDriver, ps []map[int]string) {
	for n, p := range ps {
		k.press("1", "a")
		k.wait("Add an access pattern")
		at := 0
		for f := 0; f <= 27; f++ {
			v, ok := p[f]
			if !ok {
				continue
			}
			k.tabs(f - at)
			at = f
			if f == 7 {
				k.press("ctrl+u")
			}
			k.press(v)
		}
		k.press("ctrl+s")
		k.wait(fmt.Sprintf("added pattern %d", n+1))
	}
}

func addGSI(k *keyDriver) {
	k.press("3", "a")
	k.wait("Add a GSI")
	k.press("GSI1", "tab", "GSI1PK", "tab", "tab", "GSI1SK", "ctrl+s")
	k.wait("added GSI GSI1")
}

// buildCourseByForms is issue 13's script: every form's fields typed out, keys
// included.
func buildCourseByForms(k *keyDriver) {
	k.wait("new design")
	addGSI(k)
	for _, e := range courseEntities {
		k.press("3", "G", "a")
		k.wait("Add an entity")
		k.press(e.name, "tab", e.keys, "tab", e.attrs, "ctrl+s")
		k.wait("added entity " + e.name)
	}
	for _, it := range courseItems {
		k.press("2", "a")
		k.wait("Add an item")
		k.press(it.entity, "tab", it.attrs, "ctrl+s")
		k.wait("added item PK=" + it.key)
	}
	addPatterns(k, coursePatterns(func(id, email string) string {
		return `[{put: {type: student, PK: "STUDENT#` + id + `", SK: PROFILE, studentId: ` + id + `, email: ` + email + `, GSI1PK: "EMAIL#` + email + `", GSI1SK: STUDENT}, condition: "attribute_not_exists(PK)"}, ` +
			`{put: {type: emailClaim, PK: "EMAIL#` + email + `", SK: CLAIM, email: ` + email + `}, condition: "attribute_not_exists(PK)"}]`
	}))
}

// buildCourseFast builds the same design the way the workbench now allows: the
// palette, tab completing the command, the entity and each attribute name; the
// registration's puts give the attributes, their entity's templates the keys.
func buildCourseFast(k *keyDriver) {
	k.wait("new design")
	addGSI(k)
	for _, e := range courseEntities {
		k.press(":", "en", "tab", e.name+" "+e.palette, "enter")
		k.wait("added entity " + e.name)
	}
	for _, it := range courseItems {
		// ":it<tab>" is "item "; the entity's first letters and tab; then each
		// attribute's first letters and tab give "name=", its value typed.
		k.press(":", "it", "tab", it.entity[:2], "tab")
		for i, pair := range strings.Split(strings.Trim(it.attrs, "{}"), ", ") {
			name, val, _ := strings.Cut(pair, ": ")
			if i > 0 {
				k.press(" ")
			}
			k.press(name[:min(len(name), 3)], "tab", val)
		}
		k.press("enter")
		k.wait("added item " + strings.Fields(it.key)[0])
	}
	addPatterns(k, coursePatterns(func(id, email string) string {
		return `[{put: {type: student, studentId: ` + id + `, email: ` + email + `}, condition: "attribute_not_exists(PK)"}, ` +
			`{put: {type: emailClaim, email: ` + email + `}, condition: "attribute_not_exists(PK)"}]`
	}))
}
