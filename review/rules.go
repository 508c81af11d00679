package review

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"stwb/cost"
	"stwb/engine"
	"stwb/expr"
	"stwb/internal/numfmt"
	"stwb/model"
)

// rules is every rule, in the order they run. The checks of patterns, indexes and
// writes are in this file; those of key names, key values and items in keys.go;
// those of partitions, collections and pages in load.go.
var rules = []Rule{
	{"no-patterns", Error, "a design with no access patterns",
		source(seedSkill, "Write the access patterns down first"), checkNoPatterns},
	{"scan-in-request-path", Error, "a Scan pattern that is not marked as a batch job",
		source(seedSkill, "Query, never Scan, and never select with a filter"), checkScanInRequestPath},
	{"partiql-full-scan", Error, "a PartiQL SELECT without an equality on a partition key: a full-table Scan",
		source(seedSkill, "Query, never Scan, and never select with a filter"), checkPartiQLFullScan},
	{"batch-scan-without-limit", Info, "a batch Scan with no Limit to cap its page size",
		source(seedSkill, "Query, never Scan, and never select with a filter"), checkBatchScanLimit},
	{"filter-selects", Error, "a filter that throws away most of what the pattern reads",
		source(seedSkill, "Query, never Scan, and never select with a filter"), checkFilterSelects},
	{"table-named-for-entity", Warning, "the table is named like an entity rather than a service",
		source(seedSkill, "One table, every entity type"), checkTableNamedForEntity},
	{"entity-named-key", Warning, "key attributes named for one entity rather than generic",
		source(seedSkill, "Generic key names and entity prefixes"), checkEntityNamedKey},
	{"missing-type", Warning, "items without the type attribute",
		source(seedSkill, "Generic key names and entity prefixes"), checkMissingType},
	{"unknown-entity", Warning, "items whose type names no entity of the design",
		source(seedSkill, "Keep key construction in one place"), checkUnknownEntity},
	{"synthetic-key", Info, "a GSI key that only concatenates the item's own attributes",
		source(seedSkill, "Keep key construction in one place") + "; GSI.DesignPattern.MultiAttributeKeys.html", checkSyntheticKey},
	{"missing-prefix", Warning, "key values without an entity prefix",
		source(seedSkill, "Generic key names and entity prefixes"), checkMissingPrefix},
	{"template-mismatch", Error, "keys that do not match their entity's template",
		source(seedSkill, "Keep key construction in one place"), checkTemplateMismatch},
	{"attribute-type-mismatch", Error, "an attribute of a sample item or a pattern's item whose type differs from its entity's declaration",
		source(seedSkill, "Keep key construction in one place") + "; HowItWorks.NamingRulesDataTypes.html \"Data types\"", checkAttributeTypeMismatch},
	{"unpadded-number", Warning, "sibling sort keys whose numbers sort wrongly as bytes",
		source(seedSkill, "Generic key names and entity prefixes"), checkUnpaddedNumber},
	{"unused-index", Warning, "an index that no pattern reads",
		source(seedSkill, "Overload the secondary indexes"), checkUnusedIndex},
	{"index-per-pattern", Warning, "one GSI per pattern, none overloaded",
		source(seedSkill, "Overload the secondary indexes"), checkIndexPerPattern},
	{"too-many-indexes", Error, "more than 20 GSIs or 5 LSIs",
		source(seedSkill, "Overload the secondary indexes"), checkTooManyIndexes},
	{"lsi-without-strong-read", Info, "an LSI that no strongly consistent read uses; a GSI would do",
		source(seedSkill, "Overload the secondary indexes"), checkLSIWithoutStrongRead},
	{"lsi-collection-limit", Error, "an item collection that can pass 10 GB on a table with an LSI",
		source(seedGuide, "The primitives, precisely"), checkLSICollectionLimit},
	{"hot-partition", Error, "the hottest key value, every pattern summed, over 3,000 RCU or 1,000 WCU",
		source(seedGuide, "Hot partitions"), checkHotPartition},
	{"hot-until-split", Error, "a key value over 3,000 RCU or 1,000 WCU that only split for heat would bring under them",
		source(seedGuide, "Hot partitions"), checkHotUntilSplit},
	{"under-provisioned", Error, "provisioned capacity below the patterns' load (at the autoscaling target)",
		source(seedNote, "Operational checks and failure modes") + "; GSI.html \"Provisioned throughput considerations for global secondary indexes\"; ProvisionedThroughput.html", checkUnderProvisioned},
	{"fanout-read-cost", Info, "a fan-out read over more shards than the key's summed writes need",
		source(seedGuide, "Hot partitions") + "; bp-write-sharding.html", checkFanoutReadCost},
	{"low-cardinality-key", Warning, "a partition key with few values, or on the current period, under write load",
		source(seedGuide, "Hot partitions"), checkLowCardinalityKey},
	{"unbounded-partition", Warning, "an item collection that grows without bound",
		source(seedGuide, "Follow-up Q&A"), checkUnboundedPartition},
	{"page-overflow", Warning, "a Query whose expected result passes 1 MB per page without pagination",
		source(seedSkill, "Query, never Scan, and never select with a filter"), checkPageOverflow},
	{"item-too-large", Error, "an item over 400 KB",
		source(seedNote, "Operational checks and failure modes"), checkItemTooLarge},
	{"item-near-limit", Warning, "an item over 300 KB",
		source(seedNote, "Operational checks and failure modes"), checkItemNearLimit},
	{"split-by-write-rate", Warning, "a frequent small update on a large item",
		source(seedSkill, "Split items by write rate"), checkSplitByWriteRate},
	{"transaction-too-large", Error, "a transaction over 100 actions or 4 MB",
		source(seedGuide, "Transactions and optimistic concurrency"), checkTransactionTooLarge},
	{"transaction-not-needed", Warning, "a TransactWriteItems with one item",
		source(seedGuide, "Transactions and optimistic concurrency"), checkTransactionNotNeeded},
	{"consistent-read-on-gsi", Error, "ConsistentRead requested on a GSI",
		source(seedNote, "Designing the primary key"), checkConsistentReadOnGSI},
	{"gsi-for-strong-read", Warning, "a pattern that needs read-after-write but reads a GSI",
		source(seedNote, "Designing the primary key"), checkGSIForStrongRead},
	{"fetch-back", Warning, "items fetched one by one after an index query returned their keys",
		source(seedGuide, "A worked example: the cost of getting the key wrong"), checkFetchBack},
	{"uniqueness-unenforced", Warning, "a unique attribute with no claim item written with it",
		source(seedSkill, "Uniqueness is a second item"), checkUniquenessUnenforced},
	{"expect-drift", Error, "a pattern's result differs from its expect or expectError",
		source(seedSkill, "Testing the model"), checkExpectDrift},
	{"pattern-error", Error, "a pattern whose request DynamoDB would reject",
		source(seedSkill, "Testing the model"), checkPatternError},
	{"entity-unread", Warning, "an entity that no pattern returns",
		source(seedSkill, "Write the access patterns down first"), checkEntityUnread},
}

// --- access: how patterns read ---

func checkNoPatterns(c *checker) {
	if len(c.d.Patterns) == 0 {
		c.add(Finding{
			Message: "the design has no access patterns, so nothing says whether its keys are right",
			Fix:     "write the numbered access patterns first: what the caller holds, what comes back, in what order, how many",
		})
	}
}

func checkScanInRequestPath(c *checker) {
	for i, p := range c.d.Patterns {
		if p.Operation != model.OpScan || p.Batch || p.Statement != "" {
			continue // a PartiQL SELECT's scan is partiql-full-scan's
		}
		msg := fmt.Sprintf("pattern %d is a Scan in a request path: it reads the whole table, %s",
			p.ID, plural(int64(c.stored.Len()), "sample item", "sample items"))
		if r := c.result(i); r != nil && r.Err == nil {
			msg += fmt.Sprintf(" (%s RCU a page) to return %s", fmtNum(r.Consumed.Read()), fmtInt(int64(r.Count)))
		}
		if total := c.productionItems(); total > 0 {
			msg += fmt.Sprintf("; in production %s items", fmtInt(total))
		}
		c.add(Finding{Pattern: p.ID, Message: msg,
			Fix: fmt.Sprintf("give pattern %d a key: put what it selects in one partition, or in a sparse GSI keyed on what it filters on, and Query that; if it really is a batch job, mark it `batch: true`", p.ID)})
	}
}

// checkPartiQLFullScan finds the PartiQL pitfall: a SELECT whose WHERE clause has
// no equality on the partition key of the table or index it reads runs as a Scan
// of all of it, however selective the rest of the clause is (ql-reference.select.html:
// "Using the SELECT statement can result in a full table scan if an equality or IN
// condition with a partition key is not provided in the WHERE clause"). The
// pattern reaches the review as its stand-in (analysis), a Scan keeping its
// statement.
func checkPartiQLFullScan(c *checker) {
	for i, p := range c.d.Patterns {
		if p.Operation != model.OpScan || p.Statement == "" || p.Batch {
			continue
		}
		body, pk := "the table", c.d.Table.Key.Partition
		if p.Index != "" {
			body = "index " + p.Index
			if ix, ok := c.d.Table.IndexByName(p.Index); ok {
				pk = ix.Key.Partition
			}
		}
		msg := fmt.Sprintf("pattern %d's PartiQL SELECT has no equality on %s's partition key %s, so DynamoDB runs it as a Scan of all of %s, %s",
			p.ID, body, pk, body, plural(int64(c.stored.Len()), "sample item", "sample items"))
		if r := c.result(i); r != nil && r.Err == nil {
			msg += fmt.Sprintf(" (%s RCU a page) to return %s", fmtNum(r.Consumed.Read()), fmtInt(int64(r.Count)))
		}
		if total := c.productionItems(); total > 0 {
			msg += fmt.Sprintf("; in production %s items", fmtInt(total))
		}
		c.add(Finding{Pattern: p.ID, Message: msg,
			Fix: fmt.Sprintf("add `%s = ?` to pattern %d's WHERE clause, reading from a GSI keyed on what it selects by if the table's key is not it, so that it runs as a Query; if it really is a batch job, mark it `batch: true`", pk, p.ID)})
	}
}

// productionItems is the design's item count in production: the entities' counts.
func (c *checker) productionItems() int64 {
	var n int64
	for i := range c.d.Entities {
		n += c.d.Entities[i].Count
	}
	return n
}

func checkBatchScanLimit(c *checker) {
	for _, p := range c.d.Patterns {
		if p.Operation == model.OpScan && p.Batch && p.Limit == 0 {
			c.add(Finding{Pattern: p.ID,
				Message: fmt.Sprintf("batch Scan pattern %d has no Limit: each page takes up to 1 MB (128 RCU eventually consistent) in one burst from one partition", p.ID),
				Fix:     "set `limit` to cap the page size, and scan in parallel segments once the table passes about 20 GB"})
		}
	}
}

func checkFilterSelects(c *checker) {
	for i, p := range c.d.Patterns {
		r := c.result(i)
		if p.Filter == "" || r == nil || r.Err != nil || len(pagesOf(r)) == 0 {
			continue
		}
		var readBytes, keptBytes, read, kept int
		for _, pg := range pagesOf(r) {
			for _, v := range pg.Visits {
				s := model.ItemSize(v.Item)
				readBytes += s
				read++
				if v.Kept {
					keptBytes += s
					kept++
				}
			}
		}
		if read == 0 || kept*2 >= read {
			continue
		}
		wasted := 100 * float64(readBytes-keptBytes) / float64(readBytes)
		sev := Warning
		if kept*10 <= read || p.Operation == model.OpScan {
			sev = Error
		}
		c.add(Finding{Pattern: p.ID, Severity: sev,
			Message: fmt.Sprintf("pattern %d reads %s items to return %s; %.1f%% of its %s RCU per request buys nothing: the filter is doing the selecting",
				p.ID, fmtInt(int64(read)), fmtInt(int64(kept)), wasted, fmtNum(r.Consumed.Read())),
			Fix: fmt.Sprintf("move what the filter %q selects on into the key: a sort key prefix for begins_with, or a sparse GSI whose key only the wanted items carry", p.Filter)})
	}
}

func checkConsistentReadOnGSI(c *checker) {
	for i, p := range c.d.Patterns {
		if ix, ok := c.d.Table.IndexByName(p.Index); ok && !ix.Local && p.Consistent {
			why := "GSI reads are eventually consistent, always"
			if r := c.result(i); r != nil && r.Err != nil {
				why += fmt.Sprintf(" (%s: %s)", r.Err.Type, r.Err.Message)
			}
			c.add(Finding{Pattern: p.ID, Index: p.Index,
				Message: fmt.Sprintf("pattern %d asks for a consistent read on GSI %s; DynamoDB rejects it: %s", p.ID, p.Index, why),
				Fix:     "read the base table (GetItem or Query on the table key) for read-after-write, or an LSI when an alternate sort key is needed"})
		}
	}
}

// strongWords are what a pattern's own words say when it needs read-after-write.
var strongWords = regexp.MustCompile(`(?i)read[- ]after[- ]write|strongly consistent|strong consistency|authori[sz]`)

func checkGSIForStrongRead(c *checker) {
	for _, p := range c.d.Patterns {
		ix, ok := c.d.Table.IndexByName(p.Index)
		if !ok || ix.Local || p.Consistent {
			continue
		}
		text := strings.Join([]string{p.Name, p.Holds, p.Returns, p.Order, p.Cardinality}, " ")
		if strongWords.MatchString(text) {
			c.add(Finding{Pattern: p.ID, Index: p.Index,
				Message: fmt.Sprintf("pattern %d says it needs read-after-write, but GSI %s is eventually consistent: a write may not show yet", p.ID, p.Index),
				Fix:     "serve it from the base table's key (GetItem, or a Query on a partition that holds the items), which can read consistently"})
		}
	}
}

func checkFetchBack(c *checker) {
	// Keys returned by index Queries whose projection lacks attributes.
	returned := map[string]int{} // item key -> pattern id
	for i, p := range c.d.Patterns {
		ix, ok := c.d.Table.IndexByName(p.Index)
		r := c.result(i)
		if !ok || p.Operation != model.OpQuery || ix.Projection.Type == model.ProjectAll || r == nil {
			continue
		}
		for _, it := range r.Items {
			returned[c.tableKeyString(it)] = p.ID
		}
	}
	for i, p := range c.d.Patterns {
		if p.Operation != model.OpBatchGetItem && p.Operation != model.OpTransactGetItems {
			continue
		}
		from, n := 0, 0
		for _, k := range p.Keys {
			if id, ok := returned[c.tableKeyString(k)]; ok {
				from, n = id, n+1
			}
		}
		if n == 0 {
			continue
		}
		msg := fmt.Sprintf("pattern %d fetches %s back by key after pattern %d's index query returned their keys", p.ID, plural(int64(n), "item", "items"), from)
		if r := c.result(i); r != nil && r.Err == nil {
			msg += fmt.Sprintf("; the fetch alone costs %s RCU, each item rounded up on its own", fmtNum(r.Consumed.Read()))
		}
		c.add(Finding{Pattern: p.ID, Message: msg,
			Fix: "put pointer items carrying the summary fields the list needs in the caller's partition, so one Query returns them; or project those attributes into the index"})
	}
}

func (c *checker) tableKeyString(it model.Item) string {
	k := c.d.Table.Key
	s := it[k.Partition].Type.String() + ":" + it[k.Partition].Str
	if k.Sort != "" {
		s += "|" + it[k.Sort].Type.String() + ":" + it[k.Sort].Str
	}
	return s
}

func checkExpectDrift(c *checker) {
	for i, p := range c.d.Patterns {
		r := c.result(i)
		if r == nil || (p.Expect == nil && p.ExpectError == "") {
			continue
		}
		if msg := c.drift(&p, r); msg != "" {
			c.add(Finding{Pattern: p.ID, Message: msg,
				Fix: "if the new result is right, update `expect` or `expectError`; otherwise the keys, items or request changed what the pattern returns"})
		}
	}
}

// Drift says how result r of pattern p of design d differs from the pattern's expect
// and expectError, "" when it does not: the expect-drift rule's comparison, for the
// workbench's preview.
func Drift(d *model.Design, p *model.Pattern, r *engine.Result) string {
	if r == nil || p.Expect == nil && p.ExpectError == "" {
		return ""
	}
	return (&checker{d: d}).drift(p, r)
}

// drift says how a pattern's result differs from what it expects; "" when it does not.
func (c *checker) drift(p *model.Pattern, r *engine.Result) string {
	gotErr := ""
	if r.Err != nil {
		gotErr = r.Err.Type
	}
	if gotErr != p.ExpectError {
		switch {
		case p.ExpectError == "":
			return fmt.Sprintf("pattern %d fails with %s (%s); it is expected to succeed", p.ID, r.Err.Type, r.Err.Message)
		case gotErr == "":
			return fmt.Sprintf("pattern %d succeeds; its expectError says %s", p.ID, p.ExpectError)
		default:
			return fmt.Sprintf("pattern %d fails with %s (%s); its expectError says %s", p.ID, gotErr, r.Err.Message, p.ExpectError)
		}
	}
	if p.Expect == nil {
		return ""
	}
	got := make([]string, len(r.Items))
	for j, it := range r.Items {
		got[j] = keyText(c.d, it)
	}
	want := make([]string, len(p.Expect))
	for j, it := range p.Expect {
		want[j] = keyText(c.d, it)
	}
	if strings.Join(got, "\n") == strings.Join(want, "\n") {
		return ""
	}
	return fmt.Sprintf("pattern %d returns [%s], its expect says [%s]", p.ID, strings.Join(got, ", "), strings.Join(want, ", "))
}

// keyText writes an item's table key as "PK=CUST#42 SK=PROFILE".
func keyText(d *model.Design, it model.Item) string {
	k := d.Table.Key
	s := k.Partition + "=" + valueText(it[k.Partition])
	if k.Sort != "" {
		s += " " + k.Sort + "=" + valueText(it[k.Sort])
	}
	return s
}

func valueText(v model.Value) string {
	if v.Type == model.TypeN {
		return model.CanonicalNumber(v.Str)
	}
	return v.Str
}

func checkPatternError(c *checker) {
	for i, p := range c.d.Patterns {
		r := c.result(i)
		if r == nil || r.Err == nil || r.Err.Type != expr.ValidationException || p.ExpectError == r.Err.Type {
			continue
		}
		if p.Index != "" && p.Consistent {
			continue // consistent-read-on-gsi says it with the modelling reason
		}
		if _, _, over := transactionSize(&c.d.Patterns[i]); over {
			continue // transaction-too-large says it, with DynamoDB's error
		}
		c.add(Finding{Pattern: p.ID,
			Message: fmt.Sprintf("pattern %d is rejected by DynamoDB: %s", p.ID, r.Err.Message),
			Fix:     "correct the request: run `stwb query FILE " + fmt.Sprint(p.ID) + "` to see the error as DynamoDB gives it"})
	}
}

func checkEntityUnread(c *checker) {
	if len(c.d.Patterns) == 0 {
		return
	}
	read := map[string]bool{}
	for i, p := range c.d.Patterns {
		if p.Operation.IsWrite() {
			continue
		}
		if r := c.result(i); r != nil {
			for _, it := range r.Items {
				read[c.returnedEntity(it)] = true
			}
		}
	}
	guards := c.guardEntities()
	for _, e := range c.d.Entities {
		if read[e.Name] || guards[e.Name] || len(c.byEntity[e.Name]) == 0 {
			continue
		}
		c.add(Finding{Entity: e.Name,
			Message: fmt.Sprintf("no access pattern returns an item of entity %s (%s, %s)", e.Name, plural(int64(len(c.byEntity[e.Name])), "sample item", "sample items"), productionCount(e)),
			Fix:     fmt.Sprintf("add the pattern that reads %s, or drop the entity if nothing needs it", e.Name)})
	}
}

// productionCount says how many items of e production holds, as the design gives
// it: "1,000 in production", or that the design gives no count (not "0 in
// production": an entity without `count` is not an empty one).
func productionCount(e model.Entity) string {
	if e.Count <= 0 {
		return "no count in the design"
	}
	return fmtInt(e.Count) + " in production"
}

// returnedEntity names the entity of an item a read returned. A KEYS_ONLY or INCLUDE
// index, or a ProjectionExpression, may leave the type attribute out; the table key
// it always carries (GSI.html, LSI.html "Attribute projections") finds the stored
// item and so its entity (cost.KeySpace.EntityOf, the cost report's lookup, shared).
func (c *checker) returnedEntity(it model.Item) string {
	if name := c.entityOf(it); name != "" {
		return name
	}
	if e := c.keys().EntityOf(it); e != nil {
		return e.Name
	}
	return ""
}

// guardEntities are entities written only as conditional claims (uniqueness items):
// they exist to make a write fail, not to be read.
func (c *checker) guardEntities() map[string]bool {
	g := map[string]bool{}
	for _, p := range c.d.Patterns {
		for _, a := range p.Actions {
			if a.Kind == model.ActionPut && strings.Contains(a.Condition, "attribute_not_exists") {
				if name := c.entityOf(a.Item); name != "" && c.isClaim(a.Item) {
					g[name] = true
				}
			}
		}
	}
	return g
}

// isClaim reports whether an item holds little besides its keys and type: a claim.
func (c *checker) isClaim(it model.Item) bool {
	other := 0
	for n := range it {
		if !c.isKeyAttr(n) && n != c.d.TypeAttr() {
			other++
		}
	}
	return other <= 2
}

func (c *checker) isKeyAttr(name string) bool {
	t := c.d.Table
	if name == t.Key.Partition || name == t.Key.Sort {
		return true
	}
	for _, ix := range t.Indexes {
		if slices.Contains(ix.Key.Attributes(), name) {
			return true
		}
	}
	return false
}

// --- shared by the index rules ---

// indexReaders counts the patterns that read each index.
func (c *checker) indexReaders() map[string][]int {
	m := map[string][]int{}
	for _, p := range c.d.Patterns {
		if p.Index != "" {
			m[p.Index] = append(m[p.Index], p.ID)
		}
	}
	return m
}

// indexEntities lists the entities whose sample items carry an index's keys.
func (c *checker) indexEntities(ix model.Index) []string {
	set := map[string]bool{}
	for i := range c.items.Len() {
		if !slices.ContainsFunc(ix.Key.Attributes(), func(a string) bool { _, ok := c.items.Attr(i, a); return !ok }) {
			set[c.entityAt(i)] = true
		}
	}
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func checkUnusedIndex(c *checker) {
	readers := c.indexReaders()
	for _, ix := range c.d.Table.Indexes {
		if len(readers[ix.Name]) > 0 {
			continue
		}
		msg := fmt.Sprintf("no pattern reads index %s", ix.Name)
		if r := c.in.Cost; r != nil {
			if s, ok := r.Storage.Indexes[ix.Name]; ok {
				msg += fmt.Sprintf("; it stores %s entries (%s bytes, %s a month)", fmtInt(s.Items), fmtInt(s.Bytes), numfmt.Dollars(s.Monthly))
			}
			var wps float64
			for _, pc := range r.Patterns {
				wps += pc.PerSecond.Indexes[ix.Name].Write
			}
			if wps > 0 {
				msg += fmt.Sprintf(" and takes %s WCU per second of writes (%s a month on-demand)", fmtNum(wps), numfmt.Dollars(cost.OnDemandMonthly(0, wps, r.Prices)))
			}
		}
		c.add(Finding{Index: ix.Name, Message: msg,
			Fix: fmt.Sprintf("drop %s, or write down the pattern that needs it", ix.Name)})
	}
}

func checkIndexPerPattern(c *checker) {
	readers := c.indexReaders()
	var gsis []model.Index
	for _, ix := range c.d.Table.Indexes {
		if !ix.Local {
			gsis = append(gsis, ix)
		}
	}
	if len(gsis) < 2 {
		return
	}
	for _, ix := range gsis {
		if len(readers[ix.Name]) != 1 || len(c.indexEntities(ix)) > 1 {
			return // some index serves several patterns or entities: overloaded
		}
	}
	names := make([]string, len(gsis))
	for i, ix := range gsis {
		names[i] = ix.Name
	}
	c.add(Finding{Index: gsis[0].Name,
		Message: fmt.Sprintf("%d GSIs (%s) serve one pattern each and hold one entity type each: an index per query, the relational reflex", len(gsis), strings.Join(names, ", ")),
		Fix:     "overload one index: generic GSI1PK/GSI1SK attributes that each entity fills with its own prefixed values, so one GSI serves several patterns"})
}

func checkTooManyIndexes(c *checker) {
	var g, l int
	for _, ix := range c.d.Table.Indexes {
		if ix.Local {
			l++
		} else {
			g++
		}
	}
	err := engine.CheckCreateTable(c.d.Table)
	if err == nil {
		return
	}
	var ee *engine.Error
	errors.As(err, &ee)
	c.add(Finding{
		Message: fmt.Sprintf("the table has %d GSIs and %d LSIs; DynamoDB allows %d and %d, and CreateTable refuses it (%s: %s), so `stwb deploy` cannot create it; the patterns run here as if it could",
			g, l, model.MaxGSIs, model.MaxLSIs, ee.Type, ee.Message),
		Fix: "overload indexes: one GSI with generic keys (GSI1PK, GSI1SK) that each entity fills with its own prefixed values serves several patterns"})
}

func checkLSIWithoutStrongRead(c *checker) {
	for _, ix := range c.d.Table.Indexes {
		if !ix.Local {
			continue
		}
		strong := false
		for _, p := range c.d.Patterns {
			if p.Index == ix.Name && p.Consistent {
				strong = true
			}
		}
		if !strong {
			c.add(Finding{Index: ix.Name,
				Message: fmt.Sprintf("LSI %s serves no strongly consistent read; it must exist from table creation, can never be removed, shares the table's throughput and caps each item collection at 10 GB", ix.Name),
				Fix:     "use a GSI unless a pattern needs a strongly consistent read on the alternate sort key"})
		}
	}
}

// --- writes ---

// transactionSize is a transaction pattern's number of actions (or keys) and the
// bytes of its items and keys; over says DynamoDB refuses it for either
// (ServiceQuotas.html "Transactions": 100 actions, 4 MB).
func transactionSize(p *model.Pattern) (n, size int, over bool) {
	if p.Operation != model.OpTransactWriteItems && p.Operation != model.OpTransactGetItems {
		return 0, 0, false
	}
	n = len(p.Actions) + len(p.Keys)
	for _, a := range p.Actions {
		size += model.ItemSize(a.Item) + model.ItemSize(a.Key)
	}
	return n, size, n > model.MaxTransactionActions || size > 4*1024*1024
}

func checkTransactionTooLarge(c *checker) {
	for i := range c.d.Patterns {
		p := &c.d.Patterns[i]
		n, size, over := transactionSize(p)
		if !over {
			continue
		}
		msg := fmt.Sprintf("pattern %d's transaction has %d actions and %s bytes; DynamoDB allows %d actions and 4 MB",
			p.ID, n, fmtInt(int64(size)), model.MaxTransactionActions)
		if p.Operation == model.OpTransactGetItems {
			msg = fmt.Sprintf("pattern %d's transaction reads %d items; DynamoDB allows %d", p.ID, n, model.MaxTransactionActions)
		}
		if r := c.result(i); r != nil && r.Err != nil {
			msg += fmt.Sprintf(", and refuses the request (%s: %s)", r.Err.Type, r.Err.Message)
		}
		c.add(Finding{Pattern: p.ID, Message: msg,
			Fix: "split it, or repair the copies from a DynamoDB stream where the fan-out is too wide for one transaction"})
	}
}

func checkTransactionNotNeeded(c *checker) {
	for i, p := range c.d.Patterns {
		if p.Operation != model.OpTransactWriteItems || len(p.Actions) != 1 {
			continue
		}
		msg := fmt.Sprintf("pattern %d is a transaction of one action", p.ID)
		if r := c.result(i); r != nil {
			msg += fmt.Sprintf(": %s WCU on the table, where a conditional write costs half", fmtNum(r.Consumed.Table.Write))
		}
		c.add(Finding{Pattern: p.ID, Message: msg,
			Fix: "use a single PutItem/UpdateItem/DeleteItem with a ConditionExpression"})
	}
}

func checkSplitByWriteRate(c *checker) {
	for i, p := range c.d.Patterns {
		if p.Operation != model.OpUpdateItem {
			continue
		}
		r := c.result(i)
		if r == nil || len(r.Changes) != 1 || r.Changes[0].Before == nil || r.Changes[0].After == nil {
			continue
		}
		ch := r.Changes[0]
		size := max(model.ItemSize(ch.Before), model.ItemSize(ch.After))
		if size <= 1024 {
			continue
		}
		// What a split item would hold: the keys, the type and the changed attributes.
		split := model.Item{}
		for n, v := range ch.After {
			if old, ok := ch.Before[n]; !ok || !old.Equal(v) || c.isKeyAttr(n) || n == c.d.TypeAttr() {
				split[n] = v
			}
		}
		now := engine.WriteUnits(size)
		then := engine.WriteUnits(model.ItemSize(split))
		if then >= now {
			continue
		}
		rate := p.EffectiveRate()
		c.add(Finding{Pattern: p.ID,
			Message: fmt.Sprintf("pattern %d changes a few attributes of a %s-byte item: %s WCU a write, %s if they lived in their own item; %s WCU a second saved at %s writes a second",
				p.ID, fmtInt(int64(size)), fmtNum(now), fmtNum(then), fmtNum((now-then)*rate), fmtNum(rate)),
			Fix: "split the item by write rate: keep the static attributes under #METADATA and the changing ones in a small item beside it in the same partition (one Query still returns both)"})
	}
}

func checkUniquenessUnenforced(c *checker) {
	for _, e := range c.d.Entities {
		for _, a := range e.Attributes {
			if !a.Unique || c.claimWritten(e.Name, a.Name) {
				continue
			}
			c.add(Finding{Entity: e.Name,
				Message: fmt.Sprintf("%s.%s is marked unique, but no pattern writes a claim item for it; DynamoDB has no unique index, so two %s items can hold the same %s", e.Name, a.Name, e.Name, a.Name),
				Fix:     fmt.Sprintf("write a claim item keyed on the %s (PK = %s#<value>) in the same TransactWriteItems as the %s, both puts conditional on attribute_not_exists(PK)", a.Name, strings.ToUpper(a.Name), e.Name)})
		}
	}
}

// claimWritten reports whether a transaction puts an entity item and, beside it, a
// conditional claim item whose key holds the unique attribute's value.
func (c *checker) claimWritten(entity, attr string) bool {
	for _, p := range c.d.Patterns {
		if p.Operation != model.OpTransactWriteItems {
			continue
		}
		var values []string
		for _, a := range p.Actions {
			if (a.Kind == model.ActionPut && c.entityOf(a.Item) == entity) || a.Kind == model.ActionUpdate {
				if v, ok := a.Item[attr]; ok && v.Type == model.TypeS {
					values = append(values, v.Str)
				}
				for _, v := range p.Values {
					if v.Type == model.TypeS && a.Kind == model.ActionUpdate && strings.Contains(a.Update, attr) {
						values = append(values, v.Str)
					}
				}
			}
		}
		for _, a := range p.Actions {
			if a.Kind != model.ActionPut || !strings.Contains(a.Condition, "attribute_not_exists") {
				continue
			}
			pk := a.Item[c.d.Table.Key.Partition]
			for _, v := range values {
				if v != "" && pk.Type == model.TypeS && strings.Contains(pk.Str, v) && c.entityOf(a.Item) != entity {
					return true
				}
			}
		}
	}
	return false
}
