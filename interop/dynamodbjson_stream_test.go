package interop

import (
	"bytes"
	"compress/gzip"
	"runtime"
	"strings"
	"testing"
)

// TestExportLinesGzipBomb: a gzip file whose first line inflates to 64 MB (an
// item's string of one repeated byte) is refused at that line, as longer than any
// item, having read little more than the bound: on main the whole decompressed
// input was read into memory first (a 1 MB bomb peaked at 2.7-4 GB).
func TestExportLinesGzipBomb(t *testing.T) {
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
	zw.Write([]byte(`{"Item":{"PK":{"S":"`))
	chunk := bytes.Repeat([]byte("a"), 1<<20)
	for range 64 {
		zw.Write(chunk)
	}
	zw.Write([]byte(`"}}}` + "\n"))
	zw.Close()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _, err := ReadDynamoDBJSON(bytes.NewReader(gz.Bytes()), nil)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "line 1: longer than 4 MB") {
		t.Fatalf("a 64 MB line should be refused as longer than any item: %v", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
		t.Errorf("refusing it allocated %d MB; it should stop at the first line over the bound", alloc>>20)
	}
}

// TestExportLinesStream: an export read as a stream gives the same items, lines
// and refusals as before: blank lines, a byte order mark, a last line without a
// line break, and a bad line named by its number.
func TestExportLinesStream(t *testing.T) {
	in := "\xef\xbb\xbf{\"Item\":{\"PK\":{\"S\":\"a\"}}}\n\n{\"Item\":{\"PK\":{\"S\":\"b\"}}}\n{\"Item\":{\"PK\":{\"S\":\"c\"}}}"
	items, layout, err := ReadDynamoDBJSON(strings.NewReader(in), nil)
	if err != nil || layout != LayoutExportLines || len(items) != 3 || items[2].Line != 4 || items[2].Item["PK"].Str != "c" {
		t.Fatalf("%v %s %+v", err, layout, items)
	}
	_, _, err = ReadDynamoDBJSON(strings.NewReader(in+"\n{\"Item\":{\"PK\":{\"N\":\"x\"}}}\n"), nil)
	if err == nil || !strings.HasPrefix(err.Error(), "line 5: $.Item.PK.N") {
		t.Fatalf("the bad line should be named: %v", err)
	}
}
