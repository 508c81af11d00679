package main

import (
	"fmt"
	"path/filepath"
	"slices"
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
// seven patterns) scripted from an empty file twice, in the same run: as issue 13's
// test types it (every field of every form written out, tab from field to field,
// nothing offered taken) and the fast way the workbench allows (the palette with
// tab completion for entities, their declarations and items; the pattern form
// shaped by the operation, its key condition offered from the index's key, its
// values and the transaction's actions completed; the puts' keys built from the
// entity templates). Both designs pass stwb check, give the same query results and
// have the same patterns; the keys each took are counted, and the fast way must
// take at most half (issue 25).
func TestCourseEnrolmentKeystrokes(t *testing.T) {
	dir := t.TempDir()
	slow := filepath.Join(dir, "slow.yaml")
	k := newKeyDriver(t, slow)
	buildCourseByForms(k)
	slowDesign := k.finish(slow).Doc().D
	if d := slowDesign; len(d.Patterns) != 7 || len(d.Items) != 10 || len(d.Entities) != 4 {
		t.Fatalf("by forms: %d patterns, %d items, %d entities", len(d.Patterns), len(d.Items), len(d.Entities))
	}
	checkCourseDesign(t, slow)

	fast := filepath.Join(dir, "fast.yaml")
	f := newKeyDriver(t, fast)
	buildCourseFast(f)
	fastDesign := f.finish(fast).Doc().D
	if d := fastDesign; len(d.Patterns) != 7 || len(d.Items) != 10 || len(d.Entities) != 4 {
		t.Fatalf("fast: %d patterns, %d items, %d entities", len(d.Patterns), len(d.Items), len(d.Entities))
	}
	checkCourseDesign(t, fast)
	for i, p := range fastDesign.Patterns {
		q := slowDesign.Patterns[i]
		if p.Name != q.Name || p.Operation != q.Operation || p.Index != q.Index || p.ExpectError != q.ExpectError || len(p.Actions) != len(q.Actions) {
			t.Errorf("pattern %d differs: %q %s %q %q, by forms %q %s %q %q", p.ID, p.Name, p.Operation, p.Index, p.ExpectError, q.Name, q.Operation, q.Index, q.ExpectError)
		}
	}

	t.Logf("course-enrolment design from an empty file: %d keys form by form, %d the fast way (%.0f%%)", k.keys, f.keys, 100*float64(f.keys)/float64(k.keys))
	// Issue 25's target: at most half the keys of typing every field out.
	if 2*f.keys > k.keys {
		t.Errorf("the fast way took %d keys, more than half of form by form's %d", f.keys, k.keys)
	}
}

var courseEntities = []struct {
	name  string
	keys  [][2]string
	attrs []string
}{
	{"student", [][2]string{{"PK", "STUDENT#{studentId}"}, {"SK", "PROFILE"}, {"GSI1PK", "EMAIL#{email}"}, {"GSI1SK", "STUDENT"}}, []string{"studentId:S", "email:S:unique", "name:S"}},
	{"course", [][2]string{{"PK", "COURSE#{courseId}"}, {"SK", "META"}, {"GSI1PK", "DEPT#{dept}"}, {"GSI1SK", "COURSE#{courseId}"}}, []string{"courseId:S", "dept:S", "title:S"}},
	{"enrolment", [][2]string{{"PK", "STUDENT#{studentId}"}, {"SK", "COURSE#{courseId}"}, {"GSI1PK", "COURSE#{courseId}"}, {"GSI1SK", "STUDENT#{studentId}"}}, []string{"studentId:S", "courseId:S"}},
	{"emailClaim", [][2]string{{"PK", "EMAIL#{email}"}, {"SK", "CLAIM"}}, []string{"email:S"}},
}

// entityFormText is an entity's keys and attributes as the entity form's YAML.
func entityFormText(keys [][2]string, attrs []string) (string, string) {
	var k, a []string
	for _, kv := range keys {
		v := kv[1]
		if strings.ContainsAny(v, "#{") {
			v = `"` + v + `"`
		}
		k = append(k, kv[0]+": "+v)
	}
	for _, d := range attrs {
		parts := strings.Split(d, ":")
		if len(parts) == 3 {
			a = append(a, parts[0]+": {type: "+parts[1]+", unique: true}")
		} else {
			a = append(a, parts[0]+": "+parts[1])
		}
	}
	return "{" + strings.Join(k, ", ") + "}", "{" + strings.Join(a, ", ") + "}"
}

// completing is the keys that put target in by tab completion among cands, as the
// palette completes: letters typed until tab adds what the fits agree on, and so
// on to the whole target.
func completing(target string, cands []string) []string {
	var keys []string
	typed, letters := "", ""
	for typed != target {
		var fits []string
		for _, c := range cands {
			if strings.HasPrefix(c, typed) {
				fits = append(fits, c)
			}
		}
		if cp := commonStart(fits); len(cp) > len(typed) && strings.HasPrefix(target, cp) {
			if letters != "" {
				keys, letters = append(keys, letters), ""
			}
			keys = append(keys, "tab")
			typed = cp
			continue
		}
		typed += target[len(typed) : len(typed)+1]
		letters += target[len(typed)-1 : len(typed)]
	}
	if letters != "" {
		keys = append(keys, letters)
	}
	return keys
}

func commonStart(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	pre := ss[0]
	for _, s := range ss[1:] {
		for !strings.HasPrefix(s, pre) {
			pre = pre[:len(pre)-1]
		}
	}
	return pre
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

// A pattern's fields as the form shows them for its operation, in order: a
// GetItem's key is a field per key attribute, a Query's values a field per
// placeholder under its key condition, a write has no expect.
var patternFormOrder = map[string][]string{
	"GetItem":            {"name", "rate", "operation", "key PK", "key SK"},
	"Query":              {"name", "rate", "operation", "index", "key", ":1", ":2"},
	"TransactWriteItems": {"name", "rate", "operation", "actions", "expectError"},
}

// coursePatterns are the seven patterns by the pattern form's fields (":1" and ":2"
// are the values of the key condition's first and second placeholders). claim
// writes the registration's two puts.
func coursePatterns(claim func(id, email string) string) []map[string]string {
	return []map[string]string{
		{"name": "Get a student's profile", "operation": "GetItem", "key PK": "STUDENT#s-1", "key SK": "PROFILE"},
		{"name": "Find a student by email", "operation": "Query", "index": "GSI1", "key": "GSI1PK = :e", ":1": "EMAIL#ada@example.com"},
		{"name": "List a department's courses", "operation": "Query", "index": "GSI1", "key": "GSI1PK = :d AND begins_with(GSI1SK, :c)", ":1": "DEPT#CS", ":2": "COURSE#"},
		{"name": "List a student's courses", "operation": "Query", "key": "PK = :s AND begins_with(SK, :c)", ":1": "STUDENT#s-1", ":2": "COURSE#"},
		{"name": "List a course's students", "operation": "Query", "index": "GSI1", "key": "GSI1PK = :c AND begins_with(GSI1SK, :s)", ":1": "COURSE#c-1", ":2": "STUDENT#"},
		{"name": "Register a student, claiming the email", "operation": "TransactWriteItems", "actions": claim("s-3", "grace@example.com")},
		{"name": "Register with a taken email", "operation": "TransactWriteItems", "actions": claim("s-4", "ada@example.com"), "expectError": "TransactionCanceledException"},
	}
}

// addPatterns types every field of every pattern out, tab moving from field to
// field: the way before the form offered anything.
func addPatterns(k *keyDriver, ps []map[string]string) {
	for n, p := range ps {
		k.press("1", "a")
		k.wait("Add an access pattern")
		at := 0
		for f, field := range patternFormOrder[p["operation"]] {
			v, ok := p[field]
			if !ok {
				continue
			}
			k.tabs(f - at)
			at = f
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
		keys, attrs := entityFormText(e.keys, e.attrs)
		k.press("3", "G", "a")
		k.wait("Add an entity")
		k.press(e.name, "tab", keys, "tab", attrs, "ctrl+s")
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
// palette, tab completing the command, the entity, each key attribute, each
// template's variable to declare and each attribute name; the pattern form
// (addPatternsFast).
func buildCourseFast(k *keyDriver) {
	k.wait("new design")
	addGSI(k)
	keyNames := []string{"PK", "SK", "GSI1PK", "GSI1SK"}
	var entityNames []string
	for _, e := range courseEntities {
		entityNames = append(entityNames, e.name)
	}
	for _, e := range courseEntities {
		k.press(":", "en", "tab", e.name+" ")
		var cands []string // what the palette offers: the keys not given, the variables not declared
		for _, n := range keyNames {
			cands = append(cands, n+"=")
		}
		for _, kv := range e.keys {
			k.press(completing(kv[0]+"=", cands)...)
			k.press(kv[1] + " ")
			cands = slices.DeleteFunc(cands, func(c string) bool { return c == kv[0]+"=" })
			for _, v := range strings.FieldsFunc(kv[1], func(r rune) bool { return r == '{' || r == '}' || r == '#' }) {
				if strings.Contains(kv[1], "{"+v+"}") && !slices.Contains(cands, v+":") {
					cands = append(cands, v+":")
				}
			}
		}
		for _, decl := range e.attrs {
			name, rest, _ := strings.Cut(decl, ":")
			if slices.Contains(cands, name+":") {
				k.press(completing(name+":", cands)...)
				k.press(rest + " ")
				cands = slices.DeleteFunc(cands, func(c string) bool { return c == name+":" })
				continue
			}
			k.press(decl + " ")
		}
		k.press("enter")
		k.wait("added entity " + e.name)
	}
	for _, it := range courseItems {
		// ":it<tab>" is "item "; the entity and each attribute by tab completion,
		// its value typed.
		k.press(":", "it", "tab")
		k.press(completing(it.entity, entityNames)...) // one fit: the palette adds the space
		var attrs []string
		for _, e := range courseEntities {
			if e.name == it.entity {
				for _, d := range e.attrs {
					name, _, _ := strings.Cut(d, ":")
					attrs = append(attrs, name+"=")
				}
			}
		}
		for i, pair := range strings.Split(strings.Trim(it.attrs, "{}"), ", ") {
			name, val, _ := strings.Cut(pair, ": ")
			if i > 0 {
				k.press(" ")
			}
			k.press(completing(name+"=", attrs)...)
			k.press(val)
			attrs = slices.DeleteFunc(attrs, func(c string) bool { return c == name+"=" })
		}
		k.press("enter")
		k.wait("added item " + strings.Fields(it.key)[0])
	}
	addPatternsFast(k)
}

// addPatternsFast writes the seven patterns as the pattern form allows: the
// operation and index by their first letters, the key condition offered from the
// index's key attributes and taken with tab, each value completed from the items'
// values and the templates' beginnings, the transaction's actions from their
// structure, the entities and their attributes.
func addPatternsFast(k *keyDriver) {
	k.press("1")
	for n, p := range [][]string{
		{"Get a student's profile", "tab", "tab", "g", "tab", "S", "tab", "s-1", "tab", "P", "tab"},
		{"Find a student by email", "tab", "tab", "tab", "g", "tab", "tab", "tab", "E", "tab", "ad", "tab"},
		{"List a department's courses", "tab", "tab", "tab", "g", "tab", "tab", " ", "tab", "b", "tab", "tab", "D", "tab", "C", "tab", "tab", "C", "tab"},
		{"List a student's courses", "tab", "tab", "tab", "tab", "tab", " ", "tab", "b", "tab", "tab", "S", "tab", "s-1", "tab", "CO", "tab"},
		{"List a course's students", "tab", "tab", "tab", "g", "tab", "tab", " ", "tab", "b", "tab", "tab", "C", "tab", "c-1", "tab", "S", "tab", "#"},
		append([]string{"Register a student, claiming the email", "tab", "tab", "tw", "tab"}, claimKeys("s-3", "grace@example.com", "grace@example.com")...),
		append(append([]string{"Register with a taken email", "tab", "tab", "tw", "tab"}, claimKeys("s-4", "ad", "ad")...), "tab", "T", "tab"),
	} {
		k.press("a")
		k.wait("Add an access pattern")
		k.press(p...)
		k.press("ctrl+s")
		k.wait(fmt.Sprintf("added pattern %d", n+1))
	}
}

// claimKeys are the keys of the registration's actions in the actions field: tab
// opens the list, p the put, s the student entity and its studentId, e its email
// (typed, or its first letters completed from the items' emails), and the
// condition is offered once the put is written.
func claimKeys(id, email, claimEmail string) []string {
	value := func(v string) []string {
		if !strings.Contains(v, "@") {
			return []string{v, "tab"} // the first letters of an email the items hold
		}
		return []string{v}
	}
	keys := []string{"tab", "p", "tab", "s", "tab", "s", "tab", id + ", ", "e", "tab"}
	keys = append(keys, value(email)...)
	keys = append(keys, "}, ", "tab", "n", "tab", ", ", "tab", "p", "tab", "em", "tab", "e", "tab")
	keys = append(keys, value(claimEmail)...)
	return append(keys, "}, ", "tab", "n", "tab", "]")
}
