package cost

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"stwb/model"
)

// The built-in figures, as DYNAMODB.md "Prices" lists them for us-east-1
// (https://aws.amazon.com/dynamodb/pricing/on-demand/ and .../provisioned/).
func TestBuiltinPrices(t *testing.T) {
	p := Builtin()
	cases := []struct {
		class model.TableClass
		want  ClassPrices
	}{
		{model.ClassStandard, ClassPrices{0.125, 0.625, 0.00013, 0.00065, 0.25, 25}},
		// Standard-IA as published for us-east-1, not 1.25x Standard: on-demand
		// $0.155 and $0.78 per million (aws.amazon.com/dynamodb/pricing/on-demand/),
		// provisioned $0.00016 per RCU-hour and $0.00081 per WCU-hour
		// (.../pricing/provisioned/; the AWS Price List's IA-ReadCapacityUnit-Hrs and
		// IA-WriteCapacityUnit-Hrs), $0.10 per GB-month, no free tier.
		{model.ClassStandardIA, ClassPrices{0.155, 0.78, 0.00016, 0.00081, 0.10, 0}},
		{"", ClassPrices{0.125, 0.625, 0.00013, 0.00065, 0.25, 25}},
	}
	for _, c := range cases {
		got, err := p.For("", c.class)
		if err != nil {
			t.Fatalf("%s: %v", c.class, err)
		}
		if got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.class, got, c.want)
		}
	}
}

func TestPricesForUnknownRegion(t *testing.T) {
	cases := []struct {
		region string
		class  model.TableClass
		want   []string
	}{
		{"eu-west-1", model.ClassStandard, []string{"no prices for region eu-west-1", "--prices FILE", "`eu-west-1:`", "us-east-1"}},
		{"ap-south-1", model.ClassStandardIA, []string{"ap-south-1", "--prices"}},
	}
	for _, c := range cases {
		_, err := Builtin().For(c.region, c.class)
		if err == nil {
			t.Fatalf("%s: no error; stwb must never invent a price", c.region)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", c.region, err, w)
			}
		}
	}
	// A region the file gives with only one class: the other class is an error too.
	p, err := ParsePrices([]byte(oneRegion("eu-west-1", "standard", 0.1415)), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.For("eu-west-1", model.ClassStandardIA); err == nil || !strings.Contains(err.Error(), "standard-ia") {
		t.Errorf("missing class: got %v", err)
	}
}

func oneRegion(region, class string, read float64) string {
	return fmt.Sprintf(`regions:
  %s:
    %s:
      readRequestUnitPerMillion: %g
      writeRequestUnitPerMillion: 0.705
      rcuHour: 0.000147
      wcuHour: 0.000735
      storageGBMonth: 0.283
      freeStorageGB: 25
`, region, class, read)
}

func TestLoadPricesAddsRegions(t *testing.T) {
	path := t.TempDir() + "/prices.yaml"
	if err := os.WriteFile(path, []byte(oneRegion("eu-west-1", "standard", 0.1415)), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadPrices(path)
	if err != nil {
		t.Fatal(err)
	}
	eu, err := p.For("eu-west-1", model.ClassStandard)
	if err != nil || eu.ReadRequestUnitPerMillion != 0.1415 || eu.StorageGBMonth != 0.283 {
		t.Errorf("eu-west-1: %+v, %v", eu, err)
	}
	if _, err := p.For("us-east-1", model.ClassStandard); err != nil {
		t.Errorf("built-in region lost: %v", err)
	}
	if _, err := LoadPrices(t.TempDir() + "/none.yaml"); err == nil || !strings.Contains(err.Error(), "none.yaml") {
		t.Errorf("missing file: %v", err)
	}
}

// Every mistake names file:line:col and what to write.
func TestParsePricesErrors(t *testing.T) {
	full := oneRegion("eu-west-1", "standard", 0.1415)
	cases := []struct {
		name, src, want string
	}{
		{"empty", "", "p.yaml:1:1: empty prices file"},
		{"not yaml", "regions: [", "p.yaml:1:1: not YAML"},
		{"scalar root", "12", "p.yaml:1:1: a prices file is a mapping"},
		{"unknown top key", "region: x", "p.yaml:1:1: unknown key \"region\""},
		{"regions not map", "regions: 3", "p.yaml:1:10: `regions` must map"},
		{"unknown class", "regions:\n  eu-west-1:\n    glacier: {}", "p.yaml:3:5: unknown table class \"glacier\""},
		{"missing price", "regions:\n  eu-west-1:\n    standard: {rcuHour: 0.1}", "p.yaml:3:15: eu-west-1 standard lacks readRequestUnitPerMillion, writeRequestUnitPerMillion, wcuHour, storageGBMonth, freeStorageGB: stwb never guesses a price"},
		{"negative", strings.Replace(full, "0.283", "-1", 1), "p.yaml:8:23: storageGBMonth in eu-west-1 standard must be a number of US dollars, 0 or more"},
		{"text price", strings.Replace(full, "0.283", "cheap", 1), "p.yaml:8:23: storageGBMonth"},
		{"nan", strings.Replace(full, "0.283", ".nan", 1), "must be a number"},
		{"inf", strings.Replace(full, "0.283", "+Inf", 1), "must be a number"},
		{"unknown price", strings.Replace(full, "rcuHour", "rcuHours", 1), "p.yaml:6:7: unknown price \"rcuHours\""},
		{"duplicate price", full + "      rcuHour: 1\n", "p.yaml:10:7: price rcuHour is given twice"},
		{"list price", strings.Replace(full, "0.283", "[1]", 1), "must be a number of US dollars"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParsePrices([]byte(c.src), "p.yaml")
			if err == nil {
				t.Fatalf("no error, want %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("got  %q\nwant %q", err, c.want)
			}
		})
	}
}

// The month (730 h = 2,628,000 s) and the two ways to pay for it. The seeds' worked
// example: 5,500 RCU sustained is $521.95/month provisioned and $1,806.75/month
// on-demand (5,500 x 2,628,000 x $0.125/M); the seeds call the second figure
// "provisioned", which is wrong (DYNAMODB.md "Prices").
func TestMonthlyPrices(t *testing.T) {
	std, _ := Builtin().For("", model.ClassStandard)
	ia, _ := Builtin().For("", model.ClassStandardIA)
	cases := []struct {
		name                  string
		read, write           float64
		cp                    ClassPrices
		onDemand, provisioned float64
	}{
		{"seeds 5,500 RCU", 5500, 0, std, 1806.75, 521.95},
		{"seeds 1,250 RCU", 1250, 0, std, 410.625, 118.625},
		{"issue GetItem 100 RCU", 100, 0, std, 32.85, 9.49},
		{"1 WCU", 0, 1, std, 1.6425, 0.4745},
		{"1,000 WCU", 0, 1000, std, 1642.5, 474.5},
		// 100 x 2,628,000 x ($0.155 + $0.78) / 1e6 = $245.718 on-demand;
		// 100 x 730 x ($0.00016 + $0.00081) = $70.81 provisioned (1.25x Standard
		// would be $71.175).
		{"IA as published", 100, 100, ia, 245.718, 70.81},
		{"nothing", 0, 0, std, 0, 0},
	}
	for _, c := range cases {
		od := OnDemandMonthly(c.read, c.write, c.cp)
		pr := ProvisionedMonthly(c.read, c.write, c.cp)
		if math.Abs(od-c.onDemand) > 1e-6 || math.Abs(pr-c.provisioned) > 1e-6 {
			t.Errorf("%s: on-demand %.6f provisioned %.6f, want %.6f and %.6f", c.name, od, pr, c.onDemand, c.provisioned)
		}
	}
	if SecondsPerMonth != 2628000 {
		t.Errorf("a month is %d s, want 2,628,000", SecondsPerMonth)
	}
}

func FuzzParsePrices(f *testing.F) {
	f.Add(builtinPrices)
	f.Add([]byte(oneRegion("eu-west-1", "standard-ia", 0.2)))
	f.Add([]byte("regions: {a: {standard: {rcuHour: 1}}}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePrices(data, "f.yaml")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.yaml:") {
				t.Errorf("error without a place: %v", err)
			}
			return
		}
		for _, r := range p.Regions() {
			for class, cp := range p[r] {
				for _, f := range priceFields {
					if v := *f.ptr(&cp); v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
						t.Errorf("%s %s %s = %v accepted", r, class, f.name, v)
					}
				}
			}
		}
	})
}

// Builtin hands out copies: adding a region to one does not change the next.
func TestBuiltinIsACopy(t *testing.T) {
	p := Builtin()
	p["eu-west-1"] = map[model.TableClass]ClassPrices{model.ClassStandard: {}}
	p[DefaultRegion][model.ClassStandard] = ClassPrices{}
	q := Builtin()
	if _, ok := q["eu-west-1"]; ok {
		t.Error("a region added to one copy shows in the next")
	}
	if q[DefaultRegion][model.ClassStandard].RCUHour != 0.00013 {
		t.Error("a price changed in one copy shows in the next")
	}
}
