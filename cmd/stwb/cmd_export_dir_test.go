package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"stwb/interop"
)

// dynamodb-json -o DIR: an existing DIR is replaced only with --force, and then whole.
func TestExportDynamoJSONDirNeedsForce(t *testing.T) {
	dir := t.TempDir()
	orders := filepath.Join(dir, "orders.yaml")
	if code, _, e := runCmd(t, "", "sample", "orders", "-o", orders); code != 0 {
		t.Fatal(e)
	}
	out := filepath.Join(dir, "batches")
	os.Mkdir(out, 0o755)
	leftover := filepath.Join(out, "0099.json")
	os.WriteFile(leftover, []byte("from an older export"), 0o644)
	code, _, e := runCmd(t, "", "export", orders, "--format", "dynamodb-json", "-o", out)
	if code != 2 || !strings.Contains(e, "--force") {
		t.Fatalf("existing directory: exit %d, %q; want 2 asking for --force", code, e)
	}
	if code, _, e := runCmd(t, "", "export", orders, "--format", "dynamodb-json", "-o", out, "--force"); code != 0 {
		t.Fatal(e)
	}
	if _, err := os.Stat(leftover); err == nil {
		t.Error("--force kept a file of the old output: the directory was not replaced whole")
	}
	if files, _ := filepath.Glob(filepath.Join(out, "*.json")); len(files) == 0 {
		t.Error("no request files written")
	}
	if es, _ := filepath.Glob(filepath.Join(dir, ".batches.tmp-*")); len(es) != 0 {
		t.Errorf("temporary directories left: %v", es)
	}
}

// A write that fails part-way (here the second file cannot be created) leaves no
// output directory and no temporary one.
func TestWriteDirAtomicLeavesNothingOnFailure(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "batches")
	err := writeDirAtomic(out, []interop.OutFile{
		{Name: "0001.json", Data: []byte("{}")},
		{Name: filepath.Join("missing", "0002.json"), Data: []byte("{}")},
	})
	if err == nil {
		t.Fatal("the failing write reported success")
	}
	if es, _ := os.ReadDir(dir); len(es) != 0 {
		t.Errorf("left behind: %v", es)
	}
}
