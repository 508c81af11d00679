package live

// A live table as the source of a design (issue 16, `stwb import --endpoint`):
// DescribeTable gives the key schema, attribute types, indexes with their
// projections, billing, capacity and class; DescribeTimeToLive the TTL attribute;
// a bounded parallel Scan a sample of the items. Never the whole table unless the
// caller asks (n <= 0), since every page read is billed.

import (
	"context"
	"fmt"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"stwb/model"
)

// TableSource is what DescribeTable says of a table beyond the design's table.
type TableSource struct {
	Table     model.Table
	ItemCount int64 // DynamoDB's estimate, updated about every six hours
	SizeBytes int64
	// Notes name what the table has and the design cannot hold (TTL, streams).
	Notes []string
}

// DescribeTableSource reads a table's description (and TTL) as a design's table.
func DescribeTableSource(ctx context.Context, db *dynamodb.Client, name string) (*TableSource, error) {
	out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		return nil, err
	}
	if out.Table == nil {
		return nil, fmt.Errorf("DescribeTable %s answered without a table", name)
	}
	src := TableFromDescription(out.Table)
	ttl, err := db.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(name)})
	if err == nil && ttl.TimeToLiveDescription != nil && ttl.TimeToLiveDescription.TimeToLiveStatus == types.TimeToLiveStatusEnabled {
		src.Notes = append(src.Notes, fmt.Sprintf("time to live on attribute %s has no place in a design and is left out", aws.ToString(ttl.TimeToLiveDescription.AttributeName)))
	}
	return src, nil
}

// TableFromDescription is DescribeTable's TableDescription as a design's table
// (API_TableDescription.html): KeySchema and AttributeDefinitions give the keys and
// their types, GlobalSecondaryIndexes and LocalSecondaryIndexes the indexes and
// projections, BillingModeSummary (absent on a table that was always provisioned)
// and ProvisionedThroughput the billing, TableClassSummary the class.
func TableFromDescription(td *types.TableDescription) *TableSource {
	t := model.Table{Name: aws.ToString(td.TableName), Attributes: map[string]model.Type{}, TypeAttribute: "type", Class: model.ClassStandard}
	for _, a := range td.AttributeDefinitions {
		if ty, ok := model.ParseType(string(a.AttributeType)); ok {
			t.Attributes[aws.ToString(a.AttributeName)] = ty
		}
	}
	t.Key = keySchemaOf(td.KeySchema)
	provisioned := td.BillingModeSummary == nil || td.BillingModeSummary.BillingMode != types.BillingModePayPerRequest
	if pt := td.ProvisionedThroughput; provisioned && pt != nil && aws.ToInt64(pt.ReadCapacityUnits) > 0 {
		t.Billing = model.Billing{Mode: model.Provisioned, Read: aws.ToInt64(pt.ReadCapacityUnits), Write: aws.ToInt64(pt.WriteCapacityUnits)}
	} else {
		t.Billing = model.Billing{Mode: model.OnDemand}
	}
	if td.TableClassSummary != nil && td.TableClassSummary.TableClass == types.TableClassStandardInfrequentAccess {
		t.Class = model.ClassStandardIA
	}
	if ss := td.StreamSpecification; ss != nil && aws.ToBool(ss.StreamEnabled) {
		for _, v := range model.StreamViews {
			if v.ViewType() == string(ss.StreamViewType) {
				t.Stream = v
			}
		}
	}
	for _, g := range td.GlobalSecondaryIndexes {
		ix := model.Index{Name: aws.ToString(g.IndexName), Key: keySchemaOf(g.KeySchema), Projection: projectionOf(g.Projection)}
		if pt := g.ProvisionedThroughput; t.Billing.Mode == model.Provisioned && pt != nil {
			if r, w := aws.ToInt64(pt.ReadCapacityUnits), aws.ToInt64(pt.WriteCapacityUnits); r != t.Billing.Read || w != t.Billing.Write {
				ix.Read, ix.Write = r, w
			}
		}
		t.Indexes = append(t.Indexes, ix)
	}
	for _, l := range td.LocalSecondaryIndexes {
		t.Indexes = append(t.Indexes, model.Index{Name: aws.ToString(l.IndexName), Local: true, Key: keySchemaOf(l.KeySchema), Projection: projectionOf(l.Projection)})
	}
	src := &TableSource{Table: t, ItemCount: aws.ToInt64(td.ItemCount), SizeBytes: aws.ToInt64(td.TableSizeBytes)}
	if s := td.StreamSpecification; s != nil && aws.ToBool(s.StreamEnabled) {
		src.Notes = append(src.Notes, fmt.Sprintf("the table's stream (%s) has no place in a design and is left out", s.StreamViewType))
	}
	return src
}

// keySchemaOf reads a KeySchema: its HASH elements, in order, are the partition
// key's attributes and its RANGE elements the sort key's (several of each for a
// multi-attribute GSI key).
func keySchemaOf(ks []types.KeySchemaElement) model.KeySchema {
	var parts, sorts []string
	for _, e := range ks {
		if e.KeyType == types.KeyTypeHash {
			parts = append(parts, aws.ToString(e.AttributeName))
		} else {
			sorts = append(sorts, aws.ToString(e.AttributeName))
		}
	}
	return model.NewKeySchema(parts, sorts)
}

func projectionOf(p *types.Projection) model.Projection {
	if p == nil {
		return model.Projection{Type: model.ProjectAll}
	}
	switch p.ProjectionType {
	case types.ProjectionTypeKeysOnly:
		return model.Projection{Type: model.ProjectKeysOnly}
	case types.ProjectionTypeInclude:
		return model.Projection{Type: model.ProjectInclude, Include: append([]string(nil), p.NonKeyAttributes...)}
	}
	return model.Projection{Type: model.ProjectAll}
}

// SampleStats says what a sample read.
type SampleStats struct {
	Requests     int
	Scanned      int     // items the Scan pages held (all are returned: no filter)
	CapacityUsed float64 // read units the endpoint reported consuming (0 when it reports none)
}

// SampleOptions bound a sample Scan.
type SampleOptions struct {
	Items    int   // stop after this many items; <= 0 reads the whole table
	Segments int   // parallel Scan segments (default 4)
	PageSize int32 // Limit of each Scan request (default 100)
}

// SampleItems reads up to o.Items items of a table with a parallel Scan: o.Segments
// segments (Scan's Segment/TotalSegments, API_Scan.html "Parallel scan") each read
// pages of at most o.PageSize items until the sample is full or the segment ends.
// Every request asks for eventually consistent reads, the cheaper kind, and its
// consumed capacity. A sample of n items reads at most n + Segments*PageSize.
func SampleItems(ctx context.Context, db *dynamodb.Client, table string, o SampleOptions) ([]model.Item, SampleStats, error) {
	segments := max(o.Segments, 1)
	if o.Segments == 0 {
		segments = 4
	}
	page := o.PageSize
	if page <= 0 {
		page = 100
	}
	if o.Items > 0 && int(page) > o.Items {
		page = int32(o.Items)
	}
	var (
		mu    sync.Mutex
		items []model.Item
		stats SampleStats
		first error
		wg    sync.WaitGroup
	)
	full := func() bool { return o.Items > 0 && len(items) >= o.Items }
	for seg := 0; seg < segments; seg++ {
		wg.Add(1)
		go func(seg int32) {
			defer wg.Done()
			var start map[string]types.AttributeValue
			for {
				mu.Lock()
				stop := full() || first != nil
				mu.Unlock()
				if stop || ctx.Err() != nil {
					return
				}
				out, err := db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(table), Limit: aws.Int32(page),
					Segment: aws.Int32(seg), TotalSegments: aws.Int32(int32(segments)), ExclusiveStartKey: start,
					ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
				mu.Lock()
				if err != nil {
					if first == nil {
						first = err
					}
					mu.Unlock()
					return
				}
				stats.Requests++
				stats.Scanned += len(out.Items)
				if out.ConsumedCapacity != nil {
					stats.CapacityUsed += aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)
				}
				for _, av := range out.Items {
					if full() {
						break
					}
					it, err := FromItem(av)
					if err != nil {
						if first == nil {
							first = fmt.Errorf("an item the Scan returned does not convert: %w", err)
						}
						break
					}
					items = append(items, it)
				}
				mu.Unlock()
				if len(out.LastEvaluatedKey) == 0 {
					return
				}
				start = out.LastEvaluatedKey
			}
		}(int32(seg))
	}
	wg.Wait()
	if first == nil && ctx.Err() != nil {
		first = ctx.Err()
	}
	if first != nil {
		return nil, stats, first
	}
	return items, stats, nil
}

// SampleReadUnits estimates what reading n items of the table costs in read
// units: eventually consistent reads cost half a unit per 4 KB
// (ProvisionedThroughput.html "Read capacity units"), and a Scan page is sized as
// a whole, so n items of the table's average size (SizeBytes / ItemCount, 1 KB
// when the table reports none) cost n*avg/4096/2 units, plus half a unit per page.
func SampleReadUnits(src *TableSource, n int, pages int) float64 {
	avg := 1024.0
	if src.ItemCount > 0 && src.SizeBytes > 0 {
		avg = float64(src.SizeBytes) / float64(src.ItemCount)
	}
	return float64(n)*avg/4096/2 + 0.5*float64(pages)
}
