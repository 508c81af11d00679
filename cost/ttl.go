package cost

import "stwb/model"

// Expiry is what an entity's TTL deletes cost: DynamoDB deletes expired items
// "without consuming write throughput" (TTL.html; howitworks-ttl.html), and removes
// them from local and global secondary indexes "just like other delete operations"
// at no charge either; so they cost 0 WCU and $0, where DeleteItem of the same items
// would take DeleteWCU a second (each item's ceil(size / 1 KB) on the table, and on
// each index that holds it: read-write-operations.html). What is not free: in a
// global table each replica's replicated delete is a replicated write, and with a
// stream each delete is a stream record ("service deletions"), read by the
// stream's consumers; the design models neither.
type Expiry struct {
	Entity    string
	PerSecond float64 // items expiring a second at peak (the entity's `expires`)
	// DeleteWCU is what deleting them with DeleteItem would take a second, table
	// and indexes; DeleteMonthly its on-demand price a month. TTL pays neither.
	DeleteWCU     float64
	DeleteMonthly float64
}

// expiries prices each entity's `expires` against the table's TTL.
func (r *Report) expiries(d *model.Design) []Expiry {
	if d.Table.TTL == "" {
		return nil
	}
	var out []Expiry
	for i := range d.Entities {
		e := &d.Entities[i]
		if e.Expires <= 0 {
			continue
		}
		x := Expiry{Entity: e.Name, PerSecond: e.Expires}
		for _, es := range r.Storage.Entities {
			if es.Name != e.Name || es.Count == 0 {
				continue
			}
			per := float64(max(ceilUnits(es.AvgBytes/1024), 1))
			for _, l := range es.Indexes {
				if l.Items > 0 {
					// An index entry is deleted with the item, 1 WCU per KB of entry.
					entry := max(float64(l.Bytes)/float64(l.Items)-ItemOverhead, 0)
					per += float64(max(ceilUnits(entry/1024), 1)) * float64(l.Items) / float64(es.Count)
				}
			}
			x.DeleteWCU = per * e.Expires
		}
		x.DeleteMonthly = OnDemandMonthly(0, x.DeleteWCU, r.Prices)
		out = append(out, x)
	}
	return out
}
