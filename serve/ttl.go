package serve

import (
	"context"
	"strconv"
	"time"

	"stwb/engine"
	"stwb/model"
)

// Time to live (TTL.html): a table may name a Number attribute holding an epoch
// time in seconds; DynamoDB deletes an item some time after that time passes
// ("typically within a few days"), and never an item whose value is more than five
// years in the past ("items with an expiration time older than five years ... are
// not deleted"). serve deletes expired items every ExpiryInterval, so a test waits
// at most that long.

// ExpiryInterval is how often Run removes expired items.
const ExpiryInterval = time.Second

const fiveYears = 5 * 365 * 24 * time.Hour

type ttlSpecification struct {
	Enabled       *bool
	AttributeName *string
}

type updateTTLInput struct {
	TableName               *string
	TimeToLiveSpecification *ttlSpecification
}

func updateTimeToLive(s *Server, in *updateTTLInput) (any, *apiError) {
	var v violations
	v.checkName(in.TableName, "tableName")
	spec := in.TimeToLiveSpecification
	if spec == nil {
		v.add("Value null at 'timeToLiveSpecification' failed to satisfy constraint: Member must not be null")
	} else {
		if spec.Enabled == nil {
			v.add("Value null at 'timeToLiveSpecification.enabled' failed to satisfy constraint: Member must not be null")
		}
		if spec.AttributeName == nil {
			v.add("Value null at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must not be null")
		} else if n := len(*spec.AttributeName); n < 1 || n > 255 {
			v.add("Value '%s' at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must have length greater than or equal to 1", *spec.AttributeName)
		}
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	t, err := s.tableByName(in.TableName)
	if err != nil {
		return nil, err
	}
	if *spec.Enabled == t.ttl.enabled {
		if t.ttl.enabled {
			return nil, validationError("TimeToLive is already enabled")
		}
		return nil, validationError("TimeToLive is already disabled")
	}
	if !*spec.Enabled && *spec.AttributeName != t.ttl.attribute {
		return nil, validationError("TimeToLive is active on a different AttributeName: current AttributeName is %s", t.ttl.attribute)
	}
	t.ttl = ttlSpec{attribute: *spec.AttributeName, enabled: *spec.Enabled}
	return struct{ TimeToLiveSpecification ttlSpecification }{*spec}, nil
}

func describeTimeToLive(s *Server, in *tableNameInput) (any, *apiError) {
	t, err := s.tableByName(in.TableName)
	if err != nil {
		return nil, err
	}
	type description struct {
		TimeToLiveStatus string
		AttributeName    string `json:",omitempty"`
	}
	d := description{TimeToLiveStatus: "DISABLED"}
	if t.ttl.enabled {
		d = description{TimeToLiveStatus: "ENABLED", AttributeName: t.ttl.attribute}
	}
	return struct{ TimeToLiveDescription description }{d}, nil
}

// ExpireNow deletes the items whose TTL attribute has passed, in every table with
// TTL enabled, and returns how many it deleted. Run calls it every ExpiryInterval.
func (s *Server) ExpireNow() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	n := 0
	for _, t := range s.tables {
		if !t.ttl.enabled {
			continue
		}
		var expired []model.Item
		t.eng.Each(func(it model.Item) bool {
			if expiredAt(it[t.ttl.attribute], now) {
				expired = append(expired, itemKey(t.def, it))
			}
			return true
		})
		for _, k := range expired {
			if _, err := t.eng.DeleteItem(engine.DeleteItemInput{Key: k}); err == nil {
				n++
			}
		}
	}
	return n
}

// expiredAt reports whether a TTL attribute value has passed: a Number of epoch
// seconds at or before now and within the last five years (TTL.html). Any other
// type is ignored, as DynamoDB ignores it.
func expiredAt(v model.Value, now time.Time) bool {
	if v.Type != model.TypeN {
		return false
	}
	f, err := strconv.ParseFloat(v.Str, 64)
	if err != nil || f > 1<<40 || f < -(1<<40) {
		return false
	}
	at := time.Unix(int64(f), 0)
	return !at.After(now) && now.Sub(at) <= fiveYears
}

func itemKey(t model.Table, it model.Item) model.Item {
	k := model.Item{t.Key.Partition: it[t.Key.Partition]}
	if t.Key.Sort != "" {
		k[t.Key.Sort] = it[t.Key.Sort]
	}
	return k
}

// expireLoop removes expired items every ExpiryInterval until ctx ends.
func (s *Server) expireLoop(ctx context.Context) {
	tick := time.NewTicker(ExpiryInterval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			s.ExpireNow()
		}
	}
}
