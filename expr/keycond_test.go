package expr

import (
	"strings"
	"testing"

	"stwb/model"
)

var (
	schemaSN = KeySchema{Partition: "pk", Sort: "sk", PartitionType: model.TypeS, SortType: model.TypeS}
	schemaNN = KeySchema{Partition: "pk", Sort: "n", PartitionType: model.TypeS, SortType: model.TypeN}
	schemaP  = KeySchema{Partition: "pk", PartitionType: model.TypeS}
	schemaB  = KeySchema{Partition: "pk", Sort: "b", PartitionType: model.TypeS, SortType: model.TypeB}
)

// Accepted key conditions and what they compile to, following
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.KeyConditionExpressions.html
func TestKeyConditionCompile(t *testing.T) {
	cases := []struct {
		src    string
		schema KeySchema
		want   KeyCondition
	}{
		{"pk = :a", schemaSN, KeyCondition{PartitionName: "pk", PartitionValue: model.Str("a")}},
		{":a = pk", schemaP, KeyCondition{PartitionName: "pk", PartitionValue: model.Str("a")}},
		{"#pk = :a AND #sk = :b", schemaSN, KeyCondition{PartitionName: "pk", PartitionValue: model.Str("a"),
			SortName: "sk", SortOp: SortEQ, SortValue: model.Str("b")}},
		{"sk < :b AND pk = :a", schemaSN, KeyCondition{PartitionName: "pk", PartitionValue: model.Str("a"),
			SortName: "sk", SortOp: SortLT, SortValue: model.Str("b")}},
		{"pk = :a and :b < sk", schemaSN, KeyCondition{PartitionName: "pk", PartitionValue: model.Str("a"),
			SortName: "sk", SortOp: SortGT, SortValue: model.Str("b")}},
		{"pk = :a AND :b >= sk", schemaSN, KeyCondition{PartitionName: "pk", PartitionValue: model.Str("a"),
			SortName: "sk", SortOp: SortLE, SortValue: model.Str("b")}},
		{"pk = :a AND sk <= :b", schemaSN, KeyCondition{PartitionName: "pk", PartitionValue: model.Str("a"),
			SortName: "sk", SortOp: SortLE, SortValue: model.Str("b")}},
		{"pk = :a AND sk > :b", schemaSN, KeyCondition{PartitionName: "pk", PartitionValue: model.Str("a"),
			SortName: "sk", SortOp: SortGT, SortValue: model.Str("b")}},
		{"pk = :a AND n >= :n5", schemaNN, KeyCondition{PartitionName: "pk", PartitionValue: model.Str("a"),
			SortName: "n", SortOp: SortGE, SortValue: model.Num("5")}},
		{"pk = :a AND n BETWEEN :n1 AND :n5", schemaNN, KeyCondition{PartitionName: "pk", PartitionValue: model.Str("a"),
			SortName: "n", SortOp: SortBetween, SortValue: model.Num("1"), SortValue2: model.Num("5")}},
		{"pk = :a AND begins_with(sk, :b)", schemaSN, KeyCondition{PartitionName: "pk", PartitionValue: model.Str("a"),
			SortName: "sk", SortOp: SortBeginsWith, SortValue: model.Str("b")}},
		{"(pk = :a) AND (begins_with(b, :bin))", schemaB, KeyCondition{PartitionName: "pk", PartitionValue: model.Str("a"),
			SortName: "b", SortOp: SortBeginsWith, SortValue: model.Bin([]byte{1, 2})}},
	}
	for _, c := range cases {
		kc, err := CompileKeyCondition(c.src, newTestContext(), c.schema)
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		if kc.PartitionName != c.want.PartitionName || !sameValue(kc.PartitionValue, c.want.PartitionValue) ||
			kc.SortName != c.want.SortName || kc.SortOp != c.want.SortOp ||
			!sameValue(kc.SortValue, c.want.SortValue) || !sameValue(kc.SortValue2, c.want.SortValue2) {
			t.Errorf("%q:\n got %+v\nwant %+v", c.src, *kc, c.want)
		}
	}
}

// Rejected key conditions, with DynamoDB's messages as dynalite records them
// (validations/index.js checkExpr, validations/query.js, actions/query.js), following
// Query.KeyConditionExpressions.html for what is allowed.
func TestKeyConditionErrors(t *testing.T) {
	cases := []struct {
		src    string
		schema KeySchema
		want   string
	}{
		{"", schemaSN, "Invalid KeyConditionExpression: The expression can not be empty;"},
		{"pk = :a OR sk = :b", schemaSN, "Invalid operator used in KeyConditionExpression: OR"},
		{"NOT pk = :a", schemaSN, "Invalid operator used in KeyConditionExpression: NOT"},
		{"pk IN (:a)", schemaSN, "Invalid operator used in KeyConditionExpression: IN"},
		{"pk <> :a", schemaSN, "Invalid operator used in KeyConditionExpression: <>"},
		{"pk = :a AND attribute_exists(sk)", schemaSN, "Invalid operator used in KeyConditionExpression: attribute_exists"},
		{"pk = :a AND contains(sk, :b)", schemaSN, "Invalid operator used in KeyConditionExpression: contains"},
		{"pk = :a AND size(sk) > :n1", schemaSN, "KeyConditionExpressions cannot contain nested operations"},
		{"pk = :a AND :a BETWEEN sk AND :b", schemaSN, "Invalid condition in KeyConditionExpression: BETWEEN operator must have the key attribute as its first operand"},
		{"pk = :a AND begins_with(:b, sk)", schemaSN, "Invalid condition in KeyConditionExpression: begins_with operator must have the key attribute as its first operand"},
		{"pk = sk", schemaSN, "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition"},
		{"pk.x = :a", schemaSN, "KeyConditionExpressions cannot have conditions on nested attributes"},
		{":a = :b", schemaSN, "Invalid condition in KeyConditionExpression: No key attribute specified"},
		{"pk = :a AND pk = :b", schemaSN, "KeyConditionExpressions must only contain one condition per key"},
		{"pk = :a AND sk = :b AND x = :z", schemaSN, "Conditions can be of length 1 or 2 only"},
		{"sk = :b", schemaSN, "Query condition missed key schema element: pk"},
		{"pk = :a AND extra = :b", schemaSN, "Query condition missed key schema element: sk"},
		{"pk = :a AND sk = :b", schemaP, "Query key condition not supported"},
		{"pk > :a", schemaSN, "Query key condition not supported"},
		{"begins_with(pk, :a)", schemaSN, "Query key condition not supported"},
		{"pk = :n1", schemaSN, "One or more parameter values were invalid: Condition parameter type does not match schema type"},
		{"pk = :a AND sk = :n1", schemaSN, "One or more parameter values were invalid: Condition parameter type does not match schema type"},
		{"pk = :a AND begins_with(n, :a)", schemaNN, "One or more parameter values were invalid: Condition parameter type does not match schema type"},
		{"pk = :a AND begins_with(n, :n1)", schemaNN, "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"},
		{"pk = :a AND n BETWEEN :n5 AND :n1", schemaNN, "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:5}, upper bound operand: AttributeValue: {N:1}"},
		{"pk = :a AND sk BETWEEN :b AND :a", schemaSN, "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {S:b}, upper bound operand: AttributeValue: {S:a}"},
		{"pk = :a AND sk BETWEEN :n1 AND :a", schemaSN, "Invalid KeyConditionExpression: The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:a}"},
		{"pk = :a AND sk < :ss", schemaSN, "One or more parameter values were invalid: ComparisonOperator LT is not valid for SS AttributeValue type"},
		{"pk = :ss", schemaSN, "One or more parameter values were invalid: Condition parameter type does not match schema type"},
		{"pk = :a AND date = :b", schemaSN, "Invalid KeyConditionExpression: Attribute name is a reserved keyword; reserved keyword: date"},
		{"pk = :a AND", schemaSN, `Invalid KeyConditionExpression: Syntax error; token: "<EOF>", near: "AND"`},
		{"pk = :nope", schemaSN, "Invalid KeyConditionExpression: An expression attribute value used in expression is not defined; attribute value: :nope"},
	}
	for _, c := range cases {
		_, err := CompileKeyCondition(c.src, newTestContext(), c.schema)
		checkErr(t, c.src, err, c.want)
	}
}

// MatchSort applies the sort key condition as a Query does: S by UTF-8 bytes, N
// numerically, B by bytes (Query.KeyConditionExpressions.html, HowItWorks.CoreComponents
// "sort key" order).
func TestMatchSort(t *testing.T) {
	cases := []struct {
		src    string
		schema KeySchema
		v      model.Value
		want   bool
	}{
		{"pk = :a", schemaSN, model.Str("anything"), true},
		{"pk = :a AND sk = :b", schemaSN, model.Str("b"), true},
		{"pk = :a AND sk = :b", schemaSN, model.Str("bb"), false},
		{"pk = :a AND sk < :b", schemaSN, model.Str("a#1"), true},
		{"pk = :a AND sk < :b", schemaSN, model.Str("b"), false},
		{"pk = :a AND sk <= :b", schemaSN, model.Str("b"), true},
		{"pk = :a AND sk > :a", schemaSN, model.Str("é"), true}, // é is 0xC3 0xA9 > 'a'
		{"pk = :a AND sk >= :b", schemaSN, model.Str("a"), false},
		{"pk = :a AND begins_with(sk, :a)", schemaSN, model.Str("a#1"), true},
		{"pk = :a AND begins_with(sk, :a)", schemaSN, model.Str("A#1"), false},
		{"pk = :a AND begins_with(sk, :hel)", schemaSN, model.Str("héllo"), true},
		{"pk = :a AND sk BETWEEN :a AND :b", schemaSN, model.Str("a"), true},
		{"pk = :a AND sk BETWEEN :a AND :b", schemaSN, model.Str("b"), true},
		{"pk = :a AND sk BETWEEN :a AND :b", schemaSN, model.Str("b0"), false},
		{"pk = :a AND n > :n5", schemaNN, model.Num("10"), true},
		{"pk = :a AND n < :n10", schemaNN, model.Num("9.99"), true},
		{"pk = :a AND n = :n1e1", schemaNN, model.Num("10"), true},
		{"pk = :a AND n BETWEEN :n1 AND :n5", schemaNN, model.Num("-1"), false},
		{"pk = :a AND n BETWEEN :n1 AND :n5", schemaNN, model.Num("5.0"), true},
		{"pk = :a AND begins_with(b, :bin)", schemaB, model.Bin([]byte{1, 2, 255}), true},
		{"pk = :a AND begins_with(b, :bin)", schemaB, model.Bin([]byte{1}), false},
		{"pk = :a AND n > :n5", schemaNN, model.Str("10"), false}, // another type never matches
	}
	for _, c := range cases {
		kc, err := CompileKeyCondition(c.src, newTestContext(), c.schema)
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		if got := kc.MatchSort(c.v); got != c.want {
			t.Errorf("%q MatchSort(%s) = %v, want %v", c.src, ValueString(c.v), got, c.want)
		}
	}
}

// sameValue is Equal, with the zero Value (no value) equal to itself.
func sameValue(a, b model.Value) bool { return a.Type == 0 && b.Type == 0 || a.Equal(b) }

// MatchSort reports whether a sort key value satisfies the sort key condition
// (true when there is none). Values of another type never match.
func (k *KeyCondition) MatchSort(v model.Value) bool {
	switch k.SortOp {
	case SortNone:
		return true
	case SortBetween:
		return v.Type == k.SortValue.Type && v.Type == k.SortValue2.Type && ordered(v.Type) &&
			model.CompareScalar(k.SortValue, v) <= 0 && model.CompareScalar(v, k.SortValue2) <= 0
	case SortBeginsWith:
		return v.Type == k.SortValue.Type && (v.Type == model.TypeS || v.Type == model.TypeB) &&
			strings.HasPrefix(v.Str, k.SortValue.Str)
	}
	return compare(string(k.SortOp), v, true, k.SortValue, true)
}
