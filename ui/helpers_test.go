package ui

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"stwb/internal/golden"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"stwb/model"
)

func TestMain(m *testing.M) {
	// Goldens are plain text whatever terminal runs the tests.
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	os.Exit(m.Run())
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name+".golden"), []byte(ansi.Strip(got)))
}

// testModel is a workbench over d at w x h, with its background work done.
func testModel(t testing.TB, doc *Doc, w, h int) *Model {
	t.Helper()
	m := New(doc, Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: -1})
	run(t, m, m.Init())
	send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// send delivers messages and then runs every command they cause, synchronously,
// the way the Bubble Tea loop would, until nothing is left to do.
func send(t testing.TB, m *Model, msgs ...tea.Msg) {
	t.Helper()
	for _, msg := range msgs {
		_, cmd := m.Update(msg)
		run(t, m, cmd)
	}
}

func run(t testing.TB, m *Model, cmd tea.Cmd) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 10000 {
			t.Fatal("commands never settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		switch msg := msg.(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case tea.QuitMsg:
		default:
			if reflect.TypeOf(msg).String() == "tea.sequenceMsg" {
				continue
			}
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
}

// keys turns "a", "enter", "ctrl+s", "esc", "tab", "up" or text into key messages.
func keys(ss ...string) []tea.Msg {
	var out []tea.Msg
	named := map[string]tea.KeyType{"enter": tea.KeyEnter, "esc": tea.KeyEsc, "tab": tea.KeyTab,
		"shift+tab": tea.KeyShiftTab, "up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft,
		"right": tea.KeyRight, "ctrl+s": tea.KeyCtrlS, "ctrl+z": tea.KeyCtrlZ, "ctrl+y": tea.KeyCtrlY,
		"ctrl+c": tea.KeyCtrlC, "backspace": tea.KeyBackspace, "pgdown": tea.KeyPgDown, "ctrl+u": tea.KeyCtrlU,
		"ctrl+o": tea.KeyCtrlO, "ctrl+e": tea.KeyCtrlE}
	for _, s := range ss {
		if k, ok := named[s]; ok {
			out = append(out, tea.KeyMsg{Type: k})
			continue
		}
		for _, r := range s {
			out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		}
	}
	return out
}

// typeText types a string as one paste-like run of runes (one message per rune would
// also work; this is faster for long values).
func typeText(s string) tea.Msg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

func screen(m *Model) string { return ansi.Strip(m.View()) }

// fixture is a small design built in code: an orders table with a sparse GSI,
// typed entities, CJK and emoji values, and three patterns.
func fixture() *model.Design {
	s := model.Str
	f := false
	return &model.Design{Version: 1, Name: "fixture", Description: "test design",
		Table: model.Table{Name: "orders-data", Key: model.KeySchema{Partition: "PK", Sort: "SK"},
			Billing: model.Billing{Mode: model.OnDemand}, Class: model.ClassStandard,
			Indexes: []model.Index{{Name: "GSI1", Key: model.KeySchema{Partition: "GSI1PK", Sort: "GSI1SK"}, Projection: model.Projection{Type: model.ProjectAll}}}},
		Entities: []model.Entity{
			{Name: "customer", Keys: map[string]string{"PK": "CUST#{customerId}", "SK": "PROFILE"},
				Attributes: []model.EntityAttribute{{Name: "customerId", Type: model.TypeS}, {Name: "name", Type: model.TypeS}}, Count: 1000},
			{Name: "order", Keys: map[string]string{"PK": "CUST#{customerId}", "SK": "ORDER#{orderId}", "GSI1PK": "STATUS#{status}", "GSI1SK": "{orderId}"},
				Attributes: []model.EntityAttribute{{Name: "customerId", Type: model.TypeS}, {Name: "orderId", Type: model.TypeS}, {Name: "status", Type: model.TypeS}, {Name: "total", Type: model.TypeN}}, Count: 50000},
		},
		Items: []model.Item{
			{"type": s("customer"), "PK": s("CUST#1"), "SK": s("PROFILE"), "customerId": s("1"), "name": s("山田太郎 🍣")},
			{"type": s("order"), "PK": s("CUST#1"), "SK": s("ORDER#001"), "customerId": s("1"), "orderId": s("001"), "status": s("SHIPPED"), "total": model.Num("12.5"), "GSI1PK": s("STATUS#SHIPPED"), "GSI1SK": s("001")},
			{"type": s("order"), "PK": s("CUST#1"), "SK": s("ORDER#002"), "customerId": s("1"), "orderId": s("002"), "status": s("PENDING"), "total": model.Num("99"), "GSI1PK": s("STATUS#PENDING"), "GSI1SK": s("002")},
			{"type": s("customer"), "PK": s("CUST#2"), "SK": s("PROFILE"), "customerId": s("2"), "name": s("Ada 🚀")},
		},
		Patterns: []model.Pattern{
			{ID: 1, Name: "Get a customer's profile", Holds: "customer id", Returns: "the profile", Cardinality: "1", Rate: 100,
				Operation: model.OpGetItem, Key: model.Item{"PK": s("CUST#1"), "SK": s("PROFILE")}},
			{ID: 2, Name: "A customer's orders, newest first", Holds: "customer id", Returns: "orders", Order: "newest first", Cardinality: "0..25", Rate: 50,
				Operation: model.OpQuery, KeyCondition: "PK = :pk AND begins_with(SK, :o)", Filter: "#t > :min", Names: map[string]string{"#t": "total"},
				Values: map[string]model.Value{":pk": s("CUST#1"), ":o": s("ORDER#"), ":min": model.Num("50")}, Forward: &f, Limit: 25},
			{ID: 3, Name: "Orders in a status", Operation: model.OpQuery, Index: "GSI1", KeyCondition: "GSI1PK = :s",
				Values: map[string]model.Value{":s": s("STATUS#SHIPPED")}},
		},
	}
}

func fixtureDoc() *Doc { return &Doc{D: fixture(), Path: "", Sample: "fixture"} }

func lineWith(scr, sub string) string {
	for _, l := range strings.Split(scr, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}
