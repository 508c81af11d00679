package cost

import (
	"strings"
	"testing"

	"stwb/model"
)

// Item size vectors that storage and capacity rest on (model.ItemSize, the one
// implementation). Sources: CapacityUnitCalculations.html ("Item size" and "For
// storage billing"), HowItWorks.NamingRulesDataTypes.html (UTF-8 strings, binary,
// numbers "approximately one byte per two significant digits, plus one byte"), and
// DYNAMODB.md "Item size" for L, M and sets (sets: what emulators measured; AWS is
// silent, a thin source).
func TestItemSizeVectors(t *testing.T) {
	cases := []struct {
		name string
		item model.Item
		want int
	}{
		{"empty item", model.Item{}, 0},
		{"S is UTF-8 bytes: é is 2", model.Item{"a": model.Str("héllo")}, 1 + 6},
		{"S: CJK 3 bytes each", model.Item{"k": model.Str("日本")}, 1 + 6},
		{"S: emoji 4 bytes, not 2 UTF-16 units", model.Item{"k": model.Str("🚀")}, 1 + 4},
		{"attribute names count as UTF-8 too", model.Item{"naïve": model.Str("")}, 6},
		{"B is raw bytes", model.Item{"b": model.Bin([]byte{0, 1, 2})}, 1 + 3},
		{"N 1 is 2 bytes", model.Item{"n": model.Num("1")}, 1 + 2},
		{"N 123 is 3 bytes", model.Item{"n": model.Num("123")}, 1 + 3},
		{"N -0.15 is 3 bytes", model.Item{"n": model.Num("-0.15")}, 1 + 3},
		{"N 38 digits is 20 bytes", model.Item{"n": model.Num(strings.Repeat("9", 38))}, 1 + 20},
		{"BOOL and NULL are 1", model.Item{"t": model.Bool(true), "z": model.Null()}, 2 + 2},
		{"L: 3 + 1 per element", model.Item{"l": model.List(model.Str("ab"), model.Num("1"))}, 1 + 3 + (1 + 2) + (1 + 2)},
		{"empty L is 3", model.Item{"l": model.List()}, 1 + 3},
		{"M: 3 + 1 + key per entry", model.Item{"m": model.Map(map[string]model.Value{"k": model.Str("v")})}, 1 + 3 + (1 + 1 + 1)},
		{"nested M in L", model.Item{"l": model.List(model.Map(map[string]model.Value{"ab": model.List()}))}, 1 + 3 + 1 + (3 + 1 + 2 + 3)},
		{"SS: the element sizes", model.Item{"s": model.StrSet("a", "bc")}, 1 + 3},
		{"NS: the element sizes", model.Item{"s": model.NumSet("1", "123")}, 1 + 2 + 3},
		{"BS: the element sizes", model.Item{"s": model.BinSet([]byte("xy"), []byte("z"))}, 1 + 3},
		{"a 1 KB item", model.Item{"PK": model.Str("P"), "pad": model.Str(strings.Repeat("x", 1024-3-3))}, 1024},
	}
	for _, c := range cases {
		if got := model.ItemSize(c.item); got != c.want {
			t.Errorf("%s: %d bytes, want %d", c.name, got, c.want)
		}
	}
}
