package ui

import (
	"strings"
	"testing"
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
