package rehearse

import (
	"math/rand/v2"
	"strings"
	"testing"

	"stwb/cost"
	"stwb/model"
	"stwb/samples"
)

func sampleDrawer(t *testing.T, name string, id int) (*drawer, *model.Design) {
	t.Helper()
	f, err := samples.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	d := f.Design
	ks := cost.NewKeySpace(d, d.Items, func(e *model.Entity) int64 { return e.Count })
	for i := range d.Patterns {
		if d.Patterns[i].ID == id {
			return newDrawer(d, ks, &d.Patterns[i]), d
		}
	}
	t.Fatalf("%s has no pattern %d", name, id)
	return nil, nil
}

// TestDrawPartitions: a pattern's `partitions: 10` spreads its writes evenly over
// ten key values, though the shard variable is few-valued in the samples; each
// put writes a new item.
func TestDrawPartitions(t *testing.T) {
	dr, _ := sampleDrawer(t, "daily-orders-sharded", 1)
	rng := rand.New(rand.NewPCG(1, 1))
	keys := map[string]int{}
	items := map[string]bool{}
	for i := 0; i < 5000; i++ {
		q := dr.next(rng).reqs[0]
		keys[q.Item["PK"].Str]++
		items[q.Item["PK"].Str+" "+q.Item["SK"].Str] = true
	}
	if len(keys) != 10 {
		t.Fatalf("%d key values, want 10: %v", len(keys), keys)
	}
	for k, n := range keys {
		if n < 400 || n > 600 {
			t.Errorf("%s took %d of 5,000 writes, want about 500", k, n)
		}
	}
	if len(items) != 5000 {
		t.Errorf("5,000 puts wrote %d distinct items, want each a new one", len(items))
	}
}

// TestDrawSeeds: a read drawn onto a key value other than the pattern's own is
// given copies of the sample's items under the pattern's key value first, with
// the drawn value in every key built from it.
func TestDrawSeeds(t *testing.T) {
	dr, _ := sampleDrawer(t, "orders", 1) // GetItem CUST#42 / PROFILE
	rng := rand.New(rand.NewPCG(3, 3))
	for i := 0; i < 1000; i++ {
		dw := dr.next(rng)
		seeds := dr.seedItems(dw)
		if dw.rank == 0 {
			if seeds != nil || dw.reqs[0].Key["PK"].Str != "CUST#42" {
				t.Fatalf("rank 0: key %v, seeds %v; want the pattern's own, none", dw.reqs[0].Key, seeds)
			}
			continue
		}
		pk := dw.reqs[0].Key["PK"].Str
		if !strings.HasPrefix(pk, "CUST#42~") || len(seeds) == 0 {
			t.Fatalf("rank %d: key %s, %d seeds", dw.rank, pk, len(seeds))
		}
		found := false
		for _, it := range seeds {
			if it["PK"].Str != pk {
				t.Fatalf("seed %v is not under %s", it, pk)
			}
			found = found || it["SK"].Str == "PROFILE"
		}
		if !found {
			t.Fatalf("no seed is the item the GetItem reads: %v", seeds)
		}
		return
	}
	t.Fatal("1,000 draws over 1,000,000 customers never left the hottest")
}
