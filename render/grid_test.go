package render

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"stwb/internal/golden"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"stwb/model"
)

func TestMain(m *testing.M) {
	// Goldens are plain text: without these a real terminal's colours would leak in.
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	os.Exit(m.Run())
}

// checkGolden compares got, ANSI stripped, with testdata/NAME.golden (rewritten with
// -update).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name+".golden"), []byte(ansi.Strip(got)))
}

// gridDesign is a small orders design: two customers, their orders, a sparse GSI
// (only orders carry GSI1PK), a KEYS_ONLY LSI, and values in CJK and emoji.
func gridDesign() *model.Design {
	s := model.Str
	return &model.Design{
		Table: model.Table{Name: "t", Key: model.KeySchema{Partition: "PK", Sort: "SK"},
			Attributes: map[string]model.Type{"n": model.TypeN},
			Indexes: []model.Index{
				{Name: "GSI1", Key: model.KeySchema{Partition: "GSI1PK", Sort: "GSI1SK"}, Projection: model.Projection{Type: model.ProjectInclude, Include: []string{"total"}}},
				{Name: "LSI1", Local: true, Key: model.KeySchema{Sort: "n"}, Projection: model.Projection{Type: model.ProjectKeysOnly}},
			}},
		Entities: []model.Entity{{Name: "customer"}, {Name: "order"}},
		Items: []model.Item{
			{"PK": s("CUST#2"), "SK": s("PROFILE"), "type": s("customer"), "name": s("山田太郎")},
			{"PK": s("CUST#1"), "SK": s("ORDER#b"), "type": s("order"), "total": model.Num("12.5"), "GSI1PK": s("SHIPPED"), "GSI1SK": s("2026-08-02"), "n": model.Num("2")},
			{"PK": s("CUST#1"), "SK": s("PROFILE"), "type": s("customer"), "name": s("Ada 🚀 Lovelace"), "tags": model.StrSet("vip", "β")},
			{"PK": s("CUST#1"), "SK": s("ORDER#a"), "type": s("order"), "total": model.Num("99.50"), "GSI1PK": s("SHIPPED"), "GSI1SK": s("2026-08-01"), "n": model.Num("10")},
			{"PK": s("CUST#1"), "SK": s("ORDER#A"), "type": s("order"), "total": model.Num("-1"), "GSI1PK": s("PENDING"), "GSI1SK": s("2026-08-03")},
		},
	}
}

// The grid follows DynamoDB's order (Query.html, "Key condition expressions for
// query": items are sorted by sort key, UTF-8 bytes for S, so "ORDER#A" < "ORDER#a"
// < "PROFILE"); an index view holds only the items with all its key attributes
// (GSI.html "sparse indexes") and only its projected attributes.
func TestBuildGridOrderAndSparseness(t *testing.T) {
	d := gridDesign()
	cases := []struct {
		view     string
		wantRows []int32 // design item indexes, in order
		wantCols []string
		first    []bool
	}{
		{"", []int32{4, 3, 1, 2, 0}, []string{"GSI1PK", "GSI1SK", "n", "name", "tags", "total"}, []bool{true, false, false, false, true}},
		{"GSI1", []int32{4, 3, 1}, []string{"PK", "SK", "total"}, []bool{true, true, false}},
		{"LSI1", []int32{1, 3}, []string{"SK"}, []bool{true, false}}, // N sort: 2 < 10
	}
	for _, c := range cases {
		t.Run("view="+c.view, func(t *testing.T) {
			g, err := BuildGrid(d, c.view)
			if err != nil {
				t.Fatal(err)
			}
			var rows []int32
			var first []bool
			for _, r := range g.Rows {
				rows = append(rows, r.Item)
				first = append(first, r.First)
			}
			if !slices.Equal(rows, c.wantRows) {
				t.Errorf("rows %v, want %v", rows, c.wantRows)
			}
			if !slices.Equal(first, c.first) {
				t.Errorf("first %v, want %v", first, c.first)
			}
			if strings.Join(g.Columns, ",") != strings.Join(c.wantCols, ",") {
				t.Errorf("columns %v, want %v", g.Columns, c.wantCols)
			}
		})
	}
	if _, err := BuildGrid(d, "NOPE"); err == nil {
		t.Error("BuildGrid of an unknown index gave no error")
	}
}

func TestFindKey(t *testing.T) {
	d := gridDesign()
	g, _ := BuildGrid(d, "")
	cases := []struct {
		pk, sk string
		want   int // design item, -1 none
	}{
		{"CUST#1", "PROFILE", 2},
		{"CUST#1", "ORDER#A", 4},
		{"CUST#2", "PROFILE", 0},
		{"CUST#1", "ORDER#c", -1},
		{"CUST#0", "PROFILE", -1},
	}
	for _, c := range cases {
		r := g.FindKey(d, model.Item{"PK": model.Str(c.pk), "SK": model.Str(c.sk)})
		got := -1
		if r >= 0 {
			got = int(g.Rows[r].Item)
		}
		if got != c.want {
			t.Errorf("FindKey(%s, %s) = item %d, want %d", c.pk, c.sk, got, c.want)
		}
	}
}

// Every rendered line is exactly the width asked for, measured in cells, whatever
// the values hold: the golden includes CJK (two cells a character) and emoji.
func TestGridRenderGoldens(t *testing.T) {
	d := gridDesign()
	hl := func(i int) bool { return i == 3 || i == 1 }
	cases := []struct {
		name string
		view string
		o    GridOptions
	}{
		{"grid_table_120", "", GridOptions{Width: 120, Height: 8, Cursor: 3, Highlight: hl}},
		{"grid_table_80_scrolled", "", GridOptions{Width: 80, Height: 4, Top: 2, Left: 2, Cursor: 2}},
		{"grid_gsi1", "GSI1", GridOptions{Width: 80, Height: 6, Cursor: -1, Highlight: hl}},
		{"grid_lsi1_narrow", "LSI1", GridOptions{Width: 40, Height: 6, Cursor: 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, err := BuildGrid(d, c.view)
			if err != nil {
				t.Fatal(err)
			}
			out := g.Render(d, c.o)
			for i, l := range strings.Split(out, "\n") {
				if w := lipgloss.Width(l); w != c.o.Width {
					t.Errorf("line %d is %d cells wide, want %d: %q", i, w, c.o.Width, l)
				}
			}
			checkGolden(t, c.name, out)
		})
	}
}

func TestFormatValue(t *testing.T) {
	// Wire forms per HowItWorks.NamingRulesDataTypes.html "Data types".
	cases := []struct {
		v    model.Value
		want string
	}{
		{model.Str("a\nb"), "a⏎b"},
		{model.Num("1.50"), "1.50"},
		{model.Bool(true), "true"},
		{model.Null(), "null"},
		{model.List(model.Str("x"), model.Num("1")), "[x, 1]"},
		{model.Map(map[string]model.Value{"b": model.Num("2"), "a": model.Str("z")}), "{a: z, b: 2}"},
		{model.StrSet("a", "b"), "<<a, b>>"},
		{model.Bin([]byte("hi")), "aGk="},
	}
	for _, c := range cases {
		if got := FormatValue(c.v); got != c.want {
			t.Errorf("FormatValue(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestFit(t *testing.T) {
	cases := []struct {
		s    string
		w    int
		want string
	}{
		{"abc", 5, "abc  "},
		{"abcdef", 4, "abc…"},
		{"山田太郎", 5, "山田…"},
		{"🚀x", 3, "🚀x"},
		{"x", 0, ""},
	}
	for _, c := range cases {
		got := Fit(c.s, c.w)
		if got != c.want || (c.w > 0 && lipgloss.Width(got) != c.w) {
			t.Errorf("Fit(%q, %d) = %q (%d cells), want %q", c.s, c.w, got, lipgloss.Width(got), c.want)
		}
	}
}
