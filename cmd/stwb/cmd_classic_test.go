package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The classic hot-key cases of the AWS guide and the seeds, each through `stwb
// check` (issue 21): the verdict the guide gives, the figure, and the advice
// applied to the design (as a user would edit it) passing check. The designs in
// testdata/classic cite their pages: burst-adaptive-capacity.html ("Isolate
// frequently accessed items": an isolated item still gets at most 3,000 RCU /
// 1,000 WCU; no split for a monotonic sort key or with an LSI),
// bp-partition-key-design.html (status codes; the 20 KB item's 600 consistent reads
// a second), bp-write-sharding.html and bp-partition-key-sharding.html (write
// sharding).
func TestClassicHotKeyCases(t *testing.T) {
	file := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", "classic", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	replace := func(b []byte, pairs ...string) []byte {
		for i := 0; i < len(pairs); i += 2 {
			nb := bytes.ReplaceAll(b, []byte(pairs[i]), []byte(pairs[i+1]))
			if bytes.Equal(nb, b) {
				t.Fatalf("the design has no %q to replace", pairs[i])
			}
			b = nb
		}
		return b
	}
	seq := file("sequence.yaml")
	status := file("status.yaml")
	readHot := file("read-hot.yaml")
	cases := []struct {
		name   string
		design []byte
		rule   string
		inMsg  []string
		inFix  []string
		notFix string
		// applied is the design with the fix applied; check must pass it.
		applied []byte
	}{
		{name: "a counter item written by two code paths", design: file("counter.yaml"), rule: "hot-partition",
			inMsg: []string{"1,400 WCU a second", `on one item, "TEAM#home", which no split divides`},
			inFix: []string{"2 shards = ceil(1,400 WCU / (1,000 x 0.8))"},
			// Two shards of the counter, each write to one at random: partitions: 2.
			applied: replace(file("counter.yaml"), "rate: 700,", "rate: 700, partitions: 2,")},
		{name: "a status key every new item starts in (declared values)", design: status, rule: "hot-partition",
			inMsg:   []string{`index GSI1's key "STATUS#PENDING"`, "1,200 WCU a second", "throttles writes to the base table", "order's values: status has 4, few"},
			inFix:   []string{"2 shards"},
			applied: replace(status, "rate: 1200\n", "rate: 1200\n    partitions: {GSI1: 2}\n")},
		{name: "the same status key, its few values read from the samples", design: replace(status, "    values: {status: 4}\n", ""), rule: "hot-partition",
			inMsg: []string{`"STATUS#PENDING"`, "1,200 WCU a second", "2 distinct values of status in 4 order samples"}},
		{name: "a status key's low-cardinality-key, declared or inferred alike", design: status, rule: "low-cardinality-key",
			inMsg: []string{`"STATUS#{status}" has few values`, "takes 0 RCU and 1,200 WCU a second"}},
		{name: "a zero-padded sequence sort key", design: seq, rule: "hot-partition",
			inMsg:   []string{"1,400 WCU a second", "a zero-padded sequence", "no split helps"},
			applied: replace(seq, "partitions: 1,", "partitions: 2,")},
		{name: "a ULID sort key", design: replace(seq, `"000001"`, "01J4ZQ3Z8K6W2V0M5N7P9R1S3T", `"000002"`, "01J4ZQ40A2B3C4D5E6F7G8H9JK", `"000003"`, "01J4ZQ4ABCDEFGHJKMNPQRSTVW"),
			rule: "hot-partition", inMsg: []string{"1,400 WCU a second", "ULIDs"}},
		{name: "a KSUID sort key", design: replace(seq, `"000001"`, "2zLh9GqFJkPcU0pM7dVqVxE1vNa", `"000002"`, "2zLh9HbKQ3xT1RrN8eWsYzF2wOb", `"000003"`, "2zLh9JcMR4yU2SsO9fXtZaG3xPc"),
			rule: "hot-partition", inMsg: []string{"1,400 WCU a second", "KSUIDs"}},
		{name: "a UUIDv7 sort key", design: replace(seq, `"000001"`, "01912d68-7c3a-7b2e-9d4f-1a2b3c4d5e6f", `"000002"`, "01912d68-8d4b-7c3f-8e5a-2b3c4d5e6f70", `"000003"`, "01912d68-9e5c-7d4a-9f6b-3c4d5e6f7081"),
			rule: "hot-partition", inMsg: []string{"1,400 WCU a second", "UUIDv7s"}},
		{name: "an epoch-seconds sort key", design: replace(seq, `"000001"`, `"1785571200"`, `"000002"`, `"1785571201"`, `"000003"`, `"1785571202"`),
			rule: "hot-partition", inMsg: []string{"1,400 WCU a second", "dates or times"}},
		{name: "the same device under a random sort key: hot until split", design: replace(seq, `"000001"`, "c4e1", `"000002"`, "07ab", `"000003"`, "9d2f"),
			rule: "hot-until-split", inMsg: []string{"1,400 WCU a second", "throttles until DynamoDB splits it", "the split is not guaranteed"}},
		{name: "a chat room at 20 times the limit", design: file("chatroom.yaml"), rule: "hot-until-split",
			inMsg:   []string{`"ROOM#{room}"`, "20,000 WCU a second", "throttles until DynamoDB splits it", "never divides one item, never happens with an LSI, nor on a provisioned table with Streams"},
			inFix:   []string{"25 shards = ceil(20,000 WCU / (1,000 x 0.8))"},
			applied: replace(file("chatroom.yaml"), "rate: 20000, partitions: 1,", "rate: 20000, partitions: 25,")},
		{name: "a read-hot item: eventually consistent reads", design: readHot, rule: "hot-partition",
			inMsg:   []string{"3,500 RCU", `on one item, "CONFIG"`},
			inFix:   []string{"read eventually consistent (consistent: false on pattern 1): half the read units, 1,750 RCU", "cache"},
			notFix:  "shard the key",
			applied: replace(readHot, "consistent: true,", "consistent: false,")},
		{name: "a read-hot item: copies, each read to one", design: readHot, rule: "hot-partition",
			inFix:   []string{"keep 2 copies", "partitions: 2 on pattern 1", "40 WCU a second in all"},
			applied: replace(readHot, "rate: 700,", "rate: 700, partitions: 2,")},
	}
	check := func(design []byte) (int, checkReport, string) {
		var out, errb bytes.Buffer
		code := run([]string{"check", "--json", "-"}, bytes.NewReader(design), &out, &errb)
		var rep checkReport
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatalf("check --json: %v\n%s%s", err, out.String(), errb.String())
		}
		return code, rep, out.String()
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, rep, js := check(c.design)
			if code != 1 && c.rule != "low-cardinality-key" {
				t.Errorf("check: exit %d, want 1 (the design throttles)", code)
			}
			found := false
			for _, f := range rep.Findings {
				if f.Rule != c.rule {
					continue
				}
				ok := f.Assumed != ""
				for _, w := range c.inMsg {
					ok = ok && strings.Contains(f.Message, w)
				}
				for _, w := range c.inFix {
					ok = ok && strings.Contains(f.Fix, w)
				}
				if c.notFix != "" && strings.Contains(f.Fix, c.notFix) {
					t.Errorf("the fix offers %q, which applied leaves the key hot: %s", c.notFix, f.Fix)
				}
				found = found || ok
			}
			if !found {
				t.Errorf("no %s finding says %q with fix %q:\n%s", c.rule, c.inMsg, c.inFix, js)
			}
			if c.applied == nil {
				return
			}
			code, rep, js = check(c.applied)
			for _, f := range rep.Findings {
				if f.Rule == "hot-partition" || f.Rule == "hot-until-split" {
					t.Errorf("the advice applied still gives %s: %s", f.Rule, f.Message)
				}
			}
			if code != 0 {
				t.Errorf("the advice applied: check exits %d, want 0\n%s", code, js)
			}
		})
	}
}
