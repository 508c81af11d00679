//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSSBytes is a finished process's peak resident memory. Linux counts ru_maxrss
// in kilobytes, macOS in bytes.
func maxRSSBytes(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss)
	}
	return int64(ru.Maxrss) * 1024
}
