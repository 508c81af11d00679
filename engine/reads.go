package engine

import (
	"strings"

	"stwb/expr"
	"stwb/model"
)

// Select values (API_Query.html "Select").
const (
	SelectAllAttributes          = "ALL_ATTRIBUTES"
	SelectAllProjectedAttributes = "ALL_PROJECTED_ATTRIBUTES"
	SelectSpecificAttributes     = "SPECIFIC_ATTRIBUTES"
	SelectCount                  = "COUNT"
)

// Request limits (ServiceQuotas.html, API_BatchGetItem.html, API_TransactGetItems.html,
// API_TransactWriteItems.html: "The aggregate size of the items in the transaction
// cannot exceed 4 MB").
const (
	maxBatchGet         = 100
	maxBatchWrite       = 25
	maxTransaction      = 100
	maxTransactionBytes = 4 << 20
)

// GetItemInput is a GetItem request (API_GetItem.html).
type GetItemInput struct {
	Key                      model.Item
	ProjectionExpression     string
	ExpressionAttributeNames map[string]string
	ConsistentRead           bool
	Given                    Given // GivenProjection: ProjectionExpression present, even ""
}

// GetItemOutput is a GetItem response: Item is nil when there is no item with the key.
type GetItemOutput struct {
	Item     model.Item
	Consumed Capacity
	// Encoded is the stored item's Encoded when Item is it as stored (no
	// projection); nil otherwise.
	Encoded *Encoded
}

// GetItem reads one item by its primary key. A missing item still consumes one read
// (read-write-operations.html "GetItem").
func (e *Engine) GetItem(in GetItemInput) (*GetItemOutput, error) {
	out, err := e.getItem(in)
	return out, asError(err)
}

func (e *Engine) getItem(in GetItemInput) (*GetItemOutput, *Error) {
	proj, err := keyReadProjection(in.ProjectionExpression, in.Given, in.ExpressionAttributeNames)
	if err != nil {
		return nil, err
	}
	key, err := e.checkKey(in.Key)
	if err != nil {
		return nil, err
	}
	out := &GetItemOutput{}
	size := 0
	if en, ok := e.tree.Get(e.probe(key)); ok {
		size = int(en.size)
		out.Item = applyProjection(proj, e.itemOf(en))
		if proj == nil {
			out.Encoded = en.encodedOf()
		}
	}
	out.Consumed.Table.Read = getUnits(size, size > 0, in.ConsistentRead)
	return out, nil
}

func compileProjection(src string, given Given, ctx *expr.Context) (*expr.Projection, *Error) {
	if !given.has(GivenProjection, src != "") {
		return nil, nil
	}
	p, err := expr.CompileProjection(src, ctx)
	return p, fromExpr(err)
}

// keyReadProjection compiles a key read's ProjectionExpression (GetItem,
// BatchGetItem, TransactGetItems): its only expression, so its names must all be
// used by it and it takes no values.
func keyReadProjection(src string, given Given, names map[string]string) (*expr.Projection, *Error) {
	if err := checkExpressionParams(names, nil, exprParam{"ProjectionExpression", given.has(GivenProjection, src != ""), false}); err != nil {
		return nil, err
	}
	ctx, err := newContext(names, nil)
	if err != nil {
		return nil, err
	}
	proj, err := compileProjection(src, given, ctx)
	if err != nil {
		return nil, err
	}
	if err := fromExpr(ctx.CheckUnused()); err != nil {
		return nil, err
	}
	return proj, nil
}

func applyProjection(p *expr.Projection, item model.Item) model.Item {
	if p == nil || item == nil {
		return item
	}
	return p.Apply(item)
}

// BatchGetItemInput is a BatchGetItem request for the one table (API_BatchGetItem.html).
type BatchGetItemInput struct {
	Keys                     []model.Item
	ProjectionExpression     string
	ExpressionAttributeNames map[string]string
	ConsistentRead           bool
	Given                    Given // GivenProjection
}

// BatchGetItemOutput holds the items found, in the order of their keys in the
// request (DynamoDB returns them in no particular order; request order keeps output
// stable), and the capacity: each item's read rounded on its own.
type BatchGetItemOutput struct {
	Responses []model.Item
	Consumed  Capacity
}

// BatchGetItem reads up to 100 items by key.
func (e *Engine) BatchGetItem(in BatchGetItemInput) (*BatchGetItemOutput, error) {
	out, err := e.batchGetItem(in)
	return out, asError(err)
}

func (e *Engine) batchGetItem(in BatchGetItemInput) (*BatchGetItemOutput, *Error) {
	if err := checkBatchGetLength(map[string]int{e.table.Name: len(in.Keys)}); err != nil {
		return nil, err
	}
	proj, err := keyReadProjection(in.ProjectionExpression, in.Given, in.ExpressionAttributeNames)
	if err != nil {
		return nil, err
	}
	probes, err := e.distinctKeys(in.Keys, msgDuplicateKeys)
	if err != nil {
		return nil, err
	}
	out := &BatchGetItemOutput{}
	for _, p := range probes {
		size := 0
		if en, ok := e.tree.Get(p); ok {
			size = int(en.size)
			out.Responses = append(out.Responses, applyProjection(proj, e.itemOf(en)))
		}
		out.Consumed.Table.Read += getUnits(size, size > 0, in.ConsistentRead)
	}
	return out, nil
}

// distinctKeys checks each key and that no key appears twice; msg is the error a
// duplicate gives (it differs between batches and transactions).
func (e *Engine) distinctKeys(keys []model.Item, msg string) ([]*entry, *Error) {
	probes := make([]*entry, len(keys))
	seen := make(map[[2]string]bool, len(keys))
	for i, k := range keys {
		key, err := e.checkKey(k)
		if err != nil {
			return nil, err
		}
		p := e.probe(key)
		if seen[[2]string{p.pk, p.sk}] {
			return nil, validation("%s", msg)
		}
		seen[[2]string{p.pk, p.sk}] = true
		probes[i] = p
	}
	return probes, nil
}

// TransactGet is one Get of a TransactGetItems request.
type TransactGet struct {
	Key                      model.Item
	ProjectionExpression     string
	ExpressionAttributeNames map[string]string
	Given                    Given // GivenProjection
}

// TransactGetItemsOutput holds one response per Get, in request order: nil where
// there is no item. Each item costs two consistent reads (transaction-apis.html).
type TransactGetItemsOutput struct {
	Responses []model.Item
	Consumed  Capacity
}

// TransactGetItems reads up to 100 items atomically.
func (e *Engine) TransactGetItems(gets []TransactGet) (*TransactGetItemsOutput, error) {
	out, err := e.transactGetItems(gets)
	return out, asError(err)
}

func (e *Engine) transactGetItems(gets []TransactGet) (*TransactGetItemsOutput, *Error) {
	if err := checkTransactionLength(len(gets)); err != nil {
		return nil, err
	}
	keys := make([]model.Item, len(gets))
	projs := make([]*expr.Projection, len(gets))
	for i, g := range gets {
		p, err := keyReadProjection(g.ProjectionExpression, g.Given, g.ExpressionAttributeNames)
		if err != nil {
			return nil, err
		}
		projs[i] = p
		keys[i] = g.Key
	}
	// A key that does not match the schema cancels the transaction, with the reason
	// on its action, rather than failing the request (the conformance measurement of
	// issue 17: TransactionCanceledException, reason ValidationError).
	reasons := make([]CancellationReason, len(keys))
	bad := false
	for i, k := range keys {
		reasons[i] = CancellationReason{Code: "None"}
		if _, err := e.checkKey(k); err != nil {
			reasons[i] = CancellationReason{Code: "ValidationError", Message: err.Message}
			bad = true
		}
	}
	if bad {
		return nil, cancelled(reasons)
	}
	probes, err := e.distinctKeys(keys, msgTransactSameItem)
	if err != nil {
		return nil, err
	}
	out := &TransactGetItemsOutput{Responses: make([]model.Item, len(gets))}
	for i, p := range probes {
		size := 0
		if en, ok := e.tree.Get(p); ok {
			size = int(en.size)
			out.Responses[i] = applyProjection(projs[i], e.itemOf(en))
		}
		out.Consumed.Table.Read += transactReadUnits(size)
	}
	return out, nil
}

// QueryInput is a Query request (API_Query.html).
type QueryInput struct {
	IndexName                 string
	KeyConditionExpression    string
	FilterExpression          string
	ProjectionExpression      string
	ExpressionAttributeNames  map[string]string
	ExpressionAttributeValues map[string]model.Value
	ExclusiveStartKey         model.Item
	Limit                     int   // 0: no limit, unless Given has GivenLimit
	ScanIndexForward          *bool // nil: true
	ConsistentRead            bool
	Select                    string // "" picks DynamoDB's default
	// Visits asks for Page.Visits (every item read, kept or not), which the
	// workbench shows dimmed; off, a read does not pay for building them.
	Visits bool
	// Encoded asks for Page.Encoded.
	Encoded bool
	Given   Given // GivenLimit, GivenFilter, GivenProjection
	// keyFilter lets the filter name the key: a PartiQL SELECT's WHERE may hold a
	// second condition on the sort key, which DynamoDB filters (statement.go).
	keyFilter bool
}

// ScanInput is a Scan request (API_Scan.html). Segment and TotalSegments 0 mean no
// parallel scan, unless Given marks them present.
type ScanInput struct {
	IndexName                 string
	FilterExpression          string
	ProjectionExpression      string
	ExpressionAttributeNames  map[string]string
	ExpressionAttributeValues map[string]model.Value
	ExclusiveStartKey         model.Item
	Limit                     int
	ConsistentRead            bool
	Select                    string
	Segment                   int
	TotalSegments             int
	Visits                    bool  // fill Page.Visits, as QueryInput.Visits
	Encoded                   bool  // fill Page.Encoded, as QueryInput.Encoded
	Given                     Given // GivenLimit, GivenSegment, GivenTotalSegments, GivenFilter, GivenProjection
}

// readPlan is what a Query or Scan request resolved to before it reads.
type readPlan struct {
	tree       *index // nil: the table
	key        keySchema
	filter     *expr.Condition
	proj       *expr.Projection
	count      bool // Select=COUNT
	fetch      bool // an LSI read that fetches the table item (unprojected attributes)
	consistent bool
	limit      int
	startAfter *entry // ExclusiveStartKey's position; nil for the first page
	forward    bool
	visits     bool // record Page.Visits
	encoded    bool // fill Page.Encoded
}

// target resolves IndexName and the rules on it: a missing index, ConsistentRead on
// a GSI (GSI.html "Reading data from a global secondary index").
func (e *Engine) target(name string, consistent bool) (*index, keySchema, *Error) {
	if name == "" {
		return nil, e.key, nil
	}
	ix := e.indexByName(name)
	if ix == nil {
		return nil, keySchema{}, validation("The table does not have the specified index: %s", name)
	}
	if !ix.local && consistent {
		return nil, keySchema{}, validation(msgGSIConsistent)
	}
	return ix, ix.key, nil
}

// plan compiles a read's filter and projection and checks Select against the index's
// projection (API_Query.html "Select"; GSI.html and LSI.html "Attribute projections").
func (e *Engine) plan(ix *index, ctx *expr.Context, filter, projection, sel string, given Given) (*readPlan, *Error) {
	p := &readPlan{tree: ix}
	if given.has(GivenFilter, filter != "") {
		c, err := expr.CompileFilter(filter, ctx)
		if err != nil {
			return nil, fromExpr(err)
		}
		p.filter = c
	}
	var err *Error
	if p.proj, err = compileProjection(projection, given, ctx); err != nil {
		return nil, err
	}
	switch sel {
	case "":
	case SelectCount:
		if projection != "" {
			return nil, validation("Cannot specify the ProjectionExpression when choosing to get only the Count")
		}
		p.count = true
	case SelectSpecificAttributes:
		if projection == "" {
			return nil, validation("One or more parameter values were invalid: SPECIFIC_ATTRIBUTES requires a ProjectionExpression")
		}
	case SelectAllAttributes, SelectAllProjectedAttributes:
		if projection != "" {
			return nil, validation("One or more parameter values were invalid: Cannot specify the ProjectionExpression when choosing to get %s", sel)
		}
		if sel == SelectAllProjectedAttributes && ix == nil {
			return nil, validation("One or more parameter values were invalid: Select type ALL_PROJECTED_ATTRIBUTES is not supported when not querying an index")
		}
	default:
		return nil, validation("1 validation error detected: Value '%s' at 'select' failed to satisfy constraint: Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]", sel)
	}
	if ix == nil || ix.all {
		return p, nil
	}
	var missing []string
	if sel == SelectAllAttributes {
		missing = []string{"*"}
	} else if p.proj != nil {
		for _, a := range p.proj.Attributes() {
			if !ix.projects(a) {
				missing = append(missing, a)
			}
		}
	}
	if len(missing) > 0 {
		if !ix.local {
			if sel == SelectAllAttributes {
				return nil, validation("One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index %s because its projection type is not ALL", ix.def.Name)
			}
			return nil, validation("One or more parameter values were invalid: Global secondary index %s does not project the attributes [%s]; project them into the index or read them from the table", ix.def.Name, strings.Join(missing, ", "))
		}
		// An LSI fetches what it does not hold from the table, item by item
		// (LSI.html "Projected attributes").
		p.fetch = true
	}
	return p, nil
}

// Query reads one partition of the table or of an index, in sort key order, one
// page (API_Query.html).
func (e *Engine) Query(in QueryInput) (*Page, error) {
	out, err := e.query(in)
	return out, asError(err)
}

func (e *Engine) query(in QueryInput) (*Page, *Error) {
	if err := checkLimit("Query", in.Limit, in.Given); err != nil {
		return nil, err
	}
	ix, ks, err := e.target(in.IndexName, in.ConsistentRead)
	if err != nil {
		return nil, err
	}
	if err := checkExpressionParams(in.ExpressionAttributeNames, in.ExpressionAttributeValues,
		exprParam{"ProjectionExpression", in.Given.has(GivenProjection, in.ProjectionExpression != ""), false},
		exprParam{"FilterExpression", in.Given.has(GivenFilter, in.FilterExpression != ""), true},
		exprParam{"KeyConditionExpression", true, true}); err != nil {
		return nil, err
	}
	ctx, err0 := newContext(in.ExpressionAttributeNames, in.ExpressionAttributeValues)
	if err0 != nil {
		return nil, err0
	}
	kc, xerr := expr.CompileKeyCondition(in.KeyConditionExpression, ctx, ks.exprSchema())
	if xerr != nil {
		return nil, fromExpr(xerr)
	}
	p, err := e.plan(ix, ctx, in.FilterExpression, in.ProjectionExpression, in.Select, in.Given)
	if err != nil {
		return nil, err
	}
	if p.filter != nil && !in.keyFilter {
		// A Query's filter may not name the key it queries by (API_Query.html
		// "FilterExpression"; dynalite actions/query.js).
		for _, a := range p.filter.Attributes() {
			if ks.has(a) {
				return nil, validation("Filter Expression can only contain non-primary key attributes: Primary key attribute: %s", a)
			}
		}
	}
	if err := fromExpr(ctx.CheckUnused()); err != nil {
		return nil, err
	}
	r, err := keyRangeOf(kc, ks)
	if err != nil {
		return nil, err
	}
	p.key, p.limit, p.consistent, p.visits, p.encoded = ks, in.Limit, in.ConsistentRead, in.Visits, in.Encoded
	p.forward = in.ScanIndexForward == nil || *in.ScanIndexForward
	if in.ExclusiveStartKey != nil {
		if p.startAfter, err = e.startKey(ix, in.ExclusiveStartKey); err != nil {
			return nil, err
		}
		if p.startAfter.pk != r.pk {
			return nil, validation("The provided starting key is outside query boundaries based on provided conditions")
		}
		if r.position(p.startAfter.sk) != 0 {
			return nil, validation("The provided starting key does not match the range key predicate")
		}
	}
	return e.read(p, func(visit func(*entry) bool) { r.walk(e.treeOf(ix), p.startAfter, p.forward, visit) }), nil
}

// Scan reads the whole table or index (or one segment of it) in scan order, one page
// (API_Scan.html).
func (e *Engine) Scan(in ScanInput) (*Page, error) {
	out, err := e.scan(in)
	return out, asError(err)
}

func (e *Engine) scan(in ScanInput) (*Page, *Error) {
	if err := checkLimit("Scan", in.Limit, in.Given); err != nil {
		return nil, err
	}
	lo, hi, err := segmentRange(in.Segment, in.TotalSegments, in.Given)
	if err != nil {
		return nil, err
	}
	ix, _, err := e.target(in.IndexName, in.ConsistentRead)
	if err != nil {
		return nil, err
	}
	if err := checkExpressionParams(in.ExpressionAttributeNames, in.ExpressionAttributeValues,
		exprParam{"ProjectionExpression", in.Given.has(GivenProjection, in.ProjectionExpression != ""), false},
		exprParam{"FilterExpression", in.Given.has(GivenFilter, in.FilterExpression != ""), true}); err != nil {
		return nil, err
	}
	ctx, err0 := newContext(in.ExpressionAttributeNames, in.ExpressionAttributeValues)
	if err0 != nil {
		return nil, err0
	}
	p, err := e.plan(ix, ctx, in.FilterExpression, in.ProjectionExpression, in.Select, in.Given)
	if err != nil {
		return nil, err
	}
	if err := fromExpr(ctx.CheckUnused()); err != nil {
		return nil, err
	}
	p.limit, p.consistent, p.forward, p.visits, p.encoded = in.Limit, in.ConsistentRead, true, in.Visits, in.Encoded
	if in.ExclusiveStartKey != nil {
		if p.startAfter, err = e.startKey(ix, in.ExclusiveStartKey); err != nil {
			return nil, err
		}
	}
	tree := e.treeOf(ix)
	return e.read(p, func(visit func(*entry) bool) {
		from := &entry{hash: lo}
		skip := p.startAfter
		if skip != nil {
			from = skip
		}
		tree.AscendGreaterOrEqual(from, func(en *entry) bool {
			if en.hash >= hi {
				return false
			}
			if skip != nil && !lessEntry(skip, en) {
				return true
			}
			return visit(en)
		})
	}), nil
}

// hashSpace is the number of scan hash values (scanHash is 24 bits).
const hashSpace = 1 << 24

// checkLimit refuses a Limit below 1 when it is present (API_Query.html and
// API_Scan.html "Limit": minimum 1), in the words real DynamoDB answered in
// us-east-1 (the conformance suite's captures, tests/tier3/error-messages
// query.test.ts and scan.test.ts, checked against DynamoDB): Query's check has
// moved to DynamoDB's new validation framework, which names the member as the API
// does and echoes no value ("Value at 'Limit'"); Scan's still answers in the old
// words ("Value '0' at 'limit'", as boto reported for both in
// github.com/boto/boto pull 1584 and dynalite gives).
func checkLimit(op string, limit int, given Given) *Error {
	if !given.has(GivenLimit, limit != 0) || limit >= 1 {
		return nil
	}
	if op == "Query" {
		return validation("1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1")
	}
	return validation("1 validation error detected: Value '%d' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1", limit)
}

// segmentRange is the hash range [lo, hi) a parallel scan segment reads
// (Scan.html "Parallel scan": segments split the table's partitions). Segment and
// TotalSegments come together or not at all (API_Scan.html "Segment": "If you
// provide Segment, you must also provide TotalSegments"); the messages are
// DynamoDB's as dynalite copies them (validations/scan.js).
func segmentRange(seg, total int, given Given) (uint32, uint32, *Error) {
	hasTotal := given.has(GivenTotalSegments, total != 0)
	hasSeg := given.has(GivenSegment, seg != 0)
	if given&(GivenSegment|GivenTotalSegments) == 0 && hasTotal {
		hasSeg = true // a request built in code: Segment 0 of TotalSegments is the first segment
	}
	switch {
	case hasSeg && !hasTotal:
		return 0, 0, validation("The TotalSegments parameter is required but was not present in the request when Segment parameter is present")
	case hasTotal && !hasSeg:
		return 0, 0, validation("The Segment parameter is required but was not present in the request when parameter TotalSegments is present")
	case !hasTotal:
		return 0, hashSpace, nil
	}
	if total < 1 {
		return 0, 0, validation("1 validation error detected: Value '%d' at 'totalSegments' failed to satisfy constraint: Member must have value greater than or equal to 1", total)
	}
	if total > 1000000 {
		return 0, 0, validation("1 validation error detected: Value '%d' at 'totalSegments' failed to satisfy constraint: Member must have value less than or equal to 1000000", total)
	}
	if seg < 0 {
		return 0, 0, validation("1 validation error detected: Value '%d' at 'segment' failed to satisfy constraint: Member must have value greater than or equal to 0", seg)
	}
	if seg >= total {
		return 0, 0, validation("The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: %d is not less than TotalSegments: %d", seg, total)
	}
	lo := uint64(seg) * hashSpace / uint64(total)
	hi := uint64(seg+1) * hashSpace / uint64(total)
	return uint32(lo), uint32(hi), nil
}

func (e *Engine) treeOf(ix *index) *entryTree {
	if ix == nil {
		return e.tree
	}
	return ix.tree
}

// read runs one page: it visits entries in order until Limit entries have been read
// or 1 MB has been read (the entry that crosses 1 MB is included), then applies the
// filter; LastEvaluatedKey is the last entry read whenever the page stopped on Limit
// or size (Query.html "Paginating table query results"; dynalite db/index.js
// queryTable does the same, even when no item follows).
func (e *Engine) read(p *readPlan, walk func(visit func(*entry) bool)) *Page {
	r := &pageRead{e: e, p: p}
	pg := &r.pg
	// Start the result with room for a typical partition, or for Limit items, so a
	// 100-item page grows its slice a few times rather than eight.
	if !p.count {
		c := 16
		if p.limit > 0 {
			c = min(p.limit, 256)
		}
		pg.Items = make([]model.Item, 0, c)
		if p.encoded {
			pg.Encoded = make([]*Encoded, 0, c)
		}
	}
	walk(r.visit)
	if r.last != nil && r.full() {
		pg.LastEvaluatedKey = e.lastKey(p.tree, r.last)
	}
	units := pageUnits(r.bytes, p.consistent)
	if p.tree == nil {
		pg.Consumed.Table.Read = units
	} else {
		pg.Consumed.Indexes = map[string]Units{p.tree.def.Name: {Read: units}}
		pg.Consumed.Table.Read = r.fetchUnits
	}
	return pg
}

// pageRead is one page being read: the page and the sums its walk keeps, in one
// allocation. As the variables of read's closure they were five allocations on
// every Query and Scan, and serve's CPU per request is mostly what it allocates
// (issue 24).
type pageRead struct {
	e  *Engine
	p  *readPlan
	pg Page
	// bytes is what the page read (the entries, for its units); paged is what counts
	// toward the 1 MB page, where an LSI read that fetches from the table counts each
	// fetched item as a whole 4 KB read unit's worth (LSI.html, "Read capacity units":
	// a page of 3 KB fetched items ends after about 256 of them).
	bytes, paged int
	fetchUnits   float64
	last         model.Item // the last item read, whole
}

// full reports whether the page has read Limit entries or 1 MB.
func (r *pageRead) full() bool {
	return (r.p.limit > 0 && r.pg.ScannedCount >= r.p.limit) || r.paged >= pageBytes
}

// visit reads one entry into the page, or reports false when the page is full.
func (r *pageRead) visit(en *entry) bool {
	p, pg := r.p, &r.pg
	if r.full() {
		return false
	}
	pg.ScannedCount++
	r.bytes += int(en.size)
	item := r.e.itemOf(en)
	r.last = item
	if p.fetch {
		r.paged += ceilDiv(model.ItemSize(item), readUnitBytes) * readUnitBytes
	} else {
		r.paged += int(en.size)
	}
	// asStored: the item handed out is the stored one, whose Encoded it has.
	asStored := p.proj == nil
	if p.tree != nil {
		if p.fetch {
			r.fetchUnits += lsiFetchUnits(model.ItemSize(item), p.consistent)
		} else {
			item = p.tree.view(item)
			asStored = asStored && p.tree.all
		}
	}
	kept := p.filter == nil || p.filter.Eval(item)
	if p.visits {
		pg.Visits = append(pg.Visits, Visit{Item: item, Kept: kept})
	}
	if kept {
		pg.Count++
		if !p.count {
			pg.Items = append(pg.Items, applyProjection(p.proj, item))
			if p.encoded {
				var enc *Encoded
				if asStored {
					enc = en.encodedOf()
				}
				pg.Encoded = append(pg.Encoded, enc)
			}
		}
	}
	return true
}

// lastKey is a LastEvaluatedKey: the table key, plus the index key for an index read
// (API_Query.html "LastEvaluatedKey").
func (e *Engine) lastKey(ix *index, item model.Item) model.Item {
	k := e.keyOf(item)
	if ix != nil {
		for _, a := range ix.key.attrs() {
			k[a.Name] = item[a.Name]
		}
	}
	return k
}

// startKey checks an ExclusiveStartKey (the table key, plus the index key when
// reading an index) and returns its position in the tree read.
func (e *Engine) startKey(ix *index, k model.Item) (*entry, *Error) {
	bad := func(why string) *Error {
		if why == "" {
			return validation(msgBadStartKey)
		}
		return validation("%s: %s", msgBadStartKey, why)
	}
	want := map[string]bool{}
	for _, n := range e.key.names() {
		want[n] = true
	}
	if ix != nil {
		for _, n := range ix.key.names() {
			want[n] = true
		}
	}
	if len(k) != len(want) {
		return nil, bad(msgKeySchema)
	}
	for n := range k {
		if !want[n] {
			return nil, bad(msgKeySchema)
		}
	}
	tk := model.Item{}
	for _, n := range e.key.names() {
		tk[n] = k[n]
	}
	tk, err := e.checkKey(tk)
	if err != nil {
		return nil, bad(err.Message)
	}
	pos := e.probe(tk)
	if ix == nil {
		return pos, nil
	}
	ik, err := checkKeyOf(ix.key, pick(k, ix.key.names()))
	if err != nil {
		return nil, bad(err.Message)
	}
	ipos := &entry{base: pos}
	if ix.key.multi() {
		ipos.hash, ipos.pk, ipos.sk, _ = ix.key.encodeMulti(ik, nil)
		return ipos, nil
	}
	pv := ik[ix.key.Partition.Name]
	ipos.hash = scanHash(pv)
	ipos.pk, _ = encodeKey(pv)
	if ix.key.hasSort() {
		ipos.sk, _ = encodeKey(ik[ix.key.Sort.Name])
	}
	return ipos, nil
}

func pick(it model.Item, names []string) model.Item {
	out := make(model.Item, len(names))
	for _, n := range names {
		if v, ok := it[n]; ok {
			out[n] = v
		}
	}
	return out
}
