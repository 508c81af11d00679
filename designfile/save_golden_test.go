package designfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"stwb/internal/golden"
	"testing"

	"stwb/model"
)

// The save golden files hold what Marshal wrote before saving was made fast (the
// yaml.v3-and-splice writer of commit f646d58), so that the fast writer is held to
// the very same bytes: a reviewer's diff of a saved design must not change because
// the program got quicker. Regenerate only for an intended change of format:
//
//	go test ./designfile -run TestSaveGolden -update

// richDesignText is a design whose items exercise every way an item is written: item
// comments above, beside and between items, quoting, numbers, sets, lists, maps,
// binaries, booleans, nulls, non-ASCII text, attribute names that need quoting, and
// keys the entity templates derive next to keys written out.
func richDesignText(n int) string {
	var b strings.Builder
	b.WriteString(`# a rich design for the save golden test
version: 1
name: rich
table:
  name: rich-table # the table
  key: {partition: PK, sort: SK}
  attributes: {SK: S, GSI2SK: N}
  indexes:
    - name: GSI1
      key: {partition: GSI1PK, sort: GSI1SK}
    - name: GSI2
      key: {partition: GSI2PK, sort: GSI2SK}
entities:
  - name: customer
    keys: {PK: "CUST#{customerId}", SK: PROFILE}
  - name: order
    keys: {PK: "CUST#{customerId}", SK: "ORDER#{orderId}", GSI1PK: "STATUS#{status}", GSI1SK: "{placedAt}", GSI2PK: "T#{total}", GSI2SK: "{total}"}
items:
`)
	statuses := []string{"SHIPPED", "pending", "On", "null", "a b", "x: y", "#hash", "tab\there", "ünïcode", "yes"}
	for i := 0; i < n; i++ {
		switch i % 7 {
		case 0:
			fmt.Fprintf(&b, "  # customer %d\n  - {type: customer, customerId: \"%d\", name: 'Name %d', \"odd key\": %d, flag: %t, gone: null}\n", i, i, i, i, i%2 == 0)
		case 1:
			fmt.Fprintf(&b, "  - {type: order, customerId: \"%d\", orderId: \"%06d\", status: \"%s\", placedAt: \"2026-08-03T14:22:%02dZ\", total: %d.50, tags: !ss [b, a], qty: !ns [3, 1.0]} # order %d\n",
				i-1, i, strings.ReplaceAll(statuses[i%len(statuses)], "\t", `\t`), i%60, i%500, i)
		case 2:
			// keys the template builds, written out anyway (so they are kept), first
			fmt.Fprintf(&b, "  - {SK: \"ORDER#%06d\", type: order, PK: \"CUST#%d\", customerId: \"%d\", orderId: \"%06d\", status: S, placedAt: p, total: 1, GSI1PK: \"STATUS#S\"}\n", i, i-2, i-2, i)
		case 3:
			fmt.Fprintf(&b, "  - {PK: \"raw#%d\", SK: \"r\", bin: !!binary AAEC, list: [1, \"two\", [true, null], {z: 1, a: \"-x\"}], m: {\"k:\": v, n: 12345678901234567890.5}, bs: !bs [AAE=, AQ==]}\n", i)
		case 4:
			fmt.Fprintf(&b, "  - {PK: \"raw#%d\", SK: \"中文\", \"é\": 'x''y', e: \"\", n: -0.0, big: 1e3}\n", i)
		case 5:
			fmt.Fprintf(&b, "  - {PK: \"raw#%d\", SK: \"z\", GSI2PK: g, GSI2SK: %d, zeta: 1, alpha: 2, type: unknown}\n\n", i, i)
		case 6:
			fmt.Fprintf(&b, "  # two comment lines\n  # above item %d\n  - {PK: \"raw#%d\", SK: \"y\", long: \"%s\"}\n", i, i, strings.Repeat("w", 40))
		}
	}
	// An item with more attributes than manyNames, one with a name too long for a
	// simple key, and one whose derived keys are written between the others.
	b.WriteString("  - {PK: wide, SK: \"1\"")
	for a := 40; a > 0; a-- {
		fmt.Fprintf(&b, ", a%02d: %d", a, a)
	}
	b.WriteString("}\n")
	fmt.Fprintf(&b, "  - {PK: long, SK: \"2\", %s: x}\n", strings.Repeat("n", 1001))
	b.WriteString("  - {status: S, type: order, GSI1SK: p, customerId: \"3\", SK: \"ORDER#9\", orderId: \"9\", placedAt: p, total: 2, GSI2SK: 2}\n")
	b.WriteString(`patterns:
  # the first pattern
  - id: 1
    operation: Query
    key: "PK = :pk" # by customer
    values: {":pk": "CUST#1"}
review:
  hot-partition: {severity: info, reason: "spread by the caller"}
`)
	return b.String()
}

// editRich makes the edits the workbench makes: an item changed in place, one whose
// key changed (it loses its comments), one removed, two swapped, new items (one a
// copy of a loaded item, so two items share a key), a new
// pattern and a changed one.
func editRich(d *File) {
	it := d.Items[1].Clone()
	it["status"] = model.Str("DELIVERED")
	it["extra"] = model.Num("7")
	d.Items[1] = it
	moved := d.Items[3].Clone()
	moved["PK"] = model.Str("moved")
	d.Items[3] = moved
	d.Items = append(d.Items[:5], d.Items[6:]...)
	d.Items[7], d.Items[8] = d.Items[8], d.Items[7]
	d.Items = append(d.Items,
		model.Item{"type": model.Str("order"), "customerId": model.Str("9"), "orderId": model.Str("new"), "status": model.Str("NEW"), "placedAt": model.Str("t"), "total": model.Num("5"),
			"PK": model.Str("CUST#9"), "SK": model.Str("ORDER#new"), "GSI1PK": model.Str("STATUS#NEW"), "GSI1SK": model.Str("t"), "GSI2PK": model.Str("T#5"), "GSI2SK": model.Num("5")},
		model.Item{"PK": model.Str("new"), "SK": model.Str("plain"), "Zed": model.Str("true"), "a?b": model.Str("c"), "n": model.Num("not a number")})
	// A copy of a commented item: both copies are written with the comment.
	d.Items = append(d.Items, d.Items[0].Clone())
	d.Patterns = append(d.Patterns, model.Pattern{ID: 7, Name: "new pattern", Operation: model.OpScan, Limit: 3})
	d.Patterns[0].Limit = 4
}

type saveCase struct {
	name string
	d    *File
}

func saveGoldenCases(t *testing.T) []saveCase {
	t.Helper()
	var cases []saveCase
	load := func(name string, text []byte, fast bool) *File {
		d, err := parse(name, text, fast)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return d
	}
	codeBuilt := func(d *File) *File {
		c := *d
		c.source = nil
		return &c
	}
	files, _ := filepath.Glob("testdata/*.yaml")
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		d := load(f, text, true)
		cases = append(cases, saveCase{f, d}, saveCase{f + " code-built", codeBuilt(d)})
	}
	rich := []byte(richDesignText(60))
	for _, fast := range []bool{true, false} {
		name := fmt.Sprintf("rich fast=%t", fast)
		cases = append(cases, saveCase{name, load(name, rich, fast)})
		e := load(name, rich, fast)
		editRich(e)
		cases = append(cases, saveCase{name + " edited", e}, saveCase{name + " edited code-built", codeBuilt(e)})
	}
	// The fuzz seeds that load.
	seeds, _ := filepath.Glob("testdata/fuzz/FuzzParse/*")
	sort.Strings(seeds)
	for _, s := range seeds {
		raw, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitN(string(raw), "\n", 2)
		lit := strings.TrimSpace(lines[1])
		lit = strings.TrimSuffix(strings.TrimPrefix(lit, "[]byte("), ")")
		text, err := strconv.Unquote(lit)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if d, err := Parse(s, []byte(text)); err == nil {
			cases = append(cases, saveCase{s, d})
		}
	}
	return cases
}

// TestSaveGolden holds Marshal to the bytes in testdata/save-golden, writing the
// items by one goroutine and, as a large design is written, in chunks.
func TestSaveGolden(t *testing.T) {
	defer func(old int) { saveChunkMin = old }(saveChunkMin)
	for _, chunkMin := range []int{saveChunkMin, 1, 5} {
		saveChunkMin = chunkMin
		t.Run(fmt.Sprintf("chunked from %d items", chunkMin), testSaveGolden)
	}
}

func testSaveGolden(t *testing.T) {
	var all bytes.Buffer
	for _, c := range saveGoldenCases(t) {
		out, err := fileOf(c.d).Marshal()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		fmt.Fprintf(&all, "=== %s (%d bytes)\n", c.name, len(out))
		all.Write(out)
	}
	path := "testdata/save-golden/cases.txt"
	if golden.Updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, all.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := all.Bytes(); !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("save output differs from %s at line %d:\ngot  %q\nwant %q", path, i+1, g, w)
			}
		}
	}
}

// The SHA-256 of the 100,000-item saves, written by the pre-optimisation writer.
var saveGolden100k = map[string]string{
	"loaded-edited": "7d9ce06e8d59f0a5266b148ed782d8f0b2e8794acdb65272c62d452184b63fcb",
	"code-built":    "dbf0a660634428d13519f0223b7d1aa52d6eb395b124b6a289241ee4c684426e",
}

// TestSaveGolden100k holds the large saves to the old writer's bytes too: a large
// design takes the chunked path, which small ones do not.
func TestSaveGolden100k(t *testing.T) {
	if testing.Short() {
		t.Skip("large design")
	}
	d := loadedEdited100k(t)
	built := *d
	built.source = nil
	for name, des := range map[string]*File{"loaded-edited": d, "code-built": &built} {
		out, err := fileOf(des).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(out)
		got := hex.EncodeToString(sum[:])
		if golden.Updating() {
			t.Logf("%s: %s (%d bytes)", name, got, len(out))
			continue
		}
		if got != saveGolden100k[name] {
			t.Errorf("%s: output SHA-256 %s (%d bytes), want %s", name, got, len(out), saveGolden100k[name])
		}
	}
}

// TestSaveFileWritesMarshal: SaveFile writes Marshal's pieces without joining them;
// the file must hold exactly Marshal's bytes, chunked or not.
func TestSaveFileWritesMarshal(t *testing.T) {
	defer func(old int) { saveChunkMin = old }(saveChunkMin)
	path := filepath.Join(t.TempDir(), "d.yaml")
	for _, chunkMin := range []int{saveChunkMin, 1} {
		saveChunkMin = chunkMin
		for _, c := range saveGoldenCases(t) {
			want, err := fileOf(c.d).Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if err := fileOf(c.d).Save(path); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
				t.Errorf("%s (chunks from %d items): the saved file differs from Marshal's output:\n%s\n---\n%s", c.name, chunkMin, got, want)
			}
		}
	}
}
