package live

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"stwb/engine"
	"stwb/model"
)

// TagKey is the tag deploy puts on a table, with the design's name as value, so that
// teardown deletes only a table stwb made for that design.
const TagKey = "stwb:design"

// TableTimeout bounds waiting for a table to become ACTIVE or to go away.
const TableTimeout = 10 * time.Minute

// ErrNotEmpty is returned by Deploy for an existing table that holds items when
// Replace is not set: nothing is deleted without being asked.
var ErrNotEmpty = errors.New("table exists and is not empty")

// TableName is the table a design deploys to: the name given, else the design's.
func TableName(d *model.Design, override string) string {
	if override != "" {
		return override
	}
	return d.Table.Name
}

// TagValue is the tag value for a design: its name, with characters that AWS tag
// values do not allow (anything but letters, digits, spaces and _.:/=+-@) replaced by
// '-', and at most 256 characters (Tagging.html "Tagging restrictions").
func TagValue(d *model.Design) string {
	name := d.Name
	if name == "" {
		name = d.Table.Name
	}
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune(" _.:/=+-@", r):
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	s := b.String()
	if len(s) > 256 {
		s = s[:256]
	}
	return s
}

// Plan describes what Deploy will do, for the user to confirm: the table, its key,
// its indexes, the number of items, and, on AWS, that it costs money.
func Plan(d *model.Design, table, endpoint string) string {
	var b strings.Builder
	where := endpoint
	if where == "" {
		where = "AWS (the region the credentials resolve to)"
	}
	fmt.Fprintf(&b, "Deploy design %q to %s\n", d.Name, where)
	fmt.Fprintf(&b, "  table   %s  key %s\n", table, keyText(d.Table.Key))
	billing := "on-demand"
	if d.Table.Billing.Mode == model.Provisioned {
		billing = fmt.Sprintf("provisioned %d RCU / %d WCU", max(d.Table.Billing.Read, 1), max(d.Table.Billing.Write, 1))
	}
	fmt.Fprintf(&b, "  billing %s\n", billing)
	for _, ix := range d.Table.Indexes {
		kind := "GSI"
		ks := ix.Key
		if ix.Local {
			kind = "LSI"
			ks.Partition = d.Table.Key.Partition
		}
		proj := string(ix.Projection.Type)
		if ix.Projection.Type == model.ProjectInclude {
			proj += " " + strings.Join(ix.Projection.Include, ",")
		}
		fmt.Fprintf(&b, "  %s     %s  key %s  projection %s\n", kind, ix.Name, keyText(ks), proj)
	}
	fmt.Fprintf(&b, "  items   %d, written with BatchWriteItem, 25 a request\n", len(d.Items))
	fmt.Fprintf(&b, "  tag     %s=%s\n", TagKey, TagValue(d))
	if IsAWS(endpoint) {
		b.WriteString("  cost    this is AWS: the table, its writes and its storage are billed to the account\n" +
			"          until `stwb teardown` deletes it\n")
	}
	return b.String()
}

func keyText(ks model.KeySchema) string {
	side := func(names []string) string {
		if len(names) == 1 {
			return names[0]
		}
		return "(" + strings.Join(names, ", ") + ")"
	}
	if ks.Sort == "" {
		return side(ks.Partitions())
	}
	return side(ks.Partitions()) + " / " + side(ks.Sorts())
}

// DeployOptions tune Deploy.
type DeployOptions struct {
	Table   string    // table name; "" for the design's
	Replace bool      // delete and recreate a table that exists
	Log     io.Writer // progress lines; nil for none
	Load    LoadOptions
}

// DeployReport says what Deploy did.
type DeployReport struct {
	Table    string
	Created  bool // false when an existing empty table was reused
	Replaced bool
	Load     LoadStats
	Elapsed  time.Duration // of loading the items
}

// ItemsPerSecond is the loading rate.
func (r *DeployReport) ItemsPerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Load.Items) / r.Elapsed.Seconds()
}

// Deploy creates the design's table with its indexes, tagged as the design's, waits
// until it is ACTIVE, and loads the design's items. An existing table is touched only
// when it carries this design's tag (TagKey=TagValue(d)): any other table, whoever
// made it and whatever it holds, is refused (ErrNotOwned) and left as it is, with or
// without Replace. An owned table that holds items is left alone (ErrNotEmpty) unless
// Replace is set, then it is deleted and created anew; an owned empty one with the
// design's key is reused.
func Deploy(ctx context.Context, db *dynamodb.Client, d *model.Design, o DeployOptions) (*DeployReport, error) {
	logw := o.Log
	if logw == nil {
		logw = io.Discard
	}
	name := TableName(d, o.Table)
	if err := checkDeployable(d); err != nil {
		return nil, err
	}
	rep := &DeployReport{Table: name}
	existing, err := describe(ctx, db, name)
	if err != nil {
		return nil, err
	}
	if existing != nil {
		if err := checkOwned(ctx, db, d, name, existing, "deploy into"); err != nil {
			return nil, err
		}
		n, err := countItems(ctx, db, name, 1)
		if err != nil {
			return nil, fmt.Errorf("counting the items of existing table %s: %w", name, err)
		}
		switch {
		case o.Replace:
			fmt.Fprintf(logw, "deleting existing table %s (--replace)\n", name)
			if _, err := db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)}); err != nil {
				return nil, fmt.Errorf("deleting table %s: %w", name, err)
			}
			if err := WaitGone(ctx, db, name, TableTimeout); err != nil {
				return nil, err
			}
			existing, rep.Replaced = nil, true
		case n > 0:
			return nil, fmt.Errorf("%w: %s already holds items; pass --replace to delete and recreate it, or --table to deploy beside it", ErrNotEmpty, name)
		default:
			if err := sameKey(existing, d.Table); err != nil {
				return nil, fmt.Errorf("existing empty table %s: %v; pass --replace to recreate it", name, err)
			}
			fmt.Fprintf(logw, "reusing existing empty table %s\n", name)
		}
	}
	tag := []types.Tag{{Key: aws.String(TagKey), Value: aws.String(TagValue(d))}}
	if existing == nil {
		fmt.Fprintf(logw, "creating table %s\n", name)
		in := CreateTableInput(name, d.Table)
		// Tagged as it is created, so that no moment exists in which stwb's table is
		// untagged (and so no longer stwb's to replace or tear down).
		in.Tags = tag
		if _, err := db.CreateTable(ctx, in); err != nil {
			return nil, fmt.Errorf("creating table %s: %w", name, err)
		}
		rep.Created = true
	}
	desc, err := WaitActive(ctx, db, name, TableTimeout)
	if err != nil {
		return nil, err
	}
	if rep.Created {
		// Again after creation, for an endpoint that ignores CreateTable's Tags
		// (dynalite); the same tag twice is one tag.
		if desc.TableArn == nil {
			return nil, fmt.Errorf("table %s has no TableArn in DescribeTable's answer, so it cannot be tagged; is the endpoint DynamoDB?", name)
		}
		if _, err := db.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: desc.TableArn, Tags: tag}); err != nil {
			return nil, fmt.Errorf("tagging table %s: %w", name, err)
		}
	}
	if err := enableTTL(ctx, db, name, d.Table.TTL, logw); err != nil {
		return nil, err
	}
	lo := o.Load
	if lo.Progress == nil {
		lo.Progress = progressPrinter(logw, len(d.Items))
	}
	start := time.Now()
	rep.Load, err = LoadItems(ctx, db, name, d.Items, lo)
	rep.Elapsed = time.Since(start)
	if err != nil {
		return rep, fmt.Errorf("loading items into %s: %w", name, err)
	}
	fmt.Fprintf(logw, "loaded %d items in %.1fs (%.0f items/s, %d requests, %d throttled, %d items retried)\n",
		rep.Load.Items, rep.Elapsed.Seconds(), rep.ItemsPerSecond(), rep.Load.Requests, rep.Load.Throttled, rep.Load.Retried)
	return rep, nil
}

// progressPrinter prints a line at every tenth of the items, not one per batch: a
// 100,000-item design would otherwise print 4,000 lines.
func progressPrinter(w io.Writer, total int) func(done, total int) {
	next := 0
	return func(done, _ int) {
		if done >= next || done == total {
			fmt.Fprintf(w, "  %d/%d items\n", done, total)
			next = done + max(total/10, 1)
		}
	}
}

// describe returns the table's description, nil when it does not exist.
func describe(ctx context.Context, db *dynamodb.Client, name string) (*types.TableDescription, error) {
	out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	var nf *types.ResourceNotFoundException
	if errors.As(err, &nf) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("describing table %s: %w", name, err)
	}
	if out.Table == nil {
		return nil, errNoTableDescription(name)
	}
	return out.Table, nil
}

// tagsOf reads every tag of a table, following ListTagsOfResource's NextToken
// (API_ListTagsOfResource.html), at most maxTagPages pages.
func tagsOf(ctx context.Context, db *dynamodb.Client, name string, desc *types.TableDescription) (map[string]string, error) {
	if desc.TableArn == nil {
		return nil, fmt.Errorf("table %s has no TableArn in DescribeTable's answer, so its tags cannot be read; is the endpoint DynamoDB?", name)
	}
	tags := map[string]string{}
	var next *string
	for page := 0; page < maxTagPages; page++ {
		out, err := db.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: desc.TableArn, NextToken: next})
		if err != nil {
			return nil, fmt.Errorf("reading the tags of table %s: %w", name, err)
		}
		for _, t := range out.Tags {
			tags[aws.ToString(t.Key)] = aws.ToString(t.Value)
		}
		if aws.ToString(out.NextToken) == "" {
			return tags, nil
		}
		next = out.NextToken
	}
	return nil, fmt.Errorf("reading the tags of table %s: still a NextToken after %d pages", name, maxTagPages)
}

// ErrNotOwned is returned by Deploy and Teardown for a table that does not carry
// the design's tag: stwb did not make it for this design, so it neither deletes,
// reuses nor writes into it.
var ErrNotOwned = errors.New("table is not this design's")

// checkOwned returns nil when the table carries this design's tag, else an
// ErrNotOwned naming the table, its tags and what to do. what is the refused act
// ("deploy into", "delete").
func checkOwned(ctx context.Context, db *dynamodb.Client, d *model.Design, name string, desc *types.TableDescription, what string) error {
	tags, err := tagsOf(ctx, db, name, desc)
	if err != nil {
		return err
	}
	want := TagValue(d)
	found, tagged := tags[TagKey]
	if tagged && found == want {
		return nil
	}
	why := "it has no " + TagKey + " tag, so stwb did not deploy it"
	if tagged {
		why = fmt.Sprintf("its %s tag is %q, not this design's %q", TagKey, model.CutValue(found), want)
	}
	return fmt.Errorf("%w: refusing to %s table %s: %s (its tags: %s); nothing was changed; "+
		"pass --table to use a table of another name", ErrNotOwned, what, model.CutValue(name), why, tagList(tags))
}

// tagList prints tags as k=v in key order, cut to a readable length.
func tagList(tags map[string]string) string {
	if len(tags) == 0 {
		return "none"
	}
	keys := slices.Sorted(maps.Keys(tags))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = model.CutText(k, 64) + "=" + model.CutText(tags[k], 64)
	}
	return model.CutText(strings.Join(parts, ", "), 1000)
}

// sameKey checks that an existing table has the design's primary key.
func sameKey(t *types.TableDescription, want model.Table) error {
	got := keySchemaOf(t.KeySchema)
	if !got.Equal(want.Key) {
		return fmt.Errorf("its key is %s, the design's is %s", keyText(got), keyText(want.Key))
	}
	return nil
}

// Teardown deletes the table, but only when it carries this design's tag
// (TagKey=TagValue(d)); any other table is refused, whoever made it.
func Teardown(ctx context.Context, db *dynamodb.Client, d *model.Design, table string) error {
	name := TableName(d, table)
	desc, err := describe(ctx, db, name)
	if err != nil {
		return err
	}
	if desc == nil {
		return fmt.Errorf("table %s does not exist; nothing to tear down", name)
	}
	if err := checkOwned(ctx, db, d, name, desc, "delete"); err != nil {
		return err
	}
	if _, err := db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)}); err != nil {
		return fmt.Errorf("deleting table %s: %w", name, err)
	}
	return WaitGone(ctx, db, name, TableTimeout)
}

// checkDeployable refuses, before any call, a design that DynamoDB would refuse
// to create or to load: a table over the index limits (CreateTable's
// ValidationException, engine.CheckCreateTable) or an item over 400 KB
// (BatchWriteItem's). The design opens and is checked with these as findings
// (review's too-many-indexes and item-too-large); a deploy would fail halfway,
// so it refuses at once and nothing is changed.
func checkDeployable(d *model.Design) error {
	if err := engine.CheckCreateTable(d.Table); err != nil {
		return fmt.Errorf("CreateTable would refuse the table: %w; nothing was changed (merge indexes until the table has at most %d GSIs and %d LSIs)",
			err, model.MaxGSIs, model.MaxLSIs)
	}
	for i, it := range d.Items {
		if size := model.ItemSize(it); !model.Stored(size) {
			return fmt.Errorf("item %d %s; nothing was changed (move its large attributes to S3 or split it)", i, engine.TooLarge(size))
		}
	}
	return nil
}

// enableTTL turns on the design's TTL (UpdateTimeToLive; CreateTable cannot), so
// that expired items are deleted as the design says (TTL.html); a table that has
// it on already on that attribute is left as it is.
func enableTTL(ctx context.Context, db *dynamodb.Client, name, attr string, logw io.Writer) error {
	if attr == "" {
		return nil
	}
	cur, err := db.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(name)})
	if err == nil && cur.TimeToLiveDescription != nil && aws.ToString(cur.TimeToLiveDescription.AttributeName) == attr &&
		(cur.TimeToLiveDescription.TimeToLiveStatus == types.TimeToLiveStatusEnabled || cur.TimeToLiveDescription.TimeToLiveStatus == types.TimeToLiveStatusEnabling) {
		return nil
	}
	if _, err := db.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(name),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String(attr), Enabled: aws.Bool(true)}}); err != nil {
		return fmt.Errorf("turning on TTL (attribute %s) on table %s: %w", attr, name, err)
	}
	fmt.Fprintf(logw, "TTL on: items expire by %s\n", attr)
	return nil
}
