package model

import "fmt"

// PathElem is one step of a document path: an attribute or map key name, or a list
// index.
type PathElem struct {
	Name    string
	Index   int
	IsIndex bool
}

// Path is a document path such as a.b[2].c, its names already resolved (from
// ExpressionAttributeNames in an expression, from quoted names in PartiQL). Both
// languages address an item's documents the same way, so they share this type.
type Path []PathElem

// String writes the path back as a.b[2].c, names unescaped.
func (p Path) String() string {
	s := ""
	for i, e := range p {
		switch {
		case e.IsIndex:
			s += fmt.Sprintf("[%d]", e.Index)
		case i == 0:
			s += e.Name
		default:
			s += "." + e.Name
		}
	}
	return s
}

// Lookup follows the path into an item: the value there, or false when a step is
// missing or meets a value of the wrong kind (an index into a non-list, a name into a
// non-map, an index past the list's end).
func (p Path) Lookup(item Item) (Value, bool) {
	v, ok := item[p[0].Name]
	if !ok {
		return Value{}, false
	}
	for _, e := range p[1:] {
		switch {
		case e.IsIndex:
			if v.Type != TypeL || e.Index >= len(v.List) {
				return Value{}, false
			}
			v = v.List[e.Index]
		default:
			if v.Type != TypeM {
				return Value{}, false
			}
			if v, ok = v.Map[e.Name]; !ok {
				return Value{}, false
			}
		}
	}
	return v, true
}
