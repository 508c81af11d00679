package model

import "sort"

// Type is a DynamoDB attribute value type.
type Type uint8

// The DynamoDB attribute value types, named as on the wire.
const (
	TypeS Type = iota + 1
	TypeN
	TypeB
	TypeBOOL
	TypeNULL
	TypeL
	TypeM
	TypeSS
	TypeNS
	TypeBS
)

var typeNames = [...]string{"", "S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS"}

// String returns the wire name of the type ("S", "NS", ...).
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "?"
}

// ParseType reads a wire type name; ok is false for an unknown name.
func ParseType(s string) (Type, bool) {
	for i, n := range typeNames {
		if i > 0 && n == s {
			return Type(i), true
		}
	}
	return 0, false
}

// IsSet reports whether t is SS, NS or BS.
func (t Type) IsSet() bool { return t == TypeSS || t == TypeNS || t == TypeBS }

// IsScalarKeyType reports whether t may type a key attribute (S, N or B).
func (t Type) IsScalarKeyType() bool { return t == TypeS || t == TypeN || t == TypeB }

// Value is one DynamoDB attribute value. It is kept small (56 bytes) because a
// million-item design holds several million of them.
//
//   - S: Str holds the string.
//   - N: Str holds the number's text (see Number); exact, never a float.
//   - B: Str holds the raw bytes (not base64).
//   - BOOL: Bool.
//   - NULL: nothing.
//   - L: List holds the elements.
//   - M: Map holds the entries.
//   - SS, NS, BS: List holds the elements as S, N or B values, in the order given.
type Value struct {
	Type Type
	Bool bool
	Str  string
	List []Value
	Map  map[string]Value
}

// Item is one DynamoDB item: attribute name to value.
type Item map[string]Value

// Str makes an S value.
func Str(s string) Value { return Value{Type: TypeS, Str: s} }

// Num makes an N value from its text as written. It does not check the text; use
// ParseNumber for that.
func Num(text string) Value { return Value{Type: TypeN, Str: text} }

// Bin makes a B value from raw bytes.
func Bin(b []byte) Value { return Value{Type: TypeB, Str: string(b)} }

// Bool makes a BOOL value.
func Bool(b bool) Value { return Value{Type: TypeBOOL, Bool: b} }

// Null makes a NULL value.
func Null() Value { return Value{Type: TypeNULL, Bool: true} }

// List makes an L value.
func List(vs ...Value) Value { return Value{Type: TypeL, List: vs} }

// Map makes an M value.
func Map(m map[string]Value) Value { return Value{Type: TypeM, Map: m} }

// StrSet makes an SS value.
func StrSet(ss ...string) Value {
	v := Value{Type: TypeSS, List: make([]Value, len(ss))}
	for i, s := range ss {
		v.List[i] = Str(s)
	}
	return v
}

// NumSet makes an NS value from number texts.
func NumSet(ns ...string) Value {
	v := Value{Type: TypeNS, List: make([]Value, len(ns))}
	for i, s := range ns {
		v.List[i] = Num(s)
	}
	return v
}

// BinSet makes a BS value.
func BinSet(bs ...[]byte) Value {
	v := Value{Type: TypeBS, List: make([]Value, len(bs))}
	for i, b := range bs {
		v.List[i] = Bin(b)
	}
	return v
}

// SetElemType is the element type of a set type (S for SS, ...), 0 otherwise.
func SetElemType(t Type) Type {
	switch t {
	case TypeSS:
		return TypeS
	case TypeNS:
		return TypeN
	case TypeBS:
		return TypeB
	}
	return 0
}

// Equal reports whether two values are equal as DynamoDB compares them: numbers by
// value, sets regardless of order, maps regardless of order, lists element by element.
func (v Value) Equal(w Value) bool {
	if v.Type != w.Type {
		return false
	}
	switch v.Type {
	case TypeS, TypeB:
		return v.Str == w.Str
	case TypeN:
		return CompareNumberText(v.Str, w.Str) == 0
	case TypeBOOL:
		return v.Bool == w.Bool
	case TypeNULL:
		return true
	case TypeL:
		if len(v.List) != len(w.List) {
			return false
		}
		for i := range v.List {
			if !v.List[i].Equal(w.List[i]) {
				return false
			}
		}
		return true
	case TypeM:
		if len(v.Map) != len(w.Map) {
			return false
		}
		for k, x := range v.Map {
			y, ok := w.Map[k]
			if !ok || !x.Equal(y) {
				return false
			}
		}
		return true
	case TypeSS, TypeNS, TypeBS:
		if len(v.List) != len(w.List) {
			return false
		}
		for _, x := range v.List {
			if !v.setHas(w, x) {
				return false
			}
		}
		return true
	}
	return false
}

func (v Value) setHas(set Value, x Value) bool {
	for _, y := range set.List {
		if x.Equal(y) {
			return true
		}
	}
	return false
}

// Contains reports whether set value v holds element x (by value).
func (v Value) Contains(x Value) bool { return v.setHas(v, x) }

// CompareScalar orders two values of the same scalar key type as DynamoDB orders
// sort keys: S and B by unsigned bytes (S is compared as its UTF-8 bytes), N by
// numeric value. It returns -1, 0 or +1. Values of different or non-scalar types
// compare by type only; callers check types first.
func CompareScalar(a, b Value) int {
	if a.Type != b.Type {
		if a.Type < b.Type {
			return -1
		}
		return 1
	}
	switch a.Type {
	case TypeS, TypeB:
		// Go strings compare as unsigned bytes, which is UTF-8 byte order for S.
		if a.Str < b.Str {
			return -1
		}
		if a.Str > b.Str {
			return 1
		}
		return 0
	case TypeN:
		return CompareNumberText(a.Str, b.Str)
	}
	return 0
}

// Clone returns a deep copy, so that an update on one copy never shows in another.
func (v Value) Clone() Value {
	switch v.Type {
	case TypeL, TypeSS, TypeNS, TypeBS:
		if v.List != nil {
			l := make([]Value, len(v.List))
			for i, e := range v.List {
				l[i] = e.Clone()
			}
			v.List = l
		}
	case TypeM:
		if v.Map != nil {
			m := make(map[string]Value, len(v.Map))
			for k, e := range v.Map {
				m[k] = e.Clone()
			}
			v.Map = m
		}
	}
	return v
}

// Clone returns a deep copy of the item.
func (it Item) Clone() Item {
	if it == nil {
		return nil
	}
	c := make(Item, len(it))
	for k, v := range it {
		c[k] = v.Clone()
	}
	return c
}

// Names returns the item's attribute names, sorted by their bytes.
func (it Item) Names() []string {
	ns := make([]string, 0, len(it))
	for k := range it {
		ns = append(ns, k)
	}
	sort.Strings(ns)
	return ns
}

// Equal reports whether two items hold the same attributes with equal values.
func (it Item) Equal(o Item) bool {
	if len(it) != len(o) {
		return false
	}
	for k, v := range it {
		w, ok := o[k]
		if !ok || !v.Equal(w) {
			return false
		}
	}
	return true
}
