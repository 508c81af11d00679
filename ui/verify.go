package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"stwb/designfile"
	"stwb/live"
	"stwb/model"
	"stwb/render"
	"stwb/verify"
)

// verifyTimeout bounds one verify run. It runs one request per read pattern plus a
// DescribeTable, so a healthy endpoint answers in seconds; the bound is for one that
// accepts the connection and then never answers, which would otherwise leave the
// status line saying "verifying…" for ever.
const verifyTimeout = 2 * time.Minute

// verifyArgs are the palette command's arguments, spelled as the command line's
// `stwb verify` flags (which follow the AWS CLI's --endpoint-url, --region, --profile).
type verifyArgs struct {
	endpoint, table, region, profile string
}

// verifyUsage is the palette command, for the palette, the help screen and errors.
const verifyUsage = "verify URL [--table NAME] [--region R] [--profile P]"

// parseVerifyArgs reads the words after "verify": the endpoint URL (or --endpoint
// URL) and the optional flags, as --flag VALUE or --flag=VALUE.
func parseVerifyArgs(words []string) (verifyArgs, error) {
	var a verifyArgs
	for i := 0; i < len(words); i++ {
		w := words[i]
		if !strings.HasPrefix(w, "-") {
			if a.endpoint != "" {
				return a, fmt.Errorf("verify takes one endpoint URL, got %q and %q; usage: %s", a.endpoint, w, verifyUsage)
			}
			a.endpoint = w
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(w, "-"), "=")
		var dst *string
		switch name {
		case "endpoint", "endpoint-url":
			dst = &a.endpoint
		case "table":
			dst = &a.table
		case "region":
			dst = &a.region
		case "profile":
			dst = &a.profile
		default:
			return a, fmt.Errorf("verify has no flag %q; usage: %s", w, verifyUsage)
		}
		if !hasVal {
			if i+1 >= len(words) {
				return a, fmt.Errorf("%s needs a value; usage: %s", w, verifyUsage)
			}
			i++
			val = words[i]
		}
		if val == "" {
			return a, fmt.Errorf("%s needs a value; usage: %s", w, verifyUsage)
		}
		*dst = val
	}
	if a.endpoint == "" {
		return a, fmt.Errorf("verify needs the endpoint URL of the table, such as http://localhost:8000; usage: %s", verifyUsage)
	}
	return a, nil
}

// verifyState is the workbench's one verify: the run in flight, if any, and the last
// report, shown over the panes until closed.
type verifyState struct {
	seq    uint64             // numbers runs; a result that is not of the newest is dropped
	cancel context.CancelFunc // ends the run in flight; nil when none is
	args   verifyArgs         // of the newest run

	rep    *verify.Report // the last report; nil before the first
	rev    uint64         // Doc.Rev of the design the report verified
	show   bool           // the report is on screen
	l      list           // the window over its lines (list.scroll)
	lines  []string       // the report drawn at linesW, so View only slices
	linesW int
}

// stop cancels the run in flight; its result, if it still comes, is dropped.
func (v *verifyState) stop() {
	if v.cancel != nil {
		v.cancel()
		v.cancel = nil
	}
	v.seq++
}

// verifyMsg is a run's outcome.
type verifyMsg struct {
	seq  uint64
	rev  uint64
	args verifyArgs
	rep  *verify.Report
	err  error
}

// startVerify runs live.Verify off the event loop on a snapshot of the design, under
// a timeout, replacing any run in flight. Quitting cancels it.
func (m *Model) startVerify(a verifyArgs) tea.Cmd {
	m.ver.stop()
	ctx, cancel := context.WithTimeout(context.Background(), verifyTimeout)
	m.ver.cancel, m.ver.args = cancel, a
	snap, rev, seq := m.w.doc.Snapshot(), m.w.doc.Rev, m.ver.seq
	m.status, m.statusErr = "verifying against "+a.endpoint+"…", false
	return func() (msg tea.Msg) {
		defer cancel()
		// A panic in a command's goroutine would take the workbench down with the
		// user's unsaved design; it becomes an error in the status line instead.
		defer func() {
			if r := recover(); r != nil {
				msg = verifyMsg{seq: seq, rev: rev, args: a, err: fmt.Errorf("internal error (%v); save your design and report this", r)}
			}
		}()
		rep, err := connectAndVerify(ctx, snap, a)
		return verifyMsg{seq: seq, rev: rev, args: a, rep: rep, err: err}
	}
}

// connectAndVerify connects and runs live.Verify. A design not yet deployed comes back as a
// *live.NoTableError, which verifyError turns into the command that deploys it.
func connectAndVerify(ctx context.Context, d *model.Design, a verifyArgs) (*verify.Report, error) {
	db, err := live.NewClient(ctx, live.Config{Endpoint: a.endpoint, Region: a.region, Profile: a.profile})
	if err != nil {
		return nil, err
	}
	return live.Verify(ctx, db, &designfile.File{Design: d}, a.table, a.endpoint)
}

// verified takes a run's outcome: the report goes on screen with a summary in the
// status line; an error goes to the status line only, saying what to do.
func (m *Model) verified(msg verifyMsg) {
	if msg.seq != m.ver.seq {
		return // a run that was replaced, cancelled, or belongs to a design since closed
	}
	m.ver.cancel = nil
	if msg.err != nil {
		m.status, m.statusErr = m.verifyError(msg.args, msg.err), true
		return
	}
	v := &m.ver
	v.rep, v.rev, v.show, v.l, v.lines = msg.rep, msg.rev, true, list{}, nil
	switch {
	case msg.rep.Mismatched > 0:
		m.status, m.statusErr = fmt.Sprintf("verify: %d of %d patterns differ from the prediction at %s",
			msg.rep.Mismatched, len(msg.rep.Patterns), msg.args.endpoint), true
	default:
		m.status, m.statusErr = "verified against "+msg.args.endpoint+": every read pattern answered as predicted", false
	}
}

// verifyError says why a run stopped, and what to do about it, in one line.
func (m *Model) verifyError(a verifyArgs, err error) string {
	var noTable *live.NoTableError
	if errors.As(err, &noTable) {
		deploy := "stwb deploy " + nameOr(m.w.doc.Path, "FILE") + " --endpoint " + a.endpoint
		if a.table != "" {
			deploy += " --table " + a.table
		}
		// The command comes early: the status line is cut at the terminal's width.
		s := fmt.Sprintf("verify: no table %s at the endpoint; deploy it with: %s", noTable.Table, deploy)
		if m.w.doc.Path == "" {
			s += " (save it with ctrl+s to have a FILE)"
		}
		return s
	}
	return "verify: " + live.Explain(err, a.endpoint, verifyTimeout)
}

// verifyKey handles a key while the report is on screen: it scrolls, closes with esc
// or q, and leaves the root's own bindings (":" to run verify again, "?", ctrl+s...)
// to the root. done is false when the root should go on with the key.
func (m *Model) verifyKey(msg tea.KeyMsg) (cmd tea.Cmd, done bool) {
	km := m.w.km
	v := &m.ver
	m.verifyWindow()
	page := max(1, m.bodyHeight()-2)
	switch {
	case key.Matches(msg, km.Cancel), key.Matches(msg, km.Quit) && msg.String() != "ctrl+c":
		v.show = false
	case key.Matches(msg, km.Up):
		v.l.scroll(-1)
	case key.Matches(msg, km.Down):
		v.l.scroll(1)
	case key.Matches(msg, km.PageUp):
		v.l.scroll(-page)
	case key.Matches(msg, km.PageDown):
		v.l.scroll(page)
	case key.Matches(msg, km.Top):
		v.l.scroll(-v.l.n)
	case key.Matches(msg, km.Bottom):
		v.l.scroll(v.l.n)
	case key.Matches(msg, km.NextPane, km.PrevPane, km.Pane[0], km.Pane[1], km.Pane[2], km.Pane[3], km.Pane[4]):
		// Going to a pane closes the report, and the root goes there.
		v.show = false
		return nil, false
	case key.Matches(msg, km.Palette, km.Help, km.Quit, km.Save, km.Undo, km.Redo, km.Open, km.Export):
		return nil, false // the root's own bindings work over the report
	}
	// Any other key belongs to a pane the report hides: acting on what the user
	// cannot see (d deletes) is worse than doing nothing.
	return nil, true
}

// verifyView draws the report in the body's h lines: a heading that says how to
// close it (and whether the design changed since), then the report from line top.
func (m *Model) verifyView(h int) string {
	v := &m.ver
	st := m.w.st
	lines := m.verifyLines()
	room := max(1, h-1)
	top := max(0, min(v.l.top, len(lines)-room))
	end := min(len(lines), top+room)
	head := st.Render.Dim.Render(render.Clip(fmt.Sprintf("lines %d-%d of %d · ↑↓ pgup pgdn scroll · esc closes · :verify URL reruns",
		top+1, end, len(lines)), m.width))
	if v.rev != m.w.doc.Rev {
		head = st.Render.Warn.Render(render.Clip("the design changed since this report: run verify again to check the change", m.width))
	}
	return head + "\n" + strings.Join(lines[top:end], "\n")
}

// verifyLines is the report drawn at the screen's width, kept until it changes.
func (m *Model) verifyLines() []string {
	v := &m.ver
	if v.lines == nil || v.linesW != m.width {
		v.lines, v.linesW = render.Verify(v.rep, m.width, m.w.st.Render), m.width
	}
	return v.lines
}

// verifyWindow sizes the report's window to its lines and the body.
func (m *Model) verifyWindow() {
	m.ver.l.setLen(len(m.verifyLines()))
	m.ver.l.setRows(max(1, m.bodyHeight()-1))
}

// verifyWheel scrolls the report with the mouse wheel.
func (m *Model) verifyWheel(msg tea.MouseMsg) {
	m.verifyWindow()
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		m.ver.l.scroll(-1)
	case tea.MouseButtonWheelDown:
		m.ver.l.scroll(1)
	}
}

// verifyHelp is the footer while the report is on screen.
func (k KeyMap) verifyHelp() []key.Binding {
	c := k.Cancel
	c.SetHelp("esc", "close")
	return []key.Binding{k.Up, k.Down, k.PageDown, c, k.Palette}
}
