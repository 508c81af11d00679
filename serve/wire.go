package serve

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"

	"stwb/dynamojson"
	"stwb/engine"
	"stwb/model"
)

// rawItem is an item or key as the request carries it, read by readItem.
type rawItem = json.RawMessage

// wireItem is an item in a response: DynamoDB JSON, numbers as DynamoDB returns them.
type wireItem = dynamojson.Item

// given reports whether a member was in the request (not absent, not null).
func given(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

// readItem reads an item, key or ExclusiveStartKey; nil when absent. param names the
// member in DynamoDB's message ("One or more parameter values were invalid: ...").
func readItem(raw json.RawMessage, param string) (model.Item, *apiError) {
	if !given(raw) {
		return nil, nil
	}
	it, err := dynamojson.ParseItem(raw)
	if err != nil {
		return nil, wireError(err, param, "")
	}
	return it, nil
}

// readAhead is what an operation's input reads of itself as soon as it is decoded:
// its item, key and values, parsed by Decode off the server's lock (on the caller's
// goroutine, on a replay's workers) rather than by the operation under it. Nothing
// is answered earlier: the operation takes each result, error included, where it
// would have parsed it (an aheadItem), so DynamoDB's order of checks stands.
// readAhead returns the item or key the request names (Decoded.Item).
type readAhead interface{ readAhead() model.Item }

// aheadItem is an item, key or ExpressionAttributeValues parsed once.
type aheadItem struct {
	item model.Item
	err  *apiError
	done bool
}

// readItem is readItem(raw, param), parsed the first time it is asked.
func (a *aheadItem) readItem(raw json.RawMessage, param string) (model.Item, *apiError) {
	if !a.done {
		a.item, a.err = readItem(raw, param)
		a.done = true
	}
	return a.item, a.err
}

// readValues is readValues(raw), parsed the first time it is asked.
func (a *aheadItem) readValues(raw json.RawMessage) (map[string]model.Value, *apiError) {
	if !a.done {
		a.item, a.err = readValues(raw)
		a.done = true
	}
	return a.item, a.err
}

// readValues reads ExpressionAttributeValues; nil when absent.
func readValues(raw json.RawMessage) (map[string]model.Value, *apiError) {
	if !given(raw) {
		return nil, nil
	}
	// The values are an object of attribute values, as an item is: read whole when
	// they are valid, else one by one for the message naming the bad key.
	if vals, err := dynamojson.ParseItem(raw); err == nil {
		return vals, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, decodeError(err)
	}
	out := make(map[string]model.Value, len(m))
	for k, v := range m {
		val, err := dynamojson.ParseValue(v)
		if err != nil {
			return nil, wireError(err, "ExpressionAttributeValues", k)
		}
		out[k] = val
	}
	return out, nil
}

// wireError is DynamoDB's message for an attribute value it cannot read. The wire
// reader's messages that are DynamoDB's own pass as they are; for
// ExpressionAttributeValues DynamoDB wraps them ("ExpressionAttributeValues contains
// invalid value: ... for key :v"). Others (a stwb explanation such as "a number
// travels as a string") name the JSON path so the caller can find the value.
func wireError(err error, param, key string) *apiError {
	var we *dynamojson.PathError
	if !errors.As(err, &we) {
		return validationError("%s", err.Error())
	}
	msg := we.Msg
	switch {
	case we.Service, strings.HasPrefix(msg, "One or more parameter values were invalid: "), strings.HasPrefix(msg, "Supplied AttributeValue"):
	case strings.HasPrefix(msg, "Null attribute value types"):
		msg = "One or more parameter values were invalid: " + msg
	default:
		path := strings.TrimPrefix(we.Path, "$")
		if key != "" {
			path = "." + key + path
		}
		return serializationError(msg + " (at " + param + path + ")")
	}
	if key != "" {
		return validationError("ExpressionAttributeValues contains invalid value: %s for key %s", msg, key)
	}
	return validationError("%s", msg)
}

// capacityMode reads ReturnConsumedCapacity.
func capacityMode(v *violations, mode *string) string {
	v.checkEnum(mode, "returnConsumedCapacity", "INDEXES", "TOTAL", "NONE")
	if mode == nil {
		return "NONE"
	}
	return *mode
}

type unitsWire struct {
	CapacityUnits      float64
	ReadCapacityUnits  float64 `json:",omitempty"`
	WriteCapacityUnits float64 `json:",omitempty"`
}

// consumedCapacity is ConsumedCapacity (API_ConsumedCapacity.html): the total,
// and with INDEXES the table's and each index's share.
type consumedCapacity struct {
	TableName              string
	CapacityUnits          float64
	ReadCapacityUnits      float64              `json:",omitempty"`
	WriteCapacityUnits     float64              `json:",omitempty"`
	Table                  *unitsWire           `json:",omitempty"`
	GlobalSecondaryIndexes map[string]unitsWire `json:",omitempty"`
	LocalSecondaryIndexes  map[string]unitsWire `json:",omitempty"`
}

// appendCapacity appends c as json.Marshal writes it, for a ConsumedCapacity without
// per-index figures (ReturnConsumedCapacity TOTAL, what most clients and check
// --traffic's replay ask for) and a table name of the characters DynamoDB allows
// in one (API_CreateTable.html: [a-zA-Z0-9_.-]+), which JSON writes as they are;
// ok is false for anything else, which json.Marshal then writes. The answers paid
// encoding/json's reflection for these few members on every request.
func appendCapacity(b []byte, c *consumedCapacity) (_ []byte, ok bool) {
	if c.Table != nil || c.GlobalSecondaryIndexes != nil || c.LocalSecondaryIndexes != nil {
		return b, false
	}
	for i := 0; i < len(c.TableName); i++ {
		if ch := c.TableName[i]; !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_' || ch == '.' || ch == '-') {
			return b, false
		}
	}
	b = append(append(append(b, `{"TableName":"`...), c.TableName...), `","CapacityUnits":`...)
	b = appendJSONFloat(b, c.CapacityUnits)
	if c.ReadCapacityUnits != 0 {
		b = appendJSONFloat(append(b, `,"ReadCapacityUnits":`...), c.ReadCapacityUnits)
	}
	if c.WriteCapacityUnits != 0 {
		b = appendJSONFloat(append(b, `,"WriteCapacityUnits":`...), c.WriteCapacityUnits)
	}
	return append(b, '}'), true
}

// appendJSONFloat appends f as encoding/json writes a float64: the shortest text
// that reads back as f, in exponent form (e-7, not e-07) only below 1e-6 or from
// 1e21 on. f is finite (capacity units).
func appendJSONFloat(b []byte, f float64) []byte {
	abs := math.Abs(f)
	if abs == 0 || abs >= 1e-6 && abs < 1e21 {
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	b = strconv.AppendFloat(b, f, 'e', -1, 64)
	if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}

// capacityOf is the ConsumedCapacity of a request on t, as the engine priced it
// (stwb's capacity rules: engine/capacity.go); nil unless asked for.
func capacityOf(mode string, t *table, c engine.Capacity) *consumedCapacity {
	var out consumedCapacity
	if !fillCapacity(&out, mode, t, c) {
		return nil
	}
	return &out
}

// fillCapacity is capacityOf written into out; false unless asked for. finishAnswer
// fills one that stays on its stack: one a request was 2% of the bytes a replay
// allocated (issue 24).
func fillCapacity(out *consumedCapacity, mode string, t *table, c engine.Capacity) bool {
	if mode != "TOTAL" && mode != "INDEXES" {
		return false
	}
	*out = consumedCapacity{TableName: t.def.Name, CapacityUnits: round(c.Total()),
		ReadCapacityUnits: round(c.Read()), WriteCapacityUnits: round(c.Write())}
	if mode != "INDEXES" {
		return true
	}
	out.Table = &unitsWire{round(c.Table.Read + c.Table.Write), round(c.Table.Read), round(c.Table.Write)}
	for name, u := range c.Indexes {
		w := unitsWire{round(u.Read + u.Write), round(u.Read), round(u.Write)}
		if ix, ok := t.def.IndexByName(name); ok && ix.Local {
			if out.LocalSecondaryIndexes == nil {
				out.LocalSecondaryIndexes = map[string]unitsWire{}
			}
			out.LocalSecondaryIndexes[name] = w
			continue
		}
		if out.GlobalSecondaryIndexes == nil {
			out.GlobalSecondaryIndexes = map[string]unitsWire{}
		}
		out.GlobalSecondaryIndexes[name] = w
	}
	return true
}

// round drops the binary noise of summed halves (0.1 + 0.2); capacity is always a
// multiple of 0.5 or of 1/8 for transactions, far above this precision.
func round(f float64) float64 { return math.Round(f*1e6) / 1e6 }

// itemCollectionMetrics is ReturnItemCollectionMetrics=SIZE's answer for a write
// to a table with a local secondary index (LSI.html "Item collections"): the
// partition key and the collection's size estimate in GB, a range of one GB.
type itemCollectionMetrics struct {
	ItemCollectionKey   wireItem
	SizeEstimateRangeGB [2]float64
}

func collectionMetrics(mode *string, t *table, key model.Item) *itemCollectionMetrics {
	if mode == nil || *mode != "SIZE" || !hasLSI(t.def) || key == nil {
		return nil
	}
	pv := key[t.def.Key.Partition]
	gb := math.Floor(float64(t.eng.PartitionSize(pv)) / (1 << 30))
	return &itemCollectionMetrics{ItemCollectionKey: wireItem{t.def.Key.Partition: pv}, SizeEstimateRangeGB: [2]float64{gb, gb + 1}}
}

func hasLSI(def model.Table) bool {
	for _, ix := range def.Indexes {
		if ix.Local {
			return true
		}
	}
	return false
}
