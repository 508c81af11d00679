package engine

// Every capacity rule of the engine lives in this file (DYNAMODB.md "Capacity";
// CapacityUnitCalculations.html, read-write-operations.html, GSI.html, LSI.html,
// transaction-apis.html). Each rule is one small function with a table of test cases
// in capacity_test.go, so a rule found wrong is corrected in one place.

// Unit sizes: one read unit covers 4 KB, one write unit 1 KB
// (CapacityUnitCalculations.html).
const (
	readUnitBytes  = 4096
	writeUnitBytes = 1024
	// pageBytes is the most a Query or Scan reads in one request (Query.html,
	// "Paginating table query results": 1 MB of data, before any filter).
	pageBytes = 1 << 20
)

func ceilDiv(n, d int) int {
	if n <= 0 {
		return 0
	}
	return (n + d - 1) / d
}

// readUnits is ceil(bytes/4 KB), halved for an eventually consistent read.
func readUnits(bytes int, consistent bool) float64 {
	u := float64(ceilDiv(bytes, readUnitBytes))
	if !consistent {
		u /= 2
	}
	return u
}

// writeUnits is ceil(bytes/1 KB).
func writeUnits(bytes int) float64 { return float64(ceilDiv(bytes, writeUnitBytes)) }

// getUnits is one GetItem's (or one BatchGetItem key's) read: ceil(size/4 KB), and
// a missing item still costs one unit (read-write-operations.html, "GetItem").
func getUnits(size int, found, consistent bool) float64 {
	if !found || size == 0 {
		size = 1
	}
	return readUnits(size, consistent)
}

// pageUnits is one Query or Scan request: the sizes of every item READ (before the
// FilterExpression, whatever the projection or Select) summed, then rounded up to
// 4 KB once (read-write-operations.html, "Query", "Scan"). An empty page still costs
// one unit's minimum, as DynamoDB rounds 0 bytes up to one read.
func pageUnits(bytesRead int, consistent bool) float64 {
	if bytesRead == 0 {
		bytesRead = 1
	}
	return readUnits(bytesRead, consistent)
}

// lsiFetchUnits is what an LSI query pays on the table for one base item it fetches
// because the query asked for attributes the index does not project: ceil(item/4 KB)
// per item, each rounded on its own (LSI.html, "Reads from a local secondary index").
func lsiFetchUnits(itemSize int, consistent bool) float64 { return readUnits(itemSize, consistent) }

// transactReadUnits is a TransactGetItems item: twice a consistent read
// (transaction-apis.html, "Capacity management for transactions"). A missing item
// costs as a 1-byte read.
func transactReadUnits(size int) float64 {
	if size == 0 {
		size = 1
	}
	return 2 * readUnits(size, true)
}

// putUnits is a PutItem or UpdateItem on the table: ceil(max(before, after)/1 KB)
// (read-write-operations.html, "PutItem", "UpdateItem"). before or after is 0 when
// that image is absent; a write always costs at least one unit.
func putUnits(before, after int) float64 {
	m := max(before, after, 1)
	return writeUnits(m)
}

// deleteUnits is a DeleteItem: ceil(deleted item/1 KB), and 1 when there was no item
// (read-write-operations.html, "DeleteItem").
func deleteUnits(before int) float64 { return writeUnits(max(before, 1)) }

// transactWriteFactor multiplies a transaction's table writes (prepare and commit);
// index writes are not doubled (transaction-apis.html).
const transactWriteFactor = 2

// transactCheckUnits is a TransactWriteItems ConditionCheck: it is billed as a write
// of the item it checks, doubled like every transactional table write. DynamoDB's
// guide is thin here; this follows what ConsumedCapacity reports for a check.
func transactCheckUnits(size int) float64 { return transactWriteFactor * writeUnits(max(size, 1)) }

// indexWrite is what one table write did to one secondary index's entry for the item.
type indexWrite struct {
	Before, After         bool // the item was / is in the index (sparse membership)
	BeforeSize, AfterSize int  // index entry sizes: table keys + index keys + projected
	SameKey               bool // the index key value is the same before and after
	SameView              bool // the projected attributes are the same before and after
}

// indexWriteUnits is the write units a table write costs on one index (GSI.html and
// LSI.html, "Provisioned throughput considerations ... Writes"):
//
//	absent -> absent: 0; absent -> N: ceil(N); O -> absent: ceil(O);
//	same index key, projected view unchanged: 0;
//	same index key, view changed: max(ceil(O), ceil(N));
//	index key changed: ceil(O) + ceil(N) (a delete and a put).
func indexWriteUnits(w indexWrite) float64 {
	switch {
	case !w.Before && !w.After:
		return 0
	case !w.Before:
		return writeUnits(w.AfterSize)
	case !w.After:
		return writeUnits(w.BeforeSize)
	case !w.SameKey:
		return writeUnits(w.BeforeSize) + writeUnits(w.AfterSize)
	case w.SameView:
		return 0
	}
	return max(writeUnits(w.BeforeSize), writeUnits(w.AfterSize))
}
