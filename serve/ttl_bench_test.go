package serve

import (
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"stwb/model"
)

// BenchmarkExpirySweep is the stall TTL expiry causes on a large table: 600,000
// items with TTL on, none due, a sweep (ExpireNow, what the expiry loop runs each
// ExpiryInterval) per op while a reader keeps calling GetItem. Reported: the
// sweep's time (sweep-ms) and the longest GetItem the reader saw (max-get-ms). On
// main the sweep walked the whole table under the exclusive lock, so every read
// waited for it; now a sweep takes the due items from a queue, at most
// expiryBatch per hold of the lock.
//
//	go test ./serve -run '^$' -bench BenchmarkExpirySweep -benchtime 20x
func BenchmarkExpirySweep(b *testing.B) {
	now := time.Unix(1_800_000_000, 0)
	d := &model.Design{Table: model.Table{Name: "ttltab", Key: model.KeySchema{Partition: "pk"}}}
	future := model.Num(strconv.FormatInt(now.Add(24*time.Hour).Unix(), 10))
	for i := range 600_000 {
		d.Items = append(d.Items, model.Item{"pk": model.Str("item#" + strconv.Itoa(i)), "exp": future})
	}
	s := New(Options{Now: func() time.Time { return now }})
	if err := s.AddDesign(d); err != nil {
		b.Fatal(err)
	}
	if st, out := s.Call("UpdateTimeToLive", []byte(`{"TableName":"ttltab","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"exp"}}`)); st != 200 {
		b.Fatalf("%d %s", st, out)
	}
	s.ExpireNow() // a first sweep, which may learn the table
	var stop atomic.Bool
	var maxGet atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		body := []byte(`{"TableName":"ttltab","Key":{"pk":{"S":"item#7"}}}`)
		for !stop.Load() {
			t0 := time.Now()
			s.Call("GetItem", body)
			if d := int64(time.Since(t0)); d > maxGet.Load() {
				maxGet.Store(d)
			}
		}
	}()
	time.Sleep(10 * time.Millisecond)
	maxGet.Store(0)
	var sweeps time.Duration
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		s.ExpireNow()
		sweeps += time.Since(t0)
		time.Sleep(time.Millisecond) // let the reader in between sweeps
	}
	b.StopTimer()
	stop.Store(true)
	<-done
	b.ReportMetric(float64(sweeps.Microseconds())/1e3/float64(b.N), "sweep-ms")
	b.ReportMetric(float64(maxGet.Load())/1e6, "max-get-ms")
	if load, ok := loadAverage(); ok {
		b.ReportMetric(load, "load1")
	}
}
