package ui

import (
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"stwb/render"
)

// Options configure a workbench.
type Options struct {
	KeyMap KeyMap
	Styles Styles
	// RecoverEvery is how often a recovery copy is written while there are unsaved
	// changes; 0 means every 5 seconds, negative turns it off (tests).
	RecoverEvery time.Duration
	// CrashDir, when set, is where a panic while handling a message is written (its
	// value, the stack and the build) before the session goes on with the error in
	// the status line: the user keeps their design and has a file to send. Unset,
	// as in tests, a panic is not recovered and fails the test that caused it.
	CrashDir string
}

// Model is the root of the workbench: header, the five panes, the status line and
// footer, and the dialogs (form, question, help, command palette).
type Model struct {
	w      *world
	panes  []pane
	focus  int
	width  int
	height int

	status    string
	statusErr bool

	// dialogs is the overlay stack (overlay.go), bottom first: forms, the palette,
	// the help, the / prompt and questions, each over what was open when it opened.
	dialogs []dialog
	// query is the last search, which n and N go on with.
	query string
	// highlight says the query's matches are drawn highlighted (after a search, until
	// a key other than n or N).
	highlight bool
	// searchWaits is the pane whose last search found nothing while its content
	// was still being worked out (the review on a big design takes seconds): the
	// search runs again when a background result arrives, until a key is pressed.
	searchWaits int
	help        help.Model
	opts        Options
	quit        bool
	loadErr     error
	ver         verifyState // the palette's verify: a run in flight, the last report
	opening     *opening    // the palette's :open in flight (opening.go)
	history     []string    // the palette's commands run this session, oldest first
	openSeq     int
}

// LoadErr is why the design could not be opened, when the workbench quit for it.
func (m *Model) LoadErr() error { return m.loadErr }

// The panes, in the order 1-5 jump to.
const (
	panePatterns = iota
	paneItems
	paneTable
	paneCost
	paneReview
	noPane = -1
)

// New makes a workbench over a document.
func New(doc *Doc, opts Options) *Model {
	if opts.RecoverEvery == 0 {
		opts.RecoverEvery = 5 * time.Second
	}
	doc.freshRevs()
	w := &world{doc: doc, km: opts.KeyMap, st: opts.Styles}
	m := &Model{w: w, opts: opts, help: help.New(), searchWaits: noPane}
	m.panes = []pane{newPatternsPane(w), newItemsPane(w), newTablePane(w), newCostPane(w), newReviewPane(w)}
	m.help.Styles.ShortKey = opts.Styles.Label
	m.help.Styles.FullKey = opts.Styles.Label
	m.status = doc.openedStatus()
	if !doc.loading {
		m.offerRecovery() // a design read in the background is offered it once read
	}
	return m
}

type restoreRecovery struct{}

// offerRecovery asks whether to restore a recovery copy left by an earlier session
// that ended with unsaved changes.
func (m *Model) offerRecovery() {
	doc := m.w.doc
	if doc.Path == "" || Recovery(doc.Path) == "" {
		return
	}
	m.push(&confirmDialog{dialogBase{m}, askConfirm{
		// The answer's keys before the path, which may be long: the question is one
		// line, cut at the terminal's width.
		question: "Restore it? (y: restore, n: discard it) A recovery copy holds unsaved changes to " + doc.Path,
		onYes:    m.w.nowFn(restoreRecovery{}),
		onNo: func() tea.Cmd {
			doc.removeRecovery()
			return m.w.now(statusMsg{text: "discarded the recovery copy"})
		},
		// esc is not a no: the copy is the user's work, discarded only by n.
		answerOnly: true,
		help: []key.Binding{
			key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "restore")),
			key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "discard the copy")),
		},
	}})
}

// Doc is the document being edited.
func (m *Model) Doc() *Doc { return m.w.doc }

type recoverTick struct{}

// Init starts the background work and the recovery timer.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.w.schedule(m.itemsView())}
	if m.w.doc.loading {
		cmds = append(cmds, m.w.doc.loadCmd())
	}
	if m.opts.RecoverEvery > 0 {
		cmds = append(cmds, tea.Tick(m.opts.RecoverEvery, func(time.Time) tea.Msg { return recoverTick{} }))
	}
	return tea.Batch(cmds...)
}

func (m *Model) itemsView() string {
	if ip, ok := m.panes[paneItems].(*itemsPane); ok {
		return ip.view
	}
	return ""
}

// bodyHeight is the lines between the tab bar and the status line.
func (m *Model) bodyHeight() int { return max(1, m.height-4) }

func (m *Model) resize() {
	for _, p := range m.panes {
		p.SetSize(m.width, m.bodyHeight())
	}
	for _, d := range m.dialogs {
		d.SetSize(m.width, m.bodyHeight())
	}
	m.help.Width = m.width
}

// Update routes a message: dialogs first, then the root's own bindings, then the
// focused pane; data messages go to every pane.
func (m *Model) Update(msg tea.Msg) (model tea.Model, cmd tea.Cmd) {
	// A bug must not cost the user their unsaved design: in the program (CrashDir
	// set), a panic while handling one message is written to a crash file and
	// becomes an error in the status line, and the session goes on. In tests it
	// is not recovered, so the test fails.
	if m.opts.CrashDir != "" {
		defer func() {
			if r := recover(); r != nil {
				path := writeCrash(m.opts.CrashDir, r, debug.Stack())
				m.dialogs, m.w.posted = nil, nil // what was queued would run into it again
				// The unsaved changes are copied now, not at the next tick: whatever
				// comes next, the next start offers them back.
				kept := ""
				if copy, err := m.WriteRecovery(); err == nil && copy != "" {
					kept = " (and copied to " + copy + ")"
				}
				m.status, m.statusErr = fmt.Sprintf("internal error (%v); your design is intact%s: save it, and send %s with a report", r, kept, path), true
				// The model too: the panic left it unset, and Bubble Tea would
				// draw a nil model, a second panic that ends the program.
				model, cmd = m, nil
			}
		}()
	}
	cmd = tea.Batch(m.update(msg), m.settle())
	// Whatever happened, start any background work the new state lacks.
	return m, tea.Batch(cmd, m.w.schedule(m.itemsView()))
}

// maxSettle bounds the queued messages one settle handles. A key queues a few (a
// form, then what it opens; an edit, then what follows it); only a message that
// queues itself, a bug, comes near it (TestNoMessagePathLoops drives every key).
const maxSettle = 1000

// settle handles the messages queued with world.now, and those they queue, in
// order, so that the screen is what the message before meant before the next one.
func (m *Model) settle() tea.Cmd {
	var cmds []tea.Cmd
	for steps := 0; len(m.w.posted) > 0; steps++ {
		if steps > maxSettle {
			// Loud in tests (no CrashDir: the panic fails the test); in the program
			// Update's recover keeps the session and copies the unsaved changes. The
			// queue is dropped, or the next message would run the loop again.
			m.w.posted = nil
			panic("ui: queued messages never settle") // a message that queues itself
		}
		msg := m.w.posted[0]
		m.w.posted = m.w.posted[1:]
		cmds = append(cmds, m.update(msg))
	}
	return tea.Batch(cmds...)
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	km := m.w.km
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.resize()
		return nil
	case statusMsg:
		m.status, m.statusErr = msg.text, msg.err
		return nil
	case openedMsg:
		return m.opened(msg)
	case loadedMsg:
		if msg.err != nil {
			m.loadErr = msg.err
			return m.leave()
		}
		m.replaceDoc(msg.doc)
		m.offerRecovery() // the one offer: New leaves it to here for a design read in the background
		return m.broadcast(docChanged{})
	case recoverTick:
		cmd := m.w.doc.recoverCmd()
		return tea.Batch(cmd, tea.Tick(m.opts.RecoverEvery, func(time.Time) tea.Msg { return recoverTick{} }))
	case recoverDone:
		if msg.err != nil {
			m.status, m.statusErr = "could not write the recovery copy: "+msg.err.Error(), true
		}
		return nil
	case applyEdit:
		if err := m.w.checkedApply(msg.e); err != nil {
			m.status, m.statusErr = "refused: "+err.Error(), true
			return nil
		}
		m.status, m.statusErr = msg.e.label, false
		cmd := m.broadcast(docChanged{})
		if msg.after != nil {
			cmd = tea.Batch(cmd, msg.after())
		}
		return cmd
	case formDone:
		if d := topOf[*formDialog](m); d != nil {
			m.pop(d)
		}
		if msg.e == nil {
			m.status, m.statusErr = "cancelled", false
			return nil
		}
		return m.w.now(applyEdit{e: *msg.e, after: msg.after})
	case typingFlush:
		cmd := msg.f.flushTick() // wherever the form is in the stack
		return tea.Batch(cmd, msg.f.noticeChange())
	case formAsideMsg:
		return msg.f.aside.update(msg.msg)
	case openForm:
		msg.f.refuse, msg.f.now = m.w.refusal, m.w.now
		m.push(&formDialog{dialogBase{m}, msg.f})
		return msg.f.noticeChange()
	case askConfirm:
		m.push(&confirmDialog{dialogBase{m}, msg})
		return nil
	case docReplaced:
		m.replaceDoc(msg.doc)
		return m.broadcast(docChanged{})
	case saveDone:
		return m.saved(msg)
	case saveForce:
		return m.saveAs(m.w.doc.Path)
	case restoreRecovery:
		if err := m.w.doc.restoreRecovery(); err != nil {
			m.status, m.statusErr = err.Error(), true
			return nil
		}
		m.status, m.statusErr = "restored the recovery copy: ctrl+s saves it, q then y drops it", false
		return m.broadcast(docChanged{})
	case engineMsg, gridMsg, previewMsg, costMsg, reviewMsg:
		if m.w.handle(msg) {
			return tea.Batch(m.broadcast(computed{}), m.searchAgain())
		}
		return nil
	case docChanged, computed, selectPattern, selectItem, selectIndex:
		cmd := m.broadcast(msg)
		switch msg.(type) {
		case selectPattern:
			m.focus = panePatterns
		case selectItem:
			m.focus = paneItems
		case selectIndex:
			m.focus = paneTable
		}
		return cmd
	case verifyMsg:
		m.verified(msg)
		return nil
	case openEditorMsg:
		if msg.path != "" {
			return m.editFile(msg.kind, msg.index, msg.path)
		}
		return m.openEditor(msg.kind, msg.index)
	case editorDone:
		return m.editorBack(msg)
	case tea.MouseMsg:
		return m.mouse(msg)
	case tea.KeyMsg:
		m.searchWaits = noPane // the user has gone on: a late match must not move the cursor
		return m.key(msg, km)
	}
	if d := m.top(); d != nil {
		_, cmd := d.Update(msg) // the forms' own messages (a textinput's)
		return cmd
	}
	return nil
}

func (m *Model) key(msg tea.KeyMsg, km KeyMap) tea.Cmd {
	// Bubble Tea delivers runes that arrive together (fast typing, a script, a paste)
	// as one message. Text fields take them whole; commands are one key each, and
	// each goes to what is on screen once the key before it has been handled: after
	// the `a` of "astudent" the form it opens takes "student" as text.
	if d := m.top(); msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste && (d == nil || !d.takesText()) {
		var cmds []tea.Cmd
		for i, r := range msg.Runes {
			if d := m.top(); d != nil && d.takesText() {
				rest := tea.KeyMsg{Type: tea.KeyRunes, Runes: msg.Runes[i:], Alt: msg.Alt}
				return tea.Batch(append(cmds, m.key(rest, km))...)
			}
			one := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt}
			cmds = append(cmds, m.key(one, km), m.settle())
		}
		return tea.Batch(cmds...)
	}
	if !key.Matches(msg, km.NextMatch, km.PrevMatch) {
		m.highlight = false
	}
	if m.opening != nil && msg.String() == "ctrl+c" {
		m.stopOpening() // ctrl+c stops waiting for :open, whatever is on screen
		return nil
	}
	if d := m.top(); d != nil {
		_, cmd := d.Update(msg)
		return cmd
	}
	switch {
	case m.w.doc.loading:
		if key.Matches(msg, km.Quit) {
			return m.leave()
		}
		return nil
	}
	if m.ver.show {
		if cmd, done := m.verifyKey(msg); done {
			return cmd
		}
	}
	switch {
	case key.Matches(msg, km.Quit):
		if msg.String() == "ctrl+c" && m.quit {
			return m.leave() // a second ctrl+c always leaves
		}
		return m.askQuit()
	case key.Matches(msg, km.Save):
		return m.save(false)
	case key.Matches(msg, km.Undo):
		return m.step(true, "undid", "nothing to undo", m.w.doc.Undo, m.w.doc.Redo)
	case key.Matches(msg, km.Redo):
		return m.step(false, "redid", "nothing to redo", m.w.doc.Redo, m.w.doc.Undo)
	case key.Matches(msg, km.Help):
		m.push(&helpDialog{dialogBase: dialogBase{m}})
		return nil
	case key.Matches(msg, km.Search):
		if _, ok := m.panes[m.focus].(searchable); ok {
			m.openPrompt("/", "search", func(q string) tea.Cmd {
				m.query = q
				if s, ok := m.panes[m.focus].(searchable); ok && q != "" {
					return m.find(s, 1, true)
				}
				return nil
			})
			return nil
		}
	case key.Matches(msg, km.GotoPattern) && m.focus == panePatterns:
		// # then the number: the digits alone switch panes (issue 25, item 9).
		m.openPrompt("go to pattern #", "go to it", m.gotoTyped)
		return nil
	case key.Matches(msg, km.NextMatch, km.PrevMatch):
		if s, ok := m.panes[m.focus].(searchable); ok && m.query != "" {
			dir := 1
			if key.Matches(msg, km.PrevMatch) {
				dir = -1
			}
			return m.find(s, dir, false)
		}
	case key.Matches(msg, km.Palette):
		m.openPalette("")
		return nil
	case key.Matches(msg, km.Open):
		m.openPalette("open ")
		return nil
	case key.Matches(msg, km.Export):
		m.openPalette("export ")
		return nil
	case key.Matches(msg, km.NextPane):
		m.focus = (m.focus + 1) % len(m.panes)
		return nil
	case key.Matches(msg, km.PrevPane):
		m.focus = (m.focus + len(m.panes) - 1) % len(m.panes)
		return nil
	}
	for i, b := range km.Pane {
		if key.Matches(msg, b) {
			m.focus = i
			return nil
		}
	}
	_, cmd := m.panes[m.focus].Update(msg)
	return cmd
}

// searchAgain runs a search that found nothing in a pane still being worked out
// again, once a background result has come in, if the user has pressed no key since.
func (m *Model) searchAgain() tea.Cmd {
	if m.searchWaits == noPane || m.searchWaits != m.focus || m.query == "" {
		return nil
	}
	m.searchWaits = noPane
	if s, ok := m.panes[m.focus].(searchable); ok {
		return m.find(s, 1, true)
	}
	return nil
}

// find moves the focused list to the next (dir 1) or previous match of the query;
// here says the row under the cursor counts (a new search starts where it is).
func (m *Model) find(s searchable, dir int, here bool) tea.Cmd {
	l := s.cursor()
	if here {
		l.cur -= dir
	}
	found := l.find(m.query, dir, s.rowText)
	if here && !found {
		l.cur += dir
	}
	if mv, ok := s.(interface{ cursorMoved() }); ok {
		mv.cursorMoved()
	}
	if !found {
		if p, ok := s.(stillWorking); ok && p.stillWorking() != "" {
			m.searchWaits = m.focus
			m.status, m.statusErr = fmt.Sprintf("/%s: no match yet: %s is still being worked out; the search runs again when it is done", m.query, p.stillWorking()), false
			return nil
		}
		m.status, m.statusErr = fmt.Sprintf("/%s: no match", m.query), true
		return nil
	}
	// The matches are counted, not the rows: "match 2 of 5", and each is drawn
	// highlighted until the next key that is not n or N.
	nth, all := l.matchRank(m.query, s.rowText)
	m.status, m.statusErr = fmt.Sprintf("/%s: match %d of %d · n next, N previous", m.query, nth, all), false
	m.highlight = true
	return nil
}

// step is undo or redo, refused like any edit when the loader would refuse the
// design after it.
func (m *Model) step(undo bool, did, none string, step, back func() string) tea.Cmd {
	l, err := m.w.checkedStep(undo, step, back)
	switch {
	case err != nil:
		m.status, m.statusErr = "refused: "+err.Error(), true
		return m.broadcast(docChanged{})
	case l == "":
		m.status, m.statusErr = none, false
		return nil
	}
	m.status, m.statusErr = did+": "+l, false
	return m.broadcast(docChanged{})
}

// askQuit quits, asking first when there are unsaved changes.
func (m *Model) askQuit() tea.Cmd {
	if m.w.doc.Dirty {
		m.quit = true
		return m.w.now(askConfirm{question: "There are unsaved changes. Quit without saving? (y/n)", onYes: m.quitCmd})
	}
	return m.quitCmd()
}

func (m *Model) quitCmd() tea.Cmd {
	m.w.doc.removeRecovery()
	return m.leave()
}

// leave ends the program, first cancelling a verify in flight so that its requests
// stop with the workbench.
func (m *Model) leave() tea.Cmd {
	m.ver.stop()
	return tea.Quit
}

// broadcast sends a data message to every pane.
func (m *Model) broadcast(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for _, p := range m.panes {
		_, c := p.Update(msg)
		cmds = append(cmds, c)
	}
	return tea.Batch(cmds...)
}

// mouse: the wheel scrolls the focused pane, a click on the tab bar switches pane,
// a click in the body goes to the pane with its row relative to the body.
func (m *Model) mouse(msg tea.MouseMsg) tea.Cmd {
	if d := m.top(); d != nil {
		_, cmd := d.Update(msg)
		return cmd
	}
	if m.ver.show {
		m.verifyWheel(msg)
		return nil
	}
	if msg.Action == tea.MouseActionPress && msg.Button == tea.MouseButtonLeft && msg.Y == 1 {
		x := 0
		for i, p := range m.panes {
			w := render.Width(tabLabel(i, p.Title()))
			if msg.X >= x && msg.X < x+w {
				m.focus = i
				return nil
			}
			x += w + 1
		}
		return nil
	}
	msg.Y -= 2
	_, cmd := m.panes[m.focus].Update(msg)
	return cmd
}

func tabLabel(i int, title string) string { return fmt.Sprintf(" %d %s ", i+1, title) }

// View draws the screen; it only arranges what the panes and render draw, and each
// pane draws only its visible rows.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	st := m.w.st
	doc := m.w.doc
	var b strings.Builder

	// Header: name, file, unsaved marker, billing and class.
	d := doc.D
	file := doc.Path
	switch {
	case file == "" && doc.Sample != "":
		file = "sample " + doc.Sample + " (not saved)"
	case doc.New, doc.blank:
		file += " (new)"
	}
	bill := string(d.Table.Billing.Mode)
	if bill == "" {
		bill = "on-demand"
	}
	if d.Table.Billing.Mode == "provisioned" {
		bill += fmt.Sprintf(" %d RCU / %d WCU", d.Table.Billing.Read, d.Table.Billing.Write)
	}
	class := string(d.Table.Class)
	if class == "" {
		class = "standard"
	}
	left := st.Title.Render("stwb · "+nameOr(d.Name, "(unnamed)")) + "  " + file
	if doc.Dirty {
		left += " " + st.Unsaved.Render("● unsaved")
	}
	right := bill + " · " + class
	b.WriteString(spread(left, right, m.width))
	b.WriteByte('\n')

	// Tab bar.
	var tabs []string
	for i, p := range m.panes {
		l := tabLabel(i, p.Title())
		if i == m.focus {
			// Brackets as well as the style: the active tab shows under NO_COLOR too.
			l = "[" + l[1:len(l)-1] + "]"
			tabs = append(tabs, st.PaneActive.Render(l))
		} else {
			tabs = append(tabs, st.PaneTitle.Render(l))
		}
	}
	b.WriteString(render.Clip(strings.Join(tabs, " "), m.width))
	b.WriteByte('\n')

	// Body.
	h := m.bodyHeight()
	var body string
	switch d := m.body(); {
	case doc.loading:
		body = st.Render.Dim.Render("reading and checking " + doc.Path + "…")
	case d != nil:
		body = d.View()
	case m.ver.show:
		body = m.verifyView(h)
	default:
		body = m.panes[m.focus].View()
		if _, ok := m.panes[m.focus].(searchable); ok && m.highlight && m.query != "" {
			body = render.HighlightMatches(body, m.query, st.Match)
		}
	}
	b.WriteString(fitLines(body, m.width, h))
	b.WriteByte('\n')

	// Status line, then the footer with the focused pane's short help.
	switch d := m.top(); {
	case d != nil && d.inStatusLine():
		b.WriteString(d.View())
	case m.statusErr:
		b.WriteString(st.StatusError.Render(render.Clip(m.status, m.width)))
	default:
		b.WriteString(st.Status.Render(render.Clip(m.status, m.width)))
	}
	b.WriteByte('\n')
	var short []key.Binding
	switch d := m.top(); {
	case d != nil:
		// A dialog's own keys alone: in a text field ? and q are text, and a
		// question takes y or n.
		b.WriteString(render.Fit(m.help.ShortHelpView(d.ShortHelp()), m.width))
		return b.String()
	case m.ver.show:
		short = m.w.km.verifyHelp()
	default:
		short = append(m.panes[m.focus].ShortHelp(), m.w.km.global()...)
	}
	b.WriteString(m.footer(short))
	return b.String()
}

// footer is the short help: ? help and q quit always show, at the right; the other
// hints are cut first when the width runs out.
func (m *Model) footer(short []key.Binding) string {
	k := m.w.km
	var rest []key.Binding
	for _, b := range short {
		if !slices.Contains(b.Keys(), "?") && !slices.Contains(b.Keys(), "q") {
			rest = append(rest, b)
		}
	}
	always := m.help.ShortHelpView([]key.Binding{k.Help, k.Quit})
	room := m.width - render.Width(always) - 3
	if room < 1 {
		return render.Clip(always, m.width)
	}
	return render.Fit(m.help.ShortHelpView(rest), room) + " • " + always
}

// helpView is the help's window of h lines from line top (View changes nothing).
func (m *Model) helpView(top, h int) string {
	lines := m.helpLines()
	top = max(0, min(top, len(lines)-h))
	end := min(len(lines), top+h)
	if len(lines) > h {
		lines[top] = m.w.st.Title.Render("Help: "+m.panes[m.focus].Title()+" pane") + fmt.Sprintf("   lines %d-%d of %d · ↓/↑ pgdn/pgup scroll · esc closes", top+1, end, len(lines))
	}
	return strings.Join(lines[top:end], "\n")
}

// helpLines is the full help, generated from the KeyMap: the focused pane's bindings,
// then the global ones, flowed into as many columns as the width allows, then the
// palette's commands.
func (m *Model) helpLines() []string {
	st := m.w.st
	k := m.w.km
	groups := m.panes[m.focus].FullHelp()
	groups = append(groups,
		[]key.Binding{k.Pane[0], k.Pane[1], k.Pane[2], k.Pane[3], k.Pane[4], k.NextPane, k.PrevPane},
		[]key.Binding{k.Save, k.Open, k.Export, k.Undo, k.Redo, k.Palette, k.Help, k.Quit})
	var entries []string
	for _, g := range groups {
		for _, bnd := range g {
			if bnd.Enabled() {
				hp := bnd.Help()
				entries = append(entries, st.Label.Render(render.Fit(hp.Key, 10))+" "+hp.Desc)
			}
		}
	}
	// Columns as wide as the longest entry, as many as fit: a description is never
	// cut (issue 25: at 120 columns 32-cell columns cut them). One column wraps.
	colW := 0
	for _, e := range entries {
		colW = max(colW, render.Width(e)+2)
	}
	cols := max(1, m.width/max(1, colW))
	rows := (len(entries) + cols - 1) / cols
	lines := []string{st.Title.Render("Help: "+m.panes[m.focus].Title()+" pane") + "   (esc, ? or q to close)", ""}
	for r := 0; r < rows; r++ {
		if cols == 1 {
			for i, l := range wrap(entries[r], m.width-2) {
				if i > 0 {
					l = strings.Repeat(" ", 11) + l
				}
				lines = append(lines, l)
			}
			continue
		}
		var b strings.Builder
		for c := 0; c < cols; c++ {
			if i := c*rows + r; i < len(entries) {
				b.WriteString(render.Fit(entries[i], colW))
			}
		}
		lines = append(lines, b.String())
	}
	lines = append(lines, "", "Commands (press :):")
	for _, c := range paletteHelp() {
		for i, l := range wrap(c, m.width-4) {
			if i > 0 {
				l = "  " + l
			}
			lines = append(lines, "  "+l)
		}
	}
	return append(lines, "", "Mouse: the wheel scrolls, a click selects a row or a pane tab.")
}

// spread puts left and right on one line of width w, cutting left if needed.
func spread(left, right string, w int) string {
	rw := render.Width(right)
	if rw+2 > w {
		return render.Fit(left, w)
	}
	return render.Fit(left, w-rw-1) + " " + right
}

// fitLines makes s exactly h lines of exactly w cells, so the footer never moves.
func fitLines(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lines[i] = render.Fit(l, w)
	}
	return strings.Join(lines, "\n")
}

func nameOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
