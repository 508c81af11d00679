package live

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"stwb/model"
)

// batchSize is BatchWriteItem's limit of 25 put or delete requests (API_BatchWriteItem.html).
const batchSize = 25

// LoadOptions tune LoadItems. The zero value is a sensible default.
type LoadOptions struct {
	// Workers is how many BatchWriteItem requests are in flight at once (default 4).
	Workers int
	// MaxAttempts bounds the tries of one batch, counting the first (default 12).
	// Each throttling answer or answer with UnprocessedItems uses one.
	MaxAttempts int
	// BaseDelay and MaxDelay shape the backoff: before try n (n >= 1) a batch waits
	// a random time in [0, min(MaxDelay, BaseDelay * 2^(n-1))), the "full jitter"
	// backoff the DynamoDB guide recommends for UnprocessedItems and throttling
	// (Programming.Errors.html "Error retries and exponential backoff").
	// Defaults: 50 ms and 5 s.
	BaseDelay, MaxDelay time.Duration
	// Progress, when set, is called after each batch with the items written so far
	// and the total. Calls come one at a time.
	Progress func(done, total int)
	// Sleep waits; tests replace it to record the delays. Default: a timer that
	// stops when ctx ends.
	Sleep func(ctx context.Context, d time.Duration) error
}

// LoadStats says what loading took.
type LoadStats struct {
	Items     int // items written
	Requests  int // BatchWriteItem requests sent, retries included
	Throttled int // requests answered with a throttling error
	Retried   int // items sent again because they came back unprocessed
}

// LoadItems writes items to the table with BatchWriteItem, 25 at a time, several
// batches in flight. Items that come back in UnprocessedItems are sent again, and a
// throttled request is repeated whole (a throttled BatchWriteItem wrote nothing),
// each after an exponential backoff with jitter; so every item is written, and none
// is written twice by a retry. Any other error stops the load and names the items
// of the failed batch by their index in items.
func LoadItems(ctx context.Context, db *dynamodb.Client, table string, items []model.Item, o LoadOptions) (LoadStats, error) {
	o = o.withDefaults()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type batch struct{ first, end int }
	batches := make(chan batch)
	var (
		mu       sync.Mutex
		stats    LoadStats
		firstErr error
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	var wg sync.WaitGroup
	for w := 0; w < o.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range batches {
				st, err := writeBatch(ctx, db, table, items[b.first:b.end], b.first, o)
				mu.Lock()
				stats.Requests += st.Requests
				stats.Throttled += st.Throttled
				stats.Retried += st.Retried
				if err == nil {
					stats.Items += b.end - b.first
					if o.Progress != nil {
						o.Progress(stats.Items, len(items))
					}
				}
				mu.Unlock()
				if err != nil {
					fail(err)
				}
			}
		}()
	}
feed:
	for first := 0; first < len(items); first += batchSize {
		select {
		case batches <- batch{first, min(first+batchSize, len(items))}:
		case <-ctx.Done():
			break feed
		}
	}
	close(batches)
	wg.Wait()
	if firstErr == nil && ctx.Err() != nil && stats.Items < len(items) {
		firstErr = ctx.Err()
	}
	return stats, firstErr
}

func (o LoadOptions) withDefaults() LoadOptions {
	if o.Workers <= 0 {
		o.Workers = 4
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 12
	}
	if o.BaseDelay <= 0 {
		o.BaseDelay = 50 * time.Millisecond
	}
	if o.MaxDelay <= 0 {
		o.MaxDelay = 5 * time.Second
	}
	if o.Sleep == nil {
		o.Sleep = Sleep
	}
	return o
}

// Sleep waits d, or returns ctx.Err() as soon as ctx ends.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// backoff is the wait before retry n (n >= 1): full jitter over an exponential cap.
func (o LoadOptions) backoff(n int) time.Duration {
	ceiling := o.MaxDelay
	if n-1 < 30 {
		ceiling = min(o.MaxDelay, o.BaseDelay<<(n-1))
	}
	return time.Duration(rand.Int64N(int64(ceiling) + 1))
}

// throttling names the error codes DynamoDB uses when a request exceeded capacity or
// a rate limit (Programming.Errors.html); such a request is retried after a backoff.
var throttling = map[string]bool{
	"ProvisionedThroughputExceededException": true,
	"ThrottlingException":                    true,
	"RequestLimitExceeded":                   true,
}

func writeBatch(ctx context.Context, db *dynamodb.Client, table string, items []model.Item, first int, o LoadOptions) (LoadStats, error) {
	var st LoadStats
	reqs := make([]types.WriteRequest, len(items))
	for i, it := range items {
		av, err := ToItem(it)
		if err != nil {
			return st, fmt.Errorf("item %d: %w", first+i, err)
		}
		reqs[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: av}}
	}
	for attempt := 1; ; attempt++ {
		out, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
			RequestItems: map[string][]types.WriteRequest{table: reqs},
		}, func(opt *dynamodb.Options) {
			// One policy for retries, this one: the SDK's own retryer would wait up
			// to 20 s per try and hide the tries from the stats.
			opt.RetryMaxAttempts = 1
		})
		st.Requests++
		var api smithy.APIError
		switch {
		case err == nil:
			reqs = out.UnprocessedItems[table]
			if len(reqs) == 0 {
				return st, nil
			}
			st.Retried += len(reqs)
		case errors.As(err, &api) && throttling[api.ErrorCode()]:
			st.Throttled++
		default:
			return st, fmt.Errorf("BatchWriteItem of items %d..%d: %w", first, first+len(items)-1, err)
		}
		if attempt >= o.MaxAttempts {
			return st, fmt.Errorf("items %d..%d: still throttled or unprocessed after %d tries; "+
				"raise the table's write capacity or run again (rewriting an item is harmless)",
				first, first+len(items)-1, attempt)
		}
		if err := o.Sleep(ctx, o.backoff(attempt)); err != nil {
			return st, err
		}
	}
}

// countItems counts a table's items with a Select COUNT scan, following pages (at
// most maxPagesCounted: an endpoint that answers empty pages with a LastEvaluatedKey
// forever must not keep deploy looping).
func countItems(ctx context.Context, db *dynamodb.Client, table string, stopAt int) (int, error) {
	n := 0
	var start map[string]types.AttributeValue
	for page := 0; ; page++ {
		if page == maxPagesCounted {
			return n, fmt.Errorf("a Scan of table %s still has a LastEvaluatedKey after %d pages (%d items counted); "+
				"is the endpoint DynamoDB?", table, maxPagesCounted, n)
		}
		out, err := db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(table), Select: types.SelectCount,
			ExclusiveStartKey: start})
		if err != nil {
			return n, err
		}
		n += int(out.Count)
		if len(out.LastEvaluatedKey) == 0 || (stopAt > 0 && n >= stopAt) {
			return n, nil
		}
		start = out.LastEvaluatedKey
	}
}
