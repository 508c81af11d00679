package verify

import (
	"fmt"
	"strconv"
	"strings"

	"stwb/dynamojson"
	"stwb/engine"
	"stwb/model"
)

// Mismatch is one way an endpoint's answer differs from the engine's prediction.
type Mismatch struct {
	// Field is what differs: "error", "items", "count", "scannedCount" or
	// "lastEvaluatedKey".
	Field     string `json:"field"`
	Predicted string `json:"predicted"`
	Got       string `json:"got"`
	// Detail says where, for items: the first position that differs.
	Detail string `json:"detail,omitempty"`
}

func (m Mismatch) String() string {
	s := fmt.Sprintf("%s: predicted %s, got %s", m.Field, m.Predicted, m.Got)
	if m.Detail != "" {
		s += " (" + m.Detail + ")"
	}
	return s
}

// CompareOptions say what in the order of items is not defined.
type CompareOptions struct {
	// TieKey names the attributes that order the answer: the queried index's
	// partition and sort key. DynamoDB returns items with equal index keys in no
	// defined order (GSI.html "Querying a Global Secondary Index"), so such runs are
	// compared as sets, and a LastEvaluatedKey only on these attributes. Nil for the
	// table, whose key is unique.
	TieKey []string
	// Unordered compares the items as a set: BatchGetItem's Responses come in no
	// particular order (API_BatchGetItem.html "Responses").
	Unordered bool
	// Statement compares an ExecuteStatement's answer, which carries its items and
	// a NextToken but no ScannedCount (API_ExecuteStatement.html "Response
	// Elements"): ScannedCount is left out.
	Statement bool
}

// Compare lists how got differs from pred on what a request returns: the error type
// (messages are worded differently by every emulator), the items and their order,
// Count, ScannedCount and LastEvaluatedKey. Capacity is not compared here; it is
// reported beside the result, since emulators do not compute it as DynamoDB does.
func Compare(pred, got *engine.Result, o CompareOptions) []Mismatch {
	var ms []Mismatch
	if errType(pred.Err) != errType(got.Err) {
		return append(ms, Mismatch{Field: "error", Predicted: errText(pred.Err), Got: errText(got.Err)})
	}
	if pred.Err != nil {
		return nil
	}
	d := ""
	if o.Unordered {
		if !sameSet(pred.Items, got.Items) {
			d = fmt.Sprintf("as a set: predicted %s, got %s", formatItems(pred.Items), formatItems(got.Items))
		}
	} else {
		d = diffItems(pred.Items, got.Items, o.TieKey)
	}
	if d != "" {
		ms = append(ms, Mismatch{Field: "items", Predicted: fmt.Sprintf("%d items", len(pred.Items)),
			Got: fmt.Sprintf("%d items", len(got.Items)), Detail: d})
	}
	if pred.Count != got.Count {
		ms = append(ms, Mismatch{Field: "count", Predicted: strconv.Itoa(pred.Count), Got: strconv.Itoa(got.Count)})
	}
	if pred.ScannedCount != got.ScannedCount && !o.Statement {
		ms = append(ms, Mismatch{Field: "scannedCount", Predicted: strconv.Itoa(pred.ScannedCount), Got: strconv.Itoa(got.ScannedCount)})
	}
	pk, gk := pred.LastEvaluatedKey, got.LastEvaluatedKey
	if o.TieKey != nil {
		pk, gk = only(pk, o.TieKey), only(gk, o.TieKey)
	}
	if (pk == nil) != (gk == nil) || !pk.Equal(gk) {
		ms = append(ms, Mismatch{Field: "lastEvaluatedKey", Predicted: FormatItem(pred.LastEvaluatedKey), Got: FormatItem(got.LastEvaluatedKey)})
	}
	return ms
}

func errType(e *engine.Error) string {
	if e == nil {
		return ""
	}
	return e.Type
}

func errText(e *engine.Error) string {
	if e == nil {
		return "no error"
	}
	return e.Type + " (" + e.Message + ")"
}

// only keeps the named attributes of a key; nil stays nil.
func only(it model.Item, names []string) model.Item {
	if it == nil {
		return nil
	}
	out := model.Item{}
	for _, n := range names {
		if v, ok := it[n]; ok {
			out[n] = v
		}
	}
	return out
}

// diffItems describes the first difference between two answers, "" when they agree.
// With a tie key, a run of consecutive items that agree on it may come in any order.
func diffItems(pred, got []model.Item, tie []string) string {
	i := 0
	for i < len(pred) && i < len(got) {
		if tie == nil {
			if !pred[i].Equal(got[i]) {
				return fmt.Sprintf("item %d: predicted %s, got %s", i, FormatItem(pred[i]), FormatItem(got[i]))
			}
			i++
			continue
		}
		// The run of items tied with pred[i], in both answers.
		j := i + 1
		for j < len(pred) && tied(pred[i], pred[j], tie) {
			j++
		}
		k := i + 1
		for k < len(got) && tied(got[i], got[k], tie) {
			k++
		}
		if !tied(pred[i], got[i], tie) || j != k || !sameSet(pred[i:j], got[i:k]) {
			return fmt.Sprintf("items %d..%d (equal %s): predicted %s, got %s", i, max(j, k)-1,
				strings.Join(tie, ","), formatItems(pred[i:j]), formatItems(got[i:min(k, len(got))]))
		}
		i = j
	}
	switch {
	case i < len(pred):
		return fmt.Sprintf("item %d missing: predicted %s", i, FormatItem(pred[i]))
	case i < len(got):
		return fmt.Sprintf("item %d extra: got %s", i, FormatItem(got[i]))
	}
	return ""
}

func tied(a, b model.Item, tie []string) bool {
	for _, n := range tie {
		x, okx := a[n]
		y, oky := b[n]
		if okx != oky || (okx && !x.Equal(y)) {
			return false
		}
	}
	return true
}

// sameSet reports whether two runs hold the same items, each matched once.
func sameSet(a, b []model.Item) bool {
	if len(a) != len(b) {
		return false
	}
	used := make([]bool, len(b))
next:
	for _, x := range a {
		for j, y := range b {
			if !used[j] && x.Equal(y) {
				used[j] = true
				continue next
			}
		}
		return false
	}
	return true
}

func formatItems(its []model.Item) string {
	parts := make([]string, len(its))
	for i, it := range its {
		parts[i] = FormatItem(it)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// FormatItem writes an item on one line in DynamoDB JSON, attribute names sorted and
// numbers as written, for messages: {"PK":{"S":"A#1"},"n":{"N":"2"}}. Nil is
// "null". It is dynamojson's writer, so a message shows an item exactly as the wire
// carries it (binary in base64).
func FormatItem(it model.Item) string {
	if it == nil {
		return "null"
	}
	return string(dynamojson.AppendItemExact(nil, it))
}
