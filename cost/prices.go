package cost

import (
	_ "embed"
	"fmt"
	"maps"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"stwb/internal/inputlimit"

	"stwb/model"
)

// builtinPrices is the one table of prices stwb carries (us-east-1, Standard and
// Standard-IA), each figure with its source in the file. Correcting a price means
// editing that file and nothing else.
//
//go:embed prices.yaml
var builtinPrices []byte

// DefaultRegion is the region whose prices apply when neither the design nor the
// command line names one (FORMAT.md "Other top-level keys").
const DefaultRegion = "us-east-1"

// HoursPerMonth is the month AWS prices by: 730 hours.
const HoursPerMonth = 730

// SecondsPerMonth is 730 hours in seconds, the month that on-demand request units
// per second are multiplied by.
const SecondsPerMonth = HoursPerMonth * 3600

// ClassPrices are the prices of one table class in one region, in USD.
type ClassPrices struct {
	ReadRequestUnitPerMillion  float64 // on-demand, per million read request units
	WriteRequestUnitPerMillion float64 // on-demand, per million write request units
	RCUHour                    float64 // provisioned, per RCU-hour
	WCUHour                    float64 // provisioned, per WCU-hour
	StorageGBMonth             float64 // per decimal GB per month
	FreeStorageGB              float64 // free storage per account per month (shown, never subtracted)
}

// priceFields maps the YAML names to the fields, in the order they are written.
// Every field is required: a prices file that leaves one out is an error, because
// stwb never invents a price.
var priceFields = []struct {
	name string
	ptr  func(*ClassPrices) *float64
}{
	{"readRequestUnitPerMillion", func(c *ClassPrices) *float64 { return &c.ReadRequestUnitPerMillion }},
	{"writeRequestUnitPerMillion", func(c *ClassPrices) *float64 { return &c.WriteRequestUnitPerMillion }},
	{"rcuHour", func(c *ClassPrices) *float64 { return &c.RCUHour }},
	{"wcuHour", func(c *ClassPrices) *float64 { return &c.WCUHour }},
	{"storageGBMonth", func(c *ClassPrices) *float64 { return &c.StorageGBMonth }},
	{"freeStorageGB", func(c *ClassPrices) *float64 { return &c.FreeStorageGB }},
}

// Prices is a table of prices: region -> table class -> prices.
type Prices map[string]map[model.TableClass]ClassPrices

// Builtin returns the built-in prices (us-east-1), a fresh copy each time so that a
// caller may add regions to it. It cannot fail: the embedded file is checked by the
// package's tests, and a broken one stops every test run.
func Builtin() Prices {
	builtinOnce.Do(func() {
		p, err := ParsePrices(builtinPrices, "cost/prices.yaml")
		if err != nil {
			panic("stwb: the built-in prices table is broken: " + err.Error())
		}
		builtinParsed = p
	})
	c := make(Prices, len(builtinParsed))
	for r, classes := range builtinParsed {
		c[r] = maps.Clone(classes)
	}
	return c
}

var (
	builtinOnce   sync.Once
	builtinParsed Prices
)

// LoadPrices reads a prices file and returns the built-in prices with the file's
// regions added (a region the file names replaces the built-in one whole).
func LoadPrices(path string) (Prices, error) {
	data, err := inputlimit.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read the prices file: %v", path, err)
	}
	extra, err := ParsePrices(data, path)
	if err != nil {
		return nil, err
	}
	p := Builtin()
	for r, c := range extra {
		p[r] = c
	}
	return p, nil
}

// PriceError is a mistake in a prices file, with its place.
type PriceError struct {
	Pos model.Pos
	Msg string
}

func (e *PriceError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.Pos.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

// ParsePrices reads a prices file (the shape of cost/prices.yaml). file names it in
// errors, which give file:line:col and what to write instead.
func ParsePrices(data []byte, file string) (Prices, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &PriceError{model.Pos{File: file, Line: 1, Col: 1}, "not YAML: " + err.Error()}
	}
	at := func(n *yaml.Node, format string, args ...any) error {
		return &PriceError{model.Pos{File: file, Line: n.Line, Col: n.Column}, fmt.Sprintf(format, args...)}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, &PriceError{model.Pos{File: file, Line: 1, Col: 1}, "empty prices file: write `regions: {REGION: {standard: {...}, standard-ia: {...}}}` as in cost/prices.yaml"}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, at(root, "a prices file is a mapping with one key, `regions`")
	}
	var regions *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i]
		if k.Value != "regions" {
			return nil, at(k, "unknown key %q: a prices file has one key, `regions`", k.Value)
		}
		regions = root.Content[i+1]
	}
	if regions == nil {
		return nil, at(root, "missing `regions`: write `regions: {REGION: {standard: {...}}}`")
	}
	if regions.Kind != yaml.MappingNode || len(regions.Content) == 0 {
		return nil, at(regions, "`regions` must map each region name (such as eu-west-1) to its table classes")
	}
	out := Prices{}
	for i := 0; i+1 < len(regions.Content); i += 2 {
		rk, rv := regions.Content[i], regions.Content[i+1]
		if rk.Value == "" {
			return nil, at(rk, "a region name must not be empty")
		}
		if _, dup := out[rk.Value]; dup {
			return nil, at(rk, "region %q is given twice; keep one", rk.Value)
		}
		if rv.Kind != yaml.MappingNode || len(rv.Content) == 0 {
			return nil, at(rv, "region %q must map table classes (standard, standard-ia) to prices", rk.Value)
		}
		classes := map[model.TableClass]ClassPrices{}
		for j := 0; j+1 < len(rv.Content); j += 2 {
			ck, cv := rv.Content[j], rv.Content[j+1]
			class := model.TableClass(ck.Value)
			if class != model.ClassStandard && class != model.ClassStandardIA {
				return nil, at(ck, "unknown table class %q in region %s: write standard or standard-ia", ck.Value, rk.Value)
			}
			if _, dup := classes[class]; dup {
				return nil, at(ck, "table class %s is given twice in region %s", class, rk.Value)
			}
			cp, err := parseClass(cv, rk.Value, class, at)
			if err != nil {
				return nil, err
			}
			classes[class] = cp
		}
		out[rk.Value] = classes
	}
	return out, nil
}

func parseClass(n *yaml.Node, region string, class model.TableClass, at func(*yaml.Node, string, ...any) error) (ClassPrices, error) {
	var cp ClassPrices
	if n.Kind != yaml.MappingNode {
		return cp, at(n, "%s %s must be a mapping of prices (%s)", region, class, fieldNames())
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		var ptr *float64
		for _, f := range priceFields {
			if f.name == k.Value {
				ptr = f.ptr(&cp)
			}
		}
		if ptr == nil {
			return cp, at(k, "unknown price %q in %s %s: the prices are %s", k.Value, region, class, fieldNames())
		}
		if seen[k.Value] {
			return cp, at(k, "price %s is given twice in %s %s", k.Value, region, class)
		}
		seen[k.Value] = true
		if v.Kind != yaml.ScalarNode {
			return cp, at(v, "%s in %s %s must be a number of US dollars", k.Value, region, class)
		}
		f, err := strconv.ParseFloat(v.Value, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			return cp, at(v, "%s in %s %s must be a number of US dollars, 0 or more (got %q)", k.Value, region, class, v.Value)
		}
		*ptr = f
	}
	var missing []string
	for _, f := range priceFields {
		if !seen[f.name] {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return cp, at(n, "%s %s lacks %s: stwb never guesses a price; copy it from the AWS pricing page for %s", region, class, strings.Join(missing, ", "), region)
	}
	return cp, nil
}

func fieldNames() string {
	ns := make([]string, len(priceFields))
	for i, f := range priceFields {
		ns[i] = f.name
	}
	return strings.Join(ns, ", ")
}

// Regions lists the regions the table prices, sorted.
func (p Prices) Regions() []string {
	rs := make([]string, 0, len(p))
	for r := range p {
		rs = append(rs, r)
	}
	sort.Strings(rs)
	return rs
}

// For returns the prices of one region and table class ("" means standard). An
// unpriced region is an error that says how to supply its prices.
func (p Prices) For(region string, class model.TableClass) (ClassPrices, error) {
	if region == "" {
		region = DefaultRegion
	}
	if class == "" {
		class = model.ClassStandard
	}
	classes, ok := p[region]
	if !ok {
		return ClassPrices{}, fmt.Errorf("no prices for region %s (stwb knows %s): write a prices file in the shape of cost/prices.yaml with a `%s:` entry and pass it with --prices FILE", region, strings.Join(p.Regions(), ", "), region)
	}
	cp, ok := classes[class]
	if !ok {
		return ClassPrices{}, fmt.Errorf("no %s prices for region %s: add a `%s:` entry under `%s:` in the prices file passed with --prices", class, region, class, region)
	}
	return cp, nil
}
