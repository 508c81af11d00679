package designfile

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"stwb/internal/chunks"
	"stwb/model"
)

// Writing the items section. Items are most of a large design (a 100,000-item file is
// about 25 MB), so they are written here, one flow mapping per line as FORMAT.md shows
// them, and not by yaml.v3, whose emitter takes time and memory that grow faster than
// the document (55 s and 4.5 GB for 100,000 items). Marshal has yaml.v3 write the rest
// of the design with a placeholder where the items go, and splices them in; SaveFile
// writes the pieces one after the other without joining them.
//
// The writer allocates next to nothing per item. Items mostly share a few layouts (the
// same attribute names in the same order), so the order of an item's attributes and
// their names written as keys are worked out once per layout and reused; a loaded
// item's record is looked for at the item's own place before an index by key is
// built; derived keys are checked against their templates without being built. A
// large section is written in chunks on several cores, each into its own buffer,
// then copied once into an output of exactly the right size by Marshal, or written as
// they are by SaveFile.

// saveChunkMin is the number of items below which the section is written by one
// goroutine: for a small design, starting goroutines costs more than it saves. A
// variable so that tests can make small designs take the chunked path.
var saveChunkMin = 4096

// maxKeyCache bounds the quoted-name cache of one writer: a design whose every item
// has names of its own would otherwise keep them all.
const maxKeyCache = 4096

// maxCachedKey is the longest name the cache keeps: longer ones are rare, and 4096 of
// them at 65,535 bytes each would be a quarter of a gigabyte.
const maxCachedKey = 256

// spliceItems turns "items: PLACEHOLDER # comment\n" into "items: # comment\n"
// followed by the item lines: the output in pieces, head, item chunks and tail.
func (f *File) spliceItems(out []byte, placeholder string) ([][]byte, error) {
	chunks, err := f.writeItems()
	if err != nil {
		return nil, err
	}
	at := bytes.Index(out, []byte(placeholder))
	lineEnd := len(out)
	if nl := bytes.IndexByte(out[at:], '\n'); nl >= 0 {
		lineEnd = at + nl + 1
	}
	// The head is cut out of out in place: its tail after the placeholder moves up
	// over the placeholder, and out[lineEnd:] is not touched.
	head := append(bytes.TrimRight(out[:at], " "), out[at+len(placeholder):lineEnd]...)
	parts := make([][]byte, 0, len(chunks)+2)
	parts = append(parts, head)
	parts = append(parts, chunks...)
	return append(parts, out[lineEnd:]), nil
}

// writeItems writes the items in order, as one or more consecutive chunks of text. A
// loaded item keeps its attribute order and comments (found again by its table key);
// keys that its entity's templates build are left out unless the file wrote them.
func (f *File) writeItems() ([][]byte, error) {
	d := f.Design
	var records *recordIndex
	if f.source != nil && len(f.source.items) > 0 {
		records = &recordIndex{src: f.source.items}
	}
	keyOrder := itemKeyOrder(d)
	n := len(d.Items)
	out := make([][]byte, chunks.Count(n, saveChunkMin))
	errs := make([]error, len(out))
	chunks.Run(n, saveChunkMin, func(c, lo, hi int) {
		w := &itemWriter{d: d, records: records, keyOrder: keyOrder, keys: map[string]string{}, layouts: map[layoutKey]*layout{}}
		out[c], errs[c] = w.chunk(lo, hi)
	})
	// The first chunk's error names the first item that cannot be written, as a
	// writer going item by item would.
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// itemKeyOrder is the canonical order of the attributes that come first in an item,
// after the type attribute: the table's partition and sort key, then each index's.
func itemKeyOrder(d *model.Design) []string {
	ta := d.TypeAttr()
	var out []string
	take := func(n string) {
		if n != "" && n != ta && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	take(d.Table.Key.Partition)
	take(d.Table.Key.Sort)
	for _, ix := range d.Table.Indexes {
		for _, a := range ix.Key.Attributes() {
			take(a)
		}
	}
	return out
}

// itemWriter writes one chunk of items. It is used by one goroutine; what it shares
// with the others (the design, the records) it only reads.
type itemWriter struct {
	d        *model.Design
	records  *recordIndex
	shift    int               // where the last record was found, less the item's index
	keyOrder []string          // itemKeyOrder
	keys     map[string]string // attribute name -> its text as a flow mapping key
	layouts  map[layoutKey]*layout
	vals     []model.Value // scratch: the values of the item being written
}

// sizeSample is how many items a chunk writes before it sizes its buffer for the rest.
const sizeSample = 64

func (w *itemWriter) chunk(lo, hi int) ([]byte, error) {
	sample := min(sizeSample, hi-lo)
	out := make([]byte, 0, 256*sample)
	var err error
	for i := lo; i < hi; i++ {
		if i == lo+sample && i < hi {
			// Grow once to the size the first items suggest, and a sixteenth more, so
			// that the chunk is not copied again and again as it grows.
			per := len(out) / sample
			if want := len(out) + (hi-i)*(per+per/16+1); want > cap(out) {
				out = slices.Grow(out, want-len(out))
			}
		}
		if out, err = w.item(out, i); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (w *itemWriter) item(out []byte, i int) ([]byte, error) {
	it := w.d.Items[i]
	rec := w.record(i, it)
	if rec != nil {
		out = appendCommentLines(out, rec.head)
	}
	out = append(out, "  - {"...)
	l := w.layoutOf(it, rec)
	wrote := false
	for j, n := range l.names {
		v := w.vals[j]
		if t := &l.tmpls[j]; t.Builds(it, v) {
			continue // derived from the template when loaded
		}
		if wrote {
			out = append(out, ", "...)
		}
		wrote = true
		out = append(out, l.keys[j]...)
		var err error
		if out, err = w.flowValue(out, v, 1, &l.memos[j]); err != nil {
			return nil, fmt.Errorf("item %d: %s: %w", i, n, err)
		}
	}
	out = append(out, '}')
	if rec != nil && rec.line != "" {
		out = append(out, ' ')
		out = append(out, rec.line...)
	}
	out = append(out, '\n')
	if rec != nil {
		out = appendCommentLines(out, rec.foot)
	}
	return out, nil
}

// recordIndex finds the record loading kept of an item, by the item's table key.
// Records are in file order and items mostly still are, so the record at the item's
// own place (give or take the items inserted or removed before it) is tried first;
// the index by key is built only when that misses, by the first writer that needs
// it. The two agree because a loaded design's keys are unique (Parse rejects a
// design with two items of one key, or an item without its key).
type recordIndex struct {
	src   []itemRecord
	once  sync.Once
	byKey map[string]int // key -> index in src of its first record
}

func (x *recordIndex) find(key string) (int, bool) {
	x.once.Do(func() {
		x.byKey = make(map[string]int, len(x.src))
		for i := range x.src {
			if _, dup := x.byKey[x.src[i].key]; !dup {
				x.byKey[x.src[i].key] = i
			}
		}
	})
	i, ok := x.byKey[key]
	return i, ok
}

// record is item i's loaded record, nil for an item that was not loaded.
func (w *itemWriter) record(i int, it model.Item) *itemRecord {
	if w.records == nil {
		return nil
	}
	src := w.records.src
	key := model.ItemKey(&w.d.Table, it)
	if j := i + w.shift; j >= 0 && j < len(src) && src[j].key == key {
		return &src[j]
	}
	j, ok := w.records.find(key)
	if !ok {
		return nil
	}
	w.shift = j - i
	return &src[j]
}

// appendCommentLines writes comment lines kept from the file at the items' indent.
func appendCommentLines(out []byte, text string) []byte {
	for text != "" {
		line, more, _ := strings.Cut(text, "\n")
		out = append(out, "  "...)
		out = append(out, line...)
		out = append(out, '\n')
		text = more
	}
	return out
}

// manyNames is the item size above which finding a name among those already placed
// uses a set: a linear search is quicker for the tens of attributes items usually
// have, but quadratic for an item with thousands.
const manyNames = 32

// maxLayouts bounds the layout cache of one writer, as maxKeyCache does the names.
const maxLayouts = 4096

// layoutKey picks the cached layout to try for an item: the file's attribute order it
// was loaded with (loading keeps one slice per distinct order, never sharing memory,
// so its address and length name it), its number of attributes and its entity. Items
// with one key almost always have the same attribute names; fetch checks that they
// do.
type layoutKey struct {
	order    *string
	orderLen int
	n        int
	e        *model.Entity
}

// layout is the order of one set of attribute names, and what writing them needs:
// names[:fixed] are in the file's order and always written; a later names[j] is left
// out when tmpls[j] (its entity's template for it, if any) builds its value. keys[j]
// is names[j] written as a flow mapping key; memos[j] remembers its last value.
type layout struct {
	names []string
	keys  []string
	tmpls []model.KeyTemplate
	memos []plainMemo
	fixed int
}

// fetch reads the item's values in the layout's order into w.vals, and reports
// whether the item has exactly the layout's names: it has as many (the layout key
// says so) and each of them.
func (w *itemWriter) fetch(l *layout, it model.Item) bool {
	vals := w.vals[:0]
	for _, n := range l.names {
		v, ok := it[n]
		if !ok {
			return false
		}
		vals = append(vals, v)
	}
	w.vals = vals
	return true
}

// layoutOf is the layout of an item's attributes, its values left in w.vals: the
// attributes in the order the file had them, then the rest in canonical order (the
// type attribute, the key attributes, the others sorted).
func (w *itemWriter) layoutOf(it model.Item, rec *itemRecord) *layout {
	var e *model.Entity
	if tv, ok := it[w.d.TypeAttr()]; ok && tv.Type == model.TypeS {
		e = w.d.EntityByName(tv.Str)
	}
	key := layoutKey{n: len(it), e: e}
	if rec != nil && len(rec.order) > 0 {
		key.order, key.orderLen = &rec.order[0], len(rec.order)
	}
	if l := w.layouts[key]; l != nil && w.fetch(l, it) {
		return l
	}
	l := w.newLayout(it, rec, e)
	if _, replace := w.layouts[key]; replace || len(w.layouts) < maxLayouts {
		w.layouts[key] = l
	}
	w.fetch(l, it)
	return l
}

// newLayout works out the layout of an item's names.
func (w *itemWriter) newLayout(it model.Item, rec *itemRecord, e *model.Entity) *layout {
	var names []string
	placed := func(n string) bool { return slices.Contains(names, n) }
	if len(it) > manyNames {
		seen := make(map[string]struct{}, len(it))
		placed = func(n string) bool {
			_, ok := seen[n]
			seen[n] = struct{}{}
			return ok
		}
	}
	if rec != nil {
		for _, n := range rec.order {
			if _, ok := it[n]; ok && !placed(n) {
				names = append(names, n)
			}
		}
	}
	l := &layout{fixed: len(names), tmpls: make([]model.KeyTemplate, len(names), len(it))}
	rest := make([]string, 0, len(it)-len(names))
	for n := range it {
		if !placed(n) {
			rest = append(rest, n)
		}
	}
	slices.Sort(rest)
	ta := w.d.TypeAttr()
	add := func(n string) {
		names = append(names, n)
		var t model.KeyTemplate
		if e != nil {
			if tmpl, ok := e.Keys[n]; ok {
				t = model.NewKeyTemplate(tmpl, w.d.Table.KeyAttributeType(n))
			}
		}
		l.tmpls = append(l.tmpls, t)
	}
	if _, ok := slices.BinarySearch(rest, ta); ok {
		add(ta)
	}
	for _, k := range w.keyOrder {
		if _, ok := slices.BinarySearch(rest, k); ok {
			add(k)
		}
	}
	for _, n := range rest {
		if n != ta && !slices.Contains(w.keyOrder, n) {
			add(n)
		}
	}
	l.names = names
	l.keys = make([]string, len(names))
	l.memos = make([]plainMemo, len(names))
	var buf []byte
	for j, n := range names {
		buf = w.flowKey(buf[:0], n)
		l.keys[j] = string(buf)
	}
	return l
}

// flowKey writes a mapping key and its ": ". A key too long for YAML's simple keys
// (attribute names may have 65,535 bytes) is written as an explicit "? KEY : ".
func (w *itemWriter) flowKey(out []byte, k string) []byte {
	if text, ok := w.keys[k]; ok {
		return append(out, text...)
	}
	start := len(out)
	out = appendFlowString(out, k)
	if len(out)-start > maxImplicitKey {
		out = append(out[:start], "? "...)
		out = appendFlowString(out, k)
		out = append(out, " : "...)
	} else {
		out = append(out, ": "...)
	}
	if len(w.keys) < maxKeyCache && len(k) <= maxCachedKey {
		w.keys[k] = string(out[start:])
	}
	return out
}

// flowValue writes a value in flow style with the quoting rules of ValueToNode, so
// that yaml.v3 and the items fast path both read it back as the same value. memo, if
// not nil, is the plainMemo of the attribute's place (for top-level values).
func (w *itemWriter) flowValue(out []byte, v model.Value, depth int, memo *plainMemo) ([]byte, error) {
	if depth > model.MaxValueDepth {
		return nil, fmt.Errorf("value nested more than %d levels deep", model.MaxValueDepth)
	}
	var err error
	switch v.Type {
	case model.TypeS:
		if !utf8.ValidString(v.Str) {
			return nil, fmt.Errorf("string is not valid UTF-8")
		}
		if memo.plainSafe(v.Str) {
			return append(out, v.Str...), nil
		}
		return appendQuoted(out, v.Str), nil
	case model.TypeN:
		if yamlDecimal(v.Str) {
			return append(out, v.Str...), nil
		}
		// Not a number's text: written so that loading reports it.
		out = append(out, "!!float "...)
		return appendQuoted(out, v.Str), nil
	case model.TypeB:
		out = append(out, "!!binary "...)
		return appendBase64(out, v.Str), nil
	case model.TypeBOOL:
		return strconv.AppendBool(out, v.Bool), nil
	case model.TypeNULL:
		return append(out, "null"...), nil
	case model.TypeL, model.TypeSS, model.TypeNS, model.TypeBS:
		switch v.Type {
		case model.TypeSS:
			out = append(out, "!ss "...)
		case model.TypeNS:
			out = append(out, "!ns "...)
		case model.TypeBS:
			out = append(out, "!bs "...)
		}
		out = append(out, '[')
		for i, e := range v.List {
			if i > 0 {
				out = append(out, ", "...)
			}
			if v.Type == model.TypeBS {
				out = appendBase64(out, e.Str)
				continue
			}
			if out, err = w.flowValue(out, e, depth+1, nil); err != nil {
				return nil, err
			}
		}
		return append(out, ']'), nil
	case model.TypeM:
		out = append(out, '{')
		for i, k := range slices.Sorted(maps.Keys(v.Map)) {
			if i > 0 {
				out = append(out, ", "...)
			}
			if !utf8.ValidString(k) {
				return nil, fmt.Errorf("map key is not valid UTF-8")
			}
			out = w.flowKey(out, k)
			if out, err = w.flowValue(out, v.Map[k], depth+1, nil); err != nil {
				return nil, err
			}
		}
		return append(out, '}'), nil
	}
	return nil, fmt.Errorf("value has no type")
}

// appendBase64 writes binary data as a double-quoted base64 scalar (base64 has no
// character that needs escaping, so it goes in as it is).
func appendBase64(out []byte, b string) []byte {
	out = append(out, '"')
	out = base64.StdEncoding.AppendEncode(out, []byte(b))
	return append(out, '"')
}

// plainMemo remembers the last string written in one attribute's place and whether
// it needed quotes: the values of an attribute repeat from item to item (a status, an
// entity name), and plainSafe lowercases every string it is given, allocating for
// those with capitals. Comparing with the last one costs little when it differs.
type plainMemo struct {
	text  string
	plain bool
	set   bool
}

// plainSafe is plainSafe(s), remembered; a nil memo remembers nothing.
func (m *plainMemo) plainSafe(s string) bool {
	if m == nil {
		return plainSafe(s)
	}
	if !m.set || m.text != s {
		*m = plainMemo{text: s, plain: plainSafe(s), set: true}
	}
	return m.plain
}

func appendFlowString(out []byte, s string) []byte {
	if plainSafe(s) {
		return append(out, s...)
	}
	return appendQuoted(out, s)
}

// appendQuoted writes a YAML double-quoted scalar, escaping what YAML does not allow
// raw (control characters, and the characters YAML treats as line breaks or a byte
// order mark) with the escapes the items fast path reads.
func appendQuoted(out []byte, s string) []byte {
	out = append(out, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			out = append(out, '\\', byte(r))
		case r == '\n':
			out = append(out, '\\', 'n')
		case r == '\t':
			out = append(out, '\\', 't')
		case r == '\r':
			out = append(out, '\\', 'r')
		case r < 0x20 || r >= 0x7f && r <= 0x9f || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff:
			out = fmt.Appendf(out, "\\u%04X", r)
		default:
			out = utf8.AppendRune(out, r)
		}
	}
	return append(out, '"')
}
