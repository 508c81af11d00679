//go:build !unix

package designfile

import "time"

// cpuTime is not measured off unix (see perf_test.go): it reads 0, and so does the
// cpu-ns/op metric of the benchmarks.
func cpuTime() time.Duration { return 0 }
