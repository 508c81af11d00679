package serve

import (
	"stwb/dynamojson"
	"stwb/engine"
	"stwb/model"
)

// An item's DynamoDB JSON is kept beside the stored item the first time a read
// writes it (engine.Encoded: the engine's Page.Encoded, GetItemOutput.Encoded), and
// copied from there when the item is read again: encoding the items of a page, and
// then finding their JSON in a map by item, was the largest part of serve's own
// CPU per Query (BenchmarkServerCPU, issue 24). A write stores a new entry, so what
// is kept is always the stored item's JSON, and is freed with it; it costs at most
// one item's JSON per stored item that has been read. An item made for the read (a
// projection) has no place to keep it and is encoded each time.

// appendItem appends the item in DynamoDB JSON, as dynamojson.AppendItem does,
// from or into enc when not nil.
func appendItem(buf []byte, it model.Item, enc *engine.Encoded) []byte {
	if enc == nil {
		return dynamojson.AppendItem(buf, it)
	}
	if wire := enc.Load(); wire != nil {
		return append(buf, wire...)
	}
	start := len(buf)
	buf = dynamojson.AppendItem(buf, it)
	enc.Store(buf[start:])
	return buf
}

// appendItems appends the items in DynamoDB JSON, separated by commas, as the
// elements of a JSON array; enc, when not nil, holds each one's Encoded
// (engine.Page.Encoded).
func appendItems(buf []byte, items []model.Item, enc []*engine.Encoded) []byte {
	for i, it := range items {
		if i > 0 {
			buf = append(buf, ',')
		}
		var e *engine.Encoded
		if enc != nil {
			e = enc[i]
		}
		buf = appendItem(buf, it, e)
	}
	return buf
}
