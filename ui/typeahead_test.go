package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"stwb/designfile"
)

// Keys typed ahead go where the user meant them (issue 25, item 1): each key goes to
// what is on screen once every key before it has been handled, whether the burst
// arrives as one message of runes (one read of the terminal) or as one message per
// key sent back to back. On main the rest of a burst ran as commands on the pane
// under the form `a` was opening: in the Items pane, `astudent` deleted and edited
// items instead of typing "student".
func TestTypeAhead(t *testing.T) {
	t.Setenv("EDITOR", "true") // a key that reaches the pane as `e` must not hang the test
	cases := []struct {
		name  string
		burst string
		check func(t *testing.T, m *Model)
	}{
		{"items pane: a opens the form, the rest is its text", "2astudent", func(t *testing.T, m *Model) {
			f := m.form()
			if f == nil || !strings.HasPrefix(f.title, "Add an item") {
				t.Fatalf("no item form open:\n%s", screen(m))
			}
			if got := f.fields[f.focus].input.Value(); got != "student" {
				t.Errorf("the focused field %q holds %q, want the letters typed after a: student", f.fields[f.focus].label, got)
			}
		}},
		{"patterns pane: a opens the form, the rest is its text", "aLines of one order", func(t *testing.T, m *Model) {
			f := m.form()
			if f == nil || !strings.HasPrefix(f.title, "Add an access pattern") {
				t.Fatalf("no pattern form open:\n%s", screen(m))
			}
			if got := f.fields[f.focus].input.Value(); !strings.HasSuffix(got, "Lines of one order") {
				t.Errorf("the focused field %q holds %q, want the text typed after a", f.fields[f.focus].label, got)
			}
		}},
		{"a question answered in the burst, then a form", "dyaxyz", func(t *testing.T, m *Model) {
			// d asks to delete pattern 1, y answers; a opens the form that takes xyz.
			if m.confirm() != nil {
				t.Fatalf("a question is still open: %q", m.confirm().question)
			}
			if n := len(m.Doc().D.Patterns); n != 2 {
				t.Errorf("%d patterns, want 2 after d y; status %q", n, m.status)
			}
			f := m.form()
			if f == nil || !strings.HasSuffix(f.fields[f.focus].input.Value(), "xyz") {
				t.Fatalf("the pattern form does not hold xyz:\n%s", screen(m))
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			forSizes(t, func(t *testing.T, w, h int) {
				for _, how := range []string{"one read", "one message per key"} {
					t.Run(how, func(t *testing.T) {
						doc := fixtureDoc()
						before := len(doc.D.Items)
						m := New(doc, Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
						tt := startTerminal(t, m, w, h)
						tt.waitFor("Get a customer's profile")
						if how == "one read" {
							tt.write(c.burst)
						} else {
							tt.each(c.burst)
						}
						m = tt.stop()
						if strings.Contains(m.status, "deleted item") || len(m.Doc().D.Items) != before {
							t.Errorf("the burst changed the items (%d, was %d); status %q", len(m.Doc().D.Items), before, m.status)
						}
						c.check(t, m)
					})
				}
			})
		})
	}
}

// One recovery prompt (issue 25, item 2): a design read in the background was
// offered its recovery copy twice, and n on the second prompt deleted the copy of
// the edits the first had restored. Restored edits are unsaved changes with their
// own recovery copy until saved: a second crash loses nothing.
func TestRecoveryOfferedOnce(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		path := filepath.Join(t.TempDir(), "d.yaml")
		if err := (&designfile.File{Design: fixture()}).Save(path); err != nil {
			t.Fatal(err)
		}
		unsaved := fixture()
		unsaved.Patterns = append(unsaved.Patterns, unsaved.Patterns[0])
		unsaved.Patterns[3].ID, unsaved.Patterns[3].Name = 4, "the unsaved pattern"
		later := time.Now().Add(time.Second)
		if err := (&designfile.File{Design: unsaved}).Save(RecoveryPath(path)); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(RecoveryPath(path), later, later)

		doc, err := Loading(path) // as stwb FILE opens it
		if err != nil {
			t.Fatal(err)
		}
		m := New(doc, Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: 50 * time.Millisecond})
		tt := startTerminal(t, m, w, h)
		tt.waitFor("Restore it?")
		tt.write("y")
		tt.waitFor("restored the recovery copy", "the unsaved pattern")
		tt.write("n") // once a second prompt would have taken this as "discard the copy"
		tt.write("c") // copy the selected pattern: one more unsaved edit
		tt.waitFor("copied")
		time.Sleep(300 * time.Millisecond) // a few recovery ticks
		tt.settle()
		m = tt.stop()
		if m.confirm() != nil {
			t.Errorf("a question is open after the recovery was restored: %q", m.confirm().question)
		}
		if n := len(m.Doc().D.Patterns); n != 5 || !m.Doc().Dirty {
			t.Fatalf("%d patterns (dirty %v), want the restored 4 and the copy", n, m.Doc().Dirty)
		}
		// A crash now (the program ended without quitting): the copy holds every edit.
		got, err := designfile.Load(RecoveryPath(path))
		if err != nil {
			t.Fatalf("the restored edits have no recovery copy: %v", err)
		}
		if len(got.Patterns) != 5 {
			t.Errorf("the recovery copy holds %d patterns, want 5", len(got.Patterns))
		}
	})
}
