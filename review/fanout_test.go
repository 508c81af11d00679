package review_test

import (
	"testing"

	"stwb/model"
)

// Rules that read a Query's pages read a fan-out's requests (engine.RunFanout):
// each request reads its own share, so page-overflow divides an expected count by
// the requests, and filter-selects sees the items every request read and dropped.
func TestRulesReadFanoutRequests(t *testing.T) {
	read := func(d *model.Design) *model.Pattern { return pattern(d, 11) }

	// 200,000 items of ~60 bytes are 12 MB in one Query; over ten shards, 20,000
	// each, 1.2 MB a request: past the page either way. 20,000 over ten are 120 KB a
	// request, under it, where one Query of all of them (1.2 MB) is not.
	cases := []struct {
		name   string
		shards int64
		card   string
		fires  bool
	}{
		{"one query past 1 MB", 1, "up to 20,000", true},
		{"ten shards under 1 MB each", 10, "up to 20,000", false},
		{"ten shards past 1 MB each", 10, "up to 200,000", true},
	}
	for _, c := range cases {
		d := loadBase(t)
		addShardedDay(d.Design, c.shards)
		read(d.Design).Cardinality = c.card
		_, got := rulesOf(t, d)["page-overflow"]
		if got != c.fires {
			t.Errorf("%s: page-overflow %v, want %v", c.name, got, c.fires)
		}
	}
	// pages: all follows LastEvaluatedKey: no page-overflow.
	d := loadBase(t)
	addShardedDay(d.Design, 1)
	read(d.Design).Cardinality, read(d.Design).AllPages = "up to 20,000", true
	if f, ok := rulesOf(t, d)["page-overflow"]; ok {
		t.Errorf("pages: all: %s", f.Message)
	}

	// A filter that keeps 1 of the 10 items the ten requests read selects.
	d = loadBase(t)
	addShardedDay(d.Design, 10)
	p := read(d.Design)
	p.Filter, p.Values[":o"] = "orderId = :o", model.Str("3")
	if _, ok := rulesOf(t, d)["filter-selects"]; !ok {
		t.Errorf("filter-selects does not see the fan-out's dropped items: %v", keys(rulesOf(t, d)))
	}
}
