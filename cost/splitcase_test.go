package cost

import (
	"strings"
	"testing"

	"stwb/model"
)

// TestSplitCaseOf: the case serve --throttle splits by, read from the item's
// entity as the load model reads it (burst-adaptive-capacity.html, "Isolate
// frequently accessed items"): a constant sort key is one item; an increasing
// one (dates, a sequence) never splits; a random id can; an LSI stops it.
func TestSplitCaseOf(t *testing.T) {
	design := func(sk string, samples []string, lsi bool) *model.Design {
		d := &model.Design{Table: model.Table{Name: "t", Key: model.KeySchema{Partition: "PK", Sort: "SK"}, TypeAttribute: "type"},
			Entities: []model.Entity{{Name: "msg", Keys: map[string]string{"PK": "ROOM#{room}", "SK": sk}, Count: 1000}}}
		if lsi {
			d.Table.Indexes = []model.Index{{Name: "byTime", Local: true, Key: model.KeySchema{Partition: "PK", Sort: "at"}}}
		}
		for _, s := range samples {
			d.Items = append(d.Items, model.Item{"type": model.Str("msg"), "PK": model.Str("ROOM#1"), "SK": model.Str(s)})
		}
		return d
	}
	for _, tc := range []struct {
		name    string
		d       *model.Design
		can     bool
		because string
	}{
		{"constant sort key", design("TOTAL", []string{"TOTAL"}, false), false, "one item"},
		{"dates", design("MSG#{at}", []string{"MSG#2026-01-01T10:00:00Z", "MSG#2026-01-01T10:00:05Z", "MSG#2026-01-01T10:00:09Z"}, false), false, "increases"},
		{"random ids", design("MSG#{id}", []string{"MSG#f3a9", "MSG#07bc", "MSG#c41d"}, false), true, ""},
		{"random ids with an LSI", design("MSG#{id}", []string{"MSG#f3a9", "MSG#07bc", "MSG#c41d"}, true), false, "LSI"},
	} {
		ks := NewKeySpace(tc.d, tc.d.Items, func(e *model.Entity) int64 { return e.Count })
		sc, e, _ := SplitCaseOf(tc.d, ks, "table", tc.d.Items[0])
		s := SplitFor(sc)
		if s.Can != tc.can || (e == nil) != (tc.name == "random ids with an LSI") || !strings.Contains(s.Why, tc.because) {
			t.Errorf("%s: %+v, entity %v; want can %v (%q)", tc.name, s, e != nil, tc.can, tc.because)
		}
	}
}
