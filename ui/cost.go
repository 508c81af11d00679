package ui

import (
	"fmt"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"stwb/cost"
	"stwb/engine"
	"stwb/model"
	"stwb/review"
)

// costResult is the cost report of one revision (or why there is none), and the
// review's findings, which read the same runs and the report.
type costResult struct {
	report   *cost.Report
	err      error
	findings []finding
}

type costMsg struct {
	rev uint64
	res *costResult
}

// lockedRunner runs patterns on the shared engine one at a time (the preview may be
// running on it too).
type lockedRunner struct {
	eng *engine.Engine
	mu  *sync.Mutex
}

func (r lockedRunner) Run(p *model.Pattern, opts engine.RunOptions) *engine.Result {
	return safeRun(r.eng, r.mu, p)
}

// costCmd prices the design off the event loop (cost.Compute runs every pattern).
func costCmd(d *model.Design, eng *engine.Engine, mu *sync.Mutex, rev uint64) tea.Cmd {
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = costMsg{rev: rev, res: &costResult{err: fmt.Errorf("the cost report failed: %v", r)}}
			}
		}()
		run := lockedRunner{eng, mu}
		rep, err := cost.Compute(cost.Input{Design: d, Runner: run})
		results := make([]*engine.Result, len(d.Patterns))
		for i := range d.Patterns {
			results[i] = run.Run(&d.Patterns[i], engine.RunOptions{})
		}
		in := review.Input{Design: d, Results: results, Cost: rep}
		if err != nil {
			in.Cost = nil // the rules that need prices say nothing
		}
		return costMsg{rev: rev, res: &costResult{report: rep, err: err, findings: reviewFindings(d, review.Check(in))}}
	}
}

// patternCost is the preview's cost line for pattern i: dollars per month at its
// peak rate, on-demand beside provisioned (DYNAMODB.md "Prices": both are shown,
// and each is labelled).
func (w *world) patternCost(i int) string {
	if w.costRes == nil || w.costRev != w.doc.Rev || w.costRes.report == nil {
		return ""
	}
	r := w.costRes.report
	if i >= len(r.Patterns) {
		return ""
	}
	pc := r.Patterns[i]
	s := fmt.Sprintf("at %g/s: %s RCU/s, %s WCU/s · $%.2f/month on-demand · $%.2f/month provisioned",
		pc.Rate, trimFloat(pc.PerSecond.Read), trimFloat(pc.PerSecond.Write), pc.Monthly.OnDemand, pc.Monthly.Provisioned)
	if r.InHotKey(pc.ID) {
		s += " · " + w.st.Render.Error.Render("hot partition")
	}
	return s
}

func trimFloat(f float64) string { return fmt.Sprintf("%.4g", f) }
