package main

import (
	"path/filepath"
	"testing"
)

// The course-enrolment design of issue 13 built in a real terminal at 80x24 from an
// empty file with palette commands alone (no form, no YAML but values), saved with
// :w; then stwb check exits 0 and stwb query --json returns the expected order.
func TestWorkbenchPaletteOnlyInTmux(t *testing.T) {
	dir, bin := tmuxAndBinary(t)
	path := filepath.Join(dir, "school.yaml")
	tm := &tmux{t: t, sock: filepath.Join(dir, "tmux-palette")}
	tm.run("new-session", "-d", "-s", "w", "-x", "80", "-y", "24", "env", "TERM=xterm-256color", "NO_COLOR=1", bin, path)
	defer tm.run("kill-server")
	tm.waitFor("new design")
	claim := func(id, email string) string {
		return `actions=[{put: {type: student, PK: "STUDENT#` + id + `", SK: PROFILE, studentId: ` + id + `, email: ` + email + `, GSI1PK: "EMAIL#` + email + `", GSI1SK: STUDENT}, condition: "attribute_not_exists(PK)"}, ` +
			`{put: {type: emailClaim, PK: "EMAIL#` + email + `", SK: CLAIM, email: ` + email + `}, condition: "attribute_not_exists(PK)"}]`
	}
	for _, c := range []struct{ line, done string }{
		{"gsi GSI1 GSI1PK GSI1SK", "added GSI GSI1"},
		{"entity student PK=STUDENT#{studentId} SK=PROFILE GSI1PK=EMAIL#{email} GSI1SK=STUDENT studentId:S email:S:unique name:S", "added entity student"},
		{"entity course PK=COURSE#{courseId} SK=META GSI1PK=DEPT#{dept} GSI1SK=COURSE#{courseId} courseId:S dept:S title:S", "added entity course"},
		{"entity enrolment PK=STUDENT#{studentId} SK=COURSE#{courseId} GSI1PK=COURSE#{courseId} GSI1SK=STUDENT#{studentId}", "added entity enrolment"},
		{"entity emailClaim PK=EMAIL#{email} SK=CLAIM email:S", "added entity emailClaim"},
		{`item student studentId=s-1 email=ada@example.com name="Ada Lovelace"`, "added item STUDENT#s-1"},
		{"item student studentId=s-2 email=alan@example.com name=Alan", "added item STUDENT#s-2"},
		{"item emailClaim email=ada@example.com", "added item EMAIL#ada"},
		{"item emailClaim email=alan@example.com", "added item EMAIL#alan"},
		{"item course courseId=c-1 dept=CS title=Compilers", "added item COURSE#c-1"},
		{"item course courseId=c-2 dept=CS title=Databases", "added item COURSE#c-2"},
		{"item course courseId=c-3 dept=MATH title=Algebra", "added item COURSE#c-3"},
		{"item enrolment studentId=s-1 courseId=c-1", "added item STUDENT#s-1 / COURSE#c-1"},
		{"item enrolment studentId=s-1 courseId=c-2", "added item STUDENT#s-1 / COURSE#c-2"},
		{"item enrolment studentId=s-2 courseId=c-1", "added item STUDENT#s-2 / COURSE#c-1"},
		{`newpattern name="Get a student's profile" operation=GetItem key={PK: "STUDENT#s-1", SK: PROFILE}`, "added pattern 1"},
		{`newpattern name="Find a student by email" index=GSI1 key="GSI1PK = :e" values={":e": "EMAIL#ada@example.com"}`, "added pattern 2"},
		{`newpattern name="A department's courses" index=GSI1 key="GSI1PK = :d AND begins_with(GSI1SK, :c)" values={":d": "DEPT#CS", ":c": "COURSE#"}`, "added pattern 3"},
		{`newpattern name="A student's courses" key="PK = :s AND begins_with(SK, :c)" values={":s": "STUDENT#s-1", ":c": "COURSE#"}`, "added pattern 4"},
		{`newpattern name="A course's students" index=GSI1 key="GSI1PK = :c AND begins_with(GSI1SK, :s)" values={":c": "COURSE#c-1", ":s": "STUDENT#"}`, "added pattern 5"},
		{`newpattern name="Register a student" operation=TransactWriteItems ` + claim("s-3", "grace@example.com"), "added pattern 6"},
		{`newpattern name="Register with a taken email" operation=TransactWriteItems expectError=TransactionCanceledException ` + claim("s-4", "ada@example.com"), "added pattern 7"},
		{"w", "saved /"},
	} {
		tm.keys(":")
		tm.text(c.line)
		tm.keys("Enter")
		tm.waitFor(c.done)
	}
	tm.keys("q")
	tm.waitGone()

	checkCourseDesign(t, path)
}
