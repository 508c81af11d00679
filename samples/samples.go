// Package samples holds the sample designs that ship inside the binary: the designs
// of the single-table modelling notes the project started from, written out in full,
// one YAML design file each, in docs/FORMAT.md's format. A new user learns single-table design from them, and the other
// packages demonstrate and test their features on them.
package samples

import (
	"embed"
	"fmt"
	"sort"
	"strings"
	"sync"

	"stwb/designfile"
)

//go:embed *.yaml
var files embed.FS

// order is the order the samples are listed in: the samples issue's order, which
// goes from the basic design (orders) through one technique per sample to the
// anti-pattern kept for teaching (relational-reflex). A sample file that is not
// named here is listed after these, by name, so adding a file never hides it.
var order = []string{
	"orders",
	"orders-by-status-day",
	"invoices-bills",
	"video-views",
	"unique-email",
	"daily-orders-sharded",
	"customer-orders-by-month",
	"users-orders",
	"page-view-poor",
	"page-view-good",
	"tournament-matches",
	"tournament-synthetic",
	"relational-reflex",
}

// Default is the sample the workbench opens when it is given no file.
const Default = "orders"

// Sample is one embedded sample design.
type Sample struct {
	Name     string // the file name without .yaml; what `stwb sample NAME` takes
	Title    string // the first line of the design's description
	Patterns int    // how many access patterns the design has
	Items    int    // how many sample items the design has
	Data     []byte // the YAML file as shipped, comments included; shared, do not modify
}

var (
	listOnce sync.Once
	list     []Sample
)

// List returns every sample, in the listing order. Titles and counts come from
// loading each design, so they cannot drift from the files. A sample that does not
// load (a broken build; the tests catch it) is listed with its load error as title.
func List() []Sample {
	listOnce.Do(func() { list = build() })
	out := make([]Sample, len(list))
	copy(out, list)
	return out
}

// Names returns the sample names in listing order.
func Names() []string {
	l := List()
	names := make([]string, len(l))
	for i, s := range l {
		names[i] = s.Name
	}
	return names
}

// Get returns the sample of that name; ok is false when there is none.
func Get(name string) (Sample, bool) {
	for _, s := range List() {
		if s.Name == name {
			return s, true
		}
	}
	return Sample{}, false
}

// Load parses the named sample into a fresh design the caller may change. Its
// positions name the file as "samples/NAME.yaml".
func Load(name string) (*designfile.File, error) {
	data, err := files.ReadFile(name + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("no sample named %q; the samples are: %s", name, strings.Join(Names(), ", "))
	}
	return designfile.Parse(fileName(name), data)
}

func fileName(name string) string { return "samples/" + name + ".yaml" }

func build() []Sample {
	entries, err := files.ReadDir(".")
	if err != nil {
		// The embedded directory always exists; nothing sensible to list otherwise.
		return nil
	}
	rank := map[string]int{}
	for i, n := range order {
		rank[n] = i
	}
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".yaml"); ok {
			names = append(names, n)
		}
	}
	sort.Slice(names, func(i, j int) bool {
		ri, iok := rank[names[i]]
		rj, jok := rank[names[j]]
		switch {
		case iok && jok:
			return ri < rj
		case iok != jok:
			return iok
		}
		return names[i] < names[j]
	})
	out := make([]Sample, 0, len(names))
	for _, n := range names {
		data, _ := files.ReadFile(n + ".yaml")
		s := Sample{Name: n, Data: data}
		d, err := designfile.Parse(fileName(n), data)
		if err != nil {
			s.Title = "does not load: " + firstLine(err.Error())
		} else {
			s.Title = firstLine(d.Description)
			s.Patterns = len(d.Patterns)
			s.Items = len(d.Items)
		}
		out = append(out, s)
	}
	return out
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}
