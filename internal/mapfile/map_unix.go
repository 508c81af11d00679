//go:build unix

package mapfile

import (
	"os"
	"syscall"
)

// mapFile maps f read-only; ok is false when it is not a regular non-empty file or
// the mapping fails, and the caller reads it instead.
func mapFile(f *os.File) (data []byte, release func(), ok bool) {
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() <= 0 || int64(int(fi.Size())) != fi.Size() {
		return nil, nil, false
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		return nil, nil, false
	}
	// The mapping outlives f: closing a file does not unmap it.
	return data, func() { syscall.Munmap(data) }, true
}
