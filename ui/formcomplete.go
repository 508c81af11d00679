package ui

import (
	"fmt"
	"strings"
)

// Completion in a form's fields (issue 25: a Query pattern in a few keystrokes). A
// field with a complete function lists what its text may become; the line under
// the focused field shows those fits, and tab puts in what they all begin with.
// When tab has nothing to add it moves to the next field as before, so tab twice is
// "take it and go on". A choice field (the operation, the index) holds one of its
// fits: leaving it with a unique fit puts that fit in (tw is TransactWriteItems).

// offered is what tab would put in the focused field (the fits' common beginning;
// for a choice, the one fit) and the fits, for the values vals.
func (f *form) offered(vals map[string]string) (string, []string) {
	fl := &f.fields[f.focus]
	if fl.complete == nil {
		return "", nil
	}
	fits := fl.complete(vals, fl.input.Value())
	if len(fits) == 0 {
		return "", nil
	}
	if fl.choice && len(fits) == 1 {
		return fits[0], fits
	}
	return commonPrefix(fits), fits
}

// completeFocused is tab in a field that completes: it reports whether tab put
// something in (and so does not move on).
func (f *form) completeFocused() bool {
	fl := &f.fields[f.focus]
	text := fl.input.Value()
	if fl.complete == nil || f.offer == "" || len(f.offer) <= len(text) ||
		!strings.HasPrefix(strings.ToLower(f.offer), strings.ToLower(text)) {
		return false
	}
	if fl.choice && len(f.offers) == 1 {
		return false // chosen on leaving (choose), and tab goes on
	}
	fl.suggested = false
	fl.input.SetValue(f.offer)
	fl.input.CursorEnd()
	f.validate()
	return true
}

// choose puts the one fit of a choice field in as the field is left.
func (f *form) choose() {
	fl := &f.fields[f.focus]
	if !fl.choice || len(f.offers) != 1 || f.offers[0] == fl.input.Value() {
		return
	}
	fl.suggested = false
	fl.input.SetValue(f.offers[0])
	f.validate()
}

// offersLine is the line under a focused field that completes: what tab puts in
// (when it adds to text), then how the fits go on from there.
func offersLine(text, offer string, fits []string) string {
	if len(fits) == 1 {
		if fits[0] == text {
			return ""
		}
		return "tab: " + fits[0]
	}
	var rest []string
	for i, s := range fits {
		if i == 8 {
			rest = append(rest, fmt.Sprintf("(%d in all)", len(fits)))
			break
		}
		if tail := strings.TrimSpace(s[len(offer):]); tail != "" {
			rest = append(rest, tail)
		}
	}
	switch {
	case len(offer) > len(text):
		return "tab: " + offer + " · then " + strings.Join(rest, " · ")
	case offer == "":
		return "type the beginning of: " + strings.Join(rest, " · ")
	}
	return "type on: " + strings.Join(rest, " · ")
}
