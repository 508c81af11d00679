package cost

import (
	"strings"
	"testing"

	"stwb/model"
)

// A sort key whose template names a time or a sequence is taken as increasing:
// DynamoDB does not split a key value for "traffic that is tracked by a monotonic
// increase or decrease of the sort key" (burst-adaptive-capacity.html, "Isolate
// frequently accessed items"), and a design's samples (few, hand-written, or in a
// shape monotonicOf does not know) may not show it. Samples in no order (random
// ids under the name) are read as what production writes.
func TestMonotonicFromTheTemplate(t *testing.T) {
	for _, tc := range []struct {
		name    string
		samples []string
		want    bool
		why     string
	}{
		// The name alone, no samples.
		{"createdAt", nil, true, "names a time"},
		{"created_at", nil, true, "names a time"},
		{"SENT-AT", nil, true, "names a time"},
		{"eventTime", nil, true, "names a time"},
		{"ts", nil, true, "names a time"},
		{"orderDate", nil, true, "names a time"},
		{"epoch", nil, true, "names a time"},
		{"HTTPTime", nil, true, "names a time"},
		{"msgUlid", nil, true, "time-ordered id or a sequence"},
		{"ULID", nil, true, "time-ordered id or a sequence"},
		{"ksuid", nil, true, "time-ordered id or a sequence"},
		{"uuidv7", nil, true, "time-ordered id or a sequence"},
		{"uuidV7", nil, true, "time-ordered id or a sequence"},
		{"seq", nil, true, "time-ordered id or a sequence"},
		{"sequenceNo", nil, true, "time-ordered id or a sequence"},
		// Names that say nothing of order.
		{"msgId", nil, false, ""},
		{"chat", nil, false, ""},
		{"batch", nil, false, ""},
		{"format", nil, false, ""},
		{"timezone", nil, false, ""},
		{"dateOfBirth", nil, false, ""},
		{"status", nil, false, ""},
		// Samples in an order (rising or falling) leave the name's word standing;
		// samples in none overrule it; samples of a known shape say it themselves.
		{"createdAt", []string{"t-17a", "t-17b", "t-17c"}, true, "names a time"},
		{"createdAt", []string{"t-17c", "t-17b"}, true, "names a time"},
		{"seq", []string{"c4e1", "07ab", "9d2f"}, false, ""},
		{"msgId", []string{"000001", "000002"}, true, "zero-padded sequence"},
		{"msgId", []string{"01J4ZQ3Z8K6W2V0M5N7P9R1S3T"}, true, "ULIDs"},
	} {
		got, why := monotonic(tc.name, tc.samples)
		if got != tc.want || !strings.Contains(why, tc.why) {
			t.Errorf("%s with samples %v: %v (%q), want %v (%q)", tc.name, tc.samples, got, why, tc.want, tc.why)
		}
	}
}

// The key space says so of a sort key variable with no samples to read its order
// from, and serve --throttle's split case follows (SplitCaseOf).
func TestKeySpaceMonotonicByName(t *testing.T) {
	d := &model.Design{Table: model.Table{Name: "t", Key: model.KeySchema{Partition: "PK", Sort: "SK"}, TypeAttribute: "type"},
		Entities: []model.Entity{{Name: "msg", Keys: map[string]string{"PK": "ROOM#{room}", "SK": "MSG#{sentAt}"}, Count: 1000}}}
	it := model.Item{"type": model.Str("msg"), "PK": model.Str("ROOM#1"), "SK": model.Str("MSG#x")}
	ks := NewKeySpace(d, nil, func(e *model.Entity) int64 { return e.Count })
	if vi := ks.Var(&d.Entities[0], "sentAt"); !vi.Monotonic || !strings.Contains(vi.MonotonicWhy, "sentAt names a time") {
		t.Errorf("sentAt: %+v, want increasing by its name", vi)
	}
	sc, _, _ := SplitCaseOf(d, ks, "table", it)
	if s := SplitFor(sc); s.Can || !strings.Contains(s.Why, "increases") {
		t.Errorf("split case %+v: %+v, want no split (the sort key increases)", sc, s)
	}
}
