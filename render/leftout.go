package render

import (
	"stwb/model"
)

// LeftOut says, one line each, that the items at leftOut (analysis.Analysis.LeftOut:
// over 400 KB, model.Stored) are missing from the cost report's figures because
// DynamoDB would never store them: `stwb cost` prints these on standard error and
// the workbench's Cost pane above the report.
func LeftOut(file string, pos []model.Pos, leftOut []int) []string {
	lines := make([]string, len(leftOut))
	for k, i := range leftOut {
		lines[k] = model.ItemWhere(file, pos, i) + " is over 400 KB: DynamoDB would refuse to store it, so the storage and every pattern leave it out"
	}
	return lines
}
