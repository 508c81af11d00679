package interop

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"strings"
	"testing"

	"stwb/model"
)

// The layouts follow the DynamoDB developer guide: S3DataExport.Output.html ("each
// line is an item", {"Item": {...}}), API_Scan.html (Items) and API_BatchWriteItem.html
// (RequestItems, at most 25 requests per call).

func TestReadDynamoDBJSONLayouts(t *testing.T) {
	cases := []struct {
		name   string
		in     string
		layout DataLayout
		keys   []string // PK of each item, in order
		lines  []int
	}{
		{"s3 export lines", "{\"Item\":{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"1\"}}}\n\n{\"Item\":{\"PK\":{\"S\":\"b\"},\"SK\":{\"S\":\"2\"}}}\n",
			LayoutExportLines, []string{"a", "b"}, []int{1, 3}},
		{"scan output", "{\n  \"Count\": 2,\n  \"Items\": [\n    {\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"1\"}},\n    {\"PK\":{\"S\":\"b\"},\"SK\":{\"S\":\"2\"}}\n  ],\n  \"ScannedCount\": 2\n}\n",
			LayoutScan, []string{"a", "b"}, []int{4, 5}},
		{"batch write", "{\n  \"t\": [\n    {\"PutRequest\": {\"Item\": {\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"1\"}}}},\n    {\"PutRequest\": {\"Item\": {\"PK\":{\"S\":\"b\"},\"SK\":{\"S\":\"2\"}}}}\n  ]\n}\n",
			LayoutBatchWrite, []string{"a", "b"}, []int{3, 4}},
		{"two batch files concatenated", "{\"t\": [{\"PutRequest\": {\"Item\": {\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"1\"}}}}]}\n{\"t\": [\n{\"PutRequest\": {\"Item\": {\"PK\":{\"S\":\"b\"},\"SK\":{\"S\":\"2\"}}}}]}\n",
			LayoutBatchWrite, []string{"a", "b"}, []int{1, 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, gz := range []bool{false, true} {
				in := []byte(c.in)
				if gz {
					var buf bytes.Buffer
					w := gzip.NewWriter(&buf)
					w.Write(in)
					w.Close()
					in = buf.Bytes()
				}
				items, layout, err := ReadDynamoDBJSON(bytes.NewReader(in), nil)
				if err != nil {
					t.Fatal(err)
				}
				if layout != c.layout {
					t.Errorf("layout %q, want %q", layout, c.layout)
				}
				var keys []string
				var lines []int
				for _, s := range items {
					keys = append(keys, s.Item["PK"].Str)
					lines = append(lines, s.Line)
				}
				if fmt.Sprint(keys) != fmt.Sprint(c.keys) || fmt.Sprint(lines) != fmt.Sprint(c.lines) {
					t.Errorf("gzip %v: keys %v lines %v, want %v %v", gz, keys, lines, c.keys, c.lines)
				}
			}
		})
	}
}

func TestReadDynamoDBJSONErrors(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"empty", "  \n", "line 1: the file holds no JSON"},
		{"bad line", "{\"Item\":{\"PK\":{\"S\":\"a\"}}}\n{\"Item\":{\"PK\":{\"N\":\"x\"}}}\n", "line 2: $.Item.PK.N: The parameter cannot be converted to a numeric value: x"},
		{"line without Item", "{\"Item\":{\"PK\":{\"S\":\"a\"}}}\n{\"Items\":[]}\n", "line 2: $: missing Item"},
		{"broken json line", "{\"Item\":{\"PK\":{\"S\":\"a\"}}}\n{\"Item\":\n", "line 2: not valid JSON"},
		{"scan item", "{\"Items\": [\n{\"PK\":{\"S\":\"a\"}},\n{\"PK\":{\"SS\":[]}}\n]}", "line 3: $.Items[1].PK.SS: One or more parameter values were invalid: An string set  may not be empty"},
		{"delete request", "{\"t\": [\n{\"DeleteRequest\": {\"Key\": {}}}]}", "line 2: $.t[0]: a DeleteRequest"},
		{"two tables", "{\"a\": [], \"b\": []}", "requests for more than one table"},
		{"not a layout", "{\"x\": 1}", "$.x: not a layout stwb reads"},
		{"array", "[1]", "line 1: $: expected an object"},
		{"syntax error line", "{\"Items\": [\n{\"PK\": }\n]}", "line 2"},
		{"mixed layouts", "{\"Items\": []}\n{\"t\": []}", "line 2: a BatchWriteItem requests after a Scan output"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := ReadDynamoDBJSON(strings.NewReader(c.in), nil)
			if err == nil {
				t.Fatalf("no error, want %q", c.want)
			}
			if _, ok := err.(*LineError); !ok {
				t.Errorf("error %T, want *LineError", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got  %q\nwant %q", err, c.want)
			}
		})
	}
}

func TestMergeItemsAllOrNothing(t *testing.T) {
	d := ordersDesign()
	before := len(d.Items)
	src := []SourceItem{
		{Item: model.Item{"PK": model.Str("X#1"), "SK": model.Str("A")}, Line: 1},
		{Item: model.Item{"PK": model.Str("X#2")}, Line: 2, File: "data.json", Path: "$.Item"},
		{Item: model.Item{"PK": model.Num("3"), "SK": model.Str("A")}, Line: 3},
	}
	_, _, err := MergeItems(d, src)
	if err == nil {
		t.Fatal("bad items were accepted")
	}
	for _, want := range []string{"2 of 3 items do not fit table orders-service-data (key PK S, SK S); nothing was imported",
		"data.json:2: $.Item: One or more parameter values were invalid: Missing the key SK in the item",
		"line 3: One or more parameter values were invalid: Type mismatch for key PK expected: S actual: N"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if len(d.Items) != before {
		t.Fatalf("design changed: %d items, had %d", len(d.Items), before)
	}
	// Good items: one new, one replacing the customer CUST#42/PROFILE.
	added, replaced, err := MergeItems(d, []SourceItem{
		{Item: model.Item{"PK": model.Str("X#1"), "SK": model.Str("A")}, Line: 1},
		{Item: model.Item{"PK": model.Str("CUST#42"), "SK": model.Str("PROFILE"), "name": model.Str("Ada L.")}, Line: 2},
	})
	if err != nil || added != 1 || replaced != 1 || len(d.Items) != before+1 {
		t.Fatalf("added %d replaced %d items %d err %v", added, replaced, len(d.Items), err)
	}
	if d.Items[0]["name"].Str != "Ada L." {
		t.Errorf("replacement not in place: %v", d.Items[0])
	}
}

func TestExportBatchWrite(t *testing.T) {
	d := ordersDesign()
	d.Items = nil
	for i := 0; i < 60; i++ {
		d.Items = append(d.Items, model.Item{"PK": model.Str(fmt.Sprintf("P#%02d", i)), "SK": model.Str("S"), "n": model.Num("1.50")})
	}
	files, err := ExportBatchWrite(d)
	if err != nil {
		t.Fatal(err)
	}
	var sizes []int
	var all []SourceItem
	for _, f := range files {
		items, layout, err := ReadDynamoDBJSON(bytes.NewReader(f), nil)
		if err != nil || layout != LayoutBatchWrite {
			t.Fatalf("%v %v\n%s", layout, err, f)
		}
		sizes = append(sizes, len(items))
		all = append(all, items...)
	}
	if fmt.Sprint(sizes) != "[25 25 10]" {
		t.Fatalf("file sizes %v, want [25 25 10]", sizes)
	}
	for i, s := range all {
		if !s.Item.Equal(d.Items[i]) {
			t.Fatalf("item %d came back as %v", i, s.Item)
		}
	}
}

func TestExportBatchWriteGolden(t *testing.T) {
	files, err := ExportBatchWrite(ordersDesign())
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 {
		t.Fatalf("%d files", len(files))
	}
	checkGolden(t, "orders.batchwrite.json", files[0])
}

// Export then import keeps every item (a round trip through the data format).
func TestBatchWriteRoundTrip(t *testing.T) {
	for name, d := range map[string]*model.Design{"orders": ordersDesign(), "shop": shopDesign(t)} {
		files, err := ExportBatchWrite(d)
		if err != nil {
			t.Fatal(err)
		}
		empty := *d
		empty.Items = nil
		var stream []byte
		for _, f := range files {
			stream = append(stream, f...)
		}
		items, _, err := ReadDynamoDBJSON(bytes.NewReader(stream), nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, _, err := MergeItems(&empty, items); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(empty.Items) != len(d.Items) {
			t.Fatalf("%s: %d items, want %d", name, len(empty.Items), len(d.Items))
		}
		for i := range d.Items {
			if !empty.Items[i].Equal(completeItem(d, d.Items[i])) {
				t.Errorf("%s: item %d changed", name, i)
			}
		}
	}
}

func FuzzReadDynamoDBJSON(f *testing.F) {
	f.Add([]byte("{\"Item\":{\"PK\":{\"S\":\"a\"}}}\n{\"Item\":{\"PK\":{\"N\":\"1\"}}}\n"))
	f.Add([]byte("{\"Items\":[{\"PK\":{\"S\":\"a\"}}],\"Count\":1}"))
	f.Add([]byte("{\"t\":[{\"PutRequest\":{\"Item\":{\"PK\":{\"S\":\"a\"}}}}]}\n{\"t\":[]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		items, _, err := ReadDynamoDBJSON(bytes.NewReader(data), nil)
		if err != nil {
			le, ok := err.(*LineError)
			if !ok || le.Line < 1 {
				t.Fatalf("error without a line: %T %v", err, err)
			}
			return
		}
		for _, s := range items {
			if s.Line < 1 || s.Item == nil {
				t.Fatalf("item without a line: %+v", s)
			}
		}
	})
}

// TestReadDynamoDBJSONKeepsInvalidUTF8Out: a byte that is not UTF-8 is an error
// naming its line, column and JSON path, in every layout, never a silent U+FFFD
// (HowItWorks.NamingRulesDataTypes.html: strings are Unicode with UTF-8 encoding).
func TestReadDynamoDBJSONKeepsInvalidUTF8Out(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"scan value", "{\"Items\": [\n{\"PK\":{\"S\":\"a\"}},\n{\"PK\":{\"S\":\"b\"}, \"name\": {\"S\": \"Z\xfcrich\"}}\n]}",
			"line 3: $.Items[1].name.S: byte 0xfc at column 34 is not UTF-8"},
		{"export line key", "{\"Item\":{\"PK\":{\"S\":\"a\"}}}\n{\"Item\":{\"PK\":{\"S\":\"\xff\"}}}\n",
			"line 2: $.Item.PK.S: byte 0xff at column 21 is not UTF-8"},
		{"batch write attribute name", "{\"t\": [\n{\"PutRequest\": {\"Item\": {\"PK\":{\"S\":\"a\"}, \"n\xc3\": {\"N\": \"1\"}}}}]}",
			"line 2: $.t[0].PutRequest.Item"},
	}
	for _, c := range cases {
		_, _, err := ReadDynamoDBJSON(strings.NewReader(c.in), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// Valid multi-byte text passes.
	items, _, err := ReadDynamoDBJSON(strings.NewReader("{\"Item\":{\"PK\":{\"S\":\"Zürich 中文 🙂\"}}}\n"), nil)
	if err != nil || len(items) != 1 || items[0].Item["PK"].Str != "Zürich 中文 🙂" {
		t.Errorf("valid UTF-8: %v %v", items, err)
	}
}

// TestReadDynamoDBJSONWithBOM: a UTF-8 byte order mark before the JSON is skipped.
func TestReadDynamoDBJSONWithBOM(t *testing.T) {
	items, _, err := ReadDynamoDBJSON(strings.NewReader("\xef\xbb\xbf{\"Items\": [{\"PK\":{\"S\":\"a\"}}]}"), nil)
	if err != nil || len(items) != 1 {
		t.Fatalf("BOM: %v %v", items, err)
	}
}

// TestReadDynamoDBJSONBoundsDecompression: a small gzip file that holds far more
// than the input limit is refused at the limit, naming it and how to raise it.
func TestReadDynamoDBJSONBoundsDecompression(t *testing.T) {
	t.Setenv("STWB_MAX_INPUT", "1MB")
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	chunk := bytes.Repeat([]byte("a"), 1<<20)
	w.Write([]byte(`{"Items": [{"PK": {"S": "`))
	for range 64 { // 64 MB of one string in about 64 KB of gzip
		w.Write(chunk)
	}
	w.Close()
	_, _, err := ReadDynamoDBJSON(&buf, nil)
	if err == nil || !strings.Contains(err.Error(), "the decompressed data is more than 1MB, over stwb's limit") ||
		!strings.Contains(err.Error(), "STWB_MAX_INPUT=") {
		t.Fatalf("gzip bomb: %v", err)
	}
}

// TestLineIndex: line numbers agree with counting newlines, and the index of 64 MB
// of newlines is a small fraction of it (one int per line was 8 bytes a byte).
func TestLineIndex(t *testing.T) {
	data := []byte(strings.Repeat("ab\n\n{\"x\": 1}\n", 1000))
	li := newLineIndex(data)
	for _, off := range []int{0, 1, 2, 3, 4, 5, 4095, 4096, 4097, 8191, len(data) - 1, len(data)} {
		if got, want := li.at(off), bytes.Count(data[:off], []byte("\n"))+1; got != want {
			t.Errorf("at(%d) = %d, want %d", off, got, want)
		}
	}
	if got := newLineIndex(nil).at(0); got != 1 {
		t.Errorf("empty data: line %d", got)
	}
	nl := bytes.Repeat([]byte("\n"), 64<<20)
	li = newLineIndex(nl)
	if size := len(li.before) * 8; size > len(nl)/256 {
		t.Errorf("the index of 64 MB of newlines is %d bytes", size)
	}
	if got := li.at(len(nl)); got != len(nl)+1 {
		t.Errorf("last line %d, want %d", got, len(nl)+1)
	}
}
