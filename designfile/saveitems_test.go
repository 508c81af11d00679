package designfile

import (
	"bytes"
	"strings"
	"testing"

	"stwb/model"
)

// TestTemplateBuilds holds templateBuilds to what it stands for, ExpandKey then
// Value.Equal (FORMAT.md "Items and entities": a key its entity's template builds is
// left out of the saved item), on literal, variable and mixed templates, key types S,
// N and B, missing and non-scalar variables, and values of the wrong type.
func TestTemplateBuilds(t *testing.T) {
	it := model.Item{"id": model.Str("42"), "n": model.Num("7"), "b": model.Bin([]byte{1, 2}), "flag": model.Bool(true), "l": model.List(model.Str("x")), "e": model.Str("")}
	for _, tc := range []struct {
		tmpl string
		ty   model.Type
		v    model.Value
		want bool
	}{
		{"CUST#{id}", model.TypeS, model.Str("CUST#42"), true},
		{"CUST#{id}", model.TypeS, model.Str("CUST#43"), false},
		{"CUST#{id}", model.TypeS, model.Str("CUST#42x"), false},
		{"CUST#{id}", model.TypeS, model.Str("CUST#4"), false},
		{"CUST#{id}", model.TypeS, model.Num("42"), false},
		{"CUST#{id}", model.TypeS, model.Bin([]byte("CUST#42")), false},
		{"{id}#{n}", model.TypeS, model.Str("42#7"), true},
		{"{id}{id}", model.TypeS, model.Str("4242"), true},
		{"{id}{e}X", model.TypeS, model.Str("42X"), true},
		{"PROFILE", model.TypeS, model.Str("PROFILE"), true},
		{"PROFILE", model.TypeS, model.Str("PROFILE "), false},
		{"", model.TypeS, model.Str(""), true},
		{"{missing}#x", model.TypeS, model.Str("#x"), false},
		{"x#{flag}", model.TypeS, model.Str("x#true"), false}, // a BOOL is not a template variable
		{"x#{l}", model.TypeS, model.Str("x#"), false},
		{"{id}", model.TypeS, model.Str("42"), true}, // a lone variable: the attribute's own value
		{"{n}", model.TypeS, model.Str("7"), true},
		{"{n}", model.TypeN, model.Num("7.0"), true}, // numbers compare by value
		{"{id}", model.TypeN, model.Num("42"), true},
		{"1{n}", model.TypeN, model.Num("17"), true},
		{"1{n}", model.TypeN, model.Str("17"), false},
		{"{b}", model.TypeB, model.Bin([]byte{1, 2}), true},
		{"{flag}", model.TypeS, model.Bool(true), false},
		{"x{", model.TypeS, model.Str("x{"), false}, // malformed templates build nothing
		{"x}", model.TypeS, model.Str("x}"), false},
	} {
		got := templateBuilds(tc.tmpl, it, tc.ty, tc.v)
		want, full := model.ExpandKey(tc.tmpl, it, tc.ty)
		if ref := full && want.Equal(tc.v); got != ref || got != tc.want {
			t.Errorf("templateBuilds(%q, %s, %v) = %v; ExpandKey says %v, want %v", tc.tmpl, tc.ty, tc.v, got, ref, tc.want)
		}
	}
}

// FuzzTemplateBuilds: for any template, variable values and key value, templateBuilds
// answers as ExpandKey and Value.Equal do. Seeds: testdata/fuzz/FuzzTemplateBuilds.
func FuzzTemplateBuilds(f *testing.F) {
	f.Fuzz(func(t *testing.T, tmpl, a, b, v string, aType, keyType uint8) {
		types := []model.Type{model.TypeS, model.TypeN, model.TypeB}
		it := model.Item{"a": {Type: types[int(aType)%3], Str: a}, "b": model.Str(b)}
		ty := types[int(keyType)%3]
		for _, val := range []model.Value{model.Str(v), model.Num(v), model.Bin([]byte(v)), model.Bool(true)} {
			want, full := model.ExpandKey(tmpl, it, ty)
			if got, ref := templateBuilds(tmpl, it, ty, val), full && want.Equal(val); got != ref {
				t.Fatalf("templateBuilds(%q, %s, %v) = %v, ExpandKey and Equal say %v", tmpl, ty, val, got, ref)
			}
		}
	})
}

// FuzzSaveChunked: a design saves to the same bytes whether its items are written by
// one goroutine or in chunks by several, loaded or built in code. Seeds:
// testdata/fuzz/FuzzSaveChunked, and the rich design of the golden test.
func FuzzSaveChunked(f *testing.F) {
	f.Add([]byte(richDesignText(15)))
	recoverPanics = false
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse("f.yaml", data)
		if err != nil {
			return
		}
		built := *d
		built.source = nil
		defer func(old int) { saveChunkMin = old }(saveChunkMin)
		for _, des := range []*File{d, &built} {
			saveChunkMin = len(des.Items) + 1
			one, err1 := fileOf(des).Marshal()
			saveChunkMin = 1
			chunked, err2 := fileOf(des).Marshal()
			if (err1 == nil) != (err2 == nil) || !bytes.Equal(one, chunked) {
				t.Fatalf("chunked save differs (errors %v, %v):\n%s\n---\n%s", err1, err2, one, chunked)
			}
		}
	})
}

// TestSaveKeepsEachItemsOrder: items with the same attribute names written in
// different orders each keep their own order (the layout cache must not give one
// item another's), alone or in chunks; items built in code get the canonical order.
func TestSaveKeepsEachItemsOrder(t *testing.T) {
	lines := []string{
		"  - {PK: a, SK: \"1\", x: 1, y: 2}",
		"  - {PK: a, SK: \"2\", y: 2, x: 1}",
		"  - {SK: \"3\", PK: a, x: 1, y: 2}",
		"  - {PK: a, SK: \"4\", x: 1, y: 2}",
		"  - {PK: a, SK: \"5\", x: 1, z: 2}",
	}
	text := "version: 1\ntable: {name: tbl, key: {partition: PK, sort: SK}}\nitems:\n" + strings.Join(lines, "\n") + "\n"
	defer func(old int) { saveChunkMin = old }(saveChunkMin)
	for _, chunkMin := range []int{saveChunkMin, 1} {
		saveChunkMin = chunkMin
		for _, fast := range []bool{true, false} {
			d, err := parse("o.yaml", []byte(text), fast)
			if err != nil {
				t.Fatal(err)
			}
			out, err := fileOf(d).Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(string(out), "items:\n"+strings.Join(lines, "\n")+"\n") {
				t.Errorf("chunks from %d items, fast path %v: the items' orders changed:\n%s", chunkMin, fast, out)
			}
			built := *d
			built.source = nil
			out, err = fileOf(&built).Marshal()
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range []string{"{PK: a, SK: \"1\", x: 1, y: 2}", "{PK: a, SK: \"3\", x: 1, y: 2}", "{PK: a, SK: \"5\", x: 1, z: 2}"} {
				if !strings.Contains(string(out), want) {
					t.Errorf("code-built item %d: no %s in\n%s", i, want, out)
				}
			}
		}
	}
}

// templateBuilds reports whether ExpandKey(tmpl, it, ty) gives a value equal to v.
func templateBuilds(tmpl string, it model.Item, ty model.Type, v model.Value) bool {
	t := model.NewKeyTemplate(tmpl, ty)
	return t.Builds(it, v)
}
