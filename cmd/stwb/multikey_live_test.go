package main

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"stwb/designfile"
	"stwb/serve"
)

// multiKeyDesign is a tournament design whose index is keyed on the items' own
// attributes (GSI.DesignPattern.MultiAttributeKeys.html).
const multiKeyDesign = `version: 1
name: tournament
table:
  name: matches
  key: {partition: PK, sort: SK}
  attributes: {PK: S, SK: S, tournamentId: S, region: S, round: N, bracket: S}
  indexes:
    - name: ByRegionRound
      key: {partition: [tournamentId, region], sort: [round, bracket]}
items:
  - {PK: "MATCH#1", SK: META, tournamentId: W26, region: NA, round: 2, bracket: UPPER}
  - {PK: "MATCH#2", SK: META, tournamentId: W26, region: NA, round: 10, bracket: LOWER}
  - {PK: "MATCH#3", SK: META, tournamentId: W26, region: NA, round: 2, bracket: LOWER}
  - {PK: "MATCH#4", SK: META, tournamentId: W26, region: EU, round: 1, bracket: UPPER}
patterns:
  - id: 1
    name: A region's matches from round 2 on
    operation: Query
    index: ByRegionRound
    key: "tournamentId = :t AND #r = :r AND round >= :n"
    names: {"#r": region}
    values: {":t": W26, ":r": NA, ":n": 2}
    expect:
      - {PK: "MATCH#3", SK: META}
      - {PK: "MATCH#1", SK: META}
      - {PK: "MATCH#2", SK: META}
`

// TestMultiKeyDeployVerifyImport: a design with a multi-attribute index is
// deployed to an endpoint (stwb serve, empty), verified against it, and imported
// back from it with the same index key, every attribute in order.
func TestMultiKeyDeployVerifyImport(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.yaml")
	if err := os.WriteFile(path, []byte(multiKeyDesign), 0o644); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(serve.New(serve.Options{}))
	defer hs.Close()
	if code, out, errText := runCmd(t, "", "deploy", path, "--endpoint", hs.URL, "--yes"); code != 0 {
		t.Fatalf("deploy: exit %d\n%s%s", code, out, errText)
	}
	code, out, errText := runCmd(t, "", "verify", path, "--endpoint", hs.URL)
	if code != 0 || !strings.Contains(out, "OK") {
		t.Fatalf("verify: exit %d\n%s%s", code, out, errText)
	}
	back := filepath.Join(dir, "back.yaml")
	if code, _, errText := runCmd(t, "", "import", "--endpoint", hs.URL, "--table", "matches", "-o", back); code != 0 {
		t.Fatalf("import: exit %d\n%s", code, errText)
	}
	d, err := designfile.Load(back)
	if err != nil {
		t.Fatal(err)
	}
	src, _ := designfile.Load(path)
	if len(d.Table.Indexes) != 1 || !d.Table.Indexes[0].Key.Equal(src.Table.Indexes[0].Key) {
		t.Errorf("imported indexes %+v, want %+v", d.Table.Indexes, src.Table.Indexes)
	}
}
