// Package partiql reads the PartiQL statements DynamoDB accepts (ExecuteStatement,
// BatchExecuteStatement, ExecuteTransaction and a design's PartiQL patterns) into
// small trees: SELECT, INSERT, UPDATE and DELETE, with DynamoDB's errors and
// wording for a statement it does not accept (ql-reference.html and the pages of
// each statement; the messages are DynamoDB's, from its answers). It only parses:
// which operation a statement is, and running it, are the engine's
// (engine/statement.go). Imports model. Stateless; a parsed Statement is a value.
package partiql

import (
	"fmt"
	"strings"

	"stwb/model"
)

// ValidationException is the error type of every error this package returns.
const ValidationException = "ValidationException"

// Error is a statement DynamoDB refuses: its type and DynamoDB's message.
type Error struct {
	Type    string
	Message string
}

func (e *Error) Error() string { return e.Type + ": " + e.Message }

func validation(format string, args ...any) *Error {
	return &Error{Type: ValidationException, Message: fmt.Sprintf(format, args...)}
}

// notWellFormed is DynamoDB's envelope for a statement its parser cannot read.
func notWellFormed(detail string) *Error {
	return validation("Statement wasn't well formed, can't be processed: %s", detail)
}

// Kind is what a statement does.
type Kind uint8

const (
	Select Kind = iota + 1
	Insert
	Update
	Delete
	Exists // EXISTS(SELECT ...): ExecuteTransaction's condition check
)

func (k Kind) String() string {
	switch k {
	case Select:
		return "SELECT"
	case Insert:
		return "INSERT"
	case Update:
		return "UPDATE"
	case Delete:
		return "DELETE"
	case Exists:
		return "EXISTS"
	}
	return "?"
}

// Statement is one parsed PartiQL statement.
type Statement struct {
	Kind  Kind
	Table string
	Index string // SELECT ... FROM "table"."index"; "" for the table

	// SELECT: Star, or the projected paths in order.
	Star       bool
	Projection []Path
	OrderBy    []Order

	// Where is the WHERE clause's condition; nil when there is none.
	Where Expr

	// INSERT: the item, a tuple ({'pk': 'a', ...}).
	Value Expr

	// UPDATE: its SET and REMOVE actions in the order written.
	Actions []Action

	// Returning is UPDATE's or DELETE's RETURNING clause: "ALL OLD", "MODIFIED OLD",
	// "ALL NEW", "MODIFIED NEW", or "".
	Returning string

	// Src is the statement's text, for the positions messages name (At).
	Src string
	// TablePos and TableLen are where the table's name is in Src (OnTable).
	TablePos, TableLen int

	// Params is the number of ? placeholders, which the request's Parameters must
	// match.
	Params int
}

// Order is one key of ORDER BY.
type Order struct {
	Name string
	Desc bool
}

// Action is one SET (Path = Value) or REMOVE (Path, Value nil) of an UPDATE.
type Action struct {
	Path  Path
	Value Expr // nil for REMOVE
}

// PathElem is one step of a document path (model's, shared with expressions).
type PathElem = model.PathElem

// Path is a document path such as a.b[2].c.
type Path = model.Path

// Expr is a node of a condition or a value: *Binary, *Not, *PathExpr, *Literal,
// *Param, *Call, *Between, *In, *Is, *Tuple, *ListExpr or *Bag.
type Expr interface{ pos() int }

// Binary is a binary operator: AND, OR, = <> < <= > >=, + or -.
type Binary struct {
	Op   string
	L, R Expr
	At   int
}

// Not is NOT X.
type Not struct {
	X  Expr
	At int
}

// PathExpr is a document path used as an operand.
type PathExpr struct {
	Path Path
	At   int
}

// Literal is a scalar literal: a string, number, boolean or NULL; Missing marks
// the literal MISSING (no value).
type Literal struct {
	Value   model.Value
	Missing bool
	At      int
}

// Param is the N-th ? placeholder (from 0).
type Param struct {
	N  int
	At int
}

// Call is a function call; Name is as written, At and Len its place.
type Call struct {
	Name string
	Args []Expr
	At   int
	Len  int
}

// Between is X [NOT] BETWEEN Lo AND Hi.
type Between struct {
	X, Lo, Hi Expr
	Not       bool
	At        int
}

// In is X [NOT] IN [list].
type In struct {
	X    Expr
	List []Expr
	Not  bool
	At   int
}

// Is is X IS [NOT] Type, Type one of MISSING, NULL, BOOLEAN, STRING, NUMERIC,
// BLOB, STRUCT, TUPLE, LIST.
type Is struct {
	X    Expr
	Type string
	Not  bool
	At   int
}

// Tuple is a struct literal {'k': v, ...}: a map.
type Tuple struct {
	Keys   []string
	Values []Expr
	At     int
}

// ListExpr is a list literal [a, b].
type ListExpr struct {
	Elems []Expr
	At    int
}

// Bag is a bag literal <<a, b>>: a string, number or binary set.
type Bag struct {
	Elems []Expr
	At    int
}

func (e *Binary) pos() int   { return e.At }
func (e *Not) pos() int      { return e.At }
func (e *PathExpr) pos() int { return e.At }
func (e *Literal) pos() int  { return e.At }
func (e *Param) pos() int    { return e.At }
func (e *Call) pos() int     { return e.At }
func (e *Between) pos() int  { return e.At }
func (e *In) pos() int       { return e.At }
func (e *Is) pos() int       { return e.At }
func (e *Tuple) pos() int    { return e.At }
func (e *ListExpr) pos() int { return e.At }
func (e *Bag) pos() int      { return e.At }

// OnTable is the statement's text with its table named name instead: stwb
// verify sends a design's statement to the table it deployed, whatever that
// table is called.
func (st *Statement) OnTable(name string) string {
	return st.Src[:st.TablePos] + `"` + strings.ReplaceAll(name, `"`, `""`) + `"` + st.Src[st.TablePos+st.TableLen:]
}

// MaxStatementBytes is the longest statement DynamoDB takes
// (API_ExecuteStatement.html "Statement": length 1 to 8192).
const MaxStatementBytes = 8192
