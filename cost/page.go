package cost

import (
	"fmt"
	"math"
	"strings"
	"time"

	"stwb/engine"
	"stwb/internal/numfmt"
	"stwb/model"
)

// Page is one request of a Query or Scan as production would serve it: the sample
// items say how large each entity's items are, the counts and key values say how
// many one key value holds. DynamoDB reads in key order until Limit items have been
// read or 1 MB has (the item that crosses 1 MB is included), and bills the bytes
// read: ceil(bytes / 4 KB) RCU, half when eventually consistent (Query.html,
// read-write-operations.html). An LSI read that fetches unprojected attributes also
// pays ceil(item / 4 KB) per item (LSI.html "Read capacity units").
type Page struct {
	Known bool // false: the production page could not be sized; the sample's is used
	// Items are the items (or index entries) one page reads; Bytes their size.
	Items, Bytes float64
	// More is set when the key value (or the table, for a Scan) holds more than one
	// page: the request ends with a LastEvaluatedKey.
	More bool
	// CappedBy says what ended the page: "Limit", "1 MB", or "" (all the key holds).
	CappedBy string
	Units    Units // the page's read units, on the table and the index read
	// Pages is how many pages the whole result takes (1 when it fits one page).
	// AllPages is set when the request is priced as every page (`pages: all` or
	// --all-pages): Items, Bytes and Units are then the whole result's, every page
	// billed on its own.
	Pages    float64
	AllPages bool
	// Because says, in words, what the page was sized from.
	Because string
}

// pageBytes is a Query or Scan page's limit: 1 MB read (Query.html).
const pageBytes = 1 << 20

// readPool names the pool a read draws on and the partition key it names: the
// table's, or a GSI's; an LSI shares the table's partition key.
func readPool(d *model.Design, p *model.Pattern) (index string, attr string, local bool) {
	attr = d.Table.Key.Partition
	if ix, ok := d.Table.IndexByName(p.Index); ok {
		if ix.Local {
			return ix.Name, attr, true
		}
		return ix.Name, partitionAttr(ix), false
	}
	return "", attr, false
}

// productionPage sizes pattern p's first page in production (see Page).
// shown names the key's variables a fan-out sets (fanoutVars): the page is then
// described as any of the fan-out's key values', not the one of this request.
func (r *Report) productionPage(d *model.Design, p *model.Pattern, res *engine.Result, shown []string) Page {
	return r.splitPage(d, p, res, 1, shown)
}

// splitPage is productionPage for a Query whose key value's items are split over
// split write shards: the page of one shard, which holds 1/split of them.
func (r *Report) splitPage(d *model.Design, p *model.Pattern, res *engine.Result, split float64, shown []string) Page {
	if len(res.Pages) == 0 {
		return Page{}
	}
	sample := res.Pages[0]
	index, attr, local := readPool(d, p)
	fetch := local && sample.Consumed.Table.Read > 0
	entities := r.entitiesRead(d, sample)
	var items float64
	var ki KeyInfo
	var periodWhy []string // how a period key's items were counted from the write rate
	if p.Operation == model.OpScan {
		for _, e := range entities {
			items += float64(r.entryCount(e, index))
		}
	} else {
		v, has := queryPartitionValue(d, p, res, attr)
		ki = r.keys.Key(attr, v, has).showingVars(shown)
		if len(entities) == 0 {
			entities = ki.Entities
		}
		for _, e := range entities {
			n, why := r.itemsPerValue(d, ki, e)
			if n <= 0 {
				return Page{Because: fmt.Sprintf("how many %s items one %s holds is unknown (%s): the sample's page is used", e.Name, ki.Shape, ki.Because)}
			}
			if why != "" {
				periodWhy = append(periodWhy, why)
			}
			items += n * r.entryShare(e, index)
		}
	}
	if p.Operation == model.OpQuery {
		items /= split
	}
	if len(entities) == 0 || items <= 0 {
		return Page{Because: "the page reads no entity with a count: the sample's page is used"}
	}
	// The average entry the page reads, weighted by how many of each entity it holds.
	var sum, fetchSum, weight float64
	for _, e := range entities {
		if r.samplesOf(e) == 0 {
			return Page{Because: fmt.Sprintf("no sample item of %s to size the page by: the sample's page is used", e.Name)}
		}
		var n float64
		if p.Operation == model.OpScan {
			n = float64(r.entryCount(e, index))
		} else {
			per, _ := r.itemsPerValue(d, ki, e)
			n = per * r.entryShare(e, index) / split
		}
		size, item := r.entrySize(e, index)
		sum += n * size
		fetchSum += n * math.Ceil(item/4096)
		weight += n
	}
	avg := sum / weight
	pg := Page{Known: true, Items: items}
	// perPage is how many items one page holds: Limit, or what reaches 1 MB.
	perPage := items
	if p.Limit > 0 && float64(p.Limit) < perPage {
		perPage, pg.CappedBy = float64(p.Limit), "Limit"
	}
	counted := avg // what each item counts toward the 1 MB page
	if fetch {
		counted = math.Max(4096, math.Ceil(avg/4096)*4096)
	}
	if mb := math.Ceil(float64(pageBytes) / counted); mb < perPage {
		perPage, pg.CappedBy = mb, "1 MB"
	}
	pg.Items = perPage
	pg.More = perPage < items
	pg.Pages = math.Max(math.Ceil(items/perPage-1e-9), 1)
	factor := 0.5
	if p.Consistent {
		factor = 1
	}
	// pageRCU bills one page of n items: ceil(bytes / 4 KB), at least one unit's
	// share even when it reads nothing (each page is a request of its own).
	pageRCU := func(n float64) float64 {
		return math.Max(math.Ceil(n*avg/4096-1e-9)*factor, factor)
	}
	rcu := pageRCU(perPage)
	fetched := perPage
	if r.allPages || p.AllPages {
		// Every page, each billed on its own: the full pages, then what is left.
		last := items - (pg.Pages-1)*perPage
		rcu = (pg.Pages-1)*pageRCU(perPage) + pageRCU(last)
		pg.AllPages, pg.Items, pg.More, fetched = true, items, false, items
	}
	pg.Bytes = pg.Items * avg
	if index == "" {
		pg.Units = Units{Read: rcu, Table: engine.Units{Read: rcu}}
	} else {
		pg.Units = Units{Read: rcu, Indexes: map[string]engine.Units{index: {Read: rcu}}}
		if fetch {
			f := fetchSum / weight * fetched * factor
			pg.Units.Table.Read = f
			pg.Units.Read += f
		}
	}
	pg.Because = r.pageBecause(p, ki, entities, items, avg, pg)
	if len(periodWhy) > 0 {
		pg.Because = strings.Join(periodWhy, "; ") + "; " + pg.Because
	}
	return pg
}

// itemsPerValue is how many of entity e's items one value of key ki holds in
// production: KeySpace.ItemsPerValue, or for a key on the current period (which
// ItemsPerValue cannot size: how many past periods the table keeps is unknown) the
// items one period gathers at the rate the design writes them: the rate of the
// patterns that put e's items, times the period's length (read from the variable's
// sample values: a day for 2026-08-03), over the values of the key's other
// variables (a write shard's ten). why says so ("" for a count over key values).
func (r *Report) itemsPerValue(d *model.Design, ki KeyInfo, e *model.Entity) (float64, string) {
	if n := r.keys.ItemsPerValue(ki, e); n > 0 {
		return n, ""
	}
	if ki.Kind != KeyPeriod && ki.Kind != KeyMany && ki.Kind != KeyFew && ki.Kind != KeyPattern {
		return 0, ""
	}
	var seconds float64
	var period string
	over := int64(1)
	var others []string
	for _, vi := range ki.Vars {
		switch {
		case vi.Kind == VarPeriod && seconds == 0:
			seconds, period = periodLength(r.keys.sampleValues(e, vi.Name))
			if seconds == 0 {
				return 0, ""
			}
		case vi.Kind == VarPeriod:
			return 0, ""
		case vi.Values > 0:
			over = mulCap(over, vi.Values)
			others = append(others, fmt.Sprintf("%s values of %s", numfmt.Int(vi.Values), vi.Name))
		default:
			return 0, ""
		}
	}
	if seconds == 0 {
		return 0, ""
	}
	rate, writers := putRate(d, e)
	if rate <= 0 {
		return 0, ""
	}
	n := rate * seconds / float64(over)
	why := fmt.Sprintf("new %s items arrive at %s a second (%s) and one %s holds a %s of them (%s s)",
		e.Name, numfmt.Group(trimFloat(rate)), writers, ki.Shape, period, numfmt.Int(int64(seconds)))
	if len(others) > 0 {
		why += ", spread over " + strings.Join(others, " and ")
	}
	return n, why + fmt.Sprintf(": about %s items", numfmt.Int(int64(math.Round(n))))
}

// periodLength is the length of the period a variable's sample values name, in
// seconds, with its name: 2026-08-03 a day, 2026-08 a month (30.44 days on
// average), 2026-08-03T14 an hour; 0 when they name none or disagree.
func periodLength(vals []string) (float64, string) {
	var secs float64
	var name string
	for _, v := range vals {
		s, n := periodOf(v)
		if s == 0 || secs != 0 && s != secs {
			return 0, ""
		}
		secs, name = s, n
	}
	return secs, name
}

func periodOf(v string) (float64, string) {
	if isEpoch(v) {
		return 1, "second"
	}
	for _, l := range dateLayouts {
		if _, err := time.Parse(l, v); err != nil {
			continue
		}
		switch {
		case strings.Contains(l, "05"):
			return 1, "second"
		case strings.Contains(l, "04"):
			return 60, "minute"
		case strings.Contains(l, "15"):
			return 3600, "hour"
		case strings.Contains(l, "02"):
			return 86400, "day"
		}
		return 30.44 * 86400, "month"
	}
	return 0, ""
}

// putRate is the rate at which the design's patterns put new items of entity e:
// each PutItem of such an item, each put action of a transaction or batch, at the
// pattern's rate; and the patterns, in words.
func putRate(d *model.Design, e *model.Entity) (float64, string) {
	ta := d.TypeAttr()
	isE := func(it model.Item) bool { v, ok := it[ta]; return ok && v.Type == model.TypeS && v.Str == e.Name }
	var rate float64
	var ws []string
	for i := range d.Patterns {
		p := &d.Patterns[i]
		n := 0
		if p.Operation == model.OpPutItem && isE(p.Item) {
			n++
		}
		for _, a := range p.Actions {
			if a.Kind == model.ActionPut && isE(a.Item) {
				n++
			}
		}
		if n > 0 {
			rate += float64(n) * p.EffectiveRate()
			ws = append(ws, fmt.Sprintf("pattern %d", p.ID))
		}
	}
	return rate, strings.Join(ws, ", ")
}

func (r *Report) pageBecause(p *model.Pattern, ki KeyInfo, es []*model.Entity, items, avg float64, pg Page) string {
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = e.Name
	}
	where := "the table"
	if p.Operation == model.OpQuery {
		where = "one " + ki.Shape
	} else if p.Index != "" {
		where = "index " + p.Index
	}
	s := fmt.Sprintf("%s holds about %s %s items (counts over key values) of %s bytes on average (the samples)",
		where, numfmt.Int(int64(math.Round(items))), strings.Join(names, "/"), numfmt.Group(fmt.Sprintf("%.0f", avg)))
	switch pg.CappedBy {
	case "Limit":
		s += fmt.Sprintf("; Limit %d ends the page", p.Limit)
	case "1 MB":
		s += "; 1 MB ends the page"
	}
	if pg.AllPages {
		s += fmt.Sprintf("; every page read (%s), each billed on its own", plural(int(min(pg.Pages, 1<<31)), "page", "pages"))
	}
	return s
}

// entitiesRead are the entities of the items a sample page read (found by their
// table key when an index entry lacks the type attribute).
func (r *Report) entitiesRead(d *model.Design, pg engine.Page) []*model.Entity {
	var out []*model.Entity
	seen := map[string]bool{}
	for _, v := range pg.Visits {
		e := r.keys.EntityOf(v.Item)
		if e == nil || seen[e.Name] {
			continue
		}
		seen[e.Name] = true
		out = append(out, e)
	}
	return out
}

// entryShare is the share of an entity's items that an index holds (1 for the
// table): a sparse index holds only the items with its keys.
func (r *Report) entryShare(e *model.Entity, index string) float64 {
	if index == "" {
		return 1
	}
	for _, es := range r.Storage.Entities {
		if es.Name == e.Name && es.Count > 0 {
			return float64(es.Indexes[index].Items) / float64(es.Count)
		}
	}
	return 0
}

// entryCount is how many of an entity's items (or index entries) the table (or an
// index) holds in production.
func (r *Report) entryCount(e *model.Entity, index string) int64 {
	for _, es := range r.Storage.Entities {
		if es.Name != e.Name {
			continue
		}
		if index == "" {
			return es.Count
		}
		return es.Indexes[index].Items
	}
	return 0
}

// entrySize is the average size of an entity's entry in the table or an index (as
// the storage report measured it from the samples, without the 100-byte storage
// overhead), and of its whole item.
func (r *Report) entrySize(e *model.Entity, index string) (entry, item float64) {
	for _, es := range r.Storage.Entities {
		if es.Name != e.Name {
			continue
		}
		item = es.AvgBytes
		if index == "" {
			return item, item
		}
		if l := es.Indexes[index]; l.Items > 0 {
			return math.Max(float64(l.Bytes)/float64(l.Items)-ItemOverhead, 0), item
		}
		return 0, item
	}
	return 0, 0
}

// samplesOf is how many sample items an entity has.
func (r *Report) samplesOf(e *model.Entity) int {
	for _, es := range r.Storage.Entities {
		if es.Name == e.Name {
			return es.Samples
		}
	}
	return 0
}

// SampleLabel names the figure of a run on the design's sample items, wherever a
// per-request figure is printed beside (or instead of) the production page's.
const SampleLabel = "on the sample items"

// ReadPerRequest says one request's read units both ways, each named, the same way
// in the workbench's preview, stwb query and the Markdown export: on the sample
// items, and on the page production would serve, which every per-second and
// monthly figure uses ("0.5 RCU on the sample items; 2.5 RCU on the production
// page (100 items, Limit 100 ends the page)"). format writes a figure.
func (pc *PatternCost) ReadPerRequest(format func(float64) string) string {
	s := format(pc.Sample.Read) + " RCU " + SampleLabel
	if pc.Requests > 0 {
		s = fmt.Sprintf("%s RCU %s (%d requests summed)", format(pc.Sample.Read), SampleLabel, pc.Requests)
	}
	pg := pc.Page
	if !pg.Known {
		if pg.Because != "" && (pc.Operation == model.OpQuery || pc.Operation == model.OpScan) {
			s += ", the production figures' too (the production page is unknown)"
		}
		return s
	}
	ends := ""
	switch pg.CappedBy {
	case "Limit":
		ends = ", Limit ends the page"
	case "1 MB":
		ends = ", 1 MB ends the page"
	}
	what := "the production page"
	if pg.AllPages {
		what = "every production page"
	}
	return fmt.Sprintf("%s; %s RCU on %s (%s items%s)", s, format(pc.PerRequest.Read), what, format(math.Round(pg.Items)), ends)
}
