package expr

// TEMPORARY: signatures only, so that the engine compiles while expr is written.
// The expr implementation replaces this whole file.

import "stwb/model"

// CompileKeyCondition parses a KeyConditionExpression and checks it against the
// key schema of the table or index queried.
func CompileKeyCondition(src string, ctx *Context, schema KeySchema) (*KeyCondition, error) {
	panic("expr not written yet")
}

// MatchSort reports whether a sort key value satisfies the sort key condition
// (true when there is none).
func (k *KeyCondition) MatchSort(v model.Value) bool { panic("expr not written yet") }

// Condition is a compiled FilterExpression or ConditionExpression.
type Condition struct{}

// CompileCondition parses a FilterExpression or ConditionExpression.
func CompileCondition(src string, ctx *Context) (*Condition, error) {
	panic("expr not written yet")
}

// Eval evaluates the condition on an item; item is nil when there is no item.
func (c *Condition) Eval(item model.Item) bool { panic("expr not written yet") }

// Attributes lists the top-level attribute names the condition reads.
func (c *Condition) Attributes() []string { panic("expr not written yet") }

// Projection is a compiled ProjectionExpression.
type Projection struct{}

// CompileProjection parses a ProjectionExpression.
func CompileProjection(src string, ctx *Context) (*Projection, error) {
	panic("expr not written yet")
}

// Apply returns a new item holding only the projected paths.
func (p *Projection) Apply(item model.Item) model.Item { panic("expr not written yet") }

// Attributes lists the top-level attribute names the projection names.
func (p *Projection) Attributes() []string { panic("expr not written yet") }

// Update is a compiled UpdateExpression.
type Update struct{}

// CompileUpdate parses an UpdateExpression.
func CompileUpdate(src string, ctx *Context) (*Update, error) { panic("expr not written yet") }

// Apply returns the updated copy of item (nil item: the update creates one); item
// itself is never changed. Errors are ValidationExceptions found at run time.
func (u *Update) Apply(item model.Item) (model.Item, error) { panic("expr not written yet") }

// Attributes lists the top-level attribute names the update sets, removes, adds
// to or deletes from.
func (u *Update) Attributes() []string { panic("expr not written yet") }

// CheckUnused reports a name or value of the context that no compiled expression
// used, with DynamoDB's message.
func (c *Context) CheckUnused() error { panic("expr not written yet") }
