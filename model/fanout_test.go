package model

import (
	"strings"
	"testing"
)

// A fan-out's range: whole numbers (zero padding kept) or dates, inclusive, at most
// MaxFanout values.
func TestParseFanoutRange(t *testing.T) {
	cases := []struct {
		in      string
		n       int
		first   string
		last    string
		problem string
	}{
		{"0..9", 10, "0", "9", ""},
		{"00..15", 16, "00", "15", ""},
		{"7..7", 1, "7", "7", ""},
		{"2026-08-01..2026-08-07", 7, "2026-08-01", "2026-08-07", ""},
		{"2026-02-27..2026-03-01", 3, "2026-02-27", "2026-03-01", ""},
		{"0..999", 1000, "0", "999", ""},
		{"0..1000", 0, "", "", "at most 1000"},
		{"9..0", 0, "", "", "upward"},
		{"0..x", 0, "", "", "mixes"},
		{"a..b", 0, "", "", "neither"},
		{"0-9", 0, "", "", "not a range"},
		{"2026-08-07..2026-08-01", 0, "", "", "forward in time"},
	}
	for _, c := range cases {
		got, err := ParseFanoutRange(c.in)
		if c.problem != "" {
			if err == nil || !strings.Contains(err.Error(), c.problem) {
				t.Errorf("%q: error %v, want one saying %q", c.in, err, c.problem)
			}
			continue
		}
		if err != nil || len(got) != c.n || got[0] != c.first || got[len(got)-1] != c.last {
			t.Errorf("%q: %d values %v..., err %v; want %d from %s to %s", c.in, len(got), got[:min(len(got), 3)], err, c.n, c.first, c.last)
		}
	}
}

// FanoutRequests replaces the placeholder in values and in a GetItem's key, and
// leaves the pattern itself unchanged.
func TestFanoutRequests(t *testing.T) {
	p := &Pattern{ID: 1, Operation: OpQuery, KeyCondition: "PK = :pk AND SK > :t",
		Values: map[string]Value{":pk": Str("ORDERS#2026-08-03#{shard}"), ":t": Str("T")},
		Fanout: &Fanout{Var: "shard", Values: []string{"0", "1"}}}
	rs := p.FanoutRequests()
	if len(rs) != 2 || rs[1].Values[":pk"].Str != "ORDERS#2026-08-03#1" || rs[1].Values[":t"].Str != "T" || rs[0].Fanout != nil {
		t.Fatalf("requests %+v", rs)
	}
	if p.Values[":pk"].Str != "ORDERS#2026-08-03#{shard}" {
		t.Errorf("the pattern's own values changed: %v", p.Values)
	}
	g := &Pattern{ID: 2, Operation: OpGetItem, Key: Item{"PK": Str("U#{u}"), "SK": Str("P")}, Fanout: &Fanout{Var: "u", Values: []string{"a"}}}
	if rs := g.FanoutRequests(); rs[0].Key["PK"].Str != "U#a" || g.Key["PK"].Str != "U#{u}" {
		t.Errorf("GetItem key: %v (pattern's %v)", rs[0].Key, g.Key)
	}
}

// Validation of a fan-out: Query and GetItem only, distinct values, a placeholder
// that some value uses.
func TestValidateFanout(t *testing.T) {
	base := func() Design {
		return Design{Version: 1, Name: "d", Table: Table{Name: "tbl", Key: KeySchema{Partition: "PK", Sort: "SK"},
			Attributes: map[string]Type{"PK": TypeS, "SK": TypeS}}}
	}
	q := func(f *Fanout, op Operation) Pattern {
		p := Pattern{ID: 1, Name: "p", Operation: op, Fanout: f}
		switch op {
		case OpQuery:
			p.KeyCondition, p.Values = "PK = :pk", map[string]Value{":pk": Str("S#{s}")}
		case OpScan:
		case OpPutItem:
			p.Item = Item{"PK": Str("S#{s}"), "SK": Str("x")}
		}
		return p
	}
	cases := []struct {
		name string
		p    Pattern
		want string
	}{
		{"fine", q(&Fanout{Var: "s", Values: []string{"0", "1"}}, OpQuery), ""},
		{"unused placeholder", q(&Fanout{Var: "t", Values: []string{"0"}}, OpQuery), "no value uses the fan-out's {t}"},
		{"twice", q(&Fanout{Var: "s", Values: []string{"0", "0"}}, OpQuery), `gives "0" twice`},
		{"no values", q(&Fanout{Var: "s"}, OpQuery), "has no values"},
		{"scan", q(&Fanout{Var: "s", Values: []string{"0"}}, OpScan), "Scan has no fanout"},
		{"write", q(&Fanout{Var: "s", Values: []string{"0"}}, OpPutItem), "PutItem has no fanout"},
		{"too many", q(&Fanout{Var: "s", Values: make([]string, MaxFanout+1)}, OpQuery), "at most 1000 requests"},
	}
	for _, c := range cases {
		d := base()
		d.Patterns = []Pattern{c.p}
		err := Validate(&d)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// ParseFanoutRange never panics, and what it accepts is at most MaxFanout distinct
// values.
func FuzzParseFanoutRange(f *testing.F) {
	for _, s := range []string{"0..9", "00..15", "2026-08-01..2026-08-07", "9..0", "..", "-1..3", "0..99999999999999999999", "2026-02-30..2026-03-01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		vals, err := ParseFanoutRange(s)
		if err != nil {
			return
		}
		if len(vals) == 0 || len(vals) > MaxFanout {
			t.Fatalf("%q: %d values", s, len(vals))
		}
		seen := map[string]bool{}
		for _, v := range vals {
			if seen[v] {
				t.Fatalf("%q: %q twice", s, v)
			}
			seen[v] = true
		}
	})
}
