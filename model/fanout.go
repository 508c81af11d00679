package model

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Fanout makes a read pattern run over a set of key values: the same request once
// per value, with {Var} in its values (and a GetItem's key) replaced by the value,
// and the results merged as the caller merges them. It is how a write-sharded key is
// read back: "to read all the items for a given date, you would have to query the
// items for all the suffixes and then merge the results" (bp-write-sharding.html).
type Fanout struct {
	Var    string   // the placeholder's name: {shard} in a value
	Values []string // the values, in request order
	// Range is the range as the design file writes it ("0..9",
	// "2026-08-01..2026-08-07"); "" when Values were listed.
	Range string
}

// MaxFanout bounds a fan-out's values: each is one request that the engine runs and
// the preview shows, so a design cannot make one pattern a million requests.
const MaxFanout = 1000

// FanoutOps are the operations a pattern may fan out: reads of one key value each.
var FanoutOps = []Operation{OpQuery, OpGetItem}

// ParseFanoutRange reads an inclusive range: whole numbers ("0..9"; "00..15" keeps
// two digits, as a zero-padded shard suffix does) or dates ("2026-08-01..2026-08-07",
// one value a day).
func ParseFanoutRange(s string) ([]string, error) {
	lo, hi, ok := strings.Cut(s, "..")
	lo, hi = strings.TrimSpace(lo), strings.TrimSpace(hi)
	if !ok || lo == "" || hi == "" {
		return nil, fmt.Errorf("%q is not a range: write FIRST..LAST, 0..9 or 2026-08-01..2026-08-07", CutValue(s))
	}
	if a, err := strconv.ParseInt(lo, 10, 64); err == nil {
		b, err := strconv.ParseInt(hi, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q mixes a number and something else: write 0..9", CutValue(s))
		}
		if a < 0 || b < a {
			return nil, fmt.Errorf("range %q must run upward from 0 or more: write 0..9", CutValue(s))
		}
		if b-a+1 > MaxFanout {
			return nil, fmt.Errorf("range %q is %s values; a fan-out runs at most %d requests", CutValue(s), groupDigits(b-a+1), MaxFanout)
		}
		width := 0
		if len(lo) > 1 && lo[0] == '0' || len(hi) > 1 && hi[0] == '0' {
			width = max(len(lo), len(hi)) // zero-padded: 00..15
		}
		out := make([]string, 0, b-a+1)
		for n := a; n <= b; n++ {
			out = append(out, fmt.Sprintf("%0*d", width, n))
		}
		return out, nil
	}
	const day = "2006-01-02"
	a, errA := time.Parse(day, lo)
	b, errB := time.Parse(day, hi)
	if errA != nil || errB != nil {
		return nil, fmt.Errorf("%q is neither a range of whole numbers (0..9) nor of dates (2026-08-01..2026-08-07)", CutValue(s))
	}
	if b.Before(a) {
		return nil, fmt.Errorf("range %q must run forward in time", CutValue(s))
	}
	if n := int64(b.Sub(a).Hours()/24) + 1; n > MaxFanout {
		return nil, fmt.Errorf("range %q is %s days; a fan-out runs at most %d requests", CutValue(s), groupDigits(n), MaxFanout)
	}
	var out []string
	for t := a; !t.After(b); t = t.AddDate(0, 0, 1) {
		out = append(out, t.Format(day))
	}
	return out, nil
}

// Placeholder is the text a fan-out value replaces: {shard}.
func (f *Fanout) Placeholder() string { return "{" + f.Var + "}" }

// FanoutRequests are the requests a fan-out pattern runs, one per value in order:
// copies of p without Fanout, {Var} replaced in the strings of its values and of its
// key. Nil for a pattern that does not fan out.
func (p *Pattern) FanoutRequests() []Pattern {
	f := p.Fanout
	if f == nil {
		return nil
	}
	ph := f.Placeholder()
	out := make([]Pattern, len(f.Values))
	for i, val := range f.Values {
		q := *p
		q.Fanout = nil
		q.Values = substituteValues(p.Values, ph, val)
		q.Key = substituteItem(p.Key, ph, val)
		out[i] = q
	}
	return out
}

func substituteValues(m map[string]Value, ph, val string) map[string]Value {
	if m == nil {
		return nil
	}
	out := make(map[string]Value, len(m))
	for k, v := range m {
		out[k] = substitute(v, ph, val)
	}
	return out
}

func substituteItem(it Item, ph, val string) Item {
	if it == nil {
		return nil
	}
	out := make(Item, len(it))
	for k, v := range it {
		out[k] = substitute(v, ph, val)
	}
	return out
}

// substitute replaces the placeholder in a string value, and a number or binary
// value that is the placeholder alone (a PartiQL SELECT's fan-out over number
// keys, engine/statement_run.go); other values are kept.
func substitute(v Value, ph, val string) Value {
	switch {
	case v.Type == TypeS && strings.Contains(v.Str, ph):
		v.Str = strings.ReplaceAll(v.Str, ph, val)
	case (v.Type == TypeN || v.Type == TypeB) && v.Str == ph:
		v.Str = val
	}
	return v
}

// uses reports whether the placeholder occurs in one of the pattern's string values
// or key values.
func (f *Fanout) usedBy(p *Pattern) bool {
	ph := f.Placeholder()
	for _, m := range []map[string]Value{p.Values, p.Key} {
		for _, v := range m {
			if v.Type == TypeS && strings.Contains(v.Str, ph) {
				return true
			}
		}
	}
	return false
}

// fanout checks a pattern's fan-out: a read of one key value per request, values
// that exist, are distinct and at most MaxFanout, and a placeholder its values use.
func (v *validator) fanout(pos Pos, where string, p *Pattern) {
	f := p.Fanout
	if f == nil {
		return
	}
	switch {
	case f.Var == "":
		v.c.add(pos, "write fanout: {shard: \"0..9\"}", "%s: fanout names no variable", where)
		return
	case len(f.Values) == 0:
		v.c.add(pos, "give a range (0..9) or a list of values", "%s: fanout.%s has no values", where, f.Var)
		return
	case len(f.Values) > MaxFanout:
		v.c.add(pos, fmt.Sprintf("fan out over at most %d values", MaxFanout), "%s: fanout.%s has %s values; a fan-out runs at most %d requests", where, f.Var, groupDigits(int64(len(f.Values))), MaxFanout)
		return
	}
	seen := make(map[string]bool, len(f.Values))
	for _, val := range f.Values {
		if seen[val] {
			v.c.add(pos, "list each value once", "%s: fanout.%s gives %q twice", where, f.Var, CutValue(val))
			return
		}
		seen[val] = true
	}
	if !f.usedBy(p) {
		v.c.add(pos, fmt.Sprintf("write %s where the key value changes, as in values: {\":pk\": \"ORDERS#2026-08-03#%s\"}", f.Placeholder(), f.Placeholder()),
			"%s: no value uses the fan-out's %s", where, f.Placeholder())
	}
}
