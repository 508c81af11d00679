package cost

import (
	"encoding/json"

	"stwb/engine"
)

// The --json shape (issue 3): reads in RCU, where an eventually consistent 4 KB read
// is 0.5; writes in WCU; dollars unrounded. Field names are the contract; more may
// be added, none renamed.

type jsonUnits struct {
	Read  float64 `json:"read"`
	Write float64 `json:"write"`
}

type jsonPerRequest struct {
	Read       float64              `json:"read"`
	Write      float64              `json:"write"`
	Table      float64              `json:"table"`   // table units, read + write
	Indexes    map[string]float64   `json:"indexes"` // every index of the design, read + write
	TableUnits jsonUnits            `json:"tableUnits"`
	IndexUnits map[string]jsonUnits `json:"indexUnits"`
}

type jsonPerSecond struct {
	Read    float64              `json:"read"`
	Write   float64              `json:"write"`
	Table   jsonUnits            `json:"table"`
	Indexes map[string]jsonUnits `json:"indexes"`
}

type jsonMonthly struct {
	OnDemand    float64  `json:"onDemand"`
	Provisioned float64  `json:"provisioned"`
	AtTarget    *float64 `json:"provisionedAtTarget,omitempty"`
}

type jsonPool struct {
	Name      string  `json:"name"`
	Read      float64 `json:"read"`
	Write     float64 `json:"write"`
	RCU       int64   `json:"rcu"`
	WCU       int64   `json:"wcu"`
	TargetRCU int64   `json:"targetRcu,omitempty"`
	TargetWCU int64   `json:"targetWcu,omitempty"`
	// readTarget and writeTarget are the utilisations targetRcu and targetWcu are
	// sized at (the autoscaling targets); absent for a side sized at 100%.
	ReadTarget    float64 `json:"readTarget,omitempty"`
	WriteTarget   float64 `json:"writeTarget,omitempty"`
	ConfiguredRCU int64   `json:"configuredRcu,omitempty"`
	ConfiguredWCU int64   `json:"configuredWcu,omitempty"`
	// short: the configured capacity is below what the peak requires at its
	// autoscaling targets (or at 100%), as the under-provisioned rule says.
	BelowConfigured bool `json:"short,omitempty"`
}

// jsonHotKey is a key's hottest value (read, write) beside its mean, with what was
// assumed: partitions is how many key values (0: unknown), rule the kind of key,
// because and spread the assumptions in words.
type jsonHotKey struct {
	Read           float64 `json:"read"`
	Write          float64 `json:"write"`
	MeanRead       float64 `json:"meanRead"`
	MeanWrite      float64 `json:"meanWrite"`
	Partitions     int64   `json:"partitions"`
	Rule           string  `json:"rule"`
	Value          string  `json:"value,omitempty"`
	Because        string  `json:"because,omitempty"`
	Spread         string  `json:"spread,omitempty"`
	AtLeast        bool    `json:"atLeast,omitempty"`
	Unknown        bool    `json:"unknown,omitempty"`
	SplitForHeat   string  `json:"splitForHeat,omitempty"`
	ItemRead       float64 `json:"itemRead,omitempty"`
	ItemWrite      float64 `json:"itemWrite,omitempty"`
	SplitPartly    bool    `json:"splitPartly,omitempty"`
	Exceeds        bool    `json:"exceeds"`
	Shards         int64   `json:"shards"`
	ThrottlesTable bool    `json:"throttlesTable,omitempty"`
}

// jsonKeyLoad is one key's load summed over every pattern.
type jsonKeyLoad struct {
	On string `json:"on"`
	jsonHotKey
	TotalRead  float64 `json:"totalRead"`
	TotalWrite float64 `json:"totalWrite"`
	Patterns   []int   `json:"patterns"`
}

// jsonHot's top-level figures are the key the request addresses: the GSI a Query or
// Scan reads, else the table. Table and every GSI the pattern loads follow, and
// anyExceeds says whether any of them is over a partition's limits.
type jsonHot struct {
	jsonHotKey
	On         string                `json:"on"`
	AnyExceeds bool                  `json:"anyExceeds"`
	Table      jsonHotKey            `json:"table"`
	Indexes    map[string]jsonHotKey `json:"indexes,omitempty"`
}

// jsonPage is a Query or Scan request's page in production.
type jsonPage struct {
	Known    bool    `json:"known"`
	Items    float64 `json:"items"`
	Bytes    float64 `json:"bytes"`
	Read     float64 `json:"read"`
	More     bool    `json:"more"`
	CappedBy string  `json:"cappedBy,omitempty"`
	// Pages is how many pages the whole result takes; AllPages says the request is
	// priced as all of them (items, bytes and read are then the whole result's).
	Pages    float64 `json:"pages"`
	AllPages bool    `json:"allPages"`
	Because  string  `json:"because"`
}

type jsonError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

type jsonPattern struct {
	ID           int            `json:"id"`
	Name         string         `json:"name"`
	Operation    string         `json:"operation"`
	Index        string         `json:"index,omitempty"`
	Rate         float64        `json:"rate"`
	Consistent   bool           `json:"consistent"`
	Batch        bool           `json:"batch,omitempty"`
	PerRequest   jsonPerRequest `json:"perRequest"`
	PerSecond    jsonPerSecond  `json:"perSecond"`
	Monthly      jsonMonthly    `json:"monthly"`
	Capacity     []jsonPool     `json:"capacity"`
	HotPartition jsonHot        `json:"hotPartition"`
	// Sample is one request on the sample items; perRequest is on the page
	// production would serve (page), for a Query or Scan.
	Sample jsonUnits `json:"sample"`
	Page   *jsonPage `json:"page,omitempty"`
	// Requests is how many requests a fan-out pattern runs a call (perRequest and
	// sample are summed over them); absent for a pattern that is one request.
	Requests int        `json:"requests,omitempty"`
	Error    *jsonError `json:"error"`
}

type jsonLine struct {
	Items   int64   `json:"items"`
	Bytes   int64   `json:"bytes"`
	GB      float64 `json:"gb"`
	Monthly float64 `json:"monthly"`
}

type jsonEntity struct {
	Name    string `json:"name"`
	Count   int64  `json:"count"`
	Samples int    `json:"samples"`
	// countFromSamples: the design gives no count, so count is the samples' number.
	CountFromSamples bool                `json:"countFromSamples,omitempty"`
	AvgBytes         float64             `json:"avgBytes"`
	Bytes            int64               `json:"bytes"`
	Indexes          map[string]jsonLine `json:"indexes,omitempty"`
}

type jsonStorage struct {
	Table           jsonLine            `json:"table"`
	Indexes         map[string]jsonLine `json:"indexes"`
	Entities        []jsonEntity        `json:"entities"`
	Unsized         []string            `json:"unsized,omitempty"`
	Bytes           int64               `json:"bytes"`
	GB              float64             `json:"gb"`
	Monthly         float64             `json:"monthly"`
	FreeTierGB      float64             `json:"freeTierGB"`
	FreeTierMonthly float64             `json:"freeTierMonthly"`
}

type jsonTotals struct {
	OnDemand    float64  `json:"onDemand"`
	Provisioned float64  `json:"provisioned"`
	AtTarget    *float64 `json:"provisionedAtTarget,omitempty"`
	Configured  *float64 `json:"configured,omitempty"`
	Storage     float64  `json:"storage"`
}

type jsonPrices struct {
	ReadRequestUnitPerMillion  float64 `json:"readRequestUnitPerMillion"`
	WriteRequestUnitPerMillion float64 `json:"writeRequestUnitPerMillion"`
	RCUHour                    float64 `json:"rcuHour"`
	WCUHour                    float64 `json:"wcuHour"`
	StorageGBMonth             float64 `json:"storageGBMonth"`
	FreeStorageGB              float64 `json:"freeStorageGB"`
}

type jsonReport struct {
	Design     string        `json:"design"`
	Region     string        `json:"region"`
	Class      string        `json:"class"`
	Billing    string        `json:"billing"`
	Prices     jsonPrices    `json:"prices"`
	Patterns   []jsonPattern `json:"patterns"`
	Storage    jsonStorage   `json:"storage"`
	PerSecond  jsonPerSecond `json:"perSecond"`
	Capacity   []jsonPool    `json:"capacity"`
	PerRequest jsonUnits     `json:"perRequest"` // every pattern once
	Monthly    jsonTotals    `json:"monthly"`
	Keys       []jsonKeyLoad `json:"keys"`
}

// MarshalJSON writes the report in the --json shape.
func (r *Report) MarshalJSON() ([]byte, error) { return json.Marshal(r.jsonValue()) }

func (r *Report) jsonValue() jsonReport {
	j := jsonReport{Design: r.Design, Region: r.Region, Class: string(r.Class), Billing: string(r.Billing.Mode),
		Prices:     jsonPrices(r.Prices),
		Patterns:   make([]jsonPattern, len(r.Patterns)),
		Storage:    storageJSON(r.Storage),
		PerSecond:  perSecondJSON(r.Totals.PerSecond, r.indexNames()),
		Capacity:   poolsJSON(r.Totals.Pools),
		PerRequest: jsonUnits{r.Totals.PerRequestRead, r.Totals.PerRequestWrite},
		Monthly: jsonTotals{OnDemand: r.Totals.Monthly.OnDemand, Provisioned: r.Totals.Monthly.Provisioned,
			Storage: r.Totals.Storage},
	}
	if j.Billing == "" {
		j.Billing = "on-demand"
	}
	if r.anyTarget {
		v := r.Totals.Monthly.AtTarget
		j.Monthly.AtTarget = &v
	}
	if r.Billing.Mode == "provisioned" {
		v := r.Totals.Configured
		j.Monthly.Configured = &v
	}
	for i := range r.Patterns {
		j.Patterns[i] = r.patternJSON(&r.Patterns[i])
	}
	j.Keys = make([]jsonKeyLoad, len(r.Keys))
	for i, k := range r.Keys {
		j.Keys[i] = jsonKeyLoad{On: k.Pool, jsonHotKey: hotJSON(k.HotKey), TotalRead: k.TotalRead, TotalWrite: k.TotalWrite, Patterns: k.Patterns}
	}
	return j
}

func (r *Report) patternJSON(pc *PatternCost) jsonPattern {
	jp := jsonPattern{ID: pc.ID, Name: pc.Name, Operation: string(pc.Operation), Index: pc.IndexName,
		Rate: pc.Rate, Consistent: pc.Consistent, Batch: pc.Batch,
		PerRequest: jsonPerRequest{Read: pc.PerRequest.Read, Write: pc.PerRequest.Write,
			Table:      pc.PerRequest.Table.Read + pc.PerRequest.Table.Write,
			Indexes:    map[string]float64{},
			TableUnits: jsonUnits(pc.PerRequest.Table), IndexUnits: map[string]jsonUnits{}},
		PerSecond: perSecondJSON(pc.PerSecond, r.indexNames()),
		Monthly:   jsonMonthly{OnDemand: pc.Monthly.OnDemand, Provisioned: pc.Monthly.Provisioned},
		Capacity:  poolsJSON(pc.Pools),
		HotPartition: jsonHot{jsonHotKey: hotJSON(pc.Hot.Table), On: "table", AnyExceeds: pc.Hot.Exceeds(),
			Table: hotJSON(pc.Hot.Table)},
	}
	// Every index of the design is listed, 0 where the request did not touch it, so
	// a program can read indexes.GSI1 without checking for it.
	for _, name := range r.indexNames() {
		jp.PerRequest.Indexes[name] = 0
		jp.PerRequest.IndexUnits[name] = jsonUnits{}
	}
	for name, u := range pc.PerRequest.Indexes {
		jp.PerRequest.Indexes[name] = u.Read + u.Write
		jp.PerRequest.IndexUnits[name] = jsonUnits(u)
	}
	if r.anyTarget {
		v := pc.Monthly.AtTarget
		jp.Monthly.AtTarget = &v
	}
	if k, ok := pc.Hot.Indexes[pc.IndexName]; ok {
		jp.HotPartition.jsonHotKey, jp.HotPartition.On = hotJSON(k), pc.IndexName
	}
	if len(pc.Hot.Indexes) > 0 {
		jp.HotPartition.Indexes = map[string]jsonHotKey{}
		for name, k := range pc.Hot.Indexes {
			jp.HotPartition.Indexes[name] = hotJSON(k)
		}
	}
	jp.Sample = jsonUnits{pc.Sample.Read, pc.Sample.Write}
	jp.Requests = pc.Requests
	if pc.Page.Known || pc.Page.Because != "" {
		pg := pc.Page
		jp.Page = &jsonPage{Known: pg.Known, Items: pg.Items, Bytes: pg.Bytes, Read: pg.Units.Read, More: pg.More, CappedBy: pg.CappedBy,
			Pages: pg.Pages, AllPages: pg.AllPages, Because: pg.Because}
	}
	jp.Error = errorJSON(pc.Err)
	return jp
}

func (r *Report) indexNames() []string {
	ns := append([]string(nil), r.Storage.Order...)
	if len(ns) == 0 {
		ns = append(ns, r.gsis...)
		for n := range r.local {
			ns = append(ns, n)
		}
	}
	return ns
}

func errorJSON(e *engine.Error) *jsonError {
	if e == nil {
		return nil
	}
	return &jsonError{Type: e.Type, Message: e.Message}
}

func perSecondJSON(u Units, names []string) jsonPerSecond {
	j := jsonPerSecond{Read: u.Read, Write: u.Write, Table: jsonUnits(u.Table), Indexes: map[string]jsonUnits{}}
	for _, name := range names {
		j.Indexes[name] = jsonUnits{}
	}
	for name, v := range u.Indexes {
		j.Indexes[name] = jsonUnits(v)
	}
	return j
}

func poolsJSON(ps []Pool) []jsonPool {
	out := make([]jsonPool, len(ps))
	for i, p := range ps {
		out[i] = jsonPool{Name: p.Name, Read: p.Read, Write: p.Write, RCU: p.NeedRead, WCU: p.NeedWrite,
			TargetRCU: p.TargetRead, TargetWCU: p.TargetWrite, ReadTarget: p.ReadTarget, WriteTarget: p.WriteTarget,
			ConfiguredRCU: p.ConfiguredRead, ConfiguredWCU: p.ConfiguredWrite, BelowConfigured: p.Short()}
	}
	return out
}

func hotJSON(k HotKey) jsonHotKey {
	return jsonHotKey{Read: k.Read, Write: k.Write, MeanRead: k.MeanRead, MeanWrite: k.MeanWrite,
		Partitions: k.Partitions, Rule: k.Rule, Value: k.Value, Because: k.Because, Spread: k.Spread,
		AtLeast: k.AtLeast, Unknown: k.Unknown, SplitForHeat: k.SplitForHeat, ItemRead: k.ItemRead, ItemWrite: k.ItemWrite, SplitPartly: k.SplitPartly,
		Exceeds: k.Exceeds, Shards: k.Shards, ThrottlesTable: k.ThrottlesTable}
}

func lineJSON(l StorageLine) jsonLine {
	return jsonLine{Items: l.Items, Bytes: l.Bytes, GB: l.GB, Monthly: l.Monthly}
}

func storageJSON(s Storage) jsonStorage {
	j := jsonStorage{Table: lineJSON(s.Table), Indexes: map[string]jsonLine{}, Entities: []jsonEntity{},
		Unsized: s.Unsized, Bytes: s.Bytes, GB: s.GB, Monthly: s.Monthly,
		FreeTierGB: s.FreeGB, FreeTierMonthly: s.FreeMonthly}
	for name, l := range s.Indexes {
		j.Indexes[name] = lineJSON(l)
	}
	for _, e := range s.Entities {
		je := jsonEntity{Name: e.Name, Count: e.Count, Samples: e.Samples, CountFromSamples: e.FromSamples, AvgBytes: e.AvgBytes, Bytes: e.Bytes}
		if len(e.Indexes) > 0 {
			je.Indexes = map[string]jsonLine{}
			for name, l := range e.Indexes {
				je.Indexes[name] = lineJSON(l)
			}
		}
		j.Entities = append(j.Entities, je)
	}
	return j
}

type jsonRatio struct {
	A float64  `json:"a"`
	B float64  `json:"b"`
	X *float64 `json:"ratio"` // null when B is 0 and A is not
}

func ratioJSON(r Ratio) jsonRatio {
	j := jsonRatio{A: r.A, B: r.B}
	if r.Defined {
		x := r.X
		j.X = &x
	}
	return j
}

type jsonCompareRow struct {
	ID       int       `json:"id"`
	Name     string    `json:"name"`
	InA      bool      `json:"inA"`
	InB      bool      `json:"inB"`
	Read     jsonRatio `json:"read"`
	Write    jsonRatio `json:"write"`
	OnDemand jsonRatio `json:"onDemand"`
}

type jsonComparison struct {
	A      jsonReport       `json:"a"`
	B      jsonReport       `json:"b"`
	Rows   []jsonCompareRow `json:"patterns"`
	Totals struct {
		PerRequestRead jsonRatio `json:"perRequestRead"`
		PerSecondRead  jsonRatio `json:"perSecondRead"`
		PerSecondWrite jsonRatio `json:"perSecondWrite"`
		OnDemand       jsonRatio `json:"onDemand"`
		Provisioned    jsonRatio `json:"provisioned"`
		Storage        jsonRatio `json:"storage"`
	} `json:"totals"`
}

// MarshalJSON writes both reports and, per pattern id, A against B.
func (c *Comparison) MarshalJSON() ([]byte, error) {
	j := jsonComparison{A: c.A.jsonValue(), B: c.B.jsonValue(), Rows: make([]jsonCompareRow, len(c.Rows))}
	for i, r := range c.Rows {
		j.Rows[i] = jsonCompareRow{ID: r.ID, Name: r.Name, InA: r.A != nil, InB: r.B != nil,
			Read: ratioJSON(r.Read), Write: ratioJSON(r.Write), OnDemand: ratioJSON(r.OnDemand)}
	}
	j.Totals.PerRequestRead = ratioJSON(c.PerRequestRead)
	j.Totals.PerSecondRead = ratioJSON(c.PerSecondRead)
	j.Totals.PerSecondWrite = ratioJSON(c.PerSecondWrite)
	j.Totals.OnDemand = ratioJSON(c.OnDemand)
	j.Totals.Provisioned = ratioJSON(c.Provisioned)
	j.Totals.Storage = ratioJSON(c.Storage)
	return json.Marshal(j)
}
