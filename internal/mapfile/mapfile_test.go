package mapfile

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

var sink byte // what the fault test reads, so the read is not optimised away

func TestReadMapsAndReads(t *testing.T) {
	dir := t.TempDir()
	want := bytes.Repeat([]byte("version: 1\n"), 5000)
	path := filepath.Join(dir, "d.yaml")
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	data, release, err := Read(path)
	if err != nil || !bytes.Equal(data, want) {
		t.Fatalf("Read: %v, %d bytes, equal %v", err, len(data), bytes.Equal(data, want))
	}
	release()

	empty := filepath.Join(dir, "empty.yaml")
	os.WriteFile(empty, nil, 0o644)
	if data, release, err := Read(empty); err != nil || len(data) != 0 {
		t.Fatalf("empty file: %v %q", err, data)
	} else {
		release()
	}
	if _, _, err := Read(filepath.Join(dir, "missing.yaml")); !os.IsNotExist(err) {
		t.Fatalf("missing file: %v", err)
	}
}

// A file truncated while mapped faults on the lost pages; with SetPanicOnFault the
// fault is a panic IsFault recognizes, not a crash.
func TestTruncatedFileFaultsAsAPanic(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.yaml")
	if err := os.WriteFile(path, bytes.Repeat([]byte("x"), 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	data, release, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	var got any
	func() {
		defer func() { got = recover() }()
		sink = data[len(data)-1]
	}()
	if got == nil {
		t.Skip("this system read the truncated page without a fault (the file was copied, not mapped)")
	}
	if !IsFault(got) {
		t.Fatalf("recovered %v (%T), not a fault", got, got)
	}
	if IsFault("a string") || IsFault(nil) {
		t.Fatal("IsFault took a non-fault")
	}
}
