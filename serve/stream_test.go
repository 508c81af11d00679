package serve

import (
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"stwb/live"
	"stwb/model"
)

// streamsClient is an SDK client of the dynamodbstreams service for the server,
// signing as client does (the same namespace).
func (st *started) streams() *dynamodbstreams.Client {
	return dynamodbstreams.New(dynamodbstreams.Options{
		HTTPClient:   &http.Client{Timeout: time.Minute},
		BaseEndpoint: aws.String(st.endpoint),
		Region:       "eu-west-1",
		Credentials:  credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", ""),
		Retryer:      onlyConnectionRetries(),
	})
}

// clock is a test's clock, moved by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// streamTable makes table NAME (key PK) with a stream of the view type and
// returns its LatestStreamArn.
func streamTable(t *testing.T, st *started, name string, view types.StreamViewType) string {
	t.Helper()
	out, err := st.db.CreateTable(ctx(t), &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{attrDef("PK", types.ScalarAttributeTypeS)},
		KeySchema:            []types.KeySchemaElement{keyElem("PK", types.KeyTypeHash)},
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: view}})
	if err != nil {
		t.Fatal(err)
	}
	td := out.TableDescription
	if td.LatestStreamArn == nil || td.LatestStreamLabel == nil || *td.LatestStreamArn != *td.TableArn+"/stream/"+*td.LatestStreamLabel {
		t.Fatalf("CreateTable answered stream %v label %v", td.LatestStreamArn, td.LatestStreamLabel)
	}
	return *td.LatestStreamArn
}

// readAll reads a stream's shard from the iterator of the given type to its
// present end, a page of limit records at a time, and returns the records.
func readAll(t *testing.T, sc *dynamodbstreams.Client, arn string, typ stypes.ShardIteratorType, limit int32) []stypes.Record {
	t.Helper()
	c := ctx(t)
	desc, err := sc.DescribeStream(c, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	it, err := sc.GetShardIterator(c, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
		ShardId: desc.StreamDescription.Shards[0].ShardId, ShardIteratorType: typ})
	if err != nil {
		t.Fatal(err)
	}
	var recs []stypes.Record
	iter := it.ShardIterator
	for iter != nil {
		page, err := sc.GetRecords(c, &dynamodbstreams.GetRecordsInput{ShardIterator: iter, Limit: aws.Int32(limit)})
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, page.Records...)
		if len(page.Records) == 0 {
			break
		}
		iter = page.NextShardIterator
	}
	return recs
}

func sv(r map[string]stypes.AttributeValue, name string) string {
	if v, ok := r[name].(*stypes.AttributeValueMemberS); ok {
		return v.Value
	}
	return ""
}

// TestStreamRecordsAWrite: every kind of write is on the stream as DynamoDB puts
// it (stream.go cites each rule): PutItem, UpdateItem, DeleteItem, BatchWriteItem,
// TransactWriteItems and PartiQL, in order, with increasing sequence numbers,
// the keys, both images, SizeBytes and the time; a write that changes nothing,
// a delete of an absent item and a ConditionCheck leave no record.
func TestStreamRecordsAWrite(t *testing.T) {
	clk := &clock{now: time.Date(2026, 12, 1, 10, 0, 0, 700_000_000, time.UTC)}
	st := start(t, Options{Now: clk.Now})
	sc := st.streams()
	c := ctx(t)
	arn := streamTable(t, st, "events", types.StreamViewTypeNewAndOldImages)
	put := func(pk, v string) {
		t.Helper()
		if _, err := st.db.PutItem(c, &dynamodb.PutItemInput{TableName: aws.String("events"),
			Item: map[string]types.AttributeValue{"PK": av(pk), "v": av(v)}}); err != nil {
			t.Fatal(err)
		}
	}
	put("a", "1")                                                                               // INSERT
	put("a", "1")                                                                               // the same item: no record
	if _, err := st.db.UpdateItem(c, &dynamodb.UpdateItemInput{TableName: aws.String("events"), // MODIFY
		Key: map[string]types.AttributeValue{"PK": av("a")}, UpdateExpression: aws.String("SET v = :v"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": av("2")}}); err != nil {
		t.Fatal(err)
	}
	for _, pk := range []string{"a", "none"} { // REMOVE, then nothing to remove
		if _, err := st.db.DeleteItem(c, &dynamodb.DeleteItemInput{TableName: aws.String("events"), Key: map[string]types.AttributeValue{"PK": av(pk)}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.db.BatchWriteItem(c, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"events": { // INSERT b
		{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{"PK": av("b"), "v": av("1")}}}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.db.TransactWriteItems(c, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{ // INSERT c, MODIFY b
		{Put: &types.Put{TableName: aws.String("events"), Item: map[string]types.AttributeValue{"PK": av("c"), "v": av("1")}}},
		{Update: &types.Update{TableName: aws.String("events"), Key: map[string]types.AttributeValue{"PK": av("b")},
			UpdateExpression: aws.String("SET v = :v"), ExpressionAttributeValues: map[string]types.AttributeValue{":v": av("3")}}},
	}}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.db.TransactWriteItems(c, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{ // no record
		{ConditionCheck: &types.ConditionCheck{TableName: aws.String("events"), Key: map[string]types.AttributeValue{"PK": av("c")},
			ConditionExpression: aws.String("attribute_exists(PK)")}},
	}}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.db.ExecuteStatement(c, &dynamodb.ExecuteStatementInput{ // INSERT d
		Statement: aws.String(`INSERT INTO "events" VALUE {'PK': 'd', 'v': '1'}`)}); err != nil {
		t.Fatal(err)
	}

	recs := readAll(t, sc, arn, stypes.ShardIteratorTypeTrimHorizon, 2)
	type want struct {
		event            stypes.OperationType
		pk, newV, oldV   string
		size             int64 // keys + images, each sized as an item
		newImage, oldImg bool
	}
	// Sizes: key PK "a" is 3 bytes; an item {PK, v} of one-letter values 4 more.
	wants := []want{
		{stypes.OperationTypeInsert, "a", "1", "", 3 + 5, true, false},
		{stypes.OperationTypeModify, "a", "2", "1", 3 + 5 + 5, true, true},
		{stypes.OperationTypeRemove, "a", "", "2", 3 + 5, false, true},
		{stypes.OperationTypeInsert, "b", "1", "", 3 + 5, true, false},
		{stypes.OperationTypeInsert, "c", "1", "", 3 + 5, true, false},
		{stypes.OperationTypeModify, "b", "3", "1", 3 + 5 + 5, true, true},
		{stypes.OperationTypeInsert, "d", "1", "", 3 + 5, true, false},
	}
	if len(recs) != len(wants) {
		t.Fatalf("%d records, want %d: %+v", len(recs), len(wants), recs)
	}
	prev := ""
	for i, w := range wants {
		r := recs[i]
		d := r.Dynamodb
		if r.EventName != w.event || sv(d.Keys, "PK") != w.pk || len(d.Keys) != 1 {
			t.Errorf("record %d: %s %v, want %s %s", i, r.EventName, d.Keys, w.event, w.pk)
		}
		if (d.NewImage != nil) != w.newImage || (d.OldImage != nil) != w.oldImg || sv(d.NewImage, "v") != w.newV || sv(d.OldImage, "v") != w.oldV {
			t.Errorf("record %d (%s %s): new %v old %v", i, w.event, w.pk, d.NewImage, d.OldImage)
		}
		if aws.ToInt64(d.SizeBytes) != w.size {
			t.Errorf("record %d: SizeBytes %d, want %d", i, aws.ToInt64(d.SizeBytes), w.size)
		}
		if seq := aws.ToString(d.SequenceNumber); len(seq) < 21 || seq <= prev {
			t.Errorf("record %d: sequence number %q after %q", i, seq, prev)
		} else {
			prev = seq
		}
		if !d.ApproximateCreationDateTime.Equal(clk.Now().Truncate(time.Second)) || d.StreamViewType != stypes.StreamViewTypeNewAndOldImages ||
			aws.ToString(r.EventSource) != "aws:dynamodb" || aws.ToString(r.EventVersion) != "1.1" || aws.ToString(r.AwsRegion) != "eu-west-1" ||
			r.UserIdentity != nil || aws.ToString(r.EventID) == "" {
			t.Errorf("record %d: %+v", i, r)
		}
	}

	// The other view types keep what they name (Streams.html StreamViewType).
	for _, tc := range []struct {
		view     types.StreamViewType
		new, old bool
	}{{types.StreamViewTypeKeysOnly, false, false}, {types.StreamViewTypeNewImage, true, false}, {types.StreamViewTypeOldImage, false, true}} {
		name := "view-" + string(tc.view)
		varn := streamTable(t, st, name, tc.view)
		put2 := func(v string) {
			if _, err := st.db.PutItem(c, &dynamodb.PutItemInput{TableName: aws.String(name), Item: map[string]types.AttributeValue{"PK": av("k"), "v": av(v)}}); err != nil {
				t.Fatal(err)
			}
		}
		put2("1")
		put2("2")
		recs := readAll(t, sc, varn, stypes.ShardIteratorTypeTrimHorizon, 100)
		if len(recs) != 2 {
			t.Fatalf("%s: %d records", tc.view, len(recs))
		}
		m := recs[1].Dynamodb
		if (m.NewImage != nil) != tc.new || (m.OldImage != nil) != tc.old || m.StreamViewType != stypes.StreamViewType(tc.view) {
			t.Errorf("%s: MODIFY has new %v old %v", tc.view, m.NewImage, m.OldImage)
		}
		size := int64(3)
		if tc.new || tc.old {
			size += 5
		}
		if aws.ToInt64(m.SizeBytes) != size {
			t.Errorf("%s: SizeBytes %d, want %d", tc.view, aws.ToInt64(m.SizeBytes), size)
		}
	}
}

// TestStreamIteratorsAndErrors: each iterator type starts where the API reference
// says; ListStreams filters and pages; an expired iterator, a trimmed position and
// unknown streams and shards are refused as DynamoDB Streams refuses them; a
// disabled stream's shard ends and a new stream gets a new label.
func TestStreamIteratorsAndErrors(t *testing.T) {
	clk := &clock{now: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
	st := start(t, Options{Now: clk.Now})
	sc := st.streams()
	c := ctx(t)
	arn := streamTable(t, st, "things", types.StreamViewTypeKeysOnly)
	other := streamTable(t, st, "others", types.StreamViewTypeKeysOnly)
	put := func(pk string) {
		t.Helper()
		if _, err := st.db.PutItem(c, &dynamodb.PutItemInput{TableName: aws.String("things"), Item: map[string]types.AttributeValue{"PK": av(pk)}}); err != nil {
			t.Fatal(err)
		}
	}
	put("1")
	put("2")
	latest := readAll(t, sc, arn, stypes.ShardIteratorTypeLatest, 100)
	if len(latest) != 0 {
		t.Errorf("LATEST before new writes gave %d records", len(latest))
	}
	desc, err := sc.DescribeStream(c, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	sd := desc.StreamDescription
	shard := sd.Shards[0]
	if sd.StreamStatus != stypes.StreamStatusEnabled || len(sd.Shards) != 1 || aws.ToString(sd.TableName) != "things" ||
		sd.StreamViewType != stypes.StreamViewTypeKeysOnly || shard.SequenceNumberRange.EndingSequenceNumber != nil ||
		len(sd.KeySchema) != 1 || aws.ToString(sd.KeySchema[0].AttributeName) != "PK" {
		t.Fatalf("DescribeStream: %+v", sd)
	}
	// A LATEST iterator taken now sees the next write only.
	lit, err := sc.GetShardIterator(c, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shard.ShardId, ShardIteratorType: stypes.ShardIteratorTypeLatest})
	if err != nil {
		t.Fatal(err)
	}
	put("3")
	got, err := sc.GetRecords(c, &dynamodbstreams.GetRecordsInput{ShardIterator: lit.ShardIterator})
	if err != nil || len(got.Records) != 1 || sv(got.Records[0].Dynamodb.Keys, "PK") != "3" {
		t.Fatalf("LATEST then a write: %+v %v", got, err)
	}
	all := readAll(t, sc, arn, stypes.ShardIteratorTypeTrimHorizon, 1)
	if len(all) != 3 {
		t.Fatalf("TRIM_HORIZON read %d records, want 3", len(all))
	}
	second := all[1].Dynamodb.SequenceNumber
	for _, tc := range []struct {
		typ   stypes.ShardIteratorType
		first string
	}{{stypes.ShardIteratorTypeAtSequenceNumber, "2"}, {stypes.ShardIteratorTypeAfterSequenceNumber, "3"}} {
		it, err := sc.GetShardIterator(c, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shard.ShardId,
			ShardIteratorType: tc.typ, SequenceNumber: second})
		if err != nil {
			t.Fatal(err)
		}
		page, err := sc.GetRecords(c, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator, Limit: aws.Int32(1)})
		if err != nil || len(page.Records) != 1 || sv(page.Records[0].Dynamodb.Keys, "PK") != tc.first {
			t.Errorf("%s %s: %+v %v, want %s first", tc.typ, *second, page, err, tc.first)
		}
	}
	// ListStreams: both tables, one by its name, paged by one.
	ls, err := sc.ListStreams(c, &dynamodbstreams.ListStreamsInput{})
	if err != nil || len(ls.Streams) != 2 {
		t.Fatalf("ListStreams: %+v %v", ls, err)
	}
	ls, err = sc.ListStreams(c, &dynamodbstreams.ListStreamsInput{TableName: aws.String("others")})
	if err != nil || len(ls.Streams) != 1 || aws.ToString(ls.Streams[0].StreamArn) != other {
		t.Fatalf("ListStreams of others: %+v %v", ls, err)
	}
	ls, err = sc.ListStreams(c, &dynamodbstreams.ListStreamsInput{Limit: aws.Int32(1)})
	if err != nil || len(ls.Streams) != 1 || ls.LastEvaluatedStreamArn == nil {
		t.Fatalf("ListStreams Limit 1: %+v %v", ls, err)
	}
	ls, err = sc.ListStreams(c, &dynamodbstreams.ListStreamsInput{Limit: aws.Int32(1), ExclusiveStartStreamArn: ls.LastEvaluatedStreamArn})
	if err != nil || len(ls.Streams) != 1 || ls.LastEvaluatedStreamArn != nil {
		t.Fatalf("ListStreams second page: %+v %v", ls, err)
	}

	// Refusals.
	old, err := sc.GetShardIterator(c, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shard.ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	if err != nil {
		t.Fatal(err)
	}
	missing := *desc.StreamDescription.StreamArn + "x"
	refusals := []struct {
		name, want string
		call       func() error
	}{
		{"unknown stream", "ResourceNotFoundException: Requested resource not found: Stream: " + missing + " not found", func() error {
			_, err := sc.DescribeStream(c, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(missing)})
			return err
		}},
		{"unknown shard", "ResourceNotFoundException: Requested resource not found: Shard does not exist", func() error {
			_, err := sc.GetShardIterator(c, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: aws.String("shardId-00000000000000000000-00000000"),
				ShardIteratorType: stypes.ShardIteratorTypeLatest})
			return err
		}},
		{"bad iterator type", "ValidationException: 1 validation error detected: Value 'SOON' at 'shardIteratorType' failed to satisfy constraint: Member must satisfy enum value set: [TRIM_HORIZON, LATEST, AT_SEQUENCE_NUMBER, AFTER_SEQUENCE_NUMBER]", func() error {
			_, err := sc.GetShardIterator(c, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shard.ShardId, ShardIteratorType: "SOON"})
			return err
		}},
		{"Limit over 1000", "ValidationException: 1 validation error detected: Value '1001' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 1000", func() error {
			_, err := sc.GetRecords(c, &dynamodbstreams.GetRecordsInput{ShardIterator: old.ShardIterator, Limit: aws.Int32(1001)})
			return err
		}},
		{"expired iterator", "ExpiredIteratorException: Shard iterator has expired", func() error {
			clk.advance(iteratorLifetime + time.Second)
			_, err := sc.GetRecords(c, &dynamodbstreams.GetRecordsInput{ShardIterator: old.ShardIterator})
			return err
		}},
		{"trimmed position", "TrimmedDataAccessException: The data you are trying to access has been trimmed", func() error {
			clk.advance(streamRetention)
			_, err := sc.GetShardIterator(c, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shard.ShardId,
				ShardIteratorType: stypes.ShardIteratorTypeAtSequenceNumber, SequenceNumber: second})
			return err
		}},
	}
	for _, r := range refusals {
		if got := errorText(r.call()); got != r.want {
			t.Errorf("%s:\n got: %s\nwant: %s", r.name, got, r.want)
		}
	}
	// After 24 hours TRIM_HORIZON starts past the trimmed records.
	if recs := readAll(t, sc, arn, stypes.ShardIteratorTypeTrimHorizon, 100); len(recs) != 0 {
		t.Errorf("TRIM_HORIZON after 24 hours read %d records", len(recs))
	}

	// Disabling the stream ends its shard; a consumer reading to the end gets no
	// next iterator. Enabling it again makes a new stream with a new label.
	put("4")
	if _, err := st.db.UpdateTable(c, &dynamodb.UpdateTableInput{TableName: aws.String("things"), StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(false)}}); err != nil {
		t.Fatal(err)
	}
	d2, err := sc.DescribeStream(c, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil || d2.StreamDescription.StreamStatus != stypes.StreamStatusDisabled || d2.StreamDescription.Shards[0].SequenceNumberRange.EndingSequenceNumber == nil {
		t.Fatalf("disabled stream: %+v %v", d2, err)
	}
	it, err := sc.GetShardIterator(c, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shard.ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	if err != nil {
		t.Fatal(err)
	}
	page, err := sc.GetRecords(c, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator})
	if err != nil || len(page.Records) != 1 || page.NextShardIterator != nil {
		t.Fatalf("the closed shard to its end: %d records, next %v, %v", len(page.Records), page.NextShardIterator, err)
	}
	clk.advance(time.Second)
	upd, err := st.db.UpdateTable(c, &dynamodb.UpdateTableInput{TableName: aws.String("things"),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage}})
	if err != nil || aws.ToString(upd.TableDescription.LatestStreamArn) == arn {
		t.Fatalf("re-enabled stream: %v %v", upd, err)
	}
	// A deleted table's stream stays readable for 24 hours, then is gone.
	if _, err := st.db.DeleteTable(c, &dynamodb.DeleteTableInput{TableName: aws.String("others")}); err != nil {
		t.Fatal(err)
	}
	if d, err := sc.DescribeStream(c, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(other)}); err != nil || d.StreamDescription.StreamStatus != stypes.StreamStatusDisabled {
		t.Fatalf("a deleted table's stream: %v %v", d, err)
	}
	clk.advance(streamRetention + time.Second)
	var nf *stypes.ResourceNotFoundException
	if _, err := sc.DescribeStream(c, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(other)}); !errors.As(err, &nf) {
		t.Fatalf("a deleted table's stream after 24 hours: %v", err)
	}
}

// TestStreamOfTTLDeletions: an item TTL expires is a REMOVE made by the service
// (time-to-live-ttl-streams.html: userIdentity Type "Service", PrincipalId
// "dynamodb.amazonaws.com").
func TestStreamOfTTLDeletions(t *testing.T) {
	clk := &clock{now: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
	st := start(t, Options{Now: clk.Now})
	c := ctx(t)
	arn := streamTable(t, st, "sessions", types.StreamViewTypeOldImage)
	if _, err := st.db.UpdateTimeToLive(c, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("sessions"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{Enabled: aws.Bool(true), AttributeName: aws.String("exp")}}); err != nil {
		t.Fatal(err)
	}
	exp := fmt.Sprint(clk.Now().Unix() + 60)
	if _, err := st.db.PutItem(c, &dynamodb.PutItemInput{TableName: aws.String("sessions"), Item: map[string]types.AttributeValue{"PK": av("s1"), "exp": avN(exp)}}); err != nil {
		t.Fatal(err)
	}
	clk.advance(2 * time.Minute)
	if n := st.srv.ExpireNow(); n != 1 {
		t.Fatalf("ExpireNow deleted %d", n)
	}
	recs := readAll(t, st.streams(), arn, stypes.ShardIteratorTypeTrimHorizon, 100)
	if len(recs) != 2 || recs[0].UserIdentity != nil {
		t.Fatalf("records %+v", recs)
	}
	r := recs[1]
	if r.EventName != stypes.OperationTypeRemove || r.UserIdentity == nil || aws.ToString(r.UserIdentity.Type) != "Service" ||
		aws.ToString(r.UserIdentity.PrincipalId) != "dynamodb.amazonaws.com" || sv(r.Dynamodb.OldImage, "PK") != "s1" {
		t.Fatalf("TTL deletion record: %+v identity %+v", r, r.UserIdentity)
	}
}

// TestStreamConsumerSeesARunInOrder: a consumer polling the stream while writers
// run sees every write once, each item's changes in the order they were made, and
// sequence numbers increasing, as a Lambda-style poller relies on.
func TestStreamConsumerSeesARunInOrder(t *testing.T) {
	st := start(t, Options{})
	sc := st.streams()
	c := ctx(t)
	arn := streamTable(t, st, "counters", types.StreamViewTypeNewImage)
	const writers, updates = 4, 25
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range updates {
				if _, err := st.db.PutItem(c, &dynamodb.PutItemInput{TableName: aws.String("counters"),
					Item: map[string]types.AttributeValue{"PK": av(fmt.Sprint("w", w)), "n": avN(fmt.Sprint(i))}}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	// A record can reach the stream before its PutItem's answer reaches the writer:
	// the test waits for every writer before it returns and cancels their context.
	defer wg.Wait()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	desc, err := sc.DescribeStream(c, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	it, err := sc.GetShardIterator(c, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
		ShardId: desc.StreamDescription.Shards[0].ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	if err != nil {
		t.Fatal(err)
	}
	iter, last := it.ShardIterator, ""
	next := map[string]int{}
	seen := 0
	finished := false
	for seen < writers*updates {
		page, err := sc.GetRecords(c, &dynamodbstreams.GetRecordsInput{ShardIterator: iter, Limit: aws.Int32(7)})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range page.Records {
			seq := aws.ToString(r.Dynamodb.SequenceNumber)
			if seq <= last {
				t.Fatalf("sequence number %s after %s", seq, last)
			}
			last = seq
			pk := sv(r.Dynamodb.Keys, "PK")
			n := r.Dynamodb.NewImage["n"].(*stypes.AttributeValueMemberN).Value
			if n != fmt.Sprint(next[pk]) {
				t.Fatalf("%s: n=%s, want %d next", pk, n, next[pk])
			}
			next[pk]++
			seen++
		}
		iter = page.NextShardIterator
		if len(page.Records) == 0 {
			if finished {
				break
			}
			select {
			case <-done:
				finished = true
			case <-time.After(5 * time.Millisecond):
			}
		}
	}
	if seen != writers*updates {
		t.Fatalf("the consumer saw %d records, want %d", seen, writers*updates)
	}
}

// TestDesignStream: a design's `stream:` is served from the start, and is what
// stwb deploy's CreateTable asks for (live.CreateTableInput), so the deployed
// table has the stream too.
func TestDesignStream(t *testing.T) {
	d := sample(t, "orders")
	d.Table.Stream = model.StreamNewImage
	st := start(t, Options{}, d)
	c := ctx(t)
	desc, err := st.db.DescribeTable(c, &dynamodb.DescribeTableInput{TableName: aws.String(d.Table.Name)})
	if err != nil {
		t.Fatal(err)
	}
	ss := desc.Table.StreamSpecification
	if ss == nil || !aws.ToBool(ss.StreamEnabled) || ss.StreamViewType != types.StreamViewTypeNewImage || desc.Table.LatestStreamArn == nil {
		t.Fatalf("the design's table: %+v %v", ss, desc.Table.LatestStreamArn)
	}
	if _, err := st.db.PutItem(c, &dynamodb.PutItemInput{TableName: aws.String(d.Table.Name),
		Item: map[string]types.AttributeValue{"PK": av("NEW#1"), "SK": av("x")}}); err != nil {
		t.Fatal(err)
	}
	recs := readAll(t, st.streams(), *desc.Table.LatestStreamArn, stypes.ShardIteratorTypeTrimHorizon, 100)
	if len(recs) != 1 || recs[0].EventName != stypes.OperationTypeInsert || sv(recs[0].Dynamodb.NewImage, "PK") != "NEW#1" {
		t.Fatalf("the design's stream: %+v", recs)
	}
	deployed, err := st.db.CreateTable(c, live.CreateTableInput("deployed", d.Table))
	if err != nil {
		t.Fatal(err)
	}
	if ss := deployed.TableDescription.StreamSpecification; ss == nil || ss.StreamViewType != types.StreamViewTypeNewImage {
		t.Fatalf("deploy's CreateTable: stream %+v", ss)
	}
}
