//go:build !unix

package main

// processCPU is not measured off unix; the benchmark's cpu-ns/op then reads 0.
func processCPU() int64 { return 0 }
