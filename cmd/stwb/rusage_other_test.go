//go:build !unix

package main

import "os"

// maxRSSBytes is not known on this system.
func maxRSSBytes(*os.ProcessState) int64 { return 0 }
