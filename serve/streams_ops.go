package serve

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"stwb/dynamojson"
)

// The dynamodbstreams service (API version 2012-08-10): ListStreams,
// DescribeStream, GetShardIterator and GetRecords (API_Operations_Amazon_DynamoDB
// _Streams.html), answered on the same endpoint as DynamoDB itself, told apart by
// the X-Amz-Target prefix DynamoDBStreams_20120810. Its messages are DynamoDB
// Streams' own where a real answer was found (each cites it); the constraint
// messages are the service framework's, worded as DynamoDB's are.

// streamsTargetPrefix is the X-Amz-Target prefix of DynamoDB Streams' API.
const streamsTargetPrefix = "DynamoDBStreams_20120810."

// streamOperations are the Streams operations, keyed by their whole target so that
// they cannot meet DynamoDB's (and a --record file names them unambiguously).
func streamOperations() map[string]operation {
	return map[string]operation{
		streamsTargetPrefix + "ListStreams":      readOp(listStreams),
		streamsTargetPrefix + "DescribeStream":   readOp(describeStream),
		streamsTargetPrefix + "GetShardIterator": readOp(getShardIterator),
		streamsTargetPrefix + "GetRecords":       readOp(getRecords),
	}
}

// seqText is a sequence number as the API carries it: a string of at least 21
// digits (API_streams_StreamRecord.html "SequenceNumber": 21 to 40 characters),
// zero-padded so that comparing the strings compares the numbers.
func seqText(n uint64) string { return fmt.Sprintf("%021d", n) }

// parseSeq reads a sequence number; ok is false for anything but digits.
func parseSeq(s string) (uint64, bool) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil
}

// streamByARN finds a stream, with DynamoDB Streams' answer for one that does not
// exist ("Requested resource not found: Stream: ARN not found", as DynamoDB
// Local answers it, localstack/localstack#1655).
func (s *Server) streamByARN(arn string) (*stream, *apiError) {
	for _, st := range s.visibleStreams() {
		if st.arn == arn {
			return st, nil
		}
	}
	return nil, notFound("Requested resource not found: Stream: %s not found", arn)
}

// checkLength adds a violation when a given string is outside [lo, hi] characters.
func (v *violations) checkLength(val *string, at string, lo, hi int) {
	if val == nil {
		v.add("Value null at '%s' failed to satisfy constraint: Member must not be null", at)
		return
	}
	if n := len(*val); n < lo {
		v.add("Value '%s' at '%s' failed to satisfy constraint: Member must have length greater than or equal to %d", *val, at, lo)
	} else if n > hi {
		v.add("Value '%s' at '%s' failed to satisfy constraint: Member must have length less than or equal to %d", *val, at, hi)
	}
}

// checkMax adds a violation when a given number is above max.
func (v *violations) checkMax(n *int64, at string, max int64) {
	if n != nil && *n > max {
		v.add("Value '%d' at '%s' failed to satisfy constraint: Member must have value less than or equal to %d", *n, at, max)
	}
}

type listStreamsInput struct {
	TableName               *string
	Limit                   *int64
	ExclusiveStartStreamArn *string
}

type streamSummary struct {
	StreamArn   string
	TableName   string
	StreamLabel string
}

// listStreams lists the streams (API_streams_ListStreams.html: Limit 1 to 100,
// default 100; a table's streams when TableName is given), in the order they
// were made, paged by LastEvaluatedStreamArn.
func listStreams(s *Server, in *listStreamsInput) (any, *apiError) {
	var v violations
	if in.TableName != nil {
		v.checkName(in.TableName, "tableName")
	}
	v.checkMin(in.Limit, "limit", 1)
	v.checkMax(in.Limit, "limit", 100)
	if in.ExclusiveStartStreamArn != nil {
		v.checkLength(in.ExclusiveStartStreamArn, "exclusiveStartStreamArn", 37, 1024)
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	limit := 100
	if in.Limit != nil {
		limit = int(*in.Limit)
	}
	all := s.visibleStreams()
	if in.ExclusiveStartStreamArn != nil {
		i := slices.IndexFunc(all, func(st *stream) bool { return st.arn == *in.ExclusiveStartStreamArn })
		if i < 0 {
			return nil, notFound("Requested resource not found: Stream: %s not found", *in.ExclusiveStartStreamArn)
		}
		all = all[i+1:]
	}
	out := struct {
		Streams                []streamSummary
		LastEvaluatedStreamArn string `json:",omitempty"`
	}{Streams: []streamSummary{}}
	for _, st := range all {
		if in.TableName != nil && st.table != *in.TableName {
			continue
		}
		if len(out.Streams) == limit {
			out.LastEvaluatedStreamArn = out.Streams[limit-1].StreamArn
			break
		}
		out.Streams = append(out.Streams, streamSummary{st.arn, st.table, st.label})
	}
	return out, nil
}

type describeStreamInput struct {
	StreamArn             *string
	Limit                 *int64
	ExclusiveStartShardId *string
}

type sequenceRange struct {
	StartingSequenceNumber string
	EndingSequenceNumber   string `json:",omitempty"`
}

type shardWire struct {
	ShardId             string
	SequenceNumberRange sequenceRange
}

type streamDescription struct {
	StreamArn               string
	StreamLabel             string
	StreamStatus            string
	StreamViewType          string
	CreationRequestDateTime float64
	TableName               string
	KeySchema               []keySchemaElement
	Shards                  []shardWire
	LastEvaluatedShardId    string `json:",omitempty"`
}

// describeStream describes a stream and its shard (API_streams_DescribeStream.html:
// Limit 1 to 100 shards, paged by ExclusiveStartShardId).
func describeStream(s *Server, in *describeStreamInput) (any, *apiError) {
	var v violations
	v.checkLength(in.StreamArn, "streamArn", 37, 1024)
	v.checkMin(in.Limit, "limit", 1)
	v.checkMax(in.Limit, "limit", 100)
	if in.ExclusiveStartShardId != nil {
		v.checkLength(in.ExclusiveStartShardId, "exclusiveStartShardId", 28, 65)
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	st, err := s.streamByARN(*in.StreamArn)
	if err != nil {
		return nil, err
	}
	d := streamDescription{StreamArn: st.arn, StreamLabel: st.label, StreamStatus: st.status(), StreamViewType: st.viewType,
		CreationRequestDateTime: epoch(st.created), TableName: st.table, KeySchema: keySchemaOf(st.keys), Shards: []shardWire{}}
	if in.ExclusiveStartShardId == nil || *in.ExclusiveStartShardId < st.shardID {
		sh := shardWire{ShardId: st.shardID, SequenceNumberRange: sequenceRange{StartingSequenceNumber: seqText(st.start)}}
		if !st.enabled() {
			sh.SequenceNumberRange.EndingSequenceNumber = seqText(st.end)
		}
		d.Shards = append(d.Shards, sh)
	}
	return struct{ StreamDescription streamDescription }{d}, nil
}

type getShardIteratorInput struct {
	StreamArn         *string
	ShardId           *string
	ShardIteratorType *string
	SequenceNumber    *string
}

// shardIterator is where a reader is in a shard: after the sequence number after
// (records above it come next), given out at issued. On the wire it is the
// stream's ARN, then as DynamoDB's iterators are ("arn:...stream/LABEL|1|AAAA..."),
// an opaque part: here the shard, the position and the time, base64 encoded.
type shardIterator struct {
	arn, shard string
	after      uint64
	issued     time.Time
}

func (it shardIterator) String() string {
	inner := it.shard + "|" + strconv.FormatUint(it.after, 10) + "|" + strconv.FormatInt(it.issued.UnixNano(), 10)
	return it.arn + "|1|" + base64.StdEncoding.EncodeToString([]byte(inner))
}

// parseIterator reads an iterator this server gave out; ok is false for any other
// text.
func parseIterator(s string) (shardIterator, bool) {
	i := strings.LastIndex(s, "|1|")
	if i < 0 {
		return shardIterator{}, false
	}
	raw, err := base64.StdEncoding.DecodeString(s[i+3:])
	if err != nil {
		return shardIterator{}, false
	}
	parts := strings.Split(string(raw), "|")
	if len(parts) != 3 {
		return shardIterator{}, false
	}
	after, err1 := strconv.ParseUint(parts[1], 10, 64)
	nanos, err2 := strconv.ParseInt(parts[2], 10, 64)
	if err1 != nil || err2 != nil {
		return shardIterator{}, false
	}
	return shardIterator{arn: s[:i], shard: parts[0], after: after, issued: time.Unix(0, nanos)}, true
}

// iteratorTypes are ShardIteratorType's values (API_streams_GetShardIterator.html).
var iteratorTypes = []string{"TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER", "AFTER_SEQUENCE_NUMBER"}

// trimmed is DynamoDB Streams' answer for a position older than the 24 hours kept
// (API_streams_GetShardIterator.html, TrimmedDataAccessException), in its words as
// a real consumer met them (ironSource/node-dynamodb-stream#13).
func trimmed() *apiError {
	return &apiError{status: 400, prefix: nsDynamoDB, code: "TrimmedDataAccessException",
		message: "The data you are trying to access has been trimmed"}
}

// getShardIterator gives an iterator into a shard: at its oldest record still kept
// (TRIM_HORIZON), after its newest (LATEST), or at or after a sequence number.
func getShardIterator(s *Server, in *getShardIteratorInput) (any, *apiError) {
	var v violations
	v.checkLength(in.StreamArn, "streamArn", 37, 1024)
	v.checkLength(in.ShardId, "shardId", 28, 65)
	if in.ShardIteratorType == nil {
		v.add("Value null at 'shardIteratorType' failed to satisfy constraint: Member must not be null")
	}
	v.checkEnum(in.ShardIteratorType, "shardIteratorType", iteratorTypes...)
	if in.SequenceNumber != nil {
		v.checkLength(in.SequenceNumber, "sequenceNumber", 21, 40)
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	st, err := s.streamByARN(*in.StreamArn)
	if err != nil {
		return nil, err
	}
	if *in.ShardId != st.shardID {
		// DynamoDB Streams' words for a shard it does not have
		// (amazon-archives/logstash-input-dynamodb#4, ironSource/node-dynamodb-stream#16).
		return nil, notFound("Requested resource not found: Shard does not exist")
	}
	now := s.now()
	next := s.lastSequence() + 1
	horizon := st.horizon(now, next)
	it := shardIterator{arn: st.arn, shard: st.shardID, issued: now}
	typ := *in.ShardIteratorType
	switch typ {
	case "TRIM_HORIZON":
		it.after = horizon - 1
	case "LATEST":
		it.after = next - 1
		if !st.enabled() {
			it.after = st.end
		}
	default:
		if in.SequenceNumber == nil {
			// No answer of DynamoDB Streams' to this was found; the words are
			// Kinesis's, whose API the Streams API follows.
			return nil, validationError("Must specify SequenceNumber for %s shard iterator type", typ)
		}
		seq, ok := parseSeq(*in.SequenceNumber)
		if !ok || seq < st.start || (!st.enabled() && seq > st.end) || seq >= next {
			return nil, validationError("Invalid SequenceNumber %s for shard %s of stream %s", *in.SequenceNumber, st.shardID, st.arn)
		}
		if seq < horizon {
			return nil, trimmed()
		}
		it.after = seq - 1
		if typ == "AFTER_SEQUENCE_NUMBER" {
			it.after = seq
		}
	}
	if typ != "AT_SEQUENCE_NUMBER" && typ != "AFTER_SEQUENCE_NUMBER" && in.SequenceNumber != nil {
		return nil, validationError("SequenceNumber must not be specified for %s shard iterator type", typ)
	}
	return struct{ ShardIterator string }{it.String()}, nil
}

type getRecordsInput struct {
	ShardIterator *string
	Limit         *int64
}

// getRecords reads the records after an iterator (API_streams_GetRecords.html: up
// to Limit, 1 to 1000, and at most 1 MB), with the iterator to read on from.
// NextShardIterator is absent once a closed shard has been read to its end, which
// tells a consumer to move to the shard's children (here: none).
func getRecords(s *Server, in *getRecordsInput) (any, *apiError) {
	var v violations
	v.checkLength(in.ShardIterator, "shardIterator", 1, 2048)
	v.checkMin(in.Limit, "limit", 1)
	v.checkMax(in.Limit, "limit", 1000)
	if err := v.err(); err != nil {
		return nil, err
	}
	it, ok := parseIterator(*in.ShardIterator)
	if !ok {
		return nil, validationError("Invalid ShardIterator")
	}
	now := s.now()
	if now.Sub(it.issued) > iteratorLifetime {
		// DynamoDB Streams' words (spring-attic/spring-integration-aws#59:
		// "ExpiredIteratorException: Shard iterator has expired (Service:
		// AmazonDynamoDBStreams; ...)").
		return nil, &apiError{status: 400, prefix: nsDynamoDB, code: "ExpiredIteratorException", message: "Shard iterator has expired"}
	}
	st, err := s.streamByARN(it.arn)
	if err != nil {
		return nil, err
	}
	if it.shard != st.shardID {
		// formkiq/formkiq-core#524 (DynamoDbStreams, 400).
		return nil, notFound("Invalid ShardId in ShardIterator")
	}
	next := s.lastSequence() + 1
	if it.after+1 < st.horizon(now, next) && it.after+1 >= st.start {
		return nil, trimmed()
	}
	limit := 1000
	if in.Limit != nil {
		limit = int(*in.Limit)
	}
	var b []byte
	b = append(b, `{"Records":[`...)
	after, n, bytes := it.after, 0, 0
	for _, r := range st.records {
		if r.seq <= it.after || now.Sub(r.at) > streamRetention {
			continue
		}
		if n == limit || (n > 0 && bytes+r.size > 1<<20) {
			break
		}
		if n > 0 {
			b = append(b, ',')
		}
		b = s.appendRecord(b, st, r)
		after, n, bytes = r.seq, n+1, bytes+r.size
	}
	b = append(b, ']')
	// A closed shard read to its end has no next iterator.
	if st.enabled() || after < st.end {
		nextIt := shardIterator{arn: st.arn, shard: st.shardID, after: after, issued: now}
		b = append(b, `,"NextShardIterator":`...)
		b = dynamojson.AppendString(b, nextIt.String())
	}
	return rawAnswer(append(b, '}')), nil
}

// appendRecord writes one record as GetRecords answers it
// (API_streams_Record.html).
func (s *Server) appendRecord(b []byte, st *stream, r streamRecord) []byte {
	sum := sha256.Sum256([]byte(st.arn + seqText(r.seq)))
	b = append(b, `{"eventID":`...)
	b = dynamojson.AppendString(b, hex.EncodeToString(sum[:16]))
	b = append(b, `,"eventName":`...)
	b = dynamojson.AppendString(b, r.event)
	b = append(b, `,"eventVersion":"1.1","eventSource":"aws:dynamodb","awsRegion":`...)
	b = dynamojson.AppendString(b, st.region)
	b = append(b, `,"dynamodb":{"ApproximateCreationDateTime":`...)
	b = strconv.AppendInt(b, r.at.Unix(), 10)
	b = append(b, `,"Keys":`...)
	b = dynamojson.AppendItem(b, r.keys)
	if r.newImage != nil {
		b = append(b, `,"NewImage":`...)
		b = dynamojson.AppendItem(b, r.newImage)
	}
	if r.oldImage != nil {
		b = append(b, `,"OldImage":`...)
		b = dynamojson.AppendItem(b, r.oldImage)
	}
	b = append(b, `,"SequenceNumber":`...)
	b = dynamojson.AppendString(b, seqText(r.seq))
	b = append(b, `,"SizeBytes":`...)
	b = strconv.AppendInt(b, int64(r.size), 10)
	b = append(b, `,"StreamViewType":`...)
	b = dynamojson.AppendString(b, st.viewType)
	b = append(b, '}')
	if r.service {
		b = append(b, `,"userIdentity":{"PrincipalId":"dynamodb.amazonaws.com","Type":"Service"}`...)
	}
	return append(b, '}')
}
