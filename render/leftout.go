package render

import (
	"fmt"

	"stwb/model"
)

// ItemWhere names item i of a design for a message: its place in the file
// ("d.yaml:18:5: item 2") when pos gives it, else the file ("d.yaml: item 2"), else
// the bare "item 2". pos[i] is item i's place (designfile.File.ItemPos); file
// may be "".
func ItemWhere(file string, pos []model.Pos, i int) string {
	switch {
	case i >= 0 && i < len(pos) && pos[i].Line > 0:
		return fmt.Sprintf("%s: item %d", pos[i], i)
	case file != "":
		return fmt.Sprintf("%s: item %d", file, i)
	}
	return fmt.Sprintf("item %d", i)
}

// LeftOut says, one line each, that the items at leftOut (analysis.Analysis.LeftOut:
// over 400 KB, model.Stored) are missing from the cost report's figures because
// DynamoDB would never store them: `stwb cost` prints these on standard error and
// the workbench's Cost pane above the report.
func LeftOut(file string, pos []model.Pos, leftOut []int) []string {
	lines := make([]string, len(leftOut))
	for k, i := range leftOut {
		lines[k] = ItemWhere(file, pos, i) + " is over 400 KB: DynamoDB would refuse to store it, so the storage and every pattern leave it out"
	}
	return lines
}
