package cost

import (
	"strings"
	"testing"

	"stwb/samples"
)

// TestMultiAttributeKeyLoad: the load on a multi-attribute GSI partition key falls
// on the tuple of its attributes' values (GSI.DesignPattern.MultiAttributeKeys.html:
// the attributes are hashed together), whose values are the product of the
// attributes' counts: the tournament-matches sample declares 50 tournaments and
// 8 regions, few enough that each request names its region, so the tuples spread
// the reads over the 50 tournaments of the region a request names, and a write
// that moves a match (a bracket change) is a delete and a put on the index.
func TestMultiAttributeKeyLoad(t *testing.T) {
	f, err := samples.Load("tournament-matches")
	if err != nil {
		t.Fatal(err)
	}
	r := mustCompute(t, f.Design)
	var found bool
	for _, k := range r.Keys {
		if k.Pool != "ByRegionRound" {
			continue
		}
		found = true
		if k.Value != "({tournamentId}, NA-EAST)" || k.Partitions != 50 {
			t.Errorf("the index's key is %q over %d values; want the tuple ({tournamentId}, NA-EAST) over 50", k.Value, k.Partitions)
		}
		if !strings.Contains(k.Because, "tournamentId has 50") {
			t.Errorf("because %q does not say where 50 comes from", k.Because)
		}
	}
	if !found {
		t.Fatalf("no load on the index: %+v", r.Keys)
	}
}
