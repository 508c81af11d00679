package rehearse

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"stwb/cost"
	"stwb/expr"
	"stwb/model"
)

// A drawer makes one pattern's requests as production would send them: the
// pattern's own request with its partition key value drawn from the production
// model (cost.KeySpace: how many values the key takes, the skew over them, a
// period's current value, a pattern's `partitions`), and the new items of a put
// built by its entity's templates with fresh values where each write creates an
// item. Rank 0, the hottest value, is the pattern's own value (so it reads the
// sample's items); rank r is that value with "~r" after each many-valued variable.
type drawer struct {
	p     *model.Pattern
	reqs  []model.Pattern // the pattern's requests (a fan-out's, one per value)
	pool  string          // "table" or the GSI the pattern's key lands on
	attr  string          // that pool's partition key attribute
	vars  []string        // the many-valued variables the draw changes
	ranks *rankSampler    // nil: the key value is the pattern's every time
	fresh bool            // each write names a new key value (a new parent item)
	// Assumed says, in words, how the pattern's key values are drawn.
	Assumed string

	tpls []string     // every entity key template, most literal text first
	seq  atomic.Int64 // fresh values

	// family are the design's items under the pattern's own key value: a key
	// value drawn for a read or an update is first given copies of them (seed), so
	// that the request finds items as production's would, and is billed for them.
	family []model.Item
	seeded sync.Map // rank -> *sync.Once
}

func newDrawer(d *model.Design, ks *cost.KeySpace, p *model.Pattern) *drawer {
	dr := &drawer{p: p, pool: "table", attr: d.Table.Key.Partition, tpls: templatesOf(d)}
	dr.reqs = p.FanoutRequests()
	if dr.reqs == nil {
		dr.reqs = []model.Pattern{*p}
	}
	if ix, ok := d.Table.IndexByName(p.Index); ok && !ix.Local && (p.Operation == model.OpQuery || p.Operation == model.OpScan) {
		dr.pool, dr.attr = ix.Name, d.Table.IndexPartition(&ix)
	}
	v, ok := keyValue(d, &dr.reqs[0], dr.pool, dr.attr)
	if ok && p.Operation != model.OpPutItem {
		for _, it := range d.Items {
			if iv, has := it[dr.attr]; has && iv.Type == v.Type && iv.Str == v.Str {
				dr.family = append(dr.family, it)
			}
		}
	}
	if !ok {
		dr.Assumed = "names no one partition key value: sent as written"
		return dr
	}
	ki := ks.Key(dr.attr, v, true)
	n := p.Partitions
	if m, ok := p.PartitionsOn[dr.pool]; ok {
		n = m
	}
	for _, vi := range ki.Vars {
		// The pattern's partitions spread it over every variable but a period (a
		// shard suffix the writer picks at random is few-valued in the samples);
		// otherwise only the many-valued ones vary, a few-valued one being the
		// request's own value (cost.KeySpace).
		if vi.Kind == cost.VarMany || vi.Kind == cost.VarUnknown || n > 0 && vi.Kind != cost.VarPeriod {
			dr.vars = append(dr.vars, vi.Name)
		}
	}
	sk := p.Skew
	if !sk.IsSet() {
		sk = d.Skew
	}
	switch {
	case len(dr.vars) == 0:
		dr.Assumed = "one key value every request (" + ki.Kind + ": " + ki.Because + ")"
	case n > 0:
		dr.ranks = newRankSampler(n, model.Skew{Zipf: new(float64)})
		dr.Assumed = fmt.Sprintf("even over %d key values (the pattern's partitions)", n)
	case ki.Kind == cost.KeyMany && ki.Values > 0:
		e := entityOf(d, &dr.reqs[0])
		if p.Operation == model.OpPutItem && dr.pool == "table" && e != nil && parentEntity(d, e) {
			dr.fresh = true
			dr.Assumed = "a new " + e.Name + " each write: a key value no item holds yet"
			break
		}
		dr.ranks = newRankSampler(ki.Values, sk)
		_, how := cost.HottestShare(ki.Values, sk)
		dr.Assumed = ki.Because + "; " + how
	default:
		dr.vars = nil
		dr.Assumed = "how many key values there are is unknown (" + ki.Because + "): the pattern's own every request"
	}
	return dr
}

// draw is one request of the pattern: its rank (0 the pattern's own key value)
// and the requests to send (a fan-out's, one per value).
type draw struct {
	rank int64
	sub  map[string]string
	reqs []model.Pattern
}

// next is one request of the pattern (a fan-out's requests, one per value), drawn.
func (dr *drawer) next(rng *rand.Rand) draw {
	var sub map[string]string
	var rank int64
	switch {
	case dr.fresh:
		sub = dr.suffixed("~n" + strconv.FormatInt(dr.seq.Add(1), 10))
	case dr.ranks != nil:
		if rank = dr.ranks.draw(rng); rank > 0 {
			sub = dr.suffixed("~" + strconv.FormatInt(rank, 10))
		}
	}
	newItem := ""
	if dr.p.Operation == model.OpPutItem || dr.p.Operation == model.OpBatchWriteItem || dr.p.Operation == model.OpTransactWriteItems {
		newItem = "~i" + strconv.FormatInt(dr.seq.Add(1), 10)
	}
	out := make([]model.Pattern, len(dr.reqs))
	for i, q := range dr.reqs {
		out[i] = dr.apply(q, sub, newItem)
	}
	return draw{rank: rank, sub: sub, reqs: out}
}

// seedItems are the copies of the pattern's family a drawn key value is given
// before its first request: the items with the draw's substitution; nil when the
// value needs none (the pattern's own, or a put's new one).
func (dr *drawer) seedItems(dw draw) []model.Item {
	if dw.rank <= 0 || len(dr.family) == 0 || dr.fresh {
		return nil
	}
	out := make([]model.Item, len(dr.family))
	for i, it := range dr.family {
		out[i] = dr.item(it, dw.sub, "")
	}
	return out
}

// once is the Once that seeds rank's key value a single time.
func (dr *drawer) once(rank int64) *sync.Once {
	o, _ := dr.seeded.LoadOrStore(rank, new(sync.Once))
	return o.(*sync.Once)
}

// suffixed is the substitution of each varying variable: its value with suffix
// (the pattern's value is read back out of its key by templates; here the suffix
// alone is kept and applied wherever the variable appears).
func (dr *drawer) suffixed(suffix string) map[string]string {
	m := make(map[string]string, len(dr.vars))
	for _, v := range dr.vars {
		m[v] = suffix
	}
	return m
}

// apply is request q with each varying variable's value suffixed wherever a key
// template holds it (keys, items, expression values), and, for a put, each
// variable of the new item's sort key that the partition key does not hold given
// newItem's suffix, so that each put writes an item of its own.
func (dr *drawer) apply(q model.Pattern, sub map[string]string, newItem string) model.Pattern {
	if len(sub) == 0 && newItem == "" {
		return q
	}
	q.Key = dr.item(q.Key, sub, "")
	q.Item = dr.item(q.Item, sub, newItem)
	q.Values = dr.values(q.Values, sub)
	if q.Keys != nil {
		keys := make([]model.Item, len(q.Keys))
		for i, k := range q.Keys {
			keys[i] = dr.item(k, sub, "")
		}
		q.Keys = keys
	}
	if q.Actions != nil {
		acts := slices.Clone(q.Actions)
		for i := range acts {
			ni := ""
			if acts[i].Kind == model.ActionPut {
				ni = newItem
			}
			acts[i].Key = dr.item(acts[i].Key, sub, "")
			acts[i].Item = dr.item(acts[i].Item, sub, ni)
			acts[i].Values = dr.values(acts[i].Values, sub)
		}
		q.Actions = acts
	}
	return q
}

func (dr *drawer) item(it model.Item, sub map[string]string, newItem string) model.Item {
	if it == nil {
		return nil
	}
	s := sub
	if newItem != "" {
		// The item's own variables (an order id in the sort key) take newItem, the
		// partition key's keep the draw.
		s = map[string]string{}
		for k, v := range sub {
			s[k] = v
		}
		for _, v := range dr.itemVars(it) {
			if _, drawn := s[v]; !drawn {
				s[v] = newItem
			}
		}
	}
	out := make(model.Item, len(it))
	for a, v := range it {
		out[a] = dr.value(a, v, s)
	}
	return out
}

// itemVars are the variables of an item's sort key templates whose values the
// samples do not read as dates (a period stays the current one).
func (dr *drawer) itemVars(it model.Item) []string {
	var out []string
	for _, tpl := range dr.tpls {
		for a, v := range it {
			if vars, ok := model.ExtractTemplate(tpl, v); ok && a != dr.attr {
				for name, val := range vars {
					if !cost.IsDateOrTime(val) && !slices.Contains(out, name) {
						out = append(out, name)
					}
				}
			}
		}
	}
	return out
}

func (dr *drawer) values(m map[string]model.Value, sub map[string]string) map[string]model.Value {
	if m == nil || len(sub) == 0 {
		return m
	}
	out := make(map[string]model.Value, len(m))
	for k, v := range m {
		out[k] = dr.value("", v, sub)
	}
	return out
}

// value is v with the substitution applied: an attribute named as a variable
// takes the suffix; a string a key template builds is built again from its
// variables, suffixed.
func (dr *drawer) value(attr string, v model.Value, sub map[string]string) model.Value {
	if v.Type != model.TypeS || len(sub) == 0 {
		return v
	}
	if suffix, ok := sub[attr]; ok {
		return model.Str(v.Str + suffix)
	}
	for _, tpl := range dr.tpls {
		vars, ok := model.ExtractTemplate(tpl, v)
		if !ok || len(vars) == 0 {
			continue
		}
		changed := false
		it := model.Item{}
		for name, val := range vars {
			if suffix, ok := sub[name]; ok {
				val += suffix
				changed = true
			}
			it[name] = model.Str(val)
		}
		if !changed {
			continue
		}
		if nv, ok := model.ExpandTemplate(tpl, it); ok {
			return nv
		}
	}
	return v
}

// templatesOf lists every entity key template with a variable, the most literal
// text first (CUST#{id}#{month} before CUST#{id}).
func templatesOf(d *model.Design) []string {
	var out []string
	for _, e := range d.Entities {
		for _, tpl := range e.Keys {
			if len(model.TemplateVars(tpl)) > 0 && !slices.Contains(out, tpl) {
				out = append(out, tpl)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return literal(b) - literal(a) })
	return out
}

func literal(tpl string) int {
	parts, _ := model.TemplateParts(tpl)
	n := 0
	for _, p := range parts {
		n += len(p.Literal)
	}
	return n
}

// keyValue is the partition key value of pool a request names: its key's, its
// item's, or its key condition's.
func keyValue(d *model.Design, q *model.Pattern, pool, attr string) (model.Value, bool) {
	switch q.Operation {
	case model.OpGetItem, model.OpUpdateItem, model.OpDeleteItem:
		v, ok := q.Key[attr]
		return v, ok
	case model.OpPutItem:
		v, ok := q.Item[attr]
		return v, ok
	case model.OpQuery:
		ks := d.Table.Key
		if ix, ok := d.Table.IndexByName(q.Index); ok {
			ks = ix.Key
			if ix.Local {
				ks.Partition, ks.MorePartition = d.Table.Key.Partition, nil
			}
		}
		if ks.Multi() {
			return model.Value{}, false
		}
		schema := expr.KeySchema{Partition: ks.Partition, Sort: ks.Sort, PartitionType: d.Table.KeyAttributeType(ks.Partition)}
		if ks.Sort != "" {
			schema.SortType = d.Table.KeyAttributeType(ks.Sort)
		}
		kc, err := expr.CompileKeyCondition(q.KeyCondition, expr.NewContext(q.Names, q.Values), schema)
		if err != nil || kc == nil {
			return model.Value{}, false
		}
		return kc.PartitionValue, true
	case model.OpBatchGetItem, model.OpTransactGetItems:
		if len(q.Keys) > 0 {
			v, ok := q.Keys[0][attr]
			return v, ok
		}
	case model.OpBatchWriteItem, model.OpTransactWriteItems:
		if len(q.Actions) > 0 {
			a := q.Actions[0]
			src := a.Key
			if a.Item != nil {
				src = a.Item
			}
			v, ok := src[attr]
			return v, ok
		}
	}
	return model.Value{}, false
}

// entityOf is the entity of the item a request writes or names.
func entityOf(d *model.Design, q *model.Pattern) *model.Entity {
	it := q.Item
	if it == nil {
		it = q.Key
	}
	if v, ok := it[d.TypeAttr()]; ok && v.Type == model.TypeS {
		return d.EntityByName(v.Str)
	}
	return nil
}

// parentEntity reports whether e holds one item per partition key value (no sort
// key, or a constant one): each new one names a key value no item holds yet.
func parentEntity(d *model.Design, e *model.Entity) bool {
	sk := d.Table.Key.Sort
	if sk == "" {
		return true
	}
	tpl, ok := e.Keys[sk]
	return ok && len(model.TemplateVars(tpl)) == 0
}
