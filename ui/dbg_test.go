package ui
import ("testing";"time";"io";tea "github.com/charmbracelet/bubbletea";"github.com/charmbracelet/x/exp/teatest";"github.com/charmbracelet/x/ansi")
func TestDbgE2E(t *testing.T){
	doc, _ := OpenSample("orders")
	opts := Options{KeyMap: DefaultKeyMap(), Styles: NewStyles(DefaultTheme()), RecoverEvery: time.Second}
	tm := teatest.NewTestModel(t, New(doc, opts), teatest.WithInitialTermSize(120, 40))
	waitText(t, tm, "Get a customer's profile")
	tm.Send(key1("a"))
	waitText(t, tm, "Add an access pattern")
	tm.Send(tea.KeyMsg{Type: tea.KeyTab})
	tm.Type("Lines of one order")
	for range 8 { tm.Send(tea.KeyMsg{Type: tea.KeyTab}) }
	tm.Type("PK = :pk AND begins_with(SK, :i)")
	time.Sleep(time.Second)
	tm.Quit()
	b, _ := io.ReadAll(tm.FinalOutput(t, teatest.WithFinalTimeout(3*time.Second)))
	s := ansi.Strip(string(b))
	t.Log(len(b), s[max(0,len(s)-1500):])
	fm := tm.FinalModel(t).(*Model)
	t.Log(fm.status, fm.form != nil, ansi.Strip(fm.View()))
}
