package engine

import (
	"fmt"
	"slices"
	"sort"
	"testing"

	"stwb/model"
)

// The scan order hash matches dynalite's hashPrefix (db/index.js: md5 of "Outliers"
// and the key's bytes, numbers in DynamoDB's binary form), so a Scan returns items in
// the order dynalite does. Expected values were computed with dynalite 4's own
// db.createKey.
func TestScanHashMatchesDynalite(t *testing.T) {
	for _, tc := range []struct {
		v    model.Value
		want string
	}{
		{model.Num("0"), "ce212d"},
		{model.Num("1"), "c3a031"},
		{model.Num("-1"), "0267df"},
		{model.Num("12.5"), "472398"},
		{model.Num("-0.0015"), "bd581a"},
		{model.Num("1E-130"), "727de7"},
		{model.Num("-9.9E+125"), "d8285f"},
		{model.Num("12345678901234567890123456789012345678"), "b50a4c"},
		{model.Num("100"), "6840bd"},
		{model.Num("-100.5"), "d79efd"},
		{model.Str("P"), "ad8329"},
		{model.Str("A#"), "56ff23"},
		{model.Str("é"), "106280"},
		{model.Str("中文"), "ea2336"},
		{model.Str("😀"), "4f475e"},
	} {
		if got := fmt.Sprintf("%06x", scanHash(tc.v)); got != tc.want {
			t.Errorf("%s %s: %s, want %s", tc.v.Type, tc.v.Str, got, tc.want)
		}
	}
}

// encodeKey keeps DynamoDB's order as byte order: numbers by value
// (Query.html "sort key ... numeric"), strings and binary by unsigned bytes.
func TestEncodeKeyOrder(t *testing.T) {
	nums := []string{"-9.9E+125", "-1000", "-999.5", "-10", "-1.55", "-1.5", "-1", "-0.5", "-1E-130",
		"0", "1E-130", "0.001", "0.5", "1", "1.5", "1.55", "10", "999.5", "1000", "9.9E+125"}
	enc := make([]string, len(nums))
	for i, n := range nums {
		s, ok := encodeKey(model.Num(n))
		if !ok {
			t.Fatalf("%s not encoded", n)
		}
		enc[i] = s
	}
	if !sort.StringsAreSorted(enc) {
		for i := 1; i < len(enc); i++ {
			if enc[i-1] >= enc[i] {
				t.Errorf("%s does not sort before %s", nums[i-1], nums[i])
			}
		}
	}
	// Equal numbers written differently encode the same.
	for _, pair := range [][2]string{{"1.50", "1.5"}, {"1e3", "1000"}, {"-0", "0"}, {"0.10", "1E-1"}} {
		a, _ := encodeKey(model.Num(pair[0]))
		b, _ := encodeKey(model.Num(pair[1]))
		if a != b {
			t.Errorf("%s and %s encode differently", pair[0], pair[1])
		}
	}
	for _, bad := range []model.Value{model.Num("x"), model.Bool(true), model.StrSet("a")} {
		if _, ok := encodeKey(bad); ok {
			t.Errorf("%v encoded", bad)
		}
	}
	strs := []string{"A", "A#", "A#1", "B", "a", "é", "中文", "😀"}
	if !slices.IsSorted(strs) {
		t.Errorf("Go string order is not UTF-8 byte order")
	}
}

// prefixEnd bounds begins_with from above.
func TestPrefixEnd(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"A#", "A$", true},
		{"a\xff", "b", true},
		{"\xff\xff", "", false},
		{"", "", false},
	} {
		got, ok := prefixEnd(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("prefixEnd(%q) = %q %v, want %q %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
