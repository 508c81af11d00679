package cost

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// Sort keys that increase with every new item. DynamoDB does not split a hot
// partition key value for "traffic that is tracked by a monotonic increase or
// decrease of the sort key" (burst-adaptive-capacity.html, "Isolate frequently
// accessed items"; bp-partition-key-design.html): each split's new half takes all
// the new writes. Such keys come in many shapes (bp-sort-keys.html uses dates and
// version numbers; time-ordered ids are sorted by their leading time): monotonicOf
// reads them from a variable's sample values, and monotonicName from the template,
// whose variable's name may say it (createdAt, {ts}, {ulid}, {seq}): a design's
// samples are written by hand, few, or in a shape not recognised, and a key the
// template names a time or a sequence is taken as increasing, the safe verdict (no
// split credit), unless its samples are in no order (monotonic).

// monotonicOf reports whether every sample value of a variable increases with time
// (and in what shape); at least one value is needed.
func monotonicOf(vals []string) (bool, string) {
	if len(vals) == 0 {
		return false, ""
	}
	shapes := []struct {
		name string
		is   func(string) bool
	}{
		{"dates or times", IsDateOrTime},
		{"ULIDs (a millisecond time first)", isULID},
		{"UUIDv7s (a millisecond time first)", isUUIDv7},
		{"KSUIDs (a second time first)", isKSUID},
	}
	for _, sh := range shapes {
		if all(vals, sh.is) {
			return true, fmt.Sprintf("%s of the samples are %s, which increase with time", plural(len(vals), "value", "values"), sh.name)
		}
	}
	if len(vals) >= 2 && all(vals, allDigits) {
		if padded(vals) {
			return true, fmt.Sprintf("%s of the samples are a zero-padded sequence (%s ...), which increases with each item", plural(len(vals), "value", "values"), vals[0])
		}
		if len(vals) >= 3 && increasing(vals) {
			return true, fmt.Sprintf("%s of the samples increase one after another (%s, %s ...): a sequence", plural(len(vals), "value", "values"), vals[0], vals[1])
		}
	}
	return false, ""
}

// monotonic is what a variable's samples say of its order (monotonicOf), else what
// its name says (monotonicName), unless the samples say otherwise: two or more
// values that, in the order the design lists them, neither rise nor fall (random
// ids under a {seq}) are read as what production writes.
func monotonic(name string, vals []string) (bool, string) {
	if ok, why := monotonicOf(vals); ok {
		return ok, why
	}
	if len(vals) >= 2 && !slices.IsSorted(vals) && !slices.IsSortedFunc(vals, func(a, b string) int { return strings.Compare(b, a) }) {
		return false, ""
	}
	return monotonicName(name)
}

// monotonicWords are the words of a variable's name that say its values increase
// with each new item: the last word naming a time (createdAt, sent_at, eventTime,
// ts, orderDate, epoch), or any word naming a time-ordered id or a sequence
// (msgUlid, ksuid, uuidv7, seq, sequenceNo). Words are split at case changes,
// '_', '-' and '.', and compared in lower case.
var (
	monotonicLast = []string{"at", "time", "timestamp", "ts", "date", "datetime", "epoch"}
	monotonicAny  = []string{"ulid", "ksuid", "uuidv7", "seq", "sequence"}
)

// monotonicName reports whether a template variable's name says its values
// increase with each new item (monotonicWords), and why.
func monotonicName(name string) (bool, string) {
	words := nameWords(name)
	if len(words) == 0 {
		return false, ""
	}
	said := ""
	if last := words[len(words)-1]; slices.Contains(monotonicLast, last) {
		said = "a time"
	}
	for i, w := range words {
		switch {
		case slices.Contains(monotonicAny, w):
			said = "a time-ordered id or a sequence"
		case w == "uuid" && i+1 < len(words) && words[i+1] == "v7":
			said = "a time-ordered id or a sequence"
		}
	}
	if said == "" {
		return false, ""
	}
	return true, fmt.Sprintf("the template's variable %s names %s, which increases with each new item", name, said)
}

// nameWords splits an identifier into lower-case words: createdAt, created_at and
// CREATED-AT are created, at; uuidV7 is uuid, v7; HTTPTime is http, time.
func nameWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ':
			flush()
			continue
		case unicode.IsUpper(r) && len(cur) > 0 && (unicode.IsLower(cur[len(cur)-1]) || unicode.IsDigit(cur[len(cur)-1]) ||
			i+1 < len(rs) && unicode.IsLower(rs[i+1])):
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

func all(vals []string, is func(string) bool) bool {
	for _, v := range vals {
		if !is(v) {
			return false
		}
	}
	return true
}

// padded: digits of one length, some with leading zeros (000042): a counter
// written to sort as text.
func padded(vals []string) bool {
	zero := false
	for _, v := range vals {
		if len(v) != len(vals[0]) {
			return false
		}
		zero = zero || (len(v) > 1 && v[0] == '0')
	}
	return zero
}

// increasing: digit strings whose numbers increase strictly in sample order.
func increasing(vals []string) bool {
	for i := 1; i < len(vals); i++ {
		a, b := strings.TrimLeft(vals[i-1], "0"), strings.TrimLeft(vals[i], "0")
		if len(a) > len(b) || len(a) == len(b) && a >= b {
			return false
		}
	}
	return true
}

// isULID: 26 characters of Crockford's base32, the first at most 7 (the 48-bit
// millisecond time leads; github.com/ulid/spec).
func isULID(s string) bool {
	if len(s) != 26 || s[0] < '0' || s[0] > '7' {
		return false
	}
	for _, c := range strings.ToUpper(s) {
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z') || strings.ContainsRune("ILOU", c) {
			return false
		}
	}
	return true
}

// isUUIDv7: a UUID (8-4-4-4-12 hex) with version 7, whose first 48 bits are a Unix
// millisecond time (RFC 9562 section 5.7).
func isUUIDv7(s string) bool {
	if len(s) != 36 || s[14] != '7' {
		return false
	}
	for i, c := range s {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
			continue
		}
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// isKSUID: 27 base62 characters with a digit and a letter; a KSUID starts with a
// 32-bit second time, so its text sorts by time (github.com/segmentio/ksuid).
func isKSUID(s string) bool {
	if len(s) != 27 {
		return false
	}
	digit, letter := false, false
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letter = true
		default:
			return false
		}
	}
	return digit && letter
}
