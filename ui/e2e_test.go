package ui

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"stwb/designfile"
)

// End to end, as a new user would: open the orders sample, add a pattern through the
// form, see its preview, save, reopen the file and find the pattern there. Runs the
// real Bubble Tea program (teatest) at 120x40 and at 80x24.
func TestEndToEnd(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "orders.yaml")
			doc, err := OpenSample("orders")
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: time.Second}
			tm := teatest.NewTestModel(t, New(doc, opts), teatest.WithInitialTermSize(size[0], size[1]))
			waitText(t, tm, "Get a customer's profile")

			// Add pattern 8 through the form: name, then the key condition and values.
			tm.Send(key1("a"))
			waitText(t, tm, "Add an access pattern")
			tm.Type("Lines of one order")
			for range 4 { // name -> rate, operation, index, key
				tm.Send(tea.KeyMsg{Type: tea.KeyTab})
			}
			tm.Type("PK = :pk AND begins_with(SK, :i)")
			waitText(t, tm, "give the value of :pk") // checked as typed: :pk has no value yet
			tm.Send(tea.KeyMsg{Type: tea.KeyEnter})  // key -> its values, each a field
			tm.Type("ORDER#9f2a")
			tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
			tm.Type("ITEM#")
			tm.Send(tea.KeyMsg{Type: tea.KeyCtrlS})
			// Added, and its preview: the order's two line items in sort key order, then
			// the page end (they may arrive in one frame, so they are awaited together).
			waitText(t, tm, "added pattern 8", "Count 2, ScannedCount 2", "SK=ITEM#001", "end of results")

			// Save: a sample has no file, so ctrl+s asks for one.
			tm.Send(tea.KeyMsg{Type: tea.KeyCtrlS})
			tm.Type(path)
			tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
			waitText(t, tm, "saved "+path[:min(len(path), 20)])
			tm.Send(key1("q"))
			tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))

			// Reopen the file and go to pattern 8 with the palette.
			doc2, err := OpenFile(path)
			if err != nil {
				t.Fatal(err)
			}
			tm2 := teatest.NewTestModel(t, New(doc2, opts), teatest.WithInitialTermSize(size[0], size[1]))
			tm2.Send(key1(":"))
			tm2.Type("8")
			tm2.Send(tea.KeyMsg{Type: tea.KeyEnter})
			waitText(t, tm2, "#8 Lines of one order", "ITEM#002")
			tm2.Send(key1("q"))
			tm2.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))

			d, err := designfile.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			last := d.Patterns[len(d.Patterns)-1]
			if last.ID != 8 || last.KeyCondition != "PK = :pk AND begins_with(SK, :i)" {
				t.Errorf("saved pattern %+v", last)
			}
		})
	}
}

func key1(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// waitText waits until the program has drawn every text (ANSI stripped). Output
// read here is consumed, so what one frame shows is awaited in one call.
func waitText(t *testing.T, tm *teatest.TestModel, texts ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		s := []byte(ansi.Strip(string(b)))
		for _, text := range texts {
			if !bytes.Contains(s, []byte(text)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
}
