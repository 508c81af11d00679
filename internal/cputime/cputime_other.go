//go:build !unix

package cputime

// Process is not measured off unix: it reads 0, and so do the benchmark metrics
// made from it.
func Process() int64 { return 0 }
