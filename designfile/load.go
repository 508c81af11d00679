package designfile

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"stwb/internal/inputlimit"
	"stwb/model"
)

// Loading a design file (FORMAT.md). The file is read as a yaml.Node tree, not by
// struct decoding, so that every field and value keeps its line and column for error
// messages, unknown fields are reported with a did-you-mean, numbers keep their exact
// text, and the tree (with people's comments) can be kept for saving.

// Load reads and parses a design file. It does not handle "-": the command line reads
// standard input itself and calls Parse.
func Load(path string) (*File, error) {
	data, err := inputlimit.ReadFile(path) // a device or a file past the limit is refused
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse reads a design from YAML. file names the source in error messages. It
// returns every problem it finds, as a model.ErrorList, after key templates are
// applied and the design validated (model.ValidateRead); on error the returned file
// is nil.
func Parse(file string, data []byte) (*File, error) { return parse(file, data, true) }

// recoverPanics turns a panic inside parsing into a whole-file error. The fuzz test
// turns it off so that a panic fails the run.
var recoverPanics = true

// parse is Parse with the items fast path optional, so that tests can hold the two
// paths to the same result.
func parse(file string, data []byte, allowFast bool) (f *File, err error) {
	defer func() {
		// yaml.v3 has panicked on hostile input in the past; a design file must never
		// crash the workbench, so such a panic becomes a whole-file error.
		if !recoverPanics {
			return
		}
		if r := recover(); r != nil {
			f, err = nil, model.ErrorList{{Pos: model.Pos{File: file}, Msg: fmt.Sprint("cannot read the file: ", r), WholeFile: true}}
		}
	}()
	dec := newDecoder(file)
	var fast *fastItems
	if allowFast {
		fast = splitItems(dec, data)
	}
	src := data
	if fast != nil {
		src = fast.rest
	}
	var root yaml.Node
	if yerr := yaml.Unmarshal(src, &root); yerr != nil {
		return nil, yamlSyntaxError(file, data, yerr)
	}
	if fast != nil && !fast.fits(&root) {
		// The text looked like an items section but YAML reads it otherwise (inside a
		// multi-line string, say): read the whole file the slow, certain way.
		fast = nil
		root = yaml.Node{}
		if yerr := yaml.Unmarshal(data, &root); yerr != nil {
			return nil, yamlSyntaxError(file, data, yerr)
		}
	}
	if off, ok := secondDocument(data); ok {
		// yaml.Unmarshal reads the first document and ignores the rest: a design
		// pasted twice, or text after "...", would be dropped without a word.
		return nil, model.ErrorList{{Pos: posAt(file, data, off), Msg: "a second YAML document starts here",
			Hint: "a design file holds one document: remove this marker and what follows, or split the file"}}
	}
	f = dec.document(&root, fast)
	if f == nil {
		return nil, dec.errs.Err()
	}
	design := f.Design
	if t := model.NewTemplater(design); t != nil {
		// The key attributes that typed items leave out are built, and the ones they
		// give checked against their entity's templates.
		for i, it := range design.Items {
			t.Apply(i, it, f.itemPos(i), &dec.errs)
		}
		// And so are those of the items the patterns write.
		t.ApplyToPatterns(design, &dec.errs)
	}
	for i := range f.source.items {
		f.source.items[i].key = model.ItemKey(&design.Table, design.Items[i])
	}
	dec.errs = append(dec.errs, model.ValidateRead(design, f.ItemPos)...)
	if err := dec.errs.Err(); err != nil {
		return nil, err
	}
	return f, nil
}

// itemPos is where item i is; just the file when that is not known.
func (f *File) itemPos(i int) model.Pos {
	if i < len(f.ItemPos) {
		return f.ItemPos[i]
	}
	return model.Pos{File: f.Design.Pos.File}
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlSyntaxError gives a yaml.v3 syntax error the file:line:col form. yaml.v3 names
// the line but not the column; the column is then 1.
func yamlSyntaxError(file string, data []byte, err error) error {
	var list model.ErrorList
	msgs := []string{err.Error()}
	if te, ok := err.(*yaml.TypeError); ok {
		msgs = te.Errors
	}
	for _, m := range msgs {
		// yaml.v3 names no place for a byte it refuses or an alias it cannot
		// resolve: find it in the text.
		if pos, what, ok := badByte(file, data); ok && byteProblem.MatchString(m) {
			list = append(list, &model.PosError{Pos: pos, Msg: what, Hint: "a design file is UTF-8 text; remove the byte or save the file as UTF-8"})
			continue
		}
		if g := unknownAlias.FindStringSubmatch(m); g != nil {
			if i := bytes.Index(data, []byte("*"+g[1])); i >= 0 {
				list = append(list, &model.PosError{Pos: posAt(file, data, i), Msg: fmt.Sprintf("YAML alias *%s names no anchor &%s", g[1], g[1]),
					Hint: "define the anchor before it, or write the value out"})
				continue
			}
		}
		if g := yamlLineRE.FindStringSubmatch(m); g != nil {
			line, _ := strconv.Atoi(g[1])
			list = append(list, &model.PosError{Pos: model.Pos{File: file, Line: line, Col: 1},
				Msg: "YAML syntax: " + g[2], Hint: "fix the YAML at this line"})
			continue
		}
		list = append(list, &model.PosError{Pos: model.Pos{File: file}, Msg: "YAML syntax: " + strings.TrimPrefix(m, "yaml: "),
			Hint: "fix the file's YAML", WholeFile: true})
	}
	return list
}

var (
	byteProblem  = regexp.MustCompile(`control characters are not allowed|invalid (leading|trailing) UTF-8 octet|incomplete UTF-8 octet sequence|invalid length of a UTF-8 sequence|invalid Unicode character`)
	unknownAlias = regexp.MustCompile(`unknown anchor '([^']+)' referenced`)
)

// badByte finds the first byte or character YAML does not allow in a file (YAML
// 1.2 "5.1 Character Set": no C0 control but tab, LF and CR, no DEL, no C1 control
// but NEL, and UTF-8, UTF-16 or UTF-32 text only), and says what it is.
func badByte(file string, data []byte) (model.Pos, string, bool) {
	switch {
	case bytes.HasPrefix(data, []byte{0, 0, 0xfe, 0xff}), bytes.HasPrefix(data, []byte{0xff, 0xfe, 0, 0}):
		return model.Pos{File: file, Line: 1, Col: 1}, "the file is UTF-32 text", true
	}
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		var what string
		switch {
		case r == utf8.RuneError && size <= 1:
			what = fmt.Sprintf("byte 0x%02x is not UTF-8", data[i])
		case r == 0:
			what = "a NUL byte (0x00) is not allowed in YAML"
		case r < 0x20 && r != '\t' && r != '\n' && r != '\r', r == 0x7f, r >= 0x80 && r <= 0x9f && r != 0x85:
			what = fmt.Sprintf("control character U+%04X is not allowed in YAML", r)
		}
		if what != "" {
			return posAt(file, data, i), what, true
		}
		i += size
	}
	return model.Pos{}, "", false
}

// secondDocument finds a document marker ("---" or "..." at the start of a line)
// that ends the design's document and is followed by more than comments: YAML's
// second document. A "---" before any content starts the one document. A marker
// is always at column 0 and a design's values are indented, so a block scalar
// cannot hold one.
func secondDocument(data []byte) (int, bool) {
	best := -1
	for _, marker := range []string{"\n---", "\n..."} {
		for i := 0; ; {
			j := bytes.Index(data[i:], []byte(marker))
			if j < 0 {
				break
			}
			at := i + j + 1
			i = at + 3
			if i < len(data) && !strings.ContainsRune(" \t\r\n", rune(data[i])) {
				continue // ----- or ---x is text, not a marker
			}
			// The marker line's own text after the marker, and the lines after it.
			if !hasContent(data[:at]) || !hasContent(data[min(i, len(data)):]) {
				continue
			}
			if best < 0 || at < best {
				best = at
			}
			break
		}
	}
	return best, best >= 0
}

// hasContent reports whether b has a line that is not blank, a comment or a
// directive.
func hasContent(b []byte) bool {
	for len(b) > 0 {
		line := b
		if k := bytes.IndexByte(b, '\n'); k >= 0 {
			line, b = b[:k], b[k+1:]
		} else {
			b = nil
		}
		t := bytes.TrimSpace(line)
		if len(t) > 0 && t[0] != '#' && t[0] != '%' && !bytes.Equal(t, []byte("---")) {
			return true
		}
	}
	return false
}

// posAt is the line and column (in characters) of byte off of data.
func posAt(file string, data []byte, off int) model.Pos {
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return model.Pos{File: file, Line: bytes.Count(data[:off], []byte{'\n'}) + 1, Col: utf8.RuneCount(data[start:off]) + 1}
}

// decoder holds what one load shares: the file name, the errors found so far, and the
// interned strings.
type decoder struct {
	file string
	errs model.ErrorList
	// strs interns attribute names and short repeated strings across items: a
	// 100,000-item design repeats its few attribute names a million times.
	strs map[string]string
	// orders interns the attribute order lists of items (most items share a layout).
	orders map[string][]string
	// keyAttrs are the table's and its indexes' key attributes, once the table is
	// read: an entity's aliases must name one of them.
	keyAttrs []string
}

func newDecoder(file string) *decoder {
	return &decoder{file: file, strs: map[string]string{}, orders: map[string][]string{}}
}

func (d *decoder) pos(n *yaml.Node) model.Pos {
	return model.Pos{File: d.file, Line: n.Line, Col: n.Column}
}

// text interns short strings (names, enum-like values); long ones are rarely repeated.
//
// A decoder without strs (LazyItems') does not intern: its texts are substrings of
// the file, which it keeps whole anyway.
func (d *decoder) text(s string) string {
	if d.strs == nil || len(s) > 32 {
		return s
	}
	if t, ok := d.strs[s]; ok {
		return t
	}
	d.strs[s] = s
	return s
}

func (d *decoder) order(names []string) []string {
	key := strings.Join(names, "\x00")
	if o, ok := d.orders[key]; ok {
		return o
	}
	o := append([]string(nil), names...)
	d.orders[key] = o
	return o
}

// fieldSet is a mapping node read as named fields.
type fieldSet struct {
	d     *decoder
	where string
	node  *yaml.Node
	vals  map[string]*yaml.Node
	keys  map[string]*yaml.Node
}

// fields reads mapping n whose allowed field names are known; where names it in
// messages ("table.key"). An unknown field is an error with a did-you-mean. A null
// node reads as no fields, and a field whose value is null as a field not given.
// ok is false when n is not a mapping.
func (d *decoder) fields(n *yaml.Node, where string, known ...string) (*fieldSet, bool) {
	fs := &fieldSet{d: d, where: where, node: n, vals: map[string]*yaml.Node{}, keys: map[string]*yaml.Node{}}
	if n == nil || isNull(n) {
		return fs, true
	}
	if n.Kind != yaml.MappingNode {
		d.errs.Add(d.pos(n), "write it as a mapping of fields", "%s must be a mapping", where)
		return fs, false
	}
	d.eachPair(n, func(k string, kn, vn *yaml.Node) {
		if !slices.Contains(known, k) {
			d.unknownField(kn, k, where, known)
			return
		}
		if isNull(vn) {
			return // "field:" with no value is the field left out, default and all
		}
		fs.vals[k], fs.keys[k] = vn, kn
	})
	return fs, true
}

func (d *decoder) unknownField(kn *yaml.Node, k, where string, known []string) {
	if s := model.DidYouMean(k, known); s != "" {
		d.errs.Add(d.pos(kn), "", "unknown field %q in %s; did you mean %q?", k, where, s)
		return
	}
	d.errs.Add(d.pos(kn), "known fields: "+strings.Join(known, ", "), "unknown field %q in %s", k, where)
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

func (f *fieldSet) has(name string) bool { return f.vals[name] != nil }

// skew reads `skew: {zipf: S}` (0 <= S <= 10) or `skew: {hottest: F}` (0 < F <= 1),
// the zero Skew when absent.
func (f *fieldSet) skew(name string) model.Skew {
	n := f.vals[name]
	if n == nil || isNull(n) {
		return model.Skew{}
	}
	sf, ok := f.d.fields(n, f.sub(name), "zipf", "hottest")
	if !ok {
		return model.Skew{}
	}
	var s model.Skew
	if sf.has("zipf") && sf.has("hottest") {
		f.d.errs.Add(f.d.pos(n), "give one of zipf and hottest", "%s: zipf and hottest both given", f.sub(name))
		return model.Skew{}
	}
	if sf.has("zipf") {
		z := sf.number("zipf", 0)
		if z > model.MaxSkewZipf {
			f.d.errs.Add(f.d.pos(sf.vals["zipf"]), "write an exponent from 0 (even) to 10", "%s.zipf %g is out of range", f.sub(name), z)
			return model.Skew{}
		}
		s.Zipf = &z
	}
	if sf.has("hottest") {
		h := sf.number("hottest", 0)
		if h <= 0 || h > 1 {
			f.d.errs.Add(f.d.pos(sf.vals["hottest"]), "write the hottest key value's share of the traffic, above 0 and at most 1 (0.25 for a quarter)", "%s.hottest %g is out of range", f.sub(name), h)
			return model.Skew{}
		}
		s.Hottest = h
	}
	return s
}

// varValues reads an entity's `values: {status: 4, day: period}`.
func (f *fieldSet) varValues(name string) map[string]model.VarValues {
	n := f.vals[name]
	if n == nil || isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		f.d.errs.Add(f.d.pos(n), "write values: {status: 4, day: period}", "%s must be a mapping of template variables", f.sub(name))
		return nil
	}
	out := map[string]model.VarValues{}
	f.d.eachPair(n, func(k string, _, vn *yaml.Node) {
		if vn.Kind == yaml.ScalarNode && vn.Value == "period" {
			out[k] = model.VarValues{Period: true}
			return
		}
		v, err := strconv.ParseInt(vn.Value, 10, 64)
		if vn.Kind != yaml.ScalarNode || vn.ShortTag() != "!!int" || err != nil || v < 1 || v > 1<<62 {
			f.d.errs.Add(f.d.pos(vn), "write how many values it takes (a whole number of at least 1), or period for a date or time", "%s.%s must be a count or period, not %q", f.sub(name), k, vn.Value)
			return
		}
		out[k] = model.VarValues{N: v}
	})
	return out
}

// partitionsOn reads a pattern's `partitions: {table: N, GSI1: M}`.
func (f *fieldSet) partitionsOn(name string) map[string]int64 {
	out := map[string]int64{}
	f.d.eachPair(f.vals[name], func(k string, _, vn *yaml.Node) {
		v, err := strconv.ParseInt(vn.Value, 10, 64)
		if vn.Kind != yaml.ScalarNode || vn.ShortTag() != "!!int" || err != nil || v < 1 || v > 1<<62 {
			f.d.errs.Add(f.d.pos(vn), "write a whole number of at least 1", "%s.%s must be a whole number of at least 1, not %q", f.sub(name), k, vn.Value)
			return
		}
		out[k] = v
	})
	return out
}

func (f *fieldSet) sub(name string) string {
	if f.where == "design" {
		return name
	}
	return f.where + "." + name
}

// scalar returns a field's scalar node, reporting a field of another kind.
func (f *fieldSet) scalar(name string) *yaml.Node {
	n := f.vals[name]
	if n == nil {
		return nil
	}
	if n.Kind != yaml.ScalarNode {
		f.d.errs.Add(f.d.pos(n), "write a single value", "%s must be a scalar", f.sub(name))
		return nil
	}
	return n
}

// str reads a string field ("" when absent). Any scalar is taken as its text, so that
// `cardinality: 1` works as well as `cardinality: "1"`; null is "".
func (f *fieldSet) str(name string) string {
	n := f.scalar(name)
	if n == nil || isNull(n) {
		return ""
	}
	return f.d.text(n.Value)
}

// integer reads a whole-number field within [lo, hi].
func (f *fieldSet) integer(name string, lo, hi int64) int64 {
	n := f.scalar(name)
	if n == nil {
		return 0
	}
	v, err := strconv.ParseInt(n.Value, 10, 64)
	switch {
	case err == nil && n.ShortTag() == "!!str" && n.Style != 0:
		f.d.errs.Add(f.d.pos(n), "remove the quotes", "%s must be a number, not the string %q", f.sub(name), n.Value)
		return 0
	case errors.Is(err, strconv.ErrRange) && n.ShortTag() == "!!int":
		f.d.errs.Add(f.d.pos(n), fmt.Sprintf("write a number from %d to %d", lo, hi), "%s %s is out of range", f.sub(name), n.Value)
		return 0
	case err != nil || n.ShortTag() != "!!int":
		f.d.errs.Add(f.d.pos(n), "write a whole number", "%s must be a whole number, not %q", f.sub(name), n.Value)
		return 0
	}
	if v < lo || v > hi {
		f.d.errs.Add(f.d.pos(n), fmt.Sprintf("write a number from %d to %d", lo, hi), "%s %d is out of range", f.sub(name), v)
		return 0
	}
	return v
}

// number reads a decimal field that is at least lo.
func (f *fieldSet) number(name string, lo float64) float64 {
	n := f.scalar(name)
	if n == nil {
		return 0
	}
	tag := n.ShortTag()
	v, err := strconv.ParseFloat(n.Value, 64)
	switch {
	case tag == "!!str" && err == nil && n.Style != 0:
		f.d.errs.Add(f.d.pos(n), "remove the quotes", "%s must be a number, not the string %q", f.sub(name), n.Value)
		return 0
	case (tag == "!!int" || tag == "!!float" || n.Style == 0 && errors.Is(err, strconv.ErrRange)) &&
		(errors.Is(err, strconv.ErrRange) || err == nil && (v > 1e300 || v < -1e300)):
		// yaml.v3 leaves an unquoted 1e999999 a string: it is past float64.
		// A number, but past what stwb computes with (1e308, 1e999999).
		f.d.errs.Add(f.d.pos(n), "write a number of at most 1e300", "%s %s is out of range", f.sub(name), n.Value)
		return 0
	case err != nil || (tag != "!!int" && tag != "!!float") || v != v:
		f.d.errs.Add(f.d.pos(n), "write a number such as 200 or 0.5", "%s must be a number, not %q", f.sub(name), n.Value)
		return 0
	}
	if v < lo {
		f.d.errs.Add(f.d.pos(n), fmt.Sprintf("write a number of at least %g", lo), "%s %s is too small", f.sub(name), n.Value)
		return 0
	}
	return v
}

func (f *fieldSet) boolean(name string) bool {
	n := f.scalar(name)
	if n == nil {
		return false
	}
	if n.ShortTag() != "!!bool" {
		f.d.errs.Add(f.d.pos(n), "write true or false", "%s must be true or false, not %q", f.sub(name), n.Value)
		return false
	}
	return n.Value == "true" || n.Value == "True" || n.Value == "TRUE"
}

// choice reads a string field that must be one of options.
func (f *fieldSet) choice(name string, options ...string) string {
	s := f.str(name)
	if s == "" || slices.Contains(options, s) {
		return s
	}
	n := f.vals[name]
	hint := "use one of: " + strings.Join(options, ", ")
	if m := model.DidYouMean(s, options); m != "" {
		hint = fmt.Sprintf("did you mean %q? (%s)", m, hint)
	}
	f.d.errs.Add(f.d.pos(n), hint, "%s %q is not known", f.sub(name), s)
	return ""
}

// seq returns a field's sequence elements, reporting a field of another kind.
func (f *fieldSet) seq(name string) []*yaml.Node {
	n := f.vals[name]
	if n == nil || isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		f.d.errs.Add(f.d.pos(n), "write a list: [a, b] or one \"- \" line per element", "%s must be a list", f.sub(name))
		return nil
	}
	return n.Content
}

// strList reads a list of strings.
func (f *fieldSet) strList(name string) []string {
	var out []string
	for _, c := range f.seq(name) {
		if c.Kind != yaml.ScalarNode || isNull(c) {
			f.d.errs.Add(f.d.pos(c), "write a name", "%s must list names", f.sub(name))
			continue
		}
		out = append(out, f.d.text(c.Value))
	}
	return out
}

// strMap reads a mapping of strings to strings (ExpressionAttributeNames).
func (f *fieldSet) strMap(name string) map[string]string {
	n := f.vals[name]
	if n == nil || isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		f.d.errs.Add(f.d.pos(n), "write {\"#n\": name}", "%s must be a mapping", f.sub(name))
		return nil
	}
	m := map[string]string{}
	f.d.eachPair(n, func(k string, kn, vn *yaml.Node) {
		if vn.Kind != yaml.ScalarNode || isNull(vn) {
			f.d.errs.Add(f.d.pos(vn), "write an attribute name", "%s.%s must be a name", f.sub(name), k)
			return
		}
		m[k] = f.d.text(vn.Value)
	})
	return m
}

// valueMap reads a mapping of names to values (ExpressionAttributeValues).
func (f *fieldSet) valueMap(name string) map[string]model.Value {
	n := f.vals[name]
	if n == nil || isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		f.d.errs.Add(f.d.pos(n), "write {\":v\": value}", "%s must be a mapping", f.sub(name))
		return nil
	}
	m := map[string]model.Value{}
	f.d.eachPair(n, func(k string, kn, vn *yaml.Node) {
		if v, ok := f.d.value(vn, 1); ok {
			m[k] = v
		}
	})
	return m
}

// valueList reads a list of values (a PartiQL statement's parameters); an empty
// list is kept as one.
func (f *fieldSet) valueList(name string) []model.Value {
	var out []model.Value
	for _, c := range f.seq(name) {
		if v, ok := f.d.value(c, 1); ok {
			out = append(out, v)
		}
	}
	if out == nil && f.has(name) && !isNull(f.vals[name]) {
		out = []model.Value{}
	}
	return out
}

// item reads a field holding one item or key.
func (f *fieldSet) item(name string) model.Item {
	n := f.vals[name]
	if n == nil {
		return nil
	}
	it, _ := f.d.item(n, f.sub(name))
	return it
}

// itemList reads a field holding a list of items or keys.
func (f *fieldSet) itemList(name string) []model.Item {
	var out []model.Item
	for _, c := range f.seq(name) {
		it, _ := f.d.item(c, f.sub(name))
		if it != nil {
			out = append(out, it)
		}
	}
	if out == nil && f.has(name) && !isNull(f.vals[name]) {
		out = []model.Item{}
	}
	return out
}

// item reads a mapping of attributes. order lists the attribute names as written.
func (d *decoder) item(n *yaml.Node, where string) (model.Item, []string) {
	if n.Kind != yaml.MappingNode {
		d.errs.Add(d.pos(n), "write the item as a mapping: {PK: ..., SK: ...}", "%s must be a mapping of attributes", where)
		return nil, nil
	}
	it := make(model.Item, len(n.Content)/2)
	order := make([]string, 0, len(n.Content)/2)
	d.eachPair(n, func(k string, kn, vn *yaml.Node) {
		if v, ok := d.value(vn, 1); ok {
			it[k] = v
			order = append(order, k)
		}
	})
	return it, order
}

// The fields of each part of a design file, in FORMAT.md's order; saving writes them
// in this order too.
var (
	designFields     = []string{"version", "name", "description", "region", "skew", "table", "entities", "items", "patterns", "review"}
	tableFields      = []string{"name", "key", "attributes", "billing", "class", "stream", "typeAttribute", "ttl", "indexes"}
	keyFields        = []string{"partition", "sort"}
	indexFields      = []string{"name", "local", "key", "projection", "read", "write", "autoscaling"}
	entityFields     = []string{"name", "keys", "attributes", "count", "values", "expires", "aliases"}
	entityAttrFields = []string{"type", "unique"}
	patternFields    = []string{"id", "name", "holds", "returns", "order", "cardinality", "rate", "operation", "statement", "parameters", "index",
		"key", "filter", "projection", "condition", "update", "names", "values", "fanout", "forward", "limit", "pages", "consistent",
		"item", "keys", "actions", "returnValues", "expect", "expectError", "partitions", "skew", "batch"}
	actionKinds         = []string{"put", "update", "delete", "check"}
	actionFields        = []string{"key", "update", "condition", "names", "values"}
	reviewFields        = []string{"severity", "reason"}
	provisionedFields   = []string{"read", "write", "target", "autoscaling"}
	returnValuesOptions = []string{"NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"}
	severityOptions     = []string{"off", "error", "warning", "info"}
)

// document reads the root node. It returns nil when the file holds no mapping.
func (d *decoder) document(root *yaml.Node, fast *fastItems) *File {
	if root.Kind == 0 || len(root.Content) == 0 || isNull(root.Content[0]) {
		what := "the design file is empty"
		if root.Kind != 0 && len(root.Content) > 0 && isNull(root.Content[0]) && root.Content[0].Value != "" {
			what = "the design file holds only " + root.Content[0].Value
		}
		d.errs.Add(model.Pos{File: d.file, Line: 1, Col: 1}, "start from `stwb sample orders` or FORMAT.md's example", "%s", what)
		return nil
	}
	top := root.Content[0]
	if top.Kind != yaml.MappingNode {
		d.errs.Add(d.pos(top), "a design starts with `version: 1`", "a design file must be a mapping of fields")
		return nil
	}
	des := &model.Design{Pos: d.pos(top)}
	file := &File{Design: des, source: &source{root: root}}
	f, _ := d.fields(top, "design", designFields...)
	if !f.has("version") {
		d.errs.Add(des.Pos, "add `version: 1` at the top", "version is missing")
	} else {
		des.Version = int(f.integer("version", 0, 1<<30))
		if des.Version != 1 && des.Version != 0 {
			d.errs.Add(d.pos(f.vals["version"]), "this stwb reads version 1", "unsupported version %d", des.Version)
		}
		// A version that is there but wrong has its one error above; validation's
		// "version must be 1, not 0" would only repeat it in other words.
		des.Version = 1
	}
	des.Name = f.str("name")
	des.Description = f.str("description")
	des.Region = f.str("region")
	des.Skew = f.skew("skew")
	if !f.has("table") {
		d.errs.Add(des.Pos, "add a table with a name and key", "table is missing")
	} else {
		des.Table = d.table(f.vals["table"])
		d.keyAttrs = model.KeyAttributeNames(&des.Table)
	}
	for _, n := range f.seq("entities") {
		des.Entities = append(des.Entities, d.entity(n))
	}
	if fast != nil {
		des.Items, file.ItemPos, file.source.items = fast.items, fast.pos, fast.records
		d.errs = append(d.errs, fast.errs...)
	} else {
		for i, n := range f.seq("items") {
			it, order := d.item(n, fmt.Sprintf("items[%d]", i))
			if it == nil {
				it = model.Item{}
			}
			des.Items = append(des.Items, it)
			file.ItemPos = append(file.ItemPos, d.pos(n))
			file.source.items = append(file.source.items, itemRecord{order: d.order(order),
				head: n.HeadComment, line: n.LineComment, foot: n.FootComment})
		}
		// The item nodes are rewritten from the items on save; dropping them here
		// keeps a large design's memory to the items themselves.
		if n := f.vals["items"]; n != nil {
			n.Content = nil
		}
	}
	seenIDs := map[int]model.Pos{}
	for _, n := range f.seq("patterns") {
		p := d.pattern(n)
		if prev, dup := seenIDs[p.ID]; dup && p.ID > 0 {
			d.errs.Add(p.Pos, "give each pattern its own id", "pattern id %d is used twice (first at %s)", p.ID, prev)
		} else {
			seenIDs[p.ID] = p.Pos
		}
		des.Patterns = append(des.Patterns, p)
	}
	if n := f.vals["review"]; n != nil && !isNull(n) {
		if n.Kind != yaml.MappingNode {
			d.errs.Add(d.pos(n), "write review: {RULE: {severity: off, reason: \"...\"}}", "review must be a mapping of rule ids")
		} else {
			d.eachPair(n, func(rule string, kn, vn *yaml.Node) {
				des.Review = append(des.Review, d.review(rule, kn, vn))
			})
		}
	}
	return file
}

// keySchema reads a key: {partition: A, sort: B}. An index's side may also be a
// list of attribute names in order (a multi-attribute key; a list of one is that
// one name); the model checks how many and of what (model.Validate). A table's
// side is one name, as CreateTable's table KeySchema is.
func (d *decoder) keySchema(n *yaml.Node, where string, lists bool) model.KeySchema {
	f, _ := d.fields(n, where, keyFields...)
	if !lists {
		for _, side := range keyFields {
			if v := f.vals[side]; v != nil && v.Kind == yaml.SequenceNode {
				d.errs.Add(d.pos(v), "key the table on one attribute a side; an index's key may be a list",
					"%s must be one attribute: a table's partition and sort key are one attribute each", f.sub(side))
				// Read on with its first name, so that this is the one error.
				if len(v.Content) > 0 && v.Content[0].Kind == yaml.ScalarNode {
					f.vals[side] = v.Content[0]
				} else {
					delete(f.vals, side)
				}
			}
		}
		return model.KeySchema{Partition: f.str("partition"), Sort: f.str("sort")}
	}
	side := func(name string) []string {
		v := f.vals[name]
		if v == nil || v.Kind != yaml.SequenceNode {
			if s := f.str(name); s != "" {
				return []string{s}
			}
			return nil
		}
		names := f.strList(name)
		if len(names) == 0 {
			d.errs.Add(d.pos(v), "name 1 to 4 attributes, or leave "+name+" out", "%s is an empty list", f.sub(name))
		}
		return names
	}
	return model.NewKeySchema(side("partition"), side("sort"))
}

func (d *decoder) table(n *yaml.Node) model.Table {
	t := model.Table{Pos: d.pos(n), Billing: model.Billing{Mode: model.OnDemand}, Class: model.ClassStandard, TypeAttribute: "type"}
	f, ok := d.fields(n, "table", tableFields...)
	if !ok {
		return t
	}
	t.Name = f.str("name")
	if !f.has("key") {
		d.errs.Add(t.Pos, "add key: {partition: PK, sort: SK}", "table.key is missing")
	} else {
		t.Key = d.keySchema(f.vals["key"], "table.key", false)
	}
	if an := f.vals["attributes"]; an != nil && !isNull(an) {
		t.Attributes = map[string]model.Type{}
		if an.Kind != yaml.MappingNode {
			d.errs.Add(d.pos(an), "write {PK: S, SK: S}", "table.attributes must be a mapping of key attribute types")
		}
		d.eachPair(an, func(k string, kn, vn *yaml.Node) {
			ty, ok := model.ParseType(vn.Value)
			if vn.Kind != yaml.ScalarNode || !ok || !ty.IsScalarKeyType() {
				d.errs.Add(d.pos(vn), "key attributes are S, N or B", "table.attributes.%s: %q is not a key attribute type", k, vn.Value)
				return
			}
			t.Attributes[k] = ty
		})
	}
	if bn := f.vals["billing"]; bn != nil && !isNull(bn) {
		t.Billing = d.billing(bn)
	}
	if c := f.choice("class", string(model.ClassStandard), string(model.ClassStandardIA)); c != "" {
		t.Class = model.TableClass(c)
	}
	views := make([]string, len(model.StreamViews))
	for i, v := range model.StreamViews {
		views[i] = string(v)
	}
	if v := f.choice("stream", views...); v != "" {
		t.Stream = model.StreamView(v)
	}
	if ta := f.str("typeAttribute"); ta != "" {
		t.TypeAttribute = ta
	}
	if n := f.vals["ttl"]; n != nil && !isNull(n) {
		if t.TTL = f.str("ttl"); n.Kind != yaml.ScalarNode {
			t.TTL = ""
		}
		if msg := model.TTLNameProblem(t.TTL); msg != "" {
			d.errs.Add(d.pos(n), "write ttl: expiresAt (the attribute holding each item's expiry, epoch seconds)", "%s", msg)
			t.TTL = ""
		}
	}
	for _, in := range f.seq("indexes") {
		t.Indexes = append(t.Indexes, d.index(in, t.Key))
	}
	return t
}

// onDemand reads billing: {on-demand: {maxRead: N, maxWrite: N}}: an on-demand
// table's maximum throughput, request units a second, each at least 1
// (API_OnDemandThroughput.html); one may be left out.
func (d *decoder) onDemand(n *yaml.Node) model.Billing {
	b := model.Billing{Mode: model.OnDemand}
	if n == nil || isNull(n) {
		return b
	}
	p, ok := d.fields(n, "table.billing.on-demand", "maxRead", "maxWrite")
	if !ok {
		return b
	}
	if p.has("maxRead") {
		b.MaxRead = p.integer("maxRead", 1, model.MaxCapacity)
	}
	if p.has("maxWrite") {
		b.MaxWrite = p.integer("maxWrite", 1, model.MaxCapacity)
	}
	return b
}

func (d *decoder) billing(n *yaml.Node) model.Billing {
	const hint = "write billing: on-demand, or billing: {provisioned: {read: 100, write: 50}}"
	if n.Kind == yaml.ScalarNode {
		if n.Value == string(model.OnDemand) {
			return model.Billing{Mode: model.OnDemand}
		}
		d.errs.Add(d.pos(n), hint, "table.billing %q is not known", n.Value)
		return model.Billing{Mode: model.OnDemand}
	}
	f, ok := d.fields(n, "table.billing", string(model.Provisioned), string(model.OnDemand))
	if ok && f.has(string(model.OnDemand)) && !f.has(string(model.Provisioned)) {
		return d.onDemand(f.vals[string(model.OnDemand)])
	}
	if !ok || !f.has(string(model.Provisioned)) || f.has(string(model.OnDemand)) {
		if ok {
			d.errs.Add(d.pos(n), hint, "table.billing needs provisioned: {read, write}, or on-demand")
		}
		return model.Billing{Mode: model.OnDemand}
	}
	p, ok := d.fields(f.vals[string(model.Provisioned)], "table.billing.provisioned", provisionedFields...)
	b := model.Billing{Mode: model.Provisioned}
	if !ok {
		return b
	}
	for _, need := range []string{"read", "write"} {
		if !p.has(need) {
			d.errs.Add(d.pos(f.vals[string(model.Provisioned)]), "add "+need+": N (capacity units)", "table.billing.provisioned.%s is missing", need)
		}
	}
	b.Read = p.integer("read", 1, model.MaxCapacity)
	b.Write = p.integer("write", 1, model.MaxCapacity)
	if p.has("target") {
		b.Target = p.number("target", 0)
		if b.Target <= 0 || b.Target > 1 {
			if tn := p.scalar("target"); tn != nil {
				d.errs.Add(d.pos(tn), "write a utilisation such as 0.7", "table.billing.provisioned.target must be above 0 and at most 1")
			}
		}
	}
	b.Autoscaling = d.autoscaling(p.vals["autoscaling"], "table.billing.provisioned.autoscaling")
	return b
}

// autoscalingFields are the fields of an autoscaling block and of each of its
// two capacities.
var (
	autoscalingFields = []string{"read", "write"}
	scalingFields     = []string{"min", "max", "target"}
)

// autoscaling reads {read: {min, max, target}, write: {...}}; a capacity left out
// is not autoscaled. Its bounds are Scaling.Problem's.
func (d *decoder) autoscaling(n *yaml.Node, where string) model.Autoscaling {
	var a model.Autoscaling
	if n == nil || isNull(n) {
		return a
	}
	f, ok := d.fields(n, where, autoscalingFields...)
	if !ok {
		return a
	}
	for _, side := range autoscalingFields {
		sn := f.vals[side]
		if sn == nil || isNull(sn) {
			continue
		}
		sw := where + "." + side
		before := len(d.errs)
		sf, ok := d.fields(sn, sw, scalingFields...)
		if !ok {
			continue
		}
		for _, need := range scalingFields {
			if !sf.has(need) {
				d.errs.Add(d.pos(sn), "write {min: 1, max: 10, target: 0.7}", "%s.%s is missing", sw, need)
			}
		}
		s := &model.Scaling{Min: sf.integer("min", 1, model.MaxCapacity), Max: sf.integer("max", 1, model.MaxCapacity), Target: sf.number("target", 0)}
		if len(d.errs) == before {
			if msg, hint := s.Problem(); msg != "" {
				d.errs.Add(d.pos(sn), hint, "%s: %s", sw, msg)
			}
		}
		if side == "read" {
			a.Read = s
		} else {
			a.Write = s
		}
	}
	return a
}

func (d *decoder) index(n *yaml.Node, tableKey model.KeySchema) model.Index {
	ix := model.Index{Pos: d.pos(n), Projection: model.Projection{Type: model.ProjectAll}}
	f, ok := d.fields(n, "index", indexFields...)
	if !ok {
		return ix
	}
	ix.Name = f.str("name")
	if ix.Name != "" {
		f.where = "index " + ix.Name
	}
	ix.Local = f.boolean("local")
	if !f.has("key") {
		d.errs.Add(ix.Pos, "add key: {partition: GSI1PK, sort: GSI1SK} (an LSI: key: {sort: X})", "%s: key is missing", f.where)
	} else {
		ix.Key = d.keySchema(f.vals["key"], f.sub("key"), true)
		if ix.Local {
			if ix.Key.Partition != "" && ix.Key.Partition != tableKey.Partition {
				d.errs.Add(d.pos(f.vals["key"]), "leave the partition out: it is the table's ("+tableKey.Partition+")",
					"%s: a local index shares the table's partition key, not %q", f.where, ix.Key.Partition)
			}
			ix.Key.Partition = tableKey.Partition
		}
	}
	if pn := f.vals["projection"]; pn != nil && !isNull(pn) {
		ix.Projection = d.projection(pn, f.sub("projection"))
	}
	ix.Read = f.integer("read", 1, model.MaxCapacity)
	ix.Write = f.integer("write", 1, model.MaxCapacity)
	ix.Autoscaling = d.autoscaling(f.vals["autoscaling"], f.where+".autoscaling")
	return ix
}

func (d *decoder) projection(n *yaml.Node, where string) model.Projection {
	const hint = "write all, keys-only or {include: [a, b]}"
	if n.Kind == yaml.ScalarNode {
		switch n.Value {
		case "all":
			return model.Projection{Type: model.ProjectAll}
		case "keys-only":
			return model.Projection{Type: model.ProjectKeysOnly}
		}
		d.errs.Add(d.pos(n), hint, "%s %q is not known", where, n.Value)
		return model.Projection{Type: model.ProjectAll}
	}
	f, ok := d.fields(n, where, "include")
	if !ok || !f.has("include") {
		if ok {
			d.errs.Add(d.pos(n), hint, "%s needs include: [...]", where)
		}
		return model.Projection{Type: model.ProjectAll}
	}
	inc := f.strList("include")
	if len(inc) == 0 {
		d.errs.Add(d.pos(f.vals["include"]), "list the projected attributes, or use keys-only", "%s.include is empty", where)
	}
	return model.Projection{Type: model.ProjectInclude, Include: inc}
}

func (d *decoder) entity(n *yaml.Node) model.Entity {
	e := model.Entity{Pos: d.pos(n)}
	f, ok := d.fields(n, "entity", entityFields...)
	if !ok {
		return e
	}
	e.Name = f.str("name")
	if e.Name != "" {
		f.where = "entity " + e.Name
	}
	if kn := f.vals["keys"]; kn != nil && !isNull(kn) {
		e.Keys = map[string]string{}
		if kn.Kind != yaml.MappingNode {
			d.errs.Add(d.pos(kn), "write keys: {PK: \"CUST#{customerId}\", SK: PROFILE}", "%s: keys must be a mapping", f.where)
		}
		d.eachPair(kn, func(k string, _, vn *yaml.Node) {
			if vn.Kind != yaml.ScalarNode || isNull(vn) {
				d.errs.Add(d.pos(vn), "write a template such as \"CUST#{customerId}\"", "%s: keys.%s must be a template string", f.where, k)
				return
			}
			if p := model.TemplateProblem(vn.Value); p != "" {
				d.errs.Add(d.pos(vn), "write {attribute} for a variable part, as in \"CUST#{customerId}\"", "%s: keys.%s: %s", f.where, k, p)
				return
			}
			e.Keys[d.text(k)] = d.text(vn.Value)
		})
	}
	if an := f.vals["attributes"]; an != nil && !isNull(an) {
		if an.Kind != yaml.MappingNode {
			d.errs.Add(d.pos(an), "write attributes: {email: S, total: N}", "%s: attributes must be a mapping", f.where)
		}
		d.eachPair(an, func(k string, _, vn *yaml.Node) {
			e.Attributes = append(e.Attributes, d.entityAttr(d.text(k), vn, f.where))
		})
	}
	e.Count = f.integer("count", 0, 1<<62)
	e.Values = f.varValues("values")
	if f.has("expires") {
		e.Expires = f.number("expires", 0)
	}
	e.Aliases = f.strMap("aliases")
	d.checkAliases(f.vals["aliases"], f.where)
	return e
}

// checkAliases reports, at its own line and column, an alias for an attribute that
// is not a key attribute of the table or an index, and an empty one: an alias is
// another tool's name for a key attribute (a NoSQL Workbench facet's
// PartitionKeyAlias and SortKeyAlias). model.Validate holds a design built in code
// to the same rule.
func (d *decoder) checkAliases(n *yaml.Node, where string) {
	if n == nil || n.Kind != yaml.MappingNode || d.keyAttrs == nil {
		return
	}
	d.eachPair(n, func(k string, kn, vn *yaml.Node) {
		switch {
		case !slices.Contains(d.keyAttrs, k):
			d.errs.Add(d.pos(kn), "give aliases for the table's or an index's key attributes ("+strings.Join(d.keyAttrs, ", ")+"), or remove it",
				"%s: aliases.%s is not a key attribute of the table or any index", where, k)
		case vn.Kind == yaml.ScalarNode && !isNull(vn) && vn.Value == "":
			d.errs.Add(d.pos(vn), fmt.Sprintf("give the other tool's name for %s, or remove aliases.%s", k, k), "%s: aliases.%s is empty", where, k)
		}
	})
}

func (d *decoder) entityAttr(name string, n *yaml.Node, where string) model.EntityAttribute {
	a := model.EntityAttribute{Name: name}
	typeNode := n
	if n.Kind == yaml.MappingNode {
		f, _ := d.fields(n, where+" attribute "+name, entityAttrFields...)
		a.Unique = f.boolean("unique")
		typeNode = f.vals["type"]
		if typeNode == nil {
			d.errs.Add(d.pos(n), "add type: S (or N, B, BOOL, NULL, L, M, SS, NS, BS)", "%s attribute %s: type is missing", where, name)
			return a
		}
	}
	ty, ok := model.ParseType(typeNode.Value)
	if typeNode.Kind != yaml.ScalarNode || !ok {
		d.errs.Add(d.pos(typeNode), "use S, N, B, BOOL, NULL, L, M, SS, NS or BS", "%s attribute %s: %q is not a DynamoDB type", where, name, typeNode.Value)
		return a
	}
	a.Type = ty
	return a
}

func (d *decoder) pattern(n *yaml.Node) model.Pattern {
	p := model.Pattern{Pos: d.pos(n)}
	where := "pattern"
	if n.Kind == yaml.MappingNode {
		// Name the pattern by its id in every message, those about fields before it too.
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "id" && n.Content[i+1].Kind == yaml.ScalarNode {
				where = "pattern " + n.Content[i+1].Value
			}
		}
	}
	f, ok := d.fields(n, where, patternFields...)
	if !ok {
		return p
	}
	if !f.has("id") {
		d.errs.Add(p.Pos, "add id: N, a number unique in the file", "pattern %q has no id", f.str("name"))
	} else {
		p.ID = int(f.integer("id", 1, 1<<31-1))
		f.where = fmt.Sprintf("pattern %d", p.ID)
	}
	p.Name = f.str("name")
	p.Holds = f.str("holds")
	p.Returns = f.str("returns")
	p.Order = f.str("order")
	p.Cardinality = f.str("cardinality")
	if f.has("rate") {
		p.Rate = f.number("rate", 0)
	}
	ops := make([]string, len(model.Operations))
	for i, o := range model.Operations {
		ops[i] = string(o)
	}
	if !f.has("operation") {
		d.errs.Add(p.Pos, "add operation: one of "+strings.Join(ops, ", "), "%s: operation is missing", f.where)
	} else {
		p.Operation = model.Operation(f.choice("operation", ops...))
	}
	p.Statement = f.str("statement")
	p.Parameters = f.valueList("parameters")
	p.Index = f.str("index")
	if kn := f.vals["key"]; kn != nil && !isNull(kn) {
		if kn.Kind == yaml.ScalarNode {
			p.KeyCondition = kn.Value
		} else {
			p.Key = f.item("key")
		}
	}
	p.Filter = f.str("filter")
	p.Projection = f.str("projection")
	p.Condition = f.str("condition")
	p.Update = f.str("update")
	p.Names = f.strMap("names")
	p.Values = f.valueMap("values")
	p.Fanout = f.fanout("fanout")
	if f.has("forward") {
		fw := f.boolean("forward")
		p.Forward = &fw
	}
	p.Limit = int(f.integer("limit", 1, 1<<31-1))
	p.AllPages = f.choice("pages", "all") == "all"
	p.Consistent = f.boolean("consistent")
	p.Item = f.item("item")
	if n := f.vals["item"]; n != nil {
		p.ItemPos = d.pos(n)
	}
	p.Keys = f.itemList("keys")
	for _, an := range f.seq("actions") {
		p.Actions = append(p.Actions, d.action(an, f.where))
	}
	p.ReturnValues = f.choice("returnValues", returnValuesOptions...)
	p.Expect = f.itemList("expect")
	p.ExpectError = f.str("expectError")
	if n := f.vals["partitions"]; n != nil && n.Kind == yaml.MappingNode {
		p.PartitionsOn = f.partitionsOn("partitions")
	} else {
		p.Partitions = f.integer("partitions", 1, 1<<62)
	}
	p.Skew = f.skew("skew")
	p.Batch = f.boolean("batch")
	return p
}

// action reads one {put: ITEM} / {update: {...}} / {delete: {...}} / {check: {...}}.
// A put's item is the value itself, so its condition, names and values sit beside it.
func (d *decoder) action(n *yaml.Node, where string) model.Action {
	a := model.Action{Pos: d.pos(n)}
	where += " action"
	const hint = "write {put: ITEM}, {update: {key, update}}, {delete: {key}} or {check: {key, condition}}"
	f, ok := d.fields(n, where, "put", "update", "delete", "check", "condition", "names", "values")
	if !ok {
		return a
	}
	var kinds []string
	for _, k := range actionKinds {
		if f.has(k) {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) != 1 {
		d.errs.Add(a.Pos, hint, "%s must have exactly one of put, update, delete, check (it has %d)", where, len(kinds))
		return a
	}
	a.Kind = model.ActionKind(kinds[0])
	body := f.vals[kinds[0]]
	if a.Kind == model.ActionPut {
		a.Item = f.item("put")
		a.ItemPos = d.pos(body)
		a.Condition = f.str("condition")
		a.Names = f.strMap("names")
		a.Values = f.valueMap("values")
		return a
	}
	for _, side := range []string{"condition", "names", "values"} {
		if f.has(side) {
			d.errs.Add(d.pos(f.keys[side]), "move it inside: {"+kinds[0]+": {key: ..., "+side+": ...}}", "%s: %s belongs inside %s", where, side, kinds[0])
		}
	}
	b, ok := d.fields(body, where+"."+kinds[0], actionFields...)
	if !ok {
		return a
	}
	a.Key = b.item("key")
	if a.Key == nil {
		d.errs.Add(d.pos(body), "add key: {PK: ..., SK: ...}", "%s.%s: key is missing", where, kinds[0])
	}
	a.Update = b.str("update")
	a.Condition = b.str("condition")
	a.Names = b.strMap("names")
	a.Values = b.valueMap("values")
	switch {
	case a.Kind == model.ActionUpdate && a.Update == "":
		d.errs.Add(d.pos(body), "add update: \"SET ...\"", "%s.update: update expression is missing", where)
	case a.Kind == model.ActionCheck && a.Condition == "":
		d.errs.Add(d.pos(body), "add condition: \"attribute_exists(PK)\"", "%s.check: condition is missing", where)
	case a.Kind != model.ActionUpdate && a.Update != "":
		d.errs.Add(d.pos(b.keys["update"]), "remove it, or make the action an update", "%s.%s: update belongs to update actions", where, kinds[0])
	}
	return a
}

func (d *decoder) review(rule string, kn, vn *yaml.Node) model.ReviewSetting {
	r := model.ReviewSetting{Rule: rule, Pos: d.pos(kn)}
	where := "review." + rule
	f, ok := d.fields(vn, where, reviewFields...)
	if !ok {
		return r
	}
	r.Severity = f.choice("severity", severityOptions...)
	if !f.has("severity") {
		d.errs.Add(r.Pos, "add severity: off, error, warning or info", "%s: severity is missing", where)
	}
	r.Reason = f.str("reason")
	if strings.TrimSpace(r.Reason) == "" {
		d.errs.Add(r.Pos, "add reason: \"why this rule does not apply here\"", "%s: a reason is required", where)
	}
	return r
}
