package docs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// FORMAT.md names every field the design-file loader accepts. The fields come from
// the loader's own code: every name passed to its decoder's fields method (the
// method that refuses an unknown field), whether written out or from one of its
// tables of known fields, so a field added to the loader without a word here fails.
func TestFormatNamesEveryField(t *testing.T) {
	doc := readFormat(t)
	fields := loaderFields(t)
	if len(fields) < 40 {
		t.Fatalf("found only %d fields in the loader; the test no longer reads it right: %v", len(fields), fields)
	}
	for _, f := range fields {
		if !strings.Contains(doc, "`"+f+"`") && !regexp.MustCompile(`\|[^|\n]*\b`+regexp.QuoteMeta(f)+`\b[^|\n]*\|`).MatchString(doc) {
			t.Errorf("docs/FORMAT.md does not name the field %q, which the loader accepts", f)
		}
	}
}

// FORMAT.md names every command and every flag the command line defines.
func TestFormatNamesEveryCommandAndFlag(t *testing.T) {
	doc := readFormat(t)
	commands, flags := commandLine(t)
	if len(commands) < 10 || len(flags) < 20 {
		t.Fatalf("found %d commands and %d flags; the test no longer reads cmd/stwb right", len(commands), len(flags))
	}
	for _, c := range commands {
		if !strings.Contains(doc, "`stwb "+c) {
			t.Errorf("docs/FORMAT.md does not name the command stwb %s", c)
		}
	}
	for _, f := range flags {
		dash := "--" + f
		if len(f) == 1 {
			dash = "-" + f
		}
		if !regexp.MustCompile(regexp.QuoteMeta(dash) + `\b`).MatchString(doc) {
			t.Errorf("docs/FORMAT.md does not name the flag %s", dash)
		}
	}
}

func readFormat(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// parseDir parses the Go files of a directory of the module, tests left out.
func parseDir(t *testing.T, dir string) []*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("..", dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// loaderFields reads the field names the loader accepts. The loader is the package
// with a method `fields` on its decoder (model, or designfile once the design file
// has a package of its own); each call names the known fields as string literals,
// as string constants converted (string(Provisioned)), or as a table spread with
// `...`, a package-level []string of literals.
func loaderFields(t *testing.T) []string {
	t.Helper()
	var files []*ast.File
	for _, dir := range []string{"designfile", "model"} {
		fs := parseDir(t, dir)
		if hasMethod(fs, "decoder", "fields") {
			files = fs
			break
		}
	}
	if files == nil {
		t.Fatal("no loader found: no package has a decoder with a fields method")
	}
	tables, consts := map[string][]string{}, map[string]string{}
	// Constants may live in model while the loader is elsewhere.
	for _, f := range append(parseDir(t, "model"), files...) {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				vs, ok := spec.(*ast.ValueSpec)
				if !ok {
					continue
				}
				for i, name := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					switch v := vs.Values[i].(type) {
					case *ast.CompositeLit:
						tables[name.Name] = stringLits(v.Elts)
					case *ast.BasicLit:
						if s, err := strconv.Unquote(v.Value); err == nil && v.Kind == token.STRING {
							consts[name.Name] = s
						}
					}
				}
			}
		}
	}
	var out []string
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "fields" || len(call.Args) < 3 {
				return true
			}
			for _, a := range call.Args[2:] {
				switch a := a.(type) {
				case *ast.BasicLit:
					out = append(out, stringLits([]ast.Expr{a})...)
				case *ast.Ident:
					out = append(out, tables[a.Name]...)
				case *ast.CallExpr: // string(Provisioned)
					if len(a.Args) == 1 {
						if id, ok := a.Args[0].(*ast.Ident); ok {
							if s, ok := consts[id.Name]; ok {
								out = append(out, s)
							}
						}
					}
				}
			}
			return true
		})
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func hasMethod(files []*ast.File, recv, name string) bool {
	for _, f := range files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Name.Name != name || len(fd.Recv.List) == 0 {
				continue
			}
			if star, ok := fd.Recv.List[0].Type.(*ast.StarExpr); ok {
				if id, ok := star.X.(*ast.Ident); ok && id.Name == recv {
					return true
				}
			}
		}
	}
	return false
}

func stringLits(es []ast.Expr) []string {
	var out []string
	for _, e := range es {
		if bl, ok := e.(*ast.BasicLit); ok && bl.Kind == token.STRING {
			if s, err := strconv.Unquote(bl.Value); err == nil {
				out = append(out, s)
			}
		}
	}
	return out
}

// commandLine reads cmd/stwb: its commands (the first word of each cobra.Command's
// Use, the root's left out) and the flags they define (f.BoolVar(&v, "name", ...),
// f.StringVarP(&v, "name", "n", ...), cmd.Flags().Int("name", ...) ...), each
// shorthand as a flag of its own.
func commandLine(t *testing.T) (commands, flags []string) {
	t.Helper()
	for _, f := range parseDir(t, "cmd/stwb") {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				if sel, ok := n.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Command" {
					for _, el := range n.Elts {
						kv, ok := el.(*ast.KeyValueExpr)
						if key, isIdent := kv.Key.(*ast.Ident); !ok || !isIdent || key.Name != "Use" {
							continue
						}
						if use := stringLits([]ast.Expr{kv.Value}); len(use) == 1 {
							if name, _, _ := strings.Cut(use[0], " "); name != "stwb" {
								commands = append(commands, name)
							}
						}
					}
				}
			case *ast.CallExpr:
				flags = append(flags, flagNames(n)...)
			}
			return true
		})
	}
	slices.Sort(flags)
	return commands, slices.Compact(flags)
}

// flagDefiner matches the pflag.FlagSet methods that define a flag: String, BoolVar,
// IntVarP, DurationP ...
var flagDefiner = regexp.MustCompile(`^(String|Bool|Int|Int64|Uint|Float64|Duration|StringSlice)(Var)?(P)?$`)

// flagNames is the long name and shorthand of a flag a call defines, if it is a
// flag set's method (not a package's function, as strings.Repeat is).
func flagNames(call *ast.CallExpr) []string {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	m := flagDefiner.FindStringSubmatch(sel.Sel.Name)
	if m == nil {
		return nil
	}
	switch x := sel.X.(type) {
	case *ast.Ident:
		if x.Obj == nil { // a package, not a variable
			return nil
		}
	case *ast.CallExpr: // cmd.Flags().Bool(...)
	default:
		return nil
	}
	first := 0
	if m[2] == "Var" {
		first = 1 // the variable comes first
	}
	count := 1
	if m[3] == "P" {
		count = 2 // the shorthand follows the name
	}
	if len(call.Args) < first+count {
		return nil
	}
	return stringLits(call.Args[first : first+count])
}
