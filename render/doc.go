// Package render turns stwb's domain values into text: the item grid, the pattern
// list and detail, a pattern's preview, the cost report, findings and the verify
// report. It is pure: functions from values to strings, tested on their own, used
// by the workbench and the command line. It never imports bubbletea, the workbench
// or the AWS SDK; lipgloss only styles and measures.
package render
