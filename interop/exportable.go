package interop

import (
	"fmt"

	"stwb/engine"
	"stwb/model"
)

// Exportable is the design an export in format writes, and what DynamoDB would
// refuse of it, for the caller (stwb export, the workbench's :export) to warn about
// while it writes the export: unlike deploy, which refuses such a design before
// any call because it would fail halfway through changing a live table
// (live.checkDeployable), an export only writes a file, and the warning says what
// to fix before that file is deployed or loaded. pos[i] is item i's place in file
// (either may be empty), for the warnings.
//   - cloudformation, terraform, cdk: a table over 20 GSIs or 5 LSIs, in
//     CreateTable's words (engine.CheckCreateTable, the rule deploy uses); the
//     template is written as the design says.
//   - dynamodb-json, workbench: an item over 400 KB (model.Stored) is left out of
//     the items written, as DynamoDB would never store it: BatchWriteItem rejects
//     the whole request when one item in it exceeds 400 KB (API_BatchWriteItem.html),
//     so written, it would sink the 24 others of its file.
func Exportable(d *model.Design, file string, pos []model.Pos, format string) (*model.Design, []string) {
	var warnings []string
	switch format {
	case "cloudformation", "terraform", "cdk":
		if err := engine.CheckCreateTable(d.Table); err != nil {
			warnings = append(warnings, fmt.Sprintf("CreateTable would refuse table %s (%v), so deploying this %s template fails: merge indexes until the table has at most %d GSIs and %d LSIs (review's too-many-indexes)",
				d.Table.Name, err, format, model.MaxGSIs, model.MaxLSIs))
		}
	case "dynamodb-json", "workbench":
		sizes := make([]int, len(d.Items))
		for i, it := range d.Items {
			sizes[i] = model.ItemSize(it)
		}
		stored, _, leftOut := model.StoredItems(d.Items, sizes)
		if len(leftOut) == 0 {
			return d, nil
		}
		for _, i := range leftOut {
			warnings = append(warnings, fmt.Sprintf("%s %s; it is left out of the export: move its large attributes to S3 or split it (review's item-too-large)",
				model.ItemWhere(file, pos, i), engine.TooLarge(sizes[i])))
		}
		cp := *d
		cp.Items = stored
		return &cp, warnings
	}
	return d, warnings
}
