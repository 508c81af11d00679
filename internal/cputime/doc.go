// Package cputime reads the CPU time the process has used. Benchmarks report it
// beside wall time because the machines they run on are shared: wall time per
// operation includes waiting for a core, CPU time does not.
package cputime
