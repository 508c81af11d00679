package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// A search in a pane whose rows are still being worked out (the review, which
// needs every pattern run and priced) finds nothing yet; it says so and runs again
// when the rows come in, unless the user has pressed a key since.
func TestSearchWaitsForTheReview(t *testing.T) {
	for _, keyBetween := range []bool{false, true} {
		m := New(fixtureDoc(), Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
		var held []tea.Cmd // the background work, kept from running until the search is typed
		deliver := func(msgs ...tea.Msg) {
			for _, msg := range msgs {
				_, cmd := m.Update(msg)
				held = append(held, cmd)
			}
		}
		held = append(held, m.Init())
		deliver(tea.WindowSizeMsg{Width: 120, Height: 40})
		deliver(keys("5", "/", "index", "enter")...)
		if !strings.Contains(m.status, "/index: no match yet: the review is still being worked out") || m.statusErr {
			t.Fatalf("before the review: status %q (error %v)", m.status, m.statusErr)
		}
		if keyBetween {
			deliver(keys("down")...)
		}
		run(t, m, tea.Batch(held...))
		matched := strings.Contains(m.status, "/index: match 1 of")
		if matched == keyBetween {
			t.Errorf("key pressed between: %v; after the review: status %q", keyBetween, m.status)
		}
		if !keyBetween && !strings.Contains(screen(m), "/index: match 1 of") {
			t.Errorf("the match is not on screen:\n%s", screen(m))
		}
	}
}
