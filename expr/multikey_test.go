package expr

import (
	"slices"
	"testing"

	"stwb/model"
)

// TestMultiAttributeKeyCondition is the table of key conditions on a
// multi-attribute GSI key (GSI.DesignPattern.MultiAttributeKeys.html): an index
// on h (partition) and a, b (S), n (N) as its sort attributes, and one on two
// partition attributes. Sources: [guide] the developer guide page; [aws] the
// conformance suite's "Query - GSI with a multi-attribute key", verified against
// AWS (eu-central-1, us-east-1, eu-west-2, October 2026), whose messages are
// DynamoDB's own; [moto] getmoto/moto#9710's aws_verified tests (the message
// names the skipped attribute); [single] the single-attribute key's message for
// the same fault (Query.KeyConditionExpressions.html), where no capture exists.
func TestMultiAttributeKeyCondition(t *testing.T) {
	sortKey := KeySchema{Partition: "h", PartitionType: model.TypeS, Sort: "a", SortType: model.TypeS,
		MoreSort: []KeyAttr{{"b", model.TypeS}, {"n", model.TypeN}}}
	twoPart := KeySchema{Partition: "t", PartitionType: model.TypeS, MorePartition: []KeyAttr{{"r", model.TypeS}},
		Sort: "n", SortType: model.TypeN}
	values := map[string]model.Value{":h": model.Str("o1"), ":a": model.Str("T"), ":b": model.Str("live"),
		":n": model.Num("2"), ":m": model.Num("9"), ":t": model.Str("W26"), ":r": model.Str("NA"), ":s": model.Str("x")}
	const gapB = "RANGE key attributes b must have equality conditions specified in the query because a condition is present on key attribute n"
	cases := []struct {
		source, src string
		schema      KeySchema
		err         string
		parts       int // partition values compiled
		equals      int // sort attributes given with = before the last
		sortName    string
		op          SortKeyOp
	}{
		{"[aws] the partition attribute alone", "h = :h", sortKey, "", 1, 0, "", SortNone},
		{"[aws] = on the first sort attribute", "h = :h AND a = :a", sortKey, "", 1, 0, "a", SortEQ},
		{"[aws] = on the first two", "h = :h AND a = :a AND b = :b", sortKey, "", 1, 1, "b", SortEQ},
		{"[aws] a range on the last attribute given", "h = :h AND a = :a AND b < :b", sortKey, "", 1, 1, "b", SortLT},
		{"[aws] BETWEEN on the last sort attribute", "h = :h AND a = :a AND b = :b AND n BETWEEN :n AND :m", sortKey, "", 1, 2, "n", SortBetween},
		{"[aws] begins_with on the last given", "h = :h AND a = :a AND begins_with(b, :b)", sortKey, "", 1, 1, "b", SortBeginsWith},
		{"[aws] clauses in any order", "b = :b AND h = :h AND a = :a", sortKey, "", 1, 1, "b", SortEQ},
		{"[aws] a gap", "h = :h AND a = :a AND n = :n", sortKey, gapB, 0, 0, "", SortNone},
		{"[aws] a range before the last given", "h = :h AND a = :a AND b > :b AND n = :n", sortKey, gapB, 0, 0, "", SortNone},
		{"[aws] skipping the first sort attribute", "h = :h AND b = :b", sortKey,
			"RANGE key attributes a must have equality conditions specified in the query because a condition is present on key attribute b", 0, 0, "", SortNone},
		{"[moto] a range on the first, then the next", "h = :h AND a > :a AND b = :b", sortKey,
			"RANGE key attributes a must have equality conditions specified in the query because a condition is present on key attribute b", 0, 0, "", SortNone},
		{"[guide] both partition attributes", "t = :t AND r = :r AND n > :n", twoPart, "", 2, 0, "n", SortGT},
		{"[moto] a partition attribute missing", "t = :t AND n > :n", twoPart, "Query condition missed key schema element: r", 0, 0, "", SortNone},
		{"[single] a range on a partition attribute", "t = :t AND r > :r", twoPart, "Query key condition not supported", 0, 0, "", SortNone},
		{"[single] begins_with on a partition attribute", "t = :t AND begins_with(r, :r)", twoPart, "Query key condition not supported", 0, 0, "", SortNone},
		{"[single] a value of another type", "t = :t AND r = :n", twoPart,
			"One or more parameter values were invalid: Condition parameter type does not match schema type", 0, 0, "", SortNone},
		{"[single] a sort value of another type", "h = :h AND a = :n", sortKey,
			"One or more parameter values were invalid: Condition parameter type does not match schema type", 0, 0, "", SortNone},
		{"[moto] an attribute outside the key", "t = :t AND r = :r AND x = :s", twoPart, "Query condition missed key schema element: n", 0, 0, "", SortNone},
		{"[single] begins_with on a number", "h = :h AND a = :a AND b = :b AND begins_with(n, :n)", sortKey,
			"Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N", 0, 0, "", SortNone},
		{"[single] OR", "h = :h OR a = :a", sortKey, "Invalid operator used in KeyConditionExpression: OR", 0, 0, "", SortNone},
	}
	for _, c := range cases {
		kc, err := CompileKeyCondition(c.src, NewContext(nil, values), c.schema)
		checkErr(t, c.source+": "+c.src, err, c.err)
		if err != nil {
			continue
		}
		if len(kc.PartitionValues) != c.parts || len(kc.SortEquals) != c.equals || kc.SortName != c.sortName || kc.SortOp != c.op {
			t.Errorf("%s: %q compiled to %+v", c.source, c.src, *kc)
		}
	}
	kc, _ := CompileKeyCondition("r = :r AND t = :t", NewContext(nil, values), twoPart)
	if !slices.EqualFunc(kc.PartitionValues, []model.Value{model.Str("W26"), model.Str("NA")}, sameValue) {
		t.Errorf("partition values in key order: %v", kc.PartitionValues)
	}
}
