package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// list is the cursor of a list: how many rows it has, how many fit, which is
// selected and which is the first shown (lazygit's traits/list_cursor.go). Every
// list pane and the verify report compose one, so moving, paging, the wheel,
// clamping and searching are written once; View only reads it.
type list struct {
	n    int // rows
	rows int // rows that fit on screen
	cur  int
	top  int
}

// setLen says how many rows there are now, keeping the cursor on one.
func (l *list) setLen(n int) { l.n = n; l.clamp() }

// setRows says how many rows fit.
func (l *list) setRows(r int) { l.rows = max(1, r); l.clamp() }

// set puts the cursor on row i (clamped), scrolling as little as it must.
func (l *list) set(i int) { l.cur = i; l.clamp() }

// move moves the cursor by d rows.
func (l *list) move(d int) { l.set(l.cur + d) }

// center puts the cursor on row i with it in the middle of the window when it was
// off screen (a jump, not a step).
func (l *list) center(i int) {
	l.cur = max(0, min(i, l.n-1))
	if l.cur < l.top || l.cur >= l.top+l.rows {
		l.top = l.cur - l.rows/2
	}
	l.clamp()
}

func (l *list) clamp() {
	l.rows = max(1, l.rows)
	l.cur = max(0, min(l.cur, l.n-1))
	l.top = max(0, min(follow(l.top, l.cur, l.rows), l.n-l.rows))
}

// scroll moves the window by d rows without a cursor (a report read, not picked
// from): the cursor stays on the window's first row.
func (l *list) scroll(d int) {
	l.top = max(0, min(l.top+d, l.n-l.rows))
	l.cur = l.top
}

// update moves the cursor for the movement keys and the wheel; handled says the
// message was one of them.
func (l *list) update(msg tea.Msg, km KeyMap) (handled bool) {
	switch msg := msg.(type) {
	case tea.MouseMsg:
		switch msg.Button {
		case tea.MouseButtonWheelUp:
			l.move(-1)
		case tea.MouseButtonWheelDown:
			l.move(1)
		default:
			return false
		}
		return true
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, km.Up):
			l.move(-1)
		case key.Matches(msg, km.Down):
			l.move(1)
		case key.Matches(msg, km.PageUp):
			l.move(-l.rows)
		case key.Matches(msg, km.PageDown):
			l.move(l.rows)
		case key.Matches(msg, km.Top):
			l.set(0)
		case key.Matches(msg, km.Bottom):
			l.set(l.n - 1)
		default:
			return false
		}
		return true
	}
	return false
}

// find moves the cursor to the next row after it (dir 1) or before it (dir -1),
// wrapping, whose text holds query (case-insensitive); false when no row does.
func (l *list) find(query string, dir int, text func(i int) string) bool {
	if l.n == 0 || query == "" {
		return false
	}
	q := strings.ToLower(query)
	for k := 1; k <= l.n; k++ {
		i := ((l.cur+dir*k)%l.n + l.n) % l.n
		if strings.Contains(strings.ToLower(text(i)), q) {
			l.center(i)
			return true
		}
	}
	return false
}

// matchRank is which match the cursor's row is (1-based) and how many rows match.
func (l *list) matchRank(query string, text func(i int) string) (nth, all int) {
	q := strings.ToLower(query)
	for i := 0; i < l.n; i++ {
		if strings.Contains(strings.ToLower(text(i)), q) {
			all++
			if i <= l.cur {
				nth = all
			}
		}
	}
	return nth, all
}

// searchable is a pane whose list / searches: its cursor, and the text of a row.
type searchable interface {
	cursor() *list
	rowText(i int) string
}

// stillWorking is a searchable pane whose rows are still being worked out in the
// background: what, for the status line ("the review"), or "" once they are all
// there. A search that finds nothing meanwhile waits for them (Model.searchAgain).
type stillWorking interface {
	stillWorking() string
}
