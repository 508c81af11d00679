package render

import (
	"fmt"
	"strings"
)

// Finding is one review finding or validation error as the Review pane and the
// command line show it. Where names the place (file:line:col, pattern id, item
// index); Fix says what to do; Source is the passage the rule rests on.
type Finding struct {
	Rule     string
	Severity string // error, warning, info
	Where    string
	Message  string
	// Assumed is what the figures rest on, shown on its own below the message
	// (review.Finding.Assumed; the message then leaves it out).
	Assumed string
	Fix     string
	Source  string
}

// findingHead is a finding's first line before clipping: severity, where, rule and
// message.
func findingHead(f Finding, mark string, st Styles) string {
	sev := st.Warn
	if f.Severity == "error" {
		sev = st.Error
	}
	head := mark + sev.Render(fmt.Sprintf("%-7s", f.Severity)) + " " + f.Where
	if f.Rule != "" {
		head += " [" + f.Rule + "]"
	}
	return head + ": " + f.Message
}

// Findings draws findings fs[from:] one or two lines each (the fix indented below),
// the cursor row marked with ">", until height lines are drawn.
func Findings(fs []Finding, from, cursor, width, height int, st Styles) []string {
	if len(fs) == 0 {
		return []string{st.OK.Render("no findings: the design passes")}
	}
	var lines []string
	for i := from; i < len(fs) && len(lines) < height; i++ {
		f := fs[i]
		mark := "  "
		if i == cursor {
			mark = "> "
		}
		line := Clip(findingHead(f, mark, st), width)
		if i == cursor {
			line = Over(st.Selected, Fit(line, width))
		}
		lines = append(lines, line)
		if f.Fix != "" {
			lines = append(lines, Clip("          fix: "+f.Fix, width))
		}
	}
	if len(lines) > height {
		lines = lines[:height]
	}
	return lines
}

// FindingDetail is one finding whole, wrapped to width: what is wrong, what it
// assumed, what to do, and the passage the rule rests on.
func FindingDetail(f Finding, width int, st Styles) []string {
	lines := Wrap(findingHead(f, "", st), width)
	for _, part := range []struct{ label, text string }{{"assumed: ", f.Assumed}, {"fix: ", f.Fix}, {"source: ", f.Source}} {
		if part.text == "" {
			continue
		}
		lines = append(lines, "")
		indent := strings.Repeat(" ", len(part.label))
		for i, l := range Wrap(part.text, width-len(part.label)) {
			if i == 0 {
				lines = append(lines, st.Header.Render(part.label)+l)
			} else {
				lines = append(lines, indent+l)
			}
		}
	}
	return lines
}
