package expr

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"stwb/model"
)

// TestKeptUpdateAgrees checks the update expressions kept by their text
// (CompileUpdate, updatecache.go): a text first compiled cleanly with one request's
// maps, then compiled with another's, must give what a fresh parse with the other
// maps gives: the same attributes, paths and updated items (so the other request's
// values, not the primer's), or the same error, and the same names and values
// marked used. The other maps change the values, and what the parse decides: a
// placeholder left undefined, a value of another type, a #name naming another
// attribute or the same one as another #name. The first other maps of each case
// differ only in values, and must be bound without a parse.
func TestKeptUpdateAgrees(t *testing.T) {
	s, n := model.Str, model.Num
	ss := model.StrSet
	type maps struct {
		names  map[string]string
		values map[string]model.Value
	}
	cases := []struct {
		src    string
		primer maps // a request that compiles cleanly
		others []maps
	}{
		{"SET #s = :new, g = :g", maps{map[string]string{"#s": "status"}, map[string]model.Value{":new": s("A"), ":g": s("G#A")}},
			[]maps{
				{map[string]string{"#s": "status"}, map[string]model.Value{":new": s("B"), ":g": s("G#B")}},
				{map[string]string{"#s": "other"}, map[string]model.Value{":new": s("B"), ":g": s("G#B")}},
				{map[string]string{"#s": "g"}, map[string]model.Value{":new": s("B"), ":g": s("G#B")}},
				{map[string]string{"#s": "status"}, map[string]model.Value{":new": n("3"), ":g": s("G#B")}},
				{map[string]string{"#s": "status"}, map[string]model.Value{":new": s("B")}},
				{map[string]string{"#s": "status", "#x": "x"}, map[string]model.Value{":new": s("B"), ":g": s("G#B"), ":y": s("y")}},
				{nil, map[string]model.Value{":new": s("B"), ":g": s("G#B")}},
				{nil, nil},
			}},
		{"SET n = n + :one, l = list_append(if_not_exists(l, :empty), :more) REMOVE s ADD ns :ns, c :one DELETE tags :t",
			maps{nil, map[string]model.Value{":one": n("1"), ":empty": model.List(), ":more": model.List(s("x")),
				":ns": {Type: model.TypeNS, List: []model.Value{n("5")}}, ":t": ss("a")}},
			[]maps{
				{nil, map[string]model.Value{":one": n("7"), ":empty": model.List(), ":more": model.List(s("y"), s("z")),
					":ns": {Type: model.TypeNS, List: []model.Value{n("6"), n("8")}}, ":t": ss("b")}},
				{nil, map[string]model.Value{":one": s("7"), ":empty": model.List(), ":more": model.List(s("y")),
					":ns": {Type: model.TypeNS, List: []model.Value{n("6")}}, ":t": ss("b")}},
				{nil, map[string]model.Value{":one": n("7"), ":empty": model.List(), ":more": s("y"),
					":ns": {Type: model.TypeNS, List: []model.Value{n("6")}}, ":t": ss("b")}},
				{nil, map[string]model.Value{":one": n("7"), ":empty": model.List(), ":more": model.List(s("y")),
					":ns": ss("6"), ":t": n("2")}},
				{nil, map[string]model.Value{":one": n("7"), ":empty": model.List(), ":more": model.List(s("y")),
					":ns": {Type: model.TypeNS, List: []model.Value{n("6")}}, ":t": s("b")}},
			}},
		{"SET #a.#b[1] = :v REMOVE #a.#c", maps{map[string]string{"#a": "m", "#b": "l", "#c": "k"}, map[string]model.Value{":v": s("x")}},
			[]maps{
				{map[string]string{"#a": "m", "#b": "l", "#c": "k"}, map[string]model.Value{":v": s("y")}},
				{map[string]string{"#a": "m", "#b": "l", "#c": "k"}, map[string]model.Value{":v": n("2")}},
				{map[string]string{"#a": "m", "#b": "l", "#c": "l"}, map[string]model.Value{":v": s("x")}},
				{map[string]string{"#a": "m", "#b": "l"}, map[string]model.Value{":v": s("x")}},
			}},
	}
	items := []model.Item{nil, {"pk": s("p"), "n": n("4"), "s": s("gone"), "tags": ss("a", "b"),
		"l": model.List(s("w")), "ns": {Type: model.TypeNS, List: []model.Value{n("5")}},
		"m": model.Map(map[string]model.Value{"l": model.List(s("0"), s("1")), "k": s("k")})}}
	compile := func(src string, m maps) string {
		var ctx *Context
		if m.names != nil || m.values != nil {
			ctx = NewContext(m.names, m.values)
		}
		u, err := CompileUpdate(src, ctx)
		unused := "<nil context>"
		if ctx != nil {
			unused = fmt.Sprint(ctx.CheckUnused())
		}
		if err != nil {
			return fmt.Sprintf("error %v; unused %s", err, unused)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "attributes %v, paths %v; unused %s", u.Attributes(), u.Paths(), unused)
		for _, it := range items {
			out, err := u.Apply(it)
			fmt.Fprintf(&b, "\n    %v %v", out, err)
		}
		return b.String()
	}
	forget := func() { keptUpdates.kept = map[string]*keptUpdate{} }
	for _, c := range cases {
		for i, other := range c.others {
			forget()
			want := compile(c.src, other)
			forget()
			if primed := compile(c.src, c.primer); len(keptUpdates.kept) != 1 {
				t.Fatalf("%q: the primer was not kept: %s", c.src, primed)
			}
			if i == 0 {
				if _, ok := keptUpdates.kept[c.src].bind(NewContext(other.names, other.values)); !ok {
					t.Errorf("%q: maps that differ only in values were not bound", c.src)
				}
			}
			if got := compile(c.src, other); got != want {
				t.Errorf("%q, maps %d: kept parse gives\n  %s\nfresh parse gives\n  %s", c.src, i, got, want)
			}
		}
	}
	forget()
}

// TestKeptUpdateOwnsItsStrings checks that a kept update shares no memory with the
// request that primed it: a server reuses the buffer a request's text, names and
// values lie in.
func TestKeptUpdateOwnsItsStrings(t *testing.T) {
	keptUpdates.kept = map[string]*keptUpdate{}
	defer func() { keptUpdates.kept = map[string]*keptUpdate{} }()
	text := "SET #s = :v, plain = :v"
	name := strings.Clone("status")
	if _, err := CompileUpdate(text, NewContext(map[string]string{"#s": name}, map[string]model.Value{":v": model.Str("x")})); err != nil {
		t.Fatal(err)
	}
	k := keptUpdates.kept[text]
	if k == nil {
		t.Fatal("the update was not kept")
	}
	var kept []string
	for _, a := range k.u.actions {
		kept = append(kept, a.set.ph, a.set.val.Str)
		for _, e := range a.path {
			kept = append(kept, e.Name)
		}
	}
	for _, p := range k.u.paths {
		kept = append(kept, p[0].Name)
	}
	kept = append(kept, k.u.attrs...)
	for _, kp := range k.phs {
		kept = append(kept, kp.ph, kp.name)
	}
	for _, str := range kept {
		if within(text, str) || within(name, str) {
			t.Errorf("kept string %q lies in the request's memory", str)
		}
	}
}

// within reports whether part's bytes lie inside whole's.
func within(whole, part string) bool {
	if whole == "" || part == "" {
		return false
	}
	w, p := uintptr(unsafe.Pointer(unsafe.StringData(whole))), uintptr(unsafe.Pointer(unsafe.StringData(part)))
	return p >= w && p < w+uintptr(len(whole))
}
