package review_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"stwb/analysis"
	"stwb/designfile"
	"stwb/model"
	"stwb/review"
	"stwb/samples"
)

func loadBase(t *testing.T) *designfile.File {
	t.Helper()
	d, err := designfile.Load("testdata/base.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func rulesOf(t *testing.T, d *designfile.File) map[string]review.Finding {
	t.Helper()
	a, _ := analysis.Run(d.Design, analysis.Options{Review: true, ItemPos: d.ItemPos}) // an engine error still returns the findings that need no run
	fs := a.Findings
	m := map[string]review.Finding{}
	for _, f := range fs {
		if _, ok := m[f.Rule]; !ok {
			m[f.Rule] = f
		}
	}
	return m
}

func TestBaseDesignIsClean(t *testing.T) {
	for rule, f := range rulesOf(t, loadBase(t)) {
		t.Errorf("the base design should pass, got %s: %s", rule, f.Message)
	}
}

func pattern(d *model.Design, id int) *model.Pattern {
	for i := range d.Patterns {
		if d.Patterns[i].ID == id {
			return &d.Patterns[i]
		}
	}
	panic("no pattern")
}

func addItems(d *model.Design, n int, make func(i int) model.Item) {
	for i := 0; i < n; i++ {
		d.Items = append(d.Items, make(i))
	}
}

// Each rule: a change to the base design that triggers it, and a near-identical
// change that does not (nil: the base design itself).
var ruleCases = []struct {
	rule          string
	trigger, near func(d *model.Design)
	wantInMessage string
}{
	{"no-patterns", func(d *model.Design) { d.Patterns = nil }, nil, "no access patterns"},
	{"scan-in-request-path",
		func(d *model.Design) {
			d.Patterns = append(d.Patterns, model.Pattern{ID: 9, Name: "all", Operation: model.OpScan, Limit: 10})
		},
		func(d *model.Design) {
			d.Patterns = append(d.Patterns, model.Pattern{ID: 9, Name: "export", Operation: model.OpScan, Batch: true, Limit: 10})
		}, "Scan in a request path"},
	{"partiql-full-scan",
		func(d *model.Design) {
			d.Patterns = append(d.Patterns, model.Pattern{ID: 9, Name: "shipped orders", Operation: model.OpExecuteStatement,
				Statement: `SELECT * FROM "shop-service-data" WHERE status = ?`, Parameters: []model.Value{model.Str("SHIPPED")}})
		},
		func(d *model.Design) {
			d.Patterns = append(d.Patterns, model.Pattern{ID: 9, Name: "a customer's shipped orders", Operation: model.OpExecuteStatement,
				Statement: `SELECT * FROM "shop-service-data" WHERE PK = ? AND status = ?`, Parameters: []model.Value{model.Str("CUST#42"), model.Str("SHIPPED")}})
		}, "runs it as a Scan of all of the table"},
	{"batch-scan-without-limit",
		func(d *model.Design) {
			d.Patterns = append(d.Patterns, model.Pattern{ID: 9, Name: "export", Operation: model.OpScan, Batch: true})
		},
		func(d *model.Design) {
			d.Patterns = append(d.Patterns, model.Pattern{ID: 9, Name: "export", Operation: model.OpScan, Batch: true, Limit: 100})
		}, "no Limit"},
	{"filter-selects",
		func(d *model.Design) {
			p := pattern(d, 2)
			p.Filter, p.Names, p.Values[":st"] = "#s = :st", map[string]string{"#s": "status"}, model.Str("SHIPPED")
			p.Values[":pk"] = model.Str("CUST#42")
			addItems(d, 3, func(i int) model.Item {
				return model.Item{"type": model.Str("order"), "PK": model.Str("CUST#42"), "SK": model.Str("ORDER#p-" + string(rune('a'+i))),
					"GSI1PK": model.Str("ORDER#p-" + string(rune('a'+i))), "GSI1SK": model.Str("ORDER#p-" + string(rune('a'+i))),
					"customerId": model.Str("42"), "orderId": model.Str("p-" + string(rune('a'+i))), "status": model.Str("PENDING"), "total": model.Num("1")}
			})
			p.Expect = nil
		},
		func(d *model.Design) {
			// The filter keeps one of the customer's two orders: it trims, it does not select.
			p := pattern(d, 2)
			p.Filter, p.Names, p.Values[":st"] = "#s = :st", map[string]string{"#s": "status"}, model.Str("SHIPPED")
			p.Expect = nil
		}, "the filter is doing the selecting"},
	{"table-named-for-entity", func(d *model.Design) { d.Table.Name = "Customers" },
		func(d *model.Design) { d.Table.Name = "customer-service-data" }, `"Customers"`},
	{"entity-named-key",
		func(d *model.Design) { renameKey(d, "GSI1PK", "orderId") },
		func(d *model.Design) { renameKey(d, "GSI1PK", "GSI2PK") }, `"orderId"`},
	{"missing-type", func(d *model.Design) { delete(d.Items[0], "type") }, nil, `has no "type"`},
	// GSI1PK = ORDER#{orderId} alone (the base's GSI1SK repeats orderId, which a
	// multi-attribute key cannot): orderId indexed as it is drops GSI1PK; near
	// miss, customers write GSI1PK too (an overloaded index). GSI1PK of ORDER#o-1
	// is 6 + 9 bytes, stored in the item and in GSI1's entry (projection all): 30.
	{"synthetic-key", dropGSI1SK,
		func(d *model.Design) {
			dropGSI1SK(d)
			d.EntityByName("customer").Keys["GSI1PK"] = "CUST#{customerId}"
			d.Items[0]["GSI1PK"] = model.Str("CUST#" + d.Items[0]["customerId"].Str)
		}, `index GSI1's key (GSI1PK = "ORDER#{orderId}") only concatenates order's own attributes orderId: a multi-attribute key would index them as they are and drop GSI1PK from every order item, saving 30 bytes stored per item (150 KB over 5,000 order items)`},
	{"unknown-entity", func(d *model.Design) { d.Items[4]["type"] = model.Str("invoice") }, nil, `"invoice"`},
	{"missing-prefix", func(d *model.Design) { d.Items[0]["PK"] = model.Str("42") },
		func(d *model.Design) { d.Items[0]["PK"] = model.Str("CUSTOMER#42") }, `"42"`},
	{"template-mismatch", func(d *model.Design) { d.Items[1]["SK"] = model.Str("ORD#o-1") }, nil, "template"},
	{"unpadded-number",
		func(d *model.Design) { addSKs(d, "ORDER#sku-9", "ORDER#sku-10") },
		func(d *model.Design) { addSKs(d, "ORDER#sku-09", "ORDER#sku-10") }, `"ORDER#sku-10" sorts before "ORDER#sku-9"`},
	{"unused-index", func(d *model.Design) { d.Patterns = d.Patterns[:2] }, nil, "no pattern reads index GSI1"},
	{"index-per-pattern",
		func(d *model.Design) { addGSI(d, "GSI2", "email", false) },
		func(d *model.Design) { addGSI(d, "GSI2", "email", true) }, "serve one pattern each"},
	{"too-many-indexes",
		func(d *model.Design) {
			d.Table.Attributes = map[string]model.Type{"total": model.TypeN}
			for i := 0; i < 6; i++ {
				d.Table.Indexes = append(d.Table.Indexes, model.Index{Name: "LSI" + string(rune('a'+i)), Local: true,
					Key: model.KeySchema{Partition: "PK", Sort: "total"}, Projection: model.Projection{Type: model.ProjectKeysOnly}})
			}
		},
		func(d *model.Design) {
			d.Table.Attributes = map[string]model.Type{"total": model.TypeN}
			d.Table.Indexes = append(d.Table.Indexes, model.Index{Name: "LSIa", Local: true,
				Key: model.KeySchema{Partition: "PK", Sort: "total"}, Projection: model.Projection{Type: model.ProjectKeysOnly}})
		}, "DynamoDB allows 20 and 5"},
	{"lsi-without-strong-read",
		func(d *model.Design) { addLSI(d, false) }, func(d *model.Design) { addLSI(d, true) }, "no strongly consistent read"},
	{"lsi-collection-limit",
		func(d *model.Design) { addLSI(d, true); d.Entities[1].Count = 500_000_000; d.Entities[0].Count = 10 },
		func(d *model.Design) { addLSI(d, true); d.Entities[1].Count = 500_000_000 }, "10 GB"},
	{"attribute-type-mismatch",
		func(d *model.Design) { d.Items[1]["orderId"] = model.Num("4e10") },
		func(d *model.Design) { d.Items[1]["orderId"] = model.Str("4e10") }, `orderId is N 4e10, but entity order declares orderId: S; YAML read the unquoted 4e10 as N: write orderId: "4e10"`},
	// The items patterns write are stored as YAML read them too: a PutItem's item and
	// a transaction's put (HowItWorks.NamingRulesDataTypes.html "Data types").
	{"attribute-type-mismatch",
		func(d *model.Design) { addPutOrder(d, model.Num("5e61")) }, func(d *model.Design) { addPutOrder(d, model.Str("5e61")) },
		`pattern 9's item's orderId is N 5e61, but entity order declares orderId: S; YAML read the unquoted 5e61 as N: write orderId: "5e61"`},
	{"attribute-type-mismatch",
		func(d *model.Design) {
			addTransaction(d, 2)
			pattern(d, 9).Actions[1].Item["orderId"] = model.Num("12")
		},
		func(d *model.Design) {
			addTransaction(d, 2)
			pattern(d, 9).Actions[1].Item["orderId"] = model.Str("12")
		},
		`pattern 9's action 2 (put)'s orderId is N 12, but entity order declares orderId: S; YAML read the unquoted 12 as N: write orderId: "12"`},
	{"hot-partition",
		func(d *model.Design) { p := pattern(d, 1); p.Rate, p.Partitions = 7000, 1 },
		func(d *model.Design) { p := pattern(d, 1); p.Rate, p.Partitions = 5000, 1 }, `3,500 RCU and 0 WCU of it on one item, "PROFILE", which no split divides`},
	// 1,500 new orders a second under one customer, their sort keys unordered in the
	// samples (o-1, o-2, o-3): over 1,000 WCU until DynamoDB splits the key value
	// (burst-adaptive-capacity.html "Isolate frequently accessed items").
	{"hot-until-split",
		func(d *model.Design) {
			addPutOrder(d, model.Str("o-9"))
			p := pattern(d, 9)
			p.Rate, p.PartitionsOn = 1500, map[string]int64{"table": 1}
		},
		func(d *model.Design) {
			addPutOrder(d, model.Str("o-9"))
			p := pattern(d, 9)
			p.Rate, p.PartitionsOn = 900, map[string]int64{"table": 1}
		}, "only split for heat brings it under them"},
	{"under-provisioned",
		func(d *model.Design) { d.Table.Billing = model.Billing{Mode: model.Provisioned, Read: 5, Write: 9} },
		func(d *model.Design) { d.Table.Billing = model.Billing{Mode: model.Provisioned, Read: 5, Write: 10} }, "need 1 RCU and 10 WCU"},
	// 2,000 WCU a second need ceil(2,000 / 800) = 3 shards; a read over 10 pays 10
	// requests a call (bp-write-sharding.html; the seeds' "Hot partitions").
	{"fanout-read-cost",
		func(d *model.Design) { addShardedDay(d, 10) }, func(d *model.Design) { addShardedDay(d, 3) },
		`pattern 11 fans out over 10 key values of "DAY#{day:current}#{shard}": 10 requests, 5 RCU a call; the writes summed on that key, 2,000 WCU a second, need 3 shards = ceil(2,000 WCU / (1,000 x 0.8)), so each read pays 10 requests where 3 would do`},
	{"low-cardinality-key",
		func(d *model.Design) { manyStatuses(d); setGSIKey(d, "STATUS#{status}"); pattern(d, 4).Rate = 500 },
		func(d *model.Design) {
			manyStatuses(d)
			setGSIKey(d, "STATUS#{status}#{orderId}")
			pattern(d, 4).Rate = 500
		}, "has few values"},
	{"unbounded-partition",
		func(d *model.Design) { d.Entities[1].Count = 50_000_000 },
		func(d *model.Design) { d.Entities[1].Count = 5_000_000 }, "grows with them"},
	{"page-overflow",
		func(d *model.Design) { pattern(d, 2).Cardinality = "up to 20,000" },
		func(d *model.Design) {
			p := pattern(d, 2)
			p.Cardinality = "up to 20,000"
			p.Limit = 25
			p.Expect = p.Expect[:2]
		}, "past the 1 MB page"},
	{"item-too-large",
		func(d *model.Design) { d.Items[0]["blob"] = model.Str(strings.Repeat("x", 410_000)) }, nil, "over 400 KB"},
	{"item-near-limit",
		func(d *model.Design) { d.Items[0]["blob"] = model.Str(strings.Repeat("x", 310_000)) },
		func(d *model.Design) { d.Items[0]["blob"] = model.Str(strings.Repeat("x", 290_000)) }, "within 100 KB"},
	{"split-by-write-rate",
		func(d *model.Design) { d.Items[1]["notes"] = model.Str(strings.Repeat("n", 3000)) },
		func(d *model.Design) { d.Items[1]["notes"] = model.Str(strings.Repeat("n", 500)) }, "WCU a write"},
	{"transaction-too-large",
		func(d *model.Design) { addTransaction(d, 101) }, func(d *model.Design) { addTransaction(d, 3) }, "100 actions"},
	{"transaction-not-needed",
		func(d *model.Design) { addTransaction(d, 1) }, func(d *model.Design) { addTransaction(d, 2) }, "a transaction of one action"},
	{"consistent-read-on-gsi",
		func(d *model.Design) { pattern(d, 3).Consistent = true }, func(d *model.Design) { pattern(d, 2).Consistent = true }, "GSI reads are eventually consistent"},
	{"gsi-for-strong-read",
		func(d *model.Design) { pattern(d, 3).Returns = "the order, read-after-write for the payment page" },
		func(d *model.Design) { pattern(d, 2).Returns = "the orders, read-after-write for the payment page" }, "eventually consistent"},
	{"fetch-back",
		func(d *model.Design) {
			d.Table.Indexes[0].Projection = model.Projection{Type: model.ProjectKeysOnly}
			d.Patterns = append(d.Patterns, model.Pattern{ID: 9, Name: "fetch", Operation: model.OpBatchGetItem,
				Keys: []model.Item{{"PK": model.Str("CUST#7"), "SK": model.Str("ORDER#o-3")}}})
		},
		func(d *model.Design) {
			d.Patterns = append(d.Patterns, model.Pattern{ID: 9, Name: "fetch", Operation: model.OpBatchGetItem,
				Keys: []model.Item{{"PK": model.Str("CUST#42"), "SK": model.Str("PROFILE")}}})
		}, "fetches 1 item back"},
	{"uniqueness-unenforced",
		func(d *model.Design) { d.Entities[0].Attributes[1].Unique = true },
		func(d *model.Design) { d.Entities[0].Attributes[1].Unique = true; addSignup(d) }, "no pattern writes a claim item"},
	{"expect-drift",
		func(d *model.Design) { pattern(d, 2).Expect = pattern(d, 2).Expect[:1] }, nil, "its expect says"},
	{"pattern-error",
		func(d *model.Design) { pattern(d, 2).KeyCondition = "SK = :o" }, nil, "rejected by DynamoDB"},
	{"entity-unread",
		func(d *model.Design) { d.Patterns = append(d.Patterns[:1:1], d.Patterns[3]) },
		func(d *model.Design) { d.Patterns = append(d.Patterns[:2:2], d.Patterns[3]) }, "no access pattern returns an item of entity order"},
}

// dropGSI1SK keys GSI1 on GSI1PK alone.
func dropGSI1SK(d *model.Design) {
	d.Table.Indexes[0].Key.Sort = ""
	delete(d.EntityByName("order").Keys, "GSI1SK")
	for _, it := range d.Items {
		delete(it, "GSI1SK")
	}
}

func renameKey(d *model.Design, from, to string) {
	d.Table.Indexes[0].Key.Partition = to
	for i := range d.Entities {
		if t, ok := d.Entities[i].Keys[from]; ok {
			delete(d.Entities[i].Keys, from)
			d.Entities[i].Keys[to] = t
		}
	}
	for _, it := range d.Items {
		if v, ok := it[from]; ok {
			delete(it, from)
			it[to] = v
		}
	}
	pattern(d, 3).KeyCondition = to + " = :id"
}

func addSKs(d *model.Design, sks ...string) {
	for _, sk := range sks {
		id := strings.TrimPrefix(sk, "ORDER#")
		d.Items = append(d.Items, model.Item{"type": model.Str("order"), "PK": model.Str("CUST#7"), "SK": model.Str(sk),
			"GSI1PK": model.Str(sk), "GSI1SK": model.Str(sk), "customerId": model.Str("7"), "orderId": model.Str(id)})
	}
}

// addGSI adds an email index read by one new pattern; overloaded, orders carry its
// keys too (so it holds two entity types).
func addGSI(d *model.Design, name, attr string, overloaded bool) {
	d.Table.Indexes = append(d.Table.Indexes, model.Index{Name: name,
		Key: model.KeySchema{Partition: "GSI2PK"}, Projection: model.Projection{Type: model.ProjectAll}})
	d.Items[0]["GSI2PK"] = model.Str("EMAIL#ada@example.com")
	if overloaded {
		d.Items[1]["GSI2PK"] = model.Str("STATUS#PENDING#o-1")
	}
	d.Patterns = append(d.Patterns, model.Pattern{ID: 8, Name: "by " + attr, Operation: model.OpQuery, Index: name,
		KeyCondition: "GSI2PK = :e", Values: map[string]model.Value{":e": model.Str("EMAIL#ada@example.com")}})
}

func addLSI(d *model.Design, strongRead bool) {
	d.Table.Indexes = append(d.Table.Indexes, model.Index{Name: "LSI1", Local: true,
		Key: model.KeySchema{Partition: "PK", Sort: "total"}, Projection: model.Projection{Type: model.ProjectAll}})
	d.Table.Attributes = map[string]model.Type{"total": model.TypeN}
	d.Patterns = append(d.Patterns, model.Pattern{ID: 8, Name: "orders by total", Operation: model.OpQuery, Index: "LSI1",
		KeyCondition: "PK = :pk AND #t > :min", Names: map[string]string{"#t": "total"},
		Values: map[string]model.Value{":pk": model.Str("CUST#42"), ":min": model.Num("5")}, Consistent: strongRead})
}

// manyStatuses makes orders a large entity whose samples repeat two statuses: the
// values, not the name, say the variable has few values.
func manyStatuses(d *model.Design) {
	d.Entities[1].Count = 50_000
	d.Items = append(d.Items, model.Item{"type": model.Str("order"), "PK": model.Str("CUST#7"), "SK": model.Str("ORDER#o-4"),
		"GSI1PK": model.Str("ORDER#o-4"), "GSI1SK": model.Str("ORDER#o-4"), "customerId": model.Str("7"), "orderId": model.Str("o-4"), "status": model.Str("PENDING")})
}

func setGSIKey(d *model.Design, tmpl string) {
	d.Entities[1].Keys["GSI1PK"] = tmpl
}

func addTransaction(d *model.Design, n int) {
	p := model.Pattern{ID: 9, Name: "bulk", Operation: model.OpTransactWriteItems}
	for i := 0; i < n; i++ {
		id := "t-" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('a'+i/26))
		p.Actions = append(p.Actions, model.Action{Kind: model.ActionPut, Item: model.Item{"type": model.Str("order"),
			"PK": model.Str("CUST#9"), "SK": model.Str("ORDER#" + id), "GSI1PK": model.Str("ORDER#" + id), "GSI1SK": model.Str("ORDER#" + id),
			"customerId": model.Str("9"), "orderId": model.Str(id)}})
	}
	d.Patterns = append(d.Patterns, p)
}

// addPutOrder adds pattern 9, a PutItem of an order whose orderId is id.
func addPutOrder(d *model.Design, id model.Value) {
	d.Patterns = append(d.Patterns, model.Pattern{ID: 9, Name: "place an order", Operation: model.OpPutItem,
		Item: model.Item{"type": model.Str("order"), "PK": model.Str("CUST#9"), "SK": model.Str("ORDER#o-9"),
			"GSI1PK": model.Str("ORDER#o-9"), "GSI1SK": model.Str("ORDER#o-9"), "customerId": model.Str("9"), "orderId": id}})
}

func addSignup(d *model.Design) {
	d.Entities = append(d.Entities, model.Entity{Name: "emailClaim", Keys: map[string]string{"PK": "EMAIL#{email}", "SK": "#EMAIL"}, Count: 1000})
	d.Patterns = append(d.Patterns, model.Pattern{ID: 9, Name: "sign up", Operation: model.OpTransactWriteItems,
		Actions: []model.Action{
			{Kind: model.ActionPut, Condition: "attribute_not_exists(PK)", Item: model.Item{"type": model.Str("customer"),
				"PK": model.Str("CUST#5"), "SK": model.Str("PROFILE"), "customerId": model.Str("5"), "email": model.Str("eve@example.com")}},
			{Kind: model.ActionPut, Condition: "attribute_not_exists(PK)", Item: model.Item{"type": model.Str("emailClaim"),
				"PK": model.Str("EMAIL#eve@example.com"), "SK": model.Str("#EMAIL"), "customerId": model.Str("5")}},
		}})
}

func TestEachRuleTriggersAndNearMissDoesNot(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range ruleCases {
		covered[c.rule] = true
		t.Run(c.rule, func(t *testing.T) {
			d := loadBase(t)
			c.trigger(d.Design)
			got := rulesOf(t, d)
			f, ok := got[c.rule]
			if !ok {
				t.Fatalf("the trigger design should raise %s; got %v", c.rule, keys(got))
			}
			if !strings.Contains(f.Message, c.wantInMessage) {
				t.Errorf("message %q should say %q", f.Message, c.wantInMessage)
			}
			if f.Fix == "" || !strings.HasPrefix(f.Source, "seeds/") {
				t.Errorf("a finding needs a fix and a seed source: %+v", f)
			}
			near := loadBase(t)
			if c.near != nil {
				c.near(near.Design)
			}
			if f, ok := rulesOf(t, near)[c.rule]; ok {
				t.Errorf("the near-identical design should not raise %s: %s", c.rule, f.Message)
			}
		})
	}
	for _, r := range review.Rules() {
		if !covered[r.ID] {
			t.Errorf("rule %s has no trigger/near-miss case", r.ID)
		}
	}
}

func keys(m map[string]review.Finding) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

func TestReviewSettingsTurnOffAndRegrade(t *testing.T) {
	d := loadBase(t)
	d.Table.Name = "Orders"
	d.Patterns = append(d.Patterns, model.Pattern{ID: 9, Name: "all", Operation: model.OpScan, Limit: 5})
	d.Review = []model.ReviewSetting{
		{Rule: "table-named-for-entity", Severity: "off", Reason: "legacy name, renamed next quarter"},
		{Rule: "scan-in-request-path", Severity: "warning", Reason: "admin page, 5 items"},
	}
	got := rulesOf(t, d)
	if _, ok := got["table-named-for-entity"]; ok {
		t.Error("a rule turned off should not report")
	}
	if f := got["scan-in-request-path"]; f.Severity != review.Warning {
		t.Errorf("re-graded rule severity = %q, want warning", f.Severity)
	}
}

// Every sample passes with no errors; relational-reflex fails with the rules its
// description promises.
func TestSamples(t *testing.T) {
	promised := []string{"scan-in-request-path", "filter-selects", "table-named-for-entity",
		"entity-named-key", "index-per-pattern", "missing-type", "missing-prefix"}
	for _, s := range samples.List() {
		d, err := samples.Load(s.Name)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		got := rulesOf(t, d)
		if s.Name == "relational-reflex" {
			for _, r := range promised {
				if _, ok := got[r]; !ok {
					t.Errorf("relational-reflex should raise %s", r)
				}
			}
			continue
		}
		for rule, f := range got {
			if f.Severity == review.Error {
				t.Errorf("%s: error finding %s: %s", s.Name, rule, f.Message)
			}
		}
	}
}

// The SARIF log carries the 2.1.0 schema's required fields: version and runs; each
// run's tool.driver.name; each result's message.text; and a location in the file.
func TestSARIFRequiredFields(t *testing.T) {
	d := loadBase(t)
	d.Table.Name = "Orders"
	a, _ := analysis.Run(d.Design, analysis.Options{Review: true, ItemPos: d.ItemPos})
	fs := a.Findings
	out, err := review.SARIF("designs/shop.yaml", fs)
	if err != nil {
		t.Fatal(err)
	}
	var log map[string]any
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatal(err)
	}
	if log["version"] != "2.1.0" {
		t.Errorf("version = %v", log["version"])
	}
	runs, _ := log["runs"].([]any)
	if len(runs) != 1 {
		t.Fatalf("runs = %v", log["runs"])
	}
	run := runs[0].(map[string]any)
	driver := run["tool"].(map[string]any)["driver"].(map[string]any)
	if driver["name"] != "stwb" {
		t.Errorf("driver name = %v", driver["name"])
	}
	results := run["results"].([]any)
	if len(results) == 0 {
		t.Fatal("expected a result for the table named for an entity")
	}
	for _, r := range results {
		res := r.(map[string]any)
		if res["message"].(map[string]any)["text"] == "" || res["ruleId"] == "" {
			t.Errorf("result without message or rule: %v", res)
		}
		loc := res["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
		if loc["artifactLocation"].(map[string]any)["uri"] != "designs/shop.yaml" {
			t.Errorf("location = %v", loc)
		}
		if region, ok := loc["region"].(map[string]any); !ok || region["startLine"].(float64) < 1 {
			t.Errorf("result without a line: %v", loc)
		}
	}
}

// expectError: a pattern whose point is to fail drifts when it succeeds, or fails
// another way; it passes when it fails as expected.
func TestExpectErrorDrift(t *testing.T) {
	cases := []struct {
		name      string
		change    func(p *model.Pattern)
		wantDrift string
	}{
		{"fails as expected", func(p *model.Pattern) {
			p.Values[":old"] = model.Str("CANCELLED")
			p.ExpectError = "ConditionalCheckFailedException"
		}, ""},
		{"succeeds though a failure is expected", func(p *model.Pattern) { p.ExpectError = "ConditionalCheckFailedException" },
			"succeeds; its expectError says ConditionalCheckFailedException"},
		{"fails though success is expected", func(p *model.Pattern) { p.Values[":old"] = model.Str("CANCELLED"); p.Expect = []model.Item{} },
			"fails with ConditionalCheckFailedException"},
	}
	for _, c := range cases {
		d := loadBase(t)
		c.change(pattern(d.Design, 4))
		f, ok := rulesOf(t, d)["expect-drift"]
		switch {
		case c.wantDrift == "" && ok:
			t.Errorf("%s: unexpected drift: %s", c.name, f.Message)
		case c.wantDrift != "" && !ok:
			t.Errorf("%s: no drift reported", c.name)
		case c.wantDrift != "" && !strings.Contains(f.Message, c.wantDrift):
			t.Errorf("%s: message %q lacks %q", c.name, f.Message, c.wantDrift)
		}
	}
}

// The unpadded-number rule compares byte-order neighbours only; these cases hold that
// it still finds every disagreement between byte order and number order, including
// one between siblings far apart in the file, and none among padded numbers.
func TestUnpaddedNumberNeighbours(t *testing.T) {
	for _, tc := range []struct {
		sks  []string
		want string // "" for no finding
	}{
		{[]string{"ORDER#sku-9", "ORDER#sku-10"}, `"ORDER#sku-10" sorts before "ORDER#sku-9"`},
		{[]string{"ORDER#sku-09", "ORDER#sku-10", "ORDER#sku-11"}, ""},
		// the inversion is between the first and the last written
		{[]string{"ORDER#sku-100", "ORDER#sku-200", "ORDER#sku-300", "ORDER#sku-20"}, `"ORDER#sku-100" sorts before "ORDER#sku-20"`},
		// 07 and 7 are the same number; the next run decides
		{[]string{"ORDER#sku-07-5", "ORDER#sku-7-3"}, `"ORDER#sku-07-5" sorts before "ORDER#sku-7-3"`},
		{[]string{"ORDER#sku-07-3", "ORDER#sku-7-5"}, ""},
		// different shapes are not siblings
		{[]string{"ORDER#sku-9", "ORDER#x10"}, ""},
	} {
		d := loadBase(t)
		addSKs(d.Design, tc.sks...)
		f, ok := rulesOf(t, d)["unpadded-number"]
		switch {
		case tc.want == "" && ok:
			t.Errorf("%v: unexpected finding %s", tc.sks, f.Message)
		case tc.want != "" && !ok:
			t.Errorf("%v: no finding, want %s", tc.sks, tc.want)
		case ok && !strings.Contains(f.Message, tc.want):
			t.Errorf("%v: finding %q, want %s", tc.sks, f.Message, tc.want)
		}
	}
}

func TestNumericallyAfter(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"sku-10", "sku-9", true}, {"sku-9", "sku-10", false}, {"sku-09", "sku-10", false},
		{"a007b", "a7b", false}, {"a07-5", "a7-3", true}, {"v2-10", "v2-9", true}, {"x", "y", false},
	} {
		if got := review.NumericallyAfter(tc.a, tc.b); got != tc.want {
			t.Errorf("numericallyAfter(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// stwb check reads a design as `stwb query` does (analysis.Load: each item read
// once, cost and review given only the attributes they read). Every rule's trigger
// design, written out and read both ways, gets the same findings, in the same
// places, and the same cost.
func TestRuleCasesLoadLazily(t *testing.T) {
	for _, c := range ruleCases {
		d := loadBase(t)
		c.trigger(d.Design)
		data, err := d.Marshal()
		if err != nil {
			t.Fatalf("%s: %v", c.rule, err)
		}
		lazy, lerr := analysis.Load("trigger.yaml", data, analysis.Options{Review: true})
		whole, err := designfile.Parse("trigger.yaml", data)
		if opensWithFinding[c.rule] && (err != nil || lerr != nil || !hasRule(lazy.Findings, c.rule)) {
			// A request or a table DynamoDB refuses is a finding, not a broken file.
			t.Errorf("%s: the trigger's file must open with the finding: read whole: %v; read lazily: %v", c.rule, err, lerr)
			continue
		}
		if err != nil {
			if lerr == nil || lerr.Error() != err.Error() {
				t.Errorf("%s: read whole: %v; read lazily: %v", c.rule, err, lerr)
			}
			continue
		}
		eager, err := analysis.Run(whole.Design, analysis.Options{Review: true, ItemPos: whole.ItemPos})
		if (err == nil) != (lerr == nil) || err != nil && err.Error() != lerr.Error() {
			t.Errorf("%s: run: %v; loaded: %v", c.rule, err, lerr)
			continue
		}
		if err != nil {
			continue
		}
		if got, want := findingsText(lazy.Findings), findingsText(eager.Findings); got != want {
			t.Errorf("%s: findings differ\nLoad: %s\nRun:  %s", c.rule, got, want)
		}
		lc, _ := json.Marshal(lazy.Cost)
		ec, _ := json.Marshal(eager.Cost)
		if string(lc) != string(ec) {
			t.Errorf("%s: cost differs\nLoad: %s\nRun:  %s", c.rule, lc, ec)
		}
	}
}

// opensWithFinding are the rules whose triggers the loader once refused (exit 2),
// so that they could never fire on a file; their files open now (issue 14).
var opensWithFinding = map[string]bool{"too-many-indexes": true, "item-too-large": true, "template-mismatch": true,
	"transaction-too-large": true, "consistent-read-on-gsi": true}

func hasRule(fs []review.Finding, rule string) bool {
	return slices.ContainsFunc(fs, func(f review.Finding) bool { return f.Rule == rule })
}

func findingsText(fs []review.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s %s %s %q\n", f.Pos, f.Severity, f.Rule, f.Message)
	}
	return b.String()
}

// prefixed is a regular expression written out by hand; both give the same answer.
func TestPrefixedIsItsExpression(t *testing.T) {
	re := regexp.MustCompile(`^(#?[A-Za-z][A-Za-z0-9_-]*#|#[A-Za-z]|[A-Z][A-Z0-9_]*$)`)
	for _, s := range []string{"", "#", "##", "#a", "#1", "CUST#42", "cust#42", "#CUST#", "c-1_x#", "c-1_x", "42",
		"PROFILE", "PROFILE1_X", "Profile", "PROFILE-1", "A", "a", "#METADATA", "1#x", "ORDER#", "ORDER", "_A#", "A_#b",
		"é#x", "ÉTAT", "#é", "A B", "STATUS#PENDING#2026-08-03", "-#", "a-#", "Ab#", "AB CD"} {
		if got, want := review.Prefixed(s), re.MatchString(s); got != want {
			t.Errorf("prefixed(%q) = %v, the expression says %v", s, got, want)
		}
	}
}

// An entity read only through a KEYS_ONLY index still is read: the entries carry no
// type attribute, but their table key finds the stored item (GSI.html "Attribute
// projections").
func TestEntityReadThroughKeysOnlyIndex(t *testing.T) {
	for _, proj := range []model.Projection{{Type: model.ProjectKeysOnly}, {Type: model.ProjectInclude, Include: []string{"total"}}} {
		d := loadBase(t)
		d.Table.Indexes[0].Projection = proj
		d.Patterns = []model.Pattern{*pattern(d.Design, 1), *pattern(d.Design, 3), *pattern(d.Design, 4)}
		if f, ok := rulesOf(t, d)["entity-unread"]; ok {
			t.Errorf("%s: %s", proj.Type, f.Message)
		}
	}
}

// An item over 400 KB is left out of review's key counts as of the engine's and the
// cost's (model.StoredItems): AWS's creation-date key (bp-partition-key-design.html)
// keeps its verdict, "2 values of p in 2 event samples read as dates or times", when a
// third event sample, over 400 KB and with a p that is no date, sits beside them;
// counted, it made p "many values" and the hot key vanished. Read whole and lazily.
func TestReviewKeyCountsLeaveOutItemsOverTheLimit(t *testing.T) {
	data := []byte(`version: 1
name: creation-date
table:
  name: events
  key: {partition: PK, sort: SK}
entities:
  - name: event
    keys: {PK: "EV#{p}", SK: "{q}"}
    attributes: {p: S, q: S}
    count: 100000000
items:
  - {type: event, p: "2026-08-01", q: "2026-08-01T10:00:00Z"}
  - {type: event, p: "2026-08-02", q: "2026-08-02T11:30:00Z"}
  - {type: event, p: "a7", q: "2026-08-02T11:31:00Z", blob: "` + strings.Repeat("b", model.MaxItemSize) + `"}
patterns:
  - id: 1
    name: Record an event
    rate: 5000
    operation: PutItem
    item: {type: event, PK: "EV#2026-08-03", SK: "2026-08-03T09:00:00Z", p: "2026-08-03", q: "2026-08-03T09:00:00Z"}
`)
	whole, err := designfile.Parse("d.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	eager, err := analysis.Run(whole.Design, analysis.Options{Review: true, ItemPos: whole.ItemPos})
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := analysis.Load("d.yaml", data, analysis.Options{Review: true})
	if err != nil {
		t.Fatal(err)
	}
	for name, a := range map[string]*analysis.Analysis{"whole": eager, "lazy": lazy} {
		if !hasRule(a.Findings, "item-too-large") {
			t.Errorf("%s: no item-too-large finding: %s", name, findingsText(a.Findings))
		}
		// hot-partition reads the cost's key counts, low-cardinality-key review's own.
		for _, rule := range []string{"hot-partition", "low-cardinality-key"} {
			f := slices.IndexFunc(a.Findings, func(f review.Finding) bool { return f.Rule == rule })
			if f < 0 || !strings.Contains(a.Findings[f].Message, "2 values of p in 2 event samples read as dates or times") {
				t.Errorf("%s: %s counts the item DynamoDB would not store: %s", name, rule, findingsText(a.Findings))
			}
		}
		if f := slices.IndexFunc(a.Findings, func(f review.Finding) bool { return f.Rule == "entity-unread" }); f < 0 || !strings.Contains(a.Findings[f].Message, "(2 sample items,") {
			t.Errorf("%s: entity-unread counts the item DynamoDB would not store: %s", name, findingsText(a.Findings))
		}
	}
}

// addShardedDay adds a day's log written at 2,000 a second over n shards
// (partitions: n) and read back by a fan-out over the n shards.
func addShardedDay(d *model.Design, n int64) {
	d.Entities = append(d.Entities, model.Entity{Name: "dayOrder", Count: 1000,
		Keys:       map[string]string{"PK": "DAY#{day}#{shard}", "SK": "O#{orderId}"},
		Attributes: []model.EntityAttribute{{Name: "day", Type: model.TypeS}, {Name: "shard", Type: model.TypeS}, {Name: "orderId", Type: model.TypeS}}})
	for i := int64(0); i < n; i++ {
		s := fmt.Sprint(i)
		d.Items = append(d.Items, model.Item{"type": model.Str("dayOrder"), "PK": model.Str("DAY#2026-08-03#" + s), "SK": model.Str("O#" + s),
			"day": model.Str("2026-08-03"), "shard": model.Str(s), "orderId": model.Str(s)})
	}
	d.Patterns = append(d.Patterns,
		model.Pattern{ID: 10, Name: "log an order", Operation: model.OpPutItem, Rate: 2000, Partitions: n,
			Item: model.Item{"type": model.Str("dayOrder"), "PK": model.Str("DAY#2026-08-03#1"), "SK": model.Str("O#x"),
				"day": model.Str("2026-08-03"), "shard": model.Str("1"), "orderId": model.Str("x")}},
		model.Pattern{ID: 11, Name: "read the day", Operation: model.OpQuery, KeyCondition: "PK = :pk",
			Values: map[string]model.Value{":pk": model.Str("DAY#2026-08-03#{shard}")},
			Fanout: &model.Fanout{Var: "shard", Range: fmt.Sprintf("0..%d", n-1), Values: shardValues(n)}})
}

func shardValues(n int64) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprint(i)
	}
	return out
}

// entity-unread says the design gives no count, not "0 in production", of an
// entity without `count` (found in a tmux walk-through of a new design).
func TestEntityUnreadWithoutCount(t *testing.T) {
	f, err := designfile.Parse("d.yaml", []byte(`version: 1
name: new
table:
  name: new
  key: {partition: PK, sort: SK}
entities:
  - name: customer
    keys: {PK: "CUST#{customerId}", SK: PROFILE}
    attributes: {customerId: S}
  - name: order
    keys: {PK: "CUST#{customerId}", SK: "ORDER#{orderId}"}
    attributes: {customerId: S, orderId: S}
    count: 5000
items:
  - {type: customer, customerId: c1}
  - {type: customer, customerId: c2}
  - {type: order, customerId: c1, orderId: o1}
patterns:
  - {id: 1, name: none, operation: GetItem, key: {PK: "CUST#x", SK: PROFILE}}
`))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := analysis.Run(f.Design, analysis.Options{Review: true, ItemPos: f.ItemPos})
	want := map[string]string{"customer": "(2 sample items, no count in the design)", "order": "(1 sample item, 5,000 in production)"}
	for _, fd := range a.Findings {
		if fd.Rule == "entity-unread" {
			if !strings.Contains(fd.Message, want[fd.Entity]) {
				t.Errorf("entity-unread on %s: %q, want %q in it", fd.Entity, fd.Message, want[fd.Entity])
			}
			delete(want, fd.Entity)
		}
	}
	if len(want) > 0 {
		t.Errorf("no entity-unread finding on %v: %s", want, findingsText(a.Findings))
	}
}

// A pattern item's type mismatch points at the item as written, in the whole and the
// lazily read design alike (the file:line:col `stwb check` prints).
func TestAttributeTypeMismatchPointsAtThePatternItem(t *testing.T) {
	data := []byte(`version: 1
name: pattern-items
table:
  name: t-data
  key: {partition: PK, sort: SK}
entities:
  - {name: e1, keys: {PK: "A#{x}", SK: P}, attributes: {x: S, w: S}}
items:
  - {type: e1, PK: "A#1", SK: P, x: "1", w: "5e61"}
patterns:
  - id: 1
    name: Write one
    operation: PutItem
    item: {type: e1, PK: "A#2", SK: P, x: "2", w: 5e61}
  - id: 2
    name: Write two
    operation: TransactWriteItems
    actions:
      - put: {type: e1, PK: "A#3", SK: P, x: "3", w: "ok"}
      - put: {type: e1, PK: "A#4", SK: P, x: "4", w: true}
`)
	whole, err := designfile.Parse("d.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	eager, _ := analysis.Run(whole.Design, analysis.Options{Review: true, ItemPos: whole.ItemPos})
	lazy, _ := analysis.Load("d.yaml", data, analysis.Options{Review: true})
	want := []string{
		`d.yaml:14:11 pattern 1 pattern 1's item's w is N 5e61, but entity e1 declares w: S; YAML read the unquoted 5e61 as N: write w: "5e61"`,
		`d.yaml:20:14 pattern 2 pattern 2's action 2 (put)'s w is BOOL true, but entity e1 declares w: S; YAML read the unquoted true as BOOL: write w: "true"`,
	}
	for name, a := range map[string]*analysis.Analysis{"whole": eager, "lazy": lazy} {
		var got []string
		for _, f := range a.Findings {
			if f.Rule == "attribute-type-mismatch" {
				got = append(got, fmt.Sprintf("%s pattern %d %s", f.Pos, f.Pattern, f.Message))
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: attribute-type-mismatch findings\n%s\nwant\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
