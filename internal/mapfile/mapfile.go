// Package mapfile reads a whole file for a reader that only looks at it: a regular
// file is mapped into memory instead of copied onto the heap.
//
// Why: on this project's machines fresh memory is the dominant cost of reading a
// large design. A copy of a 27 MB file costs 27 MB of pages the kernel must zero
// first (100 ms, a seventh of `stwb query`'s budget); mapping the file shares the
// page cache's pages and costs well under a millisecond.
//
// The one hazard of a mapping is a file that another program truncates while it is
// mapped: touching a page past the new end faults (SIGBUS). A goroutine that reads
// mapped data should run with debug.SetPanicOnFault(true), which turns that fault
// into a panic whose value IsFault recognizes, and report it as an error.
package mapfile

import (
	"os"
	"runtime"

	"stwb/internal/inputlimit"
)

// Read returns the contents of the file at path and a function that releases them;
// the contents must not be used, nor changed, after release is called. It maps a
// regular, non-empty file where the system allows and reads anything else
// (empty files, pipes, other systems), for which release does nothing. A device
// or a file past inputlimit.Limit is an error.
func Read(path string) (data []byte, release func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	// A device, or a file past the input limit, is refused before any of it is
	// mapped or read; a pipe is read within the limit.
	if err := inputlimit.Check(path, fi); err != nil {
		return nil, nil, err
	}
	if data, release, ok := mapFile(f); ok {
		return data, release, nil
	}
	data, err = inputlimit.ReadAll(f, path)
	return data, func() {}, err
}

// IsFault reports whether a recovered panic value is a memory fault, such as
// reading a mapped page of a file truncated since it was mapped (with
// debug.SetPanicOnFault on).
func IsFault(v any) bool {
	re, ok := v.(runtime.Error)
	if !ok {
		return false
	}
	_, hasAddr := re.(interface{ Addr() uintptr })
	return hasAddr
}
