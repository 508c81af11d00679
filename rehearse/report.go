package rehearse

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"stwb/analysis"
	"stwb/internal/numfmt"
)

// Report is what a run did: each pattern's requests and capacity beside what cost
// and check predicted, the hottest key values, and where the run and check
// disagree.
type Report struct {
	Scale         float64         `json:"scale"`
	Seconds       float64         `json:"seconds"`
	Patterns      []PatternReport `json:"patterns"`
	TopKeys       []KeyUnits      `json:"top_keys"`
	Disagreements []string        `json:"disagreements"`
}

// PatternReport is one pattern's run. Consumed and predicted capacity are units a
// second; predicted is `stwb cost`'s figure divided by the scale.
type PatternReport struct {
	ID        int              `json:"id"`
	Name      string           `json:"name"`
	Operation string           `json:"operation"`
	Rate      float64          `json:"rate"`          // the declared rate divided by the scale
	Sent      int64            `json:"sent"`          // requests the pattern made (a fan-out's counts once)
	Achieved  float64          `json:"achieved_rate"` // requests that succeeded, a second
	Attempts  int64            `json:"attempts"`      // every try, retries included
	Throttled int64            `json:"throttled"`     // tries answered with a throttling error
	Retries   int64            `json:"retries"`
	Failed    int64            `json:"failed"` // requests the application saw fail, after retries
	Errors    map[string]int64 `json:"errors,omitempty"`
	Reasons   map[string]int64 `json:"throttling_reasons,omitempty"`
	P50       float64          `json:"p50_ms"`
	P99       float64          `json:"p99_ms"`
	Max       float64          `json:"max_ms"`
	RCU       float64          `json:"consumed_rcu"`
	WCU       float64          `json:"consumed_wcu"`
	PredRCU   float64          `json:"predicted_rcu"`
	PredWCU   float64          `json:"predicted_wcu"`
	// Keys says how the key values were drawn; Flagged, what check says of the
	// pattern's throughput (nothing when it passes).
	Keys    string   `json:"keys"`
	Flagged []string `json:"flagged,omitempty"`
	// Seeded is how many drawn key values were given copies of the sample's items
	// before their first request; Unseeded, how many went without.
	Seeded   int64 `json:"seeded_keys,omitempty"`
	Unseeded int64 `json:"unseeded_keys,omitempty"`
}

// KeyUnits is one partition key value's consumed units, reads or writes, on the
// table or a GSI, as Contributor Insights ranks them.
type KeyUnits struct {
	Pool      string  `json:"pool"`
	Key       string  `json:"key"`
	Kind      string  `json:"kind"` // read or write
	Units     float64 `json:"units"`
	PerSecond float64 `json:"per_second"`
}

// ThrottledShare is the share of a pattern's tries that are throttled above which
// the run counts it as throttled, when comparing with check: a few throttles as a
// burst starts are not a pattern that throttles.
const ThrottledShare = 0.01

func report(a *analysis.Analysis, runs []*patternRun, o Options, elapsed time.Duration) *Report {
	secs := max(elapsed.Seconds(), 1e-9)
	r := &Report{Scale: o.Scale, Seconds: round(secs, 1), Disagreements: []string{}}
	for _, pr := range runs {
		pr.mu.Lock()
		p50, p99, top := percentiles(pr.lat)
		pp := PatternReport{ID: pr.p.ID, Name: pr.p.Name, Operation: string(pr.p.Operation), Rate: round(pr.rate, 3),
			Sent: pr.sent, Achieved: round(float64(pr.ok)/secs, 2), Failed: pr.sent - pr.ok,
			P50: msf(p50), P99: msf(p99), Max: msf(top), RCU: round(pr.read/secs, 3), WCU: round(pr.write/secs, 3),
			Keys: pr.dr.Assumed, Flagged: flaggedBy(a, pr.p.ID)}
		if len(pr.errs) > 0 {
			pp.Errors = pr.errs
		}
		pp.Seeded, pp.Unseeded = pr.seeded, pr.unseeded
		pr.mu.Unlock()
		pr.count.mu.Lock()
		pp.Attempts, pp.Throttled, pp.Reasons = pr.count.attempts, pr.count.throttled, pr.count.reasons
		pr.count.mu.Unlock()
		requests := pr.sent * int64(len(pr.dr.reqs))
		pp.Retries = max(pp.Attempts-requests, 0)
		if pr.cost != nil {
			pp.PredRCU, pp.PredWCU = round(pr.cost.PerSecond.Read/o.Scale, 3), round(pr.cost.PerSecond.Write/o.Scale, 3)
		}
		throttles := pp.Attempts > 0 && float64(pp.Throttled)/float64(pp.Attempts) >= ThrottledShare
		switch {
		case len(pp.Flagged) > 0 && !throttles:
			r.Disagreements = append(r.Disagreements, fmt.Sprintf("pattern %d: check flags it (%s) but %s of %s tries were throttled",
				pp.ID, strings.Join(pp.Flagged, ", "), numfmt.Int(pp.Throttled), numfmt.Int(pp.Attempts)))
		case len(pp.Flagged) == 0 && throttles:
			r.Disagreements = append(r.Disagreements, fmt.Sprintf("pattern %d: %s of %s tries were throttled (%s) but check does not flag it",
				pp.ID, numfmt.Int(pp.Throttled), numfmt.Int(pp.Attempts), joinCodes(pp.Reasons)))
		}
		r.Patterns = append(r.Patterns, pp)
	}
	r.TopKeys = topKeys(runs, secs, 5)
	for i := range r.TopKeys {
		r.TopKeys[i].Units = round(r.TopKeys[i].Units, 2)
		r.TopKeys[i].PerSecond = round(r.TopKeys[i].PerSecond, 3)
	}
	return r
}

func msf(d time.Duration) float64 { return round(float64(d.Microseconds())/1000, 2) }

func round(f float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(f*p) / p
}

// WriteJSON writes the report as JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes the report for a person: a block per pattern, the hottest key
// values, and where the run and check disagree.
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "stwb load: %.1f s at every rate / %s\n\n", r.Seconds, trim(r.Scale))
	for _, p := range r.Patterns {
		fmt.Fprintf(w, "pattern %d  %s  %s\n", p.ID, p.Operation, p.Name)
		fmt.Fprintf(w, "  rate      %s/s declared / %s; achieved %s/s (%s sent, %s failed after retries)\n",
			trim(p.Rate), trim(r.Scale), trim(p.Achieved), numfmt.Int(p.Sent), numfmt.Int(p.Failed))
		share := 0.0
		if p.Attempts > 0 {
			share = float64(p.Throttled) / float64(p.Attempts) * 100
		}
		fmt.Fprintf(w, "  tries     %s, throttled %s (%.1f%%), retries %s\n", numfmt.Int(p.Attempts), numfmt.Int(p.Throttled), share, numfmt.Int(p.Retries))
		if len(p.Reasons) > 0 {
			fmt.Fprintf(w, "  reasons   %s\n", joinCodes(p.Reasons))
		}
		if len(p.Errors) > 0 {
			fmt.Fprintf(w, "  errors    %s\n", joinCodes(p.Errors))
		}
		fmt.Fprintf(w, "  latency   p50 %.1f ms  p99 %.1f ms  max %.1f ms (retries included)\n", p.P50, p.P99, p.Max)
		fmt.Fprintf(w, "  capacity  consumed %s RCU/s %s WCU/s; stwb cost predicts %s RCU/s %s WCU/s (/ %s)\n",
			trim(p.RCU), trim(p.WCU), trim(p.PredRCU), trim(p.PredWCU), trim(r.Scale))
		fmt.Fprintf(w, "  keys      %s\n", p.Keys)
		if p.Seeded+p.Unseeded > 0 {
			fmt.Fprintf(w, "            %s drawn key values given copies of the sample's items first (not counted above)", numfmt.Int(p.Seeded))
			if p.Unseeded > 0 {
				fmt.Fprintf(w, "; %s left without", numfmt.Int(p.Unseeded))
			}
			fmt.Fprintln(w)
		}
		if len(p.Flagged) > 0 {
			fmt.Fprintf(w, "  check     flags it: %s\n", strings.Join(p.Flagged, ", "))
		}
	}
	if len(r.TopKeys) > 0 {
		fmt.Fprintln(w, "\ntop partition keys by consumed units (as Contributor Insights ranks them)")
		for _, k := range r.TopKeys {
			fmt.Fprintf(w, "  %-5s %-8s %-40s %s units (%s/s)\n", k.Kind, k.Pool, k.Key, trim(k.Units), trim(k.PerSecond))
		}
	}
	if len(r.Disagreements) == 0 {
		fmt.Fprintln(w, "\nthe run agrees with stwb check: every pattern it flags was throttled, and no other")
		return
	}
	fmt.Fprintln(w, "\nwhere the run and stwb check disagree:")
	for _, d := range r.Disagreements {
		fmt.Fprintln(w, "  "+d)
	}
}

func trim(f float64) string {
	s := fmt.Sprintf("%.3f", f)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if i := strings.IndexByte(s, '.'); i < 0 {
		return numfmt.Group(s)
	}
	return s
}
