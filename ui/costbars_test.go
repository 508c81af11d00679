package ui

import (
	"fmt"
	"strings"
	"testing"

	"stwb/designfile"
	"stwb/model"
)

// The Cost pane draws the hottest keys against a partition's limit: the counter
// updated 1,500 times a second passes the limit's mark (150%), seen before the
// report's tables are read, at 120x40 and 80x24.
func TestCostPaneKeyBars(t *testing.T) {
	f, err := designfile.Load("../throttle/testdata/counter.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		m := testModel(t, &Doc{D: f.Design, Path: ""}, size[0], size[1])
		send(t, m, keys("4")...)
		scr := screen(m)
		name := fmt.Sprintf("%dx%d", size[0], size[1])
		if !strings.Contains(scr, "Hottest keys against a partition's limit") || !strings.Contains(scr, "▓") || !strings.Contains(scr, "150%") {
			t.Errorf("%s: no key bar past the limit:\n%s", name, scr)
		}
		for _, l := range strings.Split(scr, "\n") {
			if n := len([]rune(l)); n > size[0] {
				t.Errorf("%s: a line of %d columns: %q", name, n, l)
			}
		}
	}
}

// Editing the table keeps an on-demand table's maximum throughput, which its
// billing field does not show (billing: {on-demand: {maxRead, maxWrite}}).
func TestTableFormKeepsOnDemandMaximum(t *testing.T) {
	d := fixture()
	d.Table.Billing = model.Billing{Mode: model.OnDemand, MaxRead: 4000, MaxWrite: 500}
	m := testModel(t, &Doc{D: d, Sample: "fixture"}, 120, 40)
	send(t, m, keys("3", "g", "enter", "tab")...)
	send(t, m, typeText(" (renamed)"))
	send(t, m, keys("ctrl+s")...)
	if m.form() != nil {
		t.Fatal(m.form().err)
	}
	if b := m.Doc().D.Table.Billing; b.MaxRead != 4000 || b.MaxWrite != 500 {
		t.Errorf("the table form dropped the on-demand maximum: %+v", b)
	}
}
