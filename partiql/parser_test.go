package partiql

import (
	"testing"

	"stwb/model"
)

// Statements DynamoDB takes, and what each parses to (ql-reference.*.html's
// examples, and the conformance suite's).
func TestParseAccepts(t *testing.T) {
	for _, c := range []struct {
		src    string
		kind   Kind
		table  string
		index  string
		params int
	}{
		{`SELECT * FROM "Orders" WHERE OrderID = 100`, Select, "Orders", "", 0},
		{`select OrderID, Total from Orders where OrderID IN [100, 300, 234]`, Select, "Orders", "", 0},
		{`SELECT * FROM "Music"."ByGenre" WHERE Genre = ? AND "Year" BETWEEN 1 AND 2 ORDER BY "Year" DESC`, Select, "Music", "ByGenre", 1},
		{`SELECT a.b[2].c FROM t WHERE pk = 'x' AND begins_with("sk", 'p-') AND x IS NOT MISSING AND NOT y <> -1.5e3`, Select, "t", "", 0},
		{`INSERT INTO "Music" VALUE {'Artist': ?, 'n': 1, 'ok': TRUE, 'no': NULL, 'l': [1, 'a'], 's': <<'a', 'b'>>, 'm': {'x': {}}};`, Insert, "Music", "", 1},
		{`UPDATE "Music" SET a = a + 1, b = list_append(b, [1]) REMOVE c[0] SET d = set_add(d, <<1>>) WHERE pk = 'x' AND sk = 'y' RETURNING MODIFIED NEW *`, Update, "Music", "", 0},
		{`DELETE FROM "Music" WHERE pk = 'x' -- a comment
		  RETURNING ALL OLD *`, Delete, "Music", "", 0},
		{`EXISTS(SELECT * FROM "Music" WHERE pk = 'x' AND n > 1)`, Exists, "Music", "", 0},
	} {
		st, err := Parse(c.src)
		if err != nil {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		if st.Kind != c.kind || st.Table != c.table || st.Index != c.index || st.Params != c.params {
			t.Errorf("%s: kind %v table %q index %q params %d", c.src, st.Kind, st.Table, st.Index, st.Params)
		}
	}
}

// Statements DynamoDB refuses, with its message (the conformance suite's captures
// of DynamoDB's answers, ValidationExceptionMessages as DynamoDB words them).
func TestParseRefuses(t *testing.T) {
	const nwf = "Statement wasn't well formed, can't be processed: "
	for _, c := range []struct{ src, msg string }{
		{`SELECTT * FROMM "t"`, nwf + "Expected data manipulation"},
		{``, nwf + "Expected data manipulation"},
		{`SELECT * FROM "t"."gsi" WHERE`, nwf + "Unexpected term"},
		{`SELECT * FROM t WHERE h1 = 1e99999999999`, nwf},
		{`SELECT * FROM select`, nwf + "Unexpected keyword"},
		{`SELECT * FROM t WHERE attribute_exists(m.inner)`, nwf + "Invalid path dot component"},
		{`SELECT attribute_exists(ss) FROM "t" WHERE pk = 'x'`, "Unexpected path component at 1:8:16"},
		{`UPDATE t WHERE pk = 'x'`, nwf + "Expected data manipulation"},
		{`UPDATE t SET a = 1`, "Where clause does not contain a mandatory equality on all key attributes"},
		{`DELETE FROM t WHERE pk = 'x' RETURNING MODIFIED OLD *`, "Invalid returning clause: RETURNING MODIFIED OLD *. Only RETURNING ALL OLD * is allowed in DELETE statements."},
		{`INSERT INTO t VALUE {'pk': 'x'} RETURNING ALL OLD *`, "RETURNING is not supported in INSERT"},
		{`INSERT INTO t VALUE 'x'`, "Unsupported format in item expression. Please use struct format {...} to express item values for insert statement."},
		{`INSERT INTO t VALUE {'a': 1, 'a': 2}`, "Duplicate keys in tuple. Key: a under root"},
		{`SELECT a, a FROM t`, "Duplicate identifiers in select clause: a"},
		{`SELECT * FROM t ORDER BY pk`, "Must have WHERE clause in the statement when using ORDER BY clause."},
		{`SELECT * FROM t WHERE x IS DATE`, "Unsupported data type for IS operator: DATE. Supported data types are [MISSING, NULL, BOOLEAN, BLOB, STRING, NUMERIC, STRUCT, TUPLE, LIST]"},
		{`SELECT * FROM t WHERE pk = 'x' garbage`, nwf + "Unexpected token"},
		{`SELECT * FROM t WHERE pk = 'x`, nwf + "Invalid character"},
	} {
		_, err := Parse(c.src)
		if err == nil {
			t.Errorf("%s: parsed", c.src)
			continue
		}
		if err.Type != ValidationException || err.Message != c.msg {
			t.Errorf("%s:\n got %s\nwant %s", c.src, err.Message, c.msg)
		}
	}
}

func TestValue(t *testing.T) {
	st, err := Parse(`INSERT INTO t VALUE {'s': 'it''s', 'n': 01.50, 'b': ?, 'm': {'l': [TRUE, NULL, MISSING]}, 'ns': <<1, 2>>, 'gone': MISSING}`)
	if err != nil {
		t.Fatal(err)
	}
	v, _, err := Value(st.Value, []model.Value{model.Bin([]byte{1})})
	if err != nil {
		t.Fatal(err)
	}
	want := model.Map(map[string]model.Value{"s": model.Str("it's"), "n": model.Num("1.5"), "b": model.Bin([]byte{1}),
		"m": model.Map(map[string]model.Value{"l": model.List(model.Bool(true), model.Null())}), "ns": model.NumSet("1", "2")})
	if !v.Equal(want) {
		t.Errorf("value %v\nwant %v", v, want)
	}
	for _, c := range []struct{ src, msg string }{
		{`INSERT INTO t VALUE {'s': <<'x', 'x'>>}`, "One or more parameter values were invalid: Input collection [x, x] contains duplicates."},
		{`INSERT INTO t VALUE {'s': <<>>}`, "Empty bags are not supported"},
		{`INSERT INTO t VALUE {'s': <<1, 'a'>>}`, "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags"},
		{`INSERT INTO t VALUE {'s': set_add(<<'a'>>, <<'b'>>)}`, "Unsupported data type: set_add under key s"},
		{`INSERT INTO t VALUE {'s': ?}`, "Number of parameters in request and statement don't match."},
	} {
		st, perr := Parse(c.src)
		if perr != nil {
			t.Fatal(perr)
		}
		if _, _, err := Value(st.Value, nil); err == nil || err.Message != c.msg {
			t.Errorf("%s: %v, want %s", c.src, err, c.msg)
		}
	}
}

func TestOnTable(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`SELECT * FROM "Music"."ByGenre" WHERE a = 1`, `SELECT * FROM "x""y"."ByGenre" WHERE a = 1`},
		{`insert into Music value {'a': 1}`, `insert into "x""y" value {'a': 1}`},
		{`UPDATE "Music" SET a = 1 WHERE pk = 'Music'`, `UPDATE "x""y" SET a = 1 WHERE pk = 'Music'`},
		{`DELETE FROM Music WHERE pk = 'a'`, `DELETE FROM "x""y" WHERE pk = 'a'`},
	} {
		st, err := Parse(c.src)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.OnTable(`x"y`); got != c.want {
			t.Errorf("%s: %s, want %s", c.src, got, c.want)
		}
		if again, err := Parse(st.OnTable(`x"y`)); err != nil || again.Table != `x"y` {
			t.Errorf("%s: reparsed %v %v", c.src, again, err)
		}
	}
}
