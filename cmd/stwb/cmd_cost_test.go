package main

import (
	"bytes"
	"encoding/json"
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
