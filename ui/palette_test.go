package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"stwb/designfile"
)

func TestPaletteCommands(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name  string
		line  string
		check func(t *testing.T, m *Model)
	}{
		{"go to pattern", "3", func(t *testing.T, m *Model) {
			if m.focus != panePatterns || m.w.selPattern != 2 {
				t.Errorf("focus %d selected %d", m.focus, m.w.selPattern)
			}
		}},
		{"open a sample", "sample orders-by-status-day", func(t *testing.T, m *Model) {
			if m.Doc().Sample != "orders-by-status-day" {
				t.Errorf("sample %q", m.Doc().Sample)
			}
		}},
		{"export YAML", "export " + filepath.Join(dir, "out.yaml"), func(t *testing.T, m *Model) {
			if _, err := designfile.Load(filepath.Join(dir, "out.yaml")); err != nil {
				t.Errorf("exported YAML does not load: %v", err)
			}
			if m.Doc().Path != "" {
				t.Error("export changed the file being edited")
			}
		}},
		{"export markdown", "export markdown " + filepath.Join(dir, "out.md"), func(t *testing.T, m *Model) {
			if b, err := os.ReadFile(filepath.Join(dir, "out.md")); err != nil || len(b) == 0 {
				t.Errorf("no markdown written: %v (status %q)", err, m.status)
			}
		}},
		{"unknown command", "frobnicate", func(t *testing.T, m *Model) {
			if m.palette() == nil || !strings.Contains(m.palette().err, "unknown command") {
				t.Error("an unknown command gave no error")
			}
		}},
		{"unknown pattern", "99", func(t *testing.T, m *Model) {
			if m.palette() == nil || !strings.Contains(m.palette().err, "no pattern 99") {
				t.Error("a missing pattern gave no error")
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := testModel(t, fixtureDoc(), 120, 40)
			send(t, m, keys(":")...)
			send(t, m, typeText(c.line))
			send(t, m, keys("enter")...)
			c.check(t, m)
		})
	}
}

// NO_COLOR (https://no-color.org): no colour at all, even on a colour terminal;
// the selected row stays visible through reverse video.
func TestNoColor(t *testing.T) {
	defer lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetColorProfile(termenv.TrueColor)
	colour := NewStyles(DefaultTheme())
	if s := colour.Render.Header.Render("x"); !strings.Contains(s, "38;2") {
		t.Fatalf("without NO_COLOR the header has no colour: %q", s)
	}
	t.Setenv("NO_COLOR", "1")
	st := NewStyles(DefaultTheme())
	for name, s := range map[string]string{"header": st.Render.Header.Render("x"), "selected": st.Render.Selected.Render("x"),
		"error": st.Render.Error.Render("x"), "entity": st.Render.Entity(0).Render("x")} {
		if strings.Contains(s, "38;") || strings.Contains(s, "48;") {
			t.Errorf("%s has a colour under NO_COLOR: %q", name, s)
		}
	}
	if !strings.Contains(st.Render.Selected.Render("x"), "7") {
		t.Error("the selected row is not in reverse video under NO_COLOR")
	}
}
