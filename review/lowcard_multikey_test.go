package review_test

import (
	"strings"
	"testing"

	"stwb/designfile"
	"stwb/model"
)

// TestLowCardinalityMultiAttributeKey: low-cardinality-key reads every attribute
// of a multi-attribute GSI partition key, as hot-partition does (cost/tuple.go):
// the key's values are the tuples of its attributes' values
// (GSI.DesignPattern.MultiAttributeKeys.html: "DynamoDB handles the composite
// key logic automatically, hashing them together for data distribution"), so it
// has few values only when every attribute has few. On the tournament-matches
// sample, partition [tournamentId, region].
func TestLowCardinalityMultiAttributeKey(t *testing.T) {
	cases := []struct {
		name   string
		values map[string]model.VarValues
		want   string // "" no finding on the index
	}{
		{"as shipped: 50 tournaments, 8 regions", map[string]model.VarValues{"tournamentId": {N: 50}, "region": {N: 8}}, ""},
		{"many tournaments, one region", map[string]model.VarValues{"tournamentId": {N: 5000}, "region": {N: 1}}, ""},
		{"4 tournaments, 8 regions", map[string]model.VarValues{"tournamentId": {N: 4}, "region": {N: 8}},
			"match index ByRegionRound's partition key = {tournamentId} + {region} has few values"},
		{"the current tournament, 8 regions", map[string]model.VarValues{"tournamentId": {Period: true}, "region": {N: 8}},
			"match index ByRegionRound's partition key = {tournamentId} + {region} is keyed on the current period"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, err := designfile.Load("../samples/tournament-matches.yaml")
			if err != nil {
				t.Fatal(err)
			}
			f.Design.Entities[0].Values = tc.values
			var got []string
			for r, fd := range rulesOf(t, f) {
				if strings.HasPrefix(r, "low-cardinality-key") && fd.Index == "ByRegionRound" {
					got = append(got, fd.Message)
				}
			}
			switch {
			case tc.want == "" && len(got) > 0:
				t.Errorf("finding on a key of many values: %v", got)
			case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
				t.Errorf("findings %v, want one saying %q", got, tc.want)
			}
		})
	}
}
