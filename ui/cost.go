package ui

import (
	"fmt"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"stwb/analysis"
	"stwb/cost"
	"stwb/engine"
	"stwb/model"
	"stwb/render"
)

// costResult is the cost report of one revision (or why there is none), and the
// review's findings, which read the same runs and the report.
type costResult struct {
	report   *cost.Report
	err      error
	findings []finding
	results  []*engine.Result // results[i] for Patterns[i]: what the inspector's "returned by" reads
	// leftOut names each item the report leaves out (over 400 KB: DynamoDB would
	// never store it), at its place in the file, as `stwb cost` does (render.LeftOut).
	leftOut []string
}

type costMsg struct {
	rev uint64
	res *costResult
}

// costCmd runs, prices and reviews the design off the event loop (the analysis
// pipeline: each pattern runs once). It works on a clone of the shared engine,
// taken under the lock: a clone shares the items copy-on-write, so the preview can
// go on using the engine while the patterns run.
func costCmd(d *model.Design, itemPos []model.Pos, eng *engine.Engine, mu *sync.Mutex, rev uint64) tea.Cmd {
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = costMsg{rev: rev, res: &costResult{err: fmt.Errorf("the cost report failed: %v", r)}}
			}
		}()
		mu.Lock()
		e := eng.Clone()
		mu.Unlock()
		a := analysis.OnEngine(d, e, analysis.Options{Review: true, ItemPos: itemPos})
		return costMsg{rev: rev, res: &costResult{report: a.Cost, err: a.CostErr, findings: reviewFindings(d, a.Findings), results: a.Results,
			leftOut: render.LeftOut("", itemPos, a.LeftOut)}}
	}
}

// countText is an entity's production count as the Cost pane takes it: its
// `count`, or, when it has none, the number of its sample items, said so (the
// rule is cost's: cost.EntityStorage.FromSamples).
func (w *world) countText(e model.Entity) string {
	if e.Count > 0 {
		return fmt.Sprintf("count %d", e.Count)
	}
	if w.costRes != nil && w.costRes.report != nil {
		for _, es := range w.costRes.report.Storage.Entities {
			if es.Name == e.Name && es.FromSamples {
				return fmt.Sprintf("count %d (samples: no count)", es.Count)
			}
		}
	}
	return "count: the samples' number (no count)"
}

// patternCost is the preview's cost lines for pattern i: dollars per month at its
// peak rate, on-demand beside provisioned (DYNAMODB.md "Prices": both are shown,
// and each is labelled); for a fan-out, first what one call of it costs, its
// requests summed.
func (w *world) patternCost(i int) []string {
	if w.costRes == nil || w.costRev != w.doc.Rev || w.costRes.report == nil {
		return nil
	}
	return patternCostLines(w.costRes.report, i, w.st.Render)
}

// patternCostLines is patternCost of report r: the Patterns pane and the pattern form's
// preview draw it alike.
func patternCostLines(r *cost.Report, i int, st render.Styles) []string {
	if i >= len(r.Patterns) {
		return nil
	}
	pc := r.Patterns[i]
	var lines []string
	if pc.Requests > 0 {
		// A fan-out: one call is its requests, each billed on its own, summed.
		what := "queries"
		if pc.Operation == model.OpGetItem {
			what = "GetItem requests"
		}
		lines = append(lines, fmt.Sprintf("one call: %d %s, each billed on its own, %s RCU summed", pc.Requests, what, render.Units(pc.PerRequest.Read)))
	}
	on := ""
	if pc.Page.Known {
		// The preview above printed the sample's units; the per-second figures are
		// the production page's: say both, each named.
		lines = append(lines, "capacity per request: "+pc.ReadPerRequest(render.Units))
		on = " on the production page"
	}
	s := fmt.Sprintf("at %s/s%s: %s RCU/s, %s WCU/s · $%.2f/month on-demand · $%.2f/month provisioned",
		render.Units(pc.Rate), on, render.Units(pc.PerSecond.Read), render.Units(pc.PerSecond.Write), pc.Monthly.OnDemand, pc.Monthly.Provisioned)
	if r.InHotKey(pc.ID) {
		s += " · " + st.Error.Render("hot partition")
	}
	return append(lines, s)
}
