package serve

import (
	"encoding/json"
	"strconv"
	"sync"

	"stwb/dynamojson"
	"stwb/engine"
	"stwb/model"
)

// The item operations: each request read off the wire into the engine's input
// (Given marking what the JSON carried, so that a zero is not taken for absent),
// run on the table's engine, and its output written back with the capacity
// stwb's rules priced.

// exprMembers are the expression members most requests share.
type exprMembers struct {
	ExpressionAttributeNames  map[string]string
	ExpressionAttributeValues json.RawMessage
	aheadValues               aheadItem
}

func (m *exprMembers) values() (map[string]model.Value, *apiError) {
	return m.aheadValues.readValues(m.ExpressionAttributeValues)
}

type getItemInput struct {
	TableName              *string
	Key                    rawItem
	ProjectionExpression   *string
	ConsistentRead         bool
	ReturnConsumedCapacity *string
	AttributesToGet        []string
	exprMembers
	aheadKey aheadItem
}

// readAhead reads the key (GetItem takes no values).
func (in *getItemInput) readAhead() model.Item {
	key, _ := in.aheadKey.readItem(in.Key, "Key")
	return key
}

func getItem(s *Server, in *getItemInput) (any, *apiError) {
	// Every constraint is checked, and all are reported together, before the
	// table is looked up, as DynamoDB does.
	var v violations
	name := v.itemTable(in.TableName)
	mode := capacityMode(&v, in.ReturnConsumedCapacity)
	if err := v.err(); err != nil {
		return nil, err
	}
	t, err := s.lookup(name)
	if err != nil {
		return nil, err
	}
	key, err := in.aheadKey.readItem(in.Key, "Key")
	if err != nil {
		return nil, err
	}
	proj := legacyProjection{AttributesToGet: in.AttributesToGet}
	ein := engine.GetItemInput{Key: key, ConsistentRead: in.ConsistentRead, ExpressionAttributeNames: in.ExpressionAttributeNames}
	if err := proj.apply(&ein.ProjectionExpression, &ein.ExpressionAttributeNames, &ein.Given, in.ProjectionExpression); err != nil {
		return nil, err
	}
	out, eerr := t.eng.GetItem(ein)
	if eerr != nil {
		return nil, fromEngine(eerr)
	}
	if s.opts.Throttle != nil {
		if err := s.admitKeys(t, []model.Item{key}, out.Consumed); err != nil {
			return nil, err
		}
	}
	// GetItem's answer: Item when there is one ({} when the projection left it
	// empty, as DynamoDB writes it; absent when there is no item), written directly
	// as pageOf writes a page.
	buf := newAnswer()
	b := append(*buf, '{')
	if out.Item != nil {
		b = append(b, `"Item":`...)
		b = appendItem(b, out.Item, out.Encoded)
	}
	return finishAnswer(buf, b, out.Item != nil, mode, t, out.Consumed)
}

// answerBuffers hold the answers written directly while they are written and
// sent: each is built in a buffer an earlier request left, rather than grown from
// nothing several times (a 25-item page grew three times), and given back once it
// has been sent (answer.release), so that a page costs no garbage of its size.
var answerBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// newAnswer is an empty buffer from answerBuffers, for finishAnswer to fill.
func newAnswer() *[]byte {
	buf := answerBuffers.Get().(*[]byte)
	*buf = (*buf)[:0]
	return buf
}

// pooledAnswer is an answer an operation wrote as JSON itself, in a buffer of
// answerBuffers: sent as it is, then given back (answer.release).
type pooledAnswer *[]byte

// finishAnswer ends an answer written directly in b (grown from buf) with its
// ConsumedCapacity, when asked for (more says whether a member came before it);
// the answer is then *buf.
func finishAnswer(buf *[]byte, b []byte, more bool, mode string, t *table, consumed engine.Capacity) (pooledAnswer, *apiError) {
	var c consumedCapacity
	if fillCapacity(&c, mode, t, consumed) {
		if more {
			b = append(b, ',')
		}
		b = append(b, `"ConsumedCapacity":`...)
		var ok bool
		if b, ok = appendCapacity(b, &c); !ok {
			heap := c // json.Marshal would move c itself to the heap on every path
			cb, err := json.Marshal(&heap)
			if err != nil {
				*buf = b
				releaseAnswer(buf)
				return nil, fromEngine(err)
			}
			b = append(b, cb...)
		}
	}
	*buf = append(b, '}')
	return buf, nil
}

// releaseAnswer gives an answer's buffer back to answerBuffers once it has been
// sent. Buffers past a megabyte (a page of large items) are not kept.
func releaseAnswer(buf *[]byte) {
	if cap(*buf) <= 1<<20 {
		*buf = (*buf)[:0]
		answerBuffers.Put(buf)
	}
}

type readMembers struct {
	TableName              *string
	IndexName              *string
	FilterExpression       *string
	ProjectionExpression   *string
	ExclusiveStartKey      rawItem
	Limit                  *int
	ConsistentRead         bool
	Select                 *string
	ReturnConsumedCapacity *string
	AttributesToGet        []string
	ConditionalOperator    *string
	exprMembers
	aheadStart aheadItem
}

// readAhead reads a Query's or Scan's ExclusiveStartKey and values.
func (in *readMembers) readAhead() model.Item {
	in.aheadStart.readItem(in.ExclusiveStartKey, "ExclusiveStartKey")
	in.values()
	return nil
}

type queryInput struct {
	readMembers
	KeyConditionExpression *string
	ScanIndexForward       *bool
	KeyConditions          map[string]legacyCondition
	QueryFilter            map[string]legacyCondition
}

type scanInput struct {
	readMembers
	Segment       *int
	TotalSegments *int
	ScanFilter    map[string]legacyCondition
}

// pageOf writes a Query or Scan page as DynamoDB answers it: Items (possibly
// empty; absent with Select COUNT), Count, ScannedCount, LastEvaluatedKey when
// there is more, ConsumedCapacity when asked. It is written directly rather than by
// encoding/json, which would check each item's JSON again after writing it: a page
// of 25 items cost three times as much that way (BenchmarkCall).
func (s *Server) pageOf(pg *engine.Page, count bool, mode string, t *table) (pooledAnswer, *apiError) {
	buf := newAnswer()
	b := append(*buf, '{')
	if !count {
		b = append(b, `"Items":[`...)
		b = appendItems(b, pg.Items, pg.Encoded)
		b = append(b, "],"...)
	}
	b = append(b, `"Count":`...)
	b = strconv.AppendInt(b, int64(pg.Count), 10)
	b = append(b, `,"ScannedCount":`...)
	b = strconv.AppendInt(b, int64(pg.ScannedCount), 10)
	if pg.LastEvaluatedKey != nil {
		b = append(b, `,"LastEvaluatedKey":`...)
		b = dynamojson.AppendItem(b, pg.LastEvaluatedKey)
	}
	return finishAnswer(buf, b, true, mode, t, pg.Consumed)
}

// readCommon fills what Query and Scan share.
func (in *readMembers) common(v *violations) (string, *apiError) {
	mode := capacityMode(v, in.ReturnConsumedCapacity)
	v.checkEnum(in.Select, "select", engine.SelectSpecificAttributes, engine.SelectCount, engine.SelectAllAttributes, engine.SelectAllProjectedAttributes)
	v.checkEnum(in.ConditionalOperator, "conditionalOperator", "AND", "OR")
	if in.IndexName != nil {
		v.checkName(in.IndexName, "indexName")
	}
	return mode, v.err()
}

func query(s *Server, in *queryInput) (any, *apiError) {
	// Every constraint (the table's and the index's names too) is checked before
	// the table is looked up, and all are reported together, as DynamoDB does.
	var v violations
	name := v.itemTable(in.TableName)
	mode, err := in.common(&v)
	if err != nil {
		return nil, err
	}
	t, err := s.lookup(name)
	if err != nil {
		return nil, err
	}
	ein := engine.QueryInput{ConsistentRead: in.ConsistentRead, ScanIndexForward: in.ScanIndexForward,
		ExpressionAttributeNames: in.ExpressionAttributeNames, Encoded: true}
	if err := in.fill(&ein.IndexName, &ein.Limit, &ein.Select, &ein.ExclusiveStartKey, &ein.Given); err != nil {
		return nil, err
	}
	if ein.ExpressionAttributeValues, err = in.values(); err != nil {
		return nil, err
	}
	if err := legacyQuery(in, &ein, t); err != nil {
		return nil, err
	}
	pg, eerr := t.eng.Query(ein)
	if eerr != nil {
		return nil, fromEngine(eerr)
	}
	if s.opts.Throttle != nil {
		cs := s.chargerOf(t).Query(ein.IndexName, ein.KeyConditionExpression, ein.ExpressionAttributeNames, ein.ExpressionAttributeValues, pg.Consumed)
		if err := s.admit(t, cs); err != nil {
			return nil, err
		}
	}
	return s.pageOf(pg, ein.Select == engine.SelectCount, mode, t)
}

// fill copies the members Query and Scan share into the engine's input.
func (in *readMembers) fill(index *string, limit *int, sel *string, start *model.Item, g *engine.Given) *apiError {
	if in.IndexName != nil {
		*index = *in.IndexName
	}
	if in.Limit != nil {
		*limit, *g = *in.Limit, *g|engine.GivenLimit
	}
	if in.Select != nil {
		*sel = *in.Select
	}
	k, err := in.aheadStart.readItem(in.ExclusiveStartKey, "ExclusiveStartKey")
	*start = k
	return err
}

func scan(s *Server, in *scanInput) (any, *apiError) {
	var v violations
	name := v.itemTable(in.TableName)
	if in.TotalSegments != nil {
		n := int64(*in.TotalSegments)
		v.checkMin(&n, "totalSegments", 1)
		if n > 1000000 {
			v.add("Value '%d' at 'totalSegments' failed to satisfy constraint: Member must have value less than or equal to 1000000", n)
		}
	}
	if in.Segment != nil {
		n := int64(*in.Segment)
		v.checkMin(&n, "segment", 0)
	}
	mode, err := in.common(&v)
	if err != nil {
		return nil, err
	}
	t, err := s.lookup(name)
	if err != nil {
		return nil, err
	}
	ein := engine.ScanInput{ConsistentRead: in.ConsistentRead, ExpressionAttributeNames: in.ExpressionAttributeNames, Encoded: true}
	if err := in.fill(&ein.IndexName, &ein.Limit, &ein.Select, &ein.ExclusiveStartKey, &ein.Given); err != nil {
		return nil, err
	}
	if in.Segment != nil {
		ein.Segment, ein.Given = *in.Segment, ein.Given|engine.GivenSegment
	}
	if in.TotalSegments != nil {
		ein.TotalSegments, ein.Given = *in.TotalSegments, ein.Given|engine.GivenTotalSegments
	}
	if ein.ExpressionAttributeValues, err = in.values(); err != nil {
		return nil, err
	}
	if err := legacyScan(in, &ein); err != nil {
		return nil, err
	}
	pg, eerr := t.eng.Scan(ein)
	if eerr != nil {
		return nil, fromEngine(eerr)
	}
	if s.opts.Throttle != nil {
		if err := s.admit(t, s.chargerOf(t).Scan(ein.IndexName, pg.Consumed)); err != nil {
			return nil, err
		}
	}
	return s.pageOf(pg, ein.Select == engine.SelectCount, mode, t)
}

// writeMembers are what PutItem, UpdateItem and DeleteItem share.
type writeMembers struct {
	TableName                           *string
	ConditionExpression                 *string
	ReturnValues                        *string
	ReturnValuesOnConditionCheckFailure *string
	ReturnConsumedCapacity              *string
	ReturnItemCollectionMetrics         *string
	Expected                            map[string]legacyExpected
	ConditionalOperator                 *string
	exprMembers
	aheadItem aheadItem // the item (PutItem) or key
}

// readAhead reads a single-item write's item or key (raw, the member param names)
// and its values.
func (in *writeMembers) readAhead(raw rawItem, param string) model.Item {
	in.values()
	item, _ := in.aheadItem.readItem(raw, param)
	return item
}

type writeOutput struct {
	Attributes            wireItem               `json:",omitempty"`
	ConsumedCapacity      *consumedCapacity      `json:",omitempty"`
	ItemCollectionMetrics *itemCollectionMetrics `json:",omitempty"`
}

// prepared is a single-item write's shared members, checked: its table, the
// ReturnConsumedCapacity mode, its item (PutItem) or key, and its values.
type prepared struct {
	t      *table
	mode   string
	item   model.Item
	values map[string]model.Value
}

// prepare checks the shared members and the table, and reads the item or key
// (raw, the member param names).
func (in *writeMembers) prepare(s *Server, raw rawItem, param string) (*prepared, *apiError) {
	// Every constraint is checked, and all are reported together, before the
	// table is looked up (the conformance suite's validation-ordering captures:
	// invalid ReturnValues and ReturnConsumedCapacity on a missing table are a
	// ValidationException naming both, not ResourceNotFoundException).
	var v violations
	name := v.itemTable(in.TableName)
	p := &prepared{mode: capacityMode(&v, in.ReturnConsumedCapacity)}
	v.checkEnum(in.ReturnValues, "returnValues", engine.ReturnAllNew, engine.ReturnUpdatedOld, engine.ReturnAllOld, engine.ReturnNone, engine.ReturnUpdatedNew)
	v.checkEnum(in.ReturnValuesOnConditionCheckFailure, "returnValuesOnConditionCheckFailure", engine.ReturnAllOld, engine.ReturnNone)
	v.checkEnum(in.ReturnItemCollectionMetrics, "returnItemCollectionMetrics", "SIZE", "NONE")
	v.checkEnum(in.ConditionalOperator, "conditionalOperator", "AND", "OR")
	if err := v.err(); err != nil {
		return nil, err
	}
	t, err := s.lookup(name)
	if err != nil {
		return nil, err
	}
	p.t = t
	if p.item, err = in.aheadItem.readItem(raw, param); err != nil {
		return nil, err
	}
	if p.values, err = in.values(); err != nil {
		return nil, err
	}
	return p, nil
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// writeResult turns a single-item write's outcome into its answer: throttled
// (--throttle) by the units it took, a failed condition's too; its change is put
// on the table's stream.
func writeResult(s *Server, out *engine.WriteOutput, err error, p *prepared, in *writeMembers) (any, *apiError) {
	if s.opts.Throttle != nil {
		if terr := s.admitWrite(p.t, out, []model.Item{p.item}); terr != nil {
			return nil, terr
		}
	}
	if err != nil {
		return nil, fromEngine(err)
	}
	s.recordChanges(p.t, out.Changes, false)
	metrics := collectionMetrics(in.ReturnItemCollectionMetrics, p.t, p.item)
	if len(out.Attributes) == 0 && metrics == nil {
		// Nothing but the capacity, if asked: written directly, as json.Marshal
		// writes writeOutput ({} or {"ConsumedCapacity":{...}}).
		buf := newAnswer()
		return finishAnswer(buf, append(*buf, '{'), false, p.mode, p.t, out.Consumed)
	}
	return writeOutput{Attributes: wireItem(out.Attributes), ConsumedCapacity: capacityOf(p.mode, p.t, out.Consumed),
		ItemCollectionMetrics: metrics}, nil
}

type putItemInput struct {
	writeMembers
	Item rawItem
}

func (in *putItemInput) readAhead() model.Item { return in.writeMembers.readAhead(in.Item, "Item") }

func putItem(s *Server, in *putItemInput) (any, *apiError) {
	p, err := in.prepare(s, in.Item, "Item")
	if err != nil {
		return nil, err
	}
	if p.item == nil {
		return nil, validationError("1 validation error detected: Value null at 'item' failed to satisfy constraint: Member must not be null")
	}
	ein := engine.PutItemInput{Item: p.item, ReturnValues: str(in.ReturnValues),
		ReturnValuesOnConditionCheckFailure: str(in.ReturnValuesOnConditionCheckFailure),
		ExpressionAttributeNames:            in.ExpressionAttributeNames, ExpressionAttributeValues: p.values}
	if err := conditionOf(&in.writeMembers, &ein.ConditionExpression, &ein.ExpressionAttributeNames, &ein.ExpressionAttributeValues, &ein.Given); err != nil {
		return nil, err
	}
	out, eerr := p.t.eng.PutItem(ein)
	return writeResult(s, out, eerr, p, &in.writeMembers)
}

type updateItemInput struct {
	writeMembers
	Key              rawItem
	UpdateExpression *string
	AttributeUpdates map[string]legacyUpdate
}

func (in *updateItemInput) readAhead() model.Item { return in.writeMembers.readAhead(in.Key, "Key") }

func updateItem(s *Server, in *updateItemInput) (any, *apiError) {
	p, err := in.prepare(s, in.Key, "Key")
	if err != nil {
		return nil, err
	}
	ein := engine.UpdateItemInput{Key: p.item, ReturnValues: str(in.ReturnValues),
		ReturnValuesOnConditionCheckFailure: str(in.ReturnValuesOnConditionCheckFailure),
		ExpressionAttributeNames:            in.ExpressionAttributeNames, ExpressionAttributeValues: p.values}
	if in.UpdateExpression != nil {
		ein.UpdateExpression, ein.Given = *in.UpdateExpression, ein.Given|engine.GivenUpdate
	}
	if err := legacyUpdateItem(in, &ein); err != nil {
		return nil, err
	}
	out, eerr := p.t.eng.UpdateItem(ein)
	return writeResult(s, out, eerr, p, &in.writeMembers)
}

type deleteItemInput struct {
	writeMembers
	Key rawItem
}

func (in *deleteItemInput) readAhead() model.Item { return in.writeMembers.readAhead(in.Key, "Key") }

func deleteItem(s *Server, in *deleteItemInput) (any, *apiError) {
	p, err := in.prepare(s, in.Key, "Key")
	if err != nil {
		return nil, err
	}
	ein := engine.DeleteItemInput{Key: p.item, ReturnValues: str(in.ReturnValues),
		ReturnValuesOnConditionCheckFailure: str(in.ReturnValuesOnConditionCheckFailure),
		ExpressionAttributeNames:            in.ExpressionAttributeNames, ExpressionAttributeValues: p.values}
	if err := conditionOf(&in.writeMembers, &ein.ConditionExpression, &ein.ExpressionAttributeNames, &ein.ExpressionAttributeValues, &ein.Given); err != nil {
		return nil, err
	}
	out, eerr := p.t.eng.DeleteItem(ein)
	return writeResult(s, out, eerr, p, &in.writeMembers)
}
