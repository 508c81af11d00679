package interop

// DynamoDB JSON data files, in and out.
//
// In, three layouts are accepted (and gzip-compressed files of each, as S3 exports
// come):
//   - an S3 table export, one {"Item": {...}} per line
//     (S3DataExport.Output.html, "DynamoDB JSON");
//   - a Scan or Query output, {"Items": [...], "Count": ..., ...} (API_Scan.html);
//   - a BatchWriteItem request file, {"TableName": [{"PutRequest": {"Item": {...}}}]}
//     (API_BatchWriteItem.html), the layout ExportBatchWrite writes.
//
// Out, BatchWriteItem request files of at most 25 put requests each, DynamoDB's
// limit per call, ready for `aws dynamodb batch-write-item --request-items file://F`.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"stwb/dynamojson"
	"stwb/internal/inputlimit"
	"stwb/internal/linereader"
	"stwb/model"
)

// SourceItem is an item read from a data file and where it was.
type SourceItem struct {
	File string // set by the caller, for messages; "" when there is one input
	Item model.Item
	Line int    // 1-based line where the item starts
	Path string // JSON path within its document, e.g. $.Items[3]
}

// LineError is a problem at a line of a data file.
type LineError struct {
	Line int
	Path string
	Msg  string
}

func (e *LineError) Error() string {
	if e.Path != "" {
		return fmt.Sprintf("line %d: %s: %s", e.Line, e.Path, e.Msg)
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

// DataLayout names the layout ReadDynamoDBJSON found.
type DataLayout string

// The layouts ReadDynamoDBJSON accepts.
const (
	LayoutExportLines DataLayout = "S3 export lines"
	LayoutScan        DataLayout = "Scan output"
	LayoutBatchWrite  DataLayout = "BatchWriteItem requests"
)

// Progress is told how many bytes of the input have been read so far.
type Progress func(done int64)

// DataFile is what a DynamoDB JSON data file holds besides its items, for the
// notes an import prints.
type DataFile struct {
	Layout DataLayout
	// Tables names the table of each BatchWriteItem document, in file order.
	Tables []string
	// Unfinished lists, for each Scan page that says more pages follow, the JSON
	// member that says so (LastEvaluatedKey, NextToken) and its line.
	Unfinished []string
	// Skipped lists the items left out under DataOptions.SkipInvalid, each with
	// its line, JSON path and first problem.
	Skipped []*LineError
}

// ReadDynamoDBJSON reads every item of a DynamoDB JSON data file. progress may be
// nil; it is called every few thousand items. Errors are *LineError.
func ReadDynamoDBJSON(r io.Reader, progress Progress) ([]SourceItem, DataLayout, error) {
	items, f, err := ReadDynamoDBJSONFile(r, progress)
	return items, f.Layout, err
}

// ReadDynamoDBJSONFile is ReadDynamoDBJSON that also says what the file holds
// besides items (DataFile).
func ReadDynamoDBJSONFile(r io.Reader, progress Progress) ([]SourceItem, DataFile, error) {
	return ReadDynamoDBJSONWith(r, DataOptions{Progress: progress})
}

// ReadDynamoDBJSONWith is ReadDynamoDBJSONFile with options (DataOptions).
func ReadDynamoDBJSONWith(r io.Reader, opts DataOptions) ([]SourceItem, DataFile, error) {
	var facts DataFile
	items, layout, err := readDynamoDBJSON(r, opts, &facts)
	facts.Layout = layout
	if err != nil {
		return nil, facts, err
	}
	return items, facts, nil
}

func readDynamoDBJSON(r io.Reader, opts DataOptions, facts *DataFile) ([]SourceItem, DataLayout, error) {
	progress := opts.Progress
	src, name, closeSrc, err := openMaybeGzip(r)
	if err != nil {
		return nil, "", err
	}
	defer closeSrc()
	// An S3 export, one {"Item": ...} a line, is read as a stream, a line at a time:
	// a table export of many gigabytes in memory bounded by its longest line, and a
	// gzip bomb refused at its first line longer than any item. The other layouts
	// are whole documents, read whole within the input limit.
	if startsExportLine(src) {
		items, err := readExportLines(src, opts.SkipInvalid, facts, progress)
		return items, LayoutExportLines, err
	}
	data, err := inputlimit.ReadAll(src, name)
	if err != nil {
		if name != "the data" {
			err = &LineError{Line: 1, Msg: "reading the gzip file: " + err.Error()}
		}
		return nil, "", err
	}
	// A byte order mark is how some editors start a UTF-8 file; it is not JSON.
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	lines := newLineIndex(data)
	var skip *invalidItems
	if opts.SkipInvalid {
		skip = newInvalidItems(data, lines)
		defer func() { facts.Skipped = skip.skipped }()
	} else if err := checkUTF8(data, lines); err != nil {
		return nil, "", err
	}
	start := skipSpace(data, 0)
	if start == len(data) {
		return nil, "", &LineError{Line: 1, Msg: "the file holds no JSON; expected S3 export lines, a Scan output or a BatchWriteItem request file"}
	}
	first, err := decodeFirst(data, start)
	if err != nil {
		return nil, "", jsonLineError(err, data, start, lines)
	}
	obj, ok := first.(map[string]any)
	if !ok {
		return nil, "", &LineError{Line: lines.at(start), Path: "$", Msg: fmt.Sprintf("expected an object, found %s", dynamojson.Kind(first))}
	}
	if _, isItem := obj["Item"]; isItem && len(obj) == 1 {
		// An export line startsExportLine did not see (its first bytes all space).
		items, err := readExportLines(bytes.NewReader(data), opts.SkipInvalid, facts, progress)
		return items, LayoutExportLines, err
	}
	// Otherwise one or more whole documents (several BatchWriteItem files or Scan
	// pages concatenated, as `stwb export --format dynamodb-json` prints them).
	var out []SourceItem
	layout := DataLayout("")
	for start < len(data) {
		dec := json.NewDecoder(bytes.NewReader(data[start:]))
		dec.UseNumber()
		var doc any
		if err := dec.Decode(&doc); err != nil {
			return nil, "", jsonLineError(err, data, start, lines)
		}
		obj, ok := doc.(map[string]any)
		if !ok {
			return nil, "", &LineError{Line: lines.at(start), Path: "$", Msg: fmt.Sprintf("expected an object, found %s", dynamojson.Kind(doc))}
		}
		here := LayoutBatchWrite
		if _, isScan := obj["Items"]; isScan {
			here = LayoutScan
		}
		if layout != "" && here != layout {
			return nil, "", &LineError{Line: lines.at(start), Msg: fmt.Sprintf("a %s after a %s; put one layout in a file", here, layout)}
		}
		layout = here
		var items []SourceItem
		var err error
		if here == LayoutScan {
			items, err = readScanOutput(data, start, lines, skip, progress)
			for _, more := range []string{"LastEvaluatedKey", "NextToken"} {
				if v, ok := obj[more]; ok && !emptyJSON(v) {
					facts.Unfinished = append(facts.Unfinished, fmt.Sprintf("%s of the page at line %d", more, lines.at(start)))
				}
			}
		} else {
			items, err = readBatchWrite(data, start, obj, lines, skip, progress)
			for name := range obj {
				facts.Tables = append(facts.Tables, name)
			}
		}
		if err != nil {
			return nil, "", err
		}
		out = append(out, items...)
		start = skipSpace(data, start+int(dec.InputOffset()))
	}
	return out, layout, skip.outside()
}

// openMaybeGzip is the input, decompressed when it is gzip (S3 exports come so),
// bounded by the input limit either way; name is how a limit error names it.
func openMaybeGzip(r io.Reader) (src *bufio.Reader, name string, closeSrc func(), err error) {
	br := bufio.NewReaderSize(r, 1<<20)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, "", nil, &LineError{Line: 1, Msg: "not a valid gzip file: " + err.Error()}
		}
		// Bounded: 2 MB of gzip can hold 2 GB of one repeated string.
		return bufio.NewReaderSize(inputlimit.Reader(zr, "the decompressed data"), 1<<20), "the decompressed data", func() { zr.Close() }, nil
	}
	return bufio.NewReaderSize(inputlimit.Reader(br, "the data"), 1<<20), "the data", func() {}, nil
}

// exportLineStart is how an S3 export line starts: {"Item": (spaces allowed).
var exportLineStart = regexp.MustCompile(`^(?:\xef\xbb\xbf)?\s*\{\s*"Item"\s*:`)

// startsExportLine reports whether the input starts as an S3 export line, from
// its first bytes (a Scan output starts {"Items", a BatchWriteItem file with its
// table's name).
func startsExportLine(src *bufio.Reader) bool {
	head, _ := src.Peek(4096)
	return exportLineStart.Match(head)
}

// checkUTF8 refuses data with a byte that is not UTF-8, naming its line, column and
// the JSON path of the value it is in. encoding/json would silently turn it into
// U+FFFD, so an item, even its key, would be imported with a character it never
// had; DynamoDB strings are UTF-8 (HowItWorks.NamingRulesDataTypes.html "String").
func checkUTF8(data []byte, lines lineIndex) error {
	if utf8.Valid(data) {
		return nil
	}
	off := 0
	for off < len(data) {
		r, n := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		off += n
	}
	return notUTF8At(data, lines, off)
}

// notUTF8At is the error for the byte at data[off], which is not UTF-8.
func notUTF8At(data []byte, lines lineIndex, off int) *LineError {
	col := off - bytes.LastIndexByte(data[:off], '\n')
	return &LineError{Line: lines.at(off), Path: jsonPathAt(data, off), Msg: notUTF8Msg(data[off], col)}
}

// notUTF8Msg says that byte b at column col is not UTF-8, and what to do.
func notUTF8Msg(b byte, col int) string {
	return fmt.Sprintf("byte 0x%02x at column %d is not UTF-8; DynamoDB strings are UTF-8, so fix the file's encoding (iconv -f LATIN1 -t UTF-8)", b, col)
}

// jsonPathAt is the JSON path ($.Items[3].name.S) of the value or key at byte off of
// the JSON text data; as far as it got when the text breaks off.
func jsonPathAt(data []byte, off int) string {
	type frame struct {
		array   bool
		index   int
		key     string
		wantKey bool
	}
	var stack []frame
	path := func() string {
		p := "$"
		for _, f := range stack {
			if f.array {
				p = dynamojson.PathIndex(p, f.index)
			} else if !f.wantKey || f.key != "" {
				p = dynamojson.PathChild(p, f.key)
			}
		}
		return p
	}
	done := func() { // a value ended: the next one is the parent's next
		if n := len(stack); n > 0 {
			if stack[n-1].array {
				stack[n-1].index++
			} else {
				stack[n-1].wantKey = true
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return path()
		}
		past := dec.InputOffset() > int64(off)
		if n := len(stack); n > 0 && !stack[n-1].array && stack[n-1].wantKey {
			if key, ok := tok.(string); ok {
				stack[n-1].key, stack[n-1].wantKey = key, false
				if past {
					return path()
				}
				continue
			}
		}
		if past {
			return path()
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{wantKey: true})
		case json.Delim('['):
			stack = append(stack, frame{array: true})
		case json.Delim('}'), json.Delim(']'):
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			done()
		default:
			done()
		}
	}
}

func decodeFirst(data []byte, start int) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data[start:]))
	dec.UseNumber()
	var first any
	err := dec.Decode(&first)
	return first, err
}

// progressEvery is how many items pass between progress reports.
const progressEvery = 5000

// maxExportLine is the longest S3 export line read. An item is at most 400 KB of
// names and values (ServiceQuotas.html), and its DynamoDB JSON a few times that at
// most (a type wrapper around each tiny attribute, a control character escaped
// in six bytes, binary in base64): a longer line is no item DynamoDB stores.
const maxExportLine = 4 << 20

// readExportLines reads an S3 export, one {"Item": {...}} a line, a line at a time
// (memory: the items and one line). With skipInvalid a line that is not UTF-8 or
// not an item DynamoDB accepts is left out (facts.Skipped) instead of refused.
func readExportLines(src io.Reader, skipInvalid bool, facts *DataFile, progress Progress) ([]SourceItem, error) {
	var out []SourceItem
	lines := linereader.New(src, maxExportLine)
	for {
		line, lineNo, err := lines.Next()
		var tooLong *linereader.TooLongError
		switch {
		case err == io.EOF:
			return out, nil
		case errors.As(err, &tooLong):
			return nil, &LineError{Line: lineNo, Msg: fmt.Sprintf("longer than %d MB: an S3 export line holds one item, and no item DynamoDB stores (400 KB at most) is written that long", maxExportLine>>20)}
		case err != nil:
			return nil, &LineError{Line: lineNo, Msg: err.Error()}
		}
		if lineNo == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		text := bytes.TrimSpace(line)
		if len(text) == 0 {
			continue
		}
		if !utf8.Valid(text) {
			e, b, col := notUTF8InLine(text, lineNo, line)
			if skipInvalid {
				// Worded as the other layouts' skipped items (invalidItems.badBytes).
				facts.Skipped = append(facts.Skipped, &LineError{Line: lineNo, Path: "$",
					Msg: fmt.Sprintf("byte 0x%02x at line %d, column %d (%s) is not UTF-8", b, lineNo, col, e.Path)})
				continue
			}
			return nil, e
		}
		x, err := dynamojson.Decode(text)
		if err != nil {
			return nil, &LineError{Line: lineNo, Msg: err.Error()}
		}
		n := root(x)
		in, err := n.need("Item")
		if err != nil {
			return nil, &LineError{Line: lineNo, Msg: err.Error() + "; each line of an S3 export is {\"Item\": {...}}"}
		}
		it, err := dynamojson.ItemFromJSON(in.v, in.path)
		if err != nil {
			if skipInvalid {
				if e, ok := lineErr(lineNo, err).(*LineError); ok {
					facts.Skipped = append(facts.Skipped, e)
					continue
				}
			}
			return nil, lineErr(lineNo, err)
		}
		out = append(out, SourceItem{Item: it, Line: lineNo, Path: in.path})
		if progress != nil && len(out)%progressEvery == 0 {
			progress(lines.Read())
		}
	}
}

// notUTF8InLine is the error for the first byte of text (a trimmed line) that is
// not UTF-8, with its column in the whole line.
func notUTF8InLine(text []byte, lineNo int, line []byte) (e *LineError, b byte, col int) {
	off := 0
	for off < len(text) {
		r, n := utf8.DecodeRune(text[off:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		off += n
	}
	col = bytes.Index(line, text) + off + 1
	return &LineError{Line: lineNo, Path: jsonPathAt(text, off), Msg: notUTF8Msg(text[off], col)}, text[off], col
}

// lineErr turns a path error into a line error.
func lineErr(line int, err error) error {
	if e, ok := err.(*dynamojson.PathError); ok {
		return &LineError{Line: line, Path: e.Path, Msg: e.Msg}
	}
	return &LineError{Line: line, Msg: err.Error()}
}

// streamArray decodes the elements of the JSON array at data[off:] one by one,
// calling each with the element and the offsets where it starts and ends.
func streamArray(data []byte, off int, lines lineIndex, path string, each func(x any, at, end int, path string) error) error {
	dec := json.NewDecoder(bytes.NewReader(data[off:]))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return &LineError{Line: lines.at(off), Path: path, Msg: "not valid JSON: " + err.Error()}
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return &LineError{Line: lines.at(off), Path: path, Msg: "expected an array"}
	}
	for i := 0; dec.More(); i++ {
		at := skipSeparators(data, off+int(dec.InputOffset()))
		var x any
		if err := dec.Decode(&x); err != nil {
			return &LineError{Line: lines.at(at), Path: dynamojson.PathIndex(path, i), Msg: "not valid JSON: " + err.Error()}
		}
		if err := each(x, at, off+int(dec.InputOffset()), dynamojson.PathIndex(path, i)); err != nil {
			return err
		}
	}
	return nil
}

// memberOffsets finds where each top-level member's value starts in the object at
// data[off:], so arrays inside can be streamed with their line numbers.
func memberOffsets(data []byte, off int) (map[string]int, error) {
	dec := json.NewDecoder(bytes.NewReader(data[off:]))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	out := map[string]int{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, _ := tok.(string)
		at := skipSeparators(data, off+int(dec.InputOffset()))
		out[name] = at
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func readScanOutput(data []byte, start int, lines lineIndex, skip *invalidItems, progress Progress) ([]SourceItem, error) {
	offs, err := memberOffsets(data, start)
	if err != nil {
		return nil, &LineError{Line: lines.at(start), Msg: "not valid JSON: " + err.Error()}
	}
	var out []SourceItem
	err = streamArray(data, offs["Items"], lines, "$.Items", func(x any, at, end int, path string) error {
		if skip.badBytes(at, end, path) {
			return nil
		}
		it, err := dynamojson.ItemFromJSON(x, path)
		if err != nil {
			if skip.badValue(lines.at(at), err) {
				return nil
			}
			return lineErr(lines.at(at), err)
		}
		out = append(out, SourceItem{Item: it, Line: lines.at(at), Path: path})
		if progress != nil && len(out)%progressEvery == 0 {
			progress(int64(at))
		}
		return nil
	})
	return out, err
}

func readBatchWrite(data []byte, start int, obj map[string]any, lines lineIndex, skip *invalidItems, progress Progress) ([]SourceItem, error) {
	if len(obj) == 0 {
		return nil, &LineError{Line: lines.at(start), Path: "$", Msg: "an empty object; expected {\"Items\": [...]} (Scan output) or {\"TABLE\": [{\"PutRequest\": ...}]} (BatchWriteItem)"}
	}
	for name, v := range obj {
		if _, ok := v.([]any); !ok {
			return nil, &LineError{Line: lines.at(start), Path: dynamojson.PathChild("$", name),
				Msg: "not a layout stwb reads: expected S3 export lines ({\"Item\": ...} per line), a Scan output ({\"Items\": [...]}) or a BatchWriteItem request file ({\"TABLE\": [{\"PutRequest\": {\"Item\": ...}}]})"}
		}
	}
	offs, err := memberOffsets(data, start)
	if err != nil {
		return nil, &LineError{Line: lines.at(start), Msg: "not valid JSON: " + err.Error()}
	}
	names := make([]string, 0, len(offs))
	for n := range offs {
		names = append(names, n)
	}
	// Read tables in file order.
	sort.Slice(names, func(i, j int) bool { return offs[names[i]] < offs[names[j]] })
	if len(names) > 1 {
		return nil, &LineError{Line: lines.at(offs[names[1]]), Path: dynamojson.PathChild("$", names[1]),
			Msg: fmt.Sprintf("requests for more than one table (%s); a design holds one table, so import one table's file at a time", strings.Join(names, ", "))}
	}
	var out []SourceItem
	tpath := dynamojson.PathChild("$", names[0])
	err = streamArray(data, offs[names[0]], lines, tpath, func(x any, at, end int, path string) error {
		if skip.badBytes(at, end, path) {
			return nil
		}
		n := jnode{v: x, path: path}
		m, err := n.object()
		if err != nil {
			return lineErr(lines.at(at), err)
		}
		if _, del := m["DeleteRequest"]; del {
			return &LineError{Line: lines.at(at), Path: path, Msg: "a DeleteRequest; importing adds items, so remove the delete requests from the file"}
		}
		pr, err := n.need("PutRequest")
		if err != nil {
			return lineErr(lines.at(at), err)
		}
		in, err := pr.need("Item")
		if err != nil {
			return lineErr(lines.at(at), err)
		}
		it, err := dynamojson.ItemFromJSON(in.v, in.path)
		if err != nil {
			if skip.badValue(lines.at(at), err) {
				return nil
			}
			return lineErr(lines.at(at), err)
		}
		out = append(out, SourceItem{Item: it, Line: lines.at(at), Path: in.path})
		if progress != nil && len(out)%progressEvery == 0 {
			progress(int64(at))
		}
		return nil
	})
	return out, err
}

// MergeItems adds imported items to a design, as PutItem would: an item whose
// primary key is already there replaces it. Every item is checked against the
// table's key schema first, and when any fails nothing is added; the error lists
// up to maxReported failures by line. It returns how many items were added and
// how many replaced existing ones.
func MergeItems(d *model.Design, src []SourceItem) (added, replaced int, err error) {
	const maxReported = 20
	var problems []string
	failed := 0
	check, err := newItemCheck(&d.Table)
	if err != nil {
		return 0, 0, err
	}
	for _, s := range src {
		if e := check(s.Item); e != nil {
			failed++
			if len(problems) < maxReported {
				msg := (&LineError{Line: s.Line, Path: s.Path, Msg: e.Error()}).Error()
				if s.File != "" {
					msg = fmt.Sprintf("%s:%d: %s: %s", s.File, s.Line, s.Path, e.Error())
				}
				problems = append(problems, msg)
			}
		}
	}
	if failed > 0 {
		more := ""
		if failed > len(problems) {
			more = fmt.Sprintf("\n... and %d more", failed-len(problems))
		}
		return 0, 0, fmt.Errorf("%d of %d items do not fit table %s (key %s); nothing was imported:\n%s%s",
			failed, len(src), d.Table.Name, keySchemaText(d.Table.Key, &d.Table), strings.Join(problems, "\n"), more)
	}
	index := map[string]int{}
	for i, it := range d.Items {
		index[primaryKeyString(completeItem(d, it), &d.Table)] = i
	}
	for _, s := range src {
		k := primaryKeyString(s.Item, &d.Table)
		if i, ok := index[k]; ok {
			d.Items[i] = s.Item
			replaced++
			continue
		}
		index[k] = len(d.Items)
		d.Items = append(d.Items, s.Item)
		added++
	}
	return added, replaced, nil
}

func keySchemaText(k model.KeySchema, t *model.Table) string {
	s := fmt.Sprintf("%s %s", k.Partition, t.KeyAttributeType(k.Partition))
	if k.Sort != "" {
		s += fmt.Sprintf(", %s %s", k.Sort, t.KeyAttributeType(k.Sort))
	}
	return s
}

// BatchWriteLimit is the most put requests one BatchWriteItem call takes
// (API_BatchWriteItem.html: "up to 25 item put or delete operations").
const BatchWriteLimit = 25

// ExportBatchWrite writes the design's items as BatchWriteItem request files of at
// most 25 items each, in the design's item order. Each file is
// {"<table>": [{"PutRequest": {"Item": ...}}, ...]}, one request per line so a diff
// shows which item changed. Key attributes that entity templates build are filled
// in, as DynamoDB needs whole items. A design with no items gives no files.
func ExportBatchWrite(d *model.Design) ([][]byte, error) {
	var files [][]byte
	check, err := newItemCheck(&d.Table)
	if err != nil {
		return nil, err
	}
	for start := 0; start < len(d.Items); start += BatchWriteLimit {
		end := min(start+BatchWriteLimit, len(d.Items))
		var b []byte
		b = append(b, "{\n  "...)
		b = dynamojson.AppendString(b, d.Table.Name)
		b = append(b, ": [\n"...)
		for i := start; i < end; i++ {
			it := completeItem(d, d.Items[i])
			if err := check(it); err != nil {
				return nil, fmt.Errorf("item %d: %v", i, err)
			}
			b = append(b, `    {"PutRequest": {"Item": `...)
			b = dynamojson.AppendItemExact(b, it)
			b = append(b, "}}"...)
			if i < end-1 {
				b = append(b, ',')
			}
			b = append(b, '\n')
		}
		b = append(b, "  ]\n}\n"...)
		files = append(files, b)
	}
	return files, nil
}

// lineIndex maps byte offsets to 1-based line numbers. It keeps the number of
// newlines before each lineBlock-byte block, not one offset per line: 1 GB of
// newlines would otherwise take 8 GB of offsets.
type lineIndex struct {
	data   []byte
	before []int // newlines before block i
}

const lineBlock = 4096

func newLineIndex(data []byte) lineIndex {
	li := lineIndex{data: data, before: make([]int, 0, len(data)/lineBlock+1)}
	n := 0
	for b := 0; b < len(data); b += lineBlock {
		li.before = append(li.before, n)
		n += bytes.Count(data[b:min(b+lineBlock, len(data))], newline)
	}
	return li
}

var newline = []byte{'\n'}

// at is the line of the byte at off: one more than the newlines before it.
func (li lineIndex) at(off int) int {
	off = min(max(off, 0), len(li.data))
	b := off / lineBlock
	if b >= len(li.before) {
		if len(li.before) == 0 {
			return 1
		}
		b = len(li.before) - 1
	}
	return li.before[b] + bytes.Count(li.data[b*lineBlock:off], newline) + 1
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// skipSeparators skips white space, commas and colons: json.Decoder's InputOffset
// stands before them, and line numbers should name where the value starts.
func skipSeparators(data []byte, i int) int {
	for i < len(data) && strings.IndexByte(" \t\n\r,:", data[i]) >= 0 {
		i++
	}
	return i
}

// jsonLineError places a decoding error of the document at data[start:] on the
// line where decoding stopped (the byte before encoding/json's offset), not the
// line where the document began; an input cut short is placed at its end.
func jsonLineError(err error, data []byte, start int, lines lineIndex) *LineError {
	at := len(data) - 1
	if se, ok := err.(*json.SyntaxError); ok {
		at = start + int(se.Offset) - 1
	}
	return &LineError{Line: lines.at(max(at, start)), Msg: "not valid JSON: " + err.Error()}
}
