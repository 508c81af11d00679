package render

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"stwb/cost"
	"stwb/engine"
	"stwb/internal/numfmt"
)

// Cost writes a cost report as plain text: a table per pattern, then storage, then
// totals. Reads are RCU (an eventually consistent 4 KB read is 0.5), writes WCU;
// on-demand and provisioned dollars are always both shown and labelled, so that
// request-unit dollars are never called "provisioned".
func Cost(r *cost.Report) string {
	var b strings.Builder
	billing := string(r.Billing.Mode)
	if billing == "" {
		billing = "on-demand"
	}
	fmt.Fprintf(&b, "Cost of %s · %s · %s · %s\n", orDash(r.Design), r.Region, r.Class, billing)
	p := r.Prices
	fmt.Fprintf(&b, "Prices: on-demand %s per million read request units, %s per million write request units; provisioned %s per RCU-hour, %s per WCU-hour; storage %s per GB-month. A month is 730 h.\n",
		Dollars(p.ReadRequestUnitPerMillion), Dollars(p.WriteRequestUnitPerMillion), Dollars(p.RCUHour), Dollars(p.WCUHour), Dollars(p.StorageGBMonth))
	b.WriteString("Reads are in RCU, where an eventually consistent read of up to 4 KB is 0.5; writes are in WCU.\n")
	for i := range r.Patterns {
		b.WriteString("\n")
		writePatternCost(&b, r, &r.Patterns[i])
	}
	b.WriteString("\n")
	writeKeyLoads(&b, r)
	b.WriteString("\n")
	writeStorage(&b, r)
	b.WriteString("\n")
	writeTTL(&b, r)
	writeTotals(&b, r)
	return trimLines(b.String())
}

// trimLines drops the blanks that empty trailing cells leave at line ends, so that
// output and goldens carry no trailing whitespace.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func writePatternCost(b *strings.Builder, r *cost.Report, pc *cost.PatternCost) {
	fmt.Fprintf(b, "#%d %s\n", pc.ID, oneLine(pc.Name))
	on := "table"
	if pc.IndexName != "" {
		on = pc.IndexName
	}
	mode := "eventually consistent"
	switch {
	case pc.Operation.IsWrite():
		mode = "write"
	case pc.Operation == "TransactGetItems":
		mode = "transactional"
	case pc.Consistent:
		mode = "strongly consistent"
	}
	fmt.Fprintf(b, "%s on %s · %s req/s · %s\n", pc.Operation, on, Units(pc.Rate), mode)
	if pc.Err != nil {
		billed := "not billed"
		if cost.Billed(pc.Err) {
			billed = "still billed"
		}
		fmt.Fprintf(b, "error: %s: %s (%s)\n", pc.Err.Type, oneLine(pc.Err.Message), billed)
	}
	headers := []string{"", "read/req", "write/req", "read/s", "write/s", "hottest key r/s", "w/s", "mean key r/s", "w/s", "key values", "verdict"}
	var rows [][]string
	// A request on an index alone leaves the table out: its row would be all zeros.
	if pc.IndexName == "" || pc.PerRequest.Table != (engine.Units{}) {
		rows = append(rows, append([]string{"table",
			Units(pc.PerRequest.Table.Read), Units(pc.PerRequest.Table.Write),
			Units(pc.PerSecond.Table.Read), Units(pc.PerSecond.Table.Write)}, hotCells(pc.Hot.Table)...))
	}
	for _, name := range pc.PerRequest.IndexNames() {
		u, s := pc.PerRequest.Indexes[name], pc.PerSecond.Indexes[name]
		row := []string{name, Units(u.Read), Units(u.Write), Units(s.Read), Units(s.Write)}
		if hk, ok := pc.Hot.Indexes[name]; ok {
			row = append(row, hotCells(hk)...)
		} else {
			row = append(row, "", "", "", "", "", "on the table's key")
		}
		rows = append(rows, row)
	}
	b.WriteString(Table(headers, rows))
	writePage(b, pc)
	writeAssumed(b, "table", pc.Hot.Table)
	for _, name := range pc.Hot.Order {
		writeAssumed(b, name, pc.Hot.Indexes[name])
	}
	m := pc.Monthly
	fmt.Fprintf(b, "monthly: on-demand %s · provisioned %s at 100%% (%s)", Dollars(m.OnDemand), Dollars(m.Provisioned), poolsLine(pc.Pools, false))
	if ts := r.Targets(); len(ts) > 0 {
		fmt.Fprintf(b, " · %s at the %s (%s)", Dollars(m.AtTarget), targetsText(ts), poolsLine(pc.Pools, true))
	}
	b.WriteString("\n")
}

// writePage says what a Query or Scan request is priced on: the page production
// would serve beside the sample's.
func writePage(b *strings.Builder, pc *cost.PatternCost) {
	if pc.Operation != "Query" && pc.Operation != "Scan" || pc.Err != nil {
		return
	}
	pg := pc.Page
	if !pg.Known {
		if pg.Because != "" {
			fmt.Fprintf(b, "page: %s (%s RCU)\n", pg.Because, Units(pc.Sample.Read))
		}
		if pc.Requests > 0 {
			fmt.Fprintf(b, "fan-out: %d requests a call, each billed on its own: %s RCU a call\n", pc.Requests, Units(pc.PerRequest.Read))
		}
		return
	}
	more := ""
	if pg.More {
		more = fmt.Sprintf(", then a LastEvaluatedKey (%s pages in all)", Units(pg.Pages))
	}
	each, sample := "", "the sample's page"
	if pc.Requests > 0 {
		each = fmt.Sprintf("each of %d requests: ", pc.Requests)
		sample = fmt.Sprintf("the %d requests on the samples", pc.Requests)
	}
	if pg.AllPages {
		pages := Units(pg.Pages) + " pages"
		if pg.Pages == 1 {
			pages = "1 page"
		}
		fmt.Fprintf(b, "every page in production: %s%s, %s items, %s bytes, %s RCU (each page billed on its own); %s: %s RCU\n",
			each, pages, Units(math.Round(pg.Items)), Units(math.Round(pg.Bytes)), Units(pg.Units.Read), sample, Units(pc.Sample.Read))
	} else {
		fmt.Fprintf(b, "page in production: %s%s items, %s bytes, %s RCU%s; %s: %s RCU\n",
			each, Units(math.Round(pg.Items)), Units(math.Round(pg.Bytes)), Units(pg.Units.Read), more, sample, Units(pc.Sample.Read))
	}
	if pc.Requests > 0 {
		fmt.Fprintf(b, "fan-out: %d requests a call, each billed on its own: %s RCU a call\n", pc.Requests, Units(pc.PerRequest.Read))
	}
	fmt.Fprintf(b, "assumed (page): %s\n", pg.Because)
}

// hotCells are the per-key columns: the hottest key value's load beside the mean,
// how many values, and the verdict with the shards that would fix it.
func hotCells(h cost.HotKey) []string {
	hr, hw := Units(h.Read), Units(h.Write)
	switch {
	case h.Unknown:
		hr, hw = "unknown", "unknown"
	case h.AtLeast:
		hr, hw = ">= "+hr, ">= "+hw
	}
	mr, mw := Units(h.MeanRead), Units(h.MeanWrite)
	if h.Partitions == 0 {
		mr, mw = "unknown", "unknown"
	}
	return []string{hr, hw, mr, mw, KeyValues(h), Verdict(h)}
}

// KeyValues writes how many values a key takes, and of what kind.
func KeyValues(h cost.HotKey) string {
	if h.Partitions == 0 && h.Rule != cost.KeyNone {
		return "unknown"
	}
	switch h.Rule {
	case cost.KeyConstant:
		return "1 (constant)"
	case cost.KeyPeriod:
		return "1 (current period)"
	case cost.KeyFew:
		return "1 (few values: the request's)"
	case cost.KeyNoKey:
		return "1 (scan)"
	case cost.KeyPattern:
		return Units(float64(h.Partitions)) + " (pattern)"
	case cost.KeyUnknown:
		return "unknown"
	case cost.KeyNone:
		return "-"
	}
	return Units(float64(h.Partitions))
}

// Verdict is a key load's verdict: ok, or HOT with the figure and the shards.
func Verdict(h cost.HotKey) string {
	if h.Unknown {
		return "unknown: give the entity a count or `values`"
	}
	v := "ok"
	if h.Rule == cost.KeyNone {
		return "no load"
	}
	if h.Exceeds || h.NeedsSplit {
		// The figure over the limit comes first: at 80 columns the verdict is what
		// stays on screen. It is the key value's whole load: its partition takes it
		// until any split.
		least := ""
		if h.AtLeast {
			least = ">= "
		}
		var over []string
		if h.Write > cost.PartitionWriteLimit {
			over = append(over, fmt.Sprintf("%s%s WCU/s > %s", least, Units(h.Write), Units(cost.PartitionWriteLimit)))
		}
		if h.Read > cost.PartitionReadLimit {
			over = append(over, fmt.Sprintf("%s%s RCU/s > %s", least, Units(h.Read), Units(cost.PartitionReadLimit)))
		}
		word := "HOT"
		if h.NeedsSplit {
			word = "HOT UNTIL SPLIT"
		}
		v = fmt.Sprintf("%s: %s per key; %d write shards", word, strings.Join(over, ", "), h.Shards)
	}
	switch {
	case !h.Exceeds && !h.NeedsSplit:
		// Under the limits: the key value's own figures say it all.
	case h.SplitForHeat != "":
		v += fmt.Sprintf(" (hottest partition after split %s r/s %s w/s)", Units(h.ItemRead), Units(h.ItemWrite))
	case h.HotItem != "" && (h.HotItemRead != h.Read || h.HotItemWrite != h.Write):
		v += fmt.Sprintf(" (hottest item %s r/s %s w/s)", Units(h.HotItemRead), Units(h.HotItemWrite))
	}
	if h.ThrottlesTable {
		v += "; throttles base-table writes"
	}
	return v
}

// Assumed says what a key load's figures rest on, in one line: the key as
// production sees it, then cost.HotKey.Assumed.
func Assumed(h cost.HotKey) string {
	parts := []string{}
	if h.Value != "" {
		parts = append(parts, h.Value)
	}
	if a := h.Assumed(); a != "" {
		parts = append(parts, a)
	}
	return strings.Join(parts, "; ")
}

func writeAssumed(b *strings.Builder, pool string, h cost.HotKey) {
	if a := Assumed(h); a != "" && h.Rule != cost.KeyNoKey {
		fmt.Fprintf(b, "assumed (%s): %s\n", pool, a)
	}
}

// writeKeyLoads is the load per key summed over every pattern: what the verdicts
// rest on.
func writeKeyLoads(b *strings.Builder, r *cost.Report) {
	if len(r.Keys) == 0 {
		return
	}
	b.WriteString("Load per key, every pattern summed (one partition key value serves 3,000 RCU and 1,000 WCU a second)\n")
	headers := []string{"", "key", "patterns", "total r/s", "w/s", "hottest r/s", "w/s", "mean r/s", "w/s", "key values", "verdict"}
	var rows [][]string
	for _, k := range r.Keys {
		if k.Rule == cost.KeyNoKey {
			continue
		}
		ids := make([]string, len(k.Patterns))
		for i, id := range k.Patterns {
			ids[i] = strconv.Itoa(id)
		}
		rows = append(rows, append([]string{k.Pool, Clip(k.Value, 40), strings.Join(ids, ","),
			Units(k.TotalRead), Units(k.TotalWrite)}, hotCells(k.HotKey)...))
	}
	b.WriteString(Table(headers, rows))
	for _, k := range r.Keys {
		if k.Rule != cost.KeyNoKey {
			fmt.Fprintf(b, "assumed (%s): %s\n", k.Pool, Assumed(k.HotKey))
		}
	}
}

// poolsLine lists the capacity each pool needs, leaving out pools the load does
// not touch.
func poolsLine(ps []cost.Pool, atTarget bool) string {
	var parts []string
	for _, p := range ps {
		rd, wr := p.NeedRead, p.NeedWrite
		if atTarget {
			rd, wr = p.TargetRead, p.TargetWrite
		}
		if rd == 0 && wr == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %s RCU %s WCU", p.Name, Units(float64(rd)), Units(float64(wr))))
	}
	if len(parts) == 0 {
		return "no capacity"
	}
	return strings.Join(parts, ", ")
}

func percent(f float64) string { return Units(f*100) + "%" }

// percentList writes autoscaling targets as "70%", or "50%/70%" when reads and
// writes (or indexes) scale to different ones.
func percentList(fs []float64) string {
	var parts []string
	for _, f := range fs {
		parts = append(parts, percent(f))
	}
	return strings.Join(parts, "/")
}

// targetsText is "70% target", or "50%/70% targets".
func targetsText(fs []float64) string {
	if len(fs) == 1 {
		return percentList(fs) + " target"
	}
	return percentList(fs) + " targets"
}

func writeStorage(b *strings.Builder, r *cost.Report) {
	s := r.Storage
	b.WriteString("Storage (item size + 100 bytes each; decimal GB)\n")
	headers := []string{"", "items", "avg bytes", "bytes", "GB", "$/month"}
	var rows [][]string
	for _, e := range s.Entities {
		name := "entity " + e.Name
		if e.Name == "" {
			name = "untyped items"
		}
		avg := Units(e.AvgBytes)
		if e.Samples == 0 {
			avg = "no sample"
		}
		items := Units(float64(e.Count))
		if e.FromSamples {
			items += " (samples: no count)"
		}
		rows = append(rows, []string{name, items, avg, Units(float64(e.Bytes)), "", ""})
	}
	line := func(name string, l cost.StorageLine) []string {
		return []string{name, Units(float64(l.Items)), "", Units(float64(l.Bytes)), GB(l.GB), Dollars(l.Monthly)}
	}
	rows = append(rows, line("table", s.Table))
	for _, name := range s.Order {
		rows = append(rows, line("index "+name, s.Indexes[name]))
	}
	rows = append(rows, []string{"total", "", "", Units(float64(s.Bytes)), GB(s.GB), Dollars(s.Monthly)})
	b.WriteString(Table(headers, rows))
	if s.FreeGB > 0 {
		fmt.Fprintf(b, "free tier: the first %s GB per account per month are free (%s of this design's storage); not subtracted above\n",
			Units(s.FreeGB), Dollars(s.FreeMonthly))
	} else {
		fmt.Fprintf(b, "free tier: none for the %s table class\n", r.Class)
	}
	if len(s.Unsized) > 0 {
		fmt.Fprintf(b, "not sized (a count but no sample item; add one to the design): %s\n", strings.Join(s.Unsized, ", "))
	}
}

func writeTotals(b *strings.Builder, r *cost.Report) {
	t := r.Totals
	b.WriteString("Totals (every pattern at its peak rate)\n")
	var rows [][]string
	rows = append(rows, []string{"per second", Units(t.PerSecond.Read) + " RCU, " + Units(t.PerSecond.Write) + " WCU", ""})
	rows = append(rows, []string{"one request of each pattern", Units(t.PerRequestRead) + " RCU, " + Units(t.PerRequestWrite) + " WCU", ""})
	rows = append(rows, []string{"on-demand", Dollars(t.Monthly.OnDemand) + "/month", "request units x 2,628,000 s"})
	rows = append(rows, []string{"provisioned at 100%", Dollars(t.Monthly.Provisioned) + "/month", poolsLine(t.Pools, false)})
	if ts := r.Targets(); len(ts) > 0 {
		rows = append(rows, []string{"provisioned at " + percentList(ts), Dollars(t.Monthly.AtTarget) + "/month", poolsLine(t.Pools, true)})
	}
	if r.Billing.Mode == "provisioned" {
		var conf []string
		for _, p := range t.Pools {
			conf = append(conf, fmt.Sprintf("%s %s RCU %s WCU", p.Name, Units(float64(p.ConfiguredRead)), Units(float64(p.ConfiguredWrite))))
		}
		rows = append(rows, []string{"provisioned as configured", Dollars(t.Configured) + "/month", strings.Join(conf, ", ")})
	}
	rows = append(rows, []string{"storage", Dollars(t.Storage) + "/month", "free tier not subtracted"})
	rows = append(rows, []string{"on-demand + storage", Dollars(t.Monthly.OnDemand+t.Storage) + "/month", ""})
	rows = append(rows, []string{"provisioned + storage", Dollars(t.Monthly.Provisioned+t.Storage) + "/month", ""})
	b.WriteString(Table([]string{"", "amount", "how"}, rows))
	writeShort(b, r)
}

// writeShort says, under the totals, which provisioned table or GSI is configured
// below what its patterns need (cost.Pool.Short, which the under-provisioned rule
// asks too): at the autoscaling target when the design sets one, else at 100%.
func writeShort(b *strings.Builder, r *cost.Report) {
	if r.Billing.Mode != "provisioned" {
		return
	}
	for _, p := range r.Totals.Pools {
		if !p.Short() {
			continue
		}
		needR, needW := p.Required()
		at := p.SizedAt()
		fmt.Fprintf(b, "under-provisioned: %s needs %s RCU %s WCU %s, more than configured (%s RCU %s WCU), every pattern at its peak rate",
			p.Name, Units(float64(needR)), Units(float64(needW)), at, Units(float64(p.ConfiguredRead)), Units(float64(p.ConfiguredWrite)))
		if p.Name != "table" && needW > p.ConfiguredWrite {
			b.WriteString("; a GSI short of write capacity throttles base-table writes")
		}
		b.WriteString("\n")
	}
}

// CostComparison writes two designs side by side, pattern by pattern (matched by
// id), each figure A against B with the ratio A/B.
func CostComparison(c *cost.Comparison, nameA, nameB string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Comparing A (%s) with B (%s); ratio is A / B\n", nameA, nameB)
	headers := []string{"id", "pattern", "A read/req", "B read/req", "ratio", "A write/req", "B write/req", "ratio", "A on-demand", "B on-demand", "ratio"}
	var rows [][]string
	for _, row := range c.Rows {
		rows = append(rows, []string{strconv.Itoa(row.ID), Clip(oneLine(row.Name), 40),
			side(row.A != nil, Units(row.Read.A)), side(row.B != nil, Units(row.Read.B)), Ratio(row.Read),
			side(row.A != nil, Units(row.Write.A)), side(row.B != nil, Units(row.Write.B)), Ratio(row.Write),
			side(row.A != nil, Dollars(row.OnDemand.A)), side(row.B != nil, Dollars(row.OnDemand.B)), Ratio(row.OnDemand)})
	}
	b.WriteString(Table(headers, rows))
	b.WriteString("\n")
	tot := [][]string{
		{"read units, one request of each pattern", Units(c.PerRequestRead.A), Units(c.PerRequestRead.B), Ratio(c.PerRequestRead)},
		{"read units per second", Units(c.PerSecondRead.A), Units(c.PerSecondRead.B), Ratio(c.PerSecondRead)},
		{"write units per second", Units(c.PerSecondWrite.A), Units(c.PerSecondWrite.B), Ratio(c.PerSecondWrite)},
		{"on-demand $/month", Dollars(c.OnDemand.A), Dollars(c.OnDemand.B), Ratio(c.OnDemand)},
		{"provisioned $/month at 100%", Dollars(c.Provisioned.A), Dollars(c.Provisioned.B), Ratio(c.Provisioned)},
		{"storage $/month", Dollars(c.Storage.A), Dollars(c.Storage.B), Ratio(c.Storage)},
	}
	b.WriteString(Table([]string{"totals", "A", "B", "ratio"}, tot))
	return trimLines(b.String())
}

func side(present bool, s string) string {
	if !present {
		return "-"
	}
	return s
}

// Ratio writes A/B as "4.4x", "-" when it has no value (B is zero, A is not).
func Ratio(r cost.Ratio) string {
	if !r.Defined {
		return "-"
	}
	return Units(r.X) + "x"
}

// Units writes a figure of capacity units, items or bytes by the one rounding rule
// (numfmt.Figure): "5,500", "1,153.2", "0.5", "0.0069", "<0.0001".
func Units(f float64) string { return numfmt.Figure(f) }

// Dollars writes US dollars: cents, or four decimals under a dollar so that small
// prices (an RCU-hour) stay visible.
func Dollars(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "$?"
	}
	prec := 2
	if a := math.Abs(f); a > 0 && a < 1 {
		prec = 4
		if a < 0.001 {
			prec = 7
		}
	}
	if prec == 2 {
		return numfmt.Dollars(f)
	}
	s := strings.TrimRight(strconv.FormatFloat(f, 'f', prec, 64), "0")
	if strings.HasSuffix(s, ".") || len(s)-strings.IndexByte(s, '.')-1 < 2 {
		return numfmt.Dollars(f)
	}
	return "$" + numfmt.Group(s)
}

// GB writes decimal gigabytes with up to three decimals.
func GB(f float64) string {
	s := strconv.FormatFloat(f, 'f', 3, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "0" && f > 0 {
		return "<0.001"
	}
	return numfmt.Group(s)
}

// group puts thousands separators into the integer part of a decimal string.

// writeTTL says what the table's TTL deletes cost: nothing on the table or its
// indexes (cost.Expiry), beside what DeleteItem of the same items would.
func writeTTL(b *strings.Builder, r *cost.Report) {
	if r.TTL == "" {
		return
	}
	fmt.Fprintf(b, "TTL on %s: expired items are deleted without consuming write throughput, on the table and its indexes (TTL.html)", r.TTL)
	if len(r.Expiries) == 0 {
		b.WriteString("; no entity says how many expire (expires)\n\n")
		return
	}
	b.WriteString("\n")
	for _, x := range r.Expiries {
		fmt.Fprintf(b, "  %s: %s items/s expire: 0 WCU, $0; deleting them with DeleteItem would take %s WCU/s, %s/month on-demand\n",
			x.Entity, Units(x.PerSecond), Units(x.DeleteWCU), Dollars(x.DeleteMonthly))
	}
	b.WriteString("  not modelled: with a stream each delete is a stream record (a service deletion); in a global table each replica pays a replicated write\n\n")
}
