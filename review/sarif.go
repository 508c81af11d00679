package review

import (
	"encoding/json"
	"path/filepath"
	"slices"
)

// SARIF 2.1.0 (OASIS, sarif-v2.1.0): the minimal log that code-review tools read to
// annotate the design file's lines. Required fields: version, runs; per run,
// tool.driver.name; per result, message.text (ruleId, level and locations are what
// make the annotation useful).
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	ShortDescription     sarifMessage `json:"shortDescription"`
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
	Properties struct {
		Source string `json:"source"`
	} `json:"properties"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
		Region *sarifRegion `json:"region,omitempty"`
	} `json:"physicalLocation"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// sarifLevel maps a severity to SARIF's level names.
func sarifLevel(s Severity) string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "note"
}

// SARIF writes findings as a SARIF 2.1.0 log for the design file at path.
func SARIF(path string, fs []Finding) ([]byte, error) { return SARIFWith(path, fs, nil) }

// SARIFWith is SARIF for findings of the review's rules and of extra ones defined
// elsewhere (stwb check --traffic's, traffic.Rules), in one log.
func SARIFWith(path string, fs []Finding, extra []Rule) ([]byte, error) {
	driver := sarifDriver{Name: "stwb"}
	index := map[string]int{}
	for i, r := range append(slices.Clip(rules), extra...) {
		sr := sarifRule{ID: r.ID, ShortDescription: sarifMessage{r.Summary}}
		sr.DefaultConfiguration.Level = sarifLevel(r.Severity)
		sr.Properties.Source = r.Source
		driver.Rules = append(driver.Rules, sr)
		index[r.ID] = i
	}
	results := []sarifResult{}
	for _, f := range fs {
		res := sarifResult{RuleID: f.Rule, RuleIndex: index[f.Rule], Level: sarifLevel(f.Severity),
			Message: sarifMessage{f.Message + " Fix: " + f.Fix}}
		if path != "" && path != "-" {
			var loc sarifLocation
			loc.PhysicalLocation.ArtifactLocation.URI = filepath.ToSlash(path)
			if f.Pos.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: f.Pos.Line, StartColumn: f.Pos.Col}
			}
			res.Locations = []sarifLocation{loc}
		}
		results = append(results, res)
	}
	log := sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0",
		Runs: []sarifRun{{Tool: sarifTool{Driver: driver}, Results: results}}}
	return json.MarshalIndent(log, "", "  ")
}
