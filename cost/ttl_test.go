package cost

import (
	"os"
	"testing"
)

// TTL deletes consume no write throughput (TTL.html): 200 sessions a second
// expiring cost 0 WCU, where DeleteItem of the same items (under 1 KB, 1 WCU each,
// and 1 WCU for each one's GSI1 entry: read-write-operations.html) would take 400.
func TestExpiryIsFree(t *testing.T) {
	src, err := os.ReadFile("testdata/ttl.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := loadDesign(t, string(src), nil)
	if r.TTL != "expiresAt" || len(r.Expiries) != 1 {
		t.Fatalf("ttl %q, expiries %+v", r.TTL, r.Expiries)
	}
	x := r.Expiries[0]
	if x.PerSecond != 200 || x.DeleteWCU != 400 || x.DeleteMonthly != OnDemandMonthly(0, 400, r.Prices) {
		t.Errorf("expiry %+v, want 200/s, 400 WCU by DeleteItem", x)
	}
	if r.Totals.PerSecond.Write != 0 {
		t.Errorf("the expiries add %v WCU to the totals; TTL deletes take none", r.Totals.PerSecond.Write)
	}
}
