package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The chat room at 20 times the write limit (testdata/classic/chatroom.yaml) on
// each kind of table the design can declare (issue 21): split for heat is a
// conditional credit (hot-until-split) unless the table is provisioned with a
// stream, where DynamoDB does not split for heat (burst-adaptive-capacity.html,
// the case limits.go's SplitFor names), and the room is then plainly hot. A GSI has
// no stream of its own: the same room read through one still may split.
func TestProvisionedTableWithStreamsIsNotSplitForHeat(t *testing.T) {
	room, err := os.ReadFile(filepath.Join("testdata", "classic", "chatroom.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	table := func(lines string) []byte {
		b := bytes.Replace(room, []byte("  key: {partition: PK, sort: SK}\n"), []byte("  key: {partition: PK, sort: SK}\n"+lines), 1)
		if bytes.Equal(b, room) {
			t.Fatal("chatroom.yaml has no table key line to add to")
		}
		return b
	}
	const provisioned = "  billing: {provisioned: {read: 100, write: 30000}}\n"
	for _, tc := range []struct {
		name   string
		design []byte
		rule   string
		inMsg  string
	}{
		{"on-demand, no stream", room, "hot-until-split", "throttles until DynamoDB splits it"},
		{"on-demand with a stream", table("  stream: new-image\n"), "hot-until-split", "throttles until DynamoDB splits it"},
		{"provisioned, no stream", table(provisioned), "hot-until-split", "throttles until DynamoDB splits it"},
		{"provisioned with a stream", table(provisioned + "  stream: new-and-old-images\n"), "hot-partition", "a provisioned table with Streams is not split for heat"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run([]string{"check", "--json", "-"}, bytes.NewReader(tc.design), &out, &errb)
			var rep checkReport
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
				t.Fatalf("check --json: %v\n%s%s", err, out.String(), errb.String())
			}
			if code != 1 {
				t.Errorf("check: exit %d, want 1 (the room throttles)", code)
			}
			var rules []string
			found := false
			for _, f := range rep.Findings {
				rules = append(rules, f.Rule)
				if f.Rule == "hot-until-split" && tc.rule != "hot-until-split" {
					t.Errorf("a %s finding on a table DynamoDB does not split: %s", f.Rule, f.Message)
				}
				if f.Rule == tc.rule && strings.Contains(f.Message, `"ROOM#{room}"`) && strings.Contains(f.Message, "20,000 WCU") &&
					strings.Contains(f.Message+" "+f.Assumed, tc.inMsg) {
					found = true
				}
			}
			if !found {
				t.Errorf("no %s finding on ROOM#{room} says %q; rules %v:\n%s", tc.rule, tc.inMsg, rules, out.String())
			}
		})
	}
}
