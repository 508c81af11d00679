package interop

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"stwb/designfile"
	"stwb/model"
)

// The request inputs follow the aws-sdk-go-v2 service/dynamodb input types and the
// AWS SDK for JavaScript v3 @aws-sdk/client-dynamodb CommandInput types, which mirror
// the API reference (API_Query.html, API_UpdateItem.html, ...).

// shopDesign is the imported AnOnlineShop facets model: attribute names with
// hyphens ("GSI1-PK"), a template over another key attribute ("p#{GSI1-SK}").
func shopDesign(t *testing.T) *model.Design {
	r, err := ImportWorkbench(readTestdata(t, "nwb/AnOnlineShop_facets.json"))
	if err != nil {
		t.Fatal(err)
	}
	return r.Designs[0]
}

func TestCodegenGolden(t *testing.T) {
	goSrc, err := ExportGo(ordersDesign(), "")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "orders.keys.go.txt", goSrc)
	tsSrc, err := ExportTypeScript(ordersDesign())
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "orders.keys.ts", tsSrc)
}

// sampleDesigns loads the shipped sample designs.
func sampleDesigns(t *testing.T) map[string]*model.Design {
	t.Helper()
	out := map[string]*model.Design{}
	paths, _ := filepath.Glob(filepath.Join("..", "samples", "*.yaml"))
	for _, p := range paths {
		f, err := designfile.Load(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out[strings.TrimSuffix(filepath.Base(p), ".yaml")] = f.Design
	}
	return out
}

// allDesigns is the test designs and every sample.
func allDesigns(t *testing.T) map[string]*model.Design {
	ds := sampleDesigns(t)
	ds["orders-test"] = ordersDesign()
	ds["shop"] = shopDesign(t)
	ds["ondemand"] = onDemandDesign()
	// An entity whose name the module itself uses.
	clash := ordersDesign()
	clash.Entities[0].Name = "item"
	for _, it := range clash.Items {
		if it["type"].Str == "customer" {
			it["type"] = model.Str("item")
		}
	}
	ds["clash"] = clash
	// PartiQL patterns: ExecuteStatementInput with its parameters.
	pq := ordersDesign()
	pq.Patterns = append(pq.Patterns, model.Pattern{ID: 90, Name: "statement", Operation: model.OpExecuteStatement,
		Statement: `SELECT * FROM "` + pq.Table.Name + `" WHERE PK = ? AND SK > ?`, Parameters: []model.Value{model.Str("CUST#1"), model.Num("3")},
		Limit: 10, Consistent: true},
		model.Pattern{ID: 91, Name: "insert", Operation: model.OpExecuteStatement, Statement: `INSERT INTO "` + pq.Table.Name + `" VALUE {'PK': 'a', 'SK': 'b'}`})
	ds["partiql"] = pq
	return ds
}

func TestGeneratedGoParses(t *testing.T) {
	for name, d := range allDesigns(t) {
		src, err := ExportGo(d, "")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := parser.ParseFile(token.NewFileSet(), name+".go", src, parser.AllErrors); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestIdentifiers(t *testing.T) {
	cases := []struct{ in, camel, lower string }{
		{"customerId", "CustomerId", "customerId"},
		{"GSI1-PK", "GSI1PK", "gsi1PK"},
		{"State#Date", "StateDate", "stateDate"},
		{"type", "Type", "type_"},
		{"PK", "PK", "pk"},
		{"9lives", "X9lives", "x9lives"},
		{"美", "X", "x"},
	}
	for _, c := range cases {
		if got := camel(c.in); got != c.camel {
			t.Errorf("camel(%q) = %q, want %q", c.in, got, c.camel)
		}
		if got := lowerCamel(c.in); got != c.lower {
			t.Errorf("lowerCamel(%q) = %q, want %q", c.in, got, c.lower)
		}
	}
}

// goKeyCheck writes a Go test that, for every sample item of an entity, builds the
// keys with the generated function and compares them with the item's keys (which the
// design's templates built or checked), and parses the table key back.
func goKeyCheck(t *testing.T, d *model.Design, pkg string) string {
	t.Helper()
	g, err := newGenModel(d)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\nimport \"testing\"\n\nfunc TestKeysMatchDesign(t *testing.T) {\n", pkg)
	checks, candidates := 0, 0
	for _, it := range d.Items {
		full := completeItem(d, it)
		tv := full[d.TypeAttr()]
		var e *genEntity
		for i := range g.entities {
			if g.entities[i].Name == tv.Str {
				e = &g.entities[i]
			}
		}
		if e == nil || len(e.Keys) == 0 {
			continue
		}
		candidates++
		var args []string
		haveAll := true
		for _, p := range e.Params {
			v, ok := full[p.Attr]
			if !ok {
				haveAll = false
				break
			}
			args = append(args, strconv.Quote(v.Str))
		}
		if haveAll {
			fmt.Fprintf(&b, "\t{\n\t\tk := %sKeys(%s)\n", e.Ident, strings.Join(args, ", "))
			for _, k := range e.Keys {
				fmt.Fprintf(&b, "\t\tif k.%s != %s {\n\t\t\tt.Errorf(\"%s: %%q, want %%q\", k.%s, %s)\n\t\t}\n", k.Ident, strconv.Quote(full[k.Attr].Str), k.Attr, k.Ident, strconv.Quote(full[k.Attr].Str))
				checks++
			}
			b.WriteString("\t}\n")
		}
		if len(e.Parse) > 0 && len(e.Params) > 0 && e.Parse[len(e.Parse)-1].Parsable {
			var pargs []string
			for _, k := range e.Parse {
				pargs = append(pargs, strconv.Quote(full[k.Attr].Str))
			}
			fmt.Fprintf(&b, "\tif v, err := Parse%sKey(%s); err != nil {\n\t\tt.Error(err)\n\t} else {\n\t\t_ = v\n", e.Ident, strings.Join(pargs, ", "))
			inTable := map[string]bool{}
			for _, k := range e.Parse {
				for _, v := range model.TemplateVars(k.Template) {
					inTable[v] = true
				}
			}
			for _, p := range e.Params {
				if v, ok := full[p.Attr]; ok && inTable[p.Attr] {
					fmt.Fprintf(&b, "\t\tif v.%s != %s {\n\t\t\tt.Errorf(\"parsed %s %%q\", v.%s)\n\t\t}\n", camel(p.Ident), strconv.Quote(v.Str), p.Attr, camel(p.Ident))
					checks++
				}
			}
			b.WriteString("\t}\n")
		}
	}
	b.WriteString("}\n")
	if candidates > 0 && checks == 0 {
		t.Fatalf("%s: %d typed items but no key checks; the test would prove nothing", pkg, candidates)
	}
	return b.String()
}

// The generated Go compiles against aws-sdk-go-v2 in a module of its own, and its
// key builders give the design's keys on every sample. The module resolves from the
// local module cache (GOPROXY=off), since stwb's go.mod already needs the SDK.
func TestGeneratedGoBuildsAndMatchesTemplates(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with aws-sdk-go-v2")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is not on PATH: %v", err)
	}
	sum, err := os.ReadFile(filepath.Join("..", "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gomod := "module gencheck\n\ngo 1.26\n\nrequire (\n\tgithub.com/aws/aws-sdk-go-v2 v1.48.0\n\tgithub.com/aws/aws-sdk-go-v2/service/dynamodb v1.74.0\n)\n"
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644))
	must(os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))
	for name, d := range allDesigns(t) {
		pkg := strings.ReplaceAll(name, "-", "") + "keys"
		src, err := ExportGo(d, pkg)
		must(err)
		must(os.MkdirAll(filepath.Join(dir, pkg), 0o755))
		must(os.WriteFile(filepath.Join(dir, pkg, "keys.go"), src, 0o644))
		must(os.WriteFile(filepath.Join(dir, pkg, "keys_test.go"), []byte(goKeyCheck(t, d, pkg)), 0o644))
	}
	cmd := exec.Command(goBin, "test", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test in the generated module: %v\n%s", err, out)
	}
}

// The generated TypeScript passes tsc --noEmit --strict against the real
// @aws-sdk/client-dynamodb types. The packages come from npm; STWB_TSENV names a
// directory where `npm install typescript @aws-sdk/client-dynamodb` was run
// (default /tmp/tsenv). Without them the test is skipped, and says so.
func TestGeneratedTypeScriptCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs tsc")
	}
	env := os.Getenv("STWB_TSENV")
	if env == "" {
		env = "/tmp/tsenv"
	}
	tsc := filepath.Join(env, "node_modules", ".bin", "tsc")
	if _, err := os.Stat(tsc); err != nil {
		t.Skipf("no tsc under %s (npm install typescript @aws-sdk/client-dynamodb there)", env)
	}
	if _, err := os.Stat(filepath.Join(env, "node_modules", "@aws-sdk", "client-dynamodb")); err != nil {
		t.Skipf("no @aws-sdk/client-dynamodb under %s", env)
	}
	// One tsc run for every file: starting tsc costs more than checking.
	args := []string{"--noEmit", "--strict", "--target", "es2020", "--module", "nodenext", "--moduleResolution", "nodenext", "--skipLibCheck"}
	for name, d := range allDesigns(t) {
		src, err := ExportTypeScript(d)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(env, "stwb_"+name+".ts")
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(path)
		args = append(args, path)
	}
	cmd := exec.Command(tsc, args...)
	cmd.Dir = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("tsc: %v\n%s", err, out)
	}
}

// TestValueLiterals: every attribute value type as an SDK literal, in the member
// shapes of API_AttributeValue.html (aws-sdk-go-v2 types.AttributeValueMember*, SDK
// v3 AttributeValue); map members in name order so the output is stable.
func TestValueLiterals(t *testing.T) {
	cases := []struct {
		v      model.Value
		goWant string
		tsWant string
	}{
		{model.Str("a\"b"), `&types.AttributeValueMemberS{Value: "a\"b"}`, `{ S: "a\"b" }`},
		{model.Num("1.50"), `&types.AttributeValueMemberN{Value: "1.50"}`, `{ N: "1.50" }`},
		{model.Bin([]byte{1, 255}), `&types.AttributeValueMemberB{Value: []byte("\x01\xff")}`, `{ B: new Uint8Array([1, 255]) }`},
		{model.Bool(false), `&types.AttributeValueMemberBOOL{Value: false}`, `{ BOOL: false }`},
		{model.Null(), `&types.AttributeValueMemberNULL{Value: true}`, `{ NULL: true }`},
		{model.List(), `&types.AttributeValueMemberL{Value: []types.AttributeValue{}}`, `{ L: [] }`},
		{model.List(model.Str("x"), model.Num("2")),
			`&types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: "x"}, &types.AttributeValueMemberN{Value: "2"}}}`,
			`{ L: [{ S: "x" }, { N: "2" }] }`},
		{model.Map(map[string]model.Value{"z": model.Bool(true), "a b": model.Str("y")}),
			`&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"a b": &types.AttributeValueMemberS{Value: "y"}, "z": &types.AttributeValueMemberBOOL{Value: true}}}`,
			`{ M: { "a b": { S: "y" }, "z": { BOOL: true } } }`},
		{model.StrSet("p", "q"), `&types.AttributeValueMemberSS{Value: []string{"p", "q"}}`, `{ SS: ["p", "q"] }`},
		{model.NumSet("1", "2"), `&types.AttributeValueMemberNS{Value: []string{"1", "2"}}`, `{ NS: ["1", "2"] }`},
		{model.BinSet([]byte("a"), []byte("b")), `&types.AttributeValueMemberBS{Value: [][]byte{[]byte("a"), []byte("b")}}`,
			`{ BS: [new Uint8Array([97]), new Uint8Array([98])] }`},
	}
	for _, c := range cases {
		if got := goAV(c.v); got != c.goWant {
			t.Errorf("goAV(%s)\n got %s\nwant %s", c.v.Type, got, c.goWant)
		}
		if got := tsAV(c.v); got != c.tsWant {
			t.Errorf("tsAV(%s)\n got %s\nwant %s", c.v.Type, got, c.tsWant)
		}
	}
}

// TestMalformedTemplateRefused: a design built in code can hold a template that
// model.Validate would refuse; the key modules then say which entity and key rather
// than write code that does not compile.
func TestMalformedTemplateRefused(t *testing.T) {
	for _, tmpl := range []string{"CUST#{customerId", "A{}B", "X}{y}"} {
		d := ordersDesign()
		d.Entities[0].Keys[d.Table.Key.Partition] = tmpl
		for name, export := range map[string]func(*model.Design) ([]byte, error){
			"go":         func(d *model.Design) ([]byte, error) { return ExportGo(d, "") },
			"typescript": ExportTypeScript,
		} {
			_, err := export(d)
			if err == nil || !strings.Contains(err.Error(), "entity "+d.Entities[0].Name+": keys."+d.Table.Key.Partition) ||
				!strings.Contains(err.Error(), strconv.Quote(tmpl)) {
				t.Errorf("%s export of template %q: err = %v, want one naming the entity, key and template", name, tmpl, err)
			}
		}
	}
}

// TestGoPackageName: a --package that is not a Go identifier is refused in the
// user's terms, not as "generated Go does not parse (a bug in stwb)".
func TestGoPackageName(t *testing.T) {
	d := ordersDesign()
	for _, bad := range []string{"bad name", "1keys", "func", "with-dash", "_", "a.b"} {
		_, err := ExportGo(d, bad)
		if err == nil || !strings.Contains(err.Error(), "is not a Go package name") || strings.Contains(err.Error(), "bug") {
			t.Errorf("--package %q: %v", bad, err)
		}
	}
	for _, good := range []string{"orderkeys", "keys2", "_keys", "ключи"} {
		if _, err := ExportGo(d, good); err != nil {
			t.Errorf("--package %q: %v", good, err)
		}
	}
}
