package expr

import (
	"reflect"
	"strings"
	"testing"

	"stwb/model"
)

func mapOf(kv ...any) model.Value {
	m := map[string]model.Value{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(model.Value)
	}
	return model.Map(m)
}

// Update actions, following
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.UpdateExpressions.html
// (SET, REMOVE, ADD, DELETE; nested paths; list elements; sets; number arithmetic)
// and dynalite actions/updateItem.js for the run-time errors.
func TestUpdateApply(t *testing.T) {
	base := func() model.Item {
		return model.Item{
			"pk":  model.Str("P"),
			"n":   model.Num("10"),
			"s":   model.Str("x"),
			"l":   model.List(model.Str("a"), model.Str("b"), model.Str("c")),
			"m":   mapOf("a", mapOf("b", model.Num("1")), "l", model.List(model.Num("1"))),
			"ss":  model.StrSet("a", "b"),
			"ns":  model.NumSet("1", "2"),
			"big": model.Num("9.9E125"),
		}
	}
	with := func(changes ...any) model.Item {
		it := base()
		for i := 0; i < len(changes); i += 2 {
			if v, ok := changes[i+1].(model.Value); ok {
				it[changes[i].(string)] = v
			} else {
				delete(it, changes[i].(string))
			}
		}
		return it
	}
	gone := struct{}{}
	cases := []struct {
		src  string
		item model.Item // nil: base()
		want model.Item // nil when an error is wanted
		err  string
	}{
		// SET
		{src: "SET s = :a", want: with("s", model.Str("a"))},
		{src: "SET newattr = :n5", want: with("newattr", model.Num("5"))},
		{src: "set #st = :active, n = :n1", want: with("status", model.Str("active"), "n", model.Num("1"))},
		{src: "SET s = n", want: with("s", model.Num("10"))},
		{src: "SET n = n + :n5", want: with("n", model.Num("15"))},
		{src: "SET n = n - :n100", want: with("n", model.Num("-90"))},
		{src: "SET n = :n1 - n", want: with("n", model.Num("-9"))},
		{src: "SET n = n + :neg", want: with("n", model.Num("6.5"))},
		{src: "SET n = (n + :n1e1)", want: with("n", model.Num("20"))},
		{src: "SET n = :big + :n1", want: with("n", model.Num("100000000000000000000000000000000000000"))},
		{src: "SET n = n + :n1, s = n", want: with("n", model.Num("11"), "s", model.Num("10"))}, // values read the item before the update
		{src: "SET x = if_not_exists(x, :n5)", want: with("x", model.Num("5"))},
		{src: "SET n = if_not_exists(n, :n5)", want: with("n", model.Num("10"))},
		{src: "SET l = list_append(l, :list)", want: with("l", model.List(model.Str("a"), model.Str("b"), model.Str("c"), model.Str("q")))},
		{src: "SET l = list_append(:list, l)", want: with("l", model.List(model.Str("q"), model.Str("a"), model.Str("b"), model.Str("c")))},
		{src: "SET x = list_append(if_not_exists(x, :list), :list)", want: with("x", model.List(model.Str("q"), model.Str("q")))},
		{src: "SET m.a.b = :n5", want: with("m", mapOf("a", mapOf("b", model.Num("5")), "l", model.List(model.Num("1"))))},
		{src: "SET m.a.c = :a", want: with("m", mapOf("a", mapOf("b", model.Num("1"), "c", model.Str("a")), "l", model.List(model.Num("1"))))},
		{src: "SET m.l[0] = :n5", want: with("m", mapOf("a", mapOf("b", model.Num("1")), "l", model.List(model.Num("5"))))},
		{src: "SET l[1] = :z", want: with("l", model.List(model.Str("a"), model.Str("z"), model.Str("c")))},
		{src: "SET l[10] = :z", want: with("l", model.List(model.Str("a"), model.Str("b"), model.Str("c"), model.Str("z")))}, // past the end appends
		{src: "SET l[9] = :b, l[8] = :a", want: with("l", model.List(model.Str("a"), model.Str("b"), model.Str("c"), model.Str("a"), model.Str("b")))},
		{src: "SET pk = :a", item: model.Item{}, want: model.Item{"pk": model.Str("a")}},
		// REMOVE
		{src: "REMOVE s", want: with("s", gone)},
		{src: "REMOVE s, n, gone2", want: with("s", gone, "n", gone)},
		{src: "REMOVE m.a.b", want: with("m", mapOf("a", model.Map(map[string]model.Value{}), "l", model.List(model.Num("1"))))},
		{src: "REMOVE l[1]", want: with("l", model.List(model.Str("a"), model.Str("c")))},
		{src: "REMOVE l[0], l[2]", want: with("l", model.List(model.Str("b")))}, // indexes of the list before the update
		{src: "REMOVE l[2], l[0]", want: with("l", model.List(model.Str("b")))},
		{src: "REMOVE l[7]", want: base()},
		// ADD
		{src: "ADD n :n5", want: with("n", model.Num("15"))},
		{src: "ADD n :neg", want: with("n", model.Num("6.5"))},
		{src: "ADD hits :n1", want: with("hits", model.Num("1"))},
		{src: "ADD ss :ssc", want: with("ss", model.StrSet("a", "b", "c"))},
		{src: "ADD ss :ss", want: with("ss", model.StrSet("a", "b"))},
		{src: "ADD ns :ns3", want: with("ns", model.NumSet("1", "2", "3"))},
		{src: "ADD newset :bs", want: with("newset", model.BinSet([]byte{9}))},
		{src: "ADD m.a.b :n1", want: with("m", mapOf("a", mapOf("b", model.Num("2")), "l", model.List(model.Num("1"))))},
		// DELETE
		{src: "DELETE ss :ssc", want: base()},
		{src: "DELETE ss :ss", want: with("ss", gone)}, // an emptied set is removed
		{src: "DELETE ns :ns", want: with("ns", gone)},
		{src: "DELETE gone2 :ss", want: base()},
		// All four at once.
		{src: "SET s = :a REMOVE n ADD ns :ns3 DELETE ss :ssc", want: with("s", model.Str("a"), "n", gone, "ns", model.NumSet("1", "2", "3"))},
		{src: "DELETE ss :ss ADD n :n1 REMOVE s SET x = :b", want: with("ss", gone, "n", model.Num("11"), "s", gone, "x", model.Str("b"))},
		// Run-time errors.
		{src: "SET s = s + :n1", err: "An operand in the update expression has an incorrect data type"},
		{src: "SET n = n - s", err: "An operand in the update expression has an incorrect data type"},
		{src: "SET l = list_append(l, s)", err: "An operand in the update expression has an incorrect data type"},
		{src: "SET x = gone2", err: "The provided expression refers to an attribute that does not exist in the item"},
		{src: "SET n = gone2 + :n1", err: "The provided expression refers to an attribute that does not exist in the item"},
		{src: "SET gone2.x = :a", err: "The document path provided in the update expression is invalid for update"},
		{src: "SET s.x = :a", err: "The document path provided in the update expression is invalid for update"},
		{src: "SET m.gone2.x = :a", err: "The document path provided in the update expression is invalid for update"},
		{src: "SET m[0] = :a", err: "The document path provided in the update expression is invalid for update"},
		{src: "SET l[5].x = :a", err: "The document path provided in the update expression is invalid for update"},
		{src: "REMOVE gone2.x", err: "The document path provided in the update expression is invalid for update"},
		{src: "ADD s :n1", err: "An operand in the update expression has an incorrect data type"},
		{src: "ADD ss :ns", err: "An operand in the update expression has an incorrect data type"},
		{src: "DELETE ss :ns", err: "An operand in the update expression has an incorrect data type"},
		{src: "SET n = big + big", err: "Number overflow. Attempting to store a number with magnitude larger than supported range"},
		{src: "SET n = :tiny - :tiny9", err: "Number underflow. Attempting to store a number with magnitude smaller than supported range"},
		{src: "ADD big :big", err: "Attempting to store more than 38 significant digits in a Number"},
	}
	for _, c := range cases {
		u, err := CompileUpdate(c.src, newTestContext())
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		item := c.item
		if item == nil {
			item = base()
		}
		before := item.Clone()
		got, err := u.Apply(item)
		if !item.Equal(before) {
			t.Errorf("%q: Apply changed its input", c.src)
		}
		if c.err != "" {
			checkErr(t, c.src, err, c.err)
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		if !got.Equal(c.want) {
			t.Errorf("%q:\n got %v\nwant %v", c.src, got, c.want)
		}
	}
}

// An update on no item builds one (UpdateItem creates the item when the key is new).
func TestUpdateOnNoItem(t *testing.T) {
	u, err := CompileUpdate("SET s = :a ADD n :n1, ss :ss REMOVE x DELETE y :ssc", newTestContext())
	if err != nil {
		t.Fatal(err)
	}
	got, err := u.Apply(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := model.Item{"s": model.Str("a"), "n": model.Num("1"), "ss": model.StrSet("a", "b")}
	if !got.Equal(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// Compile-time errors of UpdateExpression, with DynamoDB's wording (dynalite
// db/updateParser.pegjs).
func TestUpdateErrors(t *testing.T) {
	cases := []struct {
		src  string
		want string
	}{
		{"", "Invalid UpdateExpression: The expression can not be empty;"},
		{"SET a = :a SET b = :b", `Invalid UpdateExpression: The "SET" section can only be used once in an update expression;`},
		{"REMOVE a REMOVE b", `Invalid UpdateExpression: The "REMOVE" section can only be used once in an update expression;`},
		{"SET a = :a, a = :b", "Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]"},
		{"SET a = :a REMOVE a.b", "Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a, b]"},
		{"SET a.b = :a REMOVE a[1]", "Invalid UpdateExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, b], path two: [a, [1]]"},
		{"SET status = :a", "Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: status"},
		{"SET #nope = :a", "Invalid UpdateExpression: An expression attribute name used in the document path is not defined; attribute name: #nope"},
		{"SET a = :nope", "Invalid UpdateExpression: An expression attribute value used in expression is not defined; attribute value: :nope"},
		{"SET a = foo(b)", "Invalid UpdateExpression: Invalid function name; function: foo"},
		{"SET a = size(b)", "Invalid UpdateExpression: Invalid function name; function: size"},
		{"SET a = if_not_exists(:a, :b)", "Invalid UpdateExpression: Operator or function requires a document path; operator or function: if_not_exists"},
		{"SET a = if_not_exists(a)", "Invalid UpdateExpression: Incorrect number of operands for operator or function; operator or function: if_not_exists, number of operands: 1"},
		{"SET a = list_append(a, :a)", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: list_append, operand type: S"},
		{"SET a = a + :a", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: +, operand type: S"},
		{"SET a = :ss - a", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: -, operand type: SS"},
		{"ADD a :a", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: STRING"},
		{"ADD a :list", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: LIST"},
		{"DELETE a :n1", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: DELETE, operand type: NUMBER"},
		{"DELETE a :map", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: DELETE, operand type: MAP"},
		{"SET a :a", `Invalid UpdateExpression: Syntax error; token: ":a", near: "a :a"`},
		{"SET a = :a,", `Invalid UpdateExpression: Syntax error; token: "<EOF>", near: ","`},
		{"SET a = :a + ", `Invalid UpdateExpression: Syntax error; token: "<EOF>", near: "+"`},
		{"SET a = :a + :b + :c", `Invalid UpdateExpression: Syntax error; token: "+", near: ":b + :c"`},
		{"UPSERT a = :a", `Invalid UpdateExpression: Syntax error; token: "UPSERT", near: "UPSERT a"`},
		{"ADD a", `Invalid UpdateExpression: Syntax error; token: "<EOF>", near: "a"`},
		{"ADD a b", `Invalid UpdateExpression: Syntax error; token: "b", near: "a b"`},
		{"SET a < :a", `Invalid UpdateExpression: Syntax error; token: "<", near: "a < :a"`},
		{"SET a = :a REMOVE", `Invalid UpdateExpression: Syntax error; token: "<EOF>", near: "REMOVE"`},
		{"REMOVE a, set", `Invalid UpdateExpression: Syntax error; token: "set", near: ", set"`},
		// A reserved word wins over a repeated section and over an overlap.
		{"SET a = :a, a = :a SET year = :b", "Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: year"},
	}
	for _, c := range cases {
		_, err := CompileUpdate(c.src, newTestContext())
		checkErr(t, c.src, err, c.want)
	}
}

func TestUpdateAttributesAndPaths(t *testing.T) {
	u, err := CompileUpdate("SET #st = :a, m.a.b = :b REMOVE l[0] ADD n :n1 DELETE ss :ssc", newTestContext())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := u.Attributes(), []string{"l", "m", "n", "ss", "status"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Attributes() = %v, want %v", got, want)
	}
	var paths []string
	for _, p := range u.Paths() {
		paths = append(paths, p.String())
	}
	if got, want := strings.Join(paths, " "), "status m.a.b l[0] n ss"; got != want {
		t.Errorf("Paths() = %q, want %q", got, want)
	}
}
