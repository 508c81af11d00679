// Package interop moves designs in and out of other formats: NoSQL Workbench data
// models (in and out), DynamoDB JSON data files (in and out), infrastructure code
// (CloudFormation, Terraform, CDK), the design document (Markdown) and the module
// that owns key construction (Go, TypeScript). One file per format; ExportFile is
// the one entry that the command line and the workbench call.
package interop

import (
	"fmt"
	"strings"

	"stwb/analysis"
	"stwb/model"
)

// Format is one export format.
type Format struct {
	Name    string
	Summary string
	Ext     string // file extension of its output
}

// Formats lists the export formats in the order help shows them.
var Formats = []Format{
	{"workbench", "NoSQL Workbench data model (format 3.0)", "json"},
	{"cloudformation", "AWS::DynamoDB::Table resource (YAML template)", "yaml"},
	{"terraform", "aws_dynamodb_table resource", "tf"},
	{"cdk", "TypeScript dynamodb.TableV2 snippet", "ts"},
	{"markdown", "the design document for a pull request", "md"},
	{"dynamodb-json", "items as BatchWriteItem request files of 25", "json"},
	{"go", "Go package owning key construction and requests", "go"},
	{"typescript", "TypeScript module owning key construction and requests", "ts"},
}

// FormatNames lists the names of Formats.
func FormatNames() []string {
	ns := make([]string, len(Formats))
	for i, f := range Formats {
		ns[i] = f.Name
	}
	return ns
}

// Options tune an export.
type Options struct {
	// GoPackage names the generated Go package ("" derives it from the design name).
	GoPackage string
	// Analysis is the design's patterns run, priced and reviewed
	// (analysis.Run), for the design document: its review section is there only
	// when the analysis has a review (Options.Review). Nil runs the analysis
	// without one.
	Analysis *analysis.Analysis
}

// Output is what an export produced: one or more files, and notes on what the
// format could not hold.
type Output struct {
	Files []OutFile
	Notes []string
}

// OutFile is one output file; Name is empty for a single-file format, and a
// numbered name ("orders-001.json") where a format writes several.
type OutFile struct {
	Name string
	Data []byte
}

// ExportFile is the export `stwb export` and the workbench's export both write:
// the design as DynamoDB would take it (Exportable, whose warnings it returns),
// in the named format; the design document carries its review, from the same run
// as its results and costs. file and pos say where the design and its items are,
// for the warnings and the review's findings.
func ExportFile(d *model.Design, file string, pos []model.Pos, format string, opt Options) (*Output, []string, error) {
	design, warnings := Exportable(d, file, pos, format)
	if format == "markdown" && opt.Analysis == nil {
		a, err := analysis.Run(design, analysis.Options{Review: true, ItemPos: pos})
		if err != nil {
			return nil, warnings, err
		}
		opt.Analysis = a
	}
	out, err := Export(design, format, opt)
	return out, warnings, err
}

// Export writes the design in the named format.
func Export(d *model.Design, format string, opt Options) (*Output, error) {
	switch format {
	case "workbench":
		b, notes, err := ExportWorkbench(d)
		if err != nil {
			return nil, err
		}
		return &Output{Files: []OutFile{{Data: b}}, Notes: notes}, nil
	case "cloudformation":
		return singleFile(ExportCloudFormation(d), nil)
	case "terraform":
		return singleFile(ExportTerraform(d), nil)
	case "cdk":
		return singleFile(ExportCDK(d), nil)
	case "markdown":
		a := opt.Analysis
		if a == nil || a.Design != d {
			var err error
			if a, err = analysis.Run(d, analysis.Options{}); err != nil {
				return nil, err
			}
		}
		return singleFile(ExportMarkdown(a), nil)
	case "dynamodb-json":
		files, err := ExportBatchWrite(d)
		if err != nil {
			return nil, err
		}
		out := &Output{}
		for i, f := range files {
			out.Files = append(out.Files, OutFile{Name: fmt.Sprintf("%s-%03d.json", snakeName(d.Table.Name), i+1), Data: f})
		}
		if len(files) == 0 {
			out.Notes = append(out.Notes, "the design has no items, so there is no request file")
		}
		return out, nil
	case "go":
		return singleFile(ExportGo(d, opt.GoPackage))
	case "typescript":
		return singleFile(ExportTypeScript(d))
	}
	return nil, fmt.Errorf("unknown export format %q; use one of %s", format, strings.Join(FormatNames(), ", "))
}

// singleFile is the Output of a format that writes one file, or its writer's error.
func singleFile(b []byte, err error) (*Output, error) {
	if err != nil {
		return nil, err
	}
	return &Output{Files: []OutFile{{Data: b}}}, nil
}
