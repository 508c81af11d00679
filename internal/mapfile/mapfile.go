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
)

// Read returns the contents of the file at path and a function that releases them;
// the contents must not be used, nor changed, after release is called. It maps a
// regular, non-empty file where the system allows and reads anything else
// (empty files, pipes, other systems) with os.ReadFile, for which release does
// nothing.
func Read(path string) (data []byte, release func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if data, release, ok := mapFile(f); ok {
		return data, release, nil
	}
	data, err = os.ReadFile(path)
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
