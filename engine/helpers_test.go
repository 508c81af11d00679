package engine

import (
	"fmt"
	"strings"
	"testing"

	"stwb/model"
)

// testTable is the table most tests use: PK/SK strings, a GSI with both keys
// (ALL), a GSI with only a partition key (KEYS_ONLY), a GSI projecting INCLUDE
// [status], and an LSI on placedAt (KEYS_ONLY).
func testTable() model.Table {
	return model.Table{
		Name: "t",
		Key:  model.KeySchema{Partition: "PK", Sort: "SK"},
		Attributes: map[string]model.Type{"PK": model.TypeS, "SK": model.TypeS,
			"GSI1PK": model.TypeS, "GSI1SK": model.TypeS, "G2": model.TypeS, "G3": model.TypeS,
			"placedAt": model.TypeS, "n": model.TypeN},
		Indexes: []model.Index{
			{Name: "GSI1", Key: model.KeySchema{Partition: "GSI1PK", Sort: "GSI1SK"}, Projection: model.Projection{Type: model.ProjectAll}},
			{Name: "G2", Key: model.KeySchema{Partition: "G2"}, Projection: model.Projection{Type: model.ProjectKeysOnly}},
			{Name: "G3", Key: model.KeySchema{Partition: "G3", Sort: "n"}, Projection: model.Projection{Type: model.ProjectInclude, Include: []string{"status"}}},
			{Name: "LSI1", Local: true, Key: model.KeySchema{Sort: "placedAt"}, Projection: model.Projection{Type: model.ProjectKeysOnly}},
		},
	}
}

func newTestEngine(t testing.TB, items ...model.Item) *Engine {
	t.Helper()
	e, err := New(testTable())
	if err != nil {
		t.Fatal(err)
	}
	for i, it := range items {
		if err := e.load(it); err != nil {
			t.Fatalf("item %d: %v", i, err)
		}
	}
	return e
}

// item builds an item from name/value pairs: strings become S, model.Value stays.
func item(kv ...any) model.Item {
	it := model.Item{}
	for i := 0; i+1 < len(kv); i += 2 {
		switch v := kv[i+1].(type) {
		case string:
			it[kv[i].(string)] = model.Str(v)
		case model.Value:
			it[kv[i].(string)] = v
		default:
			panic(fmt.Sprintf("item: %T", v))
		}
	}
	return it
}

// sized pads an item with a "pad" string attribute so that its size is exactly n
// bytes (CapacityUnitCalculations.html item size: name bytes + value bytes).
func sized(it model.Item, n int) model.Item {
	pad := n - model.ItemSize(it) - len("pad")
	if pad < 0 {
		panic("sized: item already larger")
	}
	it["pad"] = model.Str(strings.Repeat("x", pad))
	return it
}

// sks lists one attribute of each item, for comparing orders.
func attr(items []model.Item, name string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it[name].Str
	}
	return out
}

func vals(kv ...any) map[string]model.Value {
	m := map[string]model.Value{}
	for i := 0; i+1 < len(kv); i += 2 {
		switch v := kv[i+1].(type) {
		case string:
			m[kv[i].(string)] = model.Str(v)
		case model.Value:
			m[kv[i].(string)] = v
		}
	}
	return m
}

func ptr[T any](v T) *T { return &v }

// errType is the DynamoDB error type of err, "" for nil.
func errType(err error) string {
	if err == nil {
		return ""
	}
	if e, ok := err.(*Error); ok {
		return e.Type
	}
	return "not an *Error: " + err.Error()
}

func errMsg(err error) string {
	if err == nil {
		return ""
	}
	return err.(*Error).Message
}

// load puts one item as PutItem would, without a condition.
func (e *Engine) load(it model.Item) *Error {
	item, size, err := e.checkItem(it)
	if err != nil {
		return err
	}
	e.store(item, size, false)
	return nil
}
