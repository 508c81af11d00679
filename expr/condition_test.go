package expr

import (
	"reflect"
	"strings"
	"testing"
)

// Comparators, BETWEEN and IN, following
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.OperatorsAndFunctions.html#Expressions.OperatorsAndFunctions.Comparators
// and the comparison rules of dynalite db/index.js (compare): values of different
// types are false, a gone attribute is <> everything.
func TestComparators(t *testing.T) {
	cases := []struct {
		src  string
		want bool
	}{
		{"s = :s", true},
		{":s = s", true},
		{"s = :hel", false},
		{"s <> :hel", true},
		{"s <> :s", false},
		{"n = :n10", true},
		{"n = :n1e1", true}, // numbers compare by value, not text
		{"n <> :n1e1", false},
		{"n < :n100", true},  // numerically: 10 < 100 although "10" > "100" is false as text too
		{"n > :n5", true},    // numerically; as text "10" < "5"
		{"n >= :n10", true},  //
		{"n <= :n1e1", true}, //
		{"n < :neg", false},
		{"n > :neg", true},
		{"n = :s", false},  // different types: false, not an error
		{"n <> :s", true},  // and never equal
		{"n < :s", false},  //
		{"s > :hel", true}, // S by UTF-8 bytes: "héllo" > "hé"
		{"s < :z", true},   // 'h' < 'z'
		{"s >= :s", true},
		{"b > :bin", true}, // B by bytes: 01 02 03 > 01 02
		{"b < :bin3", true},
		{"t = :true", true},
		{"t > :true", false}, // BOOL is not ordered
		{"z = :null", true},
		{"ss = :ss", true},
		{"ns = :ns", true},
		{"ss <> :ssc", true},
		{"ss < :ssc", false}, // sets are not ordered
		{"l[0] = :a", true},
		{"l[1] = :n1", true},
		{"l[7] = :a", false},
		{"l[7] <> :a", true}, // gone <> value is true
		{"gone <> :a", true},
		{"gone = :a", false},
		{"gone < :a", false},
		{"gone >= :a", false},
		{"gone <> gone2", false}, // nothing on either side
		{"m.a.b[2].c = :s", false},
		{"m.a.b[1] = :n2", true},
		{"#m.#x = :a", false},
		{"#st = :active", true},
		{"#dot = :s", false}, // #dot names the attribute "a.b", not a path
		{"(s) = :s", true},
		{"(s = :s)", true},
		{"s = (:s)", true},
		{"pk = sk", false},
		{"pk <> sk", true},
		{"n BETWEEN :n5 AND :n10", true},
		{"n between :n1 and :n5", false},
		{"n BETWEEN :n10 AND :n100", true},
		{"s BETWEEN :a AND :z", true},
		{"s BETWEEN :a AND :b", false},
		{"gone BETWEEN :a AND :z", false},
		{"s BETWEEN :n1 AND :n5", false}, // bounds of another type
		{"n IN (:n1, :n10)", true},
		{"n IN (:n1, :n5)", false},
		{"n IN (:n1e1)", true},
		{"s IN (:n10, :s)", true},
		{"gone IN (:a)", false},
		{"ss IN (:ssc, :ss)", true},
		{"n in (n, :a)", true},
		{"l[0] IN (:a)", true},
	}
	item := testItem()
	for _, c := range cases {
		cond, err := CompileFilter(c.src, newTestContext())
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		if got := cond.Eval(item); got != c.want {
			t.Errorf("%q on the test item = %v, want %v", c.src, got, c.want)
		}
	}
}

// Functions, following
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.OperatorsAndFunctions.html#Expressions.OperatorsAndFunctions.Functions
func TestFunctions(t *testing.T) {
	cases := []struct {
		src  string
		want bool
	}{
		{"attribute_exists(s)", true},
		{"attribute_exists(gone)", false},
		{"attribute_exists(m.a.b[2].c)", true},
		{"attribute_exists(m.a.b[3])", false},
		{"attribute_exists(s.x)", false}, // a step into a non-map is gone
		{"attribute_not_exists(gone)", true},
		{"attribute_not_exists(#st)", false},
		{"attribute_type(s, :tS)", true},
		{"attribute_type(n, :tN)", true},
		{"attribute_type(n, :tS)", false},
		{"attribute_type(ss, :tSS)", true},
		{"attribute_type(m, :tM)", true},
		{"attribute_type(gone, :tS)", false},
		{"begins_with(s, :hel)", true},
		{"begins_with(s, :s)", true},
		{"begins_with(s, :a)", false},
		{"begins_with(s, :empty)", true},
		{"begins_with(b, :bin)", true},
		{"begins_with(b, :bin3)", false},
		{"begins_with(gone, :a)", false},
		{"begins_with(n, :a)", false}, // a number attribute never begins with anything
		{"begins_with(s, gone)", false},
		{"contains(s, :hel)", true},
		{"contains(s, :a)", false},
		{"contains(ss, :a)", true},
		{"contains(ss, :z)", false},
		{"contains(ns, :n2)", true},
		{"contains(ns, :a)", false}, // an S is never an element of an NS
		{"contains(l, :a)", true},
		{"contains(l, :n1)", true},
		{"contains(l, :z)", false},
		{"contains(b, :bin)", true},
		{"contains(gone, :a)", false},
		{"contains(n, :n1)", false},
		{"contains(s, pk)", false},
		{"size(s) = :n5", true}, // "héllo" is 5 UTF-16 units (6 UTF-8 bytes)
		{"size(u) = :n3", true}, // "é𝄞": one unit and a surrogate pair
		{"size(u) < :n5", true}, // although it is 6 UTF-8 bytes
		{"size(s) > :n5", false},
		{"size(b) < :n5", true},                // 3 bytes
		{"size(ss) = :n2", true},               // 2 elements
		{"size(l) > :n2", true},                // 3 elements
		{"size(m) = :n2", true},                // 2 entries
		{"size(m.e) < :n1", true},              // an empty map
		{"size(n) = :n2", false},               // size of a number has no value: false
		{"size(gone) <> :n1", true},            // and is gone, so <> holds
		{"size(gone) = :n1", false},            //
		{":n2 < size(s)", true},                // size() on either side
		{"size(s) BETWEEN :n5 AND :n10", true}, //
		{"size(s) IN (:n1, :n100)", false},     //
		{"size(:s) = :n5", true},               // size of a value is allowed
	}
	item := testItem()
	for _, c := range cases {
		cond, err := CompileCondition(c.src, newTestContext())
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		if got := cond.Eval(item); got != c.want {
			t.Errorf("%q on the test item = %v, want %v", c.src, got, c.want)
		}
	}
}

// Logical operators and their precedence: NOT, then AND, then OR
// (Expressions.OperatorsAndFunctions.html, "Precedence in conditions").
func TestLogicalPrecedence(t *testing.T) {
	cases := []struct {
		src  string
		want bool
	}{
		{"s = :s AND n = :n10", true},
		{"s = :s AND n = :n5", false},
		{"s = :a OR n = :n10", true},
		{"s = :a OR n = :n5", false},
		{"NOT s = :a", true},
		{"not s = :s", false},
		{"NOT NOT s = :s", true},
		// AND binds tighter than OR: true OR (false AND false).
		{"s = :s OR s = :a AND s = :b", true},
		// With parentheses: (true OR false) AND false.
		{"(s = :s OR s = :a) AND s = :b", false},
		// NOT binds tighter than AND: (NOT false) AND true.
		{"NOT s = :a AND n = :n10", true},
		// NOT of a parenthesised OR.
		{"NOT (s = :a OR n = :n10)", false},
		{"attribute_exists(s) AND NOT attribute_exists(gone)", true},
		{"(attribute_exists(s)) and (n > :n5)", true},
		{"s = :a or s = :b or s = :s", true},
		{"s = :s and n = :n10 and t = :true and z = :null", true},
	}
	item := testItem()
	for _, c := range cases {
		cond, err := CompileFilter(c.src, newTestContext())
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		if got := cond.Eval(item); got != c.want {
			t.Errorf("%q = %v, want %v", c.src, got, c.want)
		}
	}
}

// A nil item is no item: a condition on a write to a new key
// (Expressions.ConditionExpressions.html, "Preventing overwrites").
func TestConditionOnNoItem(t *testing.T) {
	cases := []struct {
		src  string
		want bool
	}{
		{"attribute_not_exists(pk)", true},
		{"attribute_exists(pk)", false},
		{"pk <> :a", true},
		{"pk = :a", false},
	}
	for _, c := range cases {
		cond, err := CompileCondition(c.src, newTestContext())
		if err != nil {
			t.Fatal(err)
		}
		if got := cond.Eval(nil); got != c.want {
			t.Errorf("%q on no item = %v, want %v", c.src, got, c.want)
		}
	}
}

// Validation errors of conditions, with DynamoDB's wording as dynalite records it
// (db/conditionParser.pegjs, validations/index.js) and the kind each message names.
// Reserved words: ReservedWords.html.
func TestConditionErrors(t *testing.T) {
	in101 := "n IN (" + strings.TrimSuffix(strings.Repeat(":n1, ", 101), ", ") + ")"
	ops301 := strings.Repeat("s = :a AND ", 150) + "s = :a" // 151 comparisons, 150 ANDs
	ops300 := strings.Repeat("s = :a AND ", 149) + "s = :a"
	long := "s = :a" + strings.Repeat(" ", 4091)
	cases := []struct {
		src  string
		kind Kind
		want string
	}{
		{"", KindFilter, "Invalid FilterExpression: The expression can not be empty;"},
		{"", KindCondition, "Invalid ConditionExpression: The expression can not be empty;"},
		{"status = :a", KindFilter, "Invalid FilterExpression: Attribute name is a reserved keyword; reserved keyword: status"},
		{"Size > :n1", KindCondition, "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: Size"},
		{"m.name = :a", KindFilter, "Invalid FilterExpression: Attribute name is a reserved keyword; reserved keyword: name"},
		{"#nope = :a", KindFilter, "Invalid FilterExpression: An expression attribute name used in the document path is not defined; attribute name: #nope"},
		{"s = :nope", KindFilter, "Invalid FilterExpression: An expression attribute value used in expression is not defined; attribute value: :nope"},
		{"s =", KindFilter, `Invalid FilterExpression: Syntax error; token: "<EOF>", near: "="`},
		{"s = :a AND", KindFilter, `Invalid FilterExpression: Syntax error; token: "<EOF>", near: "AND"`},
		{"s = 5", KindFilter, `Invalid FilterExpression: Syntax error; token: "5", near: "= 5"`},
		{"first-name = :a", KindFilter, `Invalid FilterExpression: Syntax error; token: "-", near: "first-name"`},
		{"s == :a", KindCondition, `Invalid ConditionExpression: Syntax error; token: "=", near: "== :a"`},
		{"s = :a)", KindFilter, `Invalid FilterExpression: Syntax error; token: ")", near: ":a)"`},
		{"s", KindFilter, `Invalid FilterExpression: Syntax error; token: "<EOF>", near: "s"`},
		{"s = :a ☃", KindFilter, `Invalid FilterExpression: Syntax error; token: "☃", near: ":a ☃"`},
		{"and = :a", KindFilter, `Invalid FilterExpression: Syntax error; token: "and", near: "and ="`},
		{"((s = :a))", KindFilter, "Invalid FilterExpression: The expression has redundant parentheses;"},
		{"((s)) = :a", KindFilter, "Invalid FilterExpression: The expression has redundant parentheses;"},
		{"foo(s)", KindFilter, "Invalid FilterExpression: Invalid function name; function: foo"},
		{"size(s)", KindFilter, "Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: size"},
		{"size(s) AND s = :a", KindFilter, "Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: size"},
		{"begins_with(s, :a) = :true", KindFilter, "Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: begins_with"},
		{"contains(attribute_exists(s), :a)", KindFilter, "Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: attribute_exists"},
		{"size(s, n) > :n1", KindFilter, "Invalid FilterExpression: Incorrect number of operands for operator or function; operator or function: size, number of operands: 2"},
		{"begins_with(s)", KindFilter, "Invalid FilterExpression: Incorrect number of operands for operator or function; operator or function: begins_with, number of operands: 1"},
		{"attribute_exists(:a)", KindCondition, "Invalid ConditionExpression: Operator or function requires a document path; operator or function: attribute_exists"},
		{"attribute_not_exists(:a)", KindCondition, "Invalid ConditionExpression: Operator or function requires a document path; operator or function: attribute_not_exists"},
		{"begins_with(s, :n1)", KindFilter, "Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"},
		{"begins_with(s, size(l))", KindFilter, "Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"},
		{"begins_with(:ss, s)", KindFilter, "Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: SS"},
		{"attribute_type(s, :tBad)", KindFilter, "Invalid FilterExpression: Invalid attribute type name found; type: STRING, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}"},
		{"attribute_type(s, :n1)", KindFilter, "Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: attribute_type, operand type: N"},
		{"attribute_type(s, n)", KindFilter, "Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: attribute_type, operand type: {NS,SS,L,BS,N,M,B,BOOL,NULL,S}"},
		{"size(:n1) > :n1", KindCondition, "Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: size, operand type: N"},
		{"size(size(s)) > :n1", KindCondition, "Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: size, operand type: N"},
		{"s = s", KindFilter, "Invalid FilterExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: =, first operand: [s]"},
		{"m.a.b[1] <> m.a.b[1]", KindFilter, "Invalid FilterExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: <>, first operand: [m, a, b, [1]]"},
		{"contains(l, l)", KindFilter, "Invalid FilterExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: contains, first operand: [l]"},
		{"n BETWEEN :n10 AND :n5", KindFilter, "Invalid FilterExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:10}, upper bound operand: AttributeValue: {N:5}"},
		{"n BETWEEN :a AND :n5", KindCondition, "Invalid ConditionExpression: The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {S:a}, upper bound operand: AttributeValue: {N:5}"},
		{in101, KindFilter, "Invalid FilterExpression: The IN operator is provided with too many operands; number of operands: 101"},
		// Limits of Constraints.html, "Expression parameters": 300 operators, 4 KB.
		{ops301, KindFilter, "Invalid FilterExpression: The expression contains too many operators; operator count: 301"},
		{ops300, KindFilter, ""},
		{long, KindCondition, "Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; expression size: 4097"},
		{long[:4096], KindCondition, ""},
		{"(((s))) = :a", KindFilter, "Invalid FilterExpression: The expression has redundant parentheses;"},
		{"s = ((:a))", KindFilter, "Invalid FilterExpression: The expression has redundant parentheses;"},
		{"(((s = :a)))", KindFilter, "Invalid FilterExpression: The expression has redundant parentheses;"},
		{"((s = :a) AND (n = :n1))", KindFilter, ""},
		{"NOT (NOT (s = :a))", KindFilter, ""},
		// Which error wins when there are several: redundant parentheses first, then
		// unknown functions, misused functions, reserved words, undefined names.
		{"((status = :nope))", KindFilter, "Invalid FilterExpression: The expression has redundant parentheses;"},
		{"status = :nope", KindFilter, "Invalid FilterExpression: Attribute name is a reserved keyword; reserved keyword: status"},
		{"foo(status)", KindFilter, "Invalid FilterExpression: Invalid function name; function: foo"},
	}
	for _, c := range cases {
		_, err := CompileConditionKind(c.src, newTestContext(), c.kind)
		checkErr(t, c.src, err, c.want)
	}
}

// The top-level attributes a condition reads, which the engine checks against the
// key attributes of a Query (Query.FilterExpression.html: a filter cannot name them).
func TestConditionAttributes(t *testing.T) {
	cases := []struct {
		src  string
		want []string
	}{
		{"s = :a", []string{"s"}},
		{"#st = :a AND m.a.b[0] > size(l) OR contains(s, pk)", []string{"l", "m", "pk", "s", "status"}},
		{"size(:s) > :n1", nil},
	}
	for _, c := range cases {
		cond, err := CompileFilter(c.src, newTestContext())
		if err != nil {
			t.Fatal(err)
		}
		if got := cond.Attributes(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: attributes %v, want %v", c.src, got, c.want)
		}
	}
}

// Eval reads the item and never changes it.
func TestEvalDoesNotChangeItem(t *testing.T) {
	item := testItem()
	before := item.Clone()
	cond, err := CompileFilter("size(m.a.b) > :n1 AND contains(l, :a) AND s IN (:s)", newTestContext())
	if err != nil {
		t.Fatal(err)
	}
	if !cond.Eval(item) {
		t.Fatal("condition should hold")
	}
	if !item.Equal(before) {
		t.Fatal("Eval changed the item")
	}
}

// CompileConditionKind parses a condition for the given kind (KindFilter or
// KindCondition).
func CompileConditionKind(src string, ctx *Context, kind Kind) (*Condition, error) {
	return compileCondition(src, ctx, kind)
}

// TestConditionKeyword: a condition's keywords in any letter case (ReservedWords.html:
// the list "isn't case-sensitive"); function names and other words are none
// (Expressions.OperatorsAndFunctions.html: function names are case-sensitive).
func TestConditionKeyword(t *testing.T) {
	cases := []struct{ word, want string }{
		{"AND", "AND"}, {"and", "AND"}, {"aNd", "AND"}, {"or", "OR"}, {"Not", "NOT"},
		{"between", "BETWEEN"}, {"in", "IN"},
		{"begins_with", ""}, {"BEGINS_WITH", ""}, {"size", ""}, {"andy", ""}, {"SET", ""}, {"", ""},
	}
	for _, c := range cases {
		got, ok := ConditionKeyword(c.word)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("ConditionKeyword(%q) = %q, %v; want %q", c.word, got, ok, c.want)
		}
	}
}
