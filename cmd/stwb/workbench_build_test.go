package main

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// The course-enrolment design of issue 13 (students, courses, enrolments many to
// many, a student by email, courses by department), built from an empty file through
// the workbench's forms alone: a GSI, four entities, items, seven patterns among them
// a TransactWriteItems of two conditional puts and its taken-email twin with
// expectError; saved with ctrl+s; run as the real Bubble Tea program (teatest) at
// 120x40. TestCourseEnrolmentKeystrokes builds it so (buildCourseByForms) and the
// fast way, and holds both to checkCourseDesign.

// checkCourseDesign holds a saved course-enrolment design to the command line: stwb
// check exits 0, and stwb query --json returns each read's items in order and the
// taken email's registration fails.
func checkCourseDesign(t *testing.T, path string) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run([]string{"check", path}, nil, &out, &errb); code != 0 {
		t.Fatalf("stwb check exit %d:\n%s%s", code, out.String(), errb.String())
	}
	for id, want := range map[string][][2]string{
		"3": {{"COURSE#c-1", "META"}, {"COURSE#c-2", "META"}},
		"2": {{"STUDENT#s-1", "PROFILE"}},
		"5": {{"STUDENT#s-1", "COURSE#c-1"}, {"STUDENT#s-2", "COURSE#c-1"}},
		"4": {{"STUDENT#s-1", "COURSE#c-1"}, {"STUDENT#s-1", "COURSE#c-2"}},
	} {
		out.Reset()
		if code := run([]string{"query", path, id, "--json"}, nil, &out, &errb); code != 0 {
			t.Fatalf("stwb query %s exit %d: %s", id, code, errb.String())
		}
		var r struct {
			Items []map[string]map[string]string `json:"items"`
		}
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		var got [][2]string
		for _, it := range r.Items {
			got = append(got, [2]string{it["PK"]["S"], it["SK"]["S"]})
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("pattern %s returns %v, want %v", id, got, want)
		}
	}
	out.Reset()
	run([]string{"query", path, "7", "--json"}, nil, &out, &errb)
	if !strings.Contains(out.String(), "TransactionCanceledException") {
		t.Errorf("the taken email's registration does not fail: %s", out.String())
	}
}
