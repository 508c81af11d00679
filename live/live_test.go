package live

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"stwb/designfile"
	"stwb/internal/dynalitetest"
	"stwb/model"
	"stwb/samples"
	"stwb/verify"
)

// Tests of deploy, verify and teardown against dynalite started on a loopback port
// (internal/dynalitetest): in CI they fail when it cannot start, never skip.

var tableSeq atomic.Int64

// uniqueTable names a fresh table per test run against one dynalite.
func uniqueTable(base string) string {
	return fmt.Sprintf("%s-%d", base, tableSeq.Add(1))
}

func dynalite(t *testing.T) (*dynamodb.Client, string) {
	t.Helper()
	endpoint := dynalitetest.StartWith(t, dynalitetest.Options{CreateTableMs: 1, DeleteTableMs: 1})
	db, err := NewClient(context.Background(), Config{Endpoint: endpoint, Region: "us-east-1",
		Credentials: credentials.NewStaticCredentialsProvider("test", "test", "")})
	if err != nil {
		t.Fatal(err)
	}
	return db, endpoint
}

// smallDesign is a design built in code: a table with a GSI and an LSI, two
// customers, and read patterns each of which returns a different set of items, plus
// one write pattern.
func smallDesign() *model.Design {
	fwd := false
	item := func(pk, sk string, attrs ...any) model.Item {
		it := model.Item{"PK": model.Str(pk), "SK": model.Str(sk)}
		for i := 0; i+1 < len(attrs); i += 2 {
			switch v := attrs[i+1].(type) {
			case string:
				it[attrs[i].(string)] = model.Str(v)
			case model.Value:
				it[attrs[i].(string)] = v
			}
		}
		return it
	}
	return &model.Design{
		Version: 1, Name: "live-small",
		Table: model.Table{Name: "live-small", Key: model.KeySchema{Partition: "PK", Sort: "SK"},
			Billing: model.Billing{Mode: model.OnDemand},
			Indexes: []model.Index{
				{Name: "GSI1", Key: model.KeySchema{Partition: "GSI1PK", Sort: "GSI1SK"}, Projection: model.Projection{Type: model.ProjectAll}},
				{Name: "LSI1", Local: true, Key: model.KeySchema{Partition: "PK", Sort: "placedAt"},
					Projection: model.Projection{Type: model.ProjectKeysOnly}},
			}},
		Items: []model.Item{
			item("CUST#1", "PROFILE", "name", "Ada", "city", "Zürich"),
			item("CUST#1", "ORDER#1", "GSI1PK", "STATUS#A", "GSI1SK", "2026-01-02", "placedAt", "2026-01-02", "total", model.Num("12.50")),
			item("CUST#1", "ORDER#2", "GSI1PK", "STATUS#B", "GSI1SK", "2026-01-03", "placedAt", "2026-01-03", "total", model.Num("99")),
			item("CUST#2", "PROFILE", "name", "中文 🙂"),
			item("CUST#2", "ORDER#3", "GSI1PK", "STATUS#A", "GSI1SK", "2026-02-01", "placedAt", "2026-02-01", "total", model.Num("-1E+3")),
		},
		Patterns: []model.Pattern{
			{ID: 1, Name: "profile", Operation: model.OpGetItem, Key: model.Item{"PK": model.Str("CUST#2"), "SK": model.Str("PROFILE")}},
			{ID: 2, Name: "orders of customer 1, newest first", Operation: model.OpQuery,
				KeyCondition: "PK = :pk AND begins_with(SK, :o)", Forward: &fwd,
				Values: map[string]model.Value{":pk": model.Str("CUST#1"), ":o": model.Str("ORDER#")}},
			{ID: 3, Name: "orders in status A", Operation: model.OpQuery, Index: "GSI1", KeyCondition: "GSI1PK = :s",
				Values: map[string]model.Value{":s": model.Str("STATUS#A")}},
			{ID: 4, Name: "customer 2 by date", Operation: model.OpQuery, Index: "LSI1", KeyCondition: "PK = :pk AND placedAt > :d",
				Values: map[string]model.Value{":pk": model.Str("CUST#2"), ":d": model.Str("2026")}},
			{ID: 5, Name: "big orders", Operation: model.OpScan, Filter: "#t > :min", Names: map[string]string{"#t": "total"},
				Values: map[string]model.Value{":min": model.Num("50")}, Limit: 3},
			{ID: 6, Name: "new order", Operation: model.OpPutItem, Item: item("CUST#2", "ORDER#4")},
			{ID: 7, Name: "two profiles at once", Operation: model.OpTransactGetItems,
				Keys: []model.Item{item("CUST#1", "PROFILE"), item("CUST#2", "PROFILE")}},
		},
	}
}

func TestVerifySmallDesignAndChangedItem(t *testing.T) {
	db, endpoint := dynalite(t)
	ctx := context.Background()
	d := smallDesign()
	table := uniqueTable("small")
	if _, err := Deploy(ctx, db, d, DeployOptions{Table: table}); err != nil {
		t.Fatal(err)
	}
	rep, err := Verify(ctx, db, &designfile.File{Design: d}, table, endpoint)
	if err != nil {
		t.Fatal(err)
	}
	// dynalite has no transactions: TransactGetItems is named as unsupported there,
	// not counted as a mismatch.
	want := map[int]string{1: verify.StatusOK, 2: verify.StatusOK, 3: verify.StatusOK, 4: verify.StatusOK, 5: verify.StatusOK, 6: verify.StatusSkipped, 7: verify.StatusUnsupported}
	for _, o := range rep.Patterns {
		if o.Status != want[o.ID] {
			t.Errorf("pattern %d: %s %v, want %s", o.ID, o.Status, o.Mismatches, want[o.ID])
		}
	}
	if rep.Mismatched != 0 || len(rep.Notes) == 0 || !strings.Contains(rep.Notes[0], "no index writes") {
		t.Fatalf("mismatched %d, notes %q: want 0 and the emulator note", rep.Mismatched, rep.Notes)
	}

	// Change one item behind stwb's back: ORDER#2 is returned by pattern 2 only
	// (pattern 5's scan reads it too, but filters it out either way: 98 > 50).
	changed := model.Item{"PK": model.Str("CUST#1"), "SK": model.Str("ORDER#2"), "GSI1PK": model.Str("STATUS#B"),
		"GSI1SK": model.Str("2026-01-03"), "placedAt": model.Str("2026-01-03"), "total": model.Num("98")}
	av, _ := ToItem(changed)
	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: av}); err != nil {
		t.Fatal(err)
	}
	rep, err = Verify(ctx, db, &designfile.File{Design: d}, table, endpoint)
	if err != nil {
		t.Fatal(err)
	}
	var bad []int
	for _, o := range rep.Patterns {
		if o.Status == verify.StatusMismatch {
			bad = append(bad, o.ID)
		}
	}
	if fmt.Sprint(bad) != "[2]" || rep.Mismatched != 1 {
		t.Fatalf("mismatched patterns %v (count %d), want exactly [2]", bad, rep.Mismatched)
	}
	var text strings.Builder
	for _, o := range rep.Patterns {
		for _, m := range o.Mismatches {
			text.WriteString(m.String() + "\n")
		}
	}
	if !strings.Contains(text.String(), `"total":{"N":"98"}`) {
		t.Fatalf("the mismatch should show the changed item:\n%s", text.String())
	}
}

// TestDeployEverySample deploys each embedded sample and verifies every read pattern.
func TestDeployEverySample(t *testing.T) {
	db, endpoint := dynalite(t)
	ctx := context.Background()
	names := samples.Names()
	if len(names) == 0 {
		t.Fatal("no samples embedded")
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			f, err := samples.Load(name)
			if err != nil {
				t.Fatal(err)
			}
			d := f.Design
			if slices.ContainsFunc(d.Table.Indexes, func(ix model.Index) bool { return ix.Key.Multi() }) {
				// dynalite refuses a KeySchema of more than two elements; a design
				// with a multi-attribute index is deployed and verified against
				// stwb serve (cmd/stwb's TestMultiKeyDeployVerifyImport).
				t.Skip("dynalite has no multi-attribute keys")
			}
			table := uniqueTable(name)
			rep, err := Deploy(ctx, db, d, DeployOptions{Table: table})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Load.Items != len(d.Items) {
				t.Fatalf("loaded %d items of %d", rep.Load.Items, len(d.Items))
			}
			vr, err := Verify(ctx, db, &designfile.File{Design: d}, table, endpoint)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range vr.Patterns {
				if o.Status == verify.StatusMismatch {
					t.Errorf("pattern %d (%s %s): %v", o.ID, o.Operation, o.Index, o.Mismatches)
				}
			}
		})
	}
}

// foreignTable creates a table as someone else would (no stwb:design tag, or the
// given tags), holding the given number of items.
func foreignTable(t *testing.T, db *dynamodb.Client, d *model.Design, name string, items int, tags ...types.Tag) {
	t.Helper()
	ctx := context.Background()
	if _, err := db.CreateTable(ctx, CreateTableInput(name, d.Table)); err != nil {
		t.Fatal(err)
	}
	desc, err := WaitActive(ctx, db, name, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if len(tags) > 0 {
		if _, err := db.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: desc.TableArn, Tags: tags}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range items {
		theirs, _ := ToItem(model.Item{"PK": model.Str("THEIRS"), "SK": model.Str(fmt.Sprint(i))})
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: theirs}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDeployOwnership: deploy creates, replaces, reuses or loads only a table that
// carries this design's stwb:design tag or that it has just created. Any other
// table (untagged, empty or not, or tagged for another design) is refused, with and
// without --replace, naming the table and its tags, and nothing in it changes.
func TestDeployOwnership(t *testing.T) {
	db, _ := dynalite(t)
	ctx := context.Background()
	d := smallDesign()
	other := []types.Tag{{Key: aws.String(TagKey), Value: aws.String("someone-else")}, {Key: aws.String("team"), Value: aws.String("billing")}}
	refusals := []struct {
		name    string
		items   int
		tags    []types.Tag
		replace bool
		want    []string
	}{
		{"untagged with items", 1, nil, false, []string{"no stwb:design tag", "its tags: none"}},
		{"untagged with items, --replace", 1, nil, true, []string{"no stwb:design tag"}},
		{"untagged and empty is not adopted", 0, nil, false, []string{"no stwb:design tag"}},
		{"untagged and empty, --replace", 0, nil, true, []string{"no stwb:design tag"}},
		{"another design's, --replace", 2, other, true, []string{`tag is "someone-else"`, "stwb:design=someone-else, team=billing"}},
		{"another design's, empty", 0, other, false, []string{`tag is "someone-else"`}},
	}
	for _, c := range refusals {
		t.Run(c.name, func(t *testing.T) {
			table := uniqueTable("foreign")
			foreignTable(t, db, d, table, c.items, c.tags...)
			_, err := Deploy(ctx, db, d, DeployOptions{Table: table, Replace: c.replace})
			if !errors.Is(err, ErrNotOwned) || !strings.Contains(err.Error(), table) || !strings.Contains(err.Error(), "nothing was changed") {
				t.Fatalf("deploy: %v, want ErrNotOwned naming %s", err, table)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("refusal %q lacks %q", err, w)
				}
			}
			if n, err := countItems(ctx, db, table, 0); err != nil || n != c.items {
				t.Fatalf("the table holds %d items (%v) after the refusal, want its %d untouched", n, err, c.items)
			}
			desc, _ := describe(ctx, db, table)
			tags, err := tagsOf(ctx, db, table, desc)
			if err != nil || len(tags) != len(c.tags) {
				t.Fatalf("tags after the refusal: %v %v, want the %d it had", tags, err, len(c.tags))
			}
			if err := Teardown(ctx, db, d, table); !errors.Is(err, ErrNotOwned) {
				t.Fatalf("teardown of a foreign table: %v, want ErrNotOwned", err)
			}
		})
	}

	t.Run("its own table", func(t *testing.T) {
		table := uniqueTable("own")
		rep, err := Deploy(ctx, db, d, DeployOptions{Table: table})
		if err != nil || !rep.Created {
			t.Fatalf("first deploy: %+v %v", rep, err)
		}
		_, err = Deploy(ctx, db, d, DeployOptions{Table: table})
		if !errors.Is(err, ErrNotEmpty) || !strings.Contains(err.Error(), "--replace") {
			t.Fatalf("deploy onto its own non-empty table: %v, want ErrNotEmpty naming --replace", err)
		}
		rep, err = Deploy(ctx, db, d, DeployOptions{Table: table, Replace: true})
		if err != nil || !rep.Replaced || !rep.Created {
			t.Fatalf("--replace of its own table: %+v %v, want replaced and created", rep, err)
		}
		if n, _ := countItems(ctx, db, table, 0); n != len(d.Items) {
			t.Fatalf("after --replace the table holds %d items, want the design's %d", n, len(d.Items))
		}
		desc, _ := describe(ctx, db, table)
		if tags, err := tagsOf(ctx, db, table, desc); err != nil || tags[TagKey] != TagValue(d) {
			t.Fatalf("the replaced table's tags: %v %v", tags, err)
		}
	})

	t.Run("its own empty table is reused", func(t *testing.T) {
		table := uniqueTable("own-empty")
		foreignTable(t, db, d, table, 0, types.Tag{Key: aws.String(TagKey), Value: aws.String(TagValue(d))})
		rep, err := Deploy(ctx, db, d, DeployOptions{Table: table})
		if err != nil || rep.Created || rep.Load.Items != len(d.Items) {
			t.Fatalf("deploy onto its own empty table: %+v %v, want reused and loaded", rep, err)
		}
	})
}

// TestTeardownOnlyThisDesign: teardown needs the design's own tag.
func TestTeardownOnlyThisDesign(t *testing.T) {
	db, _ := dynalite(t)
	ctx := context.Background()
	d := smallDesign()
	table := uniqueTable("teardown")
	if _, err := Deploy(ctx, db, d, DeployOptions{Table: table}); err != nil {
		t.Fatal(err)
	}
	other := smallDesign()
	other.Name = "another-design"
	if err := Teardown(ctx, db, other, table); err == nil || !strings.Contains(err.Error(), `"live-small"`) {
		t.Fatalf("teardown by another design: %v, want a refusal naming the tag", err)
	}
	if err := Teardown(ctx, db, d, table); err != nil {
		t.Fatal(err)
	}
	if desc, err := describe(ctx, db, table); err != nil || desc != nil {
		t.Fatalf("table still there after teardown: %v %v", desc, err)
	}
	if err := Teardown(ctx, db, d, table); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("second teardown: %v, want 'does not exist'", err)
	}
}

// TestConvertRoundTripThroughDynalite stores an item holding every type and reads it
// back: the wire form the SDK writes is what DynamoDB and dynalite accept
// (API_AttributeValue.html).
func TestConvertRoundTripThroughDynalite(t *testing.T) {
	db, _ := dynalite(t)
	ctx := context.Background()
	d := smallDesign()
	table := uniqueTable("convert")
	if _, err := db.CreateTable(ctx, CreateTableInput(table, d.Table)); err != nil {
		t.Fatal(err)
	}
	if _, err := WaitActive(ctx, db, table, time.Minute); err != nil {
		t.Fatal(err)
	}
	it := model.Item{"PK": model.Str("ALL"), "SK": model.Str("TYPES")}
	for _, c := range convertCases {
		it[c.name] = c.v
	}
	av, err := ToItem(it)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: av}); err != nil {
		t.Fatal(err)
	}
	out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "ALL"}, "SK": &types.AttributeValueMemberS{Value: "TYPES"}}})
	if err != nil {
		t.Fatal(err)
	}
	back, err := FromItem(out.Item)
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range it {
		if !back[name].Equal(v) {
			t.Errorf("attribute %q: stored %v, read back %v", name, v, back[name])
		}
	}
}

// TestDeploy100kItems deploys a 100,000-item design (about 200 bytes an item) and
// reports the load rate, the figure the README's performance section quotes. Under
// -short it loads 10,000.
func TestDeploy100kItems(t *testing.T) {
	n := 100000
	if testing.Short() {
		n = 10000
	}
	db, _ := dynalite(t)
	d := &model.Design{Name: "big", Table: model.Table{Name: "big", Key: model.KeySchema{Partition: "PK", Sort: "SK"},
		Indexes: []model.Index{{Name: "GSI1", Key: model.KeySchema{Partition: "GSI1PK", Sort: "SK"},
			Projection: model.Projection{Type: model.ProjectKeysOnly}}}}}
	pad := strings.Repeat("x", 120)
	d.Items = make([]model.Item, n)
	for i := range d.Items {
		d.Items[i] = model.Item{"PK": model.Str(fmt.Sprintf("CUST#%05d", i/100)), "SK": model.Str(fmt.Sprintf("ORDER#%06d", i)),
			"GSI1PK": model.Str(fmt.Sprintf("DAY#%03d", i%365)), "total": model.Num(fmt.Sprintf("%d.%02d", i%1000, i%100)),
			"note": model.Str(pad)}
	}
	rep, err := Deploy(context.Background(), db, d, DeployOptions{Table: uniqueTable("big")})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Load.Items != n {
		t.Fatalf("loaded %d items, want %d", rep.Load.Items, n)
	}
	if got, err := countItems(context.Background(), db, rep.Table, 0); err != nil || got != n {
		t.Fatalf("the table holds %d items (%v), want %d", got, err, n)
	}
	t.Logf("deployed %d items in %.1fs: %.0f items/s (%d requests)", n, rep.Elapsed.Seconds(), rep.ItemsPerSecond(), rep.Load.Requests)
}
