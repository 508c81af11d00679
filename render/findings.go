package render

import "fmt"

// Finding is one review finding or validation error as the Review pane and the
// command line show it. Where names the place (file:line:col, pattern id, item
// index); Fix says what to do.
type Finding struct {
	Rule     string
	Severity string // error, warning, info
	Where    string
	Message  string
	Fix      string
}

// Findings draws findings one or two lines each (the fix indented below), the
// cursor row marked with ">". Only lines [top, top+height) are drawn.
func Findings(fs []Finding, cursor, width int, st Styles) []string {
	if len(fs) == 0 {
		return []string{st.OK.Render("no findings: the design passes")}
	}
	var lines []string
	for i, f := range fs {
		mark := "  "
		if i == cursor {
			mark = "> "
		}
		sev := st.Warn
		if f.Severity == "error" {
			sev = st.Error
		}
		head := mark + sev.Render(fmt.Sprintf("%-7s", f.Severity)) + " " + f.Where
		if f.Rule != "" {
			head += " [" + f.Rule + "]"
		}
		head += ": " + f.Message
		line := Clip(head, width)
		if i == cursor {
			line = st.Selected.Render(Fit(line, width))
		}
		lines = append(lines, line)
		if f.Fix != "" {
			lines = append(lines, Clip("          fix: "+f.Fix, width))
		}
	}
	return lines
}
