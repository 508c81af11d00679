package ui

import (
	"fmt"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"stwb/engine"
	"stwb/model"
	"stwb/render"
)

// world is what the root and its panes share: the document, the keys and styles,
// the pattern selection, and the results of background work. Only the event loop
// writes it; background commands get snapshots and send their results back as
// messages carrying the revision they were computed for.
type world struct {
	doc *Doc
	km  KeyMap
	st  Styles

	selPattern int // index into Patterns; the Items pane highlights what it returns

	eng    *engine.Engine
	engMu  *sync.Mutex // serialises runs on one engine from overlapping commands
	engRev uint64      // DataRev the engine was built for
	engErr error
	engRun bool // a build is under way for engWant
	engWnt uint64

	grids   map[string]*render.Grid // by view, for gridRev
	gridRev uint64
	// shown keeps, per view, the last grid built and the design snapshot it indexes,
	// so that a huge design's grid stays on screen (marked as updating) while its
	// replacement is built after an edit.
	shown    map[string]shownGrid
	gridBusy map[string]uint64 // view -> DataRev being built

	preview      *engine.Result
	previewRev   uint64 // Rev the preview is for
	previewIdx   int    // pattern index the preview is for
	previewBusy  bool
	previewWant  [2]uint64
	highlight    map[int]bool // design items the selected pattern returns
	highlightRev uint64

	costRes  *costResult
	costRev  uint64
	costBusy bool

	findings   []finding
	reviewRev  uint64
	reviewBusy bool

	// gen counts background results taken in; panes key their caches on it.
	gen uint64

	// posted holds the messages now queued, which the root handles before the
	// next message (Model.settle).
	posted []tea.Msg
}

// now queues msg for the root to handle as soon as the message being handled is
// done, before any key that came after it. What a key opens or changes (a form, a
// question, an edit, a selection) must be on screen for the next key: a command's
// message would arrive after the rest of a burst of keys (a fast typist on a slow
// link, a paste without bracketed paste, a script), which would then run as
// commands on the pane underneath. It returns no command, so that a pane's key
// handler can end with `return p.w.now(openForm{...})`.
func (w *world) now(msg tea.Msg) tea.Cmd {
	w.posted = append(w.posted, msg)
	return nil
}

// nowFn is now deferred: a question's answer, or what follows an edit, queues msg
// when it is given.
func (w *world) nowFn(msg tea.Msg) func() tea.Cmd { return func() tea.Cmd { return w.now(msg) } }

// finding is a finding with where enter takes the user.
type finding struct {
	render.Finding
	pattern int    // pattern index, -1 none
	item    int    // item index, -1 none
	index   string // index name, "" none
	entity  string // entity name, "" none
}

// computed tells the panes that background results arrived; they redraw from world.
type computed struct{}

type engineMsg struct {
	rev uint64
	eng *engine.Engine
	err error
}

type gridMsg struct {
	rev  uint64
	view string
	grid *render.Grid
	snap *model.Design
	err  error
}

type shownGrid struct {
	grid *render.Grid
	d    *model.Design
}

type previewMsg struct {
	rev, dataRev uint64
	idx          int
	res          *engine.Result
	highlight    map[int]bool
}

// schedule starts whatever background work the current revision still lacks. It
// is called after every message, so it must be cheap when nothing is missing.
func (w *world) schedule(view string) tea.Cmd {
	doc := w.doc
	if doc.loading {
		return nil
	}
	var cmds []tea.Cmd
	if (w.eng == nil && w.engErr == nil || w.engRev != doc.DataRev) && !(w.engRun && w.engWnt == doc.DataRev) {
		w.engRun, w.engWnt = true, doc.DataRev
		snap, pos, rev := doc.Snapshot(), doc.ItemPos, doc.DataRev
		cmds = append(cmds, func() tea.Msg {
			e, err := engine.Load(snap.Table, engine.ItemSlice{Items: snap.Items, At: pos})
			return engineMsg{rev: rev, eng: e, err: err}
		})
	}
	for _, v := range []string{"", view} {
		if w.gridRev == doc.DataRev && w.grids[v] != nil {
			continue
		}
		if r, ok := w.gridBusy[v]; ok && r == doc.DataRev {
			continue
		}
		if w.gridBusy == nil {
			w.gridBusy = map[string]uint64{}
		}
		w.gridBusy[v] = doc.DataRev
		snap, rev, v := doc.Snapshot(), doc.DataRev, v
		cmds = append(cmds, func() tea.Msg {
			g, err := render.BuildGrid(snap, v)
			return gridMsg{rev: rev, view: v, grid: g, snap: snap, err: err}
		})
	}
	// The preview needs the engine and the table grid (to find the returned items).
	ready := w.eng != nil && w.engRev == doc.DataRev && w.gridRev == doc.DataRev && w.grids[""] != nil
	sel := w.selPattern
	if ready && sel >= 0 && sel < len(doc.D.Patterns) &&
		(w.previewRev != doc.Rev || w.previewIdx != sel) &&
		!(w.previewBusy && w.previewWant == [2]uint64{doc.Rev, uint64(sel)}) {
		w.previewBusy, w.previewWant = true, [2]uint64{doc.Rev, uint64(sel)}
		p := doc.D.Patterns[sel]
		eng, mu, grid, snap := w.eng, w.engMu, w.grids[""], doc.Snapshot()
		rev, dataRev := doc.Rev, doc.DataRev
		cmds = append(cmds, func() tea.Msg {
			res := safeRun(eng, mu, &p)
			return previewMsg{rev: rev, dataRev: dataRev, idx: sel, res: res, highlight: returnedItems(snap, grid, &p, res)}
		})
	}
	if ready && w.costRev != doc.Rev && !w.costBusy {
		w.costBusy = true
		cmds = append(cmds, costCmd(doc.Snapshot(), doc.ItemPos, w.eng, w.engMu, doc.Rev))
	}
	if w.reviewRev != doc.Rev && !w.reviewBusy {
		w.reviewBusy = true
		cmds = append(cmds, reviewCmd(doc.Snapshot(), doc.ItemPos, doc.Rev))
	}
	return tea.Batch(cmds...)
}

// safeRun runs a pattern on the engine; a panic in a component still being written
// becomes an error in the preview instead of taking the workbench down.
func safeRun(eng *engine.Engine, mu *sync.Mutex, p *model.Pattern) (res *engine.Result) {
	mu.Lock()
	defer mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			res = &engine.Result{PatternID: p.ID, Operation: p.Operation,
				Err: &engine.Error{Type: "InternalError", Message: fmt.Sprint("the engine failed on this pattern: ", r)}}
		}
	}()
	return eng.Run(p, engine.RunOptions{})
}

// returnedItems finds the design items a read returned (by table key), or a write
// touched, so the Items pane can highlight them.
func returnedItems(d *model.Design, g *render.Grid, p *model.Pattern, res *engine.Result) map[int]bool {
	if res == nil || g == nil {
		return nil
	}
	out := map[int]bool{}
	mark := func(it model.Item) {
		if r := g.FindKey(d, it); r >= 0 {
			out[int(g.Rows[r].Item)] = true
		}
	}
	for _, it := range res.Items {
		mark(it)
	}
	for _, ch := range res.Changes {
		mark(ch.Key)
	}
	return out
}

// handle stores a background result if it is still current; it reports whether the
// panes should redraw.
func (w *world) handle(msg tea.Msg) bool {
	if w.take(msg) {
		w.gen++
		return true
	}
	return false
}

func (w *world) take(msg tea.Msg) bool {
	doc := w.doc
	switch m := msg.(type) {
	case engineMsg:
		if m.rev == w.engWnt {
			w.engRun = false
		}
		if m.rev != doc.DataRev {
			return false // stale: the items changed while it was built
		}
		w.eng, w.engErr, w.engRev = m.eng, m.err, m.rev
		w.engMu = &sync.Mutex{}
		return true
	case gridMsg:
		if w.gridBusy[m.view] == m.rev {
			delete(w.gridBusy, m.view)
		}
		if m.rev != doc.DataRev {
			return false
		}
		if w.grids == nil || w.gridRev != m.rev {
			w.grids, w.gridRev = map[string]*render.Grid{}, m.rev
		}
		if m.err == nil {
			w.grids[m.view] = m.grid
			if w.shown == nil {
				w.shown = map[string]shownGrid{}
			}
			w.shown[m.view] = shownGrid{m.grid, m.snap}
		}
		return true
	case previewMsg:
		if w.previewWant == [2]uint64{m.rev, uint64(m.idx)} {
			w.previewBusy = false
		}
		if m.rev != doc.Rev || m.idx != w.selPattern {
			return false
		}
		w.preview, w.previewRev, w.previewIdx = m.res, m.rev, m.idx
		w.highlight, w.highlightRev = m.highlight, m.dataRev
		return true
	case costMsg:
		w.costBusy = false
		if m.rev != doc.Rev {
			return false
		}
		w.costRes, w.costRev = m.res, m.rev
		return true
	case reviewMsg:
		w.reviewBusy = false
		if m.rev != doc.Rev {
			return false
		}
		w.findings, w.reviewRev = m.findings, m.rev
		return true
	}
	return false
}

// previewFor returns the preview of pattern idx when it is current.
func (w *world) previewFor(idx int) *engine.Result {
	if w.previewRev == w.doc.Rev && w.previewIdx == idx {
		return w.preview
	}
	return nil
}

// grid returns the current grid of a view, nil while it is being built.
func (w *world) grid(view string) *render.Grid {
	if w.gridRev != w.doc.DataRev {
		return nil
	}
	return w.grids[view]
}

// shownGrid is what the Items pane draws: the current grid with the current design,
// or while it is rebuilt the previous grid with the snapshot it was built from
// (stale is then true, and nothing may be edited through it).
func (w *world) shownGrid(view string) (g *render.Grid, d *model.Design, stale bool) {
	if g := w.grid(view); g != nil {
		return g, w.doc.D, false
	}
	if s, ok := w.shown[view]; ok {
		return s.grid, s.d, true
	}
	return nil, nil, false
}
