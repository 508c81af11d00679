package main

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/credentials"

	"stwb/designfile"
	"stwb/internal/dynalitetest"
	"stwb/live"
	"stwb/model"
	"stwb/samples"
	"stwb/serve"
)

// A live table becomes a design (issue 16): against dynalite, a table of 100,000
// items (10,000 with -short) loaded with parallel BatchWriteItem, imported with a
// sample of 500: the read cost is printed before the Scan runs, the Scan reads a
// bounded sample (never the table), and the design has the table's keys, index and
// the entities and key templates of the items.
func TestImportLiveTable(t *testing.T) {
	n := 100000
	if testing.Short() {
		n = 10000
	}
	endpoint := dynalitetest.StartWith(t, dynalitetest.Options{CreateTableMs: 1, DeleteTableMs: 1})
	ctx := context.Background()
	db, err := live.NewClient(ctx, live.Config{Endpoint: endpoint, Region: "us-east-1",
		Credentials: credentials.NewStaticCredentialsProvider("test", "test", "")})
	if err != nil {
		t.Fatal(err)
	}
	d := &model.Design{Name: "shop", Table: model.Table{Name: "shop-live", Key: model.KeySchema{Partition: "PK", Sort: "SK"},
		Billing: model.Billing{Mode: model.Provisioned, Read: 50, Write: 20},
		Indexes: []model.Index{{Name: "GSI1", Key: model.KeySchema{Partition: "GSI1PK", Sort: "SK"},
			Projection: model.Projection{Type: model.ProjectKeysOnly}}}}}
	d.Items = make([]model.Item, 0, n)
	for i := 0; len(d.Items) < n; i++ {
		cust := fmt.Sprintf("%05d", i)
		d.Items = append(d.Items, model.Item{"PK": model.Str("CUST#" + cust), "SK": model.Str("PROFILE"), "customerId": model.Str(cust),
			"email": model.Str("c" + cust + "@example.com")})
		for k := 0; k < 9 && len(d.Items) < n; k++ {
			order := fmt.Sprintf("%06d", i*9+k)
			d.Items = append(d.Items, model.Item{"PK": model.Str("CUST#" + cust), "SK": model.Str("ORDER#" + order), "customerId": model.Str(cust),
				"orderId": model.Str(order), "GSI1PK": model.Str(fmt.Sprintf("DAY#%03d", k)), "total": model.Num(fmt.Sprintf("%d.50", k))})
		}
	}
	start := time.Now()
	rep, err := live.Deploy(ctx, db, d, live.DeployOptions{Table: "shop-live"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("loaded %d items in %.1fs", rep.Load.Items, time.Since(start).Seconds())

	out := filepath.Join(t.TempDir(), "shop.yaml")
	code, _, errText := runCmd(t, "", "import", "--endpoint", endpoint, "--table", "shop-live", "--sample", "500", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errText)
	}
	costAt := strings.Index(errText, "read units, eventually consistent")
	readAt := strings.Index(errText, "stwb import: read 500 items in ")
	if costAt < 0 || readAt < 0 || costAt > readAt {
		t.Fatalf("the read cost is not printed before the sample is read:\n%s", errText)
	}
	var got, requests, scanned int
	var units float64
	fmt.Sscanf(errText[readAt:], "stwb import: read %d items in %d Scan requests (%d scanned; %f", &got, &requests, &scanned, &units)
	if got != 500 || scanned > 500+4*100 || requests > 5+4 {
		t.Errorf("read %d items, %d scanned in %d requests: not a bounded sample of 500", got, scanned, requests)
	}
	back, err := designfile.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Table.Key.Equal(d.Table.Key) || len(back.Table.Indexes) != 1 || back.Table.Indexes[0].Projection.Type != model.ProjectKeysOnly ||
		back.Table.Billing.Mode != model.Provisioned || back.Table.Billing.Read != 50 {
		t.Errorf("table %+v", back.Table)
	}
	if len(back.Items) != 500 {
		t.Errorf("%d items in the design, want the sample's 500", len(back.Items))
	}
	profile, order := back.EntityByName("cust-profile"), back.EntityByName("cust-order")
	if profile == nil || order == nil {
		t.Fatalf("entities %+v", back.Entities)
	}
	if profile.Keys["PK"] != "CUST#{customerId}" || profile.Keys["SK"] != "PROFILE" ||
		order.Keys["PK"] != "CUST#{customerId}" || order.Keys["SK"] != "ORDER#{orderId}" {
		t.Errorf("templates: profile %v, order %v", profile.Keys, order.Keys)
	}
	// A second import onto the same file merges (the design's work kept), and a
	// missing table is an error naming it.
	code, _, errText = runCmd(t, "", "import", "--endpoint", endpoint, "--table", "no-such-table")
	if code != 2 || !strings.Contains(errText, "no-such-table") {
		t.Errorf("exit %d\n%s", code, errText)
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatal(err)
	}
}

// The same import against `stwb serve` (the design as an endpoint): the orders
// sample served, imported back, gives its table, index and entities again.
func TestImportLiveFromServe(t *testing.T) {
	s, ok := samples.Get("orders")
	if !ok {
		t.Fatal("no orders sample")
	}
	d, err := designfile.Parse("orders.yaml", s.Data)
	if err != nil {
		t.Fatal(err)
	}
	srv := serve.New(serve.Options{})
	if err := srv.AddDesign(d.Design); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	out := filepath.Join(t.TempDir(), "back.yaml")
	code, _, errText := runCmd(t, "", "import", "--endpoint", hs.URL, "--table", d.Table.Name, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errText)
	}
	back, err := designfile.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Table.Key.Equal(d.Table.Key) || len(back.Table.Indexes) != len(d.Table.Indexes) || len(back.Items) != len(d.Items) {
		t.Errorf("table %+v, %d items; want %+v, %d", back.Table, len(back.Items), d.Table, len(d.Items))
	}
	for _, e := range d.Entities {
		got := back.EntityByName(e.Name)
		if got == nil {
			t.Errorf("entity %s not inferred (the items carry type = %s)", e.Name, e.Name)
			continue
		}
		for k, tmpl := range got.Keys {
			if e.Keys[k] != tmpl {
				t.Errorf("entity %s: %s template %q, the sample's is %q", e.Name, k, tmpl, e.Keys[k])
			}
		}
	}
}
