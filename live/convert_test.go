package live

import (
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"stwb/model"
)

// convertCases pair a model value with its SDK form, one per attribute value type of
// HowItWorks.NamingRulesDataTypes.html ("Data types") and API_AttributeValue.html,
// with the edge cases that break naive conversions: multi-byte text, exact numbers
// beyond float64, empty strings and binaries, raw bytes that are not UTF-8, and
// nesting.
var convertCases = []struct {
	name string
	v    model.Value
	av   types.AttributeValue
}{
	{"S", model.Str("A#1"), &types.AttributeValueMemberS{Value: "A#1"}},
	{"S multi-byte", model.Str("é中文🙂"), &types.AttributeValueMemberS{Value: "é中文🙂"}},
	{"S empty", model.Str(""), &types.AttributeValueMemberS{Value: ""}},
	{"N integer", model.Num("-12"), &types.AttributeValueMemberN{Value: "-12"}},
	{"N 38 digits", model.Num("12345678901234567890123456789012345678"),
		&types.AttributeValueMemberN{Value: "12345678901234567890123456789012345678"}},
	{"N exponent kept as written", model.Num("1.5E+125"), &types.AttributeValueMemberN{Value: "1.5E+125"}},
	{"B", model.Bin([]byte{0, 0xff, 0x80}), &types.AttributeValueMemberB{Value: []byte{0, 0xff, 0x80}}},
	{"B empty", model.Bin([]byte{}), &types.AttributeValueMemberB{Value: []byte{}}},
	{"BOOL true", model.Bool(true), &types.AttributeValueMemberBOOL{Value: true}},
	{"BOOL false", model.Bool(false), &types.AttributeValueMemberBOOL{Value: false}},
	{"NULL", model.Null(), &types.AttributeValueMemberNULL{Value: true}},
	{"L", model.List(model.Str("x"), model.Num("1"), model.List()),
		&types.AttributeValueMemberL{Value: []types.AttributeValue{
			&types.AttributeValueMemberS{Value: "x"},
			&types.AttributeValueMemberN{Value: "1"},
			&types.AttributeValueMemberL{Value: []types.AttributeValue{}},
		}}},
	{"M", model.Map(map[string]model.Value{"a": model.Map(map[string]model.Value{"b": model.Bool(true)}), "中": model.Null()}),
		&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
			"a": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"b": &types.AttributeValueMemberBOOL{Value: true}}},
			"中": &types.AttributeValueMemberNULL{Value: true},
		}}},
	{"SS", model.StrSet("b", "a", "🙂"), &types.AttributeValueMemberSS{Value: []string{"b", "a", "🙂"}}},
	{"NS", model.NumSet("1", "-0.5", "1E-130"), &types.AttributeValueMemberNS{Value: []string{"1", "-0.5", "1E-130"}}},
	{"BS", model.BinSet([]byte{1}, []byte{0xfe, 0}), &types.AttributeValueMemberBS{Value: [][]byte{{1}, {0xfe, 0}}}},
}

func TestToAttributeValue(t *testing.T) {
	for _, c := range convertCases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ToAttributeValue(c.v)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.av) {
				t.Fatalf("ToAttributeValue(%v) = %#v, want %#v", c.v, got, c.av)
			}
		})
	}
}

func TestFromAttributeValue(t *testing.T) {
	for _, c := range convertCases {
		t.Run(c.name, func(t *testing.T) {
			got, err := FromAttributeValue(c.av)
			if err != nil {
				t.Fatal(err)
			}
			if got.Type != c.v.Type || !got.Equal(c.v) {
				t.Fatalf("FromAttributeValue(%#v) = %v, want %v", c.av, got, c.v)
			}
			// Sets keep their element order: DynamoDB returns them in its own order,
			// and the comparison of results is by value (Equal), not by position.
			if c.v.Type.IsSet() && !reflect.DeepEqual(got.List, c.v.List) {
				t.Fatalf("set elements %v, want %v in the order sent", got.List, c.v.List)
			}
		})
	}
}

func TestItemRoundTrip(t *testing.T) {
	it := model.Item{}
	for _, c := range convertCases {
		it[c.name] = c.v
	}
	wire, err := ToItem(it)
	if err != nil {
		t.Fatal(err)
	}
	if len(wire) != len(convertCases) {
		t.Fatalf("ToItem kept %d attributes of %d", len(wire), len(convertCases))
	}
	back, err := FromItem(wire)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Equal(it) {
		t.Fatalf("round trip changed the item:\n got %v\nwant %v", back, it)
	}
	if m, err := ToItem(nil); m != nil || err != nil {
		t.Fatalf("ToItem(nil) = %v, %v; want nil, nil", m, err)
	}
	if m, err := FromItem(nil); m != nil || err != nil {
		t.Fatalf("FromItem(nil) = %v, %v; want nil, nil", m, err)
	}
}

// TestConvertErrors: a value that cannot be converted is an error naming where it
// sits, never a panic or a silent NULL.
func TestConvertErrors(t *testing.T) {
	badModel := []struct {
		name string
		it   model.Item
		want string
	}{
		{"no type", model.Item{"a": {}}, `attribute "a": value of unknown type 0`},
		{"nested in list", model.Item{"l": model.List(model.Str("x"), model.Value{Type: 99})}, `attribute "l": [1]: value of unknown type 99`},
		{"nested in map", model.Item{"m": model.Map(map[string]model.Value{"k": {}})}, `attribute "m": attribute "k"`},
	}
	for _, c := range badModel {
		t.Run("to/"+c.name, func(t *testing.T) {
			_, err := ToItem(c.it)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("ToItem error %v, want it to contain %q", err, c.want)
			}
		})
	}
	badWire := []struct {
		name string
		m    map[string]types.AttributeValue
		want string
	}{
		{"unknown member", map[string]types.AttributeValue{"x": &types.UnknownUnionMember{Tag: "Z"}}, `attribute "x": attribute value of unknown type "Z"`},
		{"nil", map[string]types.AttributeValue{"x": nil}, `attribute "x": missing attribute value`},
		{"nested in list", map[string]types.AttributeValue{"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{nil}}}, `attribute "l": [0]: missing`},
	}
	for _, c := range badWire {
		t.Run("from/"+c.name, func(t *testing.T) {
			_, err := FromItem(c.m)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("FromItem error %v, want it to contain %q", err, c.want)
			}
		})
	}
}
