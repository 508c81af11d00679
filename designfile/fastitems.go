package designfile

import (
	"bytes"
	"encoding/binary"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"stwb/internal/chunks"
	"stwb/model"
)

// The items fast path. yaml.v3 builds a node of about 150 bytes for every scalar and
// reads some 10 MB/s: a 100,000-item design (25 MB) took 2.4 s and 430 MB that way.
// Items are usually written as saving writes them, one flow mapping per line:
//
//	items:
//	  - {type: customer, PK: "CUST#42", SK: PROFILE, email: ada@example.com}
//
// splitItems reads such lines directly. It accepts a strict subset of YAML and gives
// up (returns nil) on anything else — anchors, tags other than !ss/!ns/!bs/!!binary,
// plain scalars whose YAML type is in doubt (dates, hex, .inf), block-style items —
// and the whole file is then read by yaml.v3. Scalars go through the same
// scalarValue/setElement/setValue as the node path, so one text has one meaning.

// itemRecord is what saving keeps of one loaded item (see source.items).
type itemRecord struct {
	key   string   // the item's table key when loaded (model.ItemKey)
	order []string // attribute names as written; derived keys are not among them
	head  string   // comment lines above the item
	line  string   // comment after the item on its line
	foot  string   // comment below the item (yaml.v3 only)
}

// fastItems is the items section read by the fast path.
type fastItems struct {
	rest    []byte // the file with the item lines blanked, for yaml.v3
	keyLine int    // the 1-based line of "items:"
	items   []model.Item
	pos     []model.Pos
	records []itemRecord
	errs    model.ErrorList // value errors (bad numbers, duplicate keys); the lines themselves parsed
}

// fits reports whether yaml.v3 read the rest of the file as the fast path assumed: a
// top-level "items" key on keyLine with no value.
func (f *fastItems) fits(root *yaml.Node) bool {
	if root.Kind != yaml.DocumentNode || len(root.Content) != 1 || root.Content[0].Kind != yaml.MappingNode {
		return false
	}
	top := root.Content[0]
	found := false
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Value == "items" {
			if found || k.Line != f.keyLine || k.Column != 1 || !isNull(v) || v.Tag != "!!null" || v.Value != "" {
				return false
			}
			found = true
		}
	}
	return found
}

// itemSection is where a file's items are when they are written one flow mapping a
// line: what findItemSection found, before any item is read.
type itemSection struct {
	keyLine int // the 1-based line of "items:"
	refs    []itemRef
	// rest is the file with the item lines, and the comment lines above them,
	// blanked, for yaml.v3 to read the rest of the design from.
	rest []byte
}

// itemRef is one item line.
type itemRef struct {
	start, end int    // the line's text in the file, without its newline
	line       int    // 1-based
	ind        int    // the column of "- {", 0-based
	head       string // the comment lines above the item
}

// findItemSection finds the item lines of data, or returns nil when the items section
// is not in the fast path's shape (or there is none). It walks the lines in place:
// on a large design it runs before anything else can, alone on one core.
func findItemSection(data []byte) *itemSection {
	if !fastCharsOnlyInParts(data) {
		return nil
	}
	// nextLine gives the line starting at start: its end without and with the "\n".
	nextLine := func(start int) (end, next int) {
		if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
			return start + i, start + i + 1
		}
		return len(data), len(data)
	}
	keyStart, keyLine := -1, 0
	for start, line := 0, 1; start < len(data); line++ {
		end, next := nextLine(start)
		if l := data[start:end]; bytes.HasPrefix(l, []byte("items:")) {
			tail := bytes.TrimSpace(l[len("items:"):])
			if len(tail) > 0 && tail[0] != '#' || keyStart >= 0 {
				return nil
			}
			keyStart, keyLine = next, line
		}
		start = next
	}
	if keyStart < 0 {
		return nil
	}
	// In order: which lines are items, and the comment lines above each. A line
	// is blanked for yaml.v3 when the fast path reads it: an item, or a comment
	// above one. Blanked spans are kept as [from, to) byte ranges.
	sec := &itemSection{keyLine: keyLine, refs: make([]itemRef, 0, bytes.Count(data[keyStart:], []byte("\n"))+1)}
	var blank [][2]int
	indent := -1
	pendingFrom := -1 // where the comment lines above the next item start
	var head []string
	start, line := keyStart, keyLine+1
scan:
	for ; start < len(data); line++ {
		end, next := nextLine(start)
		l := data[start:end]
		trimmed := bytes.TrimLeft(l, " ")
		ind := len(l) - len(trimmed)
		switch {
		case len(trimmed) == 0:
			start = next
			continue
		case trimmed[0] == '#':
			if ind == 0 && indent != 0 {
				break scan // a comment at the margin ends the section for yaml.v3
			}
			if pendingFrom < 0 {
				pendingFrom = start
			}
			head = append(head, string(trimmed))
			start = next
			continue
		case ind == 0 && trimmed[0] != '-':
			break scan // the next top-level key
		}
		if !bytes.HasPrefix(trimmed, []byte("- {")) || (indent >= 0 && ind != indent) {
			return nil
		}
		indent = ind
		ref := itemRef{start: start, end: end, line: line, ind: ind}
		if len(head) > 0 {
			ref.head = strings.Join(head, "\n")
		}
		sec.refs = append(sec.refs, ref)
		from := start
		if pendingFrom >= 0 {
			from = pendingFrom
		}
		if n := len(blank); n > 0 && blank[n-1][1] == from {
			blank[n-1][1] = next // one span for a run of item lines
		} else {
			blank = append(blank, [2]int{from, next})
		}
		pendingFrom, head = -1, nil
		start = next
	}
	if len(sec.refs) == 0 {
		return nil
	}
	// The rest keeps every line break of a blanked span, so that yaml.v3's line
	// numbers stay the file's.
	breaks := make([]int, len(blank))
	size, at := 0, 0
	for i, span := range blank {
		breaks[i] = bytes.Count(data[span[0]:span[1]], []byte("\n"))
		size += span[0] - at + breaks[i]
		at = span[1]
	}
	rest := make([]byte, 0, size+len(data)-at)
	at = 0
	for i, span := range blank {
		rest = append(rest, data[at:span[0]]...)
		for range breaks[i] {
			rest = append(rest, '\n')
		}
		at = span[1]
	}
	sec.rest = append(rest, data[at:]...)
	return sec
}

// readChunkMin is the number of item lines from which they are read in chunks.
const readChunkMin = 4096

// inChunks calls read on contiguous ranges [lo, hi) of n items that together cover
// them, in parallel for a large n: item lines are independent, so a large section is
// read one goroutine a chunk. It reports whether every read did, and how many chunks
// there were (chunk c is numbered 0..chunks-1 in item order).
func inChunks(n int, read func(c, lo, hi int) bool) (count int, ok bool) {
	count = chunks.Count(n, readChunkMin)
	failed := make([]bool, count)
	inParallel(count, func(c int) {
		lo, hi := chunks.Bounds(c, count, n)
		failed[c] = !read(c, lo, hi)
	})
	for _, f := range failed {
		if f {
			return count, false
		}
	}
	return count, true
}

// inParallel runs work(0) to work(parts-1), one goroutine each, and waits for them.
// They run with the caller's debug.SetPanicOnFault setting, and a memory fault in
// one (a mapped file truncated under it, see internal/mapfile) panics again in the
// caller, where the caller's recover can report it; any other panic crashes as it
// would have.
func inParallel(parts int, work func(p int)) {
	faultPanics := debug.SetPanicOnFault(true)
	debug.SetPanicOnFault(faultPanics)
	faults := make([]any, parts)
	var wg sync.WaitGroup
	for p := 0; p < parts; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					if re, ok := r.(runtime.Error); !ok || !isFault(re) {
						panic(r)
					}
					faults[p] = r
				}
			}()
			debug.SetPanicOnFault(faultPanics)
			work(p)
		}()
	}
	wg.Wait()
	for _, f := range faults {
		if f != nil {
			panic(f)
		}
	}
}

// isFault reports whether a runtime error is a memory fault (it has the faulting
// address, as SetPanicOnFault's panics do).
func isFault(re runtime.Error) bool {
	_, ok := re.(interface{ Addr() uintptr })
	return ok
}

// text is item line r in the file text, without its newline.
func (r *itemRef) text(text string) string { return text[r.start:r.end] }

// pos is where the item's mapping starts.
func (r *itemRef) pos(file string) model.Pos {
	return model.Pos{File: file, Line: r.line, Col: r.ind + 3}
}

// splitItems reads the items section the fast way, or returns nil when it cannot.
func splitItems(dec *decoder, data []byte) *fastItems {
	sec := findItemSection(data)
	if sec == nil {
		return nil
	}
	// One copy of the file as a string: each line is a substring of it, and so is
	// every value read from a line, with no allocation per line.
	text := string(data)
	n := len(sec.refs)
	f := &fastItems{rest: sec.rest, keyLine: sec.keyLine, items: make([]model.Item, n), pos: make([]model.Pos, n), records: make([]itemRecord, n)}
	// Each chunk has its own parser, interning and errors; the errors are joined in
	// chunk order, which is line order.
	chunkErrs := make([]model.ErrorList, chunks.Count(n, readChunkMin))
	_, ok := inChunks(n, func(c, lo, hi int) bool {
		p := &fastParser{d: &decoder{file: dec.file, strs: map[string]string{}, orders: map[string][]string{}}}
		if c == 0 {
			// The first chunk shares the document's interned strings.
			p.d.strs, p.d.orders = dec.strs, dec.orders
		}
		var lastOrder []string
		for j := lo; j < hi; j++ {
			r := &sec.refs[j]
			it, order, lineComment, ok := p.itemLine(r.text(text), r.ind+2, r.line)
			if !ok {
				return false
			}
			// Consecutive items mostly share one layout; compare before interning.
			if !slices.Equal(order, lastOrder) {
				lastOrder = p.d.order(order)
			}
			f.items[j] = it
			f.pos[j] = r.pos(dec.file)
			f.records[j] = itemRecord{order: lastOrder, head: r.head, line: lineComment}
		}
		chunkErrs[c] = p.d.errs
		return true
	})
	if !ok {
		return nil
	}
	for _, e := range chunkErrs {
		f.errs = append(f.errs, e...)
	}
	return f
}

// fastParser reads one item line. d collects value errors and interns strings; its
// file name is filled in when the items join the design.
type fastParser struct {
	d    *decoder
	s    string
	i    int
	line int
	// fail is set when the line leaves the accepted subset.
	fail bool
	// lastSize is the previous item's attribute count, to size the next item's map.
	lastSize int
	// scratch, when set, is the map every item is read into, cleared first: for a
	// reader that looks at each item once and keeps nothing of it (LazyItems).
	scratch model.Item
	// orderBuf is reused for each item's attribute order; callers copy what they keep.
	orderBuf []string
}

func (p *fastParser) itemLine(l string, at, line int) (model.Item, []string, string, bool) {
	p.s, p.i, p.line, p.fail = l, at, line, false
	m, order := p.mapping(1, true)
	if p.fail {
		return nil, nil, "", false
	}
	p.spaces()
	comment := ""
	if p.i < len(p.s) {
		if p.s[p.i] != '#' || p.s[p.i-1] != ' ' {
			return nil, nil, "", false
		}
		comment = p.s[p.i:]
	}
	return m, order, comment, true
}

func (p *fastParser) pos(i int) model.Pos {
	return model.Pos{File: p.d.file, Line: p.line, Col: utf8.RuneCountInString(p.s[:i]) + 1}
}

func (p *fastParser) spaces() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *fastParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

// mapping reads "{k: v, ...}" at p.i. top marks the item itself, whose key order is
// kept.
func (p *fastParser) mapping(depth int, top bool) (map[string]model.Value, []string) {
	p.i++ // '{'
	var m map[string]model.Value
	var order []string
	switch {
	case top && p.scratch != nil:
		m = p.scratch
		clear(m)
	case top:
		m = make(map[string]model.Value, p.lastSize)
	default:
		m = make(map[string]model.Value, 4)
	}
	if top {
		order = p.orderBuf[:0]
		defer func() { p.orderBuf = order[:0] }()
	}
	var badKeys []string
	p.spaces()
	if p.peek() == '}' {
		p.i++
		return m, order
	}
	for !p.fail {
		keyAt := p.i
		k, ok := p.key()
		if !ok {
			p.fail = true
			return nil, nil
		}
		k = p.d.text(k)
		p.spaces()
		_, dup := m[k]
		dup = dup || slices.Contains(badKeys, k) // a key whose value was bad is not in m
		errsBefore := len(p.d.errs)
		v, good := p.value(depth + 1)
		if p.fail {
			return nil, nil
		}
		if dup {
			// As the node path does (eachPair): the duplicate is reported, its value
			// is not looked at.
			p.d.errs = p.d.errs[:errsBefore]
			p.d.errs.Add(p.pos(keyAt), "remove one of them", "duplicate key %q", k)
		} else if good {
			m[k] = v
			if top {
				order = append(order, k)
			}
		} else {
			badKeys = append(badKeys, k)
		}
		p.spaces()
		switch p.peek() {
		case ',':
			p.i++
			p.spaces()
			if p.peek() == '}' {
				p.i++
				return m, order
			}
		case '}':
			p.i++
			if top {
				p.lastSize = len(m)
			}
			return m, order
		default:
			p.fail = true
		}
	}
	return nil, nil
}

// key reads a mapping key and the ": " after it.
func (p *fastParser) key() (string, bool) {
	start := p.i
	var k string
	switch p.peek() {
	case '"', '\'':
		s, ok := p.quoted()
		if !ok || p.peek() != ':' {
			return "", false
		}
		k = s
	default:
		s, ok := p.plain()
		if !ok || p.peek() != ':' || plainTag(s) != "!!str" {
			return "", false
		}
		k = s
	}
	if p.i-start > maxImplicitKey {
		return "", false
	}
	p.i++ // ':'
	if c := p.peek(); c != ' ' {
		return "", false
	}
	return k, true
}

// value reads one value; ok is false when it is a value error (reported), fail is set
// when the text leaves the subset.
func (p *fastParser) value(depth int) (model.Value, bool) {
	if depth > model.MaxValueDepth {
		p.fail = true // rare; let yaml.v3 and the node path report it
		return model.Value{}, false
	}
	at := p.i
	switch c := p.peek(); c {
	case '{':
		m, _ := p.mapping(depth, false)
		return model.Map(m), !p.fail
	case '[':
		elems, ok := p.sequence(depth)
		return model.List(elems...), ok
	case '"', '\'':
		s, ok := p.quoted()
		if !ok {
			p.fail = true
			return model.Value{}, false
		}
		// Values are not interned: they are substrings of their line, so they cost
		// nothing extra, and a map lookup per value costs time.
		return model.Str(s), true
	case '!':
		return p.tagged(at)
	default:
		s, ok := p.plain()
		if !ok {
			p.fail = true
			return model.Value{}, false
		}
		tag := plainTag(s)
		if tag == "" {
			p.fail = true
			return model.Value{}, false
		}
		v, prob := scalarValue(tag, s)
		if prob != nil {
			p.d.errs.Add(p.pos(at), prob.Hint, "%s", prob.Msg)
			return model.Value{}, false
		}
		return v, true
	}
}

func (p *fastParser) sequence(depth int) ([]model.Value, bool) {
	p.i++                            // '['
	out := make([]model.Value, 0, 4) // never nil, as the node path reads [] too
	allOK := true
	p.spaces()
	if p.peek() == ']' {
		p.i++
		return out, true
	}
	for !p.fail {
		v, ok := p.value(depth + 1)
		allOK = allOK && ok
		out = append(out, v)
		p.spaces()
		switch p.peek() {
		case ',':
			p.i++
			p.spaces()
			if p.peek() == ']' {
				p.i++
				return out, allOK
			}
		case ']':
			p.i++
			return out, allOK
		default:
			p.fail = true
		}
	}
	return nil, false
}

// tagged reads "!ss [...]", "!ns [...]", "!bs [...]" or "!!binary TEXT".
func (p *fastParser) tagged(at int) (model.Value, bool) {
	end := strings.IndexByte(p.s[p.i:], ' ')
	if end < 0 {
		p.fail = true
		return model.Value{}, false
	}
	tag := p.s[p.i : p.i+end]
	p.i += end
	p.spaces()
	if tag == "!!binary" {
		var text string
		var ok bool
		if c := p.peek(); c == '"' || c == '\'' {
			text, ok = p.quoted()
		} else {
			text, ok = p.plain()
		}
		if !ok {
			p.fail = true
			return model.Value{}, false
		}
		v, prob := scalarValue(tag, text)
		if prob != nil {
			p.d.errs.Add(p.pos(at), prob.Hint, "%s", prob.Msg)
			return model.Value{}, false
		}
		return v, true
	}
	st := setTypeOfTag(tag)
	if st == 0 || p.peek() != '[' {
		p.fail = true
		return model.Value{}, false
	}
	p.i++
	elems := make([]model.Value, 0, 4)
	bad := false
	p.spaces()
	for !p.fail && p.peek() != ']' {
		elemAt := p.i
		var text string
		var ok bool
		plainElem := false
		switch p.peek() {
		case '"', '\'':
			text, ok = p.quoted()
		case '{', '[', '!':
			ok = false
		default:
			text, ok = p.plain()
			plainElem = true
		}
		if !ok {
			p.fail = true
			return model.Value{}, false
		}
		if plainElem {
			switch plainTag(text) {
			case "":
				p.fail = true
				return model.Value{}, false
			case "!!null", "!!bool":
				if !bad {
					p.d.errs.Add(p.pos(elemAt), model.HintQuote, "%s is not a valid %s set element", text, st)
				}
				bad = true
			}
		}
		if !bad {
			e, prob := setElement(model.SetElemType(st), text)
			if prob != nil {
				p.d.errs.Add(p.pos(elemAt), prob.Hint, "%s", prob.Msg)
				bad = true
			}
			if e.Type == model.TypeS {
				e.Str = p.d.text(e.Str)
			}
			elems = append(elems, e)
		}
		p.spaces()
		if p.peek() == ',' {
			p.i++
			p.spaces()
		} else if p.peek() != ']' {
			p.fail = true
		}
	}
	if p.fail {
		return model.Value{}, false
	}
	p.i++ // ']'
	if bad {
		return model.Value{}, false
	}
	v, prob := model.SetValue(st, elems)
	if prob != nil {
		p.d.errs.Add(p.pos(at), prob.Hint, "%s", prob.Msg)
		return model.Value{}, false
	}
	return v, true
}

// plain reads a plain scalar in flow context: it ends at , [ ] { }, at ": " or a ':'
// before one of those, and at " #". Trailing spaces are not part of it.
func (p *fastParser) plain() (string, bool) {
	start := p.i
	if strings.IndexByte("-?:,[]{}#&*!|>'\"%@`", p.peek()) >= 0 && !isNumberStart(p.s[p.i:]) {
		return "", false
	}
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == ',' || c == '[' || c == ']' || c == '{' || c == '}' {
			break
		}
		if c == '?' {
			return "", false // yaml.v3 rejects "a?b" inside a flow mapping
		}
		if c == ':' {
			n := byte(0)
			if p.i+1 < len(p.s) {
				n = p.s[p.i+1]
			}
			if n == 0 || n == ' ' || n == ',' || n == ']' || n == '}' || n == '[' || n == '{' {
				break
			}
		}
		if c == '#' && p.s[p.i-1] == ' ' {
			break
		}
		p.i++
	}
	s := strings.TrimRight(p.s[start:p.i], " ")
	if s == "" {
		return "", false
	}
	return s, true
}

func isNumberStart(s string) bool {
	return len(s) > 1 && s[0] == '-' && s[1] >= '0' && s[1] <= '9'
}

// plainTag resolves a plain scalar as yaml.v3 does, for the texts whose meaning is
// certain; "" for the rest (the caller then leaves the fast path).
func plainTag(s string) string {
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return "!!bool"
	case "null", "Null", "NULL", "~":
		return "!!null"
	case "<<":
		return ""
	}
	if strings.IndexByte("+-.0123456789", s[0]) >= 0 {
		return numericLookingTag(s)
	}
	return "!!str"
}

// numericLookingTag resolves a plain scalar that starts like a number. yaml.v3 tries
// it as a timestamp, an integer (base prefixes 0x 0o 0b, octal 0777, underscores
// ignored), a float, .inf or .nan, and otherwise takes it as a string. Rather than
// redo all of that, this says "string" only when none of those can match: a
// character that none of them uses, or only hex digits with no base prefix, which no
// integer, float or timestamp form accepts ("9f2a").
func numericLookingTag(s string) string {
	if yamlDecimal(s) {
		return "!!float"
	}
	low := strings.ToLower(strings.TrimLeft(s, "+-"))
	if low == ".inf" || low == ".nan" {
		return ""
	}
	// A timestamp and a string are both the text to DynamoDB, which has no date
	// type (scalarValue), so only an int or a float needs telling apart. yaml.v3
	// reads a plain scalar as one of those only through strconv.ParseInt or
	// ParseUint (base prefixes, a sign first), its float pattern (a sign first or
	// after the exponent's e) or the 0b and 0o forms (yaml.v3 resolve.go), none of
	// which takes ':', ' ', 't' or 'z', nor a sign elsewhere. Dates and times
	// written plain (2026-08-03, 2026-08-03T14:22Z) are thus strings here, as they
	// are on the node path.
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case strings.IndexByte(": tTzZ", c) >= 0:
			return "!!str"
		case (c == '-' || c == '+') && i > 0 && s[i-1] != 'e' && s[i-1] != 'E':
			return "!!str"
		}
	}
	const numberish = "0123456789abcdefABCDEFxXoO_+-."
	allHex := s[0] >= '0' && s[0] <= '9'
	for i := 0; i < len(s); i++ {
		c := s[i]
		if strings.IndexByte(numberish, c) < 0 {
			return "!!str"
		}
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			allHex = false
		}
	}
	if allHex && !(len(s) > 1 && s[0] == '0' && strings.IndexByte("bB", s[1]) >= 0) {
		return "!!str"
	}
	return ""
}

// yamlDecimal reports whether s is [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?,
// the number forms yaml.v3 resolves to !!int or !!float and DynamoDB can read.
func yamlDecimal(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	intDigits := digits()
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 && intDigits == 0 {
			return false
		}
	} else if intDigits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// quoted reads a double- or single-quoted scalar on one line. Escapes beyond the
// common ones make it give up.
func (p *fastParser) quoted() (string, bool) {
	q := p.s[p.i]
	p.i++
	// Most quoted strings have no escapes: return them as a substring of the line.
	if end := strings.IndexByte(p.s[p.i:], q); end >= 0 {
		body := p.s[p.i : p.i+end]
		if strings.IndexByte(body, '\\') < 0 && (q == '"' || p.i+end+1 >= len(p.s) || p.s[p.i+end+1] != '\'') && !hasControl(body) {
			p.i += end + 1
			return body, true
		}
	}
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c < 0x20 || c == 0x7f:
			return "", false
		case c == q && q == '\'':
			if p.i+1 < len(p.s) && p.s[p.i+1] == '\'' {
				b.WriteByte('\'')
				p.i += 2
				continue
			}
			p.i++
			return b.String(), true
		case c == q:
			p.i++
			return b.String(), true
		case c == '\\' && q == '"':
			if p.i+1 >= len(p.s) {
				return "", false
			}
			e := p.s[p.i+1]
			p.i += 2
			switch e {
			case '\\', '"', '/':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '0':
				b.WriteByte(0)
			case 'x', 'u', 'U':
				n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
				if p.i+n > len(p.s) {
					return "", false
				}
				r, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
				if err != nil || (r >= 0xD800 && r <= 0xDFFF) || r > utf8.MaxRune {
					return "", false
				}
				b.WriteRune(rune(r))
				p.i += n
			default:
				return "", false
			}
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return "", false
}

func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// fastCharsOnly reports whether data is valid UTF-8 made only of the characters YAML
// allows in a stream, without tabs, carriage returns and the other characters the
// fast path does not handle. yaml.v3 rejects a file with any other character ("control characters are
// not allowed"), so such a file is left to it for the error.
func fastCharsOnly(data []byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for i := 0; i < len(data); {
		// Eight bytes at a time while they are printable ASCII (0x20 to 0x7e), the
		// bulk of any design: no high bit, none below 0x20, none equal to 0x7f.
		if i+8 <= len(data) {
			w := binary.LittleEndian.Uint64(data[i:])
			del := w ^ 0x7f*ones
			if (w|(w-0x20*ones)|(del-ones)&^del)&highs == 0 {
				i += 8
				continue
			}
		}
		size := fastCharAt(data, i)
		if size == 0 {
			return false
		}
		i += size
	}
	return true
}

// fastCharAt is the length of the character at data[i] when it is one the fast path
// takes, and 0 when it is not.
func fastCharAt(data []byte, i int) int {
	if c := data[i]; c < utf8.RuneSelf {
		if c < 0x20 && c != '\n' || c == 0x7f {
			return 0
		}
		return 1
	}
	r, size := utf8.DecodeRune(data[i:])
	// NEL, LS and PS are line breaks to yaml.v3 and a BOM is special: rare enough
	// to leave to it.
	if r == utf8.RuneError && size == 1 || r >= 0x80 && r <= 0x9f || r == 0xfffe || r == 0xffff ||
		r == 0x2028 || r == 0x2029 || r == 0xfeff {
		return 0
	}
	return size
}

// fastCharsOnlyInParts is fastCharsOnly over a large file in parts, one goroutine
// each. Parts end after a line break, which is never inside a UTF-8 sequence.
func fastCharsOnlyInParts(data []byte) bool {
	parts := chunks.Most()
	if parts < 2 || len(data) < 1<<20 {
		return fastCharsOnly(data)
	}
	bounds := []int{0}
	for p := 1; p < parts; p++ {
		if nl := bytes.IndexByte(data[len(data)*p/parts:], '\n'); nl >= 0 {
			bounds = append(bounds, len(data)*p/parts+nl+1)
		}
	}
	bounds = append(bounds, len(data))
	ok := make([]bool, len(bounds)-1)
	inParallel(len(ok), func(p int) { ok[p] = fastCharsOnly(data[bounds[p]:bounds[p+1]]) })
	for _, good := range ok {
		if !good {
			return false
		}
	}
	return true
}

// maxImplicitKey is how long a mapping key written without "? " may be. YAML readers
// stop looking for the ':' of a simple key 1024 characters after it starts (libyaml,
// and so yaml.v3, then fail); a margin keeps multi-byte keys safe too.
const maxImplicitKey = 1000
