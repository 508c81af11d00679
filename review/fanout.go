package review

import (
	"fmt"
	"slices"

	"stwb/cost"
)

// checkFanoutReadCost weighs a fan-out read against the writes it reads back: a
// read over N shards pays N requests a call (bp-write-sharding.html: "query the items
// for all the suffixes and then merge the results"), so N should come from the
// write throughput the key needs, ceil(summed writes / (1,000 x 0.8)) (cost.Shards),
// not from habit (the seeds' "Hot partitions"). A fan-out over more key values than
// that is a note with both figures.
func checkFanoutReadCost(c *checker) {
	if c.in.Cost == nil {
		return
	}
	for _, pc := range c.in.Cost.Patterns {
		if pc.Requests < 2 {
			continue
		}
		for _, k := range c.in.Cost.Keys {
			if !slices.Contains(k.Patterns, pc.ID) || k.TotalWrite <= 0 {
				continue
			}
			need := cost.Shards(0, k.TotalWrite)
			if int64(pc.Requests) <= need {
				continue
			}
			index := ""
			if k.Pool != "table" {
				index = k.Pool
			}
			c.add(Finding{Pattern: pc.ID, Index: index,
				Message: fmt.Sprintf("pattern %d fans out over %d key values of %q: %d requests, %s RCU a call; the writes summed on that key, %s WCU a second, need %s = ceil(%s WCU / (1,000 x 0.8)), so each read pays %d requests where %d would do",
					pc.ID, pc.Requests, k.Value, pc.Requests, fmtNum(pc.PerRequest.Read), fmtNum(k.TotalWrite),
					plural(need, "shard", "shards"), fmtNum(k.TotalWrite), pc.Requests, need),
				Fix: fmt.Sprintf("shard the writes over %d values and read them with fanout: {shard: \"0..%d\"}; keep more only as headroom for write growth you expect (each shard adds a request to every read)", need, need-1)})
		}
	}
}
