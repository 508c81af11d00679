package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCostCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"cost"}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// The command-line contract of `stwb cost` (issue 3, FORMAT.md "Command-line
// contract"): exit status, output kind and the messages that say what to do.
func TestCostCommand(t *testing.T) {
	orders := filepath.Join("..", "..", "samples", "orders.yaml")
	src, err := os.ReadFile(orders)
	if err != nil {
		t.Fatal(err)
	}
	prices := filepath.Join(t.TempDir(), "prices.yaml")
	os.WriteFile(prices, []byte(`regions:
  eu-west-1:
    standard: {readRequestUnitPerMillion: 0.1415, writeRequestUnitPerMillion: 0.7075, rcuHour: 0.000147, wcuHour: 0.000735, storageGBMonth: 0.283, freeStorageGB: 25}
`), 0o644)
	cases := []struct {
		name    string
		stdin   string
		args    []string
		code    int
		out     []string // substrings of stdout
		errText []string // substrings of stderr
	}{
		{"text", "", []string{orders}, 0, []string{"Cost of orders", "on-demand $", "provisioned $", "Storage", "Totals", "free tier"}, nil},
		{"json", "", []string{orders, "--json"}, 0, []string{`"region": "us-east-1"`, `"perRequest"`, `"hotPartition"`, `"storage"`}, nil},
		{"stdin", string(src), []string{"-"}, 0, []string{"Cost of orders"}, nil},
		{"vs", "", []string{orders, "--vs", orders}, 0, []string{"Comparing A", "ratio", "1x"}, nil},
		{"unknown region", "", []string{orders, "--region", "eu-west-1"}, 2, nil, []string{"no prices for region eu-west-1", "--prices FILE"}},
		{"region from a prices file", "", []string{orders, "--region=eu-west-1", "--prices", prices}, 0, []string{"eu-west-1", "$0.1415 per million read"}, nil},
		{"bad prices file", "", []string{orders, "--prices", orders}, 2, nil, []string{"orders.yaml:", "unknown key"}},
		{"no file", "", nil, 2, nil, []string{"usage: stwb cost FILE"}},
		{"missing file", "", []string{"nope.yaml"}, 2, nil, []string{"nope.yaml"}},
		{"both stdin", "", []string{"-", "--vs", "-"}, 2, nil, []string{"standard input"}},
		{"bad flag", "", []string{orders, "--cheap"}, 2, nil, []string{"cheap"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errText := runCostCmd(t, c.stdin, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, c.code, errText)
			}
			for _, w := range c.out {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			for _, w := range c.errText {
				if !strings.Contains(errText, w) {
					t.Errorf("stderr lacks %q: %s", w, errText)
				}
			}
		})
	}
}

// --json has at least the shape the issue gives.
func TestCostJSONShape(t *testing.T) {
	code, out, errText := runCostCmd(t, "", filepath.Join("..", "..", "samples", "orders.yaml"), "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errText)
	}
	var doc struct {
		Region   *string `json:"region"`
		Patterns []struct {
			ID         *int     `json:"id"`
			Name       *string  `json:"name"`
			Operation  *string  `json:"operation"`
			Rate       *float64 `json:"rate"`
			PerRequest struct {
				Read    *float64           `json:"read"`
				Write   *float64           `json:"write"`
				Table   *float64           `json:"table"`
				Indexes map[string]float64 `json:"indexes"`
			} `json:"perRequest"`
			PerSecond struct {
				Read  *float64 `json:"read"`
				Write *float64 `json:"write"`
			} `json:"perSecond"`
			Monthly struct {
				OnDemand    *float64 `json:"onDemand"`
				Provisioned *float64 `json:"provisioned"`
			} `json:"monthly"`
			Hot struct {
				Read       *float64 `json:"read"`
				Write      *float64 `json:"write"`
				Partitions *int64   `json:"partitions"`
				Exceeds    *bool    `json:"exceeds"`
				Shards     *int64   `json:"shards"`
			} `json:"hotPartition"`
		} `json:"patterns"`
		Storage struct {
			Table *struct {
				Items   *int64   `json:"items"`
				Bytes   *int64   `json:"bytes"`
				Monthly *float64 `json:"monthly"`
			} `json:"table"`
			Indexes map[string]struct {
				Items *int64 `json:"items"`
			} `json:"indexes"`
		} `json:"storage"`
		Monthly struct {
			OnDemand    *float64 `json:"onDemand"`
			Provisioned *float64 `json:"provisioned"`
			Storage     *float64 `json:"storage"`
		} `json:"monthly"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Region == nil || len(doc.Patterns) == 0 || doc.Storage.Table == nil || doc.Storage.Table.Bytes == nil ||
		doc.Monthly.OnDemand == nil || doc.Monthly.Provisioned == nil || doc.Monthly.Storage == nil {
		t.Fatalf("top-level fields missing: %s", out)
	}
	for _, p := range doc.Patterns {
		if p.ID == nil || p.Name == nil || p.Operation == nil || p.Rate == nil || p.PerRequest.Read == nil ||
			p.PerRequest.Write == nil || p.PerRequest.Table == nil || p.PerRequest.Indexes == nil ||
			p.PerSecond.Read == nil || p.PerSecond.Write == nil || p.Monthly.OnDemand == nil || p.Monthly.Provisioned == nil ||
			p.Hot.Read == nil || p.Hot.Write == nil || p.Hot.Partitions == nil || p.Hot.Exceeds == nil || p.Hot.Shards == nil {
			t.Errorf("pattern lacks a field of the issue's shape: %+v", p)
		}
		if _, ok := p.PerRequest.Indexes["GSI1"]; !ok {
			t.Errorf("pattern %d: perRequest.indexes lacks GSI1", *p.ID)
		}
	}
	if _, ok := doc.Storage.Indexes["GSI1"]; !ok {
		t.Error("storage.indexes lacks GSI1")
	}
}

// TestCostAtTheLimits: the largest rate, count and capacity the design file accepts
// (model.MaxRate, MaxCount, 2^40) give figures that are whole and positive: nothing
// wraps around to a negative bill or a negative storage size. One past a limit is
// refused with the range named (exit 2).
func TestCostAtTheLimits(t *testing.T) {
	var ix, keys strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&ix, "    - {name: GSI%d, key: {partition: G%d, sort: SK}}\n", i, i)
		fmt.Fprintf(&keys, ", G%d: g", i)
	}
	design := func(rate, count string) string {
		return "version: 1\nname: limits\ntable:\n  name: limits-data\n  key: {partition: PK, sort: SK}\n" +
			"  billing: {provisioned: {read: 1099511627776, write: 1099511627776}}\n  indexes:\n" + ix.String() +
			"entities:\n  - {name: big, count: " + count + "}\n" +
			"items:\n  - {PK: p, SK: s, type: big" + keys.String() + ", blob: " + strings.Repeat("x", 400_000) + "}\n" +
			"patterns:\n  - {id: 1, operation: PutItem, rate: " + rate + ", item: {PK: p, SK: s, type: big" + keys.String() +
			", blob: " + strings.Repeat("y", 400_000) + "}}\n" +
			"  - {id: 2, operation: Query, key: \"PK = :p\", values: {\":p\": p}, rate: " + rate + "}\n"
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "limits.yaml")
	if err := os.WriteFile(file, []byte(design("1000000000", "500000000000")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errText := runCostCmd(t, "", file, "--json")
	if code != 0 {
		t.Fatalf("cost at the limits: exit %d: %s", code, errText)
	}
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	var walk func(path string, v any)
	numbers := 0
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(path+"."+k, e)
			}
		case []any:
			for i, e := range x {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		case float64:
			numbers++
			if x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
				t.Errorf("%s = %v at the limits", path, x)
			}
		}
	}
	walk("$", v)
	if numbers < 20 || !strings.Contains(out, `"bytes"`) {
		t.Fatalf("the report has %d numbers; the walk did not see it:\n%.2000s", numbers, out)
	}
	code, out, _ = runCostCmd(t, "", file)
	if code != 0 || strings.Contains(out, "-") && strings.Contains(out, "$-") {
		t.Errorf("text report at the limits: exit %d, a negative dollar figure:\n%.3000s", code, out)
	}
	for _, c := range []struct{ rate, count, want string }{
		{"1e20", "1", "rate 1e+20 is out of the range"},
		{"1", "500000000001", "count 500,000,000,001 is out of the range"},
	} {
		os.WriteFile(file, []byte(design(c.rate, c.count)), 0o644)
		if code, _, errText := runCostCmd(t, "", file); code != 2 || !strings.Contains(errText, c.want) {
			t.Errorf("rate %s count %s: exit %d %q, want 2 naming the range", c.rate, c.count, code, errText)
		}
	}
}
