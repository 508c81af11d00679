package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A fan-out pattern through every command (docs/FORMAT.md "Fan-out patterns";
// bp-write-sharding.html: query every shard, then merge): daily-orders-sharded's
// pattern 2 reads the ten shards of a day as ten Queries, merged by SK.
func TestFanoutThroughCommands(t *testing.T) {
	path := filepath.Join("..", "..", "samples", "daily-orders-sharded.yaml")

	// stwb query --json: the merged result, then each request.
	code, out, errText := runCmd(t, "", "query", path, "2", "--json")
	if code != 0 {
		t.Fatalf("query: exit %d: %s", code, errText)
	}
	var q struct {
		Items []map[string]map[string]string `json:"items"`
		Count int                            `json:"count"`
		Used  struct {
			Units float64 `json:"capacityUnits"`
		} `json:"consumedCapacity"`
		Requests []struct {
			Value string `json:"value"`
			Count int    `json:"count"`
			Used  struct {
				Units float64 `json:"capacityUnits"`
			} `json:"consumedCapacity"`
		} `json:"requests"`
	}
	if err := json.Unmarshal([]byte(out), &q); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// 21 orders of 2026-08-03 over ten shards, merged by SK (placedAt first); each
	// shard's Query reads under 4 KB, 0.5 RCU, so the call is 10 x 0.5 = 5 RCU.
	if q.Count != 21 || len(q.Items) != 21 || q.Used.Units != 5 || len(q.Requests) != 10 {
		t.Fatalf("query: count %d, %d items, %v RCU, %d requests; want 21, 21, 5, 10", q.Count, len(q.Items), q.Used.Units, len(q.Requests))
	}
	if first, last := q.Items[0]["SK"]["S"], q.Items[20]["SK"]["S"]; first != "ORDER#2026-08-03T00:03:41Z#1b7c" || last != "ORDER#2026-08-03T23:55:00Z#e4a6" {
		t.Errorf("merged order: first %s, last %s", first, last)
	}
	for i := 1; i < len(q.Items); i++ {
		if q.Items[i-1]["SK"]["S"] > q.Items[i]["SK"]["S"] {
			t.Errorf("items %d and %d are not in SK order", i-1, i)
		}
	}
	if r := q.Requests[0]; r.Value != "0" || r.Count != 3 || r.Used.Units != 0.5 {
		t.Errorf("request 0: %+v, want value 0, count 3, 0.5 RCU", r)
	}

	// stwb check: the expect (the merged keys) holds; the note weighs the fan-out
	// against the writes: 2,000 WCU/s need ceil(2,000 / 800) = 3 shards.
	code, out, _ = runCmd(t, "", "check", path)
	if code != 0 || !strings.Contains(out, "[fanout-read-cost]") || !strings.Contains(out, "need 3 shards = ceil(2,000 WCU / (1,000 x 0.8)), so each read pays 10 requests where 3 would do") {
		t.Errorf("check: exit %d\n%s", code, out)
	}

	// stwb cost: one call is the ten requests, each on its production page: a shard
	// holds a day of its tenth of 2,000 writes a second (17,280,000 orders), so each
	// Query reads Limit 1,000 items of 152 bytes, 19 RCU; each shard key takes 1
	// request a second (19 RCU) beside its 200 WCU of writes.
	code, out, _ = runCmd(t, "", "cost", path)
	if code != 0 || !strings.Contains(out, "fan-out: 10 requests a call, each billed on its own: 190 RCU a call") ||
		!strings.Contains(out, "about 17,280,000 items") {
		t.Errorf("cost text: exit %d\n%s", code, out)
	}
	code, out, _ = runCmd(t, "", "cost", path, "--json")
	var c struct {
		Patterns []struct {
			ID         int `json:"id"`
			Requests   int `json:"requests"`
			PerRequest struct {
				Read float64 `json:"read"`
			} `json:"perRequest"`
		} `json:"patterns"`
		Keys []struct {
			Value    string  `json:"value"`
			Read     float64 `json:"read"`
			Write    float64 `json:"write"`
			Patterns []int   `json:"patterns"`
		} `json:"keys"`
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil || code != 0 {
		t.Fatalf("cost --json: exit %d, %v", code, err)
	}
	if p := c.Patterns[1]; p.ID != 2 || p.Requests != 10 || p.PerRequest.Read != 190 {
		t.Errorf("cost --json pattern 2: %+v, want 10 requests, 190 RCU a call", p)
	}
	if len(c.Keys) != 1 || c.Keys[0].Value != "ORDERS#{orderDay:current}#{shard}" || math.Abs(c.Keys[0].Read-19) > 1e-9 || c.Keys[0].Write != 200 || len(c.Keys[0].Patterns) != 2 {
		t.Errorf("cost --json keys: %+v; want one shard key, hottest 19 RCU and 200 WCU, patterns 1 and 2", c.Keys)
	}
}

// --all-pages and `pages: all` price every page of the production result, each page
// billed on its own (Query.html: a page ends at Limit or 1 MB): the orders sample's
// status dashboard (pattern 4, Limit 100) reads STATUS#SHIPPED, about 25,000,000
// entries of 169 bytes: 250,000 pages of 100, each ceil(16,867 B / 4 KB) x 0.5 =
// 2.5 RCU, 625,000 RCU in all.
func TestCostAllPages(t *testing.T) {
	path := filepath.Join("..", "..", "samples", "orders.yaml")
	page := func(args ...string) (pages, read float64, all bool) {
		t.Helper()
		code, out, errText := runCmd(t, "", append([]string{"cost", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("cost %v: exit %d %s", args, code, errText)
		}
		var c struct {
			Patterns []struct {
				ID   int `json:"id"`
				Page struct {
					Pages    float64 `json:"pages"`
					Read     float64 `json:"read"`
					AllPages bool    `json:"allPages"`
				} `json:"page"`
			} `json:"patterns"`
		}
		if err := json.Unmarshal([]byte(out), &c); err != nil {
			t.Fatal(err)
		}
		for _, p := range c.Patterns {
			if p.ID == 4 {
				return p.Page.Pages, p.Page.Read, p.Page.AllPages
			}
		}
		t.Fatal("no pattern 4")
		return
	}
	if n, rcu, all := page(path); n != 250000 || rcu != 2.5 || all {
		t.Errorf("first page: %v pages, %v RCU, all %v; want 250,000 pages in all, 2.5 RCU for the first", n, rcu, all)
	}
	if n, rcu, all := page(path, "--all-pages"); n != 250000 || rcu != 625000 || !all {
		t.Errorf("--all-pages: %v pages, %v RCU, all %v; want 250,000 pages, 625,000 RCU", n, rcu, all)
	}
	code, out, _ := runCmd(t, "", "cost", path, "--all-pages")
	if code != 0 || !strings.Contains(out, "every page in production: 250,000 pages, 25,000,000 items") {
		t.Errorf("cost --all-pages text: exit %d\n%s", code, out)
	}
	// The same from the pattern's own `pages: all`.
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	own := strings.Replace(string(src), "    limit: 100\n", "    limit: 100\n    pages: all\n", 1)
	if own == string(src) {
		t.Fatal("no limit: 100 in the orders sample")
	}
	mine := filepath.Join(t.TempDir(), "orders.yaml")
	if err := os.WriteFile(mine, []byte(own), 0o644); err != nil {
		t.Fatal(err)
	}
	if n, rcu, all := page(mine); n != 250000 || rcu != 625000 || !all {
		t.Errorf("pages: all: %v pages, %v RCU, all %v; want 250,000 pages, 625,000 RCU", n, rcu, all)
	}
}

// A hot key's fix gives the shards with headroom, ceil(load / (limit x 0.8)), and
// what they cost the patterns that read the key (bp-write-sharding.html): the
// status-code design's GSI1 key S#PENDING takes 4,000 WCU/s, so 5 shards; its 2,000
// WCU/s key, 3 shards, is read by pattern 3, whose 1 MB page (128.5 RCU) becomes
// three 1 MB pages, one a shard.
func TestHotKeyShardAdvice(t *testing.T) {
	code, out, _ := runCmd(t, "", "check", filepath.Join("testdata", "badkeys", "status-code.yaml"))
	for _, want := range []string{
		"spread over 5 shards = ceil(4,000 WCU / (1,000 x 0.8)), each sized to 80% of a partition's limits for headroom",
		`fan out over the shards (fanout: {shard: "0..2"}): pattern 3 becomes 3 requests a call, 385.5 RCU (now 128.5)`,
	} {
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("check: exit %d, no %q in\n%s", code, want, out)
		}
	}
}
